// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - file sets processed by a pool of threads, and kernel tree
 * layout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lex.h"
#include "tree.h"

static unsigned long long file_key(dev_t dev, ino_t ino)
{
	return (unsigned long long)ino * 1000003ull ^ (unsigned long long)dev;
}

/* true if KEY was not in the set */
static bool seen_add(struct fileset *fs, unsigned long long key)
{
	size_t j;

	if (!key)
		return true;
	if (2 * (fs->seen.n + 1) > fs->seen.cap) {
		unsigned long long *old = fs->seen.slot;
		size_t oldcap = fs->seen.cap, i;

		fs->seen.cap = oldcap ? 2 * oldcap : 1024;
		fs->seen.slot = xcalloc(fs->seen.cap, sizeof(*old));
		for (i = 0; i < oldcap; i++) {
			if (!old[i])
				continue;
			j = (old[i] * 0x9e3779b97f4a7c15ull >> 20) &
				(fs->seen.cap - 1);
			while (fs->seen.slot[j])
				j = (j + 1) & (fs->seen.cap - 1);
			fs->seen.slot[j] = old[i];
		}
		free(old);
	}
	j = (key * 0x9e3779b97f4a7c15ull >> 20) & (fs->seen.cap - 1);
	while (fs->seen.slot[j]) {
		if (fs->seen.slot[j] == key)
			return false;
		j = (j + 1) & (fs->seen.cap - 1);
	}
	fs->seen.slot[j] = key;
	fs->seen.n++;
	return true;
}

struct file_info *fileset_add(struct fileset *fs, const char *path,
			      ino_t ino)
{
	struct file_info *fi;
	struct stat st;
	dev_t dev = 0;

	/* one device per walk in practice; stat for the device once */
	if (!ino || !fs->files.n) {
		if (stat(path, &st) == 0) {
			ino = st.st_ino;
			dev = st.st_dev;
		}
	} else {
		dev = fs->files.v[0]->dev;
	}
	if (ino && !seen_add(fs, file_key(dev, ino)))
		return NULL;
	fi = xcalloc(1, sizeof(*fi));
	fi->path = xstrdup(path);
	fi->dev = dev;
	fi->ino = ino;
	vec_push(&fs->files, fi);
	return fi;
}

struct work {
	struct fileset *fs;
	size_t next, end;
	bool full;
};

struct worker {
	struct work *w;
	struct arena *arena;
	pthread_t tid;
};

static void *worker_run(void *arg)
{
	struct worker *wk = arg;
	struct work *w = wk->w;
	struct token *toks = NULL;
	size_t tokcap = 0, cap = 0, len;
	char *buf = NULL;

	for (;;) {
		size_t i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);
		struct file_info *fi;

		if (i >= w->end)
			break;
		fi = w->fs->files.v[i];
		if (read_file(fi->path, &buf, &len, &cap, NULL, NULL)) {
			fi->error = errno;
			continue;
		}
		if (!w->full && !prefilter(buf, len))
			continue;
		analyze(fi, buf, len, w->full, wk->arena, &toks, &tokcap);
	}
	free(buf);
	free(toks);
	return NULL;
}

void fileset_process(struct fileset *fs, size_t from, int jobs, bool full)
{
	struct work w = { fs, from, fs->files.n, full };
	struct worker *wk;
	int i;

	if (from >= fs->files.n)
		return;
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > fs->files.n - from)
		jobs = (int)(fs->files.n - from);
	wk = xcalloc((size_t)jobs, sizeof(*wk));
	for (i = 0; i < jobs; i++) {
		wk[i].w = &w;
		wk[i].arena = xcalloc(1, sizeof(struct arena));
		vec_push(&fs->arenas, wk[i].arena);
	}
	/* the calling thread is the first worker */
	for (i = 1; i < jobs; i++)
		if (pthread_create(&wk[i].tid, NULL, worker_run, &wk[i]))
			af_die(EXIT_RUNTIME, NULL, "cannot start a thread");
	worker_run(&wk[0]);
	for (i = 1; i < jobs; i++)
		pthread_join(wk[i].tid, NULL);
	free(wk);
}

static void def_free(struct def *d)
{
	vec_free(&d->refs);
	vec_free(&d->sops);
}

void fileset_free(struct fileset *fs)
{
	size_t i, j;

	for (i = 0; i < fs->files.n; i++) {
		struct file_info *fi = fs->files.v[i];

		free(fi->path);
		vec_free(&fi->uses);
		vec_free(&fi->threads);
		vec_free(&fi->freezable);
		for (j = 0; j < fi->funcs.n; j++)
			def_free(&fi->funcs.v[j]);
		for (j = 0; j < fi->objs.n; j++)
			def_free(&fi->objs.v[j]);
		vec_free(&fi->funcs);
		vec_free(&fi->objs);
		vec_free(&fi->fstypes);
		vec_free(&fi->sops);
		free(fi);
	}
	vec_free(&fs->files);
	for (i = 0; i < fs->arenas.n; i++) {
		arena_free(fs->arenas.v[i]);
		free(fs->arenas.v[i]);
	}
	vec_free(&fs->arenas);
	free(fs->seen.slot);
	memset(&fs->seen, 0, sizeof(fs->seen));
}

bool is_ktree(const char *dir)
{
	char *a = path_join(dir, "Makefile"), *b = path_join(dir, "Kconfig");
	char *c = path_join(dir, "include/linux");
	bool r = is_file(a) && is_file(b) && is_dir(c);

	free(a);
	free(b);
	free(c);
	return r;
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

bool dir_has_c(const char *dir)
{
	struct dirent *de;
	bool r = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!r && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		r = n > 2 && !strcmp(de->d_name + n - 2, ".c");
	}
	closedir(d);
	return r;
}

bool dir_is_unit(const char *dir)
{
	char *mk = path_join(dir, "Makefile"), *buf = NULL;
	size_t len, cap = 0;
	bool r = false;

	if (!read_file(mk, &buf, &len, &cap, NULL, NULL))
		r = memmem(buf, len, "obj-", 4) && dir_has_c(dir);
	free(buf);
	free(mk);
	return r;
}

static bool skip_nested_unit(const char *path, void *arg)
{
	(void)arg;
	return dir_is_unit(path);
}

static void add_one(const char *path, ino_t ino, void *arg)
{
	fileset_add(arg, path, ino);
}

void fileset_add_unit(struct fileset *fs, const char *unitdir, bool core)
{
	if (core) {
		/* fs (core): the files at the top of fs/ only */
		struct dirent *de;
		strvec names = { 0 };
		size_t i;
		DIR *d = opendir(unitdir);

		if (!d)
			return;
		while ((de = readdir(d)))
			if (de->d_type == DT_REG && is_c_source(de->d_name))
				vec_push(&names, xstrdup(de->d_name));
		closedir(d);
		qsort(names.v, names.n, sizeof(*names.v), cmp_strp);
		for (i = 0; i < names.n; i++) {
			char *p = path_join(unitdir, names.v[i]);

			fileset_add(fs, p, 0);
			free(p);
			free(names.v[i]);
		}
		vec_free(&names);
		return;
	}
	walk_sources(unitdir, add_one, skip_nested_unit, fs);
}
