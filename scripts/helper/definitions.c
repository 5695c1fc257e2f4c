// SPDX-License-Identifier: GPL-2.0
/*
 * definitions.c - what full (units) mode records of a file's
 * definitions, for the units' call graph.
 *
 * Of each function body or file-scope initializer, the identifiers it
 * references, which of them it calls and which it only names, and the
 * lone identifiers it hands to a call (value_args()); of each function,
 * its parameter names; of each function-like #define, its text.
 * Entry points, called by analyze(): add_ref(), param_names() and
 * macro_definition().
 */
#include <stdlib.h>
#include <string.h>

#include "definitions.h"
#include "tokwalk.h"

/*
 * The lone identifiers among the arguments of the call of CALLEE whose
 * "(" is at OPEN: a function handed on by name (a thread function to a
 * function that starts it).
 */
static void value_args(struct analysis *an, struct definition *d,
		       const char *callee, long open)
{
	long from[16], to[16], id;
	int n = call_args(an, open, from, to, 16), k;

	for (k = 0; k < n; k++) {
		struct value_arg va;

		id = lone_ident(an, from[k], to[k]);
		if (id < 0)
			continue;
		va.callee = callee;
		va.name = intern(an, &an->t[id]);
		va.pos = (unsigned short)k;
		va.nargs = (unsigned short)n;
		vec_push(&d->vargs, va);
	}
}


/*
 * The parameter names of the function whose name is at NM: of each
 * parameter, the name in "(*NAME)" or else its last identifier; "" for
 * "void" or "...".
 */
void param_names(struct analysis *an, struct definition *d, long nm)
{
	long open = next_code(an, nm), from[16], to[16], i;
	int n, k;

	if (open < 0 || !is_punct(&an->t[open], P1('(')))
		return;
	n = call_args(an, open, from, to, 16);
	for (k = 0; k < n; k++) {
		const char *name = "";
		long last = -1, ptr = -1;

		for (i = from[k]; i >= 0 && i < to[k]; i = next_code(an, i)) {
			const struct token *t = &an->t[i];
			long q = prev_code(an, i);

			if (t->kind != TK_IDENT)
				continue;
			last = i;
			if (ptr < 0 && q >= 0 && is_punct(&an->t[q], P1('*')) &&
			    (q = prev_code(an, q)) >= 0 &&
			    is_punct(&an->t[q], P1('(')))
				ptr = i;
		}
		if (ptr >= 0)
			last = ptr;
		if (last >= 0 && !tok_is(an->buf, &an->t[last], "void"))
			name = intern(an, &an->t[last]);
		vec_push(&d->params, (char *)name);
	}
}

void add_ref(struct analysis *an, struct definition *d,
	     const struct token *t, long i)
{
	long p = prev_code(an, i);
	const char *s;

	if (p >= 0 && (is_punct(&an->t[p], P2('-', '>')) ||
		       is_punct(&an->t[p], P1('.'))))
		return;
	s = intern(an, t);
	if (strset_add(&an->seen, s))
		vec_push(&d->refs, (char *)s);
	p = next_code(an, i);
	if (p >= 0 && is_punct(&an->t[p], P1('('))) {
		if (strset_add(&an->seen_calls, s))
			vec_push(&d->calls, (char *)s);
		value_args(an, d, s, p);
	} else if (strset_add(&an->seen_named, s)) {
		vec_push(&d->named, (char *)s);
	}
}

/*
 * "#define NAME(params) body" at HASH (units mode): NAME and the text
 * of everything after it, token by token.
 */
void macro_definition(struct analysis *an, long hash)
{
	long k = hash + 1, nm = hash + 2, i;
	charvec text = { 0 };
	struct macro m = { 0 };

	if (nm >= (long)an->n || !tok_is(an->buf, &an->t[k], "define") ||
	    an->t[nm].kind != TK_IDENT || !(an->t[nm].flags & TF_DIRECTIVE) ||
	    nm + 1 >= (long)an->n || !is_punct(&an->t[nm + 1], P1('(')) ||
	    an->t[nm + 1].start != an->t[nm].end)
		return;
	for (i = nm + 1; i < (long)an->n && in_dir(&an->t[i]) &&
	     !(an->t[i].flags & TF_HASH); i++) {
		char tmp[256];
		size_t n = tok_text(an->buf, &an->t[i], tmp, sizeof(tmp)), j;

		if (n >= sizeof(tmp))
			n = sizeof(tmp) - 1;
		if (text.n)
			vec_push(&text, ' ');
		for (j = 0; j < n; j++)
			vec_push(&text, tmp[j]);
	}
	m.name = intern(an, &an->t[nm]);
	m.text = arena_strndup(an->arena, text.n ? text.v : "", text.n);
	m.line = an->t[nm].line;
	vec_push(&an->fi->macros, m);
	vec_free(&text);
}
