// SPDX-License-Identifier: GPL-2.0
/*
 * tokwalk.c - token helpers shared by the modules of analyze().
 *
 * What more than one of analyze.c, definitions.c, threads.c and
 * fstype_parse.c asks of a file's tokens: intern() an identifier, the
 * arguments of a call (call_args(), lone_ident()), the identifier
 * assigned after a token (assigned_ident()), and add_unique() to a list
 * of names.  The smallest helpers are inline in tokwalk.h.
 */
#include <string.h>

#include "tokwalk.h"

const char *intern(struct analysis *an, const struct token *t)
{
	char tmp[256];
	size_t n = tok_text(an->buf, t, tmp, sizeof(tmp));
	const char *s = strset_get(&an->names, tmp);

	if (!s) {
		s = arena_strndup(an->arena, tmp, n);
		strset_add(&an->names, s);
	}
	return s;
}

/* The argument token ranges of the call whose "(" is at OPEN. */
int call_args(const struct analysis *an, long open, long *from, long *to,
	      int max)
{
	int d = 0, n = 0;
	long i, start = -1;

	for (i = open; i >= 0; i = next_code(an, i)) {
		const struct token *t = &an->t[i];

		if (is_punct(t, P1('(')) || is_punct(t, P1('[')) ||
		    is_punct(t, P1('{'))) {
			if (d++ == 0)
				start = next_code(an, i);
			continue;
		}
		if (is_punct(t, P1(')')) || is_punct(t, P1(']')) ||
		    is_punct(t, P1('}'))) {
			if (--d == 0) {
				if (n < max && start >= 0 && start != i) {
					from[n] = start;
					to[n++] = i;
				}
				return n;
			}
			continue;
		}
		if (d == 1 && is_punct(t, P1(','))) {
			if (n < max) {
				from[n] = start;
				to[n++] = i;
			}
			start = next_code(an, i);
		}
		if (is_punct(t, P1(';')))
			break;
	}
	return n;
}

/* The single identifier in [from, to) among "&", "(" and ")", or -1. */
long lone_ident(const struct analysis *an, long from, long to)
{
	long i, id = -1;

	for (i = from; i >= 0 && i < to; i = next_code(an, i)) {
		const struct token *t = &an->t[i];

		if (t->kind == TK_IDENT) {
			if (id >= 0)
				return -1;
			id = i;
		} else if (!is_punct(t, P1('&')) && !is_punct(t, P1('(')) &&
			   !is_punct(t, P1(')'))) {
			return -1;
		}
	}
	return id;
}

void add_unique(strvec *v, const char *s)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == s || !strcmp(v->v[i], s))
			return;
	vec_push(v, (char *)s);
}

/* The identifier X of "= X" or "= &X" right after token I, or -1. */
long assigned_ident(const struct analysis *an, long i)
{
	long eq = next_code(an, i), v;

	if (eq < 0 || !is_punct(&an->t[eq], P1('=')))
		return -1;
	v = next_code(an, eq);
	if (v >= 0 && is_punct(&an->t[v], P1('&')))
		v = next_code(an, v);
	return v >= 0 && an->t[v].kind == TK_IDENT ? v : -1;
}
