// SPDX-License-Identifier: GPL-2.0
/*
 * judgments.c - reading policy/judgments.tsv (see judgments.h and the
 * file's own header), checking each judgment's anchors in the tree, and
 * answering from those that hold.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judgments.h"

const char *const judged_what_names[] = {
	[JUDGED_UNIT] = "unit", [JUDGED_FSTYPE] = "fstype",
	[JUDGED_USE] = "use", [JUDGED_QUIESCED] = "quiesced",
	[JUDGED_FLAGGED] = "flagged", [JUDGED_NOTE] = "note",
};

/* The fields of a line, in order. */
enum {
	F_UNIT,
	F_WHAT,
	F_NAME,
	F_MATCH,
	F_CODE,
	F_ANCHOR,
	F_EVIDENCE,
	F_COUNT
};

/* "6.1,6.12", "*": what the first field of the old format held. */
static bool is_version_list(const char *s)
{
	return *s && strspn(s, "0123456789.,*") == strlen(s);
}

static void judgment_free(struct judgment *j)
{
	free(j->unit);
	free(j->name);
	free(j->match);
	free(j->code);
	vec_free_each(&j->anchors, anchor_free);
	free(j->cites);
	free(j->evidence);
	free(j->lapse);
}

void judgments_load(struct judgments *js, const char *path)
{
	char *own = path ? NULL : beside_helper("policy/judgments.tsv");
	char *line = NULL, *why;
	size_t cap = 0;
	unsigned int lineno = 0;
	FILE *f;

	memset(js, 0, sizeof(*js));
	if (!path && !own)
		af_die(EXIT_BADINPUT, NULL, "no policy/judgments.tsv beside "
		       "the helper (give --judgments FILE)");
	js->path = xstrdup(path ? path : "policy/judgments.tsv");
	f = fopen(path ? path : own, "r");
	if (!f)
		af_die(EXIT_BADINPUT, js->path, "%s", strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *field[F_COUNT], *s = line;
		struct judgment j = { 0 };
		size_t n, w;

		lineno++;
		s[strcspn(s, "\r\n")] = '\0';
		if (!*s || *s == '#')
			continue;
		n = split_tabs(s, field, F_COUNT);
		if (is_version_list(field[0]))
			af_die(EXIT_BADINPUT, js->path, "line %u: \"%s\" names "
			       "kernel versions; a judgment names the code it "
			       "rests on (UNIT WHAT NAME MATCH CODE ANCHOR "
			       "EVIDENCE)", lineno, field[0]);
		if (n < F_COUNT || strchr(field[F_COUNT - 1], '\t'))
			af_die(EXIT_BADINPUT, js->path, "line %u: not %d "
			       "tab-separated fields", lineno, F_COUNT);
		for (w = 0; w < ARRAY_SIZE(judged_what_names); w++)
			if (!strcmp(field[F_WHAT], judged_what_names[w]))
				break;
		if (w == ARRAY_SIZE(judged_what_names))
			af_die(EXIT_BADINPUT, js->path, "line %u: \"%s\" is "
			       "not unit, fstype, use, quiesced, flagged or "
			       "note", lineno, field[F_WHAT]);
		if (!*field[F_CODE] || !*field[F_EVIDENCE] ||
		    (w != JUDGED_UNIT && w != JUDGED_NOTE &&
		     !strcmp(field[F_NAME], "-")))
			af_die(EXIT_BADINPUT, js->path, "line %u: a judgment "
			       "needs a name, a code and its evidence", lineno);
		if (w == JUDGED_NOTE && (strcmp(field[F_NAME], "-") ||
					 strcmp(field[F_MATCH], "-")))
			af_die(EXIT_BADINPUT, js->path, "line %u: a note is on "
			       "its unit: its NAME and MATCH are \"-\"",
			       lineno);
		if ((w == JUDGED_QUIESCED) != !strcmp(field[F_CODE], "quiesced"))
			af_die(EXIT_BADINPUT, js->path, "line %u: the code "
			       "\"quiesced\" goes with a quiesced judgment, "
			       "and only there", lineno);
		why = anchors_parse(field[F_ANCHOR], &j.anchors);
		if (!why)
			why = evidence_parse(field[F_EVIDENCE]);
		if (why)
			af_die(EXIT_BADINPUT, js->path, "line %u: %s", lineno,
			       why);
		j.what = w;
		j.unit = xstrdup(field[F_UNIT]);
		j.name = xstrdup(field[F_NAME]);
		j.match = strcmp(field[F_MATCH], "-") ?
			xstrdup(field[F_MATCH]) : NULL;
		j.code = xstrdup(field[F_CODE]);
		j.cites = xstrdup(field[F_EVIDENCE]);
		j.lineno = lineno;
		vec_push(&js->v, j);
	}
	if (ferror(f))
		af_die(EXIT_RUNTIME, js->path, "%s", strerror(errno));
	fclose(f);
	free(line);
	free(own);
}

void judgments_free(struct judgments *js)
{
	size_t i;

	for (i = 0; i < js->v.n; i++)
		judgment_free(&js->v.v[i]);
	vec_free(&js->v);
	free(js->path);
}

/*
 * A and B judge the same thing: the same unit, kind, name and match; a
 * note's subject is the caveat its code names.
 */
static bool same_subject(const struct judgment *a, const struct judgment *b)
{
	return a->what == b->what && !strcmp(a->unit, b->unit) &&
		!strcmp(a->name, b->name) &&
		!strcmp(a->match ? a->match : "", b->match ? b->match : "") &&
		(a->what != JUDGED_NOTE || !strcmp(a->code, b->code));
}

const struct judgment *judgment_instead(const struct judgments *js,
					const struct judgment *j)
{
	size_t i;

	for (i = 0; i < js->v.n; i++)
		if (&js->v.v[i] != j && js->v.v[i].state == JUDGMENT_HOLDS &&
		    same_subject(&js->v.v[i], j))
			return &js->v.v[i];
	return NULL;
}

void judgments_check(struct judgments *js, const char *unit,
		     struct anchor_scope *sc)
{
	size_t i, k;

	for (i = 0; i < js->v.n; i++) {
		struct judgment *j = &js->v.v[i];
		const char *path;
		unsigned int line;
		char *why = NULL;

		if (strcmp(j->unit, unit) || j->state != JUDGMENT_UNCHECKED)
			continue;
		for (k = 0; k < j->anchors.n && !why; k++) {
			why = anchor_check(sc, &j->anchors.v[k], &path, &line);
			if (why) {
				char *w = xasprintf("%s: %s",
						    j->anchors.v[k].text, why);

				free(why);
				why = w;
			}
		}
		if (!why)
			j->evidence = evidence_render(sc, j->cites, &why);
		j->state = why ? JUDGMENT_LAPSED : JUDGMENT_HOLDS;
		j->lapse = why;
	}
	/* a subject has one judgment here: which one would be chance */
	for (i = 0; i < js->v.n; i++)
		for (k = i + 1; k < js->v.n; k++) {
			const struct judgment *a = &js->v.v[i], *b = &js->v.v[k];

			if (a->state == JUDGMENT_HOLDS &&
			    b->state == JUDGMENT_HOLDS &&
			    !strcmp(a->unit, unit) && same_subject(a, b))
				af_die(EXIT_BADINPUT, js->path, "lines %u and "
				       "%u both hold here, on the same %s of "
				       "%s: give them anchors that tell the "
				       "code they judge apart", a->lineno,
				       b->lineno, judged_what_names[a->what],
				       unit);
		}
}

char *judgment_where(const struct judgments *js, const struct judgment *j)
{
	return xasprintf("%s:%u", js->path, j->lineno);
}

/* The NTH (from 0) judgment on UNIT (and NAME) that is in STATE. */
static const struct judgment *find(const struct judgments *js,
				   enum judged_what what, const char *unit,
				   const char *name, enum judgment_state state,
				   size_t nth)
{
	size_t i;

	for (i = 0; i < js->v.n; i++) {
		const struct judgment *j = &js->v.v[i];

		if (j->what == what && j->state == state &&
		    !strcmp(j->unit, unit) &&
		    (!name || !strcmp(j->name, name)) && !nth--)
			return j;
	}
	return NULL;
}

const struct judgment *judged_unit(const struct judgments *js,
				   const char *unit)
{
	return find(js, JUDGED_UNIT, unit, NULL, JUDGMENT_HOLDS, 0);
}

const struct judgment *judged_note(const struct judgments *js,
				   const char *unit, size_t i)
{
	return find(js, JUDGED_NOTE, unit, NULL, JUDGMENT_HOLDS, i);
}

const struct judgment *lapsed_unit(const struct judgments *js,
				   const char *unit)
{
	return find(js, JUDGED_UNIT, unit, NULL, JUDGMENT_LAPSED, 0);
}

const struct judgment *judged_fstype(const struct judgments *js,
				     const char *unit, const char *name)
{
	return find(js, JUDGED_FSTYPE, unit, name, JUDGMENT_HOLDS, 0);
}

const struct judgment *judged_flagged(const struct judgments *js,
				      const char *unit, const char *name)
{
	return find(js, JUDGED_FLAGGED, unit, name, JUDGMENT_HOLDS, 0);
}

/* The line ends a statement or opens or closes a block. */
static bool ends_statement(const char *l)
{
	size_t n = strlen(l);

	while (n && (l[n - 1] == '\n' || l[n - 1] == ' ' || l[n - 1] == '\t'))
		n--;
	return !n || l[n - 1] == ';' || l[n - 1] == '{' || l[n - 1] == '}';
}

/*
 * The text of the statement of PATH that line LINE ends in: LINE and the
 * lines before it back to the end of the statement before (malloc'ed),
 * or NULL.
 */
static char *statement_to(const char *path, unsigned int line)
{
	FILE *f = open_regular(path);
	strvec lines = { 0 };
	char *buf = NULL, *r;
	size_t cap = 0, first, i, len = 0;

	if (!f)
		return NULL;
	while (lines.n < line && getline(&buf, &cap, f) >= 0)
		vec_push(&lines, xstrdup(buf));
	fclose(f);
	free(buf);
	if (lines.n != line) {
		strvec_free(&lines);
		return NULL;
	}
	first = line - 1;
	while (first > 0 && !ends_statement(lines.v[first - 1]))
		first--;
	for (i = first; i < lines.n; i++)
		len += strlen(lines.v[i]);
	r = xmalloc(len + 1);
	r[0] = '\0';
	for (i = first; i < lines.n; i++)
		strcat(r, lines.v[i]);
	strvec_free(&lines);
	return r;
}

const struct judgment *judged_at(const struct judgments *js,
				 enum judged_what what,
				 enum judgment_state state, const char *unit,
				 const char *fn, const char *path,
				 unsigned int line)
{
	size_t i;

	for (i = 0; i < js->v.n; i++) {
		const struct judgment *j = &js->v.v[i];
		char *text;
		bool hit;

		if (j->what != what || j->state != state ||
		    strcmp(j->unit, unit) || !fn || strcmp(j->name, fn))
			continue;
		if (!j->match)
			return j;
		text = statement_to(path, line);
		hit = text && strstr(text, j->match);
		free(text);
		if (hit)
			return j;
	}
	return NULL;
}
