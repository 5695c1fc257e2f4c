/* SPDX-License-Identifier: GPL-2.0 */
/*
 * planfile.h - the files the decisions after the plan read (planfile.c):
 * the plan, "autofreeze scan" output, FILE:LINE: lines and the flags
 * list; shared by verdict.c, rulerun.c, report.c and check.c.
 */
#ifndef AF_PLANFILE_H
#define AF_PLANFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/*
 * A use a judgment keeps freezable, or whose work the unit's freeze
 * quiesces: the plan's keep and quiesced lines.
 */
struct kept_use {
	char *file;
	long line;
	char *code, *evidence;		/* of "CODE: EVIDENCE" */
};

typedef VEC(struct kept_use) kept_usevec;

/* A flagstate line of the plan: a type and the opt-in flag. */
struct flagstate {
	char *type, *file, *state, *why;
	long line;
	char *col;
};

/* The plan, as "autofreeze plan" writes it. */
struct plan_unit {
	char *name, *status, *reason;
	bool converted;			/* it has file lines */
	bool whole;			/* flags: left whole, not flagged */
	strvec files, kthreads, fstypes, fstype_files;
	strvec twins;			/* the freezable macros renamed */
	strvec twin_to;			/* per twin: its plain twin */
	strvec unused_twins;		/* twins whose definitions go */
	strvec kthread_via;		/* per kthread: a caller, or "" */
	kept_usevec keeps, quiesced, unreviewed;
	kept_usevec nofreeze;		/* dead freezer code: code the thread */
	strvec notes;			/* "CODE: EVIDENCE" */
	VEC(struct flagstate) flagstates;
	char *flag;			/* report's flag line, or NULL */
	/* the flags file's line: "flag", "noflag" or "forced", or NULL */
	const char *flag_verdict;
	strvec flag_types;		/* flag: the types that get it */
	char *flag_why;			/* noflag, forced: why */
	size_t count[3];		/* report: converted, kept, manual */
	strvec uses;			/* report's use lines, in full */
	strvec brief_uses;		/* the same, each reason said once */
	strvec json_uses;
};

struct plan {
	VEC(struct plan_unit) units;
	bool force;			/* "option force": FORCE=1 */
	/* "optin STATE FLAG FUNC WHERE TEXT [AT]": what freezes a flagged type */
	char *optin_state, *optin_flag, *optin_text;
	char *optin_at;			/* FILE:LINE:COL it falls short, or NULL */
};

/* One "FILE:LINE:COL..." line: where it points, and what follows. */
struct located {
	char *file;
	long line;
	char *col;		/* "COL" or "FIRST-LAST" */
	char *rest;		/* after ": " */
	size_t order;
};

/* A use, as "autofreeze scan" prints it: FILE:LINE:COL: API CONTEXT FN */
struct scanned_use {
	struct located at;
	char *api, *ctx, *fn;
};

typedef VEC(struct located) locvec;
typedef VEC(struct scanned_use) usevec;

/* The flag the plan adds, for messages: "FS_POWER_FREEZE". */
const char *plan_flag(const struct plan *p);

/* PATH's lines, each ended at its newline: the buffer they are in. */
char *slurp_lines(const char *path, strvec *lines);

/* Every line of PATH that is a FILE:LINE: place; sorted by place. */
void read_located(const char *path, bool with_col, locvec *out);
void locvec_free(locvec *v);
/* The first entry of V at FILE:LINE, and how many there are. */
struct located *find_place(const locvec *v, const char *file, long line,
			   size_t *n);

/* The plan at PATH, as "autofreeze plan" writes it. */
void plan_read(const char *path, struct plan *p);
void plan_free(struct plan *p);
/* The unit of plan P named NAME, or NULL. */
struct plan_unit *plan_find(struct plan *p, const char *name);
/*
 * The unit of PATH for the report: the longest unit of the plan that is
 * a prefix of it; "fs" when none is.
 */
const char *unit_of_path(const struct plan *p, const char *path);

/* The uses of "autofreeze scan" output PATH, sorted by FILE:LINE. */
void read_scan(const char *path, usevec *out);
/* Uses back in the order of their lines in the scan's output (xqsort). */
int cmp_use_order(const void *a, const void *b);
void usevec_free(usevec *v);

/* flags: "flag UNIT TYPES", "noflag UNIT REASON" or "forced UNIT
 * REASON" lines, as unit_flag_verdict() writes them; the report shows
 * them. */
void read_flags(const char *path, struct plan *p);

#endif /* AF_PLANFILE_H */
