// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - "autofreeze report": every freezer use with its verdict
 * (verdict.h), unit by unit, as text or JSON.
 *
 * cmd_report() reads the plan, the flags, the unparsed list, the rules'
 * messages and the scan; print_report() gives each use its verdict and
 * counts them, then prints the text report (print_text(): the units'
 * table, print_table(), then each unit, its lines wrapped or cut at
 * REPORT_COLS columns by put_wrapped() and put_cut()), the JSON one
 * (print_json(), its layout versioned by REPORT_SCHEMA) or what
 * series.sh writes its changelogs from (print_changelog(), the uses
 * grouped by usegroups.h).  It decides only how a unit reads at a
 * glance: unit_verdict().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "planfile.h"
#include "report.h"
#include "scan.h"
#include "usegroups.h"
#include "util.h"
#include "verdict.h"

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
		       strerror(errno));
	json_str(f, s);
	fclose(f);
	return buf;
}

/*
 * A note of the plan ("CODE: EVIDENCE") as the report gives it: its
 * evidence, the caveat a changelog of the unit's conversion carries.  A
 * unit left whole is not converted, and carries none.
 */
static const char *note_text(const char *note)
{
	const char *e = strstr(note, ": ");

	return e ? e + 2 : note;
}

/*
 * The text report's width, tabs every 8 columns: checkpatch's, so that
 * a report line shows whole in a terminal or an email.
 */
#define REPORT_COLS 100

/*
 * The column after byte C of a line, C at column COL: a tab goes to the
 * next multiple of 8; a UTF-8 sequence takes one column, at its first
 * byte.
 */
static size_t next_col(size_t col, unsigned char c)
{
	if (c == '\t')
		return (col / 8 + 1) * 8;
	return (c & 0xc0) == 0x80 ? col : col + 1;
}

/*
 * Put LEAD and the N bytes of S on F as one line of at most REPORT_COLS
 * columns: a longer one is cut, at a space when one is within 12
 * columns of the end, and ends in "...".  Returns whether it was cut.
 */
static bool put_cut(FILE *f, const char *lead, const char *s, size_t n)
{
	size_t col = 0, i, end = 0, space = 0;
	const char *c;

	for (c = lead; *c; c++)
		col = next_col(col, (unsigned char)*c);
	for (i = 0; i < n && col <= REPORT_COLS; i++) {
		col = next_col(col, (unsigned char)s[i]);
		if (col <= REPORT_COLS - 3 &&
		    (i + 1 == n || ((unsigned char)s[i + 1] & 0xc0) != 0x80))
			end = i + 1;
		if (s[i] == ' ' && col <= REPORT_COLS - 3)
			space = i;
	}
	if (i == n && col <= REPORT_COLS) {
		fprintf(f, "%s%.*s\n", lead, (int)n, s);
		return false;
	}
	if (space && space + 12 >= end)
		end = space;
	while (end && strchr(" ,;:(", s[end - 1]))
		end--;
	fprintf(f, "%s%.*s...\n", lead, (int)end, s);
	return true;
}

/*
 * Put LEAD and S on F in lines of at most REPORT_COLS columns, broken at
 * spaces, the lines after the first led by MORE; a word longer than a
 * line is cut (put_cut()).  Returns whether one was.
 */
static bool put_wrapped(FILE *f, const char *lead, const char *more,
			const char *s)
{
	size_t col0 = 0, col, i;
	const char *line = s, *end = s, *w = s, *c;
	bool cut = false;

	for (c = lead; *c; c++)
		col0 = next_col(col0, (unsigned char)*c);
	col = col0;
	while (*w) {
		size_t wl = strcspn(w, " ");
		/* the spaces before the word, as they are */
		size_t wcol = col + (end > line ? (size_t)(w - end) : 0);

		for (i = 0; i < wl; i++)
			wcol = next_col(wcol, (unsigned char)w[i]);
		if (end > line && wcol > REPORT_COLS) {
			cut |= put_cut(f, lead, line, (size_t)(end - line));
			lead = more;
			for (col0 = 0, c = lead; *c; c++)
				col0 = next_col(col0, (unsigned char)*c);
			line = w;
			wcol = col0;
			for (i = 0; i < wl; i++)
				wcol = next_col(wcol, (unsigned char)w[i]);
		}
		col = wcol;
		end = w + wl;
		w = end + strspn(end, " ");
	}
	return put_cut(f, lead, line, (size_t)(end - line)) || cut;
}

/*
 * What the report says of a unit at a glance: "convert" (its types get
 * the flag, its uses are converted), "left-whole" (no flag, nothing
 * converted), "forced" (converted with FORCE=1, no flag), else its
 * status in the plan (skip, library, unreviewed, core, eligible).
 */
static const char *unit_verdict(const struct plan_unit *u)
{
	if (!u->flag_verdict)
		return u->status;
	if (!strcmp(u->flag_verdict, "flag"))
		return "convert";
	return strcmp(u->flag_verdict, "noflag") ? "forced" : "left-whole";
}

/* A unit the text report has something to say about. */
static bool unit_shown(const struct plan_unit *u)
{
	return u->uses.n || u->flag || !strcmp(u->status, "eligible");
}

static const char *const count_names[] = { "converted", "kept", "manual" };

/*
 * The text report's table: a row per unit shown, its verdict, its uses
 * converted, kept and manual, the types that get the flag.  Returns
 * whether a row was cut.
 */
static bool print_table(const struct plan *p)
{
	static const char *const head[] = { "UNIT", "VERDICT", "CONVERTED",
					    "KEPT", "MANUAL", "FLAG" };
	int w[5] = { 0 };
	size_t i, k;
	char *row = NULL;
	size_t len = 0;
	bool cut = false;
	FILE *f;

	for (k = 0; k < 5; k++)
		w[k] = (int)strlen(head[k]);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		if ((int)strlen(u->name) > w[0])
			w[0] = (int)strlen(u->name);
		if ((int)strlen(unit_verdict(u)) > w[1])
			w[1] = (int)strlen(unit_verdict(u));
		for (k = 0; k < 3; k++) {
			int d = snprintf(NULL, 0, "%zu", u->count[k]);

			if (d > w[k + 2])
				w[k + 2] = d;
		}
	}
	printf("%-*s  %-*s  %*s  %*s  %*s  %s\n", w[0], head[0], w[1],
	       head[1], w[2], head[2], w[3], head[3], w[4], head[4], head[5]);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		f = open_memstream(&row, &len);
		if (!f)
			af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
			       strerror(errno));
		fprintf(f, "%-*s  %-*s  %*zu  %*zu  %*zu  ", w[0], u->name,
			w[1], unit_verdict(u), w[2], u->count[0], w[3],
			u->count[1], w[4], u->count[2]);
		for (k = 0; k < u->flag_types.n; k++)
			fprintf(f, "%s%s", k ? "," : "", u->flag_types.v[k]);
		if (!u->flag_types.n)
			putc('-', f);
		fclose(f);
		cut |= put_cut(stdout, "", row, len);
		free(row);
		row = NULL;
	}
	return cut;
}

/*
 * The text report: the table, then unit by unit its line, its flag
 * line, its notes and its uses, then the totals.  With VERBOSE each
 * line is whole, the flag line with the mechanism of the freeze and
 * every use with its full reason; without, the mechanism comes once,
 * before the units, what a unit's line says is not said again under
 * it, the unit's lines are wrapped and each use's line is cut at
 * REPORT_COLS columns.
 */
static void print_text(const struct plan *p, bool verbose,
		       const size_t count[3])
{
	char *body = NULL, *t;
	size_t len = 0, i, k;
	bool cut = false;
	FILE *f = open_memstream(&body, &len);

	if (!f)
		af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
		       strerror(errno));
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		if (verbose) {
			fprintf(f, "%s: %s\n", u->name, u->reason);
			if (u->flag)
				fprintf(f, "\t%s\n", u->flag);
			for (k = 0; !u->whole && k < u->notes.n; k++)
				fprintf(f, "\tnote: %s\n",
					note_text(u->notes.v[k]));
			for (k = 0; k < u->uses.n; k++)
				fprintf(f, "\t%s\n", u->uses.v[k]);
			continue;
		}
		t = xasprintf("%s: %s", u->name, u->reason);
		cut |= put_wrapped(f, "", "    ", t);
		free(t);
		if (u->flag && !strcmp(u->flag_verdict, "flag")) {
			fprintf(f, "\t%s: ", plan_flag(p));
			for (k = 0; k < u->flag_types.n; k++)
				fprintf(f, "%s%s", k ? "," : "",
					u->flag_types.v[k]);
			putc('\n', f);
		} else if (u->flag) {
			cut |= put_wrapped(f, "\t", "\t    ", u->flag);
		}
		for (k = 0; !u->whole && k < u->notes.n; k++) {
			t = xasprintf("note: %s", note_text(u->notes.v[k]));
			cut |= put_wrapped(f, "\t", "\t    ", t);
			free(t);
		}
		for (k = 0; k < u->brief_uses.n; k++)
			cut |= put_cut(f, "\t", u->brief_uses.v[k],
				       strlen(u->brief_uses.v[k]));
	}
	fclose(f);
	cut |= print_table(p);
	if (!verbose && p->optin_text && *p->optin_text) {
		putchar('\n');
		t = xasprintf("%s: %s", plan_flag(p), p->optin_text);
		cut |= put_wrapped(stdout, "", "    ", t);
		free(t);
	}
	if (cut)
		printf("Lines that end in \"...\" are cut at %d columns: "
		       "make report V=1 or FORMAT=json gives them whole.\n",
		       REPORT_COLS);
	putchar('\n');
	fwrite(body, 1, len, stdout);
	free(body);
	printf("%zu converted, %zu kept, %zu manual\n", count[0], count[1],
	       count[2]);
}

/* JSON's list of strings V: [] when it is empty. */
static void json_strvec(const strvec *v)
{
	size_t k;

	putchar('[');
	for (k = 0; k < v->n; k++) {
		fputs(k ? "," : "", stdout);
		json_str(stdout, v->v[k]);
	}
	putchar(']');
}

/*
 * The JSON report.  Its layout is versioned by "schema_version": 2
 * added the unit's "verdict", "counts" and "flag" (verdict, types,
 * reason); "fs_autofreeze" is "flag"'s text of version 1, kept so that
 * a reader of version 1 goes on working.
 */
#define REPORT_SCHEMA 2

static void print_json(const struct plan *p, const size_t count[3])
{
	size_t i, k;

	printf("{\"schema_version\":%d,\"optin\":{\"state\":", REPORT_SCHEMA);
	json_str(stdout, p->optin_state ? p->optin_state : "none");
	fputs(",\"flag\":", stdout);
	if (p->optin_flag && strcmp(p->optin_flag, "-"))
		json_str(stdout, p->optin_flag);
	else
		fputs("null", stdout);
	fputs(",\"mechanism\":", stdout);
	json_str(stdout, p->optin_text ? p->optin_text : "");
	fputs("},\"units\":[", stdout);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		printf("%s{\"unit\":", i ? "," : "");
		json_str(stdout, u->name);
		fputs(",\"status\":", stdout);
		json_str(stdout, u->status);
		fputs(",\"reason\":", stdout);
		json_str(stdout, u->reason);
		fputs(",\"verdict\":", stdout);
		json_str(stdout, unit_verdict(u));
		printf(",\"converted\":%s,\"counts\":{",
		       u->converted ? "true" : "false");
		for (k = 0; k < 3; k++)
			printf("%s\"%s\":%zu", k ? "," : "", count_names[k],
			       u->count[k]);
		fputs("},\"flag\":", stdout);
		if (u->flag_verdict) {
			fputs("{\"verdict\":", stdout);
			json_str(stdout, u->flag_verdict);
			fputs(",\"types\":", stdout);
			json_strvec(&u->flag_types);
			fputs(",\"reason\":", stdout);
			json_str(stdout, u->flag_why);
			fputs(",\"text\":", stdout);
			json_str(stdout, u->flag);
			putchar('}');
		} else {
			fputs("null", stdout);
		}
		fputs(",\"fs_autofreeze\":", stdout);
		json_str(stdout, u->flag);
		fputs(",\"notes\":[", stdout);
		for (k = 0; !u->whole && k < u->notes.n; k++) {
			fputs(k ? "," : "", stdout);
			json_str(stdout, note_text(u->notes.v[k]));
		}
		fputs("],\"uses\":[", stdout);
		for (k = 0; k < u->json_uses.n; k++)
			printf("%s%s", k ? "," : "", u->json_uses.v[k]);
		fputs("]}", stdout);
	}
	printf("],\"totals\":{\"converted\":%zu,\"kept\":%zu,"
	       "\"manual\":%zu}}\n", count[0], count[1], count[2]);
}

/*
 * What series.sh writes a unit's changelog from, one fact a line,
 * "UNIT<TAB>KIND<TAB>TEXT", the units in plan order: for each unit its
 * "count" of uses (converted, kept and manual); for each unit the text
 * report shows, its "note" lines, as the text report has them, then its
 * "converted" and its "kept" uses in GROUPS, grouped by reason
 * (usegroups.h), one group a line.
 */
static void print_changelog(const struct plan *p,
			    const struct use_groups *groups)
{
	size_t i, k;

	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];
		char *lead;

		printf("%s\tcount\t%zu\n", u->name,
		       u->count[0] + u->count[1] + u->count[2]);
		if (!unit_shown(u))
			continue;
		for (k = 0; !u->whole && k < u->notes.n; k++)
			printf("%s\tnote\t%s\n", u->name,
			       note_text(u->notes.v[k]));
		for (k = 0; k < 2; k++) {
			lead = xasprintf("%s\t%s\t", u->name, count_names[k]);
			use_groups_print(stdout, &groups[i], lead,
					 count_names[k]);
			free(lead);
		}
	}
}

/* How cmd_report() prints the report. */
enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CHANGELOG };

static void print_report(struct verdict_inputs *in, enum report_format fmt,
			 bool verbose)
{
	struct plan *p = &in->plan;
	size_t i, k, count[3] = { 0 };
	struct use_groups *groups;

	groups = xcalloc(p->units.n ? p->units.n : 1, sizeof(*groups));
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *s = &in->uses.v[i];
		struct use_verdict v;
		char *j[8];
		struct plan_unit *u = plan_find(p, unit_of_path(p, s->at.file));
		const struct kept_use *q;

		use_verdict(in, s, &v);
		for (k = 0; k < 3; k++)
			if (!strcmp(v.status, count_names[k])) {
				count[k]++;
				if (u)
					u->count[k]++;
			}
		if (!u) {
			free(v.why);
			free(v.evidence);
			free(v.brief);
			continue;
		}
		if (fmt == REPORT_CHANGELOG)
			use_groups_add(&groups[u - p->units.v], s, &v);
		vec_push(&u->uses, xasprintf("%s:%ld:%s: %s: %s: %s",
					     s->at.file, s->at.line,
					     s->at.col, s->api, v.status,
					     v.why));
		vec_push(&u->brief_uses, xasprintf("%s:%ld:%s: %s: %s: %s",
						   s->at.file, s->at.line,
						   s->at.col, s->api, v.status,
						   v.brief ? v.brief : v.why));
		j[0] = json_of(s->at.file);
		j[1] = json_of(s->api);
		j[2] = json_of(s->ctx);
		j[3] = strcmp(s->fn, "-") ? json_of(s->fn) : xstrdup("null");
		j[4] = json_of(v.status);
		j[5] = json_of(v.why);
		j[6] = json_of(v.code);
		/*
		 * a conversion's evidence: what quiesces its work (a
		 * reviewed judgment), else the unit's freeze path
		 */
		q = strcmp(v.status, "converted") ? NULL : unit_quiesced(u, s);
		j[7] = strcmp(v.status, "converted") ? xstrdup("null") :
			json_of(q ? q->evidence : v.evidence ? v.evidence :
				u->reason);
		vec_push(&u->json_uses,
			 xasprintf("{\"file\":%s,\"line\":%ld,\"col\":%s,"
				   "\"api\":%s,\"context\":%s,\"function\":%s,"
				   "\"status\":%s,\"code\":%s,\"reason\":%s,"
				   "\"evidence\":%s}", j[0], s->at.line,
				   s->at.col, j[1], j[2], j[3], j[4], j[6],
				   j[5], j[7]));
		for (k = 0; k < 8; k++)
			free(j[k]);
		free(v.why);
		free(v.evidence);
		free(v.brief);
	}
	if (fmt == REPORT_JSON)
		print_json(p, count);
	else if (fmt == REPORT_CHANGELOG)
		print_changelog(p, groups);
	else
		print_text(p, verbose, count);
	for (i = 0; i < p->units.n; i++)
		use_groups_free(&groups[i]);
	free(groups);
}

bool format_is_json(const char *cmd, const char *format)
{
	if (strcmp(format, "json") && strcmp(format, "text"))
		af_die(EXIT_BADINPUT, NULL, "%s: unknown format '%s' (text or "
		       "json)", cmd, one_line(format));
	return !strcmp(format, "json");
}

/* The report's -f: check's two formats, and series.sh's changelog. */
static enum report_format report_format(const char *format)
{
	if (!strcmp(format, "changelog"))
		return REPORT_CHANGELOG;
	if (strcmp(format, "json") && strcmp(format, "text"))
		af_die(EXIT_BADINPUT, NULL, "report: unknown format '%s' (text, "
		       "json or changelog)", one_line(format));
	return format_is_json("report", format) ? REPORT_JSON : REPORT_TEXT;
}

int cmd_report(int argc, char **argv)
{
	struct verdict_inputs in = { 0 };
	enum report_format fmt = REPORT_TEXT;
	bool verbose = false;
	int opt;

	optind = 1;
	while ((opt = getopt(argc, argv, "+f:vh")) != -1) {
		switch (opt) {
		case 'f':
			fmt = report_format(optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			printf("usage: %s report [-f text|json|changelog] [-v] "
			       "PLAN FLAGS UNPARSED RULES SCAN\n", PROG);
			return 0;
		default:
			goto usage;
		}
	}
	if (argc - optind != 5)
		goto usage;
	verdict_inputs_read(&in, argv[optind], argv[optind + 1],
			    argv[optind + 2], argv[optind + 3], argv[optind + 4]);
	print_report(&in, fmt, verbose);
	verdict_inputs_free(&in);
	return 0;
usage:
	fprintf(stderr, "usage: %s report [-f text|json|changelog] [-v] PLAN "
		"FLAGS UNPARSED RULES SCAN\n", PROG);
	return EXIT_BADINPUT;
}
