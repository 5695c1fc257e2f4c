// SPDX-License-Identifier: GPL-2.0
/*
 * convert.c - "autofreeze convert": convert the units of DIR in KTREE
 * into the scratch directory OUT, the way make diff, apply, report and
 * check-tree need it (scripts/lib/convert.sh checks the arguments and
 * runs it).  The plan says which units to convert, their candidate
 * files, thread functions and freeze-capable types; their files are
 * copied to OUT/a and OUT/b; the removal rules run on b/ through the
 * spatch runner (with the result cache, cache.c), then the flag rule on
 * the units that get the flag; a unit that gets none is put back.  The
 * helper's commands each step needs (plan, scan, runs, unparsed, flags,
 * check --select, spatch) run in a forked child, their output into
 * OUT's files; tar, cp and diff are run without a shell.  KTREE is only
 * read.  OUT's files are described at the top of convert.sh.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "convert.h"
#include "convplan.h"
#include "proc.h"
#include "scan.h"

/* A step that broke: one line, exit 2 (the drivers' 1 means findings). */
void conv_fail(struct conv *c)
{
	fprintf(stderr, "%s: %s: a step of the conversion failed (above); the tree was only read\n",
		c->prog, c->dir);
	exit(2);
}

void conv_progress(struct conv *c, const char *fmt, ...)
{
	va_list ap;

	if (!isatty(2))
		return;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", c->prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

char *conv_path(struct conv *c, const char *name)
{
	return xasprintf("%s/%s", c->out, name);
}

/* Run the helper's command ARGS... in DIR, its stdout into OUT's NAME. */
int conv_call(struct conv *c, subcommand *fn, const char *dir,
	      const char *name, const char *err, strvec *args)
{
	char *o = name ? conv_path(c, name) : NULL, *e = err ? conv_path(c, err) : NULL;
	int rc;

	vec_push(args, NULL);
	rc = proc_call(fn, args->v, dir, o, e);
	args->n--;
	free(o);
	free(e);
	return rc;
}

void conv_must(struct conv *c, int rc)
{
	if (rc)
		conv_fail(c);
}

void conv_load(struct conv *c, const char *name, strvec *lines)
{
	char *p = conv_path(c, name);

	strvec_free(lines);
	if (!read_lines(p, lines))
		conv_fail(c);
	free(p);
}

/* OUT's NAME made of LINES (each with a newline). */
void conv_store(struct conv *c, const char *name, const strvec *lines)
{
	char *p = conv_path(c, name);
	FILE *f = fopen(p, "w");
	size_t i;

	for (i = 0; f && i < lines->n; i++)
		fprintf(f, "%s\n", lines->v[i]);
	if (!f || ferror(f) | fclose(f))
		conv_fail(c);
	free(p);
}

void conv_push(strvec *v, const char *s)
{
	vec_push(v, xstrdup(s));
}

/* plan, its messages as ours; a refusal of its is ours. */
static void make_plan(struct conv *c)
{
	strvec args = { 0 }, err = { 0 };
	size_t i;
	int rc;

	conv_push(&args, "plan");
	if (c->force)
		conv_push(&args, "--force");
	if (c->judgments) {
		conv_push(&args, "--judgments");
		conv_push(&args, c->judgments);
	}
	conv_push(&args, c->ktree);
	conv_push(&args, c->dir);
	rc = conv_call(c, cmd_plan, NULL, "plan", "plan.err", &args);
	conv_load(c, "plan.err", &err);
	for (i = 0; i < err.n; i++)
		if (!strncmp(err.v[i], PROG ": ", strlen(PROG ": ")))
			fprintf(stderr, "%s: %s\n", c->prog,
				err.v[i] + strlen(PROG ": "));
		else
			fprintf(stderr, "%s\n", err.v[i]);
	strvec_free(&args);
	strvec_free(&err);
	if (rc)
		exit(rc);
	conv_load(c, "plan", &c->plan);
}

/*
 * LINES cut to those KEEP() takes, given the set of NAMES, and written
 * to OUT/NAME: the plan of the units the gate looks at, plan.spatch of
 * the files with a use.
 */
void conv_keep_lines(struct conv *c, const char *name, strvec *lines,
		     const strvec *names,
		     bool (*keep)(const char *line, const struct strset *names))
{
	strvec kept = { 0 };
	struct strset set = { 0 };
	size_t i;

	for (i = 0; i < names->n; i++)
		strset_add(&set, names->v[i]);
	for (i = 0; i < lines->n; i++)
		if (keep(lines->v[i], &set))
			conv_push(&kept, lines->v[i]);
	conv_store(c, name, &kept);
	strvec_free(lines);
	*lines = kept;
	strset_free(&set);
}

/* The plan's option and optin lines, and those of the UNITS selected */
static bool selected(const char *line, const struct strset *units)
{
	char *u = tsv_col(line, 2);
	bool keep = !strncmp(line, "option\t", 7) ||
		    !strncmp(line, "optin\t", 6) || strset_has(units, u);

	free(u);
	return keep;
}

/* check-tree: the units the gate looks at, and nothing else. */
static void select_units(struct conv *c)
{
	strvec args = { 0 }, sel = { 0 };

	conv_push(&args, "check");
	conv_push(&args, "--select");
	if (c->touched) {
		conv_push(&args, "--touched");
		conv_push(&args, c->touched);
	}
	conv_push(&args, "plan");
	conv_must(c, conv_call(c, cmd_check, c->out, "selected", NULL, &args));
	conv_load(c, "selected", &sel);
	conv_keep_lines(c, "plan", &c->plan, &sel, selected);
	strvec_free(&sel);
	strvec_free(&args);
}

/* Column COL of the plan's optin line ("" without one). */
static char *optin(struct conv *c, int col)
{
	strvec v = { 0 };
	char *s;

	plan_cols(&c->plan, "optin", col, NULL, &v);
	s = xstrdup(v.n ? v.v[0] : "");
	strvec_free(&v);
	return s;
}

/*
 * The opt-in flag is the tree's: never write one it does not define.
 * make diff refuses too, since its diff could not apply and compile.
 */
static void refuse(struct conv *c)
{
	char *state = optin(c, 2), *where = optin(c, 5), *text = optin(c, 6);
	const char *p, *k = c->ktree;

	if (!strcmp(state, "tree")) {
		;
	} else if (!strcmp(state, "series")) {
		if (!strcmp(c->flag, "FS_AUTOFREEZE"))
			fprintf(stderr, "%s: %s does not define %s yet: run make vfs KTREE=%s first, which applies %s (nothing changed)\n",
				c->prog, k, c->flag, k, where);
		else
			fprintf(stderr, "%s: %s: its suspend freeze lacks what a conversion needs: run make vfs KTREE=%s first, which applies %s (nothing changed; autofreeze prereqs KTREE says what is missing)\n",
				c->prog, k, k, where);
		exit(2);
	} else if (!strcmp(state, "partial")) {
		/* make vfs adds the rest: the missing patches, no others. */
		for (p = text; strstr(p, "from it: ");)
			p = strstr(p, "from it: ") + strlen("from it: ");
		fprintf(stderr, "%s: %s has only part of what a conversion needs from its suspend freeze: %s (nothing changed; make vfs KTREE=%s applies the missing patches, from %s)\n",
			c->prog, k, p, k, where);
		exit(2);
	} else if (!c->force) {
		fprintf(stderr, "%s: %s: nothing would freeze a converted filesystem on suspend: %s (FORCE=1 converts without a flag; nothing changed)\n",
			c->prog, k, text);
		exit(2);
	}
	free(state);
	free(where);
	free(text);
}

/* The units to convert: those with file lines in PLAN, in its order. */
static void plan_units(const strvec *plan, strvec *units)
{
	strvec v = { 0 };
	size_t i;

	strvec_free(units);
	plan_cols(plan, "file", 2, NULL, &v);
	for (i = 0; i < v.n; i++)
		if (!units->n || strcmp(units->v[units->n - 1], v.v[i]))
			conv_push(units, v.v[i]);
	strvec_free(&v);
}

/* rm OUT/NAME */
static void unlink_at(struct conv *c, const char *name)
{
	char *p = conv_path(c, name);

	unlink(p);
	free(p);
}

/* An empty OUT/NAME */
static void empty(struct conv *c, const char *name)
{
	strvec none = { 0 };

	conv_store(c, name, &none);
}

/* scan of the plan's files in b/ into OUT/NAME, then read */
static void scan_b(struct conv *c, const char *name, strvec *lines)
{
	strvec args = { 0 }, files = { 0 };
	char *b = conv_path(c, "b");
	size_t i;

	conv_push(&args, "scan");
	plan_cols(&c->spatch_plan, "file", 3, NULL, &files);
	for (i = 0; i < files.n; i++)
		conv_push(&args, files.v[i]);
	conv_must(c, conv_call(c, cmd_scan, b, name, NULL, &args));
	conv_load(c, name, lines);
	strvec_free(&args);
	strvec_free(&files);
	free(b);
}

static void convert(struct conv *c)
{
	strvec args = { 0 }, flags = { 0 }, runs = { 0 };
	char *a = conv_path(c, "a"), *b = conv_path(c, "b");

	make_plan(c);
	if (c->check)
		select_units(c);
	c->flag = optin(c, 3);
	if (c->report != 1 && !c->check)
		refuse(c);
	plan_units(&c->plan, &c->units);
	if ((mkdir(a, 0777) && !is_dir(a)) || (mkdir(b, 0777) && !is_dir(b)))
		conv_fail(c);
	empty(c, "flags");
	empty(c, "unparsed");
	empty(c, "warnings");
	empty(c, "rules");
	if (!c->units.n)
		exit(0);
	conv_copy_files(c);
	conv_rename_unsafe(c);

	/*
	 * The thread functions of all units go to one spatch run, unless a
	 * name that is a thread in one unit is an ordinary function with
	 * freezer uses in another: then each unit runs with its own.
	 */
	scan_b(c, "scan-before", &c->scan);
	conv_push(&args, "runs");
	conv_push(&args, "plan.spatch");
	conv_push(&args, "scan-before");
	conv_must(c, conv_call(c, cmd_runs, c->out, "runs", NULL, &args));
	conv_load(c, "runs", &runs);
	unlink_at(c, "runs");
	c->collide = join(&runs, "\n");
	strvec_free(&args);
	plan_cols(&c->spatch_plan, "file", 3, NULL, &args);
	conv_progress(c, "%zu units, %zu files", c->units.n, args.n);
	if (*c->collide)
		conv_progress(c, "%s is a thread in one unit only: one run per unit",
			      c->collide);
	if (c->check) {
		/*
		 * the gate reads the rules' verdicts on the uses there are: a
		 * file without one has nothing for spatch to look at
		 */
		conv_with_uses(c);
		plan_units(&c->spatch_plan, &c->units);
		if (c->units.n) {
			conv_rule_pass(c, "check");
			conv_list_unparsed(c);
		}
		conv_unrename(c);
		exit(0);
	}
	conv_rule_pass(c, "patch");
	/*
	 * Freezer uses inside code spatch could not parse: the rules never
	 * saw them.  Listed in "unparsed" as FILE:LINE: API; apply refuses.
	 */
	conv_list_unparsed(c);

	/*
	 * The opt-in flag: on an eligible unit's freeze-capable types, once
	 * nothing is left in kthread context: the helper decides ("flags"),
	 * the fs_autofreeze rule writes.  All or nothing.
	 */
	scan_b(c, "scan-after", &runs);
	strvec_free(&args);
	conv_push(&args, "flags");
	conv_push(&args, "plan.spatch");
	conv_push(&args, "scan-after");
	conv_must(c, conv_call(c, cmd_flags, c->out, "flags", NULL, &args));
	/* The report reads the verdicts, not b/: it needs no flag written. */
	if (c->report == 1) {
		conv_unrename(c);
		exit(0);
	}
	conv_load(c, "flags", &flags);
	conv_flag_runs(c, &flags);
	conv_unrename(c);
	conv_load(c, "flags", &flags);
	conv_warnings(c, &flags);
	exit(0);
}

/* convert --defs RULE PLAN [UNIT]: plan_rule_defs(), for plan.sh */
static int print_defs(int argc, char **argv)
{
	strvec plan = { 0 }, defs = { 0 };
	size_t i;

	if (argc < 4 || argc > 5 || (strcmp(argv[2], "kthread_freezer") &&
				     strcmp(argv[2], "wq_freezable"))) {
		af_warn(NULL, "convert: usage: convert --defs kthread_freezer|wq_freezable PLAN [UNIT]");
		return EXIT_BADINPUT;
	}
	if (!read_lines(argv[3], &plan)) {
		af_warn(argv[3], "%s", strerror(errno));
		return EXIT_RUNTIME;
	}
	plan_rule_defs(&plan, argv[2], argc == 5 ? argv[4] : NULL, "", &defs);
	for (i = 0; i < defs.n; i++)
		puts(defs.v[i]);
	strvec_free(&plan);
	strvec_free(&defs);
	return flush_stdout();
}

int cmd_convert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'F' },
		{ "report", required_argument, NULL, 'R' },
		{ "check", no_argument, NULL, 'C' },
		{ "touched", required_argument, NULL, 'T' },
		{ "judgments", required_argument, NULL, 'J' },
		{ "prog", required_argument, NULL, 'P' },
		{ "cache", required_argument, NULL, 'K' },
		{ "spatch-id", required_argument, NULL, 'S' },
		{ "rules", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct conv c = { .prog = PROG, .jobs = 0 };
	const char *cache = "none";
	char *end;
	int opt;

	if (argc > 1 && !strcmp(argv[1], "--defs"))
		return print_defs(argc, argv);
	/* an error is one line: the usage line, not getopt's too */
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+j:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'F':
			c.force = true;
			break;
		case 'C':
			c.check = true;
			break;
		case 'T':
			c.touched = optarg;
			break;
		case 'J':
			c.judgments = optarg;
			break;
		case 'P':
			c.prog = optarg;
			break;
		case 'K':
			cache = optarg;
			break;
		case 'S':
			c.cache.spatch_id = optarg;
			break;
		case 'r':
			c.rules = optarg;
			break;
		case 'R':
			if (strcmp(optarg, "1") && strcmp(optarg, "full"))
				goto usage;
			c.report = strcmp(optarg, "1") ? 2 : 1;
			break;
		case 'j':
			c.jobs = strtol(optarg, &end, 10);
			if (*end || c.jobs < 1 || !*optarg)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	opterr = 1;
	if (argc - optind != 3 || (c.touched && !c.check))
		goto usage;
	c.ktree = argv[optind];
	c.dir = argv[optind + 1];
	c.out = argv[optind + 2];
	if (!c.jobs)
		c.jobs = sysconf(_SC_NPROCESSORS_ONLN) > 0 ?
			 sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (!c.rules)
		c.rules = beside_helper("cocci");
	if (!c.rules || !is_dir(c.out)) {
		af_warn(c.rules ? c.out : NULL, "convert: %s",
			c.rules ? "not a directory" : "cocci/ not found");
		return EXIT_BADINPUT;
	}
	c.cache.prog = c.prog;
	c.cache.scratch = c.out;
	if (!c.cache.spatch_id)
		c.cache.spatch_id = "";
	if (strcmp(cache, "none"))
		c.cache.dir = xasprintf("%s/spatch", cache);
	convert(&c);
	return 0;
usage:
	opterr = 1;
	af_warn(NULL, "convert: usage: convert [--force] [-j N] [--report=1|full] [--check [--touched FILE]] [--judgments FILE] [--prog NAME] [--cache DIR|none] [--spatch-id ID] [--rules DIR] KTREE DIR OUT");
	return EXIT_BADINPUT;
}
