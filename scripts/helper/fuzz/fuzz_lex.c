// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_lex.c - libFuzzer target for the helper's lexer and per-file
 * analysis ("make fuzz").  Each input is lexed (checking that tokens
 * stay in bounds, in order, and that lines never go back) and analyzed
 * in full mode, as "autofreeze units" does; the prefilters run on it
 * too.  Any crash, sanitizer report or failed check is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "lex.h"
#include "util.h"

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_lex: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct token *toks = NULL, t;
	struct file_info fi;
	struct arena arena = { 0 };
	unsigned int line = 1, end = 0;
	size_t cap = 0, i;
	struct lexer lx;
	char *buf;

	/* no NUL at the end: the lexer must not read past SIZE */
	buf = xmalloc(size ? size : 1);
	memcpy(buf, data, size);

	lex_init(&lx, buf, size);
	for (i = 0; i <= size + 1; i++) {
		lex_next(&lx, &t);
		if (t.start > t.end || t.end > size)
			fail("token out of bounds");
		if (t.kind == TK_EOF)
			break;
		if (t.start < end)
			fail("tokens overlap");
		if (t.line < line)
			fail("line went back");
		if (t.end == t.start)
			fail("empty token");
		line = t.line;
		end = t.end;
	}
	if (t.kind != TK_EOF)
		fail("more tokens than bytes");

	memset(&fi, 0, sizeof(fi));
	analyze(&fi, buf, size, true, &arena, &toks, &cap);
	for (i = 0; i < fi.uses.n; i++)
		if (fi.uses.v[i].line < 1 || fi.uses.v[i].col < 1)
			fail("use without position");
	(void)may_use_freezer(buf, size);
	(void)may_start_thread(buf, size);

	file_info_reset(&fi);
	arena_free(&arena);
	free(toks);
	free(buf);
	return 0;
}
