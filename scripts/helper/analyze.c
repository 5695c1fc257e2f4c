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
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "api.h"
#include "lex.h"

const char *const context_names[CTX_MAX] = {
	[CTX_KTHREAD] = "kthread",
	[CTX_USER] = "user",
	[CTX_MACRO] = "macro",
	[CTX_UNKNOWN] = "unknown",
};

/* true when a byte of V is zero (exact for "any", not for "which") */
static inline uint64_t has_zero(uint64_t v)
{
	return (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
}

static inline bool is_word(char ch)
{
	unsigned char c = (unsigned char)ch;

	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/*
 * Is the word around BUF[J] (as the lexer cuts identifiers) a freezer
 * API name?  A word next to a backslash-newline may be spliced to more:
 * say yes, the lexer will tell.
 */
static bool api_word_at(const char *buf, size_t len, size_t j)
{
	size_t s = j, e = j + 1;

	while (s > 0 && is_word(buf[s - 1]))
		s--;
	while (e < len && is_word(buf[e]))
		e++;
	if (e < len && buf[e] == '\\')
		return true;
	if (s >= 2 && buf[s - 1] == '\n' &&
	    (buf[s - 2] == '\\' || (s >= 3 && buf[s - 2] == '\r' &&
				     buf[s - 3] == '\\')))
		return true;
	return api_lookup(buf + s, e - s, str_hash(buf + s, e - s)) >= 0;
}

/* Length of a backslash-newline ending at P (P is the newline), or 0. */
static size_t splice_before(const char *buf, size_t p)
{
	if (buf[p] != '\n')
		return 0;
	if (p >= 1 && buf[p - 1] == '\\')
		return 2;
	if (p >= 2 && buf[p - 1] == '\r' && buf[p - 2] == '\\')
		return 3;
	return 0;
}

/*
 * Around a 'z' at J with a backslash-newline nearby: do the bytes, with
 * the splices taken out, read "freez", "FREEZ" or "frozen"?
 */
static bool spliced_hit(const char *buf, size_t len, size_t j)
{
	char w[10];
	size_t p, n, k;

	if (!memchr(buf + (j >= 8 ? j - 8 : 0), '\\',
		    (j >= 8 ? 8 : j) + (j + 6 <= len ? 6 : len - j)))
		return false;
	/* up to four bytes before j, then z, then up to two after */
	memset(w, 0, sizeof(w));
	for (p = j, k = 4; k > 0 && p > 0; ) {
		p--;
		n = splice_before(buf, p);
		if (n) {
			p -= n - 1;	/* at the backslash */
			continue;
		}
		w[--k] = buf[p];
	}
	w[4] = buf[j];
	for (p = j + 1, k = 5; k < 7 && p < len; ) {
		if (buf[p] == '\\' && p + 1 < len && buf[p + 1] == '\n') {
			p += 2;
			continue;
		}
		if (buf[p] == '\\' && p + 2 < len && buf[p + 1] == '\r' &&
		    buf[p + 2] == '\n') {
			p += 3;
			continue;
		}
		w[k++] = buf[p++];
	}
	return !memcmp(w, "freez", 5) || !memcmp(w, "FREEZ", 5) ||
		!memcmp(w + 1, "frozen", 6);
}

/*
 * Whether BUF may use a freezer API: one pass, eight bytes at a time,
 * looking for 'z' or 'Z'; at "freez", "FREEZ" or "frozen", whether the
 * word there is an API name (so that register headers full of *_FREEZE
 * bits are not lexed).  Every API name has one of the three but
 * __refrigerator, only called by the freezer itself: a file with
 * "freez" in it is searched for that one too.  A backslash near a 'z' may
 * be a splice inside a name: such a file is lexed.  A file calling
 * __refrigerator() that never says "freez" is missed (there is none in
 * 6.1 or 6.12).
 */
bool may_use_freezer(const char *buf, size_t len)
{
	const uint64_t z = 0x7a7a7a7a7a7a7a7aull, lower = 0x2020202020202020ull;
	bool seen = false;
	size_t i = 0, j;

	for (;;) {
		uint64_t w;

		for (; i + 8 <= len; i += 8) {
			memcpy(&w, buf + i, 8);
			if (has_zero((w | lower) ^ z))
				break;
		}
		if (i >= len)
			break;
		for (j = i; j < i + 8 && j < len; j++) {
			bool hit;

			if ((buf[j] | 0x20) != 'z')
				continue;
			/* a backslash-newline may split a name: lex it */
			if (spliced_hit(buf, len, j))
				return true;
			hit = (j >= 4 && (!memcmp(buf + j - 4, "freez", 5) ||
					  !memcmp(buf + j - 4, "FREEZ", 5))) ||
				(j >= 3 && j + 3 <= len &&
				 !memcmp(buf + j - 3, "frozen", 6));
			if (!hit)
				continue;
			seen = true;
			if (api_word_at(buf, len, j))
				return true;
		}
		i += 8;
	}
	return seen && memmem(buf, len, "__refrigerator", 14);
}

bool may_start_thread(const char *buf, size_t len)
{
	return memmem(buf, len, "kthread_run", 11) ||
		memmem(buf, len, "kthread_create", 14) ||
		memmem(buf, len, "svc_create", 10) ||
		memmem(buf, len, "svo_function", 12);
}

/* What a file-scope initializer initializes. */
enum init_kind { INIT_OTHER, INIT_FSTYPE, INIT_SOP };

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

struct analysis {
	const char *buf;
	const struct token *t;
	size_t n;
	struct file_info *fi;
	struct arena *arena;
	struct strset names;	/* interned identifiers of this file */
	struct strset seen;	/* refs of the current definition */
	struct strset seen_calls, seen_named;	/* its calls and named */
	struct strset seen_loose;	/* loose identifiers of the file */
	bool full;
};

static bool is_punct(const struct token *t, unsigned int p)
{
	return t->kind == TK_PUNCT && t->val == p;
}

static bool in_dir(const struct token *t)
{
	return t->flags & TF_DIRECTIVE;
}

/* previous token before I that is not in a directive, or -1 */
static long prev_code(const struct analysis *an, long i)
{
	while (--i >= 0)
		if (!in_dir(&an->t[i]))
			return i;
	return -1;
}

static long next_code(const struct analysis *an, long i)
{
	while (++i < (long)an->n)
		if (!in_dir(&an->t[i]))
			return i;
	return -1;
}

static const char *intern(struct analysis *an, const struct token *t)
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

static enum init_kind initializer_kind(const struct analysis *an,
					long from, long to)
{
	long i;

	for (i = from; i >= 0 && i < to; i = next_code(an, i)) {
		const struct token *t = &an->t[i];
		long j;

		if (!tok_is(an->buf, t, "struct"))
			continue;
		j = next_code(an, i);
		if (j < 0)
			break;
		if (tok_is(an->buf, &an->t[j], "file_system_type"))
			return INIT_FSTYPE;
		if (tok_is(an->buf, &an->t[j], "super_operations"))
			return INIT_SOP;
	}
	return INIT_OTHER;
}

/* The argument token ranges of the call whose "(" is at OPEN. */
static int call_args(const struct analysis *an, long open, long *from, long *to,
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
static long lone_ident(const struct analysis *an, long from, long to)
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

static void add_unique(strvec *v, const char *s)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == s || !strcmp(v->v[i], s))
			return;
	vec_push(v, (char *)s);
}

static void thread_start(struct analysis *an, long i)
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

/* The identifier X of "= X" or "= &X" right after token I, or -1. */
static long assigned_ident(const struct analysis *an, long i)
{
	long eq = next_code(an, i), v;

	if (eq < 0 || !is_punct(&an->t[eq], P1('=')))
		return -1;
	v = next_code(an, eq);
	if (v >= 0 && is_punct(&an->t[v], P1('&')))
		v = next_code(an, v);
	return v >= 0 && an->t[v].kind == TK_IDENT ? v : -1;
}

/* ".svo_function = NAME" (struct svc_serv_ops, before 6.2) */
static void svo_function(struct analysis *an, long i)
{
	long v = assigned_ident(an, i);

	if (v >= 0)
		add_unique(&an->fi->threads, intern(an, &an->t[v]));
}

/* "threadfn = nfs41_callback_svc;" for a thread argument "threadfn" */
static void thread_aliases(struct analysis *an)
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

/* Text of tokens [from, to) with one space where there was any gap. */
static const char *expr_text(struct analysis *an, long from, long to)
{
	VEC(char) s = { 0 };
	long i, last = -1;

	for (i = from; i >= 0 && i < to; i = next_code(an, i)) {
		const struct token *t = &an->t[i];
		char tmp[256];
		size_t n, k;

		if (last >= 0 && t->start > an->t[last].end)
			vec_push(&s, ' ');
		n = tok_text(an->buf, t, tmp, sizeof(tmp));
		for (k = 0; k < n; k++)
			vec_push(&s, tmp[k]);
		last = i;
	}
	vec_push(&s, '\0');
	{
		const char *r = arena_strndup(an->arena, s.v, s.n - 1);

		vec_free(&s);
		return r;
	}
}

/*
 * A designator ".FIELD = VALUE" directly inside the initializer of an
 * fstype or super_operations object; I is the "." token.
 */
static void designator(struct analysis *an, long i, enum init_kind kind,
		       long obj_idx)
{
	long f = next_code(an, i), eq, v, e;
	int d = 0;

	if (f < 0 || an->t[f].kind != TK_IDENT)
		return;
	eq = next_code(an, f);
	if (eq < 0 || !is_punct(&an->t[eq], P1('=')))
		return;
	v = next_code(an, eq);
	if (v < 0)
		return;
	/* the value ends at "," or "}" outside brackets */
	for (e = v; e >= 0; e = next_code(an, e)) {
		const struct token *t = &an->t[e];

		if (is_punct(t, P1('(')) || is_punct(t, P1('[')) ||
		    is_punct(t, P1('{')))
			d++;
		else if (is_punct(t, P1(')')) || is_punct(t, P1(']')) ||
			 is_punct(t, P1('}'))) {
			if (d-- == 0)
				break;
		} else if (d == 0 && (is_punct(t, P1(',')) ||
				      is_punct(t, P1(';')))) {
			break;
		}
	}
	if (e < 0)
		e = (long)an->n;

	if (kind == INIT_FSTYPE) {
		struct fstype *ft = &an->fi->fstypes.v[obj_idx];

		if (tok_is(an->buf, &an->t[f], "fs_flags")) {
			long k;

			ft->flags = expr_text(an, v, e);
			for (k = v; k >= 0 && k < e; k = next_code(an, k))
				if (tok_is(an->buf, &an->t[k], "FS_REQUIRES_DEV"))
					ft->requires_dev = true;
		} else if (tok_is(an->buf, &an->t[f], "name") &&
			   an->t[v].kind == TK_STRING) {
			const struct token *t = &an->t[v];
			char tmp[256];
			size_t n = tok_text(an->buf, t, tmp, sizeof(tmp));

			if (n >= 2 && tmp[n - 1] == '"')
				ft->fsname = arena_strndup(an->arena, tmp + 1,
							   n - 2);
		}
	} else if (kind == INIT_SOP) {
		struct sop *so = &an->fi->sops.v[obj_idx];
		bool set = !tok_is(an->buf, &an->t[v], "NULL");

		if (tok_is(an->buf, &an->t[f], "freeze_fs"))
			so->freeze_fs = set;
		else if (tok_is(an->buf, &an->t[f], "freeze_super"))
			so->freeze_super = set;
	}
}

/* "->s_op = &NAME" in a function body */
static void s_op_assign(struct analysis *an, long i, struct definition *fn)
{
	long p = prev_code(an, i), v;

	if (p < 0 || (!is_punct(&an->t[p], P2('-', '>')) &&
		      !is_punct(&an->t[p], P1('.'))))
		return;
	v = assigned_ident(an, i);
	if (v >= 0)
		add_unique(&fn->sops, intern(an, &an->t[v]));
}

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
static void param_names(struct analysis *an, struct definition *d, long nm)
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

static void add_ref(struct analysis *an, struct definition *d,
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

/*
 * "#define NAME(params) body" at HASH (units mode): NAME and the text
 * of everything after it, token by token.
 */
static void macro_definition(struct analysis *an, long hash)
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
	size_t i;

	keep.path = fi->path;
	keep.id = fi->id;
	keep.again = fi->again;
	vec_free(&fi->uses);
	vec_free(&fi->threads);
	vec_free(&fi->freezable);
	for (i = 0; i < fi->funcs.n; i++)
		definition_free(&fi->funcs.v[i]);
	for (i = 0; i < fi->objs.n; i++)
		definition_free(&fi->objs.v[i]);
	vec_free(&fi->funcs);
	vec_free(&fi->objs);
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

/* ---- kernel threads that never become freezable ---- */

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
