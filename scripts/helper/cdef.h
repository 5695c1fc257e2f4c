/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cdef.h - function definitions and token runs in lexed C text: where a
 * function's body is, the bracket that closes another, whether a run of
 * tokens is the same C text as another; and files read and lexed once
 * for such questions.  Read by the suspend freeze
 * (freezepath.c) and the judgments' anchors (anchor.c).
 */
#ifndef AF_CDEF_H
#define AF_CDEF_H

#include <stdbool.h>
#include <stddef.h>

#include "lex.h"
#include "util.h"

/* T is the punctuator VAL (P1('('), P2('-', '>')). */
bool tok_punct(const struct token *t, unsigned int val);

/*
 * The index of the token that closes the bracket ('(' or '{') at T[I],
 * or N.
 */
size_t cdef_closing(const struct token *t, size_t i, size_t n);

/*
 * The first definition of function NAME in T[FROM..N): its name token
 * *AT, and its body, the braces excluded, [*B, *E).  False when there
 * is none: a call or a declaration is not a definition.
 */
bool cdef_find(const char *buf, const struct token *t, size_t n,
	       const char *name, size_t from, size_t *at, size_t *b,
	       size_t *e);

/* A file read and lexed once, kept in a struct ctexts. */
struct ctext {
	char *path;
	char *buf;
	size_t len;
	struct token *t;
	size_t n;
	int error;		/* errno of a failed read, or 0 */
};

/* Files read and lexed, by path: empty when zeroed. */
struct ctexts {
	struct hmap map;
};

/* PATH read and lexed, from C or now (then kept in C). */
const struct ctext *ctext_get(struct ctexts *c, const char *path);
void ctexts_free(struct ctexts *c);

/* The tokens A[0..N) of BA are the same C text as B[0..N) of BB. */
bool cdef_same(const char *ba, const struct token *a, const char *bb,
	       const struct token *b, size_t n);

#endif /* AF_CDEF_H */
