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

/* Functions whose argument ARG (-1: the last) is a thread function. */
static const struct {
	const char *name;
	int arg;
} thread_starters[] = {
	{ "kthread_run", 0 },
	{ "kthread_create", 0 },
	{ "kthread_create_on_node", 0 },
	{ "kthread_run_on_cpu", 0 },
	{ "kthread_create_on_cpu", 0 },
	{ "svc_create", -1 },		/* sunrpc: threadfn is the last */
	{ "svc_create_pooled", -1 },
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

struct pp_state {
	int depth, pdepth;
	const char *func;
	long fidx, oidx;
	int okind;
};

struct pp_frame {
	struct pp_state at_if, after_first;
	bool seen_else;
};

enum { OBJ_OTHER, OBJ_FSTYPE, OBJ_SOP };

struct ctx {
	const char *buf;
	const struct token *t;
	size_t n;
	struct file_info *fi;
	struct arena *arena;
	struct strset names;	/* interned identifiers of this file */
	struct strset seen;	/* refs of the current definition */
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
static long prev_code(const struct ctx *c, long i)
{
	while (--i >= 0)
		if (!in_dir(&c->t[i]))
			return i;
	return -1;
}

static long next_code(const struct ctx *c, long i)
{
	while (++i < (long)c->n)
		if (!in_dir(&c->t[i]))
			return i;
	return -1;
}

static const char *intern(struct ctx *c, const struct token *t)
{
	char tmp[256];
	size_t n = tok_text(c->buf, t, tmp, sizeof(tmp));
	const char *s = strset_get(&c->names, tmp);

	if (!s) {
		s = arena_strndup(c->arena, tmp, n);
		strset_add(&c->names, s);
	}
	return s;
}

/* Index of the "(" matching the ")" at I, skipping directives; or -1. */
static long match_open(const struct ctx *c, long i)
{
	int d = 0;

	for (; i >= 0; i = prev_code(c, i)) {
		if (is_punct(&c->t[i], P1(')')))
			d++;
		else if (is_punct(&c->t[i], P1('(')) && --d == 0)
			return i;
	}
	return -1;
}

/* The function name of a body opening at I (a "{" at file scope). */
static long func_name(const struct ctx *c, long i)
{
	long p = prev_code(c, i);

	while (p >= 0 && is_punct(&c->t[p], P1(')'))) {
		long o = match_open(c, p), q, r;

		if (o < 0)
			return -1;
		q = prev_code(c, o);
		if (q < 0 || c->t[q].kind != TK_IDENT)
			return -1;
		r = prev_code(c, q);
		if (r >= 0 && is_punct(&c->t[r], P1(')'))) {
			p = r;		/* q was an attribute macro */
			continue;
		}
		return q;
	}
	return -1;
}

/* The variable an initializer "= {" at EQ belongs to. */
static long obj_name(const struct ctx *c, long eq)
{
	long p = prev_code(c, eq);

	if (p >= 0 && is_punct(&c->t[p], P1(']'))) {
		while (p >= 0 && !is_punct(&c->t[p], P1('[')))
			p = prev_code(c, p);
		p = prev_code(c, p);
	}
	while (p >= 0 && c->t[p].kind == TK_IDENT) {
		long q = prev_code(c, p);
		char tmp[3];

		tok_text(c->buf, &c->t[p], tmp, sizeof(tmp));
		/* name __read_mostly = { */
		if (tmp[0] == '_' && tmp[1] == '_' && q >= 0 &&
		    c->t[q].kind == TK_IDENT && !tok_is(c->buf, &c->t[q],
							 "struct")) {
			p = q;
			continue;
		}
		return p;
	}
	return -1;
}

static int obj_kind(const struct ctx *c, long from, long to)
{
	long i;

	for (i = from; i >= 0 && i < to; i = next_code(c, i)) {
		const struct token *t = &c->t[i];
		long j;

		if (!tok_is(c->buf, t, "struct"))
			continue;
		j = next_code(c, i);
		if (j < 0)
			break;
		if (tok_is(c->buf, &c->t[j], "file_system_type"))
			return OBJ_FSTYPE;
		if (tok_is(c->buf, &c->t[j], "super_operations"))
			return OBJ_SOP;
	}
	return OBJ_OTHER;
}

/* The argument token ranges of the call whose "(" is at OPEN. */
static int call_args(const struct ctx *c, long open, long *from, long *to,
		     int max)
{
	int d = 0, n = 0;
	long i, start = -1;

	for (i = open; i >= 0; i = next_code(c, i)) {
		const struct token *t = &c->t[i];

		if (is_punct(t, P1('(')) || is_punct(t, P1('[')) ||
		    is_punct(t, P1('{'))) {
			if (d++ == 0)
				start = next_code(c, i);
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
			start = next_code(c, i);
		}
		if (is_punct(t, P1(';')))
			break;
	}
	return n;
}

/* The single identifier in [from, to) among "&", "(" and ")", or -1. */
static long lone_ident(const struct ctx *c, long from, long to)
{
	long i, id = -1;

	for (i = from; i >= 0 && i < to; i = next_code(c, i)) {
		const struct token *t = &c->t[i];

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

static void thread_start(struct ctx *c, long i)
{
	long from[16], to[16], open = next_code(c, i), id;
	size_t k;
	int n, arg = -2;

	if (open < 0 || !is_punct(&c->t[open], P1('(')))
		return;
	for (k = 0; k < ARRAY_SIZE(thread_starters); k++)
		if (tok_is(c->buf, &c->t[i], thread_starters[k].name))
			arg = thread_starters[k].arg;
	if (arg == -2)
		return;
	n = call_args(c, open, from, to, 16);
	if (arg < 0)
		arg = n - 1;
	if (arg < 0 || arg >= n)
		return;
	id = lone_ident(c, from[arg], to[arg]);
	if (id >= 0)
		add_unique(&c->fi->threads, intern(c, &c->t[id]));
}

/* ".svo_function = NAME" (struct svc_serv_ops, before 6.2) */
static void svo_function(struct ctx *c, long i)
{
	long eq = next_code(c, i), v;

	if (eq < 0 || !is_punct(&c->t[eq], P1('=')))
		return;
	v = next_code(c, eq);
	if (v >= 0 && is_punct(&c->t[v], P1('&')))
		v = next_code(c, v);
	if (v >= 0 && c->t[v].kind == TK_IDENT)
		add_unique(&c->fi->threads, intern(c, &c->t[v]));
}

/* "threadfn = nfs41_callback_svc;" for a thread argument "threadfn" */
static void thread_aliases(struct ctx *c)
{
	size_t nthreads = c->fi->threads.n, k;
	long i;

	if (!nthreads)
		return;
	for (i = 0; i + 3 < (long)c->n; i++) {
		const struct token *t = &c->t[i];
		long eq, v, semi;
		const char *name = NULL;

		if (t->kind != TK_IDENT || in_dir(t))
			continue;
		eq = next_code(c, i);
		if (eq < 0 || !is_punct(&c->t[eq], P1('=')))
			continue;
		for (k = 0; k < nthreads; k++)
			if (tok_is(c->buf, t, c->fi->threads.v[k]))
				name = c->fi->threads.v[k];
		if (!name)
			continue;
		v = next_code(c, eq);
		if (v >= 0 && is_punct(&c->t[v], P1('&')))
			v = next_code(c, v);
		if (v < 0 || c->t[v].kind != TK_IDENT)
			continue;
		semi = next_code(c, v);
		if (semi >= 0 && is_punct(&c->t[semi], P1(';')))
			add_unique(&c->fi->threads, intern(c, &c->t[v]));
	}
}

/* Text of tokens [from, to) with one space where there was any gap. */
static const char *expr_text(struct ctx *c, long from, long to)
{
	VEC(char) s = { 0 };
	long i, last = -1;

	for (i = from; i >= 0 && i < to; i = next_code(c, i)) {
		const struct token *t = &c->t[i];
		char tmp[256];
		size_t n, k;

		if (last >= 0 && t->start > c->t[last].end)
			vec_push(&s, ' ');
		n = tok_text(c->buf, t, tmp, sizeof(tmp));
		for (k = 0; k < n; k++)
			vec_push(&s, tmp[k]);
		last = i;
	}
	vec_push(&s, '\0');
	{
		const char *r = arena_strndup(c->arena, s.v, s.n - 1);

		vec_free(&s);
		return r;
	}
}

/*
 * A designator ".FIELD = VALUE" directly inside the initializer of an
 * fstype or super_operations object; I is the "." token.
 */
static void designator(struct ctx *c, long i, int okind, long oidx)
{
	long f = next_code(c, i), eq, v, e;
	int d = 0;

	if (f < 0 || c->t[f].kind != TK_IDENT)
		return;
	eq = next_code(c, f);
	if (eq < 0 || !is_punct(&c->t[eq], P1('=')))
		return;
	v = next_code(c, eq);
	if (v < 0)
		return;
	/* the value ends at "," or "}" outside brackets */
	for (e = v; e >= 0; e = next_code(c, e)) {
		const struct token *t = &c->t[e];

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
		e = (long)c->n;

	if (okind == OBJ_FSTYPE) {
		struct fstype *ft = &c->fi->fstypes.v[oidx];

		if (tok_is(c->buf, &c->t[f], "fs_flags")) {
			long k;

			ft->flags = expr_text(c, v, e);
			for (k = v; k >= 0 && k < e; k = next_code(c, k))
				if (tok_is(c->buf, &c->t[k], "FS_REQUIRES_DEV"))
					ft->requires_dev = true;
		} else if (tok_is(c->buf, &c->t[f], "name") &&
			   c->t[v].kind == TK_STRING) {
			const struct token *t = &c->t[v];
			char tmp[256];
			size_t n = tok_text(c->buf, t, tmp, sizeof(tmp));

			if (n >= 2 && tmp[n - 1] == '"')
				ft->fsname = arena_strndup(c->arena, tmp + 1,
							   n - 2);
		}
	} else if (okind == OBJ_SOP) {
		struct sop *so = &c->fi->sops.v[oidx];
		bool set = !tok_is(c->buf, &c->t[v], "NULL");

		if (tok_is(c->buf, &c->t[f], "freeze_fs"))
			so->freeze_fs = set;
		else if (tok_is(c->buf, &c->t[f], "freeze_super"))
			so->freeze_super = set;
	}
}

/* "->s_op = &NAME" in a function body */
static void s_op_assign(struct ctx *c, long i, struct def *fn)
{
	long p = prev_code(c, i), eq, v;

	if (p < 0 || (!is_punct(&c->t[p], P2('-', '>')) &&
		      !is_punct(&c->t[p], P1('.'))))
		return;
	eq = next_code(c, i);
	if (eq < 0 || !is_punct(&c->t[eq], P1('=')))
		return;
	v = next_code(c, eq);
	if (v >= 0 && is_punct(&c->t[v], P1('&')))
		v = next_code(c, v);
	if (v >= 0 && c->t[v].kind == TK_IDENT)
		add_unique(&fn->sops, intern(c, &c->t[v]));
}

static void add_ref(struct ctx *c, struct def *d, const struct token *t,
		    long i)
{
	long p = prev_code(c, i);
	const char *s;

	if (p >= 0 && (is_punct(&c->t[p], P2('-', '>')) ||
		       is_punct(&c->t[p], P1('.'))))
		return;
	s = intern(c, t);
	if (strset_add(&c->seen, s))
		vec_push(&d->refs, (char *)s);
}

static void check_use(struct ctx *c, long i, const struct pp_state *st)
{
	const struct token *t = &c->t[i];
	struct use u;
	int api;

	if (t->flags & TF_SPLICED) {
		char tmp[64];

		if (t->len >= sizeof(tmp))
			return;
		tok_text(c->buf, t, tmp, sizeof(tmp));
		api = api_lookup(tmp, t->len, t->val);
	} else {
		api = api_lookup(c->buf + t->start, t->len, t->val);
	}
	if (api < 0)
		return;
	if (i > 0) {
		const struct token *p = &c->t[i - 1];

		if (is_punct(p, P2('-', '>')) || is_punct(p, P1('.')))
			return;		/* a struct member */
	}
	if (freezer_apis[api].kind == API_CALL &&
	    (i + 1 >= (long)c->n || !is_punct(&c->t[i + 1], P1('('))))
		return;			/* a variable of the same name */

	memset(&u, 0, sizeof(u));
	u.line = t->line;
	u.col = t->col;
	u.api = api;
	if (in_dir(t)) {
		u.where = WHERE_MACRO;
	} else if (st->func) {
		u.where = WHERE_FUNC;
		u.func = st->func;
		if (!strcmp(freezer_apis[api].name, "set_freezable"))
			add_unique(&c->fi->freezable, st->func);
	} else {
		u.where = WHERE_FILE;
	}
	vec_push(&c->fi->uses, u);
}

static void pp_directive(struct ctx *c, long i, struct pp_frame *stack,
			 int *sp, struct pp_state *st)
{
	long k = i + 1;
	const struct token *d;

	if (k >= (long)c->n || !(c->t[k].flags & TF_DIRECTIVE) ||
	    c->t[k].kind != TK_IDENT)
		return;
	d = &c->t[k];
	if (tok_is(c->buf, d, "if") || tok_is(c->buf, d, "ifdef") ||
	    tok_is(c->buf, d, "ifndef")) {
		if (*sp < 64) {
			stack[*sp].at_if = *st;
			stack[*sp].seen_else = false;
		}
		(*sp)++;
	} else if (tok_is(c->buf, d, "else") || tok_is(c->buf, d, "elif") ||
		   tok_is(c->buf, d, "elifdef") ||
		   tok_is(c->buf, d, "elifndef")) {
		if (*sp > 0 && *sp <= 64) {
			struct pp_frame *f = &stack[*sp - 1];

			if (!f->seen_else) {
				f->after_first = *st;
				f->seen_else = true;
			}
			*st = f->at_if;
		}
	} else if (tok_is(c->buf, d, "endif")) {
		if (*sp > 0 && *sp <= 64) {
			struct pp_frame *f = &stack[*sp - 1];

			if (f->seen_else)
				*st = f->after_first;
		}
		if (*sp > 0)
			(*sp)--;
	}
}

void analyze(struct file_info *fi, const char *buf, size_t len, bool full,
	     struct arena *arena, struct token **toks, size_t *tokcap)
{
	struct pp_frame stack[64];
	struct pp_state st;
	struct ctx c;
	long decl_start = 0, eq = -1, i;
	int sp = 0;

	memset(&c, 0, sizeof(c));
	c.buf = buf;
	c.n = lex_all(buf, len, toks, tokcap);
	c.t = *toks;
	c.fi = fi;
	c.arena = arena;
	c.full = full;
	fi->lexed = true;

	memset(&st, 0, sizeof(st));
	st.fidx = st.oidx = -1;

	for (i = 0; i < (long)c.n; i++) {
		const struct token *t = &c.t[i];

		if (t->flags & TF_HASH) {
			pp_directive(&c, i, stack, &sp, &st);
			continue;
		}
		if (t->kind == TK_IDENT) {
			check_use(&c, i, &st);
			if (in_dir(t))
				continue;
			if (t->len >= 10 &&
			    (!memcmp(buf + t->start, "kthread_", 8) ||
			     !memcmp(buf + t->start, "svc_create", 10)))
				thread_start(&c, i);
			if (tok_is(buf, t, "svo_function"))
				svo_function(&c, i);
			if (!full)
				continue;
			if (st.fidx >= 0) {
				struct def *fn = &fi->funcs.v[st.fidx];

				add_ref(&c, fn, t, i);
				if (tok_is(buf, t, "s_op"))
					s_op_assign(&c, i, fn);
			} else if (st.oidx >= 0 && st.okind != OBJ_SOP) {
				/* an initializer: its refs lead to s_op */
				add_ref(&c, &fi->objs.v[st.oidx], t, i);
			}
			continue;
		}
		if (in_dir(t) || t->kind != TK_PUNCT)
			continue;

		switch (t->val) {
		case P1('('):
			st.pdepth++;
			break;
		case P1(')'):
			if (st.pdepth > 0)
				st.pdepth--;
			break;
		case P1('='):
			if (st.depth == 0 && st.pdepth == 0 && eq < 0)
				eq = i;
			break;
		case P1(';'):
			if (st.depth == 0) {
				decl_start = i + 1;
				eq = -1;
			}
			break;
		case P1('.'):
			if (full && st.depth == 1 && st.oidx >= 0 &&
			    st.okind != OBJ_OTHER)
				designator(&c, i, st.okind,
					   st.okind == OBJ_FSTYPE ?
					   fi->fstypes.n - 1 : fi->sops.n - 1);
			break;
		case P1('{'):
			if (st.depth++ > 0)
				break;
			st.func = NULL;
			st.fidx = st.oidx = -1;
			st.okind = OBJ_OTHER;
			if (eq < 0) {
				long nm = func_name(&c, i);

				if (nm < 0)
					break;
				st.func = intern(&c, &c.t[nm]);
				if (full) {
					struct def d = { 0 };

					d.name = st.func;
					d.line = c.t[nm].line;
					vec_push(&fi->funcs, d);
					st.fidx = (long)fi->funcs.n - 1;
					strset_free(&c.seen);
				}
			} else if (full) {
				long nm = obj_name(&c, eq);
				struct def d = { 0 };

				if (nm < 0)
					break;
				d.name = intern(&c, &c.t[nm]);
				d.line = c.t[nm].line;
				st.okind = obj_kind(&c, decl_start, eq);
				if (st.okind == OBJ_FSTYPE) {
					struct fstype ft = { 0 };

					ft.name = d.name;
					ft.line = d.line;
					vec_push(&fi->fstypes, ft);
				} else if (st.okind == OBJ_SOP) {
					struct sop so = { 0 };

					so.name = d.name;
					so.line = d.line;
					vec_push(&fi->sops, so);
				}
				vec_push(&fi->objs, d);
				st.oidx = (long)fi->objs.n - 1;
				strset_free(&c.seen);
			}
			break;
		case P1('}'):
			if (st.depth > 0 && --st.depth == 0) {
				st.func = NULL;
				st.fidx = st.oidx = -1;
				st.okind = OBJ_OTHER;
				decl_start = i + 1;
				eq = -1;
			}
			break;
		}
	}
	thread_aliases(&c);
	strset_free(&c.names);
	strset_free(&c.seen);
}
