/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freezepath.h - how the target kernel freezes a superblock on suspend
 * (freezepath.c): the function that does it, which opt-in flag makes it
 * freeze a type, whether the tree has it or needs our core series, and
 * which callback a type's freeze reaches.
 */
#ifndef AF_FREEZEPATH_H
#define AF_FREEZEPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Where the suspend freeze is. */
enum freeze_state {
	FREEZE_NONE,		/* neither in the tree nor in a shipped series */
	FREEZE_TREE,		/* in the tree: the flag compiles and is honoured */
	FREEZE_SERIES,		/* only in a series of patches/ that applies
				 * to the tree, or the tree's own but without
				 * the prerequisites that series adds: make
				 * vfs first */
	FREEZE_PARTIAL,		/* the tree's own, with only some of its
				 * prerequisites (prereq.h) */
};

struct freeze_path {
	enum freeze_state state;
	const char *func;	/* the per-superblock suspend freeze, or NULL */
	char *flag;		/* the opt-in it honours ("FS_POWER_FREEZE") */
	char *where;		/* "fs/super.c", or the series that applies:
				 * "patches/linux-6.1/" */
	char *why;		/* FREEZE_NONE: why, in one clause */
	char *series;		/* the series of patches/ that adds what the
				 * tree's own freeze lacks: make vfs, or NULL */
	char *lacks;		/* the prerequisites the tree's own freeze
				 * lacks (prereq.h), "NAME (WHY); ...", or
				 * NULL */
	char *at;		/* where the tree's freeze falls short in
				 * its code, FILE:LINE:COL (the flag test
				 * that skips flagged types, the PM function
				 * that does not call it), or NULL */
	unsigned int line, col;	/* that place in the text parsed */
	bool super_op;		/* it calls a type's ->freeze_super */
};

/*
 * Read the suspend freeze of kernel tree KTREE: from its fs/super.c, else
 * from the core series shipped in patches/ that applies to its code.  A
 * freeze of the tree's own is FREEZE_TREE only with every prerequisite
 * that policy/prerequisites.tsv lists for it; without any, FREEZE_SERIES
 * (the series that adds them applies) or FREEZE_NONE; with some,
 * FREEZE_PARTIAL.  A core series whose first patches are in and whose
 * others are not (the PM hook missing) is FREEZE_PARTIAL too, and a tree
 * whose PM core does not call its freeze (a prerequisite with PATCH "-")
 * FREEZE_NONE.  FLAG stays the one the freeze tests when it is there
 * but does not decide (FREEZE_NONE): the types that carry it are
 * flagged, and check-tree says they are not frozen.
 */
void freeze_path_read(struct freeze_path *fp, const char *ktree);
void freeze_path_free(struct freeze_path *fp);

/*
 * In the C text BUF, the first known suspend freeze function defined
 * there: sets FP->func, ->flag (NULL when the function honours no flag
 * with /sys/power/freeze_filesystems at its default, 0), ->super_op.
 * False when BUF defines none.  For the tests.
 */
bool freeze_path_parse(struct freeze_path *fp, const char *buf, size_t len);

/* "FS_POWER_FREEZE" or "FS_AUTOFREEZE": the flag FP adds, for messages. */
const char *freeze_path_flag(const struct freeze_path *fp);

/*
 * A command that reads a tree's suspend freeze and prints from it alone
 * (autofreeze optin, prereqs): "CMD KTREE" in ARGV, the freeze read,
 * SHOW(FP, the tree's root) called, standard output flushed.
 */
int freeze_path_cmd(const char *cmd, int argc, char **argv,
		    void (*show)(const struct freeze_path *fp,
				 const char *ktree));

#endif /* AF_FREEZEPATH_H */
