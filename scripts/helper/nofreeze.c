// SPDX-License-Identifier: GPL-2.0
/*
 * nofreeze.c - kernel threads that never become freezable, whose task
 * freezer uses are dead code.
 *
 * Over a unit's files, read in full: a thread that is started only by
 * name, and from which no function of the unit that it reaches makes
 * it freezable (set_freezable() and the like).  Entry point:
 * freezer_use_dead() (declared in analyze.h), the one place this is
 * decided.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "api.h"

/*
 * What makes the kernel thread that runs it freezable.  A kernel thread
 * starts with PF_NOFREEZE, inherited from kthreadd (kernel/kthread.c),
 * and only set_freezable() clears it (kernel/freezer.c; in 6.1, 6.12 and
 * 7.3 no other code does, and unlock_system_sleep() only puts back what
 * lock_system_sleep() found); kthread_worker_fn() calls it for a
 * KTW_FREEZABLE worker, and set_freezable_with_signal() was its older
 * twin.  No header of those trees calls one for its caller.  Code that
 * names PF_NOFREEZE itself counts as one too: it may clear it.
 */
static const char *const freezable_makers[] = {
	"set_freezable", "set_freezable_with_signal", "kthread_worker_fn",
	"PF_NOFREEZE",
};

static bool is_freezable_maker(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(freezable_makers); i++)
		if (!strcmp(name, freezable_makers[i]))
			return true;
	return false;
}

/* A function definition of the unit, for the closure below. */
struct unit_def {
	const char *name;
	const struct definition *d;
};

static int cmp_unit_def(const void *a, const void *b)
{
	return strcmp(((const struct unit_def *)a)->name,
		      ((const struct unit_def *)b)->name);
}

/* D calls one of the makers (or names PF_NOFREEZE). */
static bool calls_maker(const struct definition *d)
{
	size_t k;

	for (k = 0; k < d->refs.n; k++)
		if (is_freezable_maker(d->refs.v[k]))
			return true;
	return false;
}

/* D names FN only as the thread function of a starter of api.c. */
static bool names_only_to_start(const struct definition *d, const char *fn)
{
	size_t k, s;

	if (!strvec_has(&d->named, fn))
		return true;
	for (k = 0; k < d->vargs.n; k++) {
		const struct value_arg *va = &d->vargs.v[k];

		if (strcmp(va->name, fn))
			continue;
		for (s = 0; s < n_thread_starters; s++) {
			const struct thread_starter *t = &thread_starters[s];

			if (!strcmp(t->name, va->callee) &&
			    (t->arg == va->pos ||
			     (t->arg < 0 && va->pos + 1 == va->nargs)))
				return true;
		}
	}
	return false;
}

/*
 * Function FN of the unit of FILES[0..N) (read in full) is a kernel
 * thread that never becomes freezable, so that every task freezer use
 * in it is dead code: freezing(current) is false (freezing_slow_path()
 * tests PF_NOFREEZE first), try_to_freeze() does nothing.  Only where
 * the code shows it:
 *   - FN is started as a thread (a starter of api.c, in the unit), and
 *     its name is used in no other way: never called, handed to nothing
 *     but a starter, not in an initializer, a macro body or
 *     EXPORT_SYMBOL() (callgraph.c's rule): nothing else runs it;
 *   - neither FN nor any function of the unit it reaches by calls calls
 *     a maker above;
 *   - every function of the unit that does call one is itself a thread
 *     started by name (so that no call through a pointer reaches it),
 *     and no macro of the unit holds one.
 */
static bool thread_never_freezable(struct file_info *const *files, size_t n,
				   const char *fn)
{
	VEC(struct unit_def) defs = { 0 };
	struct strset threads = { 0 }, seen = { 0 };
	strvec queue = { 0 };
	bool ok = true, started = false;
	size_t i, j, k, head = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < files[i]->threads.n; j++) {
			strset_add(&threads, files[i]->threads.v[j]);
			started |= !strcmp(files[i]->threads.v[j], fn);
		}
	for (i = 0; i < n && started && ok; i++) {
		const struct file_info *fi = files[i];

		for (j = 0; j < fi->uses.n && ok; j++)
			ok = fi->uses.v[j].where == WHERE_FUNC ||
				!is_freezable_maker(
					freezer_apis[fi->uses.v[j].api].name);
		for (j = 0; j < fi->macros.n && ok; j++)
			for (k = 0; k < ARRAY_SIZE(freezable_makers); k++)
				if (strstr(fi->macros.v[j].text,
					   freezable_makers[k]))
					ok = false;
		ok = ok && !strvec_has(&fi->loose, fn);
		for (j = 0; j < fi->funcs.n && ok; j++) {
			const struct definition *d = &fi->funcs.v[j];
			struct unit_def ud = { d->name, d };

			ok = !strvec_has(&d->calls, fn) &&
				names_only_to_start(d, fn) &&
				(!calls_maker(d) ||
				 (strcmp(d->name, fn) &&
				  strset_has(&threads, d->name)));
			vec_push(&defs, ud);
		}
	}
	ok = ok && started;
	if (ok) {
		struct unit_def key = { fn, NULL };

		xqsort(defs.v, defs.n, sizeof(*defs.v), cmp_unit_def);
		/* its body is the unit's: one that is not is not known */
		ok = xbsearch(&key, defs.v, defs.n, sizeof(*defs.v),
			      cmp_unit_def) != NULL;
		strset_add(&seen, fn);
		vec_push(&queue, (char *)fn);
	}
	/* every function of the unit FN reaches: none calls a maker */
	while (ok && head < queue.n) {
		struct unit_def key = { queue.v[head++], NULL };
		struct unit_def *e = xbsearch(&key, defs.v, defs.n,
					      sizeof(*defs.v), cmp_unit_def);

		while (e && e > defs.v && !cmp_unit_def(e - 1, &key))
			e--;
		for (; e && e < defs.v + defs.n && !cmp_unit_def(e, &key);
		     e++) {
			if (calls_maker(e->d)) {
				ok = false;
				break;
			}
			for (k = 0; k < e->d->calls.n; k++)
				if (strset_add(&seen, e->d->calls.v[k]))
					vec_push(&queue, e->d->calls.v[k]);
		}
	}
	vec_free(&defs);
	vec_free(&queue);
	strset_free(&threads);
	strset_free(&seen);
	return ok;
}

bool freezer_use_dead(struct file_info *const *files, size_t n,
		      const struct use *us)
{
	return us->where == WHERE_FUNC &&
		freezer_apis[us->api].class == API_TASK &&
		thread_never_freezable(files, n, us->func);
}
