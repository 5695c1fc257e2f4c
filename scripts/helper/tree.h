/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tree.h - sets of source files read and analyzed in parallel, and what
 * a kernel tree's directories look like (its units; its root is ktree.h's).
 */
#ifndef AF_TREE_H
#define AF_TREE_H

#include <stdbool.h>

#include "analyze.h"
#include "util.h"

struct fileset {
	VEC(struct file_info *) files;
	VEC(struct arena *) arenas;	/* one per worker run */
	struct hmap by_id;		/* file_id -> its file_info */
};

/*
 * Add PATH (copied) unless a file with the same inode is there already
 * (that one is then marked "again").  INO may be 0 when unknown (then
 * the file is stat'ed).  Returns the new entry or NULL.
 */
struct file_info *fileset_add(struct fileset *fs, const char *path,
			      ino_t ino);

/* How much of each file fileset_process() reads. */
enum read_depth {
	READ_USES,	/* lex the files that may use the freezer */
	READ_THREADS,	/* ... or may start a thread */
	READ_FULL,	/* lex every file, with functions and initializers */
};

/*
 * Read and analyze the files IDX[0..N) (all from FROM on when IDX is
 * NULL) with JOBS threads.
 */
void fileset_process(struct fileset *fs, const size_t *idx, size_t n,
		     size_t from, int jobs, enum read_depth depth);

void fileset_free(struct fileset *fs);

/*
 * A unit directory: it has a Makefile with obj- lines and C files of its
 * own (fs/smb, whose Makefile only enters its subdirectories, is not).
 */
bool dir_is_unit(const char *dir);

/* True when DIR directly holds a *.c file. */
bool dir_has_c(const char *dir);

/*
 * The unit holding REL, a directory of the kernel tree KTREE: REL or
 * the nearest directory above it that is a unit (the top of the tree
 * never is: REL "" or "." has none).  Relative to KTREE, malloc'ed, or
 * NULL.
 */
char *unit_dir_of(const char *ktree, const char *rel);

/*
 * The unit that REL, a directory of KTREE below its top, lies inside of
 * when REL is no unit and holds none: a unit is converted whole or not
 * at all, so REL is refused rather than widened to it.  Relative to
 * KTREE, malloc'ed; NULL when REL is or holds a unit, or nothing above
 * it is one.
 */
char *unit_enclosing(const char *ktree, const char *rel);

/* Add every source file of unit UNITDIR: nested units are skipped. */
void fileset_add_unit(struct fileset *fs, const char *unitdir, bool core);

#endif /* AF_TREE_H */
