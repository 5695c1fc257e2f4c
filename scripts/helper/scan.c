// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c - "autofreeze scan": every freezer API use in the given files,
 * with its context (use_context()): kthread in a thread function of the
 * unit or for a workqueue/worker name, user in any other function, macro
 * in a #define body, unknown at file scope.
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
#include "callgraph.h"
#include "scan.h"
#include "ktree.h"
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

/* A function that starts argument ARG of its calls as a thread. */
struct starter {
	const char *name;
	int arg;
};

typedef VEC(struct starter) starter_vec;

/*
 * Argument POS of NARGS of a call of CALLEE is started as a thread: by
 * one of api.c's starters (with API), or by one of DERIVED.
 */
static bool starts_thread(const starter_vec *derived, const char *callee,
			  int pos, int nargs, bool api)
{
	size_t k;

	for (k = 0; api && k < n_thread_starters; k++) {
		const struct thread_starter *t = &thread_starters[k];

		if (!strcmp(t->name, callee) &&
		    (t->arg == pos || (t->arg < 0 && pos + 1 == nargs)))
			return true;
	}
	for (k = 0; k < derived->n; k++)
		if (derived->v[k].arg == pos &&
		    !strcmp(derived->v[k].name, callee))
			return true;
	return false;
}

static int param_index(const struct definition *d, const char *name)
{
	size_t k;

	for (k = 0; k < d->params.n; k++)
		if (!strcmp(d->params.v[k], name))
			return (int)k;
	return -1;
}

/*
 * Threads started through a function of the unit that hands one of its
 * parameters to a starter (bcachefs: bch2_run_thread_with_file(thr, fops,
 * fn) calls kthread_create(fn, ...)): that function starts its argument
 * there too, and every function named as that argument is a thread.
 * Needs the files read in full (parameters and call arguments).
 */
static void derived_threads(struct file_info **files, size_t n,
			    struct strset *set)
{
	starter_vec derived = { 0 };
	bool changed = true;
	size_t i, j, k;

	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			for (j = 0; j < files[i]->funcs.n; j++) {
				const struct definition *d = &files[i]->funcs.v[j];

				for (k = 0; k < d->vargs.n; k++) {
					const struct value_arg *va = &d->vargs.v[k];
					struct starter st = { d->name, -1 };

					st.arg = param_index(d, va->name);
					if (st.arg < 0 ||
					    !starts_thread(&derived, va->callee,
							   va->pos, va->nargs,
							   true) ||
					    starts_thread(&derived, d->name,
							  st.arg, 0, false))
						continue;
					vec_push(&derived, st);
					changed = true;
				}
			}
		}
	}
	for (i = 0; i < n && derived.n; i++) {
		for (j = 0; j < files[i]->funcs.n; j++) {
			const struct definition *d = &files[i]->funcs.v[j];

			for (k = 0; k < d->vargs.n; k++) {
				const struct value_arg *va = &d->vargs.v[k];

				if (param_index(d, va->name) < 0 &&
				    starts_thread(&derived, va->callee, va->pos,
						  va->nargs, false))
					strset_add(set, va->name);
			}
		}
	}
	vec_free(&derived);
}

void unit_kthreads(struct file_info **files, size_t n, struct strset *set,
		   struct hmap *via)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < files[i]->threads.n; j++)
			strset_add(set, files[i]->threads.v[j]);
		for (j = 0; j < files[i]->freezable.n; j++)
			strset_add(set, files[i]->freezable.v[j]);
	}
	derived_threads(files, n, set);
	thread_callees(files, n, set, via);
}

struct dir_unit {
	char *dir;		/* directory of a file, as spelled */
	char *unit;		/* its unit: a real path, or "" */
	bool core;
};

/* A use found in a file asked for, with its context. */
struct located_use {
	const char *file;
	const struct use *use;
	enum context context;
};

static int cmp_located_use(const void *a, const void *b)
{
	const struct located_use *x = a, *y = b;
	int r = strcmp(x->file, y->file);

	if (r)
		return r;
	if (x->use->line != y->use->line)
		return x->use->line < y->use->line ? -1 : 1;
	if (x->use->col != y->use->col)
		return x->use->col < y->use->col ? -1 : 1;
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

struct unit_member {
	struct file_info *fi;
	const char *unit;
	bool asked;
	size_t idx;		/* in the scan's fileset */
};

static int cmp_unit_member(const void *a, const void *b)
{
	return strcmp(((const struct unit_member *)a)->unit,
		      ((const struct unit_member *)b)->unit);
}

static int cmp_dir_unit(const void *a, const void *b)
{
	return strcmp(((const struct dir_unit *)a)->dir,
		      ((const struct dir_unit *)b)->dir);
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

typedef VEC(struct dir_unit) dir_unit_vec;

/* Add the directories of the lexed files among the first N, with units. */
static void add_dir_units(dir_unit_vec *dirs, struct fileset *fs, size_t n)
{
	size_t i, j, old = dirs->n;

	for (i = 0; i < n; i++) {
		struct file_info *fi = fs->files.v[i];
		struct dir_unit r = { 0 };

		if (!fi->lexed)
			continue;
		r.dir = dir_of(fi->path);
		if (xbsearch(&r, dirs->v, old, sizeof(r), cmp_dir_unit)) {
			free(r.dir);
			continue;
		}
		vec_push(dirs, r);
	}
	xqsort(dirs->v + old, dirs->n - old, sizeof(*dirs->v), cmp_dir_unit);
	for (i = old, j = old; i < dirs->n; i++) {
		if (j > old && !strcmp(dirs->v[j - 1].dir, dirs->v[i].dir)) {
			free(dirs->v[i].dir);
			continue;
		}
		dirs->v[j] = dirs->v[i];
		dirs->v[j].unit = unit_of(dirs->v[j].dir, &dirs->v[j].core);
		if (!dirs->v[j].unit)
			dirs->v[j].unit = xstrdup("");
		j++;
	}
	dirs->n = j;
	xqsort(dirs->v, dirs->n, sizeof(*dirs->v), cmp_dir_unit);
}

/*
 * The unit of PATH: by its directory when that was looked up, else (a
 * file read for its unit's sake, named by the unit's real path) the
 * longest unit that is a prefix.
 */
static const char *file_unit(const char *path, const struct dir_unit *dirs,
			     size_t n)
{
	struct dir_unit key = { 0 };
	const struct dir_unit *r;
	const char *best = NULL;
	size_t i, bestlen = 0;

	key.dir = dir_of(path);
	r = xbsearch(&key, dirs, n, sizeof(*dirs), cmp_dir_unit);
	free(key.dir);
	if (r)
		return r->unit;
	for (i = 0; i < n; i++) {
		size_t len = strlen(dirs[i].unit);

		if (len > bestlen && !strncmp(path, dirs[i].unit, len) &&
		    path[len] == '/') {
			best = dirs[i].unit;
			bestlen = len;
		}
	}
	return best;
}

/* One "autofreeze scan". */
struct scan {
	struct fileset fs;	/* the files asked for first, nasked of them */
	size_t nasked;
	dir_unit_vec dirs;	/* the unit of each lexed file's directory */
	VEC(struct located_use) found;
	int jobs;
	bool json;
};

static const struct option scan_long_options[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The options into SC; returns -1 to go on, else the exit status. */
static int scan_options(struct scan *sc, int argc, char **argv)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+j:h", scan_long_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'J':
			sc->json = true;
			break;
		case 'j':
			sc->jobs = job_count("scan", optarg);
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
	return -1;
}

/* The files of PATHS, read for their uses. */
static void read_asked(struct scan *sc, char **paths, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		char *p = path_clean(paths[i]);

		if (is_dir(p))
			walk_sources(p, add_walked, NULL, NULL, &sc->fs);
		else if (is_file(p))
			fileset_add(&sc->fs, p, 0);
		else
			af_die(EXIT_BADINPUT, p, "%s", errno ? strerror(errno) :
			       "not a file or directory");
		free(p);
	}
	sc->nasked = sc->fs.files.n;
	fileset_process(&sc->fs, NULL, 0, 0, sc->jobs, READ_USES);
	add_dir_units(&sc->dirs, &sc->fs, sc->nasked);
}

/*
 * Read the rest of every unit with a use, for its threads: the new
 * files, and those read already but not lexed (no freezer name).
 */
static void read_units_of_uses(struct scan *sc)
{
	struct fileset *fs = &sc->fs;
	struct strset done = { 0 };
	VEC(size_t) idx = { 0 };
	size_t before = fs->files.n, i;

	for (i = 0; i < sc->dirs.n; i++) {
		const char *u = sc->dirs.v[i].unit;

		if (!*u || !strset_add(&done, u))
			continue;
		fileset_add_unit(fs, u, sc->dirs.v[i].core);
	}
	strset_free(&done);
	for (i = 0; i < fs->files.n; i++)
		if (i >= before || (fs->files.v[i]->again &&
				    !fs->files.v[i]->lexed))
			vec_push(&idx, i);
	fileset_process(fs, idx.v, idx.n, 0, sc->jobs, READ_THREADS);
	vec_free(&idx);
	/* files asked for, lexed now: only for their threads */
	add_dir_units(&sc->dirs, fs, sc->nasked);
}

typedef VEC(struct unit_member) member_vec;

/*
 * The files of the scan that have a unit (only the lexed ones with
 * LEXED), sorted by unit.
 */
static void unit_members(const struct scan *sc, bool lexed, member_vec *out)
{
	size_t i;

	for (i = 0; i < sc->fs.files.n; i++) {
		struct file_info *fi = sc->fs.files.v[i];
		struct unit_member m = { fi, NULL, i < sc->nasked, i };

		if (lexed && !fi->lexed)
			continue;
		m.unit = file_unit(fi->path, sc->dirs.v, sc->dirs.n);
		if (m.unit)
			vec_push(out, m);
	}
	xqsort(out->v, out->n, sizeof(*out->v), cmp_unit_member);
}

/* The end of the unit's group that starts at MEMBERS[I]. */
static size_t group_end(const member_vec *members, size_t i)
{
	size_t j = i + 1;

	while (j < members->n && !strcmp(members->v[j].unit,
					 members->v[i].unit))
		j++;
	return j;
}

/*
 * Whether the call graph can change a context in the unit of MEMBERS[0..N)
 * (read so far for threads only): it has a thread, and a use in a
 * function that is none.
 */
static bool graph_may_matter(const struct unit_member *members, size_t n)
{
	VEC(struct file_info *) group = { 0 };
	struct strset kt = { 0 };
	bool found = false;
	size_t k, l;

	for (k = 0; k < n; k++)
		vec_push(&group, members[k].fi);
	unit_kthreads(group.v, group.n, &kt, NULL);
	for (k = 0; k < n && strset_size(&kt) && !found; k++) {
		const struct file_info *fi = members[k].fi;

		for (l = 0; l < fi->uses.n && !found; l++)
			found = use_context(&fi->uses.v[l], &kt) == CTX_USER;
	}
	strset_free(&kt);
	vec_free(&group);
	return found;
}

/*
 * Read in full, anew, every file of each unit whose contexts the call
 * graph may change (callgraph.c needs every function of the unit), and
 * only those: a whole tree's units, all read in full, take several times
 * as long.  Units outside a kernel tree are not read whole: no graph.
 */
static void read_for_call_graph(struct scan *sc)
{
	struct fileset *fs = &sc->fs;
	member_vec members = { 0 };
	VEC(size_t) idx = { 0 };
	size_t i, j, k;

	unit_members(sc, false, &members);
	for (i = 0; i < members.n; i = j) {
		j = group_end(&members, i);
		if (!*members.v[i].unit ||
		    !graph_may_matter(members.v + i, j - i))
			continue;
		for (k = i; k < j; k++) {
			if (members.v[k].fi->lexed)
				file_info_reset(members.v[k].fi);
			vec_push(&idx, members.v[k].idx);
		}
	}
	fileset_process(fs, idx.v, idx.n, 0, sc->jobs, READ_FULL);
	vec_free(&idx);
	vec_free(&members);
}

/* The uses of the files asked for in MEMBERS[0..N), one unit's. */
static void unit_uses(struct scan *sc, const struct unit_member *members,
		      size_t n)
{
	VEC(struct file_info *) group = { 0 };
	struct strset kt = { 0 };
	size_t k, l;

	for (k = 0; k < n; k++)
		vec_push(&group, members[k].fi);
	unit_kthreads(group.v, group.n, &kt, NULL);
	for (k = 0; k < n; k++) {
		struct file_info *fi = members[k].fi;

		if (!members[k].asked)
			continue;
		for (l = 0; l < fi->uses.n; l++) {
			struct located_use r;

			r.file = fi->path;
			r.use = &fi->uses.v[l];
			r.context = use_context(r.use, &kt);
			vec_push(&sc->found, r);
		}
	}
	strset_free(&kt);
	vec_free(&group);
}

/* Kthread functions per unit, then the context of each use, sorted. */
static void find_contexts(struct scan *sc)
{
	member_vec members = { 0 };
	size_t i, j;

	unit_members(sc, true, &members);
	for (i = 0; i < members.n; i = j) {
		j = group_end(&members, i);
		unit_uses(sc, members.v + i, j - i);
	}
	vec_free(&members);
	xqsort(sc->found.v, sc->found.n, sizeof(*sc->found.v),
	       cmp_located_use);
}

static void print_found(const struct scan *sc)
{
	size_t i;

	if (sc->json)
		putchar('[');
	for (i = 0; i < sc->found.n; i++) {
		const struct located_use *r = &sc->found.v[i];
		const char *fn = r->use->func ? r->use->func : "-";

		if (!sc->json) {
			printf("%s:%u:%u: %s %s %s\n", r->file, r->use->line,
			       r->use->col, freezer_apis[r->use->api].name,
			       context_names[r->context], fn);
			continue;
		}
		printf("%s\n  {\"file\": ", i ? "," : "");
		json_str(stdout, r->file);
		printf(", \"line\": %u, \"col\": %u, \"api\": \"%s\", "
		       "\"context\": \"%s\", \"function\": ",
		       r->use->line, r->use->col, freezer_apis[r->use->api].name,
		       context_names[r->context]);
		if (r->use->func)
			json_str(stdout, fn);
		else
			fputs("null", stdout);
		putchar('}');
	}
	if (sc->json)
		printf("%s]\n", sc->found.n ? "\n" : "");
}

/* The files asked for that could not be read: EXIT_RUNTIME, or 0. */
static int report_errors(const struct scan *sc)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < sc->nasked; i++) {
		if (sc->fs.files.v[i]->error) {
			af_warn(sc->fs.files.v[i]->path, "%s",
				strerror(sc->fs.files.v[i]->error));
			rc = EXIT_RUNTIME;
		}
	}
	return rc;
}

static void scan_free(struct scan *sc)
{
	size_t i;

	for (i = 0; i < sc->dirs.n; i++) {
		free(sc->dirs.v[i].dir);
		free(sc->dirs.v[i].unit);
	}
	vec_free(&sc->dirs);
	vec_free(&sc->found);
	fileset_free(&sc->fs);
}

int cmd_scan(int argc, char **argv)
{
	struct scan sc = { 0 };
	char *cwd;
	int rc;

	sc.jobs = ncpus();
	rc = scan_options(&sc, argc, argv);
	if (rc >= 0)
		return rc;
	/* The drivers run scan in KTREE: read nothing a link leads out of. */
	cwd = realpath(".", NULL);
	if (cwd)
		read_confine(cwd);
	free(cwd);
	read_asked(&sc, argv + optind, argc - optind);
	read_units_of_uses(&sc);
	read_for_call_graph(&sc);
	find_contexts(&sc);
	print_found(&sc);
	rc = report_errors(&sc);
	if (flush_stdout())
		rc = EXIT_RUNTIME;
	scan_free(&sc);
	return rc;
}
