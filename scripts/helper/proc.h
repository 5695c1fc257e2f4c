/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - child processes for "autofreeze convert" (convert.c,
 * cache.c): an external program run without a shell, one of the
 * helper's own commands run in a forked child with its output in a
 * file, and removing a tree.
 */
#ifndef AF_PROC_H
#define AF_PROC_H

/* for an fd argument: inherit it, or /dev/null */
#define PROC_INHERIT	(-1)
#define PROC_NULL	(-2)

/*
 * Run ARGV (ARGV[0] looked up on PATH) in DIR (NULL: here) with stdin
 * IN_FD and stdout OUT_FD and stderr ERR_FD (or PROC_*), and wait: its
 * exit status, 128 + N when signal N killed it, -1 when it could not be
 * started.
 */
int proc_run(const char *const argv[], const char *dir, int in_fd,
	     int out_fd, int err_fd);
/*
 * FN(ARGC, ARGV), a command of the helper (cmd_scan(), ...), in a
 * forked child in DIR (NULL: here), its stdout into the file OUT and
 * its stderr into ERR (created or truncated; NULL: inherited); its
 * status as proc_run() gives it.
 */
int proc_call(int (*fn)(int argc, char **argv), char **argv, const char *dir,
	      const char *out, const char *err);
/* The text of the regular file PATH, malloc'ed, or NULL. */
char *file_text(const char *path);
/* rm -rf PATH: 0, or -1 when something is left. */
int rm_rf(const char *path);

#endif /* AF_PROC_H */
