/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convplan.h - what "autofreeze convert" (convert.c) reads of the plan
 * it wrote and of its files (convplan.c).
 */
#ifndef AF_CONVPLAN_H
#define AF_CONVPLAN_H

#include "util.h"

/* The lines of the file PATH, without their newlines; false on failure. */
bool read_lines(const char *path, strvec *lines);
/* Column COL (1-based, tab-separated) of LINE, malloc'ed ("" past it). */
char *tsv_col(const char *line, int col);
/*
 * Column COL of PLAN's KIND lines, of UNIT's only when UNIT is not
 * NULL, appended to OUT (malloc'ed), in the plan's order.
 */
void plan_cols(const strvec *plan, const char *kind, int col,
	       const char *unit, strvec *out);
/* V sorted (strcmp) with duplicates dropped. */
void sort_uniq(strvec *v);
/* V's strings joined with SEP, malloc'ed. */
char *join(const strvec *v, const char *sep);
/*
 * The -D words the plan gives RULE (kthread_freezer or wq_freezable)
 * for UNIT (NULL: every unit): the units it may edit (RENAMED, when not
 * "", added: the files renamed out of them while spatch runs), the
 * kthread rule's thread functions and twins, the wq rule's kept uses.
 */
void plan_rule_defs(const strvec *plan, const char *rule, const char *unit,
		    const char *renamed, strvec *out);
/*
 * The files of UNIT (NULL: of every unit) that the removal rule of
 * CLASS ("task" or "wq") has something to look at in: a use of a
 * workqueue name (wq_freezable) or of any other freezer name
 * (kthread_freezer), as SCAN has them; kthread_freezer sees every file
 * of a unit with twins, since the macros it renames are no API names.
 */
void rule_files(const strvec *plan, const strvec *scan, const char *class,
		const char *unit, strvec *out);

#endif /* AF_CONVPLAN_H */
