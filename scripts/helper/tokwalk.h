/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tokwalk.h - the walk through one file's tokens that analyze() makes:
 * its state, and the token helpers the modules it calls share
 * (analyze.c, definitions.c, threads.c, fstype_parse.c).  Not for other
 * files.
 */
#ifndef AF_TOKWALK_H
#define AF_TOKWALK_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze.h"
#include "lex.h"
#include "util.h"

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

static inline bool is_punct(const struct token *t, unsigned int p)
{
	return t->kind == TK_PUNCT && t->val == p;
}

static inline bool in_dir(const struct token *t)
{
	return t->flags & TF_DIRECTIVE;
}

/* previous token before I that is not in a directive, or -1 */
static inline long prev_code(const struct analysis *an, long i)
{
	while (--i >= 0)
		if (!in_dir(&an->t[i]))
			return i;
	return -1;
}

static inline long next_code(const struct analysis *an, long i)
{
	while (++i < (long)an->n)
		if (!in_dir(&an->t[i]))
			return i;
	return -1;
}

/* T's identifier, interned in the file's names (in the arena). */
const char *intern(struct analysis *an, const struct token *t);

/* The argument token ranges of the call whose "(" is at OPEN. */
int call_args(const struct analysis *an, long open, long *from, long *to,
	      int max);

/* The single identifier in [from, to) among "&", "(" and ")", or -1. */
long lone_ident(const struct analysis *an, long from, long to);

/* Add S to V unless V has it. */
void add_unique(strvec *v, const char *s);

/* The identifier X of "= X" or "= &X" right after token I, or -1. */
long assigned_ident(const struct analysis *an, long i);

#endif /* AF_TOKWALK_H */
