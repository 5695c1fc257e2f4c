/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - the sub-commands (main.c dispatches them), and the context
 * rules units.c, twins.c and judgeuse.c share with scan.c.
 */
#ifndef AF_SCAN_H
#define AF_SCAN_H

#include "analyze.h"
#include "util.h"

int cmd_scan(int argc, char **argv);
int cmd_units(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_judgments(int argc, char **argv);
int cmd_optin(int argc, char **argv);
int cmd_spatch(int argc, char **argv);
int cmd_python(int argc, char **argv);
int cmd_ktree(int argc, char **argv);
/* rulerun.c (runs, flags, unparsed), report.c, check.c: after the plan */
int cmd_runs(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_unparsed(int argc, char **argv);

/* The context of U, given the kthread functions of its unit. */
enum context use_context(const struct use *u, const struct strset *kthreads);

/*
 * The kernel-thread functions of a unit made of FILES: those started as
 * threads, those calling set_freezable(), and (when the files were read
 * in full) the functions only they reach (callgraph.c).  Names are added
 * to SET; VIA, when given, maps each of the last to a caller.
 */
void unit_kthreads(struct file_info **files, size_t n, struct strset *set,
		   struct hmap *via);

#endif /* AF_SCAN_H */
