// SPDX-License-Identifier: GPL-2.0
/*
 * lex.c - the C lexer (see lex.h for what it does and does not do).
 *
 * Translation phase 2 (deleting backslash-newline) is done on the fly:
 * cur() skips any splice before returning the current byte, so every
 * token kind, comments included, sees the spliced text.
 */
#include <string.h>

#include "lex.h"
#include "util.h"

void lex_init(struct lexer *lx, const char *buf, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->buf = buf;
	lx->len = len;
	lx->line = 1;
	lx->bol = true;
}

/* Length of a splice (backslash, optional CR, newline) at P, or 0. */
static inline size_t splice_at(const struct lexer *lx, size_t p)
{
	size_t q = p + 1;

	if (p >= lx->len || lx->buf[p] != '\\')
		return 0;
	if (q < lx->len && lx->buf[q] == '\r')
		q++;
	if (q < lx->len && lx->buf[q] == '\n')
		return q + 1 - p;
	return 0;
}

/* The current byte after any splices, or -1 at the end. */
static inline int cur(struct lexer *lx, bool *spliced)
{
	size_t n;

	while ((n = splice_at(lx, lx->pos)) != 0) {
		lx->pos += n;
		lx->line++;
		lx->line_start = lx->pos;
		*spliced = true;
	}
	return lx->pos < lx->len ? (unsigned char)lx->buf[lx->pos] : -1;
}

/* The byte after the current one (both after splices), or -1. */
static inline int peek(const struct lexer *lx)
{
	size_t p = lx->pos + 1, n;

	while ((n = splice_at(lx, p)) != 0)
		p += n;
	return p < lx->len ? (unsigned char)lx->buf[p] : -1;
}

/* Consume the current byte (cur() was called just before). */
static inline void advance(struct lexer *lx)
{
	if (lx->buf[lx->pos] == '\n') {
		lx->line++;
		lx->line_start = lx->pos + 1;
	}
	lx->pos++;
}

static inline bool is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		c == '_' || c == '$' || c >= 0x80;
}

static inline bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_ident_char(int c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Skip a block comment; the "/" and "*" are current and next. */
static void skip_block_comment(struct lexer *lx, bool *sp)
{
	int c;

	advance(lx);			/* '/' */
	cur(lx, sp);
	advance(lx);			/* '*' */
	while ((c = cur(lx, sp)) >= 0) {
		if (c == '*' && peek(lx) == '/') {
			advance(lx);
			cur(lx, sp);
			advance(lx);
			return;
		}
		advance(lx);
	}
}

/* Skip a line comment up to (not including) its newline. */
static void skip_line_comment(struct lexer *lx, bool *sp)
{
	int c;

	while ((c = cur(lx, sp)) >= 0 && c != '\n')
		advance(lx);
}

/* A string or character literal; Q is the quote, current. */
static void lex_quoted(struct lexer *lx, struct token *t, int q, bool *sp)
{
	int c;

	advance(lx);
	while ((c = cur(lx, sp)) >= 0) {
		if (c == q) {
			advance(lx);
			return;
		}
		if (c == '\n')
			break;
		advance(lx);
		if (c == '\\') {
			c = cur(lx, sp);
			if (c < 0)
				break;
			if (c == '\n')	/* "\<CR>" then newline: not a splice */
				break;
			advance(lx);
		}
	}
	t->flags |= TF_UNTERM;
}

static const char *const punct3[] = { "<<=", ">>=", "...", NULL };
static const char *const punct2[] = {
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", NULL
};

static void lex_punct(struct lexer *lx, struct token *t, int c, bool *sp)
{
	int c2 = peek(lx), c3 = -1;
	size_t i;

	advance(lx);
	t->val = P1(c);
	if (c2 < 0)
		return;
	for (i = 0; punct3[i]; i++) {
		if (punct3[i][0] == c && punct3[i][1] == c2) {
			if (c3 < 0) {
				cur(lx, sp);
				c3 = peek(lx);
			}
			if (punct3[i][2] == c3) {
				cur(lx, sp);
				advance(lx);
				cur(lx, sp);
				advance(lx);
				t->val = P3(c, c2, c3);
				return;
			}
		}
	}
	for (i = 0; punct2[i]; i++) {
		if (punct2[i][0] == c && punct2[i][1] == c2) {
			cur(lx, sp);
			advance(lx);
			t->val = P2(c, c2);
			return;
		}
	}
}

void lex_next(struct lexer *lx, struct token *t)
{
	bool sp, sp_in = false;
	size_t end = 0;
	int c;

	for (;;) {
		sp = false;
		c = cur(lx, &sp);
		if (c < 0) {
			memset(t, 0, sizeof(*t));
			t->kind = TK_EOF;
			t->start = t->end = (unsigned int)lx->len;
			t->line = lx->line;
			return;
		}
		if (c == '\n') {
			advance(lx);
			lx->bol = true;
			lx->in_dir = lx->in_define = false;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
		    c == '\v') {
			advance(lx);
			continue;
		}
		if (c == '/') {
			int n = peek(lx);

			if (n == '*') {
				skip_block_comment(lx, &sp);
				lx->ncomments++;
				continue;
			}
			if (n == '/') {
				skip_line_comment(lx, &sp);
				lx->ncomments++;
				continue;
			}
		}
		break;
	}

	sp = false;
	t->start = (unsigned int)lx->pos;
	t->line = lx->line;
	t->col = (unsigned int)(lx->pos - lx->line_start) + 1;
	t->flags = 0;
	t->val = 0;
	t->len = 0;

	if (c == '#' && lx->bol) {
		lx->in_dir = true;
		lx->dir_ntok = 0;
		t->flags |= TF_HASH;
	}
	lx->bol = false;

	if (is_ident_start(c)) {
		unsigned int h = 2166136261u;
		size_t n = 0;

		do {
			h ^= (unsigned char)c;
			h *= 16777619u;
			n++;
			advance(lx);
			/* a splice after the last char is not in the token */
			end = lx->pos;
			sp_in = sp;
			c = cur(lx, &sp);
		} while (c >= 0 && is_ident_char(c));
		/* a string prefix: L"", u"", U"", u8"" */
		if ((c == '"' || c == '\'') && n <= 2 &&
		    (lx->buf[t->start] == 'L' || lx->buf[t->start] == 'u' ||
		     lx->buf[t->start] == 'U')) {
			t->kind = c == '"' ? TK_STRING : TK_CHAR;
			lex_quoted(lx, t, c, &sp);
		} else {
			t->kind = TK_IDENT;
			t->val = h;
			t->len = n > 0xffff ? 0xffff : (unsigned short)n;
			t->end = (unsigned int)end;
			if (sp_in)
				t->flags |= TF_SPLICED;
			goto done;
		}
	} else if (is_digit(c) || (c == '.' && is_digit(peek(lx)))) {
		int prev = 0;

		t->kind = TK_NUMBER;
		/* a preprocessing number */
		for (;;) {
			c = cur(lx, &sp);
			if (c < 0)
				break;
			if (is_ident_char(c) || c == '.' ||
			    ((c == '+' || c == '-') &&
			     (prev == 'e' || prev == 'E' || prev == 'p' ||
			      prev == 'P'))) {
				prev = c;
				advance(lx);
				continue;
			}
			break;
		}
	} else if (c == '"' || c == '\'') {
		t->kind = c == '"' ? TK_STRING : TK_CHAR;
		lex_quoted(lx, t, c, &sp);
	} else {
		t->kind = TK_PUNCT;
		lex_punct(lx, t, c, &sp);
	}
	t->end = (unsigned int)lx->pos;
	if (sp)
		t->flags |= TF_SPLICED;
done:
	if (lx->in_dir) {
		t->flags |= TF_DIRECTIVE;
		if (lx->in_define)
			t->flags |= TF_DEFINE;
		if (lx->dir_ntok == 1 && t->kind == TK_IDENT &&
		    tok_is(lx->buf, t, "define"))
			lx->in_define = true;
		lx->dir_ntok++;
	}
}

size_t tok_text(const char *buf, const struct token *t, char *out,
		size_t size)
{
	size_t n = 0, p = t->start;

	if (!size)
		return 0;
	if (!(t->flags & TF_SPLICED)) {
		n = t->end - t->start;
		if (n > size - 1)
			n = size - 1;
		memcpy(out, buf + t->start, n);
		out[n] = '\0';
		return n;
	}
	while (p < t->end && n < size - 1) {
		if (buf[p] == '\\') {
			size_t q = p + 1;

			if (q < t->end && buf[q] == '\r')
				q++;
			if (q < t->end && buf[q] == '\n') {
				p = q + 1;
				continue;
			}
		}
		out[n++] = buf[p++];
	}
	out[n] = '\0';
	return n;
}

bool tok_is(const char *buf, const struct token *t, const char *s)
{
	char tmp[64];
	size_t n = strlen(s);

	if (t->kind != TK_IDENT || t->len != n)
		return false;
	if (!(t->flags & TF_SPLICED))
		return !memcmp(buf + t->start, s, n);
	if (n >= sizeof(tmp))
		return false;
	tok_text(buf, t, tmp, sizeof(tmp));
	return !strcmp(tmp, s);
}

size_t lex_all(const char *buf, size_t len, struct token **toks,
	       size_t *cap)
{
	struct lexer lx;
	size_t n = 0;

	lex_init(&lx, buf, len);
	for (;;) {
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 4096;
			*toks = xrealloc(*toks, *cap * sizeof(**toks));
		}
		lex_next(&lx, &(*toks)[n]);
		if ((*toks)[n].kind == TK_EOF)
			return n;
		n++;
	}
}
