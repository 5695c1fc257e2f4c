/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fstypes.h - a unit's file_system_types traced (fstypes.c): the
 * super_operations each uses, whether the suspend freeze reaches their
 * callback, and which types own superblocks.
 */
#ifndef AF_FSTYPES_H
#define AF_FSTYPES_H

#include <stdbool.h>

#include "unitindex.h"
#include "units.h"

/* The super_operations NAME of unit U, or NULL. */
const struct sop *find_sop(const struct unit_survey *sv,
			   const struct unit *u, const char *name);

/*
 * S has the callback the suspend freeze reaches: .freeze_fs, which the
 * VFS freeze_super() calls, or .freeze_super where the suspend freeze
 * calls a type's own (or where no suspend freeze was found to tell).
 */
const char *sop_freeze_field(const struct unit_survey *sv,
			     const struct sop *s);

/* S has such a callback: sop_freeze_field() finds one. */
bool sop_freezes(const struct unit_survey *sv, const struct sop *s);

/* Each file_system_type of U, its super_operations, whether capable. */
void trace_fstypes(struct unit_survey *sv, struct unit *u,
		   struct unit_index *ix);

#endif /* AF_FSTYPES_H */
