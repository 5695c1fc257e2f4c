/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lex.h - a C lexer that knows just enough: comments (block and line, a
 * line comment continued by backslash-newline), string and character
 * literals with escapes, numbers, identifiers (also split across a
 * backslash-newline), punctuators and preprocessor lines (with their
 * continuations; a #define body is marked).
 *
 * It does not evaluate the preprocessor: code under "#if 0" is still
 * code.  Unterminated comments end at end of file; unterminated string
 * and character literals end at the end of their line, as cpp treats
 * them.
 *
 * Lines and columns are 1-based; a column counts bytes (a tab is one).
 */
#ifndef AF_LEX_H
#define AF_LEX_H

#include <stdbool.h>
#include <stddef.h>

enum tok_kind {
	TK_EOF,
	TK_IDENT,
	TK_NUMBER,
	TK_STRING,
	TK_CHAR,
	TK_PUNCT,
};

/* token flags */
#define TF_SPLICED	0x01	/* contains a backslash-newline */
#define TF_DIRECTIVE	0x02	/* part of a preprocessor line */
#define TF_DEFINE	0x04	/* part of a #define (after "define") */
#define TF_HASH		0x08	/* the '#' that starts a directive */
#define TF_UNTERM	0x10	/* literal not terminated */

/* Punctuators: up to three characters packed, first char lowest. */
#define P1(a)		((unsigned int)(unsigned char)(a))
#define P2(a, b)	(P1(a) | P1(b) << 8)
#define P3(a, b, c)	(P2(a, b) | P1(c) << 16)

struct token {
	unsigned int start;	/* offset of the first byte */
	unsigned int end;	/* offset after the last byte */
	unsigned int line;
	unsigned int col;
	unsigned int val;	/* TK_IDENT: hash; TK_PUNCT: P1/P2/P3 */
	unsigned short len;	/* TK_IDENT: length without splices */
	unsigned char kind;
	unsigned char flags;
};

struct lexer {
	const char *buf;
	size_t len;
	size_t pos;
	unsigned int line;
	size_t line_start;
	bool bol;		/* only blanks so far on this logical line */
	bool in_dir;		/* inside a preprocessor line */
	bool in_define;		/* inside a #define */
	int dir_ntok;		/* tokens so far in this directive */
	unsigned int ncomments;	/* comments seen (for tests) */
};

void lex_init(struct lexer *lx, const char *buf, size_t len);

/* The next token; TK_EOF at the end (and for ever after). */
void lex_next(struct lexer *lx, struct token *t);

/*
 * The text of an identifier without splices, in OUT (NUL-terminated,
 * cut at SIZE - 1); returns the length written.
 */
size_t tok_text(const char *buf, const struct token *t, char *out,
		size_t size);

/* true when T is the identifier S */
bool tok_is(const char *buf, const struct token *t, const char *s);

/* Lex a whole buffer into a growing token array; returns the count. */
size_t lex_all(const char *buf, size_t len, struct token **toks,
	       size_t *cap);

#endif /* AF_LEX_H */
