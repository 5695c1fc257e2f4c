/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usegroups.h - a unit's freezer uses grouped by their verdict's reason,
 * as a changelog lists them (usegroups.c), for "autofreeze report -f
 * changelog".
 */
#ifndef AF_USEGROUPS_H
#define AF_USEGROUPS_H

#include <stdio.h>

#include "planfile.h"
#include "verdict.h"

/* The uses of one status with one reason, in the order they came. */
struct use_group {
	const char *status;
	char *why;		/* the reason, the hint to the tool's user cut */
	const char *file;	/* the first use's file */
	charvec where;		/* LINE,LINE, FILE:LINE,... after FILE: */
	strvec apis;		/* each API once, in the order they came */
};

/* A unit's groups (a vec of util.h). */
struct use_groups {
	struct use_group *v;
	size_t n, cap;
};

/* Add use S, whose verdict is V, to G. */
void use_groups_add(struct use_groups *g, const struct scanned_use *s,
		    const struct use_verdict *v);
/*
 * G's groups of STATUS on F, one a line led by LEAD: "- FILE:LINE,...
 * (API, ...), REASON." and " Quiesced: EVIDENCE." when the reason has it.
 */
void use_groups_print(FILE *f, const struct use_groups *g, const char *lead,
		      const char *status);
void use_groups_free(struct use_groups *g);

#endif /* AF_USEGROUPS_H */
