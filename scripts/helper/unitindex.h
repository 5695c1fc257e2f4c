/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unitindex.h - what analyzing a unit looks things up in (unitindex.c):
 * its files, and its functions and initializers by name, for the
 * traces of fstypes.c, the twins of twins.c and the judgments' anchors.
 */
#ifndef AF_UNITINDEX_H
#define AF_UNITINDEX_H

#include <stdbool.h>

#include "units.h"
#include "util.h"

/* A function or initializer of a unit, by name. */
struct named_def {
	const char *name;
	const struct file_info *fi;
	const struct definition *d;
	bool obj;		/* an initializer */
};

/* What analyzing a unit looks things up in. */
struct unit_index {
	VEC(struct named_def) defs;	/* sorted by name */
	VEC(struct file_info *) files;
	struct strset sops;		/* the unit's super_operations */
	struct strset funcs;		/* the functions it defines */
	struct ctexts *texts;		/* files read and lexed: the survey's */
};

/* qsort() and bsearch() order of named_defs: by name. */
int cmp_named_def(const void *a, const void *b);

/* IX for unit U of SV: its files, functions, initializers and sops. */
void index_unit(struct unit_survey *sv, const struct unit *u,
		struct unit_index *ix);
void index_free(struct unit_index *ix);

/* anchor_scope's defined_in: the files of the unit that define FN. */
void unit_defines(void *arg, const char *fn, strvec *paths);

#endif /* AF_UNITINDEX_H */
