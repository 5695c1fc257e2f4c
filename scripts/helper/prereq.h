/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prereq.h - what a tree's own suspend freeze must do before a
 * conversion may rely on it (policy/prerequisites.tsv): each a fix that
 * patches/ ships, found in a tree by the code it adds (its anchors,
 * anchor.h), never by the tree's version.  Mainline's freeze
 * (filesystems_freeze_callback()) lacks three: it thaws what it did not
 * freeze, it ignores a failed freeze, and hibernation through
 * /dev/snapshot does not call it.
 */
#ifndef AF_PREREQ_H
#define AF_PREREQ_H

#include <stddef.h>

#include "util.h"

/* What the prerequisites of a suspend freeze are in one tree. */
struct prereq_state {
	size_t total;		/* the prerequisites of that freeze */
	size_t missing;		/* of those, the ones the tree lacks */
	char *lacks;		/* "NAME (WHY); ...": the missing ones */
	char *has;		/* "NAME, ...": the ones it has, or NULL */
	char *series;		/* "patches/linux-mainline/": where the
				 * first missing one's patch is, or NULL */
	char *broken;		/* the first missing one no patch adds
				 * (PATCH "-": the PM core's call of the
				 * freeze), "ANCHOR: WHY (WHY NEEDED)", or
				 * NULL; not counted in total or missing */
	char *at;		/* with broken: FILE:LINE:COL of the
				 * function it is missing from */
};

/*
 * Check, in the tree KTREE, each prerequisite that policy/prerequisites.tsv
 * (beside the helper) lists for the suspend freeze FREEZE_FN.  Those
 * with PATCH "-" (code no patch of ours adds: the PM core's calls of
 * the freeze) are looked for only where the tree has their files (a
 * trimmed test tree may have no kernel/power/).  Dies on a malformed
 * file.
 */
void prereqs_check(const char *ktree, const char *freeze_fn,
		   struct prereq_state *st);
void prereq_state_free(struct prereq_state *st);

/* autofreeze prereqs KTREE: each prerequisite, "has" or "lacks", why. */
int cmd_prereqs(int argc, char **argv);

#endif /* AF_PREREQ_H */
