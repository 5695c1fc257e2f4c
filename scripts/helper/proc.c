// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - the child processes of "autofreeze convert": external
 * programs (tar, cp, diff) started with fork and exec, never through a
 * shell, since file names may hold anything; the helper's own commands
 * run in a forked child, so that a command's exit, its global state and
 * its redirected output stay the child's; and rm -rf with nftw().
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

static int status_of(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* In the child: FD onto TARGET; exits 127 when it cannot. */
static void child_fd(int fd, int target)
{
	if (fd == PROC_INHERIT || fd == target)
		return;
	if (fd == PROC_NULL)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, target) < 0)
		_exit(127);
}

/* In the child: into DIR, when given; exits CODE when it cannot. */
static void child_chdir(const char *dir, int code)
{
	if (dir && chdir(dir)) {
		perror(dir);
		_exit(code);
	}
}

int proc_run(const char *const argv[], const char *dir, int in_fd,
	     int out_fd, int err_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		child_fd(in_fd, 0);
		child_fd(out_fd, 1);
		child_fd(err_fd, 2);
		child_chdir(dir, 127);
		execvp(argv[0], (char *const *)argv);
		perror(argv[0]);
		_exit(127);
	}
	return status_of(pid);
}

static void child_file(const char *path, int target)
{
	int fd;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0) {
		perror(path);
		_exit(1);
	}
	child_fd(fd, target);
	close(fd);
}

int proc_call(int (*fn)(int argc, char **argv), char **argv, const char *dir,
	      const char *out, const char *err)
{
	pid_t pid;
	int argc = 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		child_file(out, 1);
		child_file(err, 2);
		child_chdir(dir, 1);
		while (argv[argc])
			argc++;
		exit(fn(argc, argv));
	}
	return status_of(pid);
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (S_ISDIR(st.st_mode))
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	else
		unlink(path);
	return lstat(path, &st) ? 0 : -1;
}

char *file_text(const char *path)
{
	char *buf = NULL;
	size_t len, cap = 0;

	if (read_file(path, &buf, &len, &cap, NULL, NULL)) {
		free(buf);
		return NULL;
	}
	return buf;
}
