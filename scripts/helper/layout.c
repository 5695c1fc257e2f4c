// SPDX-License-Identifier: GPL-2.0
/*
 * layout.c - "autofreeze layout FILE LINE...": the statements a change
 * made, laid out as checkpatch.pl --strict wants them (see layout.h for
 * the rules).
 *
 * Three passes over the text, each on the tokens of the text as the
 * pass before left it: the spaces around '|', the long lines broken
 * (one break at a time, the text lexed again after each), then the
 * continuation lines indented.  A statement, here, is what lies between
 * a ';', '{' or '}' outside any bracket and the next: a declaration, an
 * expression, an if's condition, a function's prototype, the members of
 * an initializer; preprocessor lines inside it are not its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lex.h"
#include "util.h"

#define TAB_COLS	8
#define NONE		((size_t)-1)

/* the marks of a line */
#define LN_LISTED	0x01	/* the change made it */
#define LN_STUCK	0x02	/* too long, with nowhere to break it */

struct lay {
	VEC(size_t) bol;	/* the offset of each line's first byte */
	VEC(unsigned char) mark;	/* LN_* of each line */
	charvec s;		/* the text as it stands */
	struct token *tok;	/* the tokens of s, directives' too */
	size_t ntok, tokcap;
};

/* A bracket the walk is in, or the statement itself (open is NONE). */
struct frame {
	size_t open;		/* the token that opened it */
	size_t operand;		/* the token after its last '=' or return */
	bool paren;		/* opened by '(' */
	bool pending;		/* the token before was '=' or return */
};

struct walk {
	VEC(struct frame) st;	/* st.v[0]: the statement */
	size_t first;		/* the statement's first token */
};

static void lay_index(struct lay *l)
{
	size_t i;

	l->bol.n = 0;
	vec_push(&l->bol, 0);
	for (i = 0; i + 1 < l->s.n; i++)
		if (l->s.v[i] == '\n')
			vec_push(&l->bol, i + 1);
	l->ntok = lex_all(l->s.v, l->s.n, &l->tok, &l->tokcap);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* T is the one-character punctuator C, in code. */
static bool is_punct(const struct token *t, char c)
{
	return t->kind == TK_PUNCT && t->val == P1(c) &&
		!(t->flags & (TF_DIRECTIVE | TF_SPLICED));
}

static bool is_open(const struct token *t)
{
	return is_punct(t, '(') || is_punct(t, '[') || is_punct(t, '{');
}

static bool is_close(const struct token *t)
{
	return is_punct(t, ')') || is_punct(t, ']') || is_punct(t, '}');
}

static bool is_assign(const struct lay *l, const struct token *t)
{
	static const unsigned int ops[] = {
		P1('='), P2('+', '='), P2('-', '='), P2('*', '='),
		P2('/', '='), P2('%', '='), P2('&', '='), P2('^', '='),
		P2('|', '='), P3('<', '<', '='), P3('>', '>', '='),
	};
	size_t i;

	if (t->flags & TF_DIRECTIVE)
		return false;
	if (t->kind == TK_IDENT)
		return tok_is(l->s.v, t, "return");
	for (i = 0; t->kind == TK_PUNCT && i < ARRAY_SIZE(ops); i++)
		if (t->val == ops[i])
			return true;
	return false;
}

static size_t line_bol(const struct lay *l, size_t line)
{
	return l->bol.v[line - 1];
}

/* The end of LINE: its newline (or carriage return), or the end. */
static size_t line_eol(const struct lay *l, size_t line)
{
	size_t e = line < l->bol.n ? l->bol.v[line] - 1 : l->s.n;

	if (line == l->bol.n && e > line_bol(l, line) && l->s.v[e - 1] == '\n')
		e--;
	if (e > line_bol(l, line) && l->s.v[e - 1] == '\r')
		e--;
	return e;
}

static size_t first_nonblank(const struct lay *l, size_t line)
{
	size_t p = line_bol(l, line), e = line_eol(l, line);

	while (p < e && is_blank(l->s.v[p]))
		p++;
	return p;
}

/* The column after S[FROM..TO) laid from column COL. */
static size_t cols_of(const char *s, size_t from, size_t to, size_t col)
{
	for (; from < to; from++)
		col = s[from] == '\t' ? (col / TAB_COLS + 1) * TAB_COLS : col + 1;
	return col;
}

/*
 * The column of offset P of LINE, the line indented to IND[LINE - 1]
 * columns when IND is given and that is not -1.
 */
static size_t col_at(const struct lay *l, const long *ind, size_t line,
		     size_t p)
{
	if (ind && ind[line - 1] >= 0)
		return cols_of(l->s.v, first_nonblank(l, line), p,
			       (size_t)ind[line - 1]);
	return cols_of(l->s.v, line_bol(l, line), p, 0);
}

static size_t line_cols(const struct lay *l, const long *ind, size_t line)
{
	return col_at(l, ind, line, line_eol(l, line));
}

/* Token I starts its line: only blanks before it. */
static bool starts_line(const struct lay *l, size_t i)
{
	const struct token *t = &l->tok[i];

	return first_nonblank(l, t->line) == t->start;
}

/* Token I is the last of its line. */
static bool ends_line(const struct lay *l, size_t i)
{
	return i + 1 >= l->ntok || l->tok[i + 1].line != l->tok[i].line;
}

/*
 * The next statement from token *I on: its first and last tokens.
 * false when there is none.
 */
static bool next_stmt(const struct lay *l, size_t *i, size_t *first,
		      size_t *last)
{
	size_t j, depth = 0;

	for (j = *i; j < l->ntok; j++) {
		const struct token *t = &l->tok[j];

		if (!(t->flags & TF_DIRECTIVE) && !is_punct(t, '{') &&
		    !is_punct(t, '}') && !is_punct(t, ';'))
			break;
	}
	*i = j;
	if (j >= l->ntok)
		return false;
	*first = *last = j;
	for (; j < l->ntok; j++) {
		const struct token *t = &l->tok[j];

		if (t->flags & TF_DIRECTIVE)
			continue;
		if (!depth && (is_punct(t, '{') || is_punct(t, '}')))
			break;
		*last = j;
		if (is_open(t)) {
			depth++;
		} else if (is_close(t)) {
			if (depth)
				depth--;
		} else if (!depth && is_punct(t, ';')) {
			j++;
			break;
		}
	}
	*i = j;
	return true;
}

static void walk_start(struct walk *w, size_t first)
{
	struct frame f = { NONE, NONE, false, false };

	w->st.n = 0;
	vec_push(&w->st, f);
	w->first = first;
}

static struct frame *walk_top(struct walk *w)
{
	return &w->st.v[w->st.n - 1];
}

/* Past token I (not a directive's): the brackets it opens or closes. */
static void walk_tok(struct walk *w, const struct lay *l, size_t i)
{
	const struct token *t = &l->tok[i];
	struct frame *f = walk_top(w);

	if (f->pending) {
		f->operand = i;
		f->pending = false;
	}
	if (is_open(t)) {
		struct frame n = { i, NONE, is_punct(t, '('), false };

		vec_push(&w->st, n);
	} else if (is_close(t)) {
		if (w->st.n > 1)
			w->st.n--;
	} else if (is_punct(t, ',')) {
		f->operand = NONE;
	} else if (is_assign(l, t)) {
		f->pending = true;
	}
}

static bool line_has(const struct lay *l, size_t line, unsigned char m)
{
	return line >= 1 && line <= l->mark.n && (l->mark.v[line - 1] & m);
}

/*
 * The column that the parenthesis OPEN puts its continuation lines at:
 * just after it, or when it ends its line (a hanging indent), the
 * column of the first token after it, preprocessor lines passed.
 */
static size_t paren_col(const struct lay *l, const long *ind, size_t open)
{
	const struct token *t = &l->tok[open];
	size_t j = open + 1;

	while (j < l->ntok && (l->tok[j].flags & TF_DIRECTIVE))
		j++;
	if (!ends_line(l, open) || j >= l->ntok)
		return col_at(l, ind, t->line, t->end);
	t = &l->tok[j];
	return col_at(l, ind, t->line, t->start);
}

/*
 * The column the rest of a line broken after token I (a '|' when BAR,
 * else a ',') goes to, or NONE.
 */
static size_t break_col(const struct lay *l, struct walk *w, bool bar)
{
	const struct frame *f = walk_top(w);
	const struct token *first = &l->tok[w->first];

	if (f->open != NONE)
		return f->paren ? paren_col(l, NULL, f->open) : NONE;
	if (bar && f->operand != NONE)
		return col_at(l, NULL, l->tok[f->operand].line,
			      l->tok[f->operand].start);
	return col_at(l, NULL, first->line, first->start) +
		(bar ? TAB_COLS : 0);
}

/* The indentation of COL columns, tabs then spaces, appended to OUT. */
static void put_indent(charvec *out, size_t col)
{
	size_t k;

	for (k = 0; k < col / TAB_COLS; k++)
		vec_push(out, '\t');
	for (k = 0; k < col % TAB_COLS; k++)
		vec_push(out, ' ');
}

static void put_bytes(charvec *out, const char *s, size_t n)
{
	if (!n)
		return;
	while (out->n + n > out->cap) {
		out->cap = out->cap ? 2 * out->cap : 4096;
		out->v = xrealloc(out->v, out->cap);
	}
	memcpy(out->v + out->n, s, n);
	out->n += n;
}

/* OUT becomes the text. */
static void lay_replace(struct lay *l, charvec *out)
{
	vec_free(&l->s);
	l->s = *out;
	memset(out, 0, sizeof(*out));
	lay_index(l);
}

/* A binary '|' of a listed line gets a space on each side. */
static void space_bars(struct lay *l)
{
	charvec out = { 0 };
	size_t i, from = 0;

	for (i = 0; i < l->ntok; i++) {
		const struct token *t = &l->tok[i];
		size_t p = t->start;

		if (!is_punct(t, '|') || !line_has(l, t->line, LN_LISTED))
			continue;
		put_bytes(&out, l->s.v + from, p - from);
		if (!starts_line(l, i) && !is_blank(l->s.v[p - 1]))
			vec_push(&out, ' ');
		vec_push(&out, '|');
		from = p + 1;
		if (from < l->s.n && !is_blank(l->s.v[from]) &&
		    l->s.v[from] != '\n' && l->s.v[from] != '\r')
			vec_push(&out, ' ');
	}
	if (!out.v)
		return;
	put_bytes(&out, l->s.v + from, l->s.n - from);
	lay_replace(l, &out);
}

/* A place to break a line: after token tok, the rest at col. */
struct cut {
	size_t tok, col;
};

/*
 * Token I can end the first part of its line broken there: " | " or
 * ", " with code after it on the line.
 */
static bool cut_after(const struct lay *l, size_t i, bool *bar)
{
	const struct token *t = &l->tok[i], *n;
	size_t p;

	*bar = is_punct(t, '|');
	if (!*bar && !is_punct(t, ','))
		return false;
	if (starts_line(l, i) || (*bar && !is_blank(l->s.v[t->start - 1])))
		return false;
	if (i + 1 >= l->ntok)
		return false;
	n = &l->tok[i + 1];
	if (n->line != t->line ||
	    (n->flags & TF_DIRECTIVE) || n->start == t->end)
		return false;
	for (p = t->end; p < n->start; p++)
		if (!is_blank(l->s.v[p]))
			return false;
	return true;
}

/*
 * Token J as the end of the first part of its line, when that is a
 * listed line too long: in BAR[line] for a '|', COMMA[line] for a ',',
 * the last that fits wins.
 */
static void consider_cut(const struct lay *l, struct walk *w, size_t j,
			 struct cut *bar, struct cut *comma)
{
	const struct token *t = &l->tok[j];
	size_t line = t->line, old, c;
	bool is_bar;

	if (!line_has(l, line, LN_LISTED) || line_has(l, line, LN_STUCK))
		return;
	old = line_cols(l, NULL, line);
	if (old <= LAYOUT_COLS || !cut_after(l, j, &is_bar) ||
	    col_at(l, NULL, line, t->end) > LAYOUT_COLS)
		return;
	c = break_col(l, w, is_bar);
	/* the rest, at C, must come out shorter than the line was */
	if (c == NONE || cols_of(l->s.v, l->tok[j + 1].start,
				 line_eol(l, line), c) >= old)
		return;
	if (is_bar)
		bar[line] = (struct cut){ j, c };
	else
		comma[line] = (struct cut){ j, c };
}

/*
 * Break the first listed line too long that can be broken, once; the
 * lines that cannot are marked stuck.  true when a line was broken.
 */
static bool break_one(struct lay *l)
{
	struct cut *bar = xcalloc(l->bol.n + 1, 2 * sizeof(*bar)), *comma;
	struct walk w = { 0 };
	size_t i = 0, first, last, j, line, tok = NONE, col = 0;
	charvec out = { 0 };

	comma = bar + l->bol.n + 1;
	for (line = 0; line <= l->bol.n; line++)
		bar[line].tok = comma[line].tok = NONE;
	while (next_stmt(l, &i, &first, &last)) {
		walk_start(&w, first);
		for (j = first; j <= last; j++) {
			if (l->tok[j].flags & TF_DIRECTIVE)
				continue;
			consider_cut(l, &w, j, bar, comma);
			walk_tok(&w, l, j);
		}
	}
	for (line = 1; line <= l->bol.n && tok == NONE; line++) {
		if (!line_has(l, line, LN_LISTED) ||
		    line_has(l, line, LN_STUCK) ||
		    line_cols(l, NULL, line) <= LAYOUT_COLS)
			continue;
		if (bar[line].tok != NONE) {
			tok = bar[line].tok;
			col = bar[line].col;
		} else if (comma[line].tok != NONE) {
			tok = comma[line].tok;
			col = comma[line].col;
		} else {
			l->mark.v[line - 1] |= LN_STUCK;
		}
	}
	free(bar);
	vec_free(&w.st);
	if (tok == NONE)
		return false;
	line = l->tok[tok].line;
	put_bytes(&out, l->s.v, l->tok[tok].end);
	vec_push(&out, '\n');
	put_indent(&out, col);
	put_bytes(&out, l->s.v + l->tok[tok + 1].start,
		  l->s.n - l->tok[tok + 1].start);
	/* the new line, after LINE, is listed */
	vec_push(&l->mark, 0);
	memmove(l->mark.v + line + 1, l->mark.v + line,
		l->mark.n - line - 1);
	l->mark.v[line] = LN_LISTED;
	lay_replace(l, &out);
	return true;
}

/* LINE is indented COL columns, tabs then spaces. */
static bool indent_is(const struct lay *l, size_t line, size_t col)
{
	size_t b = line_bol(l, line), k;

	if (first_nonblank(l, line) - b != col / TAB_COLS + col % TAB_COLS)
		return false;
	for (k = 0; k < col / TAB_COLS + col % TAB_COLS; k++)
		if (l->s.v[b + k] != (k < col / TAB_COLS ? '\t' : ' '))
			return false;
	return true;
}

/*
 * The continuation lines of statement FIRST..LAST indented in IND (each
 * line's new indentation, or -1 where it stays): those under a
 * parenthesis whose line is listed or indented anew, so that the lines
 * under a changed line follow it (checkpatch.pl looks at a continuation
 * line only under a line the patch adds).  false, IND as it was, when a
 * line would then pass LAYOUT_COLS or starts in brackets or braces that
 * move.
 */
static bool align_stmt(struct lay *l, struct walk *w, long *ind,
		       size_t first, size_t last)
{
	size_t j, from = l->tok[first].line, to = l->tok[last].line;
	long *was = xmalloc((to - from + 1) * sizeof(*was));
	bool ok = true;

	memcpy(was, ind + from - 1, (to - from + 1) * sizeof(*was));
	walk_start(w, first);
	for (j = first; j <= last && ok; j++) {
		const struct token *t = &l->tok[j];
		const struct frame *f = walk_top(w);
		size_t line = t->line, at, col;

		if (t->flags & TF_DIRECTIVE)
			continue;
		if (j == first || line == from || w->st.n == 1 ||
		    !starts_line(l, j) || is_close(t))
			goto next;
		at = l->tok[f->open].line;
		if (!line_has(l, at, LN_LISTED) && ind[at - 1] < 0)
			goto next;
		if (!f->paren) {
			ok = false;
			break;
		}
		col = paren_col(l, ind, f->open);
		if (indent_is(l, line, col))
			goto next;
		ind[line - 1] = (long)col;
		if (line_cols(l, ind, line) > LAYOUT_COLS &&
		    line_cols(l, ind, line) > line_cols(l, NULL, line))
			ok = false;
next:
		walk_tok(w, l, j);
	}
	if (!ok)
		memcpy(ind + from - 1, was, (to - from + 1) * sizeof(*was));
	free(was);
	return ok;
}

/* The continuation lines of each statement with a listed line, aligned. */
static void align(struct lay *l)
{
	long *ind = xmalloc(l->bol.n * sizeof(*ind));
	struct walk w = { 0 };
	size_t i = 0, first, last, line;
	charvec out = { 0 };
	bool any = false;

	for (line = 0; line < l->bol.n; line++)
		ind[line] = -1;
	while (next_stmt(l, &i, &first, &last)) {
		for (line = l->tok[first].line; line <= l->tok[last].line;
		     line++)
			if (line_has(l, line, LN_LISTED))
				break;
		if (line > l->tok[last].line)
			continue;
		align_stmt(l, &w, ind, first, last);
	}
	for (line = 0; line < l->bol.n; line++)
		any |= ind[line] >= 0;
	/* write the text again, each line indented as IND says */
	if (any) {
		size_t from = 0;

		for (line = 1; line <= l->bol.n; line++) {
			size_t b = line_bol(l, line);

			if (ind[line - 1] < 0)
				continue;
			put_bytes(&out, l->s.v + from, b - from);
			put_indent(&out, (size_t)ind[line - 1]);
			from = first_nonblank(l, line);
		}
		put_bytes(&out, l->s.v + from, l->s.n - from);
		lay_replace(l, &out);
	}
	vec_free(&out);
	vec_free(&w.st);
	free(ind);
}

char *layout_tidy(const char *buf, size_t len, const unsigned long *lines,
		  size_t n, size_t *outlen)
{
	struct lay l = { 0 };
	size_t i;
	char *ret;

	put_bytes(&l.s, buf, len);
	lay_index(&l);
	for (i = 0; i < l.bol.n; i++)
		vec_push(&l.mark, 0);
	for (i = 0; i < n; i++)
		if (lines[i] >= 1 && lines[i] <= l.bol.n && len)
			l.mark.v[lines[i] - 1] |= LN_LISTED;
	space_bars(&l);
	while (break_one(&l))
		;
	align(&l);
	*outlen = l.s.n;
	vec_push(&l.s, '\0');
	ret = l.s.v;
	vec_free(&l.bol);
	vec_free(&l.mark);
	free(l.tok);
	return ret;
}

/* The number of lines of BUF[0..LEN): the last may lack its newline. */
static size_t count_lines(const char *buf, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (buf[i] == '\n')
			n++;
	return n + (len && buf[len - 1] != '\n');
}

int cmd_layout(int argc, char **argv)
{
	unsigned long *lines;
	size_t len = 0, cap = 0, nlines, outlen;
	char *buf = NULL, *out, *end;
	const char *file;
	int i;

	if (argc < 2) {
		af_warn(NULL, "layout: usage: layout FILE LINE...");
		return EXIT_BADINPUT;
	}
	file = argv[1];
	if (argc < 3) {
		af_warn(file, "layout: no LINE given");
		return EXIT_BADINPUT;
	}
	if (read_file(file, &buf, &len, &cap, NULL, NULL)) {
		af_warn(file, "%s", strerror(errno));
		free(buf);
		return EXIT_BADINPUT;
	}
	nlines = count_lines(buf, len);
	lines = xmalloc((size_t)(argc - 2) * sizeof(*lines));
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		errno = 0;
		lines[i - 2] = strtoul(a, &end, 10);
		if (*a < '0' || *a > '9' || *end || errno ||
		    lines[i - 2] < 1 || lines[i - 2] > nlines) {
			af_warn(file, "layout: line '%s' is not in the file (lines 1 to %zu)",
				a, nlines);
			free(lines);
			free(buf);
			return EXIT_BADINPUT;
		}
	}
	out = layout_tidy(buf, len, lines, (size_t)(argc - 2), &outlen);
	fwrite(out, 1, outlen, stdout);
	free(out);
	free(lines);
	free(buf);
	return flush_stdout();
}
