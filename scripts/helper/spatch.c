// SPDX-License-Identifier: GPL-2.0
/*
 * spatch.c - "autofreeze spatch", the one way autofreeze runs spatch:
 * on many files in parallel, with output in input order (see main.c for
 * the interface).
 *
 * With -G the files are dealt, largest first, into one group per job,
 * and each job is one spatch over "--file-groups LIST": spatch parses
 * the rule once per process, and its start-up is most of its time on a
 * file.  Every spatch is handed "--python INTERPRETER", resolved once
 * per run (spatch_python()): spatch otherwise runs "python3" from PATH
 * at each start, and through a version manager's shim that alone costs
 * more than the rest of a start.
 *
 * Each job runs in its own process group, so that one kill() reaches
 * whatever spatch starts; on SIGINT, SIGTERM or SIGHUP every running job
 * is sent SIGTERM, reaped, its files removed (unless -o), and the helper
 * dies of the same signal.  fork/exec/waitpid, no shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scan.h"
#include "util.h"

#define PYTHON_QUERY "python3 -c 'import sys; print(sys.executable)' 2>/dev/null"

struct job {
	char **files;
	size_t nfiles;
	char *groups;		/* -G: the job's --file-groups list */
	pid_t pid;
	bool done;
	int status;
	char *out, *err;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;		/* no SA_RESTART: waitpid returns */
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void usage_spatch(FILE *f)
{
	fprintf(f, "usage: %s spatch [-j N] [-o OUTDIR] [-g|-G] -- "
		"SPATCH-ARGS... ::: FILE...\n", PROG);
}

static const char *job_name(const struct job *j)
{
	return j->nfiles ? j->files[0] : "-";
}

/* Copy file PATH to FD; quietly nothing if it cannot be read. */
static void copy_to(const char *path, int fd)
{
	char buf[65536];
	ssize_t n;
	int in = open(path, O_RDONLY | O_CLOEXEC);

	if (in < 0)
		return;
	while ((n = read(in, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		ssize_t off = 0;

		while (n > 0 && off < n) {
			ssize_t w = write(fd, buf + off, (size_t)(n - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				close(in);
				return;
			}
			off += w;
		}
	}
	close(in);
}

/*
 * Start job J: returns 0, or the errno of a failed exec (reported by the
 * child through a close-on-exec pipe).
 */
static int start(struct job *j, const char *spatch, const char *python,
		 char **args, size_t nargs)
{
	char **argv = xcalloc(nargs + j->nfiles + 6, sizeof(char *));
	int p[2], fdout, fderr, err = 0;
	size_t k, n = 0;
	ssize_t r;
	pid_t pid;

	argv[n++] = (char *)spatch;
	if (python) {
		argv[n++] = "--python";
		argv[n++] = (char *)python;
	}
	for (k = 0; k < nargs; k++)
		argv[n++] = args[k];
	if (j->groups) {
		argv[n++] = "--file-groups";
		argv[n++] = j->groups;
	} else {
		for (k = 0; k < j->nfiles; k++)
			argv[n++] = j->files[k];
	}
	argv[n] = NULL;

	fdout = open(j->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fderr = open(j->err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fdout < 0 || fderr < 0)
		af_die(EXIT_RUNTIME, fdout < 0 ? j->out : j->err, "%s",
		       strerror(errno));
	if (pipe2(p, O_CLOEXEC))
		af_die(EXIT_RUNTIME, NULL, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		af_die(EXIT_RUNTIME, NULL, "fork: %s", strerror(errno));
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(fdout, 1);
		dup2(fderr, 2);
		execvp(spatch, argv);
		err = errno;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);
	close(p[1]);
	close(fdout);
	close(fderr);
	do {
		r = read(p[0], &err, sizeof(err));
	} while (r < 0 && errno == EINTR);
	close(p[0]);
	free(argv);
	j->pid = pid;
	if (r == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		j->pid = 0;
		return err ? err : ENOEXEC;
	}
	return 0;
}

static void kill_all(struct job *jobs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (jobs[i].pid > 0 && !jobs[i].done) {
			if (kill(-jobs[i].pid, SIGTERM))
				kill(jobs[i].pid, SIGTERM);
		}
	}
	for (i = 0; i < n; i++) {
		if (jobs[i].pid > 0 && !jobs[i].done) {
			while (waitpid(jobs[i].pid, NULL, 0) < 0 &&
			       errno == EINTR)
				;
			jobs[i].done = true;
		}
	}
}

static void remove_outputs(struct job *jobs, size_t n, const char *dir)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (jobs[i].out)
			unlink(jobs[i].out);
		if (jobs[i].err)
			unlink(jobs[i].err);
		if (jobs[i].groups)
			unlink(jobs[i].groups);
	}
	rmdir(dir);
}

/* Report job J's end; true when it failed. */
static bool report(const struct job *j)
{
	if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0)
		return false;
	if (WIFSIGNALED(j->status))
		af_warn(job_name(j), "spatch killed by signal %d",
			WTERMSIG(j->status));
	else
		af_warn(job_name(j), "spatch exited with status %d",
			WEXITSTATUS(j->status));
	return true;
}

static void write_index(const char *outdir, struct job *jobs, size_t n)
{
	char *path = path_join(outdir, "index");
	FILE *f = fopen(path, "w");
	size_t i, k;

	if (!f)
		af_die(EXIT_RUNTIME, path, "%s", strerror(errno));
	for (i = 0; i < n; i++) {
		const struct job *j = &jobs[i];

		fprintf(f, "%04zu\t", i + 1);
		if (WIFSIGNALED(j->status))
			fprintf(f, "signal %d", WTERMSIG(j->status));
		else
			fprintf(f, "%d", WEXITSTATUS(j->status));
		for (k = 0; k < j->nfiles; k++)
			fprintf(f, "\t%s", j->files[k]);
		putc('\n', f);
	}
	if (fclose(f))
		af_die(EXIT_RUNTIME, path, "%s", strerror(errno));
	free(path);
}

/*
 * The Python interpreter to hand spatch: $SPATCH_PYTHON when it is set
 * ("" for none: spatch then finds its own), else what "python3" on PATH
 * says it is.  NULL when there is none.
 */
const char *spatch_python(void)
{
	static char path[4096];
	static bool resolved;
	const char *env = getenv("SPATCH_PYTHON");
	FILE *p;

	if (env)
		return *env ? env : NULL;
	if (resolved)
		return *path ? path : NULL;
	resolved = true;
	p = popen(PYTHON_QUERY, "r");
	if (!p)
		return NULL;
	if (!fgets(path, sizeof(path), p))
		path[0] = '\0';
	if (pclose(p))
		path[0] = '\0';
	path[strcspn(path, "\n")] = '\0';
	if (path[0] != '/' || access(path, X_OK))
		path[0] = '\0';
	return *path ? path : NULL;
}

int cmd_python(int argc, char **argv)
{
	const char *py;

	(void)argv;
	if (argc != 1) {
		af_warn(NULL, "python: no arguments expected");
		return EXIT_BADINPUT;
	}
	py = spatch_python();
	if (!py) {
		af_warn(NULL, "python: no python3 found");
		return EXIT_RUNTIME;
	}
	puts(py);
	return 0;
}

struct sized_file {
	char *name;
	off_t size;
};

static int cmp_larger_first(const void *a, const void *b)
{
	const struct sized_file *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * -G: deal FILES into at most NJOBS groups, largest file first, round
 * robin; write each group as a spatch --file-groups list (a file a
 * group, groups separated by a blank line) into DIR, and make it a job
 * whose files are the group's.
 */
static void balanced_groups(char **files, size_t n, int njobs,
			    const char *dir, struct job *jobs, size_t *njob,
			    char ***lists)
{
	struct sized_file *sf = xcalloc(n ? n : 1, sizeof(*sf));
	size_t i, k, ng = n < (size_t)njobs ? n : (size_t)njobs;

	for (i = 0; i < n; i++) {
		struct stat st;

		sf[i].name = files[i];
		sf[i].size = stat(files[i], &st) ? 0 : st.st_size;
	}
	qsort(sf, n, sizeof(*sf), cmp_larger_first);
	*lists = xcalloc(ng ? ng : 1, sizeof(char *));
	for (k = 0; k < ng; k++) {
		struct job *j = &jobs[k];
		char *list = xasprintf("%s/%04zu.groups", dir, k + 1);
		FILE *f = fopen(list, "w");

		if (!f)
			af_die(EXIT_RUNTIME, list, "%s", strerror(errno));
		memset(j, 0, sizeof(*j));
		j->files = xcalloc(n / ng + 1, sizeof(char *));
		for (i = k; i < n; i += ng) {
			j->files[j->nfiles++] = sf[i].name;
			fprintf(f, "%s\n\n", sf[i].name);
		}
		if (fclose(f))
			af_die(EXIT_RUNTIME, list, "%s", strerror(errno));
		(*lists)[k] = list;
	}
	*njob = ng;
	free(sf);
}

int cmd_spatch(int argc, char **argv)
{
	const char *spatch = getenv("SPATCH"), *outdir = NULL, *python;
	VEC(struct job) jobs = { 0 };
	size_t i, nargs, printed = 0, running = 0, next = 0;
	char **args, *dir, *end, **lists = NULL;
	int njobs = ncpus(), opt, rc = 0, i0;
	bool group = false, balance = false;

	if (!spatch || !*spatch)
		spatch = "spatch";
	optind = 1;
	while ((opt = getopt(argc, argv, "+j:o:gGh")) != -1) {
		switch (opt) {
		case 'j':
			njobs = (int)strtol(optarg, &end, 10);
			if (*end || njobs < 1 || njobs > 1024)
				af_die(EXIT_BADINPUT, NULL,
				       "spatch: bad job count '%s'", optarg);
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'g':
			group = true;
			break;
		case 'G':
			balance = true;
			break;
		case 'h':
			usage_spatch(stdout);
			return 0;
		default:
			usage_spatch(stderr);
			return EXIT_BADINPUT;
		}
	}
	/* getopt stops after "--" and leaves optind past it */
	if (optind < 1 || strcmp(argv[optind - 1], "--")) {
		af_warn(NULL, "spatch: '--' expected before the spatch "
			"arguments");
		usage_spatch(stderr);
		return EXIT_BADINPUT;
	}
	args = argv + optind;
	for (nargs = 0; optind + (int)nargs < argc &&
	     strcmp(args[nargs], ":::"); nargs++)
		;
	i0 = optind + (int)nargs;
	if (i0 >= argc) {
		af_warn(NULL, "spatch: ':::' expected before the files");
		usage_spatch(stderr);
		return EXIT_BADINPUT;
	}
	if (group && balance) {
		af_warn(NULL, "spatch: -g and -G exclude each other");
		usage_spatch(stderr);
		return EXIT_BADINPUT;
	}
	/* the jobs */
	for (i = (size_t)i0; i < (size_t)argc; i++) {
		struct job j = { 0 };

		if (!strcmp(argv[i], ":::")) {
			if (group && i + 1 < (size_t)argc &&
			    strcmp(argv[i + 1], ":::")) {
				j.files = &argv[i + 1];
				vec_push(&jobs, j);
			}
			continue;
		}
		if (group) {
			jobs.v[jobs.n - 1].nfiles++;
		} else {
			j.files = &argv[i];
			j.nfiles = 1;
			vec_push(&jobs, j);
		}
	}
	if (!jobs.n) {
		af_warn(NULL, "spatch: no FILE given");
		return EXIT_BADINPUT;
	}

	if (outdir) {
		if (mkdir(outdir, 0777) && errno != EEXIST)
			af_die(EXIT_RUNTIME, outdir, "%s", strerror(errno));
		dir = xstrdup(outdir);
	} else {
		const char *tmp = getenv("TMPDIR");

		dir = xasprintf("%s/autofreeze.XXXXXX", tmp && *tmp ? tmp :
				"/tmp");
		if (!mkdtemp(dir))
			af_die(EXIT_RUNTIME, dir, "%s", strerror(errno));
	}
	if (balance) {
		/* one job per group; the files sit in the one-file jobs */
		char **files = xcalloc(jobs.n, sizeof(char *));
		size_t nfiles = jobs.n;

		for (i = 0; i < nfiles; i++)
			files[i] = jobs.v[i].files[0];
		balanced_groups(files, nfiles, njobs, dir, jobs.v, &jobs.n,
				&lists);
		for (i = 0; i < jobs.n; i++)
			jobs.v[i].groups = lists[i];
		free(files);
	}
	for (i = 0; i < jobs.n; i++) {
		jobs.v[i].out = xasprintf("%s/%04zu.out", dir, i + 1);
		jobs.v[i].err = xasprintf("%s/%04zu.err", dir, i + 1);
	}
	python = spatch_python();
	for (i = 0; i < nargs; i++)
		if (!strcmp(args[i], "--python"))
			python = NULL;
	catch_signals();

	while (printed < jobs.n) {
		int status;
		pid_t pid;

		while (!got_signal && !rc && running < (size_t)njobs &&
		       next < jobs.n) {
			int err = start(&jobs.v[next], spatch, python, args,
					nargs);

			if (err) {
				af_warn(NULL, "cannot run '%s': %s", spatch,
					strerror(err));
				jobs.v[next].done = true;
				rc = EXIT_BADINPUT;
				break;
			}
			next++;
			running++;
		}
		if (got_signal)
			break;
		if (!running)
			break;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			af_die(EXIT_RUNTIME, NULL, "waitpid: %s",
			       strerror(errno));
		}
		for (i = 0; i < next; i++) {
			if (jobs.v[i].pid == pid && !jobs.v[i].done) {
				jobs.v[i].done = true;
				jobs.v[i].status = status;
				running--;
			}
		}
		/* print what is complete, in order */
		while (printed < next && jobs.v[printed].done) {
			struct job *j = &jobs.v[printed++];

			if (!outdir) {
				copy_to(j->out, 1);
				copy_to(j->err, 2);
			}
			if (report(j) && !rc)
				rc = EXIT_RUNTIME;
		}
	}

	if (got_signal) {
		int sig = got_signal;

		kill_all(jobs.v, next);
		if (!outdir)
			remove_outputs(jobs.v, jobs.n, dir);
		af_warn(NULL, "spatch: interrupted (signal %d)", sig);
		signal(sig, SIG_DFL);
		raise(sig);
		exit(128 + sig);
	}
	if (rc == EXIT_BADINPUT)
		kill_all(jobs.v, next);
	if (outdir)
		write_index(outdir, jobs.v, printed);
	else
		remove_outputs(jobs.v, jobs.n, dir);
	for (i = 0; i < jobs.n; i++) {
		free(jobs.v[i].out);
		free(jobs.v[i].err);
		if (balance)
			free(jobs.v[i].files);
		free(jobs.v[i].groups);
	}
	free(lists);
	vec_free(&jobs);
	free(dir);
	return rc;
}
