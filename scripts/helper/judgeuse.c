// SPDX-License-Identifier: GPL-2.0
/*
 * judgeuse.c - what the reviewed judgments say of a unit's freezer use.
 *
 * unit_judges_use() (units.h) is the entry point: for a use in kernel
 * thread context, the judgment that keeps it or says what quiesces its
 * work, looked for on the function the use is in or on a caller only
 * threads reach it from; else why it is unreviewed.  The plan's keep,
 * quiesced and unreviewed lines come from it.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "scan.h"
#include "units.h"

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
