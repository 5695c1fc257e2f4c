// SPDX-License-Identifier: GPL-2.0
/*
 * annotate-tests.c - unit tests of "autofreeze annotate" (annotate.c):
 * which lines are findings, and what GitHub and GitLab are given for
 * them.  Run from unit-tests.c's main().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "unit.h"
#include "util.h"

/* a line, and "FILE|LINE|COL|SEVERITY|MESSAGE" or NULL: no finding */
static const struct {
	const char *line, *want;
} parse_cases[] = {
	{ "fs/xfs/xfs_trans_ail.c:721:3: error: try_to_freeze in kernel thread xfsaild(): x",
	  "fs/xfs/xfs_trans_ail.c|721|3|error|try_to_freeze in kernel thread xfsaild(): x" },
	/* a colon in the file name, and a finding's shape in the message */
	{ "fs/a:b.c:2:0: warning: see c.c:1:1: error: no",
	  "fs/a:b.c|2|0|warning|see c.c:1:1: error: no" },
	{ "fs/super.c:1:1: note: ", "fs/super.c|1|1|note|" },
	{ "check-tree.sh: fs: 1 unit with FS_AUTOFREEZE checked: 0 errors", NULL },
	{ "fs/x.c:0:1: error: line 0", NULL },
	{ "fs/x.c:1:: error: no column", NULL },
	{ ":1:1: error: no file", NULL },
	{ "fs/x.c:1:1: fatal: unknown severity", NULL },
	{ "fs/x.c:1:1:error: no space", NULL },
};

/* what FN writes of A, malloc'ed */
static char *written(void (*fn)(FILE *, const struct annotation *, size_t),
		     const struct annotation *a, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	fn(f, a, n);
	fclose(f);
	return s;
}

static void github_one(FILE *f, const struct annotation *a, size_t n)
{
	(void)n;
	annotation_github(f, a);
}

void test_annotate(void)
{
	struct annotation a[3];
	size_t i;
	char *s, *t;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		char *l = xstrdup(parse_cases[i].line);
		bool ok = annotation_parse(l, &a[0]);

		s = ok ? xasprintf("%s|%ld|%ld|%s|%s", a[0].file, a[0].line,
				   a[0].col, a[0].severity, a[0].msg) : NULL;
		check_str(s ? s : "(none)", parse_cases[i].want ?
			  parse_cases[i].want : "(none)", parse_cases[i].line);
		free(s);
		free(l);
	}

	/* GitHub: ',' and ':' end a property, %, CR and LF a command */
	a[0] = (struct annotation){ "fs/a,b:c.c", "error", "50% done\nnext", 7, 2 };
	s = written(github_one, a, 1);
	check_str(s, "::error file=fs/a%2Cb%3Ac.c,line=7,col=2::50%25 done%0Anext\n",
		  "github: escaped");
	free(s);
	a[0].severity = "note";
	s = written(github_one, a, 1);
	check(!strncmp(s, "::notice file=", 14), "github: a note is a notice");
	free(s);

	s = written(annotation_codequality, a, 0);
	check_str(s, "[]\n", "codequality: no finding, an empty array");
	free(s);

	/* the same finding twice in a file: two fingerprints */
	a[0] = (struct annotation){ "fs/x \"q\".c", "error", "m", 3, 1 };
	a[1] = a[0];
	a[1].line = 9;
	a[2] = (struct annotation){ "fs/y.c", "warning", "m", 3, 1 };
	s = written(annotation_codequality, a, 3);
	check(!strncmp(s, "[\n {\"description\":\"m\",\"check_name\":"
		       "\"autofreeze-check-tree\",\"fingerprint\":\"", 66),
	      "codequality: the first finding");
	check(strstr(s, "\"severity\":\"major\",\"location\":{\"path\":"
		     "\"fs/x \\\"q\\\".c\",\"lines\":{\"begin\":3}}}") != NULL,
	      "codequality: an error is major, the path quoted");
	check(strstr(s, "\"severity\":\"minor\"") != NULL,
	      "codequality: a warning is minor");
	t = s;
	{
		char fp[3][17] = { "" };
		size_t k = 0;

		while (k < 3 && (t = strstr(t, "\"fingerprint\":\""))) {
			t += 15;
			snprintf(fp[k++], sizeof(fp[0]), "%.16s", t);
		}
		check(k == 3 && strcmp(fp[0], fp[1]) && strcmp(fp[0], fp[2]) &&
		      strcmp(fp[1], fp[2]), "codequality: fingerprints differ");
		/* the line is not in it: moved, the same finding */
		a[0].line = 4;
		free(s);
		s = written(annotation_codequality, a, 1);
		check(strstr(s, fp[0]) != NULL,
		      "codequality: a finding that moves keeps its fingerprint");
	}
	check(s[strlen(s) - 2] == ']', "codequality: the array closed");
	free(s);
}
