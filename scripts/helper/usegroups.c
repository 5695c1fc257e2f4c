// SPDX-License-Identifier: GPL-2.0
/*
 * usegroups.c - a unit's freezer uses as its changelog lists them, for
 * "autofreeze report -f changelog" (report.c), which series.sh writes
 * its commit messages from: the uses of one status (converted, kept)
 * with the same reason make one group, in the order their first use
 * comes, and a group is one line, its places, its APIs, its reason, and
 * the evidence that its work is quiesced as a sentence of its own.  The
 * verdict and its reason are use_verdict()'s (verdict.h); this only
 * groups and words them.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "usegroups.h"
#include "util.h"

/*
 * The reason of verdict V as a changelog gives it: without the rules'
 * hint to the tool's user at its end ("(-D kthread_fns=FN if it is
 * one)", kthread_freezer.cocci's), which a reader of the patch cannot
 * act on.
 */
static char *changelog_why(const struct use_verdict *v)
{
	static const char hint[] = " (-D kthread_fns=";
	const char *h = strstr(v->why, hint);
	size_t n = strlen(v->why);

	if (h && n && v->why[n - 1] == ')')
		return xstrndup(v->why, (size_t)(h - v->why));
	return xstrdup(v->why);
}

static void put_str(charvec *c, const char *s)
{
	while (*s)
		vec_push(c, *s++);
}

void use_groups_add(struct use_groups *g, const struct scanned_use *s,
		    const struct use_verdict *v)
{
	char *why = changelog_why(v), *line;
	struct use_group *grp = NULL;
	size_t i;

	for (i = 0; i < g->n && !grp; i++)
		if (!strcmp(g->v[i].status, v->status) &&
		    !strcmp(g->v[i].why, why))
			grp = &g->v[i];
	line = xasprintf("%ld", s->at.line);
	if (!grp) {
		vec_grow(g);
		grp = &g->v[g->n++];
		memset(grp, 0, sizeof(*grp));
		grp->status = v->status;
		grp->why = why;
		grp->file = s->at.file;
	} else {
		free(why);
		/* a place in another file than the group's first is named */
		if (!strcmp(grp->file, s->at.file)) {
			vec_push(&grp->where, ',');
		} else {
			put_str(&grp->where, ", ");
			put_str(&grp->where, s->at.file);
			vec_push(&grp->where, ':');
		}
	}
	put_str(&grp->where, line);
	free(line);
	if (!strvec_has(&grp->apis, s->api))
		vec_push(&grp->apis, s->api);
}

void use_groups_print(FILE *f, const struct use_groups *g, const char *lead,
		      const char *status)
{
	static const char mark[] = "; quiesced: ";
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		const struct use_group *grp = &g->v[i];
		const char *ev = strstr(grp->why, mark);
		int wl = ev ? (int)(ev - grp->why) : (int)strlen(grp->why);

		if (strcmp(grp->status, status))
			continue;
		fprintf(f, "%s- %s:%.*s (", lead, grp->file,
			(int)grp->where.n, grp->where.v);
		for (k = 0; k < grp->apis.n; k++)
			fprintf(f, "%s%s", k ? ", " : "", grp->apis.v[k]);
		fprintf(f, "), %.*s.", wl, grp->why);
		if (ev && ev[strlen(mark)])
			fprintf(f, " Quiesced: %s.", ev + strlen(mark));
		putc('\n', f);
	}
}

void use_groups_free(struct use_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		free(g->v[i].why);
		vec_free(&g->v[i].where);
		vec_free(&g->v[i].apis);
	}
	vec_free(g);
}
