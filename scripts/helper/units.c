// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - "autofreeze units" and "autofreeze plan": the command line,
 * then a survey of the kernel tree's units under DIR (see units.h) in
 * named steps, printed by output.c.
 *
 * survey_units() is the entry point: it finds the units (find_units()),
 * reads their files, analyzes each (analyze_unit(): its index,
 * unitindex.c; its judgments; its uses and threads; its twins, twins.c;
 * its file_system_types, fstypes.c) and decides each unit's status
 * (status.c).  The flag's candidates and state are flagstate.c's, what
 * the judgments say of a use judgeuse.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "fstypes.h"
#include "ktree.h"
#include "output.h"
#include "scan.h"
#include "status.h"
#include "tree.h"
#include "twins.h"
#include "unitindex.h"
#include "units.h"

/* ---- which directories are units ---- */

struct unit *find_unit(struct unit_survey *sv, const char *rel)
{
	size_t i;

	for (i = 0; i < sv->all.n; i++)
		if (!strcmp(sv->all.v[i]->rel, rel))
			return sv->all.v[i];
	return NULL;
}

static struct unit *add_unit(struct unit_survey *sv, const char *rel,
			     bool core)
{
	struct unit *u = find_unit(sv, rel);

	if (u)
		return u;
	u = xcalloc(1, sizeof(*u));
	u->rel = xstrdup(rel);
	u->path = path_join(sv->ktree, rel);
	u->core = core;
	vec_push(&sv->all, u);
	return u;
}

/* The units at or below REL, depth first in name order, added to FOUND. */
static void find_units_below(struct unit_survey *sv, const char *rel,
			     strvec *found)
{
	char *path = path_join(sv->ktree, rel);
	strvec subs = { 0 };
	size_t i;

	if (dir_is_unit(path)) {
		add_unit(sv, rel, !strcmp(rel, "fs"));
		vec_push(found, xstrdup(rel));
	}
	list_subdirs(path, rel, &subs);
	for (i = 0; i < subs.n; i++)
		find_units_below(sv, subs.v[i], found);
	strvec_free(&subs);
	free(path);
}

struct unit *unit_above(struct unit_survey *sv, const char *rel)
{
	char *r = xstrdup(rel);
	struct unit *u = NULL;

	for (;;) {
		char *slash;

		u = find_unit(sv, r);
		if (u)
			break;
		slash = strrchr(r, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(r);
	return u;
}

/* The unit DIR is in, when there is none at or below it. */
static struct unit *unit_holding(struct unit_survey *sv, const char *dir)
{
	struct unit *u = unit_above(sv, dir);

	if (!u) {
		/* outside fs/: enter the unit above DIR */
		char *rel = unit_dir_of(sv->ktree, dir);

		if (rel)
			u = add_unit(sv, rel, false);
		free(rel);
	}
	if (!u)
		af_die(EXIT_BADINPUT, dir, "no unit (no directory with "
		       "a Makefile and C files) at or above it");
	return u;
}

/*
 * Every unit of fs/ (for the Kconfig owners), then the list: the units
 * at or below DIR, or the one holding it.
 */
static void find_units(struct unit_survey *sv, const char *dir)
{
	strvec found = { 0 };
	char *fs = path_join(sv->ktree, "fs");
	size_t i;

	if (is_dir(fs))
		find_units_below(sv, "fs", &found);
	free(fs);
	strvec_free(&found);
	find_units_below(sv, dir, &found);
	if (!found.n)
		vec_push(&found, xstrdup(unit_holding(sv, dir)->rel));
	for (i = 0; i < found.n; i++) {
		struct unit *u = find_unit(sv, found.v[i]);

		if (!u->requested) {
			u->requested = true;
			vec_push(&sv->list, u);
		}
	}
	strvec_free(&found);
}

/* ---- reading and analyzing units ---- */

static void read_unit(struct unit_survey *sv, struct unit *u)
{
	u->first = sv->files.files.n;
	fileset_add_unit(&sv->files, u->path, u->core);
	u->end = sv->files.files.n;
	u->analyzed = true;
}

/* The files of the listed units and of their libraries' users. */
static void read_units(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->list.n; i++)
		read_unit(sv, sv->list.v[i]);
	for (i = 0; i < sv->list.n; i++) {
		struct unit *lib = sv->list.v[i];

		for (k = 0; k < lib->users.n; k++)
			if (!lib->users.v[k]->analyzed)
				read_unit(sv, lib->users.v[k]);
	}
	fileset_process(&sv->files, NULL, 0, 0, sv->jobs, READ_FULL);
	/* a file the user may not read is bad input, as a missing tree is */
	for (i = 0; i < sv->files.files.n; i++) {
		int err = sv->files.files.v[i]->error;

		if (err)
			af_die(err == EACCES ? EXIT_BADINPUT : EXIT_RUNTIME,
			       sv->files.files.v[i]->path, "%s", strerror(err));
	}
}

/* The uses of U by context, and its thread functions. */
static void count_uses(struct unit *u, const struct unit_index *ix)
{
	struct strset kt = { 0 };
	struct hmap via = { 0 };
	const char **v;
	size_t i, k, n;

	unit_kthreads(ix->files.v, ix->files.n, &kt, &via);
	for (i = 0; i < ix->files.n; i++) {
		const struct file_info *fi = ix->files.v[i];

		for (k = 0; k < fi->uses.n; k++) {
			u->uses[use_context(&fi->uses.v[k], &kt)]++;
			u->nuses++;
		}
	}
	v = strset_sorted(&kt, &n);
	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i]);
		const struct hmap_entry *e;

		if (!strset_has(&ix->funcs, v[i]))
			continue;
		e = hmap_find(&via, v[i], len, str_hash(v[i], len));
		vec_push(&u->kthreads, (char *)v[i]);
		vec_push(&u->kthread_via, e ? e->val : NULL);
	}
	free(v);
	u->kthread_set = kt;
	hmap_free(&via);
}

/* Check U's judgments against its code: which hold here (judgments.h). */
static void check_judgments(struct unit_survey *sv, const struct unit *u,
			    struct unit_index *ix)
{
	struct anchor_scope sc = { 0 };

	sc.ktree = sv->ktree;
	sc.unit = u->rel;
	sc.defined_in = unit_defines;
	sc.arg = ix;
	sc.texts = ix->texts;
	judgments_check(&sv->judgments, u->rel, &sc);
}

static void analyze_unit(struct unit_survey *sv, struct unit *u)
{
	struct unit_index ix = { 0 };

	ix.texts = &sv->texts;
	index_unit(sv, u, &ix);
	check_judgments(sv, u, &ix);
	count_uses(u, &ix);
	find_twins(u, &ix);
	trace_fstypes(sv, u, &ix);
	index_free(&ix);
}

/* ---- a unit's name, and the files spatch must see ---- */

const char *unit_name(const struct unit *u)
{
	return u->core ? "fs (core)" : u->rel;
}

bool unit_needs_file(const struct unit *u, const struct file_info *fi)
{
	size_t k;

	if (fi->uses.n > 0)
		return true;
	for (k = 0; k < u->types.n; k++)
		if (unit_flags_fstype(u, &u->types.v[k]) &&
		    u->types.v[k].fi == fi)
			return true;
	return false;
}

/* ---- the survey ---- */

static void analyze_units(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->all.n; i++)
		if (sv->all.v[i]->analyzed)
			analyze_unit(sv, sv->all.v[i]);
	/* once every unit read here is: twin_left_unused() looks at all */
	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		for (k = 0; k + 1 < u->twins.n; k += 2)
			if (twin_left_unused(sv, u, u->twins.v[k]))
				vec_push(&u->unused_twins, u->twins.v[k]);
	}
}

/* After analyze_units(): a library's reason tells its users' capable. */
static void decide_units(struct unit_survey *sv)
{
	size_t i, pass;

	/* a library's users may be libraries, decided in the same pass */
	for (i = 0; i < sv->all.n; i++)
		if (!sv->all.v[i]->types.n)
			sv->all.v[i]->status = UNIT_LIBRARY;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sv->all.n; i++)
			if (sv->all.v[i]->analyzed &&
			    (sv->all.v[i]->status == UNIT_LIBRARY) == pass)
				decide_status(sv, sv->all.v[i]);
}

void survey_units(struct unit_survey *sv, const char *dir)
{
	find_units(sv, dir);
	kbuild_read(sv);
	read_units(sv);
	analyze_units(sv);
	decide_units(sv);
}

void survey_free(struct unit_survey *sv)
{
	size_t i, k;

	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		for (k = 0; k < u->types.n; k++) {
			struct judgment *d = u->types.v[k].derived;

			free(u->types.v[k].sops);
			if (d) {
				free(d->code);
				free(d->evidence);
				free(d);
			}
		}
		vec_free(&u->types);
		vec_free(&u->kthreads);
		strset_free(&u->kthread_set);
		vec_free(&u->twins);
		vec_free(&u->unused_twins);
		vec_free(&u->kthread_via);
		vec_free(&u->configs);
		vec_free(&u->users);
		free(u->rel);
		free(u->path);
		free(u->reason);
		free(u);
	}
	vec_free(&sv->all);
	vec_free(&sv->list);
	kbuild_free(&sv->kbuild);
	fileset_free(&sv->files);
	ctexts_free(&sv->texts);
	judgments_free(&sv->judgments);
	freeze_path_free(&sv->freeze);
	free((char *)sv->ktree);
}

/* ---- the command line ---- */

static void usage_units(FILE *f, const char *cmd)
{
	fprintf(f, "usage: %s %s%s [--force] [--judgments FILE] [-j N] "
		"KTREE DIR\n", PROG, cmd,
		strcmp(cmd, "units") ? "" : " [--json]");
}

/*
 * The options of CMD into SV (and *JSON, when CMD takes --json); returns
 * the index of KTREE in ARGV, or -1 after a usage message.
 */
static int parse_options(struct unit_survey *sv, int argc, char **argv,
			 const char *cmd, bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "force", no_argument, NULL, 'f' },
		{ "judgments", required_argument, NULL, 'P' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+j:fh", opts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			if (!json)
				goto bad;
			*json = true;
			break;
		case 'f':
			sv->force = true;
			break;
		case 'P':
			sv->judgments_path = optarg;
			break;
		case 'j':
			sv->jobs = job_count(cmd, optarg);
			break;
		case 'h':
			usage_units(stdout, cmd);
			exit(0);
		default:
bad:
			usage_units(stderr, cmd);
			return -1;
		}
	}
	if (argc - optind != 2) {
		usage_units(stderr, cmd);
		return -1;
	}
	return optind;
}

/*
 * The command line of CMD ("units" or "plan"), then the survey; returns
 * 0, or the exit status of a usage error.
 */
static int survey_args(struct unit_survey *sv, int argc, char **argv,
		       const char *cmd, bool *json)
{
	struct ktree_dir kd;
	char *why;
	int arg;

	memset(sv, 0, sizeof(*sv));
	sv->jobs = ncpus();
	arg = parse_options(sv, argc, argv, cmd, json);
	if (arg < 0)
		return EXIT_BADINPUT;
	why = ktree_resolve(argv[arg], argv[arg + 1], &kd);
	if (why) {
		af_warn(NULL, "%s", why);
		free(why);
		return EXIT_BADINPUT;
	}
	sv->ktree = kd.root;
	judgments_load(&sv->judgments, sv->judgments_path);
	freeze_path_read(&sv->freeze, kd.root);
	survey_units(sv, kd.dir);
	free(kd.dir);
	return 0;
}

int cmd_units(int argc, char **argv)
{
	struct unit_survey sv;
	bool json = false;
	int rc;

	rc = survey_args(&sv, argc, argv, "units", &json);
	if (rc)
		return rc;
	if (json)
		print_units_json(&sv);
	else
		print_units_text(&sv);
	survey_free(&sv);
	return flush_stdout();
}

static void show_optin(const struct freeze_path *fp, const char *ktree)
{
	(void)ktree;
	print_optin(fp);
}

/* autofreeze optin KTREE: the plan's optin line alone, read in no time. */
int cmd_optin(int argc, char **argv)
{
	return freeze_path_cmd("optin", argc, argv, show_optin);
}

/* CMD ("plan", "judgments"): the survey of KTREE DIR, then PRINT it. */
static int survey_cmd(int argc, char **argv, const char *cmd,
		      void (*print)(const struct unit_survey *sv))
{
	struct unit_survey sv;
	int rc;

	rc = survey_args(&sv, argc, argv, cmd, NULL);
	if (rc)
		return rc;
	print(&sv);
	survey_free(&sv);
	return flush_stdout();
}

/*
 * autofreeze judgments KTREE DIR: each judgment on a unit of DIR, in the
 * file's order, and whether it holds in this tree.
 */
int cmd_judgments(int argc, char **argv)
{
	return survey_cmd(argc, argv, "judgments", print_judgments);
}

int cmd_plan(int argc, char **argv)
{
	return survey_cmd(argc, argv, "plan", print_plan);
}
