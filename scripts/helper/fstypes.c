// SPDX-License-Identifier: GPL-2.0
/*
 * fstypes.c - a unit's file_system_types: the super_operations each
 * uses, whether it is freeze-capable, and which own superblocks.
 *
 * trace_fstypes() is the entry point: for each file_system_type of a
 * unit, the super_operations it uses, whether one has the callback the
 * suspend freeze reaches (sop_freeze_field()), and the call that
 * creates its superblocks (trace_superblock()); a block-backed type
 * whose mount creates none while another type's does is judged
 * "no-superblock" (judge_superblock_owners()).  find_sop(),
 * sop_freeze_field() and sop_freezes() also serve status.c's reasons.
 *
 * Which super_operations a file_system_type uses is traced: from the
 * identifiers in its initializer (.mount, .init_fs_context, ...) through
 * the unit's functions and initializers (a fs_context_operations, a
 * fill_super passed to get_tree_bdev()) to "X->s_op = &NAME;".  When
 * nothing is found, the unit's super_operations count as a whole.
 */
#include <stdlib.h>
#include <string.h>

#include "cdef.h"
#include "fstypes.h"
#include "lex.h"

/* VEC (a file's sops or fstypes: structs with a name) holds NAME. */
#define has_named(vec, nm)						\
	({								\
		size_t i_;						\
		bool found_ = false;					\
									\
		for (i_ = 0; i_ < (vec)->n && !found_; i_++)		\
			found_ = !strcmp((vec)->v[i_].name, (nm));	\
		found_;							\
	})

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
	return !(e->obj && has_named(&e->fi->sops, e->name));
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
	return !(e->obj && has_named(&e->fi->fstypes, e->name));
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

const struct sop *find_sop(const struct unit_survey *sv,
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

const char *sop_freeze_field(const struct unit_survey *sv,
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

bool sop_freezes(const struct unit_survey *sv, const struct sop *s)
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

void trace_fstypes(struct unit_survey *sv, struct unit *u,
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
