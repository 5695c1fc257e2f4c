// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c - the functions one file starts as kernel threads.
 *
 * A function is started as a thread when it is the thread-function
 * argument of a starter of api.c's thread_starters[] (thread_start()),
 * the ".svo_function" of a struct svc_serv_ops (svo_function()), or a
 * name assigned to a variable that is such an argument
 * (thread_aliases(), once the file is walked).  All three add to the
 * file_info's threads.
 */
#include <string.h>

#include "api.h"
#include "threads.h"
#include "tokwalk.h"

void thread_start(struct analysis *an, long i)
{
	long from[16], to[16], open = next_code(an, i), id;
	size_t k;
	int n, arg = -2;

	if (open < 0 || !is_punct(&an->t[open], P1('(')))
		return;
	for (k = 0; k < n_thread_starters; k++)
		if (tok_is(an->buf, &an->t[i], thread_starters[k].name))
			arg = thread_starters[k].arg;
	if (arg == -2)
		return;
	n = call_args(an, open, from, to, 16);
	if (arg < 0)
		arg = n - 1;
	if (arg < 0 || arg >= n)
		return;
	id = lone_ident(an, from[arg], to[arg]);
	if (id >= 0)
		add_unique(&an->fi->threads, intern(an, &an->t[id]));
}

/* ".svo_function = NAME" (struct svc_serv_ops, before 6.2) */
void svo_function(struct analysis *an, long i)
{
	long v = assigned_ident(an, i);

	if (v >= 0)
		add_unique(&an->fi->threads, intern(an, &an->t[v]));
}

/* "threadfn = nfs41_callback_svc;" for a thread argument "threadfn" */
void thread_aliases(struct analysis *an)
{
	size_t nthreads = an->fi->threads.n, k;
	long i;

	if (!nthreads)
		return;
	for (i = 0; i + 3 < (long)an->n; i++) {
		const struct token *t = &an->t[i];
		long v, semi;
		const char *name = NULL;

		if (t->kind != TK_IDENT || in_dir(t))
			continue;
		v = assigned_ident(an, i);
		if (v < 0)
			continue;
		for (k = 0; k < nthreads; k++)
			if (tok_is(an->buf, t, an->fi->threads.v[k]))
				name = an->fi->threads.v[k];
		if (!name)
			continue;
		semi = next_code(an, v);
		if (semi >= 0 && is_punct(&an->t[semi], P1(';')))
			add_unique(&an->fi->threads, intern(an, &an->t[v]));
	}
}
