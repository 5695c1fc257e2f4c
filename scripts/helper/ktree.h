/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktree.h - the one kernel-tree check (ktree.c).
 */
#ifndef AF_KTREE_H
#define AF_KTREE_H

#include <stdbool.h>

/* A kernel tree, its real path, and a directory of it, relative. */
struct ktree_dir {
	char *root;
	char *dir;		/* "." for the whole tree */
};

/*
 * Why DIR is not a kernel tree (a top Makefile setting VERSION, Kconfig,
 * fs/, include/linux/fs.h), or NULL when it is one.
 */
const char *ktree_problem(const char *dir);
bool is_ktree(const char *dir);

/* The nearest directory at or above REALDIR that is a kernel tree. */
char *ktree_root(const char *realdir);

/*
 * Check KTREE and DIR (relative to KTREE, inside it once symbolic links
 * are followed) and fill KD; NULL on success, else the one-line message
 * (KTREE=... or DIR=...), to be freed.
 */
char *ktree_resolve(const char *ktree, const char *dir, struct ktree_dir *kd);
void ktree_dir_free(struct ktree_dir *kd);

/*
 * The one argument KTREE of sub-command CMD (optin, series), resolved
 * into KD: 0, or EXIT_BADINPUT after a one-line message.
 */
int ktree_only_arg(const char *cmd, int argc, char **argv,
		   struct ktree_dir *kd);

#endif
