/* SPDX-License-Identifier: GPL-2.0 */
/*
 * units.h - a kernel tree's units and what is decided about each: which
 * directories under DIR are units, their file_system_types and the
 * super_operations those use, which functions are their threads,
 * whether a unit can be frozen by the VFS, its status (eligible, skip,
 * library, core) with the reason, and so which file_system_types get
 * flagged and which files spatch must see.
 *
 * A unit is a directory with a Makefile with obj- lines and C files of
 * its own; the files at the top of fs/ are "fs (core)".  A unit is
 * freeze-capable when one of its file_system_types is FS_REQUIRES_DEV
 * and uses a super_operations with the callback the suspend freeze
 * reaches (freezepath.h): .freeze_fs, or .freeze_super where the suspend
 * freeze calls a type's own.
 */
#ifndef AF_UNITS_H
#define AF_UNITS_H

#include <stdbool.h>

#include "analyze.h"
#include "cdef.h"
#include "freezepath.h"
#include "judgments.h"
#include "kbuild.h"
#include "tree.h"
#include "util.h"

enum unit_status {
	UNIT_ELIGIBLE,	/* freeze-capable: converted */
	UNIT_SKIP,	/* has a file_system_type, not freeze-capable */
	UNIT_LIBRARY,	/* no file_system_type: used by other units */
	UNIT_UNREVIEWED,	/* a judgment that held it back has lapsed */
	UNIT_CORE,	/* fs (core), the VFS itself: never converted */
};

extern const char *const unit_status_names[];

/* A file_system_type of a unit, with the super_operations it uses. */
struct unit_fstype {
	const struct fstype *ft;
	const struct file_info *fi;	/* the file defining it */
	const char **sops;	/* traced (or the unit's), sorted */
	size_t nsops;
	bool traced;		/* false: sops are all the unit's */
	bool capable;		/* FS_REQUIRES_DEV and a freezing s_op */
	const struct judgment *judged;	/* never flagged: why */
	const char *creates;	/* the call that creates its superblocks */
	struct judgment *derived;	/* judged by the helper itself, owned */
};

struct unit {
	char *rel;		/* relative to KTREE: "fs/xfs"; "fs" core */
	char *path;		/* KTREE/rel */
	bool core;
	bool requested;		/* in the survey's list */
	bool analyzed;		/* its files read and analyzed */
	size_t first, end;	/* its files in the survey's fileset */
	enum unit_status status;
	bool capable;		/* one of its types is */
	char *reason;
	unsigned int uses[CTX_MAX], nuses;
	strvec kthreads;	/* defined in the unit, sorted */
	struct strset kthread_set;	/* and those defined elsewhere */
	/* for each: NULL for a thread, else a caller (only threads reach it) */
	VEC(const char *) kthread_via;
	/*
	 * freezable macros of the unit with a plain twin: pairs FROM, TO
	 * (see find_twins())
	 */
	strvec twins;
	/*
	 * the FROMs of those the conversion leaves with no use, whose
	 * definitions then go (see twin_left_unused())
	 */
	strvec unused_twins;
	strvec configs;		/* the symbols it owns, sorted */
	VEC(struct unit *) users;	/* sorted by rel */
	VEC(struct unit_fstype) types;
};

/* What "units" and "plan" know of a kernel tree. */
struct unit_survey {
	const char *ktree;
	VEC(struct unit *) all;		/* every unit under fs/ and DIR */
	VEC(struct unit *) list;	/* the units of DIR, in order */
	struct kbuild kbuild;
	struct fileset files;		/* of the analyzed units */
	struct ctexts texts;		/* files read and lexed for the
					 * judgments and superblock traces */
	int jobs;
	bool force;			/* convert skip and library units */
	const char *judgments_path;	/* --judgments, or NULL */
	struct judgments judgments;	/* checked against this tree */
	struct freeze_path freeze;	/* how its suspend freezes a sb */
};

/*
 * Find the units of DIR (relative to SV->ktree, a directory there), read
 * the Makefiles and Kconfig files, analyze the units of DIR and the
 * users of its libraries, and decide about each.  Dies on bad input.
 */
void survey_units(struct unit_survey *sv, const char *dir);
void survey_free(struct unit_survey *sv);

/* The unit at relative path REL, or NULL. */
struct unit *find_unit(struct unit_survey *sv, const char *rel);
/* The unit holding relative path REL: it, or the nearest one above. */
struct unit *unit_above(struct unit_survey *sv, const char *rel);

/* "fs (core)" or the relative path. */
const char *unit_name(const struct unit *u);

/* U is converted: eligible, or skip or library with --force. */
bool unit_converted(const struct unit_survey *sv, const struct unit *u);

/* T gets flagged FS_AUTOFREEZE: a capable type of an eligible unit. */
bool unit_flags_fstype(const struct unit *u, const struct unit_fstype *t);

/* Where a file_system_type stands with the tree's opt-in flag. */
enum flag_state {
	FLAG_NONE,	/* it neither carries the flag nor gets it */
	FLAG_SET,	/* it carries it, as the conversion flags it */
	FLAG_MISSING,	/* the conversion flags it; it does not carry it */
	FLAG_MISPLACED,	/* it carries it; the conversion would not flag it */
	FLAG_JUDGED,	/* it carries it for a reason of its own (judged) */
};

extern const char *const flag_state_names[];

/*
 * Where T of U stands with the tree's opt-in flag (sv->freeze.flag),
 * from its .fs_flags and unit_flags_fstype(); for FLAG_JUDGED, *J is
 * the judgment.  check-tree reads it from the plan's flagstate lines.
 */
enum flag_state unit_flag_state(const struct unit_survey *sv,
				const struct unit *u,
				const struct unit_fstype *t,
				const struct judgment **j);

/*
 * Where to point at T's flag state: the flag in its .fs_flags, else
 * ".fs_flags", else the type's own line (column 1).
 */
void unit_flag_position(const struct unit_survey *sv,
			const struct unit_fstype *t, unsigned int *line,
			unsigned int *col);

/* What the reviewed judgments say of a use (unit_judges_use()). */
enum use_judged {
	USE_FREE,	/* the conversion would not take it off the freezer */
	USE_KEPT,	/* a judgment keeps it: its work is not quiesced */
	USE_QUIESCED,	/* a judgment says what quiesces its work */
	USE_UNREVIEWED,	/* the conversion would take it off the freezer,
			 * and no judgment that holds here covers it */
};

/*
 * What the judgments say of use US of FI, a file of unit U: with
 * USE_KEPT and USE_QUIESCED, *J is the judgment; with USE_UNREVIEWED,
 * *WHY says what is missing (malloc'ed): the judgment written for it
 * that lapsed here, and why, or that none is written.  A use in kernel
 * thread context (scan.c:use_context()) needs a judgment; it is looked
 * for on the function the use is in or, for a function only threads
 * reach, on a thread it is reached from.
 */
extern const char *const use_judged_names[];	/* the plan's line kinds */

enum use_judged unit_judges_use(const struct unit_survey *sv,
				const struct unit *u,
				const struct file_info *fi,
				const struct use *us,
				const struct judgment **j, char **why);

/*
 * Spatch must see FI, a file of converted unit U: it has a freezer use
 * in real code, or defines a file_system_type to flag.
 */
bool unit_needs_file(const struct unit *u, const struct file_info *fi);

#endif /* AF_UNITS_H */
