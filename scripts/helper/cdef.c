// SPDX-License-Identifier: GPL-2.0
/*
 * cdef.c - function definitions and token runs in lexed C text (see
 * cdef.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cdef.h"
#include "util.h"

bool tok_punct(const struct token *t, unsigned int val)
{
	return t->kind == TK_PUNCT && t->val == val;
}

size_t cdef_closing(const struct token *t, size_t i, size_t n)
{
	unsigned int open = t[i].val, close = open == P1('(') ? P1(')') :
		P1('}');
	int depth = 0;

	for (; i < n; i++) {
		if (tok_punct(&t[i], open))
			depth++;
		else if (tok_punct(&t[i], close) && --depth == 0)
			return i;
	}
	return n;
}

bool cdef_find(const char *buf, const struct token *t, size_t n,
	       const char *name, size_t from, size_t *at, size_t *b,
	       size_t *e)
{
	size_t i, close;

	for (i = from; i + 1 < n; i++) {
		if (t[i].kind != TK_IDENT || !tok_is(buf, &t[i], name) ||
		    (t[i].flags & TF_DIRECTIVE) || !tok_punct(&t[i + 1], P1('(')))
			continue;
		/* NAME ( ... ) { : a definition, not a call or declaration */
		close = cdef_closing(t, i + 1, n);
		if (close + 1 >= n || !tok_punct(&t[close + 1], P1('{')))
			continue;
		*at = i;
		*b = close + 2;
		*e = cdef_closing(t, close + 1, n);
		return true;
	}
	return false;
}

bool cdef_same(const char *ba, const struct token *a, const char *bb,
	       const struct token *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t la = a[i].end - a[i].start, lb = b[i].end - b[i].start;

		if (a[i].kind != b[i].kind || la != lb ||
		    memcmp(ba + a[i].start, bb + b[i].start, la))
			return false;
	}
	return true;
}

const struct ctext *ctext_get(struct ctexts *c, const char *path)
{
	size_t len = strlen(path), cap = 0, tcap = 0;
	unsigned int h = str_hash(path, len);
	struct hmap_entry *e = hmap_find(&c->map, path, len, h);
	struct ctext *t;

	if (e)
		return e->val;
	t = xcalloc(1, sizeof(*t));
	t->path = xstrdup(path);
	if (read_file(path, &t->buf, &t->len, &cap, NULL, NULL))
		t->error = errno;
	else
		t->n = lex_all(t->buf, t->len, &t->t, &tcap);
	hmap_add(&c->map, t->path, len, h, t, NULL);
	return t;
}

void ctexts_free(struct ctexts *c)
{
	size_t i;

	for (i = 0; i < c->map.cap; i++) {
		struct ctext *t = c->map.slot[i].val;

		if (!c->map.slot[i].key)
			continue;
		free(t->path);
		free(t->buf);
		free(t->t);
		free(t);
	}
	hmap_free(&c->map);
}
