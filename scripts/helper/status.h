/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h - a unit's status and the one-line reason for it (status.c).
 */
#ifndef AF_STATUS_H
#define AF_STATUS_H

#include "units.h"

/*
 * U's status and the one-line reason for it.  A unit with types none of
 * which is freeze-capable is skip, whatever is judged of it; else a
 * judgment that holds makes it skip, with the judgment's reason.  A
 * library is never converted; a unit that would be eligible but for a
 * judgment that has lapsed is kept as it is, unreviewed.  A library's
 * reason names its users' status: decide_units() decides libraries
 * last.
 */
void decide_status(struct unit_survey *sv, struct unit *u);

#endif /* AF_STATUS_H */
