/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judgments.h - the reviewed judgments of policy/judgments.tsv: what the
 * code alone does not tell (a cluster filesystem, work its freeze does
 * not quiesce, a file_system_type that owns no superblock, and what the
 * freeze does to each thread and workqueue converted), each with a
 * reason code and its evidence.  Only those for the tree's version are
 * loaded.
 */
#ifndef AF_JUDGMENTS_H
#define AF_JUDGMENTS_H

#include "util.h"

enum judged_what {
	JUDGED_UNIT,	/* the unit is not eligible */
	JUDGED_FSTYPE,	/* the file_system_type is never flagged */
	JUDGED_USE,	/* the use keeps its freezer */
	JUDGED_QUIESCED,	/* the unit's freeze quiesces the use's work */
	JUDGED_FLAGGED,	/* the file_system_type carries the opt-in flag
			 * for a reason of its own: check-tree accepts it */
};

struct judgment {
	enum judged_what what;
	char *unit, *name, *match;	/* match: NULL for any line */
	char *code, *evidence;
};

struct judgments {
	VEC(struct judgment) v;
};

/*
 * Load PATH's judgments that hold for kernel VERSION ("6.12"); PATH
 * NULL: the policy/judgments.tsv found beside the helper.  Dies with
 * FILE:LINE on a malformed line.
 */
void judgments_load(struct judgments *js, const char *path,
		    const char *version);
void judgments_free(struct judgments *js);

/* The judgment on unit UNIT, or on its file_system_type NAME, or NULL. */
const struct judgment *judged_unit(const struct judgments *js,
				   const char *unit);
const struct judgment *judged_fstype(const struct judgments *js,
				     const char *unit, const char *name);
/* The judgment that file_system_type NAME of UNIT carries the flag. */
const struct judgment *judged_flagged(const struct judgments *js,
				      const char *unit, const char *name);
/*
 * The judgment keeping the use in function FN of UNIT at LINE of the
 * file PATH, or NULL.  MATCH is looked for in the statement the use is
 * in, from its start to the use's line.
 */
const struct judgment *judged_use(const struct judgments *js,
				  const char *unit, const char *fn,
				  const char *path, unsigned int line);
/* Likewise, the judgment that the unit's freeze quiesces that use. */
const struct judgment *judged_quiesced(const struct judgments *js,
				       const char *unit, const char *fn,
				       const char *path, unsigned int line);

#endif /* AF_JUDGMENTS_H */
