// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - "autofreeze units" and "autofreeze plan": the command line,
 * then a survey of the kernel tree's units under DIR (see units.h) in
 * named steps, printed by output.c.
 *
 * Which super_operations a file_system_type uses is traced: from the
 * identifiers in its initializer (.mount, .init_fs_context, ...) through
 * the unit's functions and initializers (a fs_context_operations, a
 * fill_super passed to get_tree_bdev()) to "X->s_op = &NAME;".  When
 * nothing is found, the unit's super_operations count as a whole.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cdef.h"
#include "lex.h"
#include "output.h"
#include "scan.h"
#include "ktree.h"
#include "tree.h"
#include "units.h"

const char *const unit_status_names[] = {
	[UNIT_ELIGIBLE] = "eligible",
	[UNIT_SKIP] = "skip",
	[UNIT_LIBRARY] = "library",
	[UNIT_UNREVIEWED] = "unreviewed",
	[UNIT_CORE] = "core",
};

/* ---- which directories are units ---- */

struct unit *find_unit(struct unit_survey *sv, const char *rel)
{
	size_t i;

	for (i = 0; i < sv->all.n; i++)
		if (!strcmp(sv->all.v[i]->rel, rel))
			return sv->all.v[i];
	return NULL;
}

static struct unit *add_unit(struct unit_survey *sv, const char *rel,
			     bool core)
{
	struct unit *u = find_unit(sv, rel);

	if (u)
		return u;
	u = xcalloc(1, sizeof(*u));
	u->rel = xstrdup(rel);
	u->path = path_join(sv->ktree, rel);
	u->core = core;
	vec_push(&sv->all, u);
	return u;
}

/* The units at or below REL, depth first in name order, added to FOUND. */
static void find_units_below(struct unit_survey *sv, const char *rel,
			     strvec *found)
{
	char *path = path_join(sv->ktree, rel);
	strvec subs = { 0 };
	size_t i;

	if (dir_is_unit(path)) {
		add_unit(sv, rel, !strcmp(rel, "fs"));
		vec_push(found, xstrdup(rel));
	}
	list_subdirs(path, rel, &subs);
	for (i = 0; i < subs.n; i++)
		find_units_below(sv, subs.v[i], found);
	strvec_free(&subs);
	free(path);
}

struct unit *unit_above(struct unit_survey *sv, const char *rel)
{
	char *r = xstrdup(rel);
	struct unit *u = NULL;

	for (;;) {
		char *slash;

		u = find_unit(sv, r);
		if (u)
			break;
		slash = strrchr(r, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(r);
	return u;
}

/* The unit DIR is in, when there is none at or below it. */
static struct unit *unit_holding(struct unit_survey *sv, const char *dir)
{
	struct unit *u = unit_above(sv, dir);

	if (!u) {
		/* outside fs/: enter the unit above DIR */
		char *rel = unit_dir_of(sv->ktree, dir);

		if (rel)
			u = add_unit(sv, rel, false);
		free(rel);
	}
	if (!u)
		af_die(EXIT_BADINPUT, dir, "no unit (no directory with "
		       "a Makefile and C files) at or above it");
	return u;
}

/*
 * Every unit of fs/ (for the Kconfig owners), then the list: the units
 * at or below DIR, or the one holding it.
 */
static void find_units(struct unit_survey *sv, const char *dir)
{
	strvec found = { 0 };
	char *fs = path_join(sv->ktree, "fs");
	size_t i;

	if (is_dir(fs))
		find_units_below(sv, "fs", &found);
	free(fs);
	strvec_free(&found);
	find_units_below(sv, dir, &found);
	if (!found.n)
		vec_push(&found, xstrdup(unit_holding(sv, dir)->rel));
	for (i = 0; i < found.n; i++) {
		struct unit *u = find_unit(sv, found.v[i]);

		if (!u->requested) {
			u->requested = true;
			vec_push(&sv->list, u);
		}
	}
	strvec_free(&found);
}

/* ---- reading and analyzing units ---- */

static void read_unit(struct unit_survey *sv, struct unit *u)
{
	u->first = sv->files.files.n;
	fileset_add_unit(&sv->files, u->path, u->core);
	u->end = sv->files.files.n;
	u->analyzed = true;
}

/* The files of the listed units and of their libraries' users. */
static void read_units(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->list.n; i++)
		read_unit(sv, sv->list.v[i]);
	for (i = 0; i < sv->list.n; i++) {
		struct unit *lib = sv->list.v[i];

		for (k = 0; k < lib->users.n; k++)
			if (!lib->users.v[k]->analyzed)
				read_unit(sv, lib->users.v[k]);
	}
	fileset_process(&sv->files, NULL, 0, 0, sv->jobs, READ_FULL);
	/* a file the user may not read is bad input, as a missing tree is */
	for (i = 0; i < sv->files.files.n; i++) {
		int err = sv->files.files.v[i]->error;

		if (err)
			af_die(err == EACCES ? EXIT_BADINPUT : EXIT_RUNTIME,
			       sv->files.files.v[i]->path, "%s", strerror(err));
	}
}

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

static int cmp_named_def(const void *a, const void *b)
{
	return strcmp(((const struct named_def *)a)->name,
		      ((const struct named_def *)b)->name);
}

static void index_unit(struct unit_survey *sv, const struct unit *u,
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

static void index_free(struct unit_index *ix)
{
	vec_free(&ix->defs);
	vec_free(&ix->files);
	strset_free(&ix->sops);
	strset_free(&ix->funcs);
}

/* The uses of U by context, and its thread functions. */
static void count_uses(struct unit *u, const struct unit_index *ix)
{
	struct strset kt = { 0 };
	struct hmap via = { 0 };
	const char **v;
	size_t i, k, n;

	unit_kthreads(ix->files.v, ix->files.n, &kt, &via);
	for (i = 0; i < ix->files.n; i++) {
		const struct file_info *fi = ix->files.v[i];

		for (k = 0; k < fi->uses.n; k++) {
			u->uses[use_context(&fi->uses.v[k], &kt)]++;
			u->nuses++;
		}
	}
	v = strset_sorted(&kt, &n);
	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i]);
		const struct hmap_entry *e;

		if (!strset_has(&ix->funcs, v[i]))
			continue;
		e = hmap_find(&via, v[i], len, str_hash(v[i], len));
		vec_push(&u->kthreads, (char *)v[i]);
		vec_push(&u->kthread_via, e ? e->val : NULL);
	}
	free(v);
	u->kthread_set = kt;
	hmap_free(&via);
}

static bool file_has_sop(const struct file_info *fi, const char *name)
{
	size_t i;

	for (i = 0; i < fi->sops.n; i++)
		if (!strcmp(fi->sops.v[i].name, name))
			return true;
	return false;
}

/*
 * Walk, breadth first, the definitions named FROM[0..NFROM), and those
 * they name in turn, calling VISIT on each until it returns true.  A
 * definition FOLLOW refuses is neither visited nor followed.  The one
 * walk trace_sops() and trace_superblock() share; walk_from_fstype()
 * starts it from what file_system_type FT's initializer in FI names.
 */
static void walk_from(const struct unit_index *ix, const char *const *from,
		      size_t nfrom,
		      bool (*follow)(const struct named_def *e),
		      bool (*visit)(const struct named_def *e, void *arg),
		      void *arg)
{
	const struct named_def *defs = ix->defs.v;
	size_t ndefs = ix->defs.n, i, head = 0;
	VEC(const char *) queue = { 0 };
	struct strset visited = { 0 };
	bool done = false;

	for (i = 0; i < nfrom; i++)
		vec_push(&queue, from[i]);
	while (!done && head < queue.n && strset_size(&visited) < 20000) {
		const char *name = queue.v[head++];
		struct named_def key = { 0 };
		const struct named_def *e;

		if (!strset_add(&visited, name))
			continue;
		key.name = name;
		e = xbsearch(&key, defs, ndefs, sizeof(*defs), cmp_named_def);
		if (!e)
			continue;
		while (e > defs && !strcmp(e[-1].name, name))
			e--;
		for (; !done && e < defs + ndefs && !strcmp(e->name, name); e++) {
			size_t k;

			if (!follow(e))
				continue;
			done = visit(e, arg);
			for (k = 0; k < e->d->refs.n; k++)
				vec_push(&queue, e->d->refs.v[k]);
		}
	}
	vec_free(&queue);
	strset_free(&visited);
}

static void walk_from_fstype(const struct unit_index *ix,
			     const struct file_info *fi,
			     const struct fstype *ft,
			     bool (*follow)(const struct named_def *e),
			     bool (*visit)(const struct named_def *e, void *arg),
			     void *arg)
{
	size_t i;

	for (i = 0; i < fi->objs.n; i++)
		if (!strcmp(fi->objs.v[i].name, ft->name))
			walk_from(ix, (const char *const *)fi->objs.v[i].refs.v,
				  fi->objs.v[i].refs.n, follow, visit, arg);
}

/* Another type's mount (6.1 btrfs) is followed; a super_operations not. */
static bool follow_to_sops(const struct named_def *e)
{
	return !(e->obj && file_has_sop(e->fi, e->name));
}

struct sops_found {
	const struct unit_index *ix;
	struct strset *found;
};

static bool add_sops(const struct named_def *e, void *arg)
{
	struct sops_found *sf = arg;
	size_t k;

	for (k = 0; k < e->d->sops.n; k++)
		if (strset_has(&sf->ix->sops, e->d->sops.v[k]))
			strset_add(sf->found, e->d->sops.v[k]);
	return false;
}

/* The super_operations reached from file_system_type FT (see top). */
static void trace_sops(const struct unit_index *ix,
		       const struct file_info *fi, const struct fstype *ft,
		       struct strset *found)
{
	struct sops_found sf = { ix, found };

	walk_from_fstype(ix, fi, ft, follow_to_sops, add_sops, &sf);
}

static bool file_has_fstype(const struct file_info *fi, const char *name)
{
	size_t i;

	for (i = 0; i < fi->fstypes.n; i++)
		if (!strcmp(fi->fstypes.v[i].name, name))
			return true;
	return false;
}

/* The calls that create or find a superblock for the type mounting. */
static bool creates_superblock(const char *call)
{
	static const char *const calls[] = {
		"sget", "sget_fc", "sget_dev", "vfs_get_super",
		"mount_bdev", "mount_nodev", "mount_single", "mount_mtd",
		"get_tree_bdev", "get_tree_bdev_flags", "get_tree_nodev",
		"get_tree_single", "get_tree_keyed", "get_tree_mtd",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		if (!strcmp(call, calls[i]))
			return true;
	return false;
}

/* Another file_system_type's mount creates that type's superblocks. */
static bool follow_to_superblock(const struct named_def *e)
{
	return !(e->obj && file_has_fstype(e->fi, e->name));
}

/*
 * The file of the unit that defines NAME (an object with OBJ), read and
 * lexed once for the unit, or NULL.
 */
static const struct ctext *lex_definer(struct unit_index *ix,
				       const char *name, bool obj)
{
	struct named_def key = { name, NULL, NULL, false };
	const struct named_def *e = xbsearch(&key, ix->defs.v, ix->defs.n,
					     sizeof(key), cmp_named_def);
	const struct named_def *end = ix->defs.v + ix->defs.n;
	const struct ctext *c;

	while (e && e > ix->defs.v && !strcmp(e[-1].name, name))
		e--;
	for (; e && e < end && !strcmp(e->name, name); e++)
		if (e->obj == obj)
			break;
	if (!e || e == end || strcmp(e->name, name))
		return NULL;
	c = ctext_get(ix->texts, e->fi->path);
	return c->error ? NULL : c;
}

/*
 * Function NAME of the unit does nothing but fail: its body is "return
 * -ERRNO;" (gfs2's set_meta_super()).
 */
static bool fails_always(struct unit_index *ix, const char *name)
{
	const struct ctext *c = lex_definer(ix, name, false);
	size_t at, b, e;

	return c && cdef_find(c->buf, c->t, c->n, name, 0, &at, &b, &e) &&
		e - b == 4 && tok_is(c->buf, &c->t[b], "return") &&
		tok_punct(&c->t[b + 1], P1('-')) &&
		c->t[b + 2].kind == TK_IDENT && c->buf[c->t[b + 2].start] == 'E' &&
		tok_punct(&c->t[b + 3], P1(';'));
}

/*
 * In initializer OBJ of the unit ("NAME = { ... }"), the identifier
 * given to FIELD (".get_tree = X"), malloc'ed, or NULL.
 */
static char *initializer_field(struct unit_index *ix, const char *obj,
			       const char *field)
{
	const struct ctext *c = lex_definer(ix, obj, true);
	char name[128];
	size_t i, k, close;

	for (i = 0; c && i + 2 < c->n; i++) {
		if (!tok_is(c->buf, &c->t[i], obj) ||
		    !tok_punct(&c->t[i + 1], P1('=')) ||
		    !tok_punct(&c->t[i + 2], P1('{')))
			continue;
		close = cdef_closing(c->t, i + 2, c->n);
		for (k = i + 3; k + 3 < close; k++)
			if (tok_punct(&c->t[k], P1('.')) &&
			    tok_is(c->buf, &c->t[k + 1], field) &&
			    tok_punct(&c->t[k + 2], P1('=')) &&
			    c->t[k + 3].kind == TK_IDENT) {
				tok_text(c->buf, &c->t[k + 3], name,
					 sizeof(name));
				return xstrdup(name);
			}
	}
	return NULL;
}

/*
 * The fs_context_operations function FN of the unit leaves in place: the
 * last "->ops = &OPS" in its body, counting those of the unit's
 * functions it calls at the point of the call; malloc'ed, or NULL.
 */
static char *context_ops(struct unit_index *ix, const char *fn, int depth)
{
	const struct ctext *c = depth > 4 ? NULL : lex_definer(ix, fn, false);
	char name[128], *last = NULL, *r;
	size_t at, b, e, i;

	if (!c || !cdef_find(c->buf, c->t, c->n, fn, 0, &at, &b, &e))
		return NULL;
	for (i = b; i < e; i++) {
		if (i + 4 < e && tok_punct(&c->t[i], P2('-', '>')) &&
		    tok_is(c->buf, &c->t[i + 1], "ops") &&
		    tok_punct(&c->t[i + 2], P1('=')) &&
		    tok_punct(&c->t[i + 3], P1('&')) &&
		    c->t[i + 4].kind == TK_IDENT) {
			tok_text(c->buf, &c->t[i + 4], name, sizeof(name));
			free(last);
			last = xstrdup(name);
		} else if (c->t[i].kind == TK_IDENT && i + 1 < e &&
			   tok_punct(&c->t[i + 1], P1('(')) &&
			   !(i > b && (tok_punct(&c->t[i - 1], P1('.')) ||
				       tok_punct(&c->t[i - 1], P2('-', '>'))))) {
			tok_text(c->buf, &c->t[i], name, sizeof(name));
			r = strcmp(name, fn) ? context_ops(ix, name, depth + 1) :
				NULL;
			if (r) {
				free(last);
				last = r;
			}
		}
	}
	return last;
}

/*
 * The get_tree a mount of FT runs, where the type sets up an fs_context:
 * .get_tree of the fs_context_operations its .init_fs_context leaves
 * in place (gfs2meta_fs_type's gfs2_meta_init_fs_context() calls
 * gfs2_init_fs_context(), then puts gfs2_meta_context_ops in place of
 * what that installed).  NULL when that cannot be read.
 */
static char *context_get_tree(struct unit_index *ix,
			      const struct fstype *ft)
{
	char *init = initializer_field(ix, ft->name, "init_fs_context");
	char *ops = init ? context_ops(ix, init, 0) : NULL;
	char *get_tree = ops ? initializer_field(ix, ops, "get_tree") : NULL;

	free(init);
	free(ops);
	return get_tree;
}

/*
 * D's call of CALL creates or finds a superblock, unless it is an sget()
 * whose set callback always fails: that one only finds another type's
 * (gfs2meta_fs_type's sget_fc(fc, test_meta_super, set_meta_super)).
 */
static bool call_creates_superblock(struct unit_index *ix,
				    const struct definition *d,
				    const char *call)
{
	/* the sget()s, and the argument that is their set callback */
	static const struct {
		const char *name;
		unsigned short set;
	} sgets[] = { { "sget", 2 }, { "sget_fc", 2 } };
	size_t i, k;

	if (!creates_superblock(call))
		return false;
	for (i = 0; i < ARRAY_SIZE(sgets); i++) {
		if (strcmp(call, sgets[i].name))
			continue;
		for (k = 0; k < d->vargs.n; k++)
			if (!strcmp(d->vargs.v[k].callee, call) &&
			    d->vargs.v[k].pos == sgets[i].set &&
			    fails_always(ix, d->vargs.v[k].name))
				return false;
	}
	return true;
}

/* What superblock_call() is given: the unit, and where the hit goes. */
struct superblock_walk {
	struct unit_index *ix;
	const char *hit;
};

static bool superblock_call(const struct named_def *e, void *arg)
{
	struct superblock_walk *w = arg;
	size_t k;

	for (k = 0; k < e->d->calls.n; k++)
		if (call_creates_superblock(w->ix, e->d, e->d->calls.v[k])) {
			w->hit = e->d->calls.v[k];
			return true;
		}
	return false;
}

/*
 * Whether file_system_type FT's mount reaches a call that creates its
 * superblocks (sget(), get_tree_bdev(), mount_bdev(), ...): from the
 * get_tree its fs_context ends up with (context_get_tree()), else from
 * the functions and initializers its initializer names, and theirs, but not another
 * file_system_type (6.1 btrfs_fs_type mounts through btrfs_root_fs_type,
 * whose superblocks they are; nor an sget() that can only find one,
 * call_creates_superblock()); or a call anywhere in the unit that names
 * FT (sget(&mbt_fs_type, ...) in ext4's mballoc test).  The first such
 * call, or NULL.
 */
static const char *trace_superblock(struct unit_index *ix,
				    const struct file_info *fi,
				    const struct fstype *ft)
{
	struct superblock_walk w = { ix, NULL };
	char *get_tree = context_get_tree(ix, ft);
	const char *hit;
	size_t i, j, k;

	if (get_tree)
		walk_from(ix, (const char *const *)&get_tree, 1,
			  follow_to_superblock, superblock_call, &w);
	else
		walk_from_fstype(ix, fi, ft, follow_to_superblock,
				 superblock_call, &w);
	free(get_tree);
	hit = w.hit;
	for (i = 0; i < ix->files.n && !hit; i++) {
		const struct file_info *f = ix->files.v[i];

		for (j = 0; j < f->funcs.n && !hit; j++)
			for (k = 0; k < f->funcs.v[j].vargs.n && !hit; k++) {
				const struct value_arg *va =
					&f->funcs.v[j].vargs.v[k];

				if (!strcmp(va->name, ft->name) &&
				    creates_superblock(va->callee))
					hit = va->callee;
			}
	}
	return hit;
}

static const struct sop *find_sop(const struct unit_survey *sv,
				  const struct unit *u, const char *name)
{
	size_t i, k;

	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = sv->files.files.v[i];

		for (k = 0; k < fi->sops.n; k++)
			if (!strcmp(fi->sops.v[k].name, name))
				return &fi->sops.v[k];
	}
	return NULL;
}

/*
 * S has the callback the suspend freeze reaches: .freeze_fs, which the
 * VFS freeze_super() calls, or .freeze_super where the suspend freeze
 * calls a type's own (or where no suspend freeze was found to tell).
 */
static const char *sop_freeze_field(const struct unit_survey *sv,
				    const struct sop *s)
{
	if (!s)
		return NULL;
	if (s->freeze_super && sv->freeze.func && sv->freeze.super_op)
		return ".freeze_super";
	if (s->freeze_fs)
		return ".freeze_fs";
	if (s->freeze_super && !sv->freeze.func)
		return ".freeze_super";
	return NULL;
}

static bool sop_freezes(const struct unit_survey *sv, const struct sop *s)
{
	return sop_freeze_field(sv, s) != NULL;
}

/*
 * A block-backed type of U whose mount creates no superblock, while
 * another type of U's does, owns none: its flag would do nothing (6.1
 * btrfs_fs_type, whose mounts become btrfs_root_fs_type's superblocks).
 * It is judged so here, "no-superblock", as policy/judgments.tsv would.
 * When no type of U is seen to create one, the trace tells nothing and
 * none is judged; types that are not block-backed are never flagged
 * anyway.
 */
static void judge_superblock_owners(struct unit *u)
{
	const struct unit_fstype *owner = NULL;
	size_t i;

	for (i = 0; i < u->types.n && !owner; i++)
		if (u->types.v[i].creates)
			owner = &u->types.v[i];
	if (!owner)
		return;
	u->capable = false;
	for (i = 0; i < u->types.n; i++) {
		struct unit_fstype *t = &u->types.v[i];
		struct judgment *j;

		if (!t->creates && !t->judged && t->ft->requires_dev) {
			j = xcalloc(1, sizeof(*j));
			j->what = JUDGED_FSTYPE;
			j->code = xstrdup("no-superblock");
			j->evidence = xasprintf("%s's mount reaches no call that "
						"creates a superblock; %s's "
						"calls %s()", t->ft->name,
						owner->ft->name,
						owner->creates);
			t->derived = j;
			t->judged = j;
			t->capable = false;
		}
		u->capable |= t->capable;
	}
}

/* Each file_system_type of U, its super_operations, whether capable. */
static void trace_fstypes(struct unit_survey *sv, struct unit *u,
			  struct unit_index *ix)
{
	size_t i, j, k;

	for (i = 0; i < ix->files.n; i++) {
		const struct file_info *fi = ix->files.v[i];

		for (k = 0; k < fi->fstypes.n; k++) {
			struct unit_fstype t = { 0 };
			struct strset found = { 0 };

			t.ft = &fi->fstypes.v[k];
			t.fi = fi;
			trace_sops(ix, fi, t.ft, &found);
			t.traced = strset_size(&found) > 0;
			t.judged = judged_fstype(&sv->judgments, u->rel,
						 t.ft->name);
			t.creates = trace_superblock(ix, fi, t.ft);
			t.sops = strset_sorted(t.traced ? &found : &ix->sops,
					       &t.nsops);
			for (j = 0; j < t.nsops; j++)
				if (sop_freezes(sv, find_sop(sv, u, t.sops[j])))
					t.capable = t.ft->requires_dev &&
						!t.judged;
			u->capable |= t.capable;
			vec_push(&u->types, t);
			strset_free(&found);
		}
	}
	judge_superblock_owners(u);
}

/*
 * Macro TEXT with the one "try_to_freeze ( ) ;" in it taken out, or NULL
 * when there is not exactly one.  Malloc'ed.
 */
static char *without_freeze_point(const char *text)
{
	static const char point[] = " try_to_freeze ( ) ;";
	const char *at = strstr(text, point);
	size_t n = sizeof(point) - 1;
	char *s;

	if (!at || strstr(at + n, point))
		return NULL;
	s = xmalloc(strlen(text) - n + 1);
	memcpy(s, text, (size_t)(at - text));
	memcpy(s + (at - text), at + n, strlen(at + n) + 1);
	return s;
}

/*
 * The freezable macros of U that have a plain twin in U: a freezer API
 * name the unit defines as a function-like macro (bcachefs's
 * kthread_wait_freezable()), and another macro of the unit whose
 * parameters and body are the same, token for token, but for the
 * freezable one's single try_to_freeze() (kthread_wait()).  The rules
 * rename one to the other in kernel threads: the thread then sleeps
 * exactly as before, without the freeze point.
 */
static void find_twins(struct unit *u, const struct unit_index *ix)
{
	size_t i, k, f, g;

	for (i = 0; i < ix->files.n; i++) {
		const struct file_info *fi = ix->files.v[i];

		for (k = 0; k < fi->macros.n; k++) {
			const struct macro *m = &fi->macros.v[k];
			int api = api_index(m->name);
			const char *to = NULL;
			char *plain;

			if (api < 0 || freezer_apis[api].class == API_WQ ||
			    strvec_has(&u->twins, m->name))
				continue;
			plain = without_freeze_point(m->text);
			if (!plain)
				continue;
			for (f = 0; f < ix->files.n; f++) {
				const struct file_info *fj = ix->files.v[f];

				for (g = 0; g < fj->macros.n; g++) {
					const struct macro *t = &fj->macros.v[g];

					if (strcmp(t->text, plain) ||
					    !strcmp(t->name, m->name))
						continue;
					to = to && strcmp(to, t->name) ?
						"" : t->name;
				}
			}
			free(plain);
			if (!to || !*to)
				continue;
			vec_push(&u->twins, (char *)m->name);
			vec_push(&u->twins, (char *)to);
		}
	}
}

/* anchor_scope's defined_in: the files of the unit that define FN. */
static void unit_defines(void *arg, const char *fn, strvec *paths)
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

/* Check U's judgments against its code: which hold here (judgments.h). */
static void check_judgments(struct unit_survey *sv, const struct unit *u,
			    struct unit_index *ix)
{
	struct anchor_scope sc = { 0 };

	sc.ktree = sv->ktree;
	sc.unit = u->rel;
	sc.defined_in = unit_defines;
	sc.arg = ix;
	sc.texts = ix->texts;
	judgments_check(&sv->judgments, u->rel, &sc);
}

static void analyze_unit(struct unit_survey *sv, struct unit *u)
{
	struct unit_index ix = { 0 };

	ix.texts = &sv->texts;
	index_unit(sv, u, &ix);
	check_judgments(sv, u, &ix);
	count_uses(u, &ix);
	find_twins(u, &ix);
	trace_fstypes(sv, u, &ix);
	index_free(&ix);
}

/* ---- status and reason ---- */

const char *unit_name(const struct unit *u)
{
	return u->core ? "fs (core)" : u->rel;
}

static void add_str(charvec *s, const char *str)
{
	for (; *str; str++)
		vec_push(s, *str);
}

/* The first freezing super_operations of T and its field. */
static const char *freeze_field(struct unit_survey *sv,
				const struct unit *u,
				const struct unit_fstype *t, const char **sop)
{
	size_t j;

	for (j = 0; j < t->nsops; j++) {
		const struct sop *s = find_sop(sv, u, t->sops[j]);

		if (sop_freezes(sv, s)) {
			*sop = s->name;
			return sop_freeze_field(sv, s);
		}
	}
	return NULL;
}

/* "library: no file_system_type, used by U (eligible), ..." */
static void reason_library(const struct unit *u, charvec *r)
{
	size_t i;

	add_str(r, "library: no file_system_type, ");
	if (!u->users.n)
		add_str(r, "no users (no Kconfig symbol selects or depends "
			"on it)");
	else
		add_str(r, "used by ");
	for (i = 0; i < u->users.n; i++) {
		if (i)
			add_str(r, ", ");
		add_str(r, unit_name(u->users.v[i]));
		add_str(r, u->users.v[i]->status == UNIT_ELIGIBLE ?
			" (eligible)" : " (not eligible)");
	}
}

/* "; T not flagged: CODE: EVIDENCE" for each judged type of U. */
static void reason_judged_types(const struct unit *u, charvec *r)
{
	size_t i;

	for (i = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		if (!t->judged)
			continue;
		add_str(r, "; ");
		add_str(r, t->ft->name);
		add_str(r, " not flagged: ");
		add_str(r, t->judged->code);
		add_str(r, ": ");
		add_str(r, t->judged->evidence);
	}
}

/*
 * How the suspend freeze reaches FIELD: ", which the suspend freeze
 * calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs
 * (patches/linux-6.1/)", or nothing when no suspend freeze was found.
 */
static void reason_freeze_path(const struct unit_survey *sv,
			       const char *field, charvec *r)
{
	if (!sv->freeze.func)
		return;
	add_str(r, ", which the suspend freeze calls: ");
	add_str(r, sv->freeze.func);
	add_str(r, "() -> ");
	if (!strcmp(field, ".freeze_fs"))
		add_str(r, "freeze_super() -> ");
	add_str(r, field);
	add_str(r, " (");
	add_str(r, sv->freeze.where);
	add_str(r, ")");
}

/*
 * "eligible: T, T2 are FS_REQUIRES_DEV and S has .freeze_fs; ...": the
 * capable types grouped by the (sop, field) that makes them capable.
 */
static void reason_eligible(struct unit_survey *sv, const struct unit *u,
			    charvec *r)
{
	bool *done = xcalloc(u->types.n, sizeof(bool));
	size_t i, j;

	add_str(r, "eligible: ");
	for (i = 0; i < u->types.n; i++) {
		const char *sop = NULL, *field, *sop2 = NULL;
		size_t count = 0;

		if (done[i] || !u->types.v[i].capable)
			continue;
		field = freeze_field(sv, u, &u->types.v[i], &sop);
		if (r->n > 10)
			add_str(r, "; ");
		for (j = i; j < u->types.n; j++) {
			const struct unit_fstype *t = &u->types.v[j];

			if (done[j] || !t->capable)
				continue;
			if (strcmp(freeze_field(sv, u, t, &sop2), field) ||
			    strcmp(sop2, sop))
				continue;
			done[j] = true;
			if (count++)
				add_str(r, ", ");
			add_str(r, t->ft->name);
		}
		add_str(r, count > 1 ? " are" : " is");
		add_str(r, " FS_REQUIRES_DEV and ");
		add_str(r, sop);
		add_str(r, " has ");
		add_str(r, field);
		reason_freeze_path(sv, field, r);
	}
	free(done);
	reason_judged_types(u, r);
}

/*
 * "not freeze-capable: the suspend freeze ... calls only freeze_super()":
 * U's block-backed types have .freeze_super but no .freeze_fs, and the
 * suspend freeze never calls a type's own ->freeze_super (the 6.1
 * series).  False, with nothing added, otherwise.
 */
static bool super_op_missed(const struct unit_survey *sv,
			    const struct unit *u, charvec *r)
{
	const struct sop *found = NULL;
	size_t i, k;

	if (!sv->freeze.func || sv->freeze.super_op)
		return false;
	for (i = 0; i < u->types.n && !found; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		for (k = 0; k < t->nsops && t->ft->requires_dev && !found; k++) {
			const struct sop *s = find_sop(sv,
						       u, t->sops[k]);

			if (s && s->freeze_super && !s->freeze_fs)
				found = s;
		}
	}
	if (!found)
		return false;
	add_str(r, "not freeze-capable: the suspend freeze, ");
	add_str(r, sv->freeze.func);
	add_str(r, "() (");
	add_str(r, sv->freeze.where);
	add_str(r, "), calls only the VFS freeze_super(), which calls "
		".freeze_fs, and ");
	add_str(r, found->name);
	add_str(r, " has .freeze_super alone");
	return true;
}

/* "not freeze-capable: ...": no FS_REQUIRES_DEV, or no freezing s_op. */
static void reason_skip(struct unit_survey *sv, const struct unit *u,
			charvec *r)
{
	bool dev = false;
	size_t i, j, k;

	for (i = 0; i < u->types.n; i++)
		dev |= u->types.v[i].ft->requires_dev;
	if (!dev) {
		add_str(r, "not block-backed: no FS_REQUIRES_DEV "
			"file_system_type");
		return;
	}
	if (super_op_missed(sv, u, r)) {
		reason_judged_types(u, r);
		return;
	}
	for (i = 0; i < u->types.n; i++) {
		if (u->types.v[i].judged) {
			add_str(r, "not freeze-capable");
			reason_judged_types(u, r);
			return;
		}
	}
	add_str(r, "not freeze-capable: no .freeze_fs/.freeze_super (");
	for (i = 0, j = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		if (!t->ft->requires_dev)
			continue;
		if (j++)
			add_str(r, "; ");
		add_str(r, t->ft->name);
		add_str(r, ": ");
		if (!t->nsops)
			add_str(r, "no super_operations");
		for (k = 0; k < t->nsops; k++) {
			if (k)
				add_str(r, ", ");
			add_str(r, t->sops[k]);
		}
	}
	add_str(r, ")");
}

/*
 * "unreviewed: cluster (policy/judgments.tsv:31) no longer holds: WHY":
 * a judgment that held U back, whose anchor is gone.
 */
static void reason_lapsed(const struct unit_survey *sv,
			  const struct judgment *j, charvec *r)
{
	char *where = judgment_where(&sv->judgments, j);

	add_str(r, "unreviewed: ");
	add_str(r, j->code);
	add_str(r, " (");
	add_str(r, where);
	add_str(r, ") no longer holds: ");
	add_str(r, j->lapse);
	add_str(r, "; the unit stays as it is until that is reviewed again");
	free(where);
}

/*
 * U's status and the one-line reason for it.  A unit with types none of
 * which is freeze-capable is skip, whatever is judged of it; else a
 * judgment that holds makes it skip, with the judgment's reason.  A
 * library is never converted; a unit that would be eligible but for a
 * judgment that has lapsed is kept as it is, unreviewed.  A library's
 * reason names its users' status: decide_units() decides libraries
 * last.
 */
static void decide_status(struct unit_survey *sv, struct unit *u)
{
	const struct judgment *j = judged_unit(&sv->judgments, u->rel);
	const struct judgment *lapsed = lapsed_unit(&sv->judgments, u->rel);
	charvec r = { 0 };

	if (u->core) {
		u->status = UNIT_CORE;
		u->reason = xstrdup("the files at the top of fs/ are the "
				    "VFS, not a filesystem unit");
		return;
	}
	if (u->types.n && !u->capable) {
		u->status = UNIT_SKIP;
		reason_skip(sv, u, &r);
	} else if (j) {
		u->status = UNIT_SKIP;
		add_str(&r, "not eligible: ");
		add_str(&r, j->code);
		add_str(&r, ": ");
		add_str(&r, j->evidence);
	} else if (!u->types.n) {
		u->status = UNIT_LIBRARY;
		reason_library(u, &r);
	} else if (lapsed) {
		u->status = UNIT_UNREVIEWED;
		reason_lapsed(sv, lapsed, &r);
	} else {
		u->status = UNIT_ELIGIBLE;
		reason_eligible(sv, u, &r);
	}
	vec_push(&r, '\0');
	u->reason = xstrdup(r.v);
	vec_free(&r);
}

bool unit_converted(const struct unit_survey *sv, const struct unit *u)
{
	return u->status == UNIT_ELIGIBLE ||
		(sv->force && (u->status == UNIT_SKIP ||
			       u->status == UNIT_LIBRARY ||
			       u->status == UNIT_UNREVIEWED));
}

bool unit_flags_fstype(const struct unit *u, const struct unit_fstype *t)
{
	return u->status == UNIT_ELIGIBLE && t->capable;
}

const char *const flag_state_names[] = {
	[FLAG_NONE] = "none", [FLAG_SET] = "set", [FLAG_MISSING] = "missing",
	[FLAG_MISPLACED] = "misplaced", [FLAG_JUDGED] = "judged",
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* NAME is a whole identifier in expression text S. */
static bool has_word(const char *s, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = s; (p = strstr(p, name)); p += n)
		if ((p == s || !ident_char(p[-1])) && !ident_char(p[n]))
			return true;
	return false;
}

enum flag_state unit_flag_state(const struct unit_survey *sv,
				const struct unit *u,
				const struct unit_fstype *t,
				const struct judgment **j)
{
	const char *flag = sv->freeze.flag;
	bool carries = flag && t->ft->flags && has_word(t->ft->flags, flag);

	*j = NULL;
	if (unit_flags_fstype(u, t))
		return carries ? FLAG_SET : FLAG_MISSING;
	if (!carries)
		return FLAG_NONE;
	*j = judged_flagged(&sv->judgments, u->rel, t->ft->name);
	return *j ? FLAG_JUDGED : FLAG_MISPLACED;
}

/*
 * WANT, a whole word, in BUF[FROM..END) before the first "};" (the
 * initializer that starts at line FROM_LINE): its line and column.
 */
static bool find_in_initializer(const char *buf, const char *from,
				const char *end, unsigned int from_line,
				const char *want, unsigned int *line,
				unsigned int *col)
{
	size_t n = strlen(want);
	const char *p, *bol = from;
	unsigned int l = from_line;

	for (p = from; p < end && !(*p == '}' && p + 1 < end && p[1] == ';');
	     p++) {
		if (*p == '\n') {
			l++;
			bol = p + 1;
			continue;
		}
		if ((size_t)(end - p) >= n && !memcmp(p, want, n) &&
		    (p == buf || !ident_char(p[-1]) || *want == '.') &&
		    (p + n == end || !ident_char(p[n]))) {
			*line = l;
			*col = (unsigned int)(p - bol) + 1;
			return true;
		}
	}
	return false;
}

void unit_flag_position(const struct unit_survey *sv,
			const struct unit_fstype *t, unsigned int *line,
			unsigned int *col)
{
	const char *flag = sv->freeze.flag;
	char *buf = NULL, *p, *end;
	size_t len = 0, cap = 0;
	unsigned int l = 1;

	*line = t->ft->line;
	*col = 1;
	if (read_file(t->fi->path, &buf, &len, &cap, NULL, NULL) < 0)
		af_die(EXIT_RUNTIME, t->fi->path, "%s", strerror(errno));
	end = buf + len;
	for (p = buf; p < end && l < t->ft->line; p++)
		l += *p == '\n';
	if (l == t->ft->line &&
	    !(flag && find_in_initializer(buf, p, end, l, flag, line, col)))
		find_in_initializer(buf, p, end, l, ".fs_flags", line, col);
	free(buf);
}

/* A caller FN is reached from when only threads reach it, else NULL. */
static const char *caller_of(const struct unit *u, const char *fn)
{
	size_t k;

	for (k = 0; k < u->kthreads.n; k++)
		if (!strcmp(u->kthreads.v[k], fn))
			return u->kthread_via.v[k];
	return NULL;
}

/*
 * The judgment in STATE on use US of FI: of kind WHAT on the function US
 * is in or, for a quiesced judgment and a function only threads reach,
 * on a caller it is reached from, up to its thread.
 */
static const struct judgment *judgment_on(const struct unit_survey *sv,
					  const struct unit *u,
					  const struct file_info *fi,
					  const struct use *us,
					  enum judged_what what,
					  enum judgment_state state)
{
	const char *fn = us->where == WHERE_FUNC ? us->func : NULL;
	size_t depth = 0;

	for (; fn && depth < 32; depth++) {
		const struct judgment *j = judged_at(&sv->judgments, what,
						     state, u->rel, fn,
						     fi->path, us->line);

		/* a keep judges the function the flag is in, no caller */
		if (j || what == JUDGED_USE)
			return j;
		fn = caller_of(u, fn);
	}
	return NULL;
}

/* The thread US runs in: its function, or the thread that reaches it. */
static const char *thread_of(const struct unit *u, const struct use *us)
{
	const char *fn = us->func, *via;
	size_t depth = 0;

	while (depth++ < 32 && (via = caller_of(u, fn)))
		fn = via;
	return fn;
}

const char *const use_judged_names[] = {
	[USE_FREE] = "free", [USE_KEPT] = "keep",
	[USE_QUIESCED] = "quiesced", [USE_UNREVIEWED] = "unreviewed",
};

enum use_judged unit_judges_use(const struct unit_survey *sv,
				const struct unit *u,
				const struct file_info *fi,
				const struct use *us,
				const struct judgment **j, char **why)
{
	bool wq = freezer_apis[us->api].class == API_WQ;
	const struct judgment *lapsed;
	char *where;

	*why = NULL;
	*j = NULL;
	if (use_context(us, &u->kthread_set) != CTX_KTHREAD)
		return USE_FREE;
	*j = judgment_on(sv, u, fi, us, JUDGED_USE, JUDGMENT_HOLDS);
	/*
	 * kthread_freezer.cocci takes no keep list: a thread is kept whole
	 * by the rule's own analysis, not by a judgment (yet).
	 */
	if (*j && !wq)
		af_die(EXIT_BADINPUT, fi->path, "line %u: a use judgment "
		       "(%s in %s()) may keep only a workqueue flag, not %s",
		       us->line, (*j)->code, us->func,
		       freezer_apis[us->api].name);
	if (*j)
		return USE_KEPT;
	*j = judgment_on(sv, u, fi, us, JUDGED_QUIESCED, JUDGMENT_HOLDS);
	if (*j)
		return USE_QUIESCED;
	lapsed = judgment_on(sv, u, fi, us, JUDGED_USE, JUDGMENT_LAPSED);
	if (!lapsed)
		lapsed = judgment_on(sv, u, fi, us, JUDGED_QUIESCED,
				     JUDGMENT_LAPSED);
	if (lapsed) {
		where = judgment_where(&sv->judgments, lapsed);
		*why = xasprintf("the %s judgment on %s() (%s) no longer "
				 "holds: %s", lapsed->code, lapsed->name,
				 where, lapsed->lapse);
		free(where);
	} else if (us->where != WHERE_FUNC) {
		*why = xasprintf("%s outside a function: no reviewed judgment "
				 "says what the freeze does to its work",
				 freezer_apis[us->api].name);
	} else {
		*why = xasprintf("no reviewed judgment says what the "
				 "filesystem's freeze does to the work of %s%s() "
				 "(%s)", wq ? "the workqueue or worker set up "
				 "in " : "kernel thread ",
				 wq ? us->func : thread_of(u, us),
				 sv->judgments.path);
	}
	return USE_UNREVIEWED;
}

bool unit_needs_file(const struct unit *u, const struct file_info *fi)
{
	size_t k;

	if (fi->uses.n > 0)
		return true;
	for (k = 0; k < u->types.n; k++)
		if (unit_flags_fstype(u, &u->types.v[k]) &&
		    u->types.v[k].fi == fi)
			return true;
	return false;
}

/* ---- the survey ---- */

/* Whether a unit read here other than U defines a macro NAME. */
static bool macro_elsewhere(const struct unit_survey *sv,
			    const struct unit *u, const char *name)
{
	size_t i, j, m;

	for (i = 0; i < sv->all.n; i++) {
		const struct unit *o = sv->all.v[i];

		if (o == u || !o->analyzed)
			continue;
		for (j = o->first; j < o->end; j++) {
			const struct file_info *fi = sv->files.files.v[j];

			for (m = 0; m < fi->macros.n; m++)
				if (!strcmp(fi->macros.v[m].name, name))
					return true;
		}
	}
	return false;
}

/*
 * Whether the conversion leaves U's freezable twin NAME (find_twins())
 * with no use, so that its definition goes (kthread_freezer.cocci's -D
 * unused_twins): NAME is used, and every use is in one of U's threads
 * (u->kthread_set), where the rules rename it to its plain twin; a use
 * in a function no thread owns, in another macro or outside a function
 * keeps it.  Its definitions ("#define NAME(") are not uses.  Never
 * with --force: a thread the rules leave whole keeps its uses, and only
 * without --force is its unit then put back as it was.  Nor when
 * another unit read here defines a NAME too: the rules may run on both
 * at once, and would take that one.
 */
static bool twin_left_unused(const struct unit_survey *sv,
			     const struct unit *u, const char *name)
{
	size_t i, k, m, n = 0;

	if (sv->force)
		return false;
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = sv->files.files.v[i];

		for (k = 0; k < fi->uses.n; k++) {
			const struct use *us = &fi->uses.v[k];
			bool definition = false;

			if (strcmp(freezer_apis[us->api].name, name))
				continue;
			for (m = 0; m < fi->macros.n; m++)
				definition |= fi->macros.v[m].line == us->line &&
					!strcmp(fi->macros.v[m].name, name);
			if (definition && us->where == WHERE_MACRO)
				continue;
			if (use_context(us, &u->kthread_set) != CTX_KTHREAD)
				return false;
			n++;
		}
	}
	return n > 0 && !macro_elsewhere(sv, u, name);
}

static void analyze_units(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->all.n; i++)
		if (sv->all.v[i]->analyzed)
			analyze_unit(sv, sv->all.v[i]);
	/* once every unit read here is: twin_left_unused() looks at all */
	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		for (k = 0; k + 1 < u->twins.n; k += 2)
			if (twin_left_unused(sv, u, u->twins.v[k]))
				vec_push(&u->unused_twins, u->twins.v[k]);
	}
}

/* After analyze_units(): a library's reason tells its users' capable. */
static void decide_units(struct unit_survey *sv)
{
	size_t i, pass;

	/* a library's users may be libraries, decided in the same pass */
	for (i = 0; i < sv->all.n; i++)
		if (!sv->all.v[i]->types.n)
			sv->all.v[i]->status = UNIT_LIBRARY;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sv->all.n; i++)
			if (sv->all.v[i]->analyzed &&
			    (sv->all.v[i]->status == UNIT_LIBRARY) == pass)
				decide_status(sv, sv->all.v[i]);
}

void survey_units(struct unit_survey *sv, const char *dir)
{
	find_units(sv, dir);
	kbuild_read(sv);
	read_units(sv);
	analyze_units(sv);
	decide_units(sv);
}

void survey_free(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		for (k = 0; k < u->types.n; k++) {
			struct judgment *d = u->types.v[k].derived;

			free(u->types.v[k].sops);
			if (d) {
				free(d->code);
				free(d->evidence);
				free(d);
			}
		}
		vec_free(&u->types);
		vec_free(&u->kthreads);
		strset_free(&u->kthread_set);
		vec_free(&u->twins);
		vec_free(&u->unused_twins);
		vec_free(&u->kthread_via);
		vec_free(&u->configs);
		vec_free(&u->users);
		free(u->rel);
		free(u->path);
		free(u->reason);
		free(u);
	}
	vec_free(&sv->all);
	vec_free(&sv->list);
	kbuild_free(&sv->kbuild);
	fileset_free(&sv->files);
	ctexts_free(&sv->texts);
	judgments_free(&sv->judgments);
	freeze_path_free(&sv->freeze);
	free((char *)sv->ktree);
}

/* ---- the command line ---- */

static void usage_units(FILE *f, const char *cmd)
{
	fprintf(f, "usage: %s %s%s [--force] [--judgments FILE] [-j N] "
		"KTREE DIR\n", PROG, cmd,
		strcmp(cmd, "units") ? "" : " [--json]");
}

/*
 * The options of CMD into SV (and *JSON, when CMD takes --json); returns
 * the index of KTREE in ARGV, or -1 after a usage message.
 */
static int parse_options(struct unit_survey *sv, int argc, char **argv,
			 const char *cmd, bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "force", no_argument, NULL, 'f' },
		{ "judgments", required_argument, NULL, 'P' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+j:fh", opts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			if (!json)
				goto bad;
			*json = true;
			break;
		case 'f':
			sv->force = true;
			break;
		case 'P':
			sv->judgments_path = optarg;
			break;
		case 'j':
			sv->jobs = job_count(cmd, optarg);
			break;
		case 'h':
			usage_units(stdout, cmd);
			exit(0);
		default:
bad:
			usage_units(stderr, cmd);
			return -1;
		}
	}
	if (argc - optind != 2) {
		usage_units(stderr, cmd);
		return -1;
	}
	return optind;
}

/*
 * The command line of CMD ("units" or "plan"), then the survey; returns
 * 0, or the exit status of a usage error.
 */
static int survey_args(struct unit_survey *sv, int argc, char **argv,
		       const char *cmd, bool *json)
{
	struct ktree_dir kd;
	char *why;
	int arg;

	memset(sv, 0, sizeof(*sv));
	sv->jobs = ncpus();
	arg = parse_options(sv, argc, argv, cmd, json);
	if (arg < 0)
		return EXIT_BADINPUT;
	why = ktree_resolve(argv[arg], argv[arg + 1], &kd);
	if (why) {
		af_warn(NULL, "%s", why);
		free(why);
		return EXIT_BADINPUT;
	}
	sv->ktree = kd.root;
	judgments_load(&sv->judgments, sv->judgments_path);
	freeze_path_read(&sv->freeze, kd.root);
	survey_units(sv, kd.dir);
	free(kd.dir);
	return 0;
}

int cmd_units(int argc, char **argv)
{
	struct unit_survey sv;
	bool json = false;
	int rc;

	rc = survey_args(&sv, argc, argv, "units", &json);
	if (rc)
		return rc;
	if (json)
		print_units_json(&sv);
	else
		print_units_text(&sv);
	survey_free(&sv);
	return flush_stdout();
}

/* autofreeze optin KTREE: the plan's optin line alone, read in no time. */
int cmd_optin(int argc, char **argv)
{
	struct freeze_path fp;
	struct ktree_dir kd;
	int rc = ktree_only_arg("optin", argc, argv, &kd);

	if (rc)
		return rc;
	freeze_path_read(&fp, kd.root);
	print_optin(&fp);
	freeze_path_free(&fp);
	ktree_dir_free(&kd);
	return flush_stdout();
}

/* CMD ("plan", "judgments"): the survey of KTREE DIR, then PRINT it. */
static int survey_cmd(int argc, char **argv, const char *cmd,
		      void (*print)(const struct unit_survey *sv))
{
	struct unit_survey sv;
	int rc;

	rc = survey_args(&sv, argc, argv, cmd, NULL);
	if (rc)
		return rc;
	print(&sv);
	survey_free(&sv);
	return flush_stdout();
}

/*
 * autofreeze judgments KTREE DIR: each judgment on a unit of DIR, in the
 * file's order, and whether it holds in this tree.
 */
int cmd_judgments(int argc, char **argv)
{
	return survey_cmd(argc, argv, "judgments", print_judgments);
}

int cmd_plan(int argc, char **argv)
{
	return survey_cmd(argc, argv, "plan", print_plan);
}
