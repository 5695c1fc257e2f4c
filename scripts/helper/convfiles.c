// SPDX-License-Identifier: GPL-2.0
/*
 * convfiles.c - the copies of "autofreeze convert" (convert.c): the
 * plan's files from KTREE into OUT/a and OUT/b (tar, cp -a: KTREE is
 * only read), and the plain names the files whose paths spatch cannot
 * take carry while the rules run, given back at the end; for check-tree
 * only the files with a freezer use; a unit that gets no flag put back
 * as it was, and the warnings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "convert.h"
#include "convplan.h"
#include "proc.h"

/*
 * The plan's files into a/ and b/.  spatch --in-place cannot write a
 * read-only copy, and says so only in its log, exit 0: the copies the
 * rules write are the user's to write.
 */
void conv_copy_files(struct conv *c)
{
	char *list = conv_path(c, "files0"), *a = conv_path(c, "a"), *b = conv_path(c, "b");
	char *from = xasprintf("%s/.", a);
	const char *tc[] = { "tar", "--null", "-T", list, "-cf", "-", NULL };
	const char *tx[] = { "tar", "-C", a, "-xf", "-", NULL };
	const char *cp[] = { "cp", "-a", from, b, NULL };
	const char *ch[] = { "chmod", "-R", "u+w", b, NULL };
	strvec files = { 0 };
	FILE *f = fopen(list, "w");
	int p[2], r1, r2;
	pid_t pid;
	size_t i;

	plan_cols(&c->plan, "file", 3, NULL, &files);
	for (i = 0; f && i < files.n; i++)
		fwrite(files.v[i], strlen(files.v[i]) + 1, 1, f);
	if (!f || ferror(f) | fclose(f) || pipe(p))
		conv_fail(c);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		conv_fail(c);
	if (!pid) {
		close(p[0]);
		exit(proc_run(tc, c->ktree, PROC_INHERIT, p[1], PROC_INHERIT) ?
		     1 : 0);
	}
	close(p[1]);
	r2 = proc_run(tx, NULL, p[0], PROC_INHERIT, PROC_INHERIT);
	close(p[0]);
	while (waitpid(pid, &r1, 0) < 0)
		if (errno != EINTR)
			conv_fail(c);
	if (r2 || !WIFEXITED(r1) || WEXITSTATUS(r1) ||
	    proc_run(cp, NULL, PROC_INHERIT, PROC_INHERIT, PROC_INHERIT) ||
	    proc_run(ch, NULL, PROC_INHERIT, PROC_INHERIT, PROC_INHERIT))
		conv_fail(c);
	strvec_free(&files);
	free(list);
	free(a);
	free(b);
	free(from);
}

static bool safe_name(const char *s)
{
	return *s && !s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+-")];
}

static void move(struct conv *c, const char *side, const char *from,
		 const char *to)
{
	char *f = xasprintf("%s/%s/%s", c->out, side, from);
	char *t = xasprintf("%s/%s/%s", c->out, side, to);

	if (rename(f, t)) {
		perror(f);
		conv_fail(c);
	}
	free(f);
	free(t);
}

/*
 * spatch hands file names to diff and cp through a shell unquoted, and
 * reads positions as FILE:LINE: a path with a space, a colon or another
 * special character, in its name or its directory's, gets a plain name
 * at the top of a/ and b/ while the rules run, and its own back at the
 * end.  plan.spatch is the plan with those names.
 */
void conv_rename_unsafe(struct conv *c)
{
	static const int cols[] = { 3, 4, 3 };
	static const char *const kinds[] = { "file", "fstype", "keep" };
	strvec names = { 0 };
	size_t i, j, k, n = 0;
	char *from, *to, *x, *line;

	plan_cols(&c->plan, "file", 3, NULL, &names);
	for (i = 0; i < names.n; i++) {
		if (safe_name(names.v[i]))
			continue;
		x = strrchr(names.v[i], '.');
		vec_push(&c->renames, xasprintf("%s\tautofreeze-safe-%zu.%s",
						 names.v[i], ++n, x ? x + 1 : names.v[i]));
	}
	strvec_free(&names);
	conv_store(c, "renames", &c->renames);
	for (i = 0; i < c->renames.n; i++) {
		from = tsv_col(c->renames.v[i], 1);
		to = tsv_col(c->renames.v[i], 2);
		move(c, "a", from, to);
		move(c, "b", from, to);
		conv_push(&names, to);
		free(from);
		free(to);
	}
	c->renamed = join(&names, ",");
	strvec_free(&names);
	for (i = 0; i < c->plan.n; i++) {
		line = xstrdup(c->plan.v[i]);
		for (k = 0; k < ARRAY_SIZE(kinds); k++) {
			size_t kl = strlen(kinds[k]);
			int col = cols[k];
			char *v, *p;

			if (strncmp(line, kinds[k], kl) || line[kl] != '\t')
				continue;
			v = tsv_col(line, col);
			for (j = 0; j < c->renames.n; j++) {
				from = tsv_col(c->renames.v[j], 1);
				if (!strcmp(from, v)) {
					/* the column rebuilt with its new name */
					to = tsv_col(c->renames.v[j], 2);
					p = line;
					for (n = 1; n < (size_t)col; n++)
						p = strchr(p, '\t') + 1;
					x = xasprintf("%.*s%s%s", (int)(p - line),
						      line, to, p + strlen(v));
					free(line);
					line = x;
					free(to);
				}
				free(from);
			}
			free(v);
		}
		vec_push(&c->spatch_plan, line);
	}
	conv_store(c, "plan.spatch", &c->spatch_plan);
}

/* S with every TO in it FROM again, malloc'ed */
static char *replace_all(const char *s, const char *to, const char *from)
{
	charvec v = { 0 };
	const char *p;

	while ((p = strstr(s, to))) {
		for (; s < p; s++)
			vec_push(&v, *s);
		for (p = from; *p; p++)
			vec_push(&v, *p);
		s += strlen(to);
	}
	for (; *s; s++)
		vec_push(&v, *s);
	vec_push(&v, '\0');
	return v.v;
}

/* The files their own names again, in a/, b/ and the lists. */
void conv_unrename(struct conv *c)
{
	static const char *const lists[] = { "flags", "unparsed", "rules" };
	strvec lines = { 0 };
	char *from, *to, *s;
	size_t i, k, j;

	for (i = 0; i < c->renames.n; i++) {
		from = tsv_col(c->renames.v[i], 1);
		to = tsv_col(c->renames.v[i], 2);
		move(c, "a", to, from);
		move(c, "b", to, from);
		for (k = 0; k < ARRAY_SIZE(lists); k++) {
			conv_load(c, lists[k], &lines);
			for (j = 0; j < lines.n; j++) {
				s = replace_all(lines.v[j], to, from);
				free(lines.v[j]);
				lines.v[j] = s;
			}
			conv_store(c, lists[k], &lines);
		}
		free(from);
		free(to);
	}
	strvec_free(&lines);
}

/* A plan line that is no file line, or the file line of one in FILES */
static bool has_use(const char *line, const struct strset *files)
{
	char *f = tsv_col(line, 3);
	bool keep = strncmp(line, "file\t", 5) || strset_has(files, f);

	free(f);
	return keep;
}

/* The files of plan.spatch with a freezer use in scan-before only. */
void conv_with_uses(struct conv *c)
{
	strvec files = { 0 };
	size_t i;
	char *f;

	for (i = 0; i < c->scan.n; i++) {
		f = xstrndup(c->scan.v[i], strcspn(c->scan.v[i], ":"));
		if (!files.n || strcmp(files.v[files.n - 1], f))
			vec_push(&files, f);
		else
			free(f);
	}
	conv_store(c, "with-uses", &files);
	conv_keep_lines(c, "plan.spatch", &c->spatch_plan, &files, has_use);
	strvec_free(&files);
}

/* PROG OPT A B (cp -p, diff -rq), its output to OUT */
static int run_pair(const char *prog, const char *opt, const char *a,
		    const char *b, int out)
{
	const char *argv[] = { prog, opt, a, b, NULL };

	return proc_run(argv, NULL, PROC_INHERIT, out, out);
}

/*
 * The warnings: a unit that gets no flag is put back as it was
 * ("noflag"), and one FORCE=1 converts without it said ("forced").
 */
void conv_warnings(struct conv *c, const strvec *flags)
{
	char *p = conv_path(c, "warnings"), *verdict, *u, *why, *a, *b;
	FILE *f = fopen(p, "w");
	strvec files = { 0 };
	size_t i, j;

	if (!f)
		conv_fail(c);
	for (i = 0; i < flags->n; i++) {
		verdict = tsv_col(flags->v[i], 1);
		u = tsv_col(flags->v[i], 2);
		why = strchr(flags->v[i], '\t');
		why = why && strchr(why + 1, '\t') ? strchr(why + 1, '\t') + 1 : "";
		if (!strcmp(verdict, "noflag")) {
			plan_cols(&c->plan, "file", 3, u, &files);
			for (j = 0; j < files.n; j++) {
				a = xasprintf("%s/a/%s", c->out, files.v[j]);
				b = xasprintf("%s/b/%s", c->out, files.v[j]);
				conv_must(c, run_pair("cp", "-p", a, b, PROC_INHERIT));
				free(a);
				free(b);
			}
			strvec_free(&files);
			fprintf(f, "%s: left as it is, it gets no %s: %s\n", u,
				c->flag, why);
		} else if (!strcmp(verdict, "forced")) {
			a = xasprintf("%s/a/%s", c->out, u);
			b = xasprintf("%s/b/%s", c->out, u);
			if (run_pair("diff", "-rq", a, b, PROC_NULL))
				fprintf(f, "%s: FORCE=1 converts it without %s: its threads no longer freeze and nothing freezes the filesystem (%s)\n",
					u, c->flag, why);
			free(a);
			free(b);
		}
		free(verdict);
		free(u);
	}
	if (ferror(f) | fclose(f))
		conv_fail(c);
	free(p);
}
