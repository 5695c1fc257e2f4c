/* SPDX-License-Identifier: GPL-2.0 */
/*
 * freezepath.h - how the target kernel freezes a superblock on suspend
 * (freezepath.c): which callback a type's freeze reaches.
 */
#ifndef AF_FREEZEPATH_H
#define AF_FREEZEPATH_H

#include <stdbool.h>

#include "util.h"

struct freeze_path {
	const char *func;	/* the per-superblock suspend freeze, or NULL */
	char *where;		/* "fs/super.c" or "patches/linux-6.1/" */
	bool super_op;		/* it calls a type's ->freeze_super */
};

/*
 * Read the suspend freeze of kernel tree KTREE: from its fs/super.c, else
 * from the series for VERSION ("6.12").  FP->func is NULL when neither
 * has one.
 */
void freeze_path_read(struct freeze_path *fp, const char *ktree,
		      const char *version);
void freeze_path_free(struct freeze_path *fp);

#endif /* AF_FREEZEPATH_H */
