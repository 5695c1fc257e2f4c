/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert.h - "autofreeze convert", the conversion pipeline: its state
 * and the steps convert.c and convrun.c share.
 */
#ifndef AF_CONVERT_H
#define AF_CONVERT_H

#include "cache.h"
#include "scan.h"
#include "util.h"

struct conv {
	const char *prog, *ktree, *dir, *out, *rules, *judgments, *touched;
	bool force, check;
	int report;		/* 0, 1, 2 for full */
	long jobs;
	struct cache cache;
	strvec plan, spatch_plan, scan, renames, units;
	char *flag, *collide, *renamed;
};

int cmd_convert(int argc, char **argv);

/* convert.c: a broken step's one line, exit 2 */
void __attribute__((noreturn)) conv_fail(struct conv *c);
/* convert.c: a progress line, when stderr is a terminal */
void conv_progress(struct conv *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* convert.c: OUT/NAME, malloc'ed */
char *conv_path(struct conv *c, const char *name);
/* convert.c: the command FN with ARGS in DIR, stdout into OUT/NAME */
int conv_call(struct conv *c, subcommand *fn, const char *dir,
	      const char *name, const char *err, strvec *args);
/* convert.c: conv_fail() unless RC is 0 */
void conv_must(struct conv *c, int rc);
/* convert.c: a copy of S appended to V */
void conv_push(strvec *v, const char *s);

/* convert.c: OUT/NAME's lines into LINES (emptied first), or conv_fail() */
void conv_load(struct conv *c, const char *name, strvec *lines);
/* convert.c: OUT/NAME made of LINES, each with a newline, or conv_fail() */
void conv_store(struct conv *c, const char *name, const strvec *lines);

/* convfiles.c: the plan's files into OUT/a and OUT/b */
void conv_copy_files(struct conv *c);
/*
 * convfiles.c: plain names for the files spatch cannot take, and
 * OUT/renames and OUT/plan.spatch
 */
void conv_rename_unsafe(struct conv *c);
/* convfiles.c: their own names again, in a/, b/ and the lists */
void conv_unrename(struct conv *c);

/* convfiles.c: check-tree's plan.spatch: the files with a use only */
void conv_with_uses(struct conv *c);
/* convert.c: LINES cut to those KEEP() takes given NAMES, into OUT/NAME */
void conv_keep_lines(struct conv *c, const char *name, strvec *lines,
		     const strvec *names,
		     bool (*keep)(const char *line, const struct strset *names));
/* convfiles.c: the noflag units put back, and OUT/warnings */
void conv_warnings(struct conv *c, const strvec *flags);

/* convrun.c: one run of RULE in MODE, its log in LOG */
void conv_run_rule(struct conv *c, const char *mode, const char *rule,
		   const char *log, const strvec *args);
/* convrun.c: the removal rules in MODE (patch or check) */
void conv_rule_pass(struct conv *c, const char *mode);
/* convrun.c: OUT/unparsed from the removal rules' logs */
void conv_list_unparsed(struct conv *c);
/* convrun.c: the flag rule on the units FLAGS flags */
void conv_flag_runs(struct conv *c, const strvec *flags);

#endif /* AF_CONVERT_H */
