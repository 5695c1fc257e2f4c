/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what check.c shares of "autofreeze report" (report.c).
 */
#ifndef AF_REPORT_H
#define AF_REPORT_H

#include <stdbool.h>

/* -f FORMAT of CMD: true for json, false for text; else bad input. */
bool format_is_json(const char *cmd, const char *format);

#endif /* AF_REPORT_H */
