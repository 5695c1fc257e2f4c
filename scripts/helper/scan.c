// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - "autofreeze scan": every freezer API use in the given files,
 * with its context (DESIGN.md §2.1).
 *
 * The kthread functions of a file are known from its whole unit: in a
 * kernel tree, the unit of the file's directory (the nearest directory
 * up that is a unit: fs/xfs for fs/xfs/libxfs/x.c), read in full even
 * when only part of it was asked for; outside a kernel tree, the set of
 * paths given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "scan.h"
#include "tree.h"

enum context use_context(const struct use *u, const struct strset *kthreads)
{
	if (u->where == WHERE_MACRO)
		return CTX_MACRO;
	if (freezer_apis[u->api].class == API_WQ)
		return CTX_KTHREAD;
	if (u->where == WHERE_FILE)
		return CTX_UNKNOWN;
	return strset_has(kthreads, u->func) ? CTX_KTHREAD : CTX_USER;
}

void unit_kthreads(struct file_info **files, size_t n, struct strset *set)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < files[i]->threads.n; j++)
			strset_add(set, files[i]->threads.v[j]);
		for (j = 0; j < files[i]->freezable.n; j++)
			strset_add(set, files[i]->freezable.v[j]);
	}
}

struct unit_ref {
	char *dir;		/* directory of a file, as spelled */
	char *unit;		/* its unit: a real path, or "" */
	bool core;
};

struct rec {
	const char *file;
	const struct use *u;
	enum context ctx;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->u->line != y->u->line)
		return x->u->line < y->u->line ? -1 : 1;
	if (x->u->col != y->u->col)
		return x->u->col < y->u->col ? -1 : 1;
	return 0;
}

static void add_walked(const char *path, ino_t ino, void *arg)
{
	fileset_add(arg, path, ino);
}

/*
 * The unit of directory DIR (as spelled): a real path, or NULL.  Outside
 * the units of a kernel tree, DIR itself.
 */
static char *unit_of(const char *dir, bool *core)
{
	char real[PATH_MAX], *root, *rel, *u;
	size_t n;

	*core = false;
	if (!realpath(dir, real))
		return NULL;
	root = ktree_root(real);
	if (!root)
		return NULL;
	n = strlen(root);
	rel = unit_dir_of(root, real + n + (real[n] == '/'));
	if (rel) {
		u = path_join(root, rel);
		*core = !strcmp(rel, "fs");
		free(rel);
	} else {
		u = xstrdup(real);
	}
	free(root);
	return u;
}

struct member {
	struct file_info *fi;
	const char *unit;
	bool asked;
};

static int cmp_member(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->unit,
		      ((const struct member *)b)->unit);
}

static int cmp_unit_ref(const void *a, const void *b)
{
	return strcmp(((const struct unit_ref *)a)->dir,
		      ((const struct unit_ref *)b)->dir);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

typedef VEC(struct unit_ref) refvec;

/* Add the directories of the lexed files among the first N, with units. */
static void add_refs(refvec *refs, struct fileset *fs, size_t n)
{
	size_t i, j, old = refs->n;

	for (i = 0; i < n; i++) {
		struct file_info *fi = fs->files.v[i];
		struct unit_ref r = { 0 };

		if (!fi->lexed)
			continue;
		r.dir = dir_of(fi->path);
		if (xbsearch(&r, refs->v, old, sizeof(r), cmp_unit_ref)) {
			free(r.dir);
			continue;
		}
		vec_push(refs, r);
	}
	xqsort(refs->v + old, refs->n - old, sizeof(*refs->v), cmp_unit_ref);
	for (i = old, j = old; i < refs->n; i++) {
		if (j > old && !strcmp(refs->v[j - 1].dir, refs->v[i].dir)) {
			free(refs->v[i].dir);
			continue;
		}
		refs->v[j] = refs->v[i];
		refs->v[j].unit = unit_of(refs->v[j].dir, &refs->v[j].core);
		if (!refs->v[j].unit)
			refs->v[j].unit = xstrdup("");
		j++;
	}
	refs->n = j;
	xqsort(refs->v, refs->n, sizeof(*refs->v), cmp_unit_ref);
}

/*
 * The unit of PATH: by its directory when that was looked up, else (a
 * file read for its unit's sake, named by the unit's real path) the
 * longest unit that is a prefix.
 */
static const char *file_unit(const char *path, const struct unit_ref *refs,
			     size_t n)
{
	struct unit_ref key = { 0 };
	const struct unit_ref *r;
	const char *best = NULL;
	size_t i, bestlen = 0;

	key.dir = dir_of(path);
	r = xbsearch(&key, refs, n, sizeof(*refs), cmp_unit_ref);
	free(key.dir);
	if (r)
		return r->unit;
	for (i = 0; i < n; i++) {
		size_t len = strlen(refs[i].unit);

		if (len > bestlen && !strncmp(path, refs[i].unit, len) &&
		    path[len] == '/') {
			best = refs[i].unit;
			bestlen = len;
		}
	}
	return best;
}

int cmd_scan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct fileset fs = { 0 };
	refvec refs = { 0 };
	VEC(struct rec) recs = { 0 };
	size_t nscanned, i, j;
	int jobs = ncpus(), opt, rc = 0;
	bool json = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+j:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			json = true;
			break;
		case 'j':
			jobs = job_count("scan", optarg);
			break;
		case 'h':
			printf("usage: %s scan [--json] [-j N] PATH...\n", PROG);
			return 0;
		default:
			return EXIT_BADINPUT;
		}
	}
	if (optind >= argc)
		af_die(EXIT_BADINPUT, NULL, "scan: no PATH given");

	for (i = (size_t)optind; i < (size_t)argc; i++) {
		char *p = path_clean(argv[i]);

		if (is_dir(p))
			walk_sources(p, add_walked, NULL, &fs);
		else if (is_file(p))
			fileset_add(&fs, p, 0);
		else
			af_die(EXIT_BADINPUT, p, "%s", errno ? strerror(errno) :
			       "not a file or directory");
		free(p);
	}
	nscanned = fs.files.n;
	fileset_process(&fs, NULL, 0, 0, jobs, PM_USES);

	/* the unit of every lexed file's directory */
	add_refs(&refs, &fs, nscanned);

	/*
	 * Read the rest of every unit with a use, for its threads: the new
	 * files, and those read already but not lexed (no freezer name).
	 */
	{
		struct strset done = { 0 };
		VEC(size_t) idx = { 0 };
		size_t before = fs.files.n;

		for (i = 0; i < refs.n; i++) {
			const char *u = refs.v[i].unit;

			if (!*u || !strset_add(&done, u))
				continue;
			fileset_add_unit(&fs, u, refs.v[i].core);
		}
		strset_free(&done);
		for (i = 0; i < fs.files.n; i++)
			if (i >= before || (fs.files.v[i]->again &&
					    !fs.files.v[i]->lexed))
				vec_push(&idx, i);
		fileset_process(&fs, idx.v, idx.n, 0, jobs, PM_ANY);
		vec_free(&idx);
		/* files asked for, lexed now: only for their threads */
		add_refs(&refs, &fs, nscanned);
	}

	/* kthread functions per unit, then the context of each use */
	{
		VEC(struct member) mem = { 0 };

		for (i = 0; i < fs.files.n; i++) {
			struct file_info *fi = fs.files.v[i];
			struct member m = { fi, NULL, i < nscanned };

			if (!fi->lexed)
				continue;
			m.unit = file_unit(fi->path, refs.v, refs.n);
			if (m.unit)
				vec_push(&mem, m);
		}
		xqsort(mem.v, mem.n, sizeof(*mem.v), cmp_member);
		for (i = 0; i < mem.n; i = j) {
			VEC(struct file_info *) group = { 0 };
			struct strset kt = { 0 };
			size_t k, l;

			for (j = i; j < mem.n &&
			     !strcmp(mem.v[j].unit, mem.v[i].unit); j++)
				vec_push(&group, mem.v[j].fi);
			unit_kthreads(group.v, group.n, &kt);
			for (k = i; k < j; k++) {
				struct file_info *fi = mem.v[k].fi;

				if (!mem.v[k].asked)
					continue;
				for (l = 0; l < fi->uses.n; l++) {
					struct rec r;

					r.file = fi->path;
					r.u = &fi->uses.v[l];
					r.ctx = use_context(r.u, &kt);
					vec_push(&recs, r);
				}
			}
			strset_free(&kt);
			vec_free(&group);
		}
		vec_free(&mem);
	}

	xqsort(recs.v, recs.n, sizeof(*recs.v), cmp_rec);

	if (json)
		putchar('[');
	for (i = 0; i < recs.n; i++) {
		const struct rec *r = &recs.v[i];
		const char *fn = r->u->func ? r->u->func : "-";

		if (!json) {
			printf("%s:%u:%u: %s %s %s\n", r->file, r->u->line,
			       r->u->col, freezer_apis[r->u->api].name,
			       context_names[r->ctx], fn);
			continue;
		}
		printf("%s\n  {\"file\": ", i ? "," : "");
		json_str(stdout, r->file);
		printf(", \"line\": %u, \"col\": %u, \"api\": \"%s\", "
		       "\"context\": \"%s\", \"function\": ",
		       r->u->line, r->u->col, freezer_apis[r->u->api].name,
		       context_names[r->ctx]);
		if (r->u->func)
			json_str(stdout, fn);
		else
			fputs("null", stdout);
		putchar('}');
	}
	if (json)
		printf("%s]\n", recs.n ? "\n" : "");

	for (i = 0; i < nscanned; i++) {
		if (fs.files.v[i]->error) {
			af_warn(fs.files.v[i]->path, "%s",
				strerror(fs.files.v[i]->error));
			rc = EXIT_RUNTIME;
		}
	}
	if (flush_stdout())
		rc = EXIT_RUNTIME;
	for (i = 0; i < refs.n; i++) {
		free(refs.v[i].dir);
		free(refs.v[i].unit);
	}
	vec_free(&refs);
	vec_free(&recs);
	fileset_free(&fs);
	return rc;
}
