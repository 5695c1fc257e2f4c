/* SPDX-License-Identifier: GPL-2.0 */
/*
 * patchfit.h - the core series shipped in patches/, and whether one
 * applies to a tree or is in it already.  Each patch is applied in
 * memory, in order, to the tree's files, as patch -p1 -F 0 would: every
 * hunk's context and removed lines exactly, at its line or the nearest
 * offset; in reverse, the last patch first, to ask whether a series is
 * in.  What identifies the series a tree takes is its code, not its
 * version number.
 */
#ifndef AF_PATCHFIT_H
#define AF_PATCHFIT_H

#include <stdbool.h>

#include "util.h"

/* A series of patches/: its directory and patches, cover letter left out. */
struct series {
	char *name;		/* "patches/linux-6.1" */
	strvec patches;		/* full paths, in order */
};

typedef VEC(struct series) seriesvec;

/* The series shipped beside the helper, in name order. */
void series_list(seriesvec *out);
void series_list_free(seriesvec *v);

/*
 * Apply the patches PATCHES[0..N) (full paths, in order) to the tree
 * KTREE in memory, or with REVERSE take them out, the last first: NULL
 * when every hunk applies, else why not, naming the patch, the file and
 * the hunk (malloc'ed).
 */
char *patch_series_fits(const char *ktree, char *const *patches, size_t n,
			bool reverse);

/*
 * The first series of ALL that applies whole to the tree KTREE (with
 * REVERSE: comes out of it whole), or NULL; each that does not adds
 * "SERIES/: why" to TRIED, "; " between them.
 */
const struct series *series_fitting(const seriesvec *all, const char *ktree,
				    bool reverse, charvec *tried);

/*
 * Where SR stands in the tree KTREE: K when its first K patches come out
 * of the tree (the last first) and the others apply to it as it is (K =
 * 0: it applies whole; K = the number of patches: it is in whole), the
 * largest such K; -1 when there is none.
 */
long series_split(const struct series *sr, const char *ktree);

/*
 * The first series of ALL that is partly in the tree KTREE (a split K
 * with 0 < K < its number of patches, set in *K), or NULL.
 */
const struct series *series_partly_in(const seriesvec *all, const char *ktree,
				      long *k);

/*
 * "patches/linux-6.12/ is only partly in: 0001 in, 0002 missing": SR
 * with its first K patches in (malloc'ed).
 */
char *series_split_text(const struct series *sr, long k);

/* autofreeze series KTREE: which shipped series the tree has or takes. */
int cmd_series(int argc, char **argv);

#endif /* AF_PATCHFIT_H */
