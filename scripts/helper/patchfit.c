// SPDX-License-Identifier: GPL-2.0
/*
 * patchfit.c - the shipped series, and a series of unified diffs
 * applied in memory (see patchfit.h).  Only what git format-patch writes is read: "--- a/F",
 * "+++ b/F" ("/dev/null" for a new or deleted file), "@@ -A,B +C,D @@"
 * and the hunk's lines, counted by B and D so that the signature after
 * the last hunk is never read as one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ktree.h"
#include "patchfit.h"

/* A file of the tree as the patches so far left it. */
struct pfile {
	char *rel;
	strvec lines;		/* without their newlines */
	bool exists;
};

typedef VEC(struct pfile) pfilevec;

static struct pfile *load(pfilevec *files, const char *ktree, const char *rel)
{
	char *path, *buf = NULL, *p, *nl;
	size_t i, len = 0, cap = 0;
	struct pfile f = { 0 };

	for (i = 0; i < files->n; i++)
		if (!strcmp(files->v[i].rel, rel))
			return &files->v[i];
	f.rel = xstrdup(rel);
	path = path_join(ktree, rel);
	if (!read_file(path, &buf, &len, &cap, NULL, NULL)) {
		f.exists = true;
		for (p = buf; p < buf + len; p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(buf + len - p));
			if (!nl)
				nl = buf + len;
			vec_push(&f.lines, xstrndup(p, (size_t)(nl - p)));
		}
	}
	free(buf);
	free(path);
	vec_push(files, f);
	return &files->v[files->n - 1];
}

/* The next line of a patch at *P (without its newline), or NULL. */
static char *next_line(const char **p, const char *end)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl)
		nl = end;
	*p = nl + 1;
	return xstrndup(s, (size_t)(nl - s));
}

/* PRE[0..N) is F's lines from AT on. */
static bool matches_at(const struct pfile *f, size_t at, char *const *pre,
		       size_t n)
{
	size_t i;

	if (at + n > f->lines.n)
		return false;
	for (i = 0; i < n; i++)
		if (strcmp(f->lines.v[at + i], pre[i]))
			return false;
	return true;
}

/*
 * Put hunk PRE -> POST into F near line WANT (0-based): at the nearest
 * place PRE is, as patch looks for it.  False when it is nowhere.
 */
static bool apply_hunk(struct pfile *f, size_t want, strvec *pre,
		       strvec *post, long *delta)
{
	size_t d, at = 0, i, max = f->lines.n + 1;
	strvec out = { 0 };
	bool found = false;

	if (want > f->lines.n)
		want = f->lines.n;
	for (d = 0; d < max && !found; d++) {
		if (want >= d && matches_at(f, want - d, pre->v, pre->n)) {
			at = want - d;
			found = true;
		} else if (d && matches_at(f, want + d, pre->v, pre->n)) {
			at = want + d;
			found = true;
		}
	}
	if (!found)
		return false;
	*delta += (long)at - (long)want;
	for (i = 0; i < at; i++)
		vec_push(&out, f->lines.v[i]);
	for (i = 0; i < post->n; i++)
		vec_push(&out, xstrdup(post->v[i]));
	for (i = at; i < at + pre->n; i++)
		free(f->lines.v[i]);
	for (i = at + pre->n; i < f->lines.n; i++)
		vec_push(&out, f->lines.v[i]);
	vec_free(&f->lines);
	f->lines = out;
	return true;
}

/*
 * Apply the patch text BUF[0..LEN) to FILES, or with REVERSE take it
 * out: NULL, or why not.
 */
static char *apply_patch(pfilevec *files, const char *ktree, const char *buf,
			 size_t len, bool reverse)
{
	const char *p = buf, *end = buf + len;
	struct pfile *f = NULL;
	char *line, *why = NULL;
	unsigned int hunk = 0;
	long delta = 0;

	while (!why && (line = next_line(&p, end))) {
		unsigned long a, b = 1, c, d = 1;

		if (!strncmp(line, "+++ ", 4)) {
			const char *rel = line + 4;

			if (!strcmp(rel, "/dev/null"))
				rel = NULL;
			else if (!strncmp(rel, "b/", 2))
				rel += 2;
			f = rel ? load(files, ktree, rel) : NULL;
			hunk = 0;
			delta = 0;
		} else if (!strncmp(line, "@@ -", 4) && f &&
			   (sscanf(line, "@@ -%lu,%lu +%lu,%lu @@", &a, &b, &c,
				   &d) == 4 ||
			    sscanf(line, "@@ -%lu +%lu,%lu @@", &a, &c, &d) == 3 ||
			    sscanf(line, "@@ -%lu,%lu +%lu @@", &a, &b, &c) == 3 ||
			    sscanf(line, "@@ -%lu +%lu @@", &a, &c) == 2)) {
			strvec pre = { 0 }, post = { 0 };
			size_t want;

			hunk++;
			if (reverse) {
				unsigned long t = b;

				b = d;
				d = t;
				a = c;
			}
			while ((pre.n < b || post.n < d) &&
			       (free(line), line = next_line(&p, end))) {
				if (*line == '\\')
					continue;
				if (*line != (reverse ? '-' : '+'))
					vec_push(&pre, xstrdup(*line ? line + 1 : ""));
				if (*line != (reverse ? '+' : '-'))
					vec_push(&post, xstrdup(*line ? line + 1 : ""));
			}
			want = b ? a - 1 : a;
			if (delta < 0 && (size_t)-delta > want)
				want = 0;
			else
				want = (size_t)((long)want + delta);
			if (!f->exists && b)
				why = xasprintf("%s: no such file", f->rel);
			else if (!apply_hunk(f, want, &pre, &post, &delta))
				why = xasprintf("%s: hunk %u (line %lu) does not "
						"apply", f->rel, hunk, a);
			else
				f->exists = true;
			strvec_free(&pre);
			strvec_free(&post);
			if (!line)
				break;
		}
		free(line);
	}
	return why;
}

char *patch_series_fits(const char *ktree, char *const *patches, size_t n,
			bool reverse)
{
	pfilevec files = { 0 };
	char *why = NULL;
	size_t i;

	for (i = 0; i < n && !why; i++) {
		const char *patch = patches[reverse ? n - 1 - i : i];
		char *buf = NULL, *w;
		size_t len = 0, cap = 0;

		if (read_file(patch, &buf, &len, &cap, NULL, NULL)) {
			why = xasprintf("%s: %s", patch, strerror(errno));
			break;
		}
		w = apply_patch(&files, ktree, buf, len, reverse);
		if (w) {
			const char *base = strrchr(patch, '/');

			why = xasprintf("%s: %s", base ? base + 1 : patch, w);
			free(w);
		}
		free(buf);
	}
	for (i = 0; i < files.n; i++) {
		free(files.v[i].rel);
		strvec_free(&files.v[i].lines);
	}
	vec_free(&files);
	return why;
}

/* A patch of a series, not its cover letter: NNNN-*.patch, NNNN > 0. */
static bool is_patch(const char *dir, const char *name, unsigned char type)
{
	size_t n = strlen(name);

	(void)dir;
	(void)type;
	return n > 11 && strspn(name, "0123456789") == 4 && name[4] == '-' &&
		strncmp(name, "0000", 4) && !strcmp(name + n - 6, ".patch");
}

static bool is_series(const char *dir, const char *name, unsigned char type)
{
	(void)dir;
	return type == DT_DIR && !strncmp(name, "linux-", 6);
}

void series_list(seriesvec *out)
{
	char *top = beside_helper("patches");
	strvec dirs = { 0 };
	size_t i;

	if (top)
		list_dir(top, "patches", is_series, &dirs);
	for (i = 0; i < dirs.n; i++) {
		struct series sr = { dirs.v[i], { 0 } };
		char *dir = path_join(top, dirs.v[i] + strlen("patches/"));

		list_dir(dir, dir, is_patch, &sr.patches);
		vec_push(out, sr);
		free(dir);
	}
	vec_free(&dirs);
	free(top);
}

void series_list_free(seriesvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		free(v->v[i].name);
		strvec_free(&v->v[i].patches);
	}
	vec_free(v);
}

const struct series *series_fitting(const seriesvec *all, const char *ktree,
				    bool reverse, charvec *tried)
{
	size_t i, k;

	for (i = 0; i < all->n; i++) {
		const struct series *sr = &all->v[i];
		char *why = sr->patches.n ?
			patch_series_fits(ktree, sr->patches.v, sr->patches.n,
					  reverse) : xstrdup("no patches");
		char *s;

		if (!why)
			return sr;
		s = xasprintf("%s%s/: %s", tried->n ? "; " : "", sr->name, why);
		for (k = 0; s[k]; k++)
			vec_push(tried, s[k]);
		free(s);
		free(why);
	}
	return NULL;
}

long series_split(const struct series *sr, const char *ktree)
{
	size_t n = sr->patches.n, k;

	/* k = n: in whole; k = 0: applies whole; first the most in. */
	for (k = n + 1; n && k-- > 0;) {
		char *why = patch_series_fits(ktree, sr->patches.v, k, true);

		if (!why)
			why = patch_series_fits(ktree, sr->patches.v + k, n - k,
						false);
		if (!why)
			return (long)k;
		free(why);
	}
	return -1;
}

/* "0001", "0001-0003": the numbers of PATCHES[B..E), for messages. */
static void patch_numbers(const strvec *patches, size_t b, size_t e,
			  charvec *out)
{
	const char *first = strrchr(patches->v[b], '/') + 1;
	const char *last = strrchr(patches->v[e - 1], '/') + 1;
	char *s = e - b > 1 ? xasprintf("%.4s-%.4s", first, last) :
		xasprintf("%.4s", first);
	size_t i;

	for (i = 0; s[i]; i++)
		vec_push(out, s[i]);
	free(s);
}

char *series_split_text(const struct series *sr, long k)
{
	charvec v = { 0 };
	const char *s;

	for (s = sr->name; *s; s++)
		vec_push(&v, *s);
	for (s = "/ is only partly in: "; *s; s++)
		vec_push(&v, *s);
	patch_numbers(&sr->patches, 0, (size_t)k, &v);
	for (s = " in, "; *s; s++)
		vec_push(&v, *s);
	patch_numbers(&sr->patches, (size_t)k, sr->patches.n, &v);
	for (s = " missing"; *s; s++)
		vec_push(&v, *s);
	vec_push(&v, '\0');
	return v.v;
}

const struct series *series_partly_in(const seriesvec *all, const char *ktree,
				      long *k)
{
	size_t i;

	for (i = 0; i < all->n; i++) {
		*k = series_split(&all->v[i], ktree);
		if (*k > 0 && (size_t)*k < all->v[i].patches.n)
			return &all->v[i];
	}
	return NULL;
}

/*
 * autofreeze series KTREE: "applied SERIES" when a shipped series comes
 * out of the tree whole (it is in), else "partial SERIES WHY" when the
 * first patches of one are in and the others apply on top, followed by
 * the missing patches, else "applies SERIES" when one applies whole,
 * followed by its patches, one a line; else "none WHY".
 */
int cmd_series(int argc, char **argv)
{
	seriesvec all = { 0 };
	struct ktree_dir kd;
	charvec tried = { 0 }, ignored = { 0 };
	const struct series *sr;
	size_t i, first = 0;
	long k;
	int rc = ktree_only_arg("series", argc, argv, &kd);

	if (rc)
		return rc;
	series_list(&all);
	sr = series_fitting(&all, kd.root, true, &ignored);
	if (sr) {
		printf("applied\t%s\n", sr->name);
	} else if ((sr = series_partly_in(&all, kd.root, &k))) {
		char *why = series_split_text(sr, k);

		printf("partial\t%s\t%s\n", sr->name, why);
		free(why);
		first = (size_t)k;
	} else {
		sr = series_fitting(&all, kd.root, false, &tried);
		vec_push(&tried, '\0');
		if (sr)
			printf("applies\t%s\n", sr->name);
		else
			printf("none\tno series autofreeze ships applies to it "
			       "(%s)\n", tried.n > 1 ? tried.v :
			       "none is shipped");
	}
	for (i = first; sr && i < sr->patches.n; i++)
		puts(sr->patches.v[i]);
	vec_free(&tried);
	vec_free(&ignored);
	series_list_free(&all);
	ktree_dir_free(&kd);
	return flush_stdout();
}
