/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - decisions taken after the plan, once the rules have run
 * (verdict.c): thread-name collisions, the opt-in flag, and the verdict
 * on every freezer use for the report.
 */
#ifndef AF_VERDICT_H
#define AF_VERDICT_H

int cmd_runs(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_unparsed(int argc, char **argv);

#endif
