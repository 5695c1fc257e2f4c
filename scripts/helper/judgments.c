// SPDX-License-Identifier: GPL-2.0
/*
 * judgments.c - reading policy/judgments.tsv (see judgments.h and the
 * file's own header) and answering from it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judgments.h"

/* KERNELS ("6.1,6.12" or "*") holds for VERSION. */
static bool holds_for(const char *kernels, const char *version)
{
	size_t n = strlen(version);
	const char *p = kernels;

	if (!strcmp(kernels, "*"))
		return true;
	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, version, n))
			return true;
		p += k;
		if (*p)
			p++;
	}
	return false;
}

void judgments_load(struct judgments *js, const char *path,
		    const char *version)
{
	static const char *const whats[] = {
		[JUDGED_UNIT] = "unit", [JUDGED_FSTYPE] = "fstype",
		[JUDGED_USE] = "use", [JUDGED_QUIESCED] = "quiesced",
		[JUDGED_FLAGGED] = "flagged",
	};
	char *own = path ? NULL : beside_helper("policy/judgments.tsv");
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	FILE *f;

	memset(js, 0, sizeof(*js));
	if (!path && !own)
		af_die(EXIT_BADINPUT, NULL, "no policy/judgments.tsv beside "
		       "the helper (give --judgments FILE)");
	if (!path)
		path = own;
	f = fopen(path, "r");
	if (!f)
		af_die(EXIT_BADINPUT, path, "%s", strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		char *field[7], *s = line;
		struct judgment j = { 0 };
		size_t n = 0, w;

		lineno++;
		s[strcspn(s, "\r\n")] = '\0';
		if (!*s || *s == '#')
			continue;
		while (n < 7) {
			field[n++] = s;
			s = strchr(s, '\t');
			if (!s)
				break;
			*s++ = '\0';
		}
		if (n < 7 || s)
			af_die(EXIT_BADINPUT, path, "line %u: not 7 "
			       "tab-separated fields", lineno);
		for (w = 0; w < ARRAY_SIZE(whats); w++)
			if (!strcmp(field[2], whats[w]))
				break;
		if (w == ARRAY_SIZE(whats))
			af_die(EXIT_BADINPUT, path, "line %u: \"%s\" is not "
			       "unit, fstype, use, quiesced or flagged",
			       lineno, field[2]);
		if (!*field[5] || !*field[6] ||
		    (w != JUDGED_UNIT && !strcmp(field[3], "-")))
			af_die(EXIT_BADINPUT, path, "line %u: a judgment needs "
			       "a name, a code and its evidence", lineno);
		if ((w == JUDGED_QUIESCED) != !strcmp(field[5], "quiesced"))
			af_die(EXIT_BADINPUT, path, "line %u: the code "
			       "\"quiesced\" goes with a quiesced judgment, "
			       "and only there", lineno);
		if (!holds_for(field[0], version))
			continue;
		j.what = w;
		j.unit = xstrdup(field[1]);
		j.name = xstrdup(field[3]);
		j.match = strcmp(field[4], "-") ? xstrdup(field[4]) : NULL;
		j.code = xstrdup(field[5]);
		j.evidence = xstrdup(field[6]);
		vec_push(&js->v, j);
	}
	if (ferror(f))
		af_die(EXIT_RUNTIME, path, "%s", strerror(errno));
	fclose(f);
	free(line);
	free(own);
}

void judgments_free(struct judgments *js)
{
	size_t i;

	for (i = 0; i < js->v.n; i++) {
		free(js->v.v[i].unit);
		free(js->v.v[i].name);
		free(js->v.v[i].match);
		free(js->v.v[i].code);
		free(js->v.v[i].evidence);
	}
	vec_free(&js->v);
}

static const struct judgment *find(const struct judgments *js,
				   enum judged_what what, const char *unit,
				   const char *name)
{
	size_t i;

	for (i = 0; i < js->v.n; i++) {
		const struct judgment *j = &js->v.v[i];

		if (j->what == what && !strcmp(j->unit, unit) &&
		    (!name || !strcmp(j->name, name)))
			return j;
	}
	return NULL;
}

const struct judgment *judged_unit(const struct judgments *js,
				   const char *unit)
{
	return find(js, JUDGED_UNIT, unit, NULL);
}

const struct judgment *judged_fstype(const struct judgments *js,
				     const char *unit, const char *name)
{
	return find(js, JUDGED_FSTYPE, unit, name);
}

const struct judgment *judged_flagged(const struct judgments *js,
				      const char *unit, const char *name)
{
	return find(js, JUDGED_FLAGGED, unit, name);
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
	FILE *f = fopen(path, "r");
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

static const struct judgment *judged_at(const struct judgments *js,
					enum judged_what what,
					const char *unit, const char *fn,
					const char *path, unsigned int line)
{
	size_t i;

	for (i = 0; i < js->v.n; i++) {
		const struct judgment *j = &js->v.v[i];
		char *text;
		bool hit;

		if (j->what != what || strcmp(j->unit, unit) ||
		    !fn || strcmp(j->name, fn))
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

const struct judgment *judged_use(const struct judgments *js,
				  const char *unit, const char *fn,
				  const char *path, unsigned int line)
{
	return judged_at(js, JUDGED_USE, unit, fn, path, line);
}

const struct judgment *judged_quiesced(const struct judgments *js,
				       const char *unit, const char *fn,
				       const char *path, unsigned int line)
{
	return judged_at(js, JUDGED_QUIESCED, unit, fn, path, line);
}
