// SPDX-License-Identifier: GPL-2.0
/*
 * rulerun.c - the decisions around the rules' run, each in one function:
 *
 *   thread_name_collision()  whether the units' thread functions can go
 *			      to the rules in one run ("autofreeze runs");
 *   unparsed_regions()       which lines spatch could not parse, so that
 *			      the rules never saw the uses there
 *			      ("autofreeze unparsed");
 *   unit_flag_verdict()      whether a unit's file_system_types get the
 *			      opt-in flag, now that the removal rules have
 *			      run ("autofreeze flags").
 *
 * Each reads the plan and "autofreeze scan" output (planfile.h), and
 * unparsed_regions() spatch's --verbose-parsing log too; cmd_runs(),
 * cmd_unparsed() and cmd_flags() are the entry points.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "planfile.h"
#include "scan.h"
#include "util.h"
#include "verdict.h"

/* The unit a file of the plan belongs to, by its file line. */
static struct plan_unit *unit_of_file(struct plan *p, const char *file)
{
	size_t i;

	for (i = 0; i < p->units.n; i++)
		if (strvec_has(&p->units.v[i].files, file))
			return &p->units.v[i];
	return NULL;
}

/*
 * Whether a thread function of one unit has freezer uses, outside a
 * thread, in another unit, or a macro one unit renames to its twin is
 * used in another that has no such twin: then each unit must go to the
 * rules with its own thread functions and twins.  The first such name,
 * or NULL.
 */
static const char *thread_name_collision(struct plan *p, const usevec *uses)
{
	size_t i, k;

	for (i = 0; i < uses->n; i++) {
		const struct scanned_use *u = &uses->v[i];
		const struct plan_unit *own = unit_of_file(p, u->at.file);
		bool thread_somewhere = false, twin_somewhere = false;

		for (k = 0; k < p->units.n; k++) {
			thread_somewhere |= strvec_has(&p->units.v[k].kthreads,
						       u->fn);
			twin_somewhere |= strvec_has(&p->units.v[k].twins,
						     u->api);
		}
		if (thread_somewhere &&
		    !(own && strvec_has(&own->kthreads, u->fn)))
			return u->fn;
		if (twin_somewhere && !(own && strvec_has(&own->twins, u->api)))
			return u->api;
	}
	return NULL;
}

/*
 * Whether converted unit U's types get the flag, now that the removal
 * rules have run: only when no use the conversion takes off the freezer
 * is unreviewed (no judgment that holds here says what quiesces its
 * work), no use is left in kernel-thread context (scan says kthread, or
 * it is in one of the unit's thread functions) in its converted files,
 * and it has a type to flag.  A use a judgment keeps does not count:
 * its evidence says its work never waits for the freeze, so it can
 * freeze with the tasks.  All or nothing:
 * a unit that gets no flag is left whole ("noflag"), unless the plan
 * was made with --force ("forced": converted, and nothing freezes it).
 * Prints "flag UNIT TYPES", "noflag UNIT REASON" or "forced UNIT
 * REASON".
 */
static void unit_flag_verdict(const struct plan *p, const struct plan_unit *u,
			      const usevec *uses, FILE *out)
{
	const char *verdict = p->force ? "forced" : "noflag";
	size_t i, left = 0;

	if (p->optin_state && !strcmp(p->optin_state, "none")) {
		fprintf(out, "%s\t%s\tnothing freezes it on suspend: %s\n",
			verdict, u->name, p->optin_text);
		return;
	}

	if (u->unreviewed.n) {
		fprintf(out, "%s\t%s\tunreviewed: %zu use%s the conversion "
			"would take off the freezer, and no reviewed judgment "
			"holds here for %s: ", verdict, u->name,
			u->unreviewed.n, u->unreviewed.n > 1 ? "s" : "",
			u->unreviewed.n > 1 ? "them" : "it");
		for (i = 0; i < u->unreviewed.n && i < 3; i++)
			fprintf(out, "%s%s:%ld", i ? ", " : "",
				u->unreviewed.v[i].file,
				u->unreviewed.v[i].line);
		fputs(i < u->unreviewed.n ? ", ...\n" : "\n", out);
		return;
	}
	for (i = 0; i < uses->n && left < 3; i++) {
		const struct scanned_use *s = &uses->v[i];

		if (!strvec_has(&u->files, s->at.file))
			continue;
		if (strcmp(s->ctx, "kthread") && !strvec_has(&u->kthreads, s->fn))
			continue;
		if (unit_keeps(u, s))
			continue;
		if (!left++)
			fprintf(out, "%s\t%s\tkthread freezer uses left: ",
				verdict, u->name);
		else
			putc(';', out);
		fprintf(out, "%s:%ld:%s %s", s->at.file, s->at.line,
			s->at.col, s->api);
	}
	if (left) {
		putc('\n', out);
		return;
	}
	if (!u->fstypes.n) {
		fprintf(out, "%s\t%s\tno file_system_type to flag: %s\n",
			verdict, u->name, u->reason);
		return;
	}
	fprintf(out, "flag\t%s\t", u->name);
	for (i = 0; i < u->fstypes.n; i++)
		fprintf(out, "%s%s", i ? "," : "", u->fstypes.v[i]);
	putc('\n', out);
}

/* runs PLAN SCAN / flags PLAN SCAN: read both, in scan order */
static int read_plan_and_scan(int argc, char **argv, const char *cmd,
			      struct plan *p, usevec *uses)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s %s PLAN SCAN\n", PROG, cmd);
		return EXIT_BADINPUT;
	}
	plan_read(argv[1], p);
	memset(uses, 0, sizeof(*uses));
	read_scan(argv[2], uses);
	xqsort(uses->v, uses->n, sizeof(*uses->v), cmp_use_order);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct plan p;
	usevec uses;
	const char *name;
	int rc = read_plan_and_scan(argc, argv, "runs", &p, &uses);

	if (rc)
		return rc;
	name = thread_name_collision(&p, &uses);
	if (name)
		puts(name);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}

int cmd_flags(int argc, char **argv)
{
	struct plan p;
	usevec uses;
	size_t i;
	int rc = read_plan_and_scan(argc, argv, "flags", &p, &uses);

	if (rc)
		return rc;
	for (i = 0; i < p.units.n; i++)
		if (p.units.v[i].converted)
			unit_flag_verdict(&p, &p.units.v[i], &uses, stdout);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}

struct region {
	char *file;
	long first, last;
};

typedef VEC(struct region) regionvec;

/*
 * The regions spatch could not parse, from its --verbose-parsing
 * messages in LOG: after 'parse error ... = File "F", line L, ...' it
 * lists the region's lines ("bad:"), the one at L marked "BAD:".  Only
 * files of the plan count: spatch also reparses its own output.
 */
static void unparsed_regions(const char *log, const struct plan *p,
			     regionvec *out)
{
	strvec lines = { 0 };
	char *buf = slurp_lines(log, &lines), *file = NULL;
	long at = 0, before = -1, n = 0;
	size_t i, k;

	for (i = 0; i <= lines.n; i++) {
		const char *l = i < lines.n ? lines.v[i] : NULL;
		bool bad = l && at && (!strncmp(l, "bad:", 4) ||
				       !strncmp(l, "BAD:", 4));
		bool file_line = l && !strncmp(l, " = File \"", 9);

		if (bad) {
			if (l[0] == 'B' && before < 0)
				before = n;
			n++;
			continue;
		}
		if (!l || file_line || (at && n)) {
			bool ours = false;

			for (k = 0; file && k < p->units.n && !ours; k++)
				ours = strvec_has(&p->units.v[k].files, file);
			if (at && n && ours) {
				struct region r = { .file = xstrdup(file) };

				if (before < 0)
					before = 0;
				r.first = at - before;
				r.last = r.first + n - 1;
				vec_push(out, r);
			}
			at = 0;
		}
		if (file_line) {
			const char *q = strstr(l, "\", line ");

			free(file);
			file = NULL;
			if (!q)
				continue;
			file = xstrndup(l + 9, (size_t)(q - (l + 9)));
			at = strtol(q + 8, NULL, 10);
			n = 0;
			before = -1;
		}
	}
	free(file);
	vec_free(&lines);
	free(buf);
}

int cmd_unparsed(int argc, char **argv)
{
	regionvec regions = { 0 };
	struct plan p;
	usevec uses;
	size_t i, k;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s unparsed PLAN SCAN [LOG...]\n",
			PROG);
		return EXIT_BADINPUT;
	}
	rc = read_plan_and_scan(3, argv, "unparsed", &p, &uses);
	if (rc)
		return rc;
	for (i = 3; i < (size_t)argc; i++)
		unparsed_regions(argv[i], &p, &regions);
	for (i = 0; i < uses.n; i++) {
		const struct scanned_use *s = &uses.v[i];

		for (k = 0; k < regions.n; k++) {
			const struct region *r = &regions.v[k];

			if (!strcmp(r->file, s->at.file) &&
			    s->at.line >= r->first && s->at.line <= r->last) {
				printf("%s:%ld: %s\n", s->at.file, s->at.line,
				       s->api);
				break;
			}
		}
	}
	for (i = 0; i < regions.n; i++)
		free(regions.v[i].file);
	vec_free(&regions);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}
