// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - a unit's status (eligible, skip, library, unreviewed,
 * core), the one-line reason for it, and whether it is converted.
 *
 * decide_status() is the entry point, called for each unit analyzed
 * once its file_system_types are traced (fstypes.c): it writes the
 * status and the reason, whose text the reason_*() functions build.
 * unit_converted() (units.h) tells from the status and --force whether
 * the unit is converted.
 */
#include <stdlib.h>
#include <string.h>

#include "fstypes.h"
#include "status.h"

const char *const unit_status_names[] = {
	[UNIT_ELIGIBLE] = "eligible",
	[UNIT_SKIP] = "skip",
	[UNIT_LIBRARY] = "library",
	[UNIT_UNREVIEWED] = "unreviewed",
	[UNIT_CORE] = "core",
};

static void add_str(charvec *s, const char *str)
{
	for (; *str; str++)
		vec_push(s, *str);
}

/* The first freezing super_operations of T and its field. */
static const char *freeze_field(struct unit_survey *sv,
				const struct unit *u,
				const struct unit_fstype *t, const char **sop)
{
	size_t j;

	for (j = 0; j < t->nsops; j++) {
		const struct sop *s = find_sop(sv, u, t->sops[j]);

		if (sop_freezes(sv, s)) {
			*sop = s->name;
			return sop_freeze_field(sv, s);
		}
	}
	return NULL;
}

/* "library: no file_system_type, used by U (eligible), ..." */
static void reason_library(const struct unit *u, charvec *r)
{
	size_t i;

	add_str(r, "library: no file_system_type, ");
	if (!u->users.n)
		add_str(r, "no users (no Kconfig symbol selects or depends "
			"on it)");
	else
		add_str(r, "used by ");
	for (i = 0; i < u->users.n; i++) {
		if (i)
			add_str(r, ", ");
		add_str(r, unit_name(u->users.v[i]));
		add_str(r, u->users.v[i]->status == UNIT_ELIGIBLE ?
			" (eligible)" : " (not eligible)");
	}
}

/* "; T not flagged: CODE: EVIDENCE" for each judged type of U. */
static void reason_judged_types(const struct unit *u, charvec *r)
{
	size_t i;

	for (i = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		if (!t->judged)
			continue;
		add_str(r, "; ");
		add_str(r, t->ft->name);
		add_str(r, " not flagged: ");
		add_str(r, t->judged->code);
		add_str(r, ": ");
		add_str(r, t->judged->evidence);
	}
}

/*
 * How the suspend freeze reaches FIELD: ", which the suspend freeze
 * calls: fs_suspend_freeze_sb() -> freeze_super() -> .freeze_fs
 * (patches/linux-6.1/)", or nothing when no suspend freeze was found.
 */
static void reason_freeze_path(const struct unit_survey *sv,
			       const char *field, charvec *r)
{
	if (!sv->freeze.func)
		return;
	add_str(r, ", which the suspend freeze calls: ");
	add_str(r, sv->freeze.func);
	add_str(r, "() -> ");
	if (!strcmp(field, ".freeze_fs"))
		add_str(r, "freeze_super() -> ");
	add_str(r, field);
	add_str(r, " (");
	add_str(r, sv->freeze.where);
	add_str(r, ")");
}

/*
 * "eligible: T, T2 are FS_REQUIRES_DEV and S has .freeze_fs; ...": the
 * capable types grouped by the (sop, field) that makes them capable.
 */
static void reason_eligible(struct unit_survey *sv, const struct unit *u,
			    charvec *r)
{
	bool *done = xcalloc(u->types.n, sizeof(bool));
	size_t i, j;

	add_str(r, "eligible: ");
	for (i = 0; i < u->types.n; i++) {
		const char *sop = NULL, *field, *sop2 = NULL;
		size_t count = 0;

		if (done[i] || !u->types.v[i].capable)
			continue;
		field = freeze_field(sv, u, &u->types.v[i], &sop);
		if (r->n > 10)
			add_str(r, "; ");
		for (j = i; j < u->types.n; j++) {
			const struct unit_fstype *t = &u->types.v[j];

			if (done[j] || !t->capable)
				continue;
			if (strcmp(freeze_field(sv, u, t, &sop2), field) ||
			    strcmp(sop2, sop))
				continue;
			done[j] = true;
			if (count++)
				add_str(r, ", ");
			add_str(r, t->ft->name);
		}
		add_str(r, count > 1 ? " are" : " is");
		add_str(r, " FS_REQUIRES_DEV and ");
		add_str(r, sop);
		add_str(r, " has ");
		add_str(r, field);
		reason_freeze_path(sv, field, r);
	}
	free(done);
	reason_judged_types(u, r);
}

/*
 * "not freeze-capable: the suspend freeze ... calls only freeze_super()":
 * U's block-backed types have .freeze_super but no .freeze_fs, and the
 * suspend freeze never calls a type's own ->freeze_super (the 6.1
 * series).  False, with nothing added, otherwise.
 */
static bool super_op_missed(const struct unit_survey *sv,
			    const struct unit *u, charvec *r)
{
	const struct sop *found = NULL;
	size_t i, k;

	if (!sv->freeze.func || sv->freeze.super_op)
		return false;
	for (i = 0; i < u->types.n && !found; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		for (k = 0; k < t->nsops && t->ft->requires_dev && !found; k++) {
			const struct sop *s = find_sop(sv,
						       u, t->sops[k]);

			if (s && s->freeze_super && !s->freeze_fs)
				found = s;
		}
	}
	if (!found)
		return false;
	add_str(r, "not freeze-capable: the suspend freeze, ");
	add_str(r, sv->freeze.func);
	add_str(r, "() (");
	add_str(r, sv->freeze.where);
	add_str(r, "), calls only the VFS freeze_super(), which calls "
		".freeze_fs, and ");
	add_str(r, found->name);
	add_str(r, " has .freeze_super alone");
	return true;
}

/* "not freeze-capable: ...": no FS_REQUIRES_DEV, or no freezing s_op. */
static void reason_skip(struct unit_survey *sv, const struct unit *u,
			charvec *r)
{
	bool dev = false;
	size_t i, j, k;

	for (i = 0; i < u->types.n; i++)
		dev |= u->types.v[i].ft->requires_dev;
	if (!dev) {
		add_str(r, "not block-backed: no FS_REQUIRES_DEV "
			"file_system_type");
		return;
	}
	if (super_op_missed(sv, u, r)) {
		reason_judged_types(u, r);
		return;
	}
	for (i = 0; i < u->types.n; i++) {
		if (u->types.v[i].judged) {
			add_str(r, "not freeze-capable");
			reason_judged_types(u, r);
			return;
		}
	}
	add_str(r, "not freeze-capable: no .freeze_fs/.freeze_super (");
	for (i = 0, j = 0; i < u->types.n; i++) {
		const struct unit_fstype *t = &u->types.v[i];

		if (!t->ft->requires_dev)
			continue;
		if (j++)
			add_str(r, "; ");
		add_str(r, t->ft->name);
		add_str(r, ": ");
		if (!t->nsops)
			add_str(r, "no super_operations");
		for (k = 0; k < t->nsops; k++) {
			if (k)
				add_str(r, ", ");
			add_str(r, t->sops[k]);
		}
	}
	add_str(r, ")");
}

/*
 * "unreviewed: cluster (policy/judgments.tsv:31) no longer holds: WHY":
 * a judgment that held U back, whose anchor is gone.
 */
static void reason_lapsed(const struct unit_survey *sv,
			  const struct judgment *j, charvec *r)
{
	char *where = judgment_where(&sv->judgments, j);

	add_str(r, "unreviewed: ");
	add_str(r, j->code);
	add_str(r, " (");
	add_str(r, where);
	add_str(r, ") no longer holds: ");
	add_str(r, j->lapse);
	add_str(r, "; the unit stays as it is until that is reviewed again");
	free(where);
}

void decide_status(struct unit_survey *sv, struct unit *u)
{
	const struct judgment *j = judged_unit(&sv->judgments, u->rel);
	const struct judgment *lapsed = lapsed_unit(&sv->judgments, u->rel);
	charvec r = { 0 };

	if (u->core) {
		u->status = UNIT_CORE;
		u->reason = xstrdup("the files at the top of fs/ are the "
				    "VFS, not a filesystem unit");
		return;
	}
	if (u->types.n && !u->capable) {
		u->status = UNIT_SKIP;
		reason_skip(sv, u, &r);
	} else if (j) {
		u->status = UNIT_SKIP;
		add_str(&r, "not eligible: ");
		add_str(&r, j->code);
		add_str(&r, ": ");
		add_str(&r, j->evidence);
	} else if (!u->types.n) {
		u->status = UNIT_LIBRARY;
		reason_library(u, &r);
	} else if (lapsed) {
		u->status = UNIT_UNREVIEWED;
		reason_lapsed(sv, lapsed, &r);
	} else {
		u->status = UNIT_ELIGIBLE;
		reason_eligible(sv, u, &r);
	}
	vec_push(&r, '\0');
	u->reason = xstrdup(r.v);
	vec_free(&r);
}

bool unit_converted(const struct unit_survey *sv, const struct unit *u)
{
	return u->status == UNIT_ELIGIBLE ||
		(sv->force && (u->status == UNIT_SKIP ||
			       u->status == UNIT_LIBRARY ||
			       u->status == UNIT_UNREVIEWED));
}
