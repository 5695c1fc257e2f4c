/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twins.h - a unit's freezable macros with a plain twin (twins.c), and
 * which of them the conversion leaves with no use.
 */
#ifndef AF_TWINS_H
#define AF_TWINS_H

#include <stdbool.h>

#include "unitindex.h"
#include "units.h"

/*
 * The freezable macros of U that have a plain twin in U: a freezer API
 * name the unit defines as a function-like macro (bcachefs's
 * kthread_wait_freezable()), and another macro of the unit whose
 * parameters and body are the same, token for token, but for the
 * freezable one's single try_to_freeze() (kthread_wait()).  The rules
 * rename one to the other in kernel threads: the thread then sleeps
 * exactly as before, without the freeze point.
 */
void find_twins(struct unit *u, const struct unit_index *ix);

/*
 * Whether the conversion leaves U's freezable twin NAME (find_twins())
 * with no use, so that its definition goes (kthread_freezer.cocci's -D
 * unused_twins): NAME is used, and every use is in one of U's threads
 * (u->kthread_set), where the rules rename it to its plain twin; a use
 * in a function no thread owns, in another macro or outside a function
 * keeps it.  Its definitions ("#define NAME(") are not uses.  Never
 * with --force: a thread the rules leave whole keeps its uses, and only
 * without --force is its unit then put back as it was.  Nor when
 * another unit read here defines a NAME too: the rules may run on both
 * at once, and would take that one.
 */
bool twin_left_unused(const struct unit_survey *sv,
		      const struct unit *u, const char *name);

#endif /* AF_TWINS_H */
