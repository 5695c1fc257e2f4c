// SPDX-License-Identifier: GPL-2.0
/*
 * unitindex.c - the index of a unit that analyzing it looks things up
 * in.
 *
 * index_unit() collects a unit's files, its functions and initializers
 * sorted by name (cmp_named_def()), its super_operations and the
 * functions it defines; index_free() frees them.  unit_defines() answers
 * the judgments' anchors (anchor.h) which of the unit's files define a
 * function.
 */
#include <stdlib.h>
#include <string.h>

#include "unitindex.h"

int cmp_named_def(const void *a, const void *b)
{
	return strcmp(((const struct named_def *)a)->name,
		      ((const struct named_def *)b)->name);
}

void index_unit(struct unit_survey *sv, const struct unit *u,
		struct unit_index *ix)
{
	size_t i, k;

	for (i = u->first; i < u->end; i++) {
		struct file_info *fi = sv->files.files.v[i];

		vec_push(&ix->files, fi);
		for (k = 0; k < fi->funcs.n; k++) {
			struct named_def e = { fi->funcs.v[k].name, fi,
					       &fi->funcs.v[k], false };

			vec_push(&ix->defs, e);
			strset_add(&ix->funcs, fi->funcs.v[k].name);
		}
		for (k = 0; k < fi->objs.n; k++) {
			struct named_def e = { fi->objs.v[k].name, fi,
					       &fi->objs.v[k], true };

			vec_push(&ix->defs, e);
		}
		for (k = 0; k < fi->sops.n; k++)
			strset_add(&ix->sops, fi->sops.v[k].name);
	}
	xqsort(ix->defs.v, ix->defs.n, sizeof(*ix->defs.v), cmp_named_def);
}

void index_free(struct unit_index *ix)
{
	vec_free(&ix->defs);
	vec_free(&ix->files);
	strset_free(&ix->sops);
	strset_free(&ix->funcs);
}

void unit_defines(void *arg, const char *fn, strvec *paths)
{
	const struct unit_index *ix = arg;
	struct named_def key = { fn, NULL, NULL, false };
	const struct named_def *e = xbsearch(&key, ix->defs.v, ix->defs.n,
					     sizeof(key), cmp_named_def);
	size_t i;

	if (!e)
		return;
	while (e > ix->defs.v && !strcmp(e[-1].name, fn))
		e--;
	for (i = (size_t)(e - ix->defs.v); i < ix->defs.n &&
	     !strcmp(ix->defs.v[i].name, fn); i++) {
		const char *path = ix->defs.v[i].fi->path;

		if (!ix->defs.v[i].obj && !strvec_has(paths, path))
			vec_push(paths, xstrdup(path));
	}
}
