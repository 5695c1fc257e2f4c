// SPDX-License-Identifier: GPL-2.0
/*
 * annotate.c - "autofreeze annotate --github|--codequality": the
 * findings check-tree prints (annotate.h) turned into what a CI system
 * shows next to the code.  Read on standard input; the exit status is
 * annotate's own (0, or 2 on a line that is no finding): whether there
 * were findings is check-tree's to say.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "util.h"

static const char *const severities[] = { "error", "warning", "note" };

/* digits at *P, as a positive long, P moved past them; -1 if none */
static long parse_num(const char **p)
{
	long n = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++) {
		if (n > 100000000)
			return -1;
		n = n * 10 + (**p - '0');
	}
	return n;
}

bool annotation_parse(char *line, struct annotation *a)
{
	char *c;
	size_t i;

	for (c = strchr(line, ':'); c; c = strchr(c + 1, ':')) {
		const char *p = c + 1;
		long l, col;

		if (c == line)
			continue;
		l = parse_num(&p);
		if (l < 1 || *p++ != ':')
			continue;
		col = parse_num(&p);
		if (col < 0 || *p++ != ':' || *p++ != ' ')
			continue;
		for (i = 0; i < ARRAY_SIZE(severities); i++) {
			size_t n = strlen(severities[i]);

			if (!strncmp(p, severities[i], n) &&
			    !strncmp(p + n, ": ", 2))
				break;
		}
		if (i == ARRAY_SIZE(severities))
			continue;
		*c = '\0';
		a->file = line;
		a->line = l;
		a->col = col;
		a->severity = severities[i];
		a->msg = p + strlen(severities[i]) + 2;
		return true;
	}
	return false;
}

/*
 * S escaped for a workflow command: its data escapes %, CR and LF; a
 * property value (PROP) also the ':' and ',' that would end it.
 */
static void github_escaped(FILE *f, const char *s, bool prop)
{
	for (; *s; s++) {
		if (*s == '%' || *s == '\r' || *s == '\n' ||
		    (prop && (*s == ':' || *s == ',')))
			fprintf(f, "%%%02X", (unsigned char)*s);
		else
			putc(*s, f);
	}
}

void annotation_github(FILE *f, const struct annotation *a)
{
	/* GitHub's three levels: error, warning, notice */
	fprintf(f, "::%s file=", strcmp(a->severity, "note") ?
		a->severity : "notice");
	github_escaped(f, a->file, true);
	fprintf(f, ",line=%ld,col=%ld::", a->line, a->col);
	github_escaped(f, a->msg, false);
	putc('\n', f);
}

/* FNV-1a, 64 bits, of S and its terminating NUL, continuing from H */
static uint64_t fnv64(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

void annotation_codequality(FILE *f, const struct annotation *a, size_t n)
{
	size_t i, j;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		uint64_t h = fnv64(fnv64(0xcbf29ce484222325ULL, a[i].file),
				   a[i].msg);
		char nth[32];
		size_t same = 0;

		for (j = 0; j < i; j++)
			same += !strcmp(a[j].file, a[i].file) &&
				!strcmp(a[j].msg, a[i].msg);
		snprintf(nth, sizeof(nth), "%zu", same);
		h = fnv64(h, nth);
		fputs(i ? ",\n {\"description\":" : "\n {\"description\":", f);
		json_str(f, a[i].msg);
		fprintf(f, ",\"check_name\":\"autofreeze-check-tree\","
			"\"fingerprint\":\"%016llx\",\"severity\":\"%s\","
			"\"location\":{\"path\":", (unsigned long long)h,
			!strcmp(a[i].severity, "error") ? "major" :
			!strcmp(a[i].severity, "warning") ? "minor" : "info");
		json_str(f, a[i].file);
		fprintf(f, ",\"lines\":{\"begin\":%ld}}}", a[i].line);
	}
	fputs(n ? "\n]\n" : "]\n", f);
}

static int annotate_usage(FILE *f)
{
	fprintf(f, "usage: %s annotate --github|--codequality "
		"<FINDINGS\n", PROG);
	return f == stdout ? 0 : EXIT_BADINPUT;
}

int cmd_annotate(int argc, char **argv)
{
	VEC(struct annotation) all = { 0 };
	strvec lines = { 0 };
	bool github;
	char *buf = NULL;
	size_t cap = 0, i;
	ssize_t len;
	int rc = 0;

	if (argc == 2 && (!strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help")))
		return annotate_usage(stdout);
	if (argc != 2 || (strcmp(argv[1], "--github") &&
			  strcmp(argv[1], "--codequality")))
		return annotate_usage(stderr);
	github = !strcmp(argv[1], "--github");

	/* all read before anything is written: no half a report */
	while ((len = getline(&buf, &cap, stdin)) >= 0) {
		struct annotation a;
		char *l;

		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (!len)
			continue;
		l = xstrdup(buf);
		vec_push(&lines, l);
		if (!annotation_parse(l, &a)) {
			char *shown = one_line(buf);

			af_warn(NULL, "annotate: not a FILE:LINE:COL: error: "
				"MESSAGE line: %s", shown);
			free(shown);
			rc = EXIT_BADINPUT;
			goto out;
		}
		vec_push(&all, a);
	}
	if (ferror(stdin)) {
		af_warn(NULL, "annotate: read error on standard input");
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (github)
		for (i = 0; i < all.n; i++)
			annotation_github(stdout, &all.v[i]);
	else
		annotation_codequality(stdout, all.v, all.n);
	rc = flush_stdout();
out:
	free(buf);
	vec_free(&all);
	strvec_free(&lines);
	return rc;
}
