// SPDX-License-Identifier: GPL-2.0
/*
 * analyze.c - one file's tokens to a file_info.
 *
 * Structure is recovered from braces alone: a "{" at file scope opens a
 * function body when it follows "NAME ( ... )" (attribute macros such as
 * __acquires(x) between the parameters and the body are skipped) and the
 * declaration has no "=", an initializer when the declaration has one.
 * Preprocessor conditionals are not evaluated; so that both branches of
 * "#ifdef A  if (x) {  #else  if (y) {  #endif" count one brace, each
 * #else/#elif branch starts from the state at its #if, and #endif keeps
 * the state at the end of the first branch.
 *
 * Entry points: analyze(), which walks the tokens, tells freezer API
 * uses itself (check_use()) and hands the rest to threads.c (thread
 * starts), fstype_parse.c (file_system_type and super_operations) and,
 * in full mode, definitions.c; file_info_reset() and file_info_free().
 * The byte prefilters are in prefilter.c, freezer_use_dead() in
 * nofreeze.c.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "api.h"
#include "definitions.h"
#include "fstype_parse.h"
#include "lex.h"
#include "threads.h"
#include "tokwalk.h"

const char *const context_names[CTX_MAX] = {
	[CTX_KTHREAD] = "kthread",
	[CTX_USER] = "user",
	[CTX_MACRO] = "macro",
	[CTX_UNKNOWN] = "unknown",
};

/* Where the walk through a file's tokens is. */
struct scope {
	int depth, pdepth;	/* of braces, of parentheses */
	const char *func;	/* the function whose body it is in */
	long func_idx, obj_idx;	/* its funcs[] or objs[] entry, or -1 */
	enum init_kind kind;	/* of the initializer it is in */
};

/* An #if group: the scope at its #if and at the end of its first branch. */
struct cond_frame {
	struct scope at_if, after_first;
	bool seen_else;
};

/* Index of the "(" matching the ")" at I, skipping directives; or -1. */
static long match_open(const struct analysis *an, long i)
{
	int d = 0;

	for (; i >= 0; i = prev_code(an, i)) {
		if (is_punct(&an->t[i], P1(')')))
			d++;
		else if (is_punct(&an->t[i], P1('(')) && --d == 0)
			return i;
	}
	return -1;
}

/* The function name of a body opening at I (a "{" at file scope). */
static long func_name(const struct analysis *an, long i)
{
	long p = prev_code(an, i);

	while (p >= 0 && is_punct(&an->t[p], P1(')'))) {
		long o = match_open(an, p), q, r;

		if (o < 0)
			return -1;
		q = prev_code(an, o);
		if (q < 0 || an->t[q].kind != TK_IDENT)
			return -1;
		r = prev_code(an, q);
		if (r >= 0 && is_punct(&an->t[r], P1(')'))) {
			p = r;		/* q was an attribute macro */
			continue;
		}
		return q;
	}
	return -1;
}

/* The variable an initializer "= {" at EQ belongs to. */
static long obj_name(const struct analysis *an, long eq)
{
	long p = prev_code(an, eq);

	if (p >= 0 && is_punct(&an->t[p], P1(']'))) {
		while (p >= 0 && !is_punct(&an->t[p], P1('[')))
			p = prev_code(an, p);
		p = prev_code(an, p);
	}
	while (p >= 0 && an->t[p].kind == TK_IDENT) {
		long q = prev_code(an, p);
		char tmp[3];

		tok_text(an->buf, &an->t[p], tmp, sizeof(tmp));
		/* name __read_mostly = { */
		if (tmp[0] == '_' && tmp[1] == '_' && q >= 0 &&
		    an->t[q].kind == TK_IDENT && !tok_is(an->buf, &an->t[q],
							 "struct")) {
			p = q;
			continue;
		}
		return p;
	}
	return -1;
}

/*
 * An identifier outside any function body: in a directive, an
 * initializer, or a file-scope declaration or macro call.  The name a
 * file-scope declaration declares ("int f(void);") is not one: it is
 * followed by "(" at brace depth 0.
 */
static void add_loose(struct analysis *an, long i, const struct scope *sc)
{
	const struct token *t = &an->t[i];
	long p;
	const char *s;

	if (!in_dir(t)) {
		p = prev_code(an, i);
		if (p >= 0 && (is_punct(&an->t[p], P2('-', '>')) ||
			       is_punct(&an->t[p], P1('.'))))
			return;
		p = next_code(an, i);
		if (sc->depth == 0 && p >= 0 && is_punct(&an->t[p], P1('(')))
			return;
	}
	s = intern(an, t);
	if (strset_add(&an->seen_loose, s))
		vec_push(&an->fi->loose, (char *)s);
}

static void check_use(struct analysis *an, long i, const struct scope *sc)
{
	const struct token *t = &an->t[i];
	struct use u;
	int api;

	if (t->flags & TF_SPLICED) {
		char tmp[64];

		if (t->len >= sizeof(tmp))
			return;
		tok_text(an->buf, t, tmp, sizeof(tmp));
		api = api_lookup(tmp, t->len, t->val);
	} else {
		api = api_lookup(an->buf + t->start, t->len, t->val);
	}
	if (api < 0)
		return;
	if (i > 0) {
		const struct token *p = &an->t[i - 1];

		if (is_punct(p, P2('-', '>')) || is_punct(p, P1('.')))
			return;		/* a struct member */
	}
	if (freezer_apis[api].kind == API_CALL &&
	    (i + 1 >= (long)an->n || !is_punct(&an->t[i + 1], P1('('))))
		return;			/* a variable of the same name */

	memset(&u, 0, sizeof(u));
	u.line = t->line;
	u.col = t->col;
	u.api = api;
	if (in_dir(t)) {
		u.where = WHERE_MACRO;
	} else if (sc->func) {
		u.where = WHERE_FUNC;
		u.func = sc->func;
		if (!strcmp(freezer_apis[api].name, "set_freezable"))
			add_unique(&an->fi->freezable, sc->func);
	} else {
		u.where = WHERE_FILE;
	}
	vec_push(&an->fi->uses, u);
}

static void cond_directive(struct analysis *an, long i,
			   struct cond_frame *stack, int *sp, struct scope *sc)
{
	long k = i + 1;
	const struct token *d;

	if (k >= (long)an->n || !(an->t[k].flags & TF_DIRECTIVE) ||
	    an->t[k].kind != TK_IDENT)
		return;
	d = &an->t[k];
	if (tok_is(an->buf, d, "if") || tok_is(an->buf, d, "ifdef") ||
	    tok_is(an->buf, d, "ifndef")) {
		if (*sp < 64) {
			stack[*sp].at_if = *sc;
			stack[*sp].seen_else = false;
		}
		(*sp)++;
	} else if (tok_is(an->buf, d, "else") || tok_is(an->buf, d, "elif") ||
		   tok_is(an->buf, d, "elifdef") ||
		   tok_is(an->buf, d, "elifndef")) {
		if (*sp > 0 && *sp <= 64) {
			struct cond_frame *f = &stack[*sp - 1];

			if (!f->seen_else) {
				f->after_first = *sc;
				f->seen_else = true;
			}
			*sc = f->at_if;
		}
	} else if (tok_is(an->buf, d, "endif")) {
		if (*sp > 0 && *sp <= 64) {
			struct cond_frame *f = &stack[*sp - 1];

			if (f->seen_else)
				*sc = f->after_first;
		}
		if (*sp > 0)
			(*sp)--;
	}
}

void analyze(struct file_info *fi, const char *buf, size_t len, bool full,
	     struct arena *arena, struct token **toks, size_t *tokcap)
{
	struct cond_frame stack[64];
	struct scope sc;
	struct analysis an;
	long decl_start = 0, eq = -1, i;
	int sp = 0;

	memset(&an, 0, sizeof(an));
	an.buf = buf;
	an.n = lex_all(buf, len, toks, tokcap);
	an.t = *toks;
	an.fi = fi;
	an.arena = arena;
	an.full = full;
	fi->lexed = true;

	memset(&sc, 0, sizeof(sc));
	sc.func_idx = sc.obj_idx = -1;

	for (i = 0; i < (long)an.n; i++) {
		const struct token *t = &an.t[i];

		if (t->flags & TF_HASH) {
			cond_directive(&an, i, stack, &sp, &sc);
			if (full)
				macro_definition(&an, i);
			continue;
		}
		if (t->kind == TK_IDENT) {
			check_use(&an, i, &sc);
			if (full && (in_dir(t) || sc.func_idx < 0))
				add_loose(&an, i, &sc);
			if (in_dir(t))
				continue;
			if (t->len >= 10 &&
			    (!memcmp(buf + t->start, "kthread_", 8) ||
			     !memcmp(buf + t->start, "svc_create", 10)))
				thread_start(&an, i);
			if (tok_is(buf, t, "svo_function"))
				svo_function(&an, i);
			if (!full)
				continue;
			if (sc.func_idx >= 0) {
				struct definition *fn = &fi->funcs.v[sc.func_idx];

				add_ref(&an, fn, t, i);
				if (tok_is(buf, t, "s_op"))
					s_op_assign(&an, i, fn);
			} else if (sc.obj_idx >= 0 && sc.kind != INIT_SOP) {
				/* an initializer: its refs lead to s_op */
				add_ref(&an, &fi->objs.v[sc.obj_idx], t, i);
			}
			continue;
		}
		if (in_dir(t) || t->kind != TK_PUNCT)
			continue;

		switch (t->val) {
		case P1('('):
			sc.pdepth++;
			break;
		case P1(')'):
			if (sc.pdepth > 0)
				sc.pdepth--;
			break;
		case P1('='):
			if (sc.depth == 0 && sc.pdepth == 0 && eq < 0)
				eq = i;
			break;
		case P1(';'):
			if (sc.depth == 0) {
				decl_start = i + 1;
				eq = -1;
			}
			break;
		case P1('.'):
			if (full && sc.depth == 1 && sc.obj_idx >= 0 &&
			    sc.kind != INIT_OTHER)
				designator(&an, i, sc.kind,
					   sc.kind == INIT_FSTYPE ?
					   fi->fstypes.n - 1 : fi->sops.n - 1);
			break;
		case P1('{'):
			if (sc.depth++ > 0)
				break;
			sc.func = NULL;
			sc.func_idx = sc.obj_idx = -1;
			sc.kind = INIT_OTHER;
			if (eq < 0) {
				long nm = func_name(&an, i);

				if (nm < 0)
					break;
				sc.func = intern(&an, &an.t[nm]);
				if (full) {
					struct definition d = { 0 };

					d.name = sc.func;
					d.line = an.t[nm].line;
					param_names(&an, &d, nm);
					vec_push(&fi->funcs, d);
					sc.func_idx = (long)fi->funcs.n - 1;
					strset_free(&an.seen);
					strset_free(&an.seen_calls);
					strset_free(&an.seen_named);
				}
			} else if (full) {
				long nm = obj_name(&an, eq);
				struct definition d = { 0 };

				if (nm < 0)
					break;
				d.name = intern(&an, &an.t[nm]);
				d.line = an.t[nm].line;
				sc.kind = initializer_kind(&an, decl_start, eq);
				if (sc.kind == INIT_FSTYPE) {
					struct fstype ft = { 0 };

					ft.name = d.name;
					ft.line = d.line;
					vec_push(&fi->fstypes, ft);
				} else if (sc.kind == INIT_SOP) {
					struct sop so = { 0 };

					so.name = d.name;
					so.line = d.line;
					vec_push(&fi->sops, so);
				}
				vec_push(&fi->objs, d);
				sc.obj_idx = (long)fi->objs.n - 1;
				strset_free(&an.seen);
				strset_free(&an.seen_calls);
				strset_free(&an.seen_named);
			}
			break;
		case P1('}'):
			if (sc.depth > 0 && --sc.depth == 0) {
				sc.func = NULL;
				sc.func_idx = sc.obj_idx = -1;
				sc.kind = INIT_OTHER;
				decl_start = i + 1;
				eq = -1;
			}
			break;
		}
	}
	thread_aliases(&an);
	strset_free(&an.names);
	strset_free(&an.seen);
	strset_free(&an.seen_calls);
	strset_free(&an.seen_named);
	strset_free(&an.seen_loose);
}

static void definition_free(struct definition *d)
{
	vec_free(&d->refs);
	vec_free(&d->calls);
	vec_free(&d->named);
	vec_free(&d->params);
	vec_free(&d->vargs);
	vec_free(&d->sops);
}

void file_info_reset(struct file_info *fi)
{
	struct file_info keep = { 0 };

	keep.path = fi->path;
	keep.id = fi->id;
	keep.again = fi->again;
	vec_free(&fi->uses);
	vec_free(&fi->threads);
	vec_free(&fi->freezable);
	vec_free_each(&fi->funcs, definition_free);
	vec_free_each(&fi->objs, definition_free);
	vec_free(&fi->loose);
	vec_free(&fi->macros);
	vec_free(&fi->fstypes);
	vec_free(&fi->sops);
	*fi = keep;
}

void file_info_free(struct file_info *fi)
{
	file_info_reset(fi);
	free(fi->path);
	free(fi);
}
