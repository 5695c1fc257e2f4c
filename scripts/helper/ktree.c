// SPDX-License-Identifier: GPL-2.0
/*
 * ktree.c - the one kernel-tree check: is KTREE a kernel tree, and DIR a
 * directory inside it?  Every driver asks "autofreeze ktree", and the
 * helper's own commands call ktree_resolve(), so a tree is judged by one
 * set of criteria everywhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktree.h"
#include "scan.h"
#include "tree.h"
#include "util.h"

/*
 * The value of "NAME = value" in the Makefile at PATH (malloc'ed, maybe
 * empty), or NULL when it sets no NAME.
 */
static char *makefile_var(const char *path, const char *name)
{
	char *buf = NULL, *p, *r = NULL;
	size_t len, cap = 0, n = strlen(name);

	/* a FIFO or a device there makes no kernel tree */
	if (!is_file(path) || read_file(path, &buf, &len, &cap, NULL, NULL))
		return NULL;
	for (p = buf; p && p < buf + len; p = memchr(p, '\n', buf + len - p)) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, n)) {
			const char *q = p + n, *e;

			while (*q == ' ' || *q == '\t')
				q++;
			if (*q != '=')
				continue;
			q++;
			while (*q == ' ' || *q == '\t')
				q++;
			e = q;
			while (e < buf + len && *e != '\n' && *e != ' ' &&
			       *e != '\t')
				e++;
			r = xstrndup(q, (size_t)(e - q));
			break;
		}
	}
	free(buf);
	return r;
}

/* A top Makefile that sets VERSION, as every kernel's does. */
static bool makefile_has_version(const char *path)
{
	char *v = makefile_var(path, "VERSION");
	bool r = v != NULL;

	free(v);
	return r;
}

const char *ktree_problem(const char *dir)
{
	static const char why[] = "not a kernel tree (no top Makefile with "
		"VERSION, Kconfig, fs/, include/linux/fs.h)";
	char *mk, *kc, *fs, *fsh;
	bool ok;

	if (!is_dir(dir))
		return access(dir, F_OK) ? "no such directory" :
			"not a directory";
	mk = path_join(dir, "Makefile");
	kc = path_join(dir, "Kconfig");
	fs = path_join(dir, "fs");
	fsh = path_join(dir, "include/linux/fs.h");
	ok = is_file(kc) && is_dir(fs) && is_file(fsh) &&
		makefile_has_version(mk);
	free(mk);
	free(kc);
	free(fs);
	free(fsh);
	return ok ? NULL : why;
}

bool is_ktree(const char *dir)
{
	return !ktree_problem(dir);
}

char *ktree_root(const char *realdir)
{
	char *d = xstrdup(realdir);

	for (;;) {
		char *slash;

		if (is_ktree(d))
			return d;
		slash = strrchr(d, '/');
		if (!slash || slash == d)
			break;
		*slash = '\0';
	}
	free(d);
	return NULL;
}

/*
 * A unit is converted whole or not at all: a DIR inside one is refused,
 * naming the unit, rather than widened to it without a word.
 */
static char *dir_inside_unit(struct ktree_dir *kd)
{
	char *unit = unit_enclosing(kd->root, kd->dir), *msg;

	if (!unit)
		return NULL;
	msg = xasprintf("DIR=%s is inside the unit %s, which is converted whole or not at all: use DIR=%s",
			kd->dir, unit, unit);
	free(unit);
	ktree_dir_free(kd);
	return msg;
}

char *ktree_resolve(const char *ktree, const char *dir, struct ktree_dir *kd)
{
	char root[PATH_MAX], real[PATH_MAX], *p;
	const char *why;
	bool resolved;
	size_t n;

	memset(kd, 0, sizeof(*kd));
	/*
	 * From here on the helper reads the tree's files from inside it
	 * only, its own top Makefile first.
	 */
	resolved = is_dir(ktree) && realpath(ktree, root);
	if (resolved)
		read_confine(root);
	why = ktree_problem(resolved ? root : ktree);
	if (why)
		return xasprintf("KTREE=%s: %s%s", ktree, why,
				 is_dir(ktree) ? "" :
				 " (make deps, or KTREE=<kernel tree>)");
	if (!resolved)
		return xasprintf("KTREE=%s: %s", ktree, strerror(errno));
	if (dir[0] == '/')
		return xasprintf("DIR=%s: must be relative to KTREE", dir);
	p = path_join(root, dir);
	if (!is_dir(p)) {
		bool there = !access(p, F_OK);

		free(p);
		return xasprintf("DIR=%s: %s in %s", dir, there ?
				 "not a directory" : "no such directory", root);
	}
	if (!realpath(p, real)) {
		char *msg = xasprintf("DIR=%s: %s", dir, strerror(errno));

		free(p);
		return msg;
	}
	free(p);
	n = strlen(root);
	if (strncmp(real, root, n) || (real[n] && real[n] != '/'))
		return xasprintf("DIR=%s: outside KTREE (%s)", dir, real);
	kd->root = xstrdup(root);
	kd->dir = xstrdup(real[n] ? real + n + 1 : ".");
	return dir_inside_unit(kd);
}

void ktree_dir_free(struct ktree_dir *kd)
{
	free(kd->root);
	free(kd->dir);
	memset(kd, 0, sizeof(*kd));
}

/* Print WHY, which quotes KTREE or DIR as given, on one line; free it. */
static void warn_one_line(char *why)
{
	char *line = one_line(why);

	af_warn(NULL, "%s", line);
	free(line);
	free(why);
}

int cmd_ktree(int argc, char **argv)
{
	struct ktree_dir kd;
	char *why;

	if (argc != 3) {
		fprintf(stderr, "usage: %s ktree KTREE DIR\n", PROG);
		return EXIT_BADINPUT;
	}
	why = ktree_resolve(argv[1], argv[2], &kd);
	if (why) {
		warn_one_line(why);
		return EXIT_BADINPUT;
	}
	printf("%s\t%s\n", kd.root, kd.dir);
	ktree_dir_free(&kd);
	return 0;
}

int ktree_only_arg(const char *cmd, int argc, char **argv,
		   struct ktree_dir *kd)
{
	char *why;

	if (argc != 2) {
		af_warn(NULL, "%s: usage: %s KTREE", cmd, cmd);
		return EXIT_BADINPUT;
	}
	why = ktree_resolve(argv[1], ".", kd);
	if (why) {
		warn_one_line(why);
		return EXIT_BADINPUT;
	}
	return 0;
}
