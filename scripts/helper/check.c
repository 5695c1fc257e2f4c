// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - "autofreeze check", check-tree's gate on the units that
 * carry the opt-in flag: which units it looks at (check_selects_unit(),
 * "check --select"), and its findings on them (check_findings(), the
 * tree's freeze in check_freeze()): a flag misplaced or missing, a use
 * that a rule would still convert or that no rule converts, as
 * "FILE:LINE:COL: error: ..." lines or JSON.  cmd_check() is the entry
 * point; the verdict on a use is use_verdict_as_run()'s (verdict.h).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "planfile.h"
#include "report.h"
#include "scan.h"
#include "util.h"
#include "verdict.h"

/* Unit U carries the opt-in flag on a type as the conversion flags it. */
static bool unit_carries_flag(const struct plan_unit *u)
{
	size_t i;

	for (i = 0; i < u->flagstates.n; i++)
		if (!strcmp(u->flagstates.v[i].state, "set"))
			return true;
	return false;
}

/*
 * Which units check-tree looks at: each that carries the opt-in flag,
 * rightly or not (a flagstate line set or misplaced), and with TOUCHED
 * (paths relative to the tree, one a line: a git diff's), only those
 * holding one of them.
 */
static bool check_selects_unit(const struct plan *p,
			       const struct plan_unit *u,
			       const strvec *touched)
{
	size_t i;
	bool flagged = false;

	for (i = 0; i < u->flagstates.n; i++)
		flagged |= !strcmp(u->flagstates.v[i].state, "set") ||
			!strcmp(u->flagstates.v[i].state, "misplaced");
	if (!flagged || !touched)
		return flagged;
	for (i = 0; i < touched->n; i++)
		if (!strcmp(unit_of_path(p, touched->v[i]), u->name))
			return true;
	return false;
}

struct finding {
	const char *file, *col, *unit, *code;
	long line;
	char *msg;		/* malloc'ed */
};

static void print_finding(const struct finding *f, bool json, size_t n)
{
	if (!json) {
		printf("%s:%ld:%s: error: %s\n", f->file, f->line, f->col,
		       f->msg);
		return;
	}
	fputs(n ? ",\n {\"file\":" : "\n {\"file\":", stdout);
	json_str(stdout, f->file);
	printf(",\"line\":%ld,\"col\":%s,\"severity\":\"error\",\"unit\":",
	       f->line, f->col);
	json_str(stdout, f->unit);
	fputs(",\"code\":", stdout);
	json_str(stdout, f->code);
	fputs(",\"message\":", stdout);
	json_str(stdout, f->msg);
	putchar('}');
}

/*
 * The tree's suspend freeze, when units carry the flag and it is not
 * what freezes them (the plan's optin line is not "tree": a flag test
 * that skips them, a freeze the PM core never calls, a core series only
 * partly in): one finding, where the plan's AT says it falls short, else
 * at fs/super.c.  Returns the number of findings, 0 or 1.
 */
static size_t check_freeze(const struct plan *p, bool json)
{
	struct finding f = { "fs/super.c", "1", "-", "freeze", 1, NULL };
	charvec units = { 0 };
	char *at = NULL, *c;
	size_t i, k, nunits = 0;

	if (!p->optin_state || !strcmp(p->optin_state, "tree"))
		return 0;
	for (i = 0; i < p->units.n; i++) {
		if (!unit_carries_flag(&p->units.v[i]))
			continue;
		if (nunits++)
			vec_push(&units, ',');
		if (nunits > 1)
			vec_push(&units, ' ');
		for (k = 0; p->units.v[i].name[k]; k++)
			vec_push(&units, p->units.v[i].name[k]);
	}
	if (!nunits)
		return 0;
	vec_push(&units, '\0');
	if (p->optin_at) {
		/* FILE:LINE:COL, the file's name may hold a colon */
		at = xstrdup(p->optin_at);
		c = strrchr(at, ':');
		if (c && c > at) {
			*c = '\0';
			f.col = c + 1;
			c = strrchr(at, ':');
			if (c) {
				*c = '\0';
				f.line = strtol(c + 1, NULL, 10);
				f.file = at;
			}
		}
	}
	f.msg = xasprintf("%s carr%s %s, which the tree's suspend freeze "
			  "does not honour: %s", units.v,
			  nunits > 1 ? "y" : "ies", strcmp(plan_flag(p),
			  "opt-in flag") ? plan_flag(p) : "the opt-in flag",
			  p->optin_text ?
			  p->optin_text : p->optin_state);
	print_finding(&f, json, 0);
	free(f.msg);
	free(at);
	vec_free(&units);
	return 1;
}

/*
 * The gate's findings on the plan's units (check_selects_unit() chose
 * them): the tree's freeze that does not freeze the flagged types
 * (check_freeze()), a type that carries the flag it should not, a type
 * of a flagged unit without it, and every use of a flagged unit that a
 * rule would still convert or that no rule converts
 * (use_verdict_as_run(); uses a judgment keeps, and those outside
 * kernel threads, are fine).  Returns the number of findings.
 */
static size_t check_findings(struct verdict_inputs *in, bool json)
{
	struct plan *p = &in->plan;
	const char *flag = plan_flag(p);
	size_t i, k, n = check_freeze(p, json);

	for (i = 0; i < p->units.n; i++) {
		struct plan_unit *u = &p->units.v[i];
		bool carries = unit_carries_flag(u);

		for (k = 0; k < u->flagstates.n; k++) {
			const struct flagstate *fs = &u->flagstates.v[k];
			struct finding f = { fs->file, fs->col, u->name,
					     fs->state, fs->line, NULL };

			if (!strcmp(fs->state, "misplaced"))
				f.msg = xasprintf("%s carries %s, but %s",
						  fs->type, flag, fs->why);
			else if (!strcmp(fs->state, "missing") && carries)
				f.msg = xasprintf("%s lacks %s, which the other "
						  "types of %s carry: "
						  "cocci/fs_autofreeze.cocci "
						  "would add it", fs->type,
						  flag, u->name);
			if (f.msg)
				print_finding(&f, json, n++);
			free(f.msg);
		}
	}
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *s = &in->uses.v[i];
		struct plan_unit *u = plan_find(p, unit_of_path(p, s->at.file));
		const struct kept_use *q;
		struct use_verdict v;
		struct finding f;

		if (!u || !u->converted || !unit_carries_flag(u))
			continue;
		use_verdict_as_run(in, u, s, &v);
		f = (struct finding){ s->at.file, s->at.col, u->name, v.code,
				      s->at.line, NULL };
		q = unit_unreviewed(u, s);
		if (q) {
			f.code = "unreviewed";
			f.msg = xasprintf("%s in %s(): %s carries %s, yet this "
					  "is still here, and %s: review it "
					  "first", s->api, s->fn, u->name,
					  flag, q->evidence);
		} else if (!strcmp(v.status, "converted"))
			f.msg = xasprintf("%s %s: %s carries %s, yet this is "
					  "still here: cocci/%s.cocci would "
					  "remove it (make apply DIR=%s)",
					  s->api, v.why, u->name, flag,
					  strcmp(v.code, "workqueue") ?
					  "kthread_freezer" : "wq_freezable",
					  u->name);
		else if (!strcmp(v.status, "manual"))
			f.msg = xasprintf("%s: %s carries %s, yet this is "
					  "still here: %s (remove it by hand, "
					  "or the flag)", s->api, u->name,
					  flag, v.why);
		if (f.msg)
			print_finding(&f, json, n++);
		free(f.msg);
		free(v.why);
	}
	return n;
}

/* "--touched FILE": its lines; NULL without. */
static strvec *read_touched(const char *path, strvec *v, char **buf)
{
	if (!path)
		return NULL;
	*buf = slurp_lines(path, v);
	return v;
}

int cmd_check(int argc, char **argv)
{
	struct verdict_inputs in = { 0 };
	const char *touched_path = NULL;
	strvec touched = { 0 };
	char *tbuf = NULL;
	bool json = false, select = false;
	size_t i, n;
	int opt;
	static const struct option longopts[] = {
		{ "select", no_argument, NULL, 's' },
		{ "touched", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			json = format_is_json("check", optarg);
			break;
		case 's':
			select = true;
			break;
		case 't':
			touched_path = optarg;
			break;
		case 'h':
			printf("usage: %s check --select [--touched FILE] "
			       "PLAN\n       %s check [-f text|json] PLAN "
			       "UNPARSED RULES SCAN\n", PROG, PROG);
			return 0;
		default:
			goto usage;
		}
	}
	if (select) {
		const strvec *t;

		if (argc - optind != 1)
			goto usage;
		plan_read(argv[optind], &in.plan);
		t = read_touched(touched_path, &touched, &tbuf);
		for (i = 0; i < in.plan.units.n; i++)
			if (check_selects_unit(&in.plan, &in.plan.units.v[i],
					       t))
				puts(in.plan.units.v[i].name);
		vec_free(&touched);
		free(tbuf);
		plan_free(&in.plan);
		return 0;
	}
	if (argc - optind != 4 || touched_path)
		goto usage;
	verdict_inputs_read(&in, argv[optind], NULL, argv[optind + 1],
			    argv[optind + 2], argv[optind + 3]);
	if (json)
		putchar('[');
	n = check_findings(&in, json);
	if (json)
		puts(n ? "\n]" : "]");
	verdict_inputs_free(&in);
	return n ? 1 : 0;
usage:
	fprintf(stderr, "usage: %s check --select [--touched FILE] PLAN\n"
		"       %s check [-f text|json] PLAN UNPARSED RULES SCAN\n",
		PROG, PROG);
	return EXIT_BADINPUT;
}
