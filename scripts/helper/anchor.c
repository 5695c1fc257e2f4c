// SPDX-License-Identifier: GPL-2.0
/*
 * anchor.c - the code a reviewed judgment rests on, checked in the tree
 * at hand, and the evidence's citations read from it (see anchor.h).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "cdef.h"
#include "lex.h"

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

static const char *trim_end(const char *s, const char *end)
{
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

static bool is_ident(const char *s, const char *end, bool prefix)
{
	const char *p;

	if (s == end || isdigit((unsigned char)*s))
		return false;
	for (p = s; p < end; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' &&
		    !(prefix && *p == '*' && p + 1 == end && p > s))
			return false;
	return true;
}

char *anchor_parse(const char *s, size_t n, struct anchor *a)
{
	const char *end = trim_end(s, s + n), *p, *colon, *name, *rest;

	memset(a, 0, sizeof(*a));
	s = skip_blanks(s, end);
	p = memmem(s, (size_t)(end - s), "()", 2);
	if (!p)
		goto bad;
	colon = memrchr(s, ':', (size_t)(p - s));
	name = colon ? colon + 1 : s;
	if ((colon && colon == s) || !is_ident(name, p, false))
		goto bad;
	rest = skip_blanks(p + 2, end);
	if (rest == end) {
		a->op = ANCHOR_DEFINED;
	} else if (end - rest > 2 && !memcmp(rest, "->", 2)) {
		a->op = ANCHOR_CALLS;
		rest = skip_blanks(rest + 2, end);
	} else if (end - rest > 2 && !memcmp(rest, "=>", 2)) {
		a->op = ANCHOR_REACHES;
		rest = skip_blanks(rest + 2, end);
	} else if (end - rest > 3 && !memcmp(rest, "!->", 3)) {
		a->op = ANCHOR_NOT_CALLS;
		rest = skip_blanks(rest + 3, end);
	} else {
		goto bad;
	}
	if (a->op == ANCHOR_DEFINED) {
		/* nothing more to read */
	} else if (*rest == '"') {
		if (end - rest < 3 || end[-1] != '"' ||
		    a->op == ANCHOR_REACHES)
			goto bad;
		a->op = a->op == ANCHOR_CALLS ? ANCHOR_HAS : ANCHOR_NOT_HAS;
		a->what = xstrndup(rest + 1, (size_t)(end - rest - 2));
	} else if (end - rest >= 3 && !memcmp(end - 2, "()", 2) &&
		   is_ident(rest, end - 2, true)) {
		a->what = xstrndup(rest, (size_t)(end - 2 - rest));
	} else {
		goto bad;
	}
	if (colon)
		a->file = xstrndup(s, (size_t)(colon - s));
	a->fn = xstrndup(name, (size_t)(p - name));
	a->text = xstrndup(s, (size_t)(end - s));
	return NULL;
bad:
	return xasprintf("\"%.*s\" is not F(), F() -> G(), F() => G(), "
			 "F() !-> G() or F() -> \"C TEXT\"", (int)(end - s), s);
}

char *anchors_parse(const char *anchors, anchorvec *out)
{
	const char *p = anchors, *start = anchors;
	bool quoted = false;

	if (!strcmp(anchors, "*") || !strcmp(anchors, "-") || !*anchors)
		return xasprintf("\"%s\" is not an anchor: name the code the "
				 "judgment rests on, F() -> G()", anchors);
	for (;; p++) {
		if (*p == '"')
			quoted = !quoted;
		if ((*p == ';' && !quoted) || !*p) {
			struct anchor a;
			char *why = anchor_parse(start, (size_t)(p - start), &a);

			if (why)
				return why;
			vec_push(out, a);
			start = p + 1;
		}
		if (!*p)
			return NULL;
	}
}

void anchor_free(struct anchor *a)
{
	free(a->file);
	free(a->fn);
	free(a->what);
	free(a->text);
	memset(a, 0, sizeof(*a));
}

/* The path of C relative to the tree. */
static const char *rel_of(const struct anchor_scope *sc, const struct ctext *c)
{
	size_t k = strlen(sc->ktree);

	if (!strncmp(c->path, sc->ktree, k) && c->path[k] == '/')
		return c->path + k + 1;
	return c->path;
}

/* REL (relative to the tree) as a citation gives it: from the unit. */
static const char *cited(const struct anchor_scope *sc, const char *rel)
{
	size_t k = strlen(sc->unit);

	if (!strncmp(rel, sc->unit, k) && rel[k] == '/')
		return rel + k + 1;
	return rel;
}

/* C's path as a citation gives it. */
static const char *where_of(const struct anchor_scope *sc,
			    const struct ctext *c)
{
	return cited(sc, rel_of(sc, c));
}

/* T[I] is a call of a function, not through a pointer: its name. */
static bool is_call(const struct ctext *c, size_t i, char *name, size_t size)
{
	if (c->t[i].kind != TK_IDENT || i + 1 >= c->n ||
	    !tok_punct(&c->t[i + 1], P1('(')) ||
	    (i > 0 && (tok_punct(&c->t[i - 1], P1('.')) ||
		       tok_punct(&c->t[i - 1], P2('-', '>')))))
		return false;
	tok_text(c->buf, &c->t[i], name, size);
	return true;
}

/* NAME is WHAT, or starts with it when WHAT ends in '*'. */
static bool name_is(const char *name, const char *what)
{
	size_t n = strlen(what);

	if (n && what[n - 1] == '*')
		return !strncmp(name, what, n - 1);
	return !strcmp(name, what);
}

/* A token of a text of the scope. */
struct place {
	const struct ctext *c;
	size_t tok;
};

/*
 * Look in each definition of FN (in A's file, else the unit's) for what
 * A looks for (PAT: A's C text, lexed): the first hit *HIT, the first
 * definition *DEF, how many there are *NDEFS; with CALLEES, add the
 * names of the functions the bodies call.  NULL, or why a file could
 * not be read.
 */
static char *look_in(struct anchor_scope *sc, const struct anchor *a,
		     const char *fn, const struct token *pat, size_t npat,
		     struct place *hit, struct place *def, size_t *ndefs,
		     strvec *callees)
{
	bool calls = a->op != ANCHOR_HAS && a->op != ANCHOR_NOT_HAS;
	strvec paths = { 0 };
	char name[128], *why = NULL;
	size_t f, i;

	if (a->file)
		vec_push(&paths, path_join(sc->ktree, a->file));
	else
		sc->defined_in(sc->arg, fn, &paths);
	for (f = 0; f < paths.n && !why; f++) {
		const struct ctext *c = ctext_get(sc->texts, paths.v[f]);
		size_t at, b, e = 0;

		if (c->error) {
			why = xasprintf("%s: %s", where_of(sc, c),
					strerror(c->error));
			break;
		}
		while (cdef_find(c->buf, c->t, c->n, fn, e, &at, &b, &e)) {
			if (!(*ndefs)++)
				*def = (struct place){ c, at };
			for (i = b; a->what && i < e && !hit->c; i++) {
				bool call = is_call(c, i, name, sizeof(name));

				if (calls ? call && name_is(name, a->what) :
				    i + npat <= e && cdef_same(c->buf, &c->t[i],
							       a->what, pat,
							       npat))
					*hit = (struct place){ c, i };
				else if (call && callees)
					vec_push(callees, xstrdup(name));
			}
		}
	}
	strvec_free(&paths);
	return why;
}

/* Why negative anchor A fails: F (name token DEF) has it at HIT. */
static char *absent_but(const struct anchor_scope *sc, const struct anchor *a,
			struct place def, struct place hit)
{
	char name[128];

	if (a->op == ANCHOR_NOT_HAS)
		return xasprintf("%s() (%s:%u) has \"%s\" (%s:%u)", a->fn,
				 where_of(sc, def.c), def.c->t[def.tok].line,
				 a->what, where_of(sc, hit.c),
				 hit.c->t[hit.tok].line);
	tok_text(hit.c->buf, &hit.c->t[hit.tok], name, sizeof(name));
	return xasprintf("%s() (%s:%u) calls %s() (%s:%u)", a->fn,
			 where_of(sc, def.c), def.c->t[def.tok].line, name,
			 where_of(sc, hit.c), hit.c->t[hit.tok].line);
}

/*
 * A reaches: breadth first from A's function through the functions the
 * bodies call (those the scope defines), at most 256 of them.
 */
static char *reach(struct anchor_scope *sc, const struct anchor *a,
		   struct place *hit, struct place *def, size_t *ndefs)
{
	strvec queue = { 0 }, callees = { 0 };
	struct strset seen = { 0 };
	char *why = NULL;
	size_t k, i;

	vec_push(&queue, xstrdup(a->fn));
	strset_add(&seen, queue.v[0]);
	for (k = 0; k < queue.n && k < 256 && !hit->c && !why; k++) {
		struct place d = { 0 };
		size_t n = 0;

		why = look_in(sc, a, queue.v[k], NULL, 0, hit, &d, &n,
			      &callees);
		if (!k) {
			*def = d;
			*ndefs = n;
			if (!n)
				break;
		}
		for (i = 0; i < callees.n; i++) {
			if (strset_has(&seen, callees.v[i])) {
				free(callees.v[i]);
				continue;
			}
			vec_push(&queue, callees.v[i]);
			strset_add(&seen, callees.v[i]);
		}
		callees.n = 0;
	}
	strset_free(&seen);
	vec_free(&callees);
	strvec_free(&queue);
	return why;
}

char *anchor_check(struct anchor_scope *sc, const struct anchor *a,
		   const char **path, unsigned int *line)
{
	bool positive = a->op != ANCHOR_NOT_CALLS && a->op != ANCHOR_NOT_HAS;
	struct place hit = { 0 }, def = { 0 };
	struct token *pat = NULL;
	size_t npat = 0, cap = 0, ndefs = 0;
	char *why;

	if (a->op == ANCHOR_HAS || a->op == ANCHOR_NOT_HAS)
		npat = lex_all(a->what, strlen(a->what), &pat, &cap);
	if (a->op == ANCHOR_REACHES)
		why = reach(sc, a, &hit, &def, &ndefs);
	else
		why = look_in(sc, a, a->fn, pat, npat, &hit, &def, &ndefs,
			      NULL);
	free(pat);
	if (why)
		return why;
	if (!ndefs)
		return a->file ? xasprintf("%s defines no %s()", a->file, a->fn) :
			xasprintf("%s() is not defined in %s", a->fn, sc->unit);
	if (a->op == ANCHOR_DEFINED)
		hit = def;
	if (positive && hit.c) {
		*path = rel_of(sc, hit.c);
		*line = hit.c->t[hit.tok].line;
		return NULL;
	}
	if (!positive && !hit.c)
		return NULL;
	if (!positive)
		return absent_but(sc, a, def, hit);
	return xasprintf("%s() (%s:%u) %s %s%s%s", a->fn,
			 where_of(sc, def.c), def.c->t[def.tok].line,
			 a->op == ANCHOR_CALLS ? "calls no" :
			 a->op == ANCHOR_REACHES ? "reaches no" : "has no",
			 a->op == ANCHOR_HAS ? "\"" : "", a->what,
			 a->op == ANCHOR_HAS ? "\"" : "()");
}

/* ---- citations ---- */

struct citation {
	const char *start, *end;	/* "{...}" in the evidence */
	bool line_only;
	struct anchor from, to;		/* to.fn NULL: one place */
};

static void citation_free(struct citation *c)
{
	anchor_free(&c->from);
	anchor_free(&c->to);
}

/*
 * The citation that starts at the '{' at S: parsed into C, with its end;
 * NULL, or why it is none.
 */
static char *citation_parse(const char *s, struct citation *c)
{
	const char *close = strchr(s, '}'), *in = s + 1, *dots;
	char *why;

	memset(c, 0, sizeof(*c));
	if (!close)
		return xstrdup("a \"{\" with no \"}\"");
	c->start = s;
	c->end = close + 1;
	if (*in == ':') {
		c->line_only = true;
		in++;
	}
	dots = memmem(in, (size_t)(close - in), " .. ", 4);
	why = anchor_parse(in, (size_t)((dots ? dots : close) - in), &c->from);
	if (!why && dots)
		why = anchor_parse(dots + 4, (size_t)(close - dots - 4), &c->to);
	if (!why && (c->from.op == ANCHOR_NOT_CALLS ||
		     c->from.op == ANCHOR_NOT_HAS ||
		     c->to.op == ANCHOR_NOT_CALLS || c->to.op == ANCHOR_NOT_HAS))
		why = xasprintf("\"%.*s\": a citation names a place, not an "
				"absence", (int)(close + 1 - s), s);
	if (why)
		citation_free(c);
	return why;
}

char *evidence_parse(const char *evidence)
{
	const char *p = evidence;

	while ((p = strpbrk(p, "{}"))) {
		struct citation c;
		char *why;

		if (*p == '}')
			return xstrdup("a \"}\" with no \"{\"");
		why = citation_parse(p, &c);
		if (why)
			return why;
		p = c.end;
		citation_free(&c);
	}
	return NULL;
}

char *evidence_render(struct anchor_scope *sc, const char *evidence,
		      char **why)
{
	charvec out = { 0 };
	const char *p = evidence, *q;

	*why = NULL;
	while ((q = strchr(p, '{'))) {
		struct citation c;
		const char *path = NULL, *path2 = NULL;
		unsigned int line = 0, line2 = 0;
		char *s;

		*why = citation_parse(q, &c);
		if (!*why)
			*why = anchor_check(sc, &c.from, &path, &line);
		if (!*why && c.to.fn) {
			*why = anchor_check(sc, &c.to, &path2, &line2);
			if (!*why && strcmp(path, path2))
				*why = xasprintf("{%.*s}: a range in two files",
						 (int)(c.end - c.start - 2),
						 c.start + 1);
		}
		if (*why) {
			citation_free(&c);
			vec_free(&out);
			return NULL;
		}
		while (p < q)
			vec_push(&out, *p++);
		if (c.line_only)
			s = xasprintf(":%u", line);
		else
			s = xasprintf("%s:%u", cited(sc, path), line);
		for (q = s; *q; q++)
			vec_push(&out, *q);
		free(s);
		if (c.to.fn && line2 != line) {
			s = xasprintf("-%u", line2);
			for (q = s; *q; q++)
				vec_push(&out, *q);
			free(s);
		}
		p = c.end;
		citation_free(&c);
	}
	while (*p)
		vec_push(&out, *p++);
	vec_push(&out, '\0');
	return out.v;
}
