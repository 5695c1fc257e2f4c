/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judgments.h - the reviewed judgments of policy/judgments.tsv: what the
 * code alone does not tell (a cluster filesystem, work its freeze does
 * not quiesce, a file_system_type that owns no superblock, what the
 * freeze does to each thread and workqueue converted, and the caveats
 * of a unit's conversion a changelog must carry), each with a reason
 * code, the code it rests on (its anchors) and its evidence.
 *
 * A judgment is a fact about code, not about a version: it holds in a
 * tree where each of its anchors, and each place its evidence cites, is
 * there (anchor.h), whatever the tree's version.  Where they are not,
 * it has lapsed, and says why; what it decided is then unreviewed.
 */
#ifndef AF_JUDGMENTS_H
#define AF_JUDGMENTS_H

#include "anchor.h"
#include "util.h"

enum judged_what {
	JUDGED_UNIT,	/* the unit is not eligible */
	JUDGED_FSTYPE,	/* the file_system_type is never flagged */
	JUDGED_USE,	/* the use keeps its freezer */
	JUDGED_QUIESCED,	/* the unit's freeze quiesces the use's work */
	JUDGED_FLAGGED,	/* the file_system_type carries the opt-in flag
			 * for a reason of its own: check-tree accepts it */
	JUDGED_NOTE,	/* a caveat of the unit's conversion, which the
			 * report prints under the unit; its code names
			 * it, and decides nothing */
};

extern const char *const judged_what_names[];

enum judgment_state {
	JUDGMENT_UNCHECKED,	/* its unit was not surveyed */
	JUDGMENT_HOLDS,		/* every anchor and citation is there */
	JUDGMENT_LAPSED,	/* one is not: see lapse */
};

struct judgment {
	enum judged_what what;
	char *unit, *name, *match;	/* match: NULL for any line */
	char *code;
	anchorvec anchors;
	char *cites;		/* the evidence as written, with citations */
	unsigned int lineno;	/* in the judgments file; 0: derived */
	enum judgment_state state;
	char *evidence;		/* rendered in this tree: when it holds */
	char *lapse;		/* why it does not hold: when lapsed */
};

struct judgments {
	VEC(struct judgment) v;
	char *path;		/* the file, as messages name it */
};

/*
 * Load PATH's judgments; PATH NULL: the policy/judgments.tsv found
 * beside the helper.  Dies with FILE: line N on a malformed line, on a
 * line that names kernel versions instead of code, and on an anchor or
 * citation that does not parse.
 */
void judgments_load(struct judgments *js, const char *path);
void judgments_free(struct judgments *js);

/* Check the anchors and render the evidence of UNIT's judgments in SC. */
void judgments_check(struct judgments *js, const char *unit,
		     struct anchor_scope *sc);

/*
 * The judgment that holds here on the subject of J, which does not: J
 * was written for other code.  NULL when none does.
 */
const struct judgment *judgment_instead(const struct judgments *js,
					const struct judgment *j);

/* "policy/judgments.tsv:31": where J is written. */
char *judgment_where(const struct judgments *js, const struct judgment *j);

/*
 * The judgment that holds on unit UNIT, or on its file_system_type
 * NAME, or NULL.
 */
const struct judgment *judged_unit(const struct judgments *js,
				   const char *unit);
const struct judgment *judged_fstype(const struct judgments *js,
				     const char *unit, const char *name);
/* The judgment that file_system_type NAME of UNIT carries the flag. */
const struct judgment *judged_flagged(const struct judgments *js,
				      const char *unit, const char *name);
/*
 * The judgment of kind WHAT (use: it keeps the use; quiesced: the freeze
 * quiesces its work) in STATE on the use in function FN of UNIT at LINE
 * of the file PATH, or NULL.  MATCH is looked for in the statement the
 * use is in, from its start to the use's line.
 */
const struct judgment *judged_at(const struct judgments *js,
				 enum judged_what what,
				 enum judgment_state state, const char *unit,
				 const char *fn, const char *path,
				 unsigned int line);

/*
 * The notes on unit UNIT that hold here, in the file's order: I from 0,
 * the Ith, or NULL after the last.
 */
const struct judgment *judged_note(const struct judgments *js,
				   const char *unit, size_t i);

/* A lapsed judgment on unit UNIT, or NULL when none is written for it. */
const struct judgment *lapsed_unit(const struct judgments *js,
				   const char *unit);

#endif /* AF_JUDGMENTS_H */
