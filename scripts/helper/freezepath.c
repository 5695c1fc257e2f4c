// SPDX-License-Identifier: GPL-2.0
/*
 * freezepath.c - how the target kernel freezes a superblock on suspend:
 * the function that does it, the opt-in flag that makes it freeze a
 * type, where it was read, and whether it calls a type's own
 * ->freeze_super or only the VFS freeze_super() (which calls
 * ->freeze_fs).
 *
 * Two are known.  Upstream's filesystems_freeze_callback() (6.16 and
 * later), which the PM core reaches through filesystems_freeze(), and
 * our core series' fs_suspend_freeze_sb().  Each is read from the
 * tree's fs/super.c; the series' one, when the tree lacks it, from the
 * series of patches/ that applies to the tree's code (patchfit.h; the
 * lines the patches add), never from its version number.  The flag is what the function tests in
 * s_type->fs_flags, and it counts only where, with
 * /sys/power/freeze_filesystems at its default (0), it decides: a type
 * that carries it is frozen and one that does not is not.  That is read
 * from the function's early returns, not from the version: 6.18 shipped
 * the test reversed, freezing every type whatever its flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cdef.h"
#include "freezepath.h"
#include "ktree.h"
#include "lex.h"
#include "patchfit.h"
#include "prereq.h"

static const char *const suspend_fns[] = {
	"filesystems_freeze_callback",	/* upstream: FS_POWER_FREEZE */
	"fs_suspend_freeze_sb",		/* our core series: FS_AUTOFREEZE */
};
/*
 * The flag each was written to test: what the tree's types carry when
 * the function no longer tests it (the test dropped), for check-tree.
 */
static const char *const suspend_flags[] = {
	"FS_POWER_FREEZE", "FS_AUTOFREEZE",
};
/* The lines a patch adds, without their "+", appended to OUT. */
static void added_lines(const char *buf, size_t len, charvec *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (*p == '+' && !(e - p >= 3 && !strncmp(p, "+++", 3))) {
			for (p++; p < e; p++)
				vec_push(out, *p);
			vec_push(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/*
 * An early-return condition, evaluated for one type with the knob at its
 * default: "X & FLAG" is FLAG_SET, every other operand (the knob's
 * pointer, an error so far) is 0.  Only !, &&, ||, parentheses, unary *
 * and member chains are understood; anything else sets BAD.
 */
struct cond {
	const char *buf;
	const struct token *t;
	size_t n;		/* all of the text's tokens, for callees */
	size_t i, end;
	const char *flag;
	bool flag_set, bad;
	int depth;
	size_t test;		/* the first "if" whose condition names
				 * the flag, or n */
};

static bool cond_at(struct cond *c, unsigned int punct)
{
	if (c->i < c->end && tok_punct(&c->t[c->i], punct)) {
		c->i++;
		return true;
	}
	return false;
}

static bool cond_or(struct cond *c);
static bool predicate(struct cond *c, size_t b, size_t e);

/*
 * The body of the function NAME defined in T[0..N): its tokens
 * [*B, *E), the braces excluded.  False when the text defines none.
 */
static bool find_definition(const char *buf, const struct token *t, size_t n,
			    const char *name, size_t *b, size_t *e)
{
	size_t at;

	return cdef_find(buf, t, n, name, 0, &at, b, e);
}

static bool cond_unary(struct cond *c)
{
	bool v = false;

	if (c->i >= c->end) {
		c->bad = true;
		return false;
	}
	if (cond_at(c, P1('!')))
		return !cond_unary(c);
	if (cond_at(c, P1('*'))) {
		cond_unary(c);
		return false;
	}
	if (cond_at(c, P1('('))) {
		v = cond_or(c);
		if (!cond_at(c, P1(')')))
			c->bad = true;
	} else if (c->t[c->i].kind == TK_IDENT && c->i + 1 < c->end &&
		   tok_punct(&c->t[c->i + 1], P1('('))) {
		/* a call of a predicate the text defines: its value */
		char name[128];
		size_t b, e, close = cdef_closing(c->t, c->i + 1, c->end);

		tok_text(c->buf, &c->t[c->i], name, sizeof(name));
		if (close >= c->end || c->depth > 4 ||
		    !find_definition(c->buf, c->t, c->n, name, &b, &e)) {
			c->bad = true;
			return false;
		}
		c->i = close + 1;
		c->depth++;
		v = predicate(c, b, e);
		c->depth--;
		return v;
	} else if (c->t[c->i].kind == TK_IDENT) {
		c->i++;
		while ((cond_at(c, P2('-', '>')) || cond_at(c, P1('.'))) &&
		       c->i < c->end && c->t[c->i].kind == TK_IDENT)
			c->i++;
	} else {
		c->bad = true;
		return false;
	}
	if (cond_at(c, P1('&'))) {
		if (c->i >= c->end || c->t[c->i].kind != TK_IDENT) {
			c->bad = true;
			return false;
		}
		v = tok_is(c->buf, &c->t[c->i], c->flag) && c->flag_set;
		c->i++;
	}
	return v;
}

static bool cond_and(struct cond *c)
{
	bool v = cond_unary(c);

	while (cond_at(c, P2('&', '&')))
		v = cond_unary(c) && v;
	return v;
}

static bool cond_or(struct cond *c)
{
	bool v = cond_and(c);

	while (cond_at(c, P2('|', '|')))
		v = cond_and(c) || v;
	return v;
}

/* The value of the condition T[B..E), in C's context. */
static bool cond_value(struct cond *c, size_t b, size_t e)
{
	size_t i = c->i, end = c->end;
	bool v;

	c->i = b;
	c->end = e;
	v = cond_or(c);
	if (c->i != e)
		c->bad = true;
	c->i = i;
	c->end = end;
	return v;
}

/* Does T[B..E) name C's flag, directly or in a function it calls? */
static bool names_flag(const struct cond *c, size_t b, size_t e, int depth)
{
	size_t k, fb, fe;
	char name[128];

	for (k = b; k < e; k++) {
		if (tok_is(c->buf, &c->t[k], c->flag))
			return true;
		if (depth < 4 && c->t[k].kind == TK_IDENT && k + 1 < e &&
		    tok_punct(&c->t[k + 1], P1('('))) {
			tok_text(c->buf, &c->t[k], name, sizeof(name));
			if (find_definition(c->buf, c->t, c->n, name, &fb, &fe) &&
			    names_flag(c, fb, fe, depth + 1))
				return true;
		}
	}
	return false;
}

/*
 * Each "if (COND) return ...;" of the body T[B..E) whose COND names the
 * flag: does one return for the type C describes?  With VALUE, only
 * those that return false or 0 count (a predicate's "no").
 */
static bool body_returns(struct cond *c, size_t b, size_t e, bool value)
{
	size_t k, close;
	bool ret = false;

	for (k = b; k + 1 < e; k++) {
		if (!tok_is(c->buf, &c->t[k], "if") ||
		    !tok_punct(&c->t[k + 1], P1('(')))
			continue;
		close = cdef_closing(c->t, k + 1, e);
		if (close + 2 >= e || !tok_is(c->buf, &c->t[close + 1], "return"))
			continue;
		if (value && !tok_is(c->buf, &c->t[close + 2], "false") &&
		    !(c->t[close + 2].kind == TK_NUMBER &&
		      c->t[close + 2].end - c->t[close + 2].start == 1 &&
		      c->buf[c->t[close + 2].start] == '0'))
			continue;
		if (!names_flag(c, k + 2, close, 0))
			continue;
		if (c->test == c->n)
			c->test = k;
		ret |= cond_value(c, k + 2, close);
	}
	return ret;
}

/* A predicate's value: false when one of its flag tests says no. */
static bool predicate(struct cond *c, size_t b, size_t e)
{
	return !body_returns(c, b, e, true);
}

/* The NAME of the first "fs_flags & NAME" in T[B..E) or its callees. */
static char *find_flag(const char *buf, const struct token *t, size_t n,
		       size_t b, size_t e, int depth)
{
	char name[128];
	size_t k, fb, fe;
	char *flag = NULL;

	for (k = b; k + 2 < e && !flag; k++) {
		if (tok_is(buf, &t[k], "fs_flags") && tok_punct(&t[k + 1], P1('&')) &&
		    t[k + 2].kind == TK_IDENT) {
			tok_text(buf, &t[k + 2], name, sizeof(name));
			flag = xstrdup(name);
		} else if (depth < 4 && t[k].kind == TK_IDENT &&
			   tok_punct(&t[k + 1], P1('('))) {
			tok_text(buf, &t[k], name, sizeof(name));
			if (find_definition(buf, t, n, name, &fb, &fe))
				flag = find_flag(buf, t, n, fb, fe, depth + 1);
		}
	}
	return flag;
}

/*
 * The first statement of the body T[B..E) that returns or jumps whatever
 * the type, before the first call of ->freeze_super() or freeze_super()
 * (FREEZE, E when there is none): such a freeze freezes nothing.  Its
 * index, or E.  A return or goto at the body's own level is unconditional
 * unless an if, a loop or an else governs it (the token before it closes
 * their parentheses or is "else").
 */
static size_t returns_first(const char *buf, const struct token *t,
			    size_t b, size_t e, size_t freeze)
{
	size_t k, ret;
	int depth = 0;

	for (k = b; k < freeze && k < e; k++) {
		if (tok_punct(&t[k], P1('{')))
			depth++;
		else if (tok_punct(&t[k], P1('}')))
			depth--;
		else if (!depth && (tok_is(buf, &t[k], "return") ||
				    tok_is(buf, &t[k], "goto")) &&
			 (k == b || (!tok_punct(&t[k - 1], P1(')')) &&
				     !tok_is(buf, &t[k - 1], "else"))))
			break;
	}
	if (k >= freeze || k >= e)
		return e;
	/* "return freeze_super(sb);" returns what it freezes */
	for (ret = k; k < freeze; k++)
		if (tok_punct(&t[k], P1(';')))
			return ret;
	return e;
}

/* Where the body's reading found it short: T[K]'s place. */
static void mark(struct freeze_path *fp, const struct token *t, size_t k)
{
	fp->line = t[k].line;
	fp->col = t[k].col;
}

/*
 * The body T[B..E) of a suspend freeze (its name at T[NAME]): its flag,
 * whether it calls ->freeze_super, and whether the flag decides: no
 * early return whose condition names it (or calls a predicate that
 * does) returns for a type that carries it, and one returns for a type
 * that does not; and that it freezes at all: it calls a freeze, and no
 * return or goto comes before it whatever the type.
 */
static void read_body(struct freeze_path *fp, const char *buf,
		      const struct token *t, size_t n, size_t name, size_t b,
		      size_t e)
{
	struct cond c = { buf, t, n, 0, 0, NULL, false, false, 0, n };
	bool skips_flagged = false, skips_others = false;
	size_t k, freeze = e, ret;

	mark(fp, t, name);
	for (k = b; k + 1 < e; k++) {
		if (!tok_is(buf, &t[k], "freeze_super") ||
		    !tok_punct(&t[k + 1], P1('(')))
			continue;
		if (freeze == e)
			freeze = k;
		if (k > b && tok_punct(&t[k - 1], P2('-', '>')))
			fp->super_op = true;
	}
	fp->flag = find_flag(buf, t, n, b, e, 0);
	if (!fp->flag) {
		fp->why = xasprintf("%s() tests no flag in s_type->fs_flags",
				    fp->func);
		return;
	}
	c.flag = fp->flag;
	c.flag_set = true;
	skips_flagged = body_returns(&c, b, e, false);
	c.flag_set = false;
	skips_others = body_returns(&c, b, e, false);
	if (c.test < n)
		mark(fp, t, c.test);
	ret = returns_first(buf, t, b, e, freeze);
	if (!c.bad && !skips_flagged && skips_others && freeze < e &&
	    ret == e)
		return;
	if (!c.bad && !skips_flagged && skips_others && freeze == e)
		fp->why = xasprintf("%s() tests %s, but calls no "
				    "freeze_super(): it freezes nothing",
				    fp->func, fp->flag);
	else if (!c.bad && !skips_flagged && skips_others) {
		mark(fp, t, ret);
		fp->why = xasprintf("%s() tests %s, but returns before its "
				    "freeze_super(), whatever the type: it "
				    "freezes nothing", fp->func, fp->flag);
	} else
		fp->why = xasprintf("%s() tests %s, but %s", fp->func,
				    fp->flag, c.bad ?
				    "in a condition autofreeze cannot read" :
				    skips_flagged ?
				    "skips the types that carry it" :
				    "freezes every type, whether it carries "
				    "it or not");
}

/*
 * freeze_path_parse(), but FP->flag kept where the freeze tests it
 * without deciding (FP->why says how): the flag the tree's types carry.
 */
static bool parse_text(struct freeze_path *fp, const char *buf, size_t len)
{
	struct token *t = NULL;
	size_t cap = 0, n = lex_all(buf, len, &t, &cap), b, e, f, at;
	bool found = false;

	for (f = 0; f < ARRAY_SIZE(suspend_fns) && !found; f++) {
		found = cdef_find(buf, t, n, suspend_fns[f], 0, &at, &b, &e);
		if (found) {
			fp->func = suspend_fns[f];
			read_body(fp, buf, t, n, at, b, e);
		}
	}
	free(t);
	return found;
}

bool freeze_path_parse(struct freeze_path *fp, const char *buf, size_t len)
{
	bool found = parse_text(fp, buf, len);

	if (fp->why) {
		free(fp->flag);
		fp->flag = NULL;
	}
	return found;
}

const char *freeze_path_flag(const struct freeze_path *fp)
{
	return fp->flag ? fp->flag : "FS_AUTOFREEZE";
}

/* Does the C text in file PATH #define NAME? */
static bool file_defines(const char *path, const char *name)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n, i;
	struct token *t = NULL;
	bool found = false;

	if (read_file(path, &buf, &len, &cap, NULL, NULL))
		return false;
	cap = 0;
	n = lex_all(buf, len, &t, &cap);
	for (i = 0; i + 1 < n && !found; i++)
		found = (t[i].flags & TF_DIRECTIVE) && tok_is(buf, &t[i], "define") &&
			tok_is(buf, &t[i + 1], name);
	free(t);
	free(buf);
	return found;
}

/* The lines the patches PATCHES add, as one text. */
static void read_series(const strvec *patches, charvec *text)
{
	size_t i;

	for (i = 0; i < patches->n; i++) {
		char *buf = NULL;
		size_t len = 0, cap = 0;

		if (!read_file(patches->v[i], &buf, &len, &cap, NULL, NULL))
			added_lines(buf, len, text);
		free(buf);
	}
}

/*
 * The tree's own suspend freeze, in fs/super.c: FREEZE_TREE when its
 * flag decides and include/linux/fs.h defines it, else FREEZE_NONE with
 * the reason (and, where the code falls short, AT).  False when
 * fs/super.c defines no known suspend freeze.
 */
static bool read_tree(struct freeze_path *fp, const char *ktree)
{
	char *path = path_join(ktree, "fs/super.c"), *buf = NULL;
	char *fs_h = path_join(ktree, "include/linux/fs.h");
	size_t len = 0, cap = 0;
	bool found = false;

	if (!read_file(path, &buf, &len, &cap, NULL, NULL))
		found = parse_text(fp, buf, len);
	if (found) {
		fp->where = xstrdup("fs/super.c");
		if (fp->why) {
			fp->at = xasprintf("fs/super.c:%u:%u", fp->line,
					   fp->col);
			if (!fp->flag &&
			    file_defines(fs_h, suspend_flags[fp->func ==
							     suspend_fns[1]]))
				fp->flag = xstrdup(suspend_flags[fp->func ==
								 suspend_fns[1]]);
		} else if (!file_defines(fs_h, fp->flag)) {
			fp->why = xasprintf("%s() tests %s, which include/linux/fs.h does not define",
					    fp->func, fp->flag);
			free(fp->flag);
			fp->flag = NULL;
		}
		fp->state = fp->why ? FREEZE_NONE : FREEZE_TREE;
	}
	free(fs_h);
	free(buf);
	free(path);
	return found;
}

/*
 * The core series shipped in patches/ that applies to the tree, found by
 * its code: each series is applied in memory (patchfit.h), and the first
 * that applies whole is the one; or, with PARTLY, the first whose first
 * patches are in and whose others apply (FREEZE_PARTIAL, *TRIED
 * untouched).  FREEZE_SERIES with its suspend freeze read from the lines
 * it adds; false, with *TRIED saying why each did not apply, when none
 * does.
 */
static bool read_shipped(struct freeze_path *fp, const char *ktree,
			 bool partly, charvec *tried)
{
	seriesvec all = { 0 };
	const struct series *sr;
	charvec text = { 0 };
	bool found = false;
	long k = 0;

	series_list(&all);
	sr = partly ? series_partly_in(&all, ktree, &k) :
		series_fitting(&all, ktree, false, tried);
	if (sr) {
		read_series(&sr->patches, &text);
		found = text.n && parse_text(fp, text.v, text.n);
	}
	if (found) {
		fp->where = xasprintf("%s/", sr->name);
		fp->state = fp->why ? FREEZE_NONE :
			partly ? FREEZE_PARTIAL : FREEZE_SERIES;
		if (!fp->why && partly) {
			fp->series = xstrdup(fp->where);
			fp->why = series_split_text(sr, k);
		}
	}
	vec_free(&text);
	series_list_free(&all);
	return found;
}

/*
 * The tree's own freeze FP (FREEZE_TREE) of a core series of ours
 * (FS_AUTOFREEZE): FREEZE_PARTIAL when only the first patches of a
 * series of patches/ are in (the PM hook that calls the freeze, say),
 * naming those in and those missing.  A tree whose code is no series of
 * ours, in part or whole (a backport), is left to its prerequisites.
 */
static void read_series_split(struct freeze_path *fp, const char *ktree)
{
	seriesvec all = { 0 };
	const struct series *sr;
	long k;

	series_list(&all);
	sr = series_partly_in(&all, ktree, &k);
	if (sr) {
		fp->state = FREEZE_PARTIAL;
		fp->series = xasprintf("%s/", sr->name);
		fp->why = series_split_text(sr, k);
	}
	series_list_free(&all);
}

/*
 * The tree's own freeze FP (FREEZE_TREE or FREEZE_PARTIAL) without some
 * of its prerequisites: FREEZE_NONE when the PM core does not call it (a
 * prerequisite no patch adds), FREEZE_PARTIAL when it has others, else
 * FREEZE_SERIES where a series of patches/ applies to the tree (it adds
 * them), else FREEZE_NONE.
 */
static void read_prereqs(struct freeze_path *fp, const char *ktree)
{
	struct prereq_state st;
	seriesvec all = { 0 };
	const struct series *sr;
	charvec tried = { 0 };
	char *why;

	prereqs_check(ktree, fp->func, &st);
	if (st.broken) {
		fp->at = st.at;
		st.at = NULL;
		if (fp->state == FREEZE_PARTIAL) {
			/* the series names what is missing; this, its effect */
			why = xasprintf("%s; so %s", fp->why, st.broken);
		} else {
			fp->state = FREEZE_NONE;
			why = xasprintf("the PM core never gets to %s(): %s",
					fp->func, st.broken);
		}
		free(fp->why);
		fp->why = why;
		prereq_state_free(&st);
		return;
	}
	if (!st.missing || fp->state == FREEZE_PARTIAL) {
		prereq_state_free(&st);
		return;
	}
	fp->lacks = st.lacks;
	st.lacks = NULL;
	if (st.missing < st.total) {
		fp->state = FREEZE_PARTIAL;
		fp->series = st.series;
		st.series = NULL;
		fp->why = xasprintf("it has %s, and lacks %s", st.has,
				    fp->lacks);
		prereq_state_free(&st);
		return;
	}
	series_list(&all);
	sr = series_fitting(&all, ktree, false, &tried);
	vec_push(&tried, '\0');
	if (sr) {
		fp->state = FREEZE_SERIES;
		fp->series = xasprintf("%s/", sr->name);
	} else {
		fp->state = FREEZE_NONE;
		fp->why = xasprintf("%s() lacks %s, and no series autofreeze "
				    "ships applies to the tree (%s)", fp->func,
				    fp->lacks, tried.v);
	}
	vec_free(&tried);
	series_list_free(&all);
	prereq_state_free(&st);
}

void freeze_path_read(struct freeze_path *fp, const char *ktree)
{
	charvec tried = { 0 };

	memset(fp, 0, sizeof(*fp));
	if (read_tree(fp, ktree)) {
		/*
		 * Ours in fs/super.c is not yet all of our series: the PM
		 * hook that calls it is a patch of its own.
		 */
		if (fp->state == FREEZE_TREE &&
		    !strcmp(fp->func, suspend_fns[1]))
			read_series_split(fp, ktree);
		if (fp->state != FREEZE_NONE)
			read_prereqs(fp, ktree);
	} else if (read_shipped(fp, ktree, true, NULL)) {
		/* ours half in, its freeze not yet in fs/super.c */
	} else if (!read_shipped(fp, ktree, false, &tried)) {
		fp->state = FREEZE_NONE;
		vec_push(&tried, '\0');
		fp->why = xasprintf("fs/super.c has no suspend freeze (%s() or "
				    "%s()), and no core series autofreeze "
				    "ships applies to it (%s)", suspend_fns[0],
				    suspend_fns[1], tried.n > 1 ? tried.v :
				    "none is shipped");
	}
	vec_free(&tried);
}

void freeze_path_free(struct freeze_path *fp)
{
	free(fp->flag);
	free(fp->where);
	free(fp->why);
	free(fp->lacks);
	free(fp->series);
	free(fp->at);
	memset(fp, 0, sizeof(*fp));
}

int freeze_path_cmd(const char *cmd, int argc, char **argv,
		    void (*show)(const struct freeze_path *fp,
				 const char *ktree))
{
	struct freeze_path fp;
	struct ktree_dir kd;
	int rc = ktree_only_arg(cmd, argc, argv, &kd);

	if (rc)
		return rc;
	freeze_path_read(&fp, kd.root);
	show(&fp, kd.root);
	freeze_path_free(&fp);
	ktree_dir_free(&kd);
	return flush_stdout();
}
