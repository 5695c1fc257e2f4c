// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the units of a survey as text or JSON, and its plan.
 * Nothing is decided here: what to print comes from units.c.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"

static const char *relpath(const struct unit_survey *sv, const char *path)
{
	size_t n = strlen(sv->ktree);

	if (!strncmp(path, sv->ktree, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

static void print_text(const struct unit_survey *sv, const struct unit *u)
{
	size_t i, k;

	printf("%s: %s\n", unit_name(u), u->reason);
	printf("\tstatus: %s%s\n", unit_status_names[u->status],
	       unit_converted(sv, u) && u->status != UNIT_ELIGIBLE ?
	       ", converted with --force" : "");
	printf("\tuses: %u (kthread %u, user %u, macro %u, unknown %u)\n",
	       u->nuses, u->uses[CTX_KTHREAD], u->uses[CTX_USER],
	       u->uses[CTX_MACRO], u->uses[CTX_UNKNOWN]);
	for (i = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		printf("\tfstype: %s", t->ft->name);
		if (t->ft->fsname)
			printf(" \"%s\"", t->ft->fsname);
		printf(" %s:%u fs_flags: %s%s s_op: ",
		       relpath(sv, t->fi->path), t->ft->line,
		       t->ft->flags ? t->ft->flags : "-",
		       t->ft->requires_dev ? " [FS_REQUIRES_DEV]" : "");
		if (!t->nsops)
			printf("-");
		else if (!t->traced)
			printf("?(");
		for (k = 0; k < t->nsops; k++)
			printf("%s%s", k ? "," : "", t->sops[k]);
		printf("%s%s\n", t->traced || !t->nsops ? "" : ")",
		       t->capable ? " [freeze-capable]" : "");
	}
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = sv->files.files.v[i];

		for (k = 0; k < fi->sops.n; k++)
			printf("\ts_op: %s %s:%u%s%s\n", fi->sops.v[k].name,
			       relpath(sv, fi->path), fi->sops.v[k].line,
			       fi->sops.v[k].freeze_fs ? " .freeze_fs" : "",
			       fi->sops.v[k].freeze_super ?
			       " .freeze_super" : "");
	}
	if (u->kthreads.n) {
		printf("\tkthread:");
		for (i = 0; i < u->kthreads.n; i++)
			printf(" %s", u->kthreads.v[i]);
		putchar('\n');
	}
	if (u->configs.n && u->status == UNIT_LIBRARY) {
		printf("\tconfig:");
		for (i = 0; i < u->configs.n; i++)
			printf(" CONFIG_%s", u->configs.v[i]);
		putchar('\n');
	}
	if (u->status == UNIT_LIBRARY) {
		printf("\tusers:");
		for (i = 0; i < u->users.n; i++)
			printf(" %s (%s)", unit_name(u->users.v[i]),
			       u->users.v[i]->capable ? "freeze-capable" :
			       "not freeze-capable");
		if (!u->users.n)
			printf(" -");
		putchar('\n');
	}
}

void print_units_text(const struct unit_survey *sv)
{
	size_t i;

	for (i = 0; i < sv->list.n; i++)
		print_text(sv, sv->list.v[i]);
}

/* ", KEY: [PRE V[0], ...]" */
static void json_strs(const char *key, char **v, size_t n, const char *pre)
{
	size_t i;

	printf(", \"%s\": [", key);
	for (i = 0; i < n; i++) {
		char *s = xasprintf("%s%s", pre, v[i]);

		printf("%s", i ? ", " : "");
		json_str(stdout, s);
		free(s);
	}
	putchar(']');
}

static void json_str_or_null(const char *s)
{
	if (s)
		json_str(stdout, s);
	else
		printf("null");
}

static void json_fstype(const struct unit_survey *sv,
			const struct unit_fstype *t)
{
	size_t k;

	printf("{\"name\": ");
	json_str(stdout, t->ft->name);
	printf(", \"fsname\": ");
	json_str_or_null(t->ft->fsname);
	printf(", \"file\": ");
	json_str(stdout, relpath(sv, t->fi->path));
	printf(", \"line\": %u, \"fs_flags\": ", t->ft->line);
	json_str_or_null(t->ft->flags);
	printf(", \"requires_dev\": %s, \"s_op_traced\": %s, \"s_ops\": [",
	       t->ft->requires_dev ? "true" : "false",
	       t->traced ? "true" : "false");
	for (k = 0; k < t->nsops; k++) {
		printf("%s", k ? ", " : "");
		json_str(stdout, t->sops[k]);
	}
	printf("], \"freeze_capable\": %s}", t->capable ? "true" : "false");
}

static void print_json(const struct unit_survey *sv, const struct unit *u)
{
	size_t i, k;
	bool first = true;

	printf("  {\"unit\": ");
	json_str(stdout, unit_name(u));
	printf(", \"dir\": ");
	json_str(stdout, u->rel);
	printf(", \"status\": \"%s\", \"freeze_capable\": %s, "
	       "\"convert\": %s, \"reason\": ", unit_status_names[u->status],
	       u->capable ? "true" : "false",
	       unit_converted(sv, u) ? "true" : "false");
	json_str(stdout, u->reason);
	printf(",\n   \"uses\": {\"total\": %u, \"kthread\": %u, "
	       "\"user\": %u, \"macro\": %u, \"unknown\": %u}",
	       u->nuses, u->uses[CTX_KTHREAD], u->uses[CTX_USER],
	       u->uses[CTX_MACRO], u->uses[CTX_UNKNOWN]);
	printf(",\n   \"fstypes\": [");
	for (i = 0; i < u->types.n; i++) {
		printf("%s", i ? ", " : "");
		json_fstype(sv, &u->types.v[i]);
	}
	printf("],\n   \"s_ops\": [");
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = sv->files.files.v[i];

		for (k = 0; k < fi->sops.n; k++) {
			printf("%s{\"name\": ", first ? "" : ", ");
			first = false;
			json_str(stdout, fi->sops.v[k].name);
			printf(", \"file\": ");
			json_str(stdout, relpath(sv, fi->path));
			printf(", \"line\": %u, \"freeze_fs\": %s, "
			       "\"freeze_super\": %s}", fi->sops.v[k].line,
			       fi->sops.v[k].freeze_fs ? "true" : "false",
			       fi->sops.v[k].freeze_super ? "true" : "false");
		}
	}
	printf("]");
	json_strs("kthreads", u->kthreads.v, u->kthreads.n, "");
	json_strs("configs", u->configs.v, u->configs.n, "CONFIG_");
	printf(", \"users\": [");
	for (i = 0; i < u->users.n; i++) {
		printf("%s{\"unit\": ", i ? ", " : "");
		json_str(stdout, u->users.v[i]->rel);
		printf(", \"freeze_capable\": %s}",
		       u->users.v[i]->capable ? "true" : "false");
	}
	printf("]}");
}

void print_units_json(const struct unit_survey *sv)
{
	size_t i;

	printf("[\n");
	for (i = 0; i < sv->list.n; i++) {
		print_json(sv, sv->list.v[i]);
		printf("%s\n", i + 1 < sv->list.n ? "," : "");
	}
	printf("]\n");
}

/*
 * "flagstate UNIT NAME PATH LINE:COL STATE WHY" for each type of U that
 * carries the tree's opt-in flag or gets it (unit_flag_state()); WHY
 * says why a misplaced flag should not be there, or the judgment that
 * accepts it, else "-".
 */
static void print_flag_states(const struct unit_survey *sv,
			      const struct unit *u)
{
	size_t i;

	for (i = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];
		const struct judgment *j;
		enum flag_state st = unit_flag_state(sv, u, t, &j);
		unsigned int line, col;

		if (st == FLAG_NONE)
			continue;
		unit_flag_position(sv, t, &line, &col);
		printf("flagstate\t%s\t%s\t%s\t%u:%u\t%s\t", u->rel,
		       t->ft->name, relpath(sv, t->fi->path), line, col,
		       flag_state_names[st]);
		if (j)
			printf("%s: %s\n", j->code, j->evidence);
		else if (st != FLAG_MISPLACED)
			puts("-");
		else if (u->status != UNIT_ELIGIBLE)
			printf("%s is not eligible: %s\n", unit_name(u),
			       u->reason);
		else if (t->judged)
			printf("%s: %s\n", t->judged->code,
			       t->judged->evidence);
		else
			printf("%s is not freeze-capable: %s\n", t->ft->name,
			       t->ft->requires_dev ? "its super_operations "
			       "have no callback the suspend freeze calls" :
			       "not FS_REQUIRES_DEV");
	}
}

static void print_plan_unit(const struct unit_survey *sv,
			    const struct unit *u)
{
	strvec files = { 0 };
	const struct judgment *jd;
	size_t j;

	printf("unit\t%s\t%s\t%s\n", u->rel,
	       u->status == UNIT_CORE ? "skip" : unit_status_names[u->status],
	       u->reason);
	print_flag_states(sv, u);
	if (u->status == UNIT_CORE || !unit_converted(sv, u))
		return;
	for (j = u->first; j < u->end; j++) {
		const struct file_info *fi = sv->files.files.v[j];

		if (unit_needs_file(u, fi))
			vec_push(&files, (char *)relpath(sv, fi->path));
	}
	xqsort(files.v, files.n, sizeof(char *), cmp_strp);
	for (j = 0; j < files.n; j++)
		printf("file\t%s\t%s\n", u->rel, files.v[j]);
	vec_free(&files);
	for (j = 0; (jd = judged_note(&sv->judgments, u->rel, j)); j++)
		printf("note\t%s\t%s: %s\n", u->rel, jd->code, jd->evidence);
	for (j = u->first; j < u->end; j++) {
		const struct file_info *fi = sv->files.files.v[j];
		size_t k;

		for (k = 0; k < fi->uses.n; k++) {
			const struct use *us = &fi->uses.v[k];
			char *why;
			enum use_judged uj = unit_judges_use(sv, u, fi, us,
							     &jd, &why);

			if (uj != USE_FREE) {
				printf("%s\t%s\t%s\t%u:%u\t",
				       use_judged_names[uj], u->rel,
				       relpath(sv, fi->path), us->line,
				       us->col);
				if (uj == USE_UNREVIEWED)
					printf("unreviewed: %s\n", why);
				else
					printf("%s: %s\n", jd->code,
					       jd->evidence);
			}
			free(why);
			if (freezer_use_dead(sv->files.files.v + u->first,
					     u->end - u->first, us))
				printf("nofreeze\t%s\t%s\t%u:%u\t%s\n", u->rel,
				       relpath(sv, fi->path), us->line,
				       us->col, us->func);
		}
	}
	for (j = 0; j < u->kthreads.n; j++) {
		printf("kthread\t%s\t%s", u->rel, u->kthreads.v[j]);
		if (u->kthread_via.v[j])
			printf("\t%s", u->kthread_via.v[j]);
		putchar('\n');
	}
	for (j = 0; j + 1 < u->twins.n; j += 2)
		printf("twin\t%s\t%s\t%s\n", u->rel, u->twins.v[j],
		       u->twins.v[j + 1]);
	for (j = 0; j < u->unused_twins.n; j++)
		printf("unusedtwin\t%s\t%s\n", u->rel, u->unused_twins.v[j]);
	for (j = 0; j < u->types.n; j++)
		if (unit_flags_fstype(u, &u->types.v[j]))
			printf("fstype\t%s\t%s\t%s\n", u->rel,
			       u->types.v[j].ft->name,
			       relpath(sv, u->types.v[j].fi->path));
}

/*
 * "optin STATE FLAG FUNC WHERE TEXT": the flag the conversion adds and
 * what freezes the types that carry it (STATE tree; series or partial:
 * make vfs first, WHERE then the series it applies), or "optin none -
 * WHY".  With AT (the plan), a seventh column where the tree's freeze
 * falls short in its code, FILE:LINE:COL, when it does: check-tree's
 * finding.
 */
static void optin_line(const struct freeze_path *fp, bool at)
{
	static const char *const states[] = {
		[FREEZE_NONE] = "none", [FREEZE_TREE] = "tree",
		[FREEZE_SERIES] = "series", [FREEZE_PARTIAL] = "partial",
	};

	if (fp->state == FREEZE_NONE) {
		printf("optin\tnone\t-\t-\t-\t%s", fp->why);
		goto end;
	}
	printf("optin\t%s\t%s\t%s\t%s\tfrozen on suspend and hibernation by %s()",
	       states[fp->state], fp->flag, fp->func,
	       fp->series ? fp->series : fp->where, fp->func);
	if (fp->state == FREEZE_SERIES && fp->lacks)
		printf(" (%s) once make vfs applies %s, which adds what it "
		       "lacks: %s", fp->where, fp->series, fp->lacks);
	else if (fp->state == FREEZE_SERIES)
		printf(" once make vfs applies %s", fp->where);
	else if (fp->state == FREEZE_PARTIAL)
		printf(" (%s) once the tree has all that a conversion needs "
		       "from it: %s", fp->where, fp->why);
	else
		printf(" (%s)", fp->where);
end:
	if (at && fp->at)
		printf("\t%s", fp->at);
	putchar('\n');
}

void print_optin(const struct freeze_path *fp)
{
	optin_line(fp, false);
}

void print_plan(const struct unit_survey *sv)
{
	size_t i;

	if (sv->force)
		puts("option\tforce");
	optin_line(&sv->freeze, true);
	for (i = 0; i < sv->list.n; i++)
		print_plan_unit(sv, sv->list.v[i]);
}

/*
 * "FILE:LINE: UNIT: CODE[ on NAME()[ (MATCH)]]: holds: EVIDENCE", "...:
 * other code, line N holds here: WHY" (another line on the same subject
 * holds) or "...: lapsed: WHY" for each judgment on a unit of the
 * survey's list.
 */
void print_judgments(const struct unit_survey *sv)
{
	const struct judgments *js = &sv->judgments;
	size_t i, k;

	for (i = 0; i < js->v.n; i++) {
		const struct judgment *j = &js->v.v[i], *instead;
		char *where;

		for (k = 0; k < sv->list.n; k++)
			if (!strcmp(sv->list.v[k]->rel, j->unit))
				break;
		if (k == sv->list.n)
			continue;
		where = judgment_where(js, j);
		printf("%s: %s: %s", where, j->unit, j->code);
		if (j->what != JUDGED_UNIT && j->what != JUDGED_NOTE)
			printf(" on %s%s", j->name,
			       j->what == JUDGED_USE ||
			       j->what == JUDGED_QUIESCED ? "()" : "");
		if (j->match)
			printf(" (%s)", j->match);
		instead = judgment_instead(js, j);
		if (j->state == JUDGMENT_HOLDS)
			printf(": holds: %s\n", j->evidence);
		else if (instead)
			printf(": other code, line %u holds here: %s\n",
			       instead->lineno, j->lapse);
		else
			printf(": lapsed: %s\n", j->lapse);
		free(where);
	}
}
