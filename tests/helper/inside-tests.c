// SPDX-License-Identifier: GPL-2.0
/*
 * inside-tests.c - the helper reads only regular files inside the tree
 * (util.c: open_source(), read_confine()): a FIFO is refused, not
 * waited on; a file of the confined tree that a symbolic link or ".."
 * leads out of is refused; one inside it, or a file outside the tree
 * spelled so, is read.  And one_line(): a user's value in a message
 * stays one line.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "util.h"

/*
 * How reading PATH ends: 0 read, -1 an error returned, else the exit
 * status of the helper's refusal (read in a child: it exits), 128 + the
 * signal that ended it (SIGALRM: it hung).
 */
static int read_ends(const char *path)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -2;
	if (!pid) {
		char *buf = NULL;
		size_t len, cap = 0;
		int r;

		alarm(5);
		/* its one line is the test's to judge, not to show */
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		r = read_file(path, &buf, &len, &cap, NULL, NULL);
		free(buf);
		_exit(r ? 98 : 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -2;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	status = WEXITSTATUS(status);
	return status == 98 ? -1 : status;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* How reading each path ends once reads are confined to the tree. */
static const struct {
	const char *path;	/* relative to the tree, or to its parent */
	bool outside;		/* spelled from the tree's parent */
	int ends;		/* read_ends() */
	const char *what;
} confined[] = {
	{ "a.c", false, 0, "a file of the tree is read" },
	{ "in.c", false, 0,
	  "a symbolic link that stays inside the tree is read" },
	{ "out.c", false, EXIT_BADINPUT,
	  "a symbolic link out of the tree is refused (exit 2)" },
	{ "sub/../../outside.c", false, EXIT_BADINPUT,
	  "a path with .. out of the tree is refused (exit 2)" },
	{ "outside.c", true, 0, "a file outside the tree, spelled so, is read" },
	{ "missing.c", false, -1, "a missing file is an error, not a refusal" },
};

void test_inside(void)
{
	char tmpl[] = "/tmp/af-inside.XXXXXX", root[PATH_MAX];
	char *dir = mkdtemp(tmpl), *tree, *p, *q;
	size_t i;
	char *one;

	one = one_line("KTREE=a\nb\tc\001d");
	check_str(one, "KTREE=a\\nb\\tc\\001d",
		  "one_line: a newline, a tab, a control character escaped");
	free(one);
	if (!dir) {
		check(0, "inside: mkdtemp");
		return;
	}
	tree = path_join(dir, "tree");
	mkdir(tree, 0755);
	p = path_join(tree, "sub");
	mkdir(p, 0755);
	free(p);
	p = path_join(tree, "a.c");
	put_file(p, "int a;\n");
	free(p);
	p = path_join(dir, "outside.c");
	put_file(p, "int outside;\n");
	free(p);
	p = path_join(tree, "out.c");
	if (symlink("../outside.c", p))
		check(0, "inside: symlink");
	free(p);
	p = path_join(tree, "in.c");
	if (symlink("sub/../a.c", p))
		check(0, "inside: symlink");
	free(p);
	p = path_join(tree, "fifo");
	mkfifo(p, 0644);
	free(p);
	if (!realpath(tree, root)) {
		check(0, "inside: realpath");
		return;
	}

	p = path_join(tree, "fifo");
	check(read_ends(p) == EXIT_BADINPUT,
	      "open_source: a FIFO is refused at once (exit 2), not waited on");
	free(p);

	read_confine(root);
	for (i = 0; i < sizeof(confined) / sizeof(confined[0]); i++) {
		p = path_join(confined[i].outside ? dir : root,
			      confined[i].path);
		check(read_ends(p) == confined[i].ends, "confined: %s",
		      confined[i].what);
		free(p);
	}
	read_confine("/");

	q = xasprintf("rm -rf '%s'", dir);
	if (system(q))
		check(0, "inside: rm -rf");
	free(q);
	free(tree);
}

