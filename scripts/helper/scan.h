/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - the sub-commands (main.c dispatches them), and the context
 * rules units.c, twins.c and judgeuse.c share with scan.c.
 */
#ifndef AF_SCAN_H
#define AF_SCAN_H

#include "analyze.h"
#include "util.h"

/* A sub-command: ARGV[0] its name, the rest its arguments; the exit code. */
typedef int subcommand(int argc, char **argv);

subcommand cmd_scan, cmd_units, cmd_plan, cmd_judgments, cmd_optin,
	cmd_spatch, cmd_python, cmd_ktree;
/* rulerun.c (runs, flags, unparsed), report.c, check.c: after the plan */
subcommand cmd_runs, cmd_flags, cmd_report, cmd_check, cmd_unparsed;

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
