// SPDX-License-Identifier: GPL-2.0
/*
 * convrun.c - the rules' runs of "autofreeze convert" (convert.c):
 * each rule through the spatch runner (spatch.c) in J processes, or
 * from the result cache (cache.c), its messages, parse errors among
 * them, in a log directory of OUT; the removal rules over every unit in
 * one run, or one run per unit when a thread name collides; the flag
 * rule per unit, J units at a time.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "convert.h"
#include "convplan.h"
#include "proc.h"
#include "scan.h"

/*
 * DIR's entries whose names start with PREFIX and end with SUFFIX, as
 * DIR/NAME, sorted, appended to OUT.
 */
static void entries(const char *dir, const char *prefix, const char *suffix,
		    strvec *out)
{
	size_t lp = strlen(prefix), ls = strlen(suffix), n, first = out->n;
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		n = strlen(d->d_name);
		if (d->d_name[0] != '.' && n >= lp + ls &&
		    !strncmp(d->d_name, prefix, lp) &&
		    !strcmp(d->d_name + n - ls, suffix))
			vec_push(out, xasprintf("%s/%s", dir, d->d_name));
	}
	closedir(dp);
	xqsort(out->v + first, out->n - first, sizeof(*out->v), cmp_strp);
}

/*
 * The last line of the files FILES that is not blank, or NULL; with
 * PREFIX, the first line that starts with it.
 */
static char *find_line(const strvec *files, const char *prefix)
{
	strvec lines = { 0 };
	char *found = NULL;
	size_t i, j;

	for (i = 0; i < files->n && !(prefix && found); i++) {
		strvec_free(&lines);
		read_lines(files->v[i], &lines);
		for (j = 0; j < lines.n; j++) {
			if (prefix ? strncmp(lines.v[j], prefix, strlen(prefix))
				   : !lines.v[j][strspn(lines.v[j], " \t\r\v\f")])
				continue;
			free(found);
			found = xstrdup(lines.v[j]);
			if (prefix)
				break;
		}
	}
	strvec_free(&lines);
	return found;
}

/* The last line of the file PATH (tail -n 1), NULL when it is blank. */
static char *last_line(const char *path)
{
	strvec lines = { 0 };
	char *s = NULL;

	if (read_lines(path, &lines) && lines.n && *lines.v[lines.n - 1])
		s = xstrdup(lines.v[lines.n - 1]);
	strvec_free(&lines);
	return s;
}

/* cat DIR/(*SUFFIX) >>OUT/NAME */
static void append_files(struct conv *c, const char *name, const char *dir,
			 const char *suffix)
{
	char *p = conv_path(c, name), *text;
	FILE *f = fopen(p, "a");
	strvec files = { 0 };
	size_t i;

	entries(dir, "", suffix, &files);
	for (i = 0; f && i < files.n; i++) {
		text = file_text(files.v[i]);
		if (!text)
			conv_fail(c);
		fputs(text, f);
		free(text);
	}
	if (!f || ferror(f) | fclose(f))
		conv_fail(c);
	strvec_free(&files);
	free(p);
}

/*
 * run_rule: spatch in J processes through the helper's runner, each
 * process's messages, parse errors among them (--verbose-parsing), in
 * LOG/NNNN.err.  MODE
 *   patch   converts b/ in place (paths relative to b/);
 *   both    converts b/ and appends the rule's report-mode messages to
 *           OUT/rules: for the first rule, while b/ is still a/;
 *   report  appends the report-mode messages on the untouched a/;
 *   check   likewise, with the parse errors, for "unparsed".
 * ARGS: the -D words, ":::", the files.  --no-show-diff: spatch does
 * not print, and so does not parse again, the file it wrote.
 */
void conv_run_rule(struct conv *c, const char *mode, const char *rule,
		   const char *log, const strvec *args)
{
	static const char *const modes[][8] = {
		{ "patch", "--quiet", "--verbose-parsing", "-D", "patch",
		  "--in-place" },
		{ "both", "--quiet", "--verbose-parsing", "-D", "patch", "-D",
		  "report", "--in-place" },
		{ "report", "--very-quiet", "-D", "report" },
		{ "check", "--quiet", "--verbose-parsing", "-D", "report" },
	};
	strvec opts = { 0 }, run = { 0 }, errs = { 0 };
	char *in = conv_path(c, strcmp(mode, "report") && strcmp(mode, "check") ?
		      "b" : "a");
	char *rp = xasprintf("%s/%s.cocci", c->rules, rule), *why, *lr;
	size_t i, k, nopts;

	conv_push(&opts, "--no-includes");
	conv_push(&opts, "--include-headers");
	conv_push(&opts, "--no-show-diff");
	for (k = 0; k < ARRAY_SIZE(modes) && strcmp(modes[k][0], mode); k++)
		;
	for (i = 1; k < ARRAY_SIZE(modes) && i < 8 && modes[k][i]; i++)
		conv_push(&opts, modes[k][i]);
	nopts = opts.n;
	conv_push(&opts, "--");
	for (i = 0; i < args->n; i++)
		conv_push(&opts, args->v[i]);
	if (!cache_get(&c->cache, log, in, mode, rule, rp, opts.v, opts.n)) {
		char jobs[32];

		snprintf(jobs, sizeof(jobs), "%ld", c->jobs);
		conv_push(&run, "spatch");
		conv_push(&run, "-G");
		conv_push(&run, "-j");
		conv_push(&run, jobs);
		conv_push(&run, "-o");
		conv_push(&run, log);
		conv_push(&run, "--");
		for (i = 0; i < opts.n; i++) {
			if (i == nopts) {
				conv_push(&run, "--sp-file");
				conv_push(&run, rp);
			} else {
				conv_push(&run, opts.v[i]);
			}
		}
		lr = xasprintf("%s.runner", log);
		vec_push(&run, NULL);
		if (proc_call(cmd_spatch, run.v, in, NULL, lr) != 0) {
			entries(log, "", ".err", &errs);
			why = find_line(&errs, NULL);
			if (!why)
				why = last_line(lr);
			if (why)
				fprintf(stderr, "%s: spatch failed on cocci/%s.cocci: %s\n",
					c->prog, rule, why);
			else
				fprintf(stderr, "%s: spatch failed on cocci/%s.cocci: it said nothing (is TMPDIR=%s full?)\n",
					c->prog, rule, getenv("TMPDIR") &&
					*getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
			exit(1);
		}
		run.n--;
		free(lr);
	}
	/*
	 * --in-place writes the result with cp, and a cp that fails does
	 * not change spatch's exit status: a file left unconverted.
	 */
	strvec_free(&errs);
	entries(log, "", ".err", &errs);
	why = find_line(&errs, "cp: ");
	if (why) {
		fprintf(stderr, "%s: spatch could not write its result on cocci/%s.cocci: %s\n",
			c->prog, rule, why);
		exit(2);
	}
	cache_put(&c->cache, log, in, mode);
	if (strcmp(mode, "patch"))
		append_files(c, "rules", log, ".out");
	strvec_free(&opts);
	strvec_free(&run);
	strvec_free(&errs);
	free(in);
	free(rp);
}

/*
 * The removal rules over the files of UNIT (NULL: of every unit in one
 * run).  MODE patch converts b/, and with --report gives the rules'
 * messages on the original code too: kthread_freezer's from its patch
 * run (it runs first, on b/ as a/ is), wq_freezable's from a report run
 * on a/.  MODE check: the messages on a/ alone.
 */
static void rule_units(struct conv *c, const char *mode, const char *unit)
{
	const char *kmode = !strcmp(mode, "patch") && c->report ? "both" : mode;
	strvec files = { 0 }, wqfiles = { 0 }, defs = { 0 }, keeps = { 0 };
	char *tag = xstrdup(""), *log, *p;
	size_t i;

	if (unit) {
		free(tag);
		tag = xasprintf("-%s", unit);
		for (p = tag; *p; p++)
			if (*p == '/')
				*p = '-';
	}
	rule_files(&c->spatch_plan, &c->scan, "task", unit, &files);
	rule_files(&c->spatch_plan, &c->scan, "wq", unit, &wqfiles);
	plan_rule_defs(&c->spatch_plan, "kthread_freezer", unit, c->renamed,
		       &defs);
	plan_rule_defs(&c->spatch_plan, "wq_freezable", unit, c->renamed,
		       &keeps);
	conv_push(&defs, ":::");
	conv_push(&keeps, ":::");
	for (i = 0; i < files.n; i++)
		conv_push(&defs, files.v[i]);
	for (i = 0; i < wqfiles.n; i++)
		conv_push(&keeps, wqfiles.v[i]);
	if (files.n) {
		log = xasprintf("%s/log-kthread%s", c->out, tag);
		conv_run_rule(c, kmode, "kthread_freezer", log, &defs);
		free(log);
	}
	if (wqfiles.n) {
		log = xasprintf("%s/log-wq%s", c->out, tag);
		conv_run_rule(c, mode, "wq_freezable", log, &keeps);
		free(log);
		if (!strcmp(kmode, "both")) {
			log = xasprintf("%s/log-wq-report%s", c->out, tag);
			conv_run_rule(c, "report", "wq_freezable", log, &keeps);
			free(log);
		}
	}
	strvec_free(&files);
	strvec_free(&wqfiles);
	strvec_free(&defs);
	strvec_free(&keeps);
	free(tag);
}

void conv_rule_pass(struct conv *c, const char *mode)
{
	strvec files = { 0 };
	size_t i;

	if (!*c->collide) {
		rule_units(c, mode, NULL);
		return;
	}
	for (i = 0; i < c->units.n; i++) {
		if (!strcmp(mode, "patch")) {
			plan_cols(&c->spatch_plan, "file", 3, c->units.v[i],
				  &files);
			conv_progress(c, "%s: %zu files", c->units.v[i], files.n);
			strvec_free(&files);
		}
		rule_units(c, mode, c->units.v[i]);
	}
}

/*
 * "unparsed", from the logs of the removal rules' runs that have the
 * parse errors (--verbose-parsing: not the report runs of
 * wq_freezable).  Each rule sees only the files with a use of its kind,
 * so the two together have been told of every file.
 */
void conv_list_unparsed(struct conv *c)
{
	strvec dirs = { 0 }, logs = { 0 }, args = { 0 };
	size_t i;

	entries(c->out, "log-kthread", "", &dirs);
	for (i = 0; i < dirs.n; i++)
		entries(dirs.v[i], "", ".err", &logs);
	xqsort(logs.v, logs.n, sizeof(*logs.v), cmp_strp);
	strvec_free(&dirs);
	entries(c->out, "log-wq", "", &dirs);
	i = logs.n;
	for (size_t j = 0; j < dirs.n; j++) {
		char *base = strrchr(dirs.v[j], '/') + 1;

		if (strncmp(base, "log-wq-report", 13))
			entries(dirs.v[j], "", ".err", &logs);
	}
	xqsort(logs.v + i, logs.n - i, sizeof(*logs.v), cmp_strp);
	conv_push(&args, "unparsed");
	conv_push(&args, "plan.spatch");
	conv_push(&args, "scan-before");
	for (i = 0; i < logs.n; i++)
		conv_push(&args, logs.v[i]);
	conv_must(c, conv_call(c, cmd_unparsed, c->out, "unparsed", NULL, &args));
	strvec_free(&dirs);
	strvec_free(&logs);
	strvec_free(&args);
}

/*
 * A failed flag run stops the others, and so does this one; a run that
 * cannot be waited for is a step that broke.
 */
static void flag_wait(struct conv *c, pid_t pid, pid_t *pids, size_t n)
{
	int st, rc;
	size_t i;
	pid_t got;

	do
		got = waitpid(pid, &st, 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		rc = -1;
	else
		rc = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
	if (!rc)
		return;
	for (i = 0; i < n; i++)
		if (pids[i] != pid)
			kill(pids[i], SIGTERM);
	while (wait(&st) >= 0 || errno == EINTR)
		;
	if (rc < 0)
		conv_fail(c);
	exit(rc);
}

/*
 * The flag, one run a unit, since a type's name says nothing of its
 * unit (ext4 has an ext2_fs_type too); J of them at a time.
 */
void conv_flag_runs(struct conv *c, const strvec *flags)
{
	strvec args = { 0 }, tfiles = { 0 };
	pid_t *pids = xcalloc(flags->n + 1, sizeof(*pids));
	size_t i, j, first = 0, n = 0;
	char *u, *types, *log, *p;
	pid_t pid;

	for (i = 0; i < flags->n; i++) {
		if (strncmp(flags->v[i], "flag\t", 5))
			continue;
		u = tsv_col(flags->v[i], 2);
		types = tsv_col(flags->v[i], 3);
		plan_cols(&c->spatch_plan, "fstype", 4, u, &tfiles);
		sort_uniq(&tfiles);
		vec_push(&args, xstrdup("-D"));
		vec_push(&args, xasprintf("fs_types=%s", types));
		vec_push(&args, xstrdup("-D"));
		vec_push(&args, xasprintf("flag=%s", c->flag));
		conv_push(&args, ":::");
		for (j = 0; j < tfiles.n; j++)
			conv_push(&args, tfiles.v[j]);
		log = xasprintf("%s/log-flag-%s", c->out, u);
		for (p = log + strlen(c->out) + 10; *p; p++)
			if (*p == '/')
				*p = '-';
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			conv_fail(c);
		if (!pid) {
			conv_run_rule(c, "patch", "fs_autofreeze", log, &args);
			exit(0);
		}
		pids[n++] = pid;
		strvec_free(&args);
		strvec_free(&tfiles);
		free(u);
		free(types);
		free(log);
		if (n - first < (size_t)c->jobs)
			continue;
		flag_wait(c, pids[first], pids + first, n - first);
		first++;
	}
	for (; first < n; first++)
		flag_wait(c, pids[first], pids + first, n - first);
	free(pids);
}
