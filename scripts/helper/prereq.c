// SPDX-License-Identifier: GPL-2.0
/*
 * prereq.c - reading policy/prerequisites.tsv and checking each line in a
 * tree (see prereq.h).  A line is
 *
 *	FREEZE	NAME	PATCH	ANCHOR	WHY
 *
 * FREEZE the suspend freeze it completes (filesystems_freeze_callback),
 * NAME what it is called in messages, PATCH the patch of patches/ that
 * adds it, ANCHOR the code that shows it is in a tree (anchors separated
 * by ";", each "PATH:F() ..."), WHY what goes wrong without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "anchor.h"
#include "cdef.h"
#include "freezepath.h"
#include "prereq.h"

enum { F_FREEZE, F_NAME, F_PATCH, F_ANCHOR, F_WHY, F_COUNT };

struct prereq {
	char *freeze, *name, *patch, *why;
	anchorvec anchors;
};

typedef VEC(struct prereq) prereqvec;

static const char prereqs_file[] = "policy/prerequisites.tsv";

static void prereq_free(struct prereq *p)
{
	free(p->freeze);
	free(p->name);
	free(p->patch);
	free(p->why);
	vec_free_each(&p->anchors, anchor_free);
}

/* The lines of policy/prerequisites.tsv, each checked for its form. */
static void prereqs_load(prereqvec *out)
{
	char *path = beside_helper(prereqs_file), *line = NULL;
	size_t cap = 0, k;
	unsigned int lineno = 0;
	FILE *f;

	if (!path)
		af_die(EXIT_BADINPUT, NULL, "no %s beside the helper",
		       prereqs_file);
	f = fopen(path, "r");
	if (!f)
		af_die(EXIT_BADINPUT, prereqs_file, "%s", strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *field[F_COUNT], *s = line, *why, *patch;
		struct prereq p = { 0 };
		size_t n;

		lineno++;
		s[strcspn(s, "\r\n")] = '\0';
		if (!*s || *s == '#')
			continue;
		n = split_tabs(s, field, F_COUNT);
		if (n < F_COUNT || strchr(field[F_COUNT - 1], '\t'))
			af_die(EXIT_BADINPUT, prereqs_file, "line %u: not %d "
			       "tab-separated fields (FREEZE NAME PATCH ANCHOR "
			       "WHY)", lineno, F_COUNT);
		why = anchors_parse(field[F_ANCHOR], &p.anchors);
		for (k = 0; !why && k < p.anchors.n; k++)
			if (!p.anchors.v[k].file)
				why = xasprintf("%s: a prerequisite's anchor "
						"names its file, PATH:F()",
						p.anchors.v[k].text);
		if (why)
			af_die(EXIT_BADINPUT, prereqs_file, "line %u: %s",
			       lineno, why);
		patch = xasprintf("patches/%s", field[F_PATCH]);
		s = strcmp(field[F_PATCH], "-") ? beside_helper(patch) : NULL;
		if (strcmp(field[F_PATCH], "-") && (!s || access(s, R_OK)))
			af_die(EXIT_BADINPUT, prereqs_file, "line %u: no %s "
			       "beside the helper", lineno, patch);
		free(s);
		free(patch);
		p.freeze = xstrdup(field[F_FREEZE]);
		p.name = xstrdup(field[F_NAME]);
		p.patch = xstrdup(field[F_PATCH]);
		p.why = xstrdup(field[F_WHY]);
		vec_push(out, p);
	}
	if (ferror(f))
		af_die(EXIT_RUNTIME, prereqs_file, "%s", strerror(errno));
	fclose(f);
	free(line);
	free(path);
}

/* anchor_scope's defined_in: a prerequisite's anchors name their file. */
static void no_unit(void *arg, const char *fn, strvec *paths)
{
	(void)arg;
	(void)fn;
	(void)paths;
}

/*
 * Does P hold in the tree of SC?  NULL, or why not (malloc'ed): "ANCHOR:
 * WHY", or with AT, WHY alone and *AT the place it falls short: the
 * function of the anchor that does not hold, else its file
 * (FILE:LINE:COL, malloc'ed).
 */
static char *prereq_missing(struct anchor_scope *sc, const struct prereq *p,
			    char **at)
{
	const char *path;
	unsigned int line;
	size_t k;

	for (k = 0; k < p->anchors.n; k++) {
		const struct anchor *a = &p->anchors.v[k];
		char *why = anchor_check(sc, a, &path, &line);
		struct anchor def = { a->file, a->fn, ANCHOR_DEFINED, NULL,
				      a->text };
		char *w;

		if (!why)
			continue;
		/* with AT, the place says which anchor: WHY alone */
		w = at ? xstrdup(why) : xasprintf("%s: %s", a->text, why);
		free(why);
		if (at) {
			why = anchor_check(sc, &def, &path, &line);
			*at = why ? xasprintf("%s:1:1", a->file) :
				xasprintf("%s:%u:1", path, line);
			free(why);
		}
		return w;
	}
	return NULL;
}

/*
 * Is the tree without one of P's files?  A trimmed tree (the tests'
 * fixtures: no kernel/, or no kernel/power/suspend.c): the PM core's
 * calls of its freeze, code that is upstream's or a series', are then
 * not looked for.  A kernel tree that builds has them all.
 */
static bool prereq_out_of_tree(const char *ktree, const struct prereq *p)
{
	size_t k;
	bool out = false;

	for (k = 0; k < p->anchors.n && !out; k++) {
		char *path = path_join(ktree, p->anchors.v[k].file);

		out = !is_file(path);
		free(path);
	}
	return out;
}

static void append(charvec *v, const char *sep, const char *s)
{
	if (v->n)
		for (; *sep; sep++)
			vec_push(v, *sep);
	for (; *s; s++)
		vec_push(v, *s);
}

static char *take(charvec *v)
{
	if (!v->n)
		return NULL;
	vec_push(v, '\0');
	return v->v;
}

/*
 * Check each prerequisite of FREEZE_FN in KTREE; with OUT, print each
 * as "has NAME PATCH" or "lacks NAME PATCH WHY: MISSING".
 */
static void check_all(const char *ktree, const char *freeze_fn,
		      struct prereq_state *st, FILE *out)
{
	prereqvec all = { 0 };
	struct ctexts texts = { 0 };
	struct anchor_scope sc = { ktree, "-", no_unit, NULL, &texts };
	charvec lacks = { 0 }, has = { 0 };
	size_t i;

	memset(st, 0, sizeof(*st));
	prereqs_load(&all);
	for (i = 0; i < all.n; i++) {
		const struct prereq *p = &all.v[i];
		char *missing, *s;

		if (strcmp(p->freeze, freeze_fn))
			continue;
		if (!strcmp(p->patch, "-")) {
			/* no patch adds it: without it nothing will */
			char *at = NULL;

			if (prereq_out_of_tree(ktree, p))
				continue;
			missing = prereq_missing(&sc, p, &at);
			/* listed only when missing: nothing to apply */
			if (missing && out)
				fprintf(out, "lacks\t%s\t-\t%s: %s\n", p->name,
					p->why, missing);
			if (missing && !st->broken) {
				st->broken = xasprintf("%s (%s)", missing,
						       p->why);
				st->at = at;
				at = NULL;
			}
			free(at);
			free(missing);
			continue;
		}
		st->total++;
		missing = prereq_missing(&sc, p, NULL);
		if (!missing) {
			append(&has, ", ", p->name);
			if (out)
				fprintf(out, "has\t%s\t%s\n", p->name, p->patch);
			continue;
		}
		if (!st->missing++) {
			const char *slash = strrchr(p->patch, '/');

			st->series = xasprintf("patches/%.*s", slash ?
					       (int)(slash - p->patch + 1) : 0,
					       p->patch);
		}
		s = xasprintf("%s (%s)", p->name, p->why);
		append(&lacks, "; ", s);
		free(s);
		if (out)
			fprintf(out, "lacks\t%s\t%s\t%s: %s\n", p->name,
				p->patch, p->why, missing);
		free(missing);
	}
	st->lacks = take(&lacks);
	st->has = take(&has);
	ctexts_free(&texts);
	vec_free_each(&all, prereq_free);
}

void prereqs_check(const char *ktree, const char *freeze_fn,
		   struct prereq_state *st)
{
	check_all(ktree, freeze_fn, st, NULL);
}

void prereq_state_free(struct prereq_state *st)
{
	free(st->lacks);
	free(st->has);
	free(st->series);
	free(st->broken);
	free(st->at);
	memset(st, 0, sizeof(*st));
}

static void show_prereqs(const struct freeze_path *fp, const char *ktree)
{
	struct prereq_state st;

	if (!fp->func)
		return;
	check_all(ktree, fp->func, &st, stdout);
	prereq_state_free(&st);
}

/*
 * autofreeze prereqs KTREE: the prerequisites of the tree's own suspend
 * freeze, one a line, "has NAME PATCH" or "lacks NAME PATCH WHY: the
 * anchor that is not there"; nothing for a tree whose freeze has none.
 */
int cmd_prereqs(int argc, char **argv)
{
	return freeze_path_cmd("prereqs", argc, argv, show_prereqs);
}
