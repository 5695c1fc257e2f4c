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
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lex.h"
#include "tree.h"

/* Inode numbers are dense: a multiplicative hash spreads them. */
static unsigned int file_id_hash(const struct file_id *id)
{
	unsigned long long k = (unsigned long long)id->ino * 1000003ull ^
		(unsigned long long)id->dev;

	return (unsigned int)(k * 0x9e3779b97f4a7c15ull >> 32);
}

struct file_info *fileset_add(struct fileset *fs, const char *path,
			      ino_t ino)
{
	struct file_info *fi = xcalloc(1, sizeof(*fi));
	struct stat st;

	/* one device per walk in practice; stat for the device once */
	if (!ino || !fs->files.n) {
		if (stat(path, &st) == 0) {
			ino = st.st_ino;
			fi->id.dev = st.st_dev;
		}
	} else {
		fi->id.dev = fs->files.v[0]->id.dev;
	}
	fi->id.ino = ino;
	if (ino) {
		bool added;
		struct hmap_entry *e;

		e = hmap_add(&fs->by_id, &fi->id, sizeof(fi->id),
			     file_id_hash(&fi->id), fi, &added);
		if (!added) {
			((struct file_info *)e->val)->again = true;
			free(fi);
			return NULL;
		}
	}
	fi->path = xstrdup(path);
	vec_push(&fs->files, fi);
	return fi;
}

struct work_queue {
	struct fileset *fs;
	const size_t *idx;
	size_t next, end, from;
	enum read_depth depth;
};

struct worker {
	struct work_queue *w;
	struct arena *arena;
	pthread_t tid;
};

/* Big files go through the filters in chunks, overlapping by a needle. */
#define FILTER_CHUNK	(256u << 10)
#define FILTER_OVERLAP	16	/* longer than any needle of the filters */

static bool passes_filter(const char *data, size_t len,
			  enum read_depth depth)
{
	return depth == READ_FULL || may_use_freezer(data, len) ||
		(depth == READ_THREADS && may_start_thread(data, len));
}

static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/*
 * Load PATH for analysis.  A small file is read whole; a big one is
 * first read in chunks through the filters, so that memory stays small,
 * and only mapped when it is wanted.  Returns 1 with *DATA, *LEN (and
 * *MAPPED) set, 0 when the filters skip the file, -1 with errno.
 */
static int load_source(const char *path, enum read_depth depth, char **buf,
		       size_t *cap, const char **data, size_t *len,
		       bool *mapped)
{
	struct stat st;
	size_t carry = 0;
	int fd, err, rc = 0;
	ssize_t n;

	*mapped = false;
	fd = open_source(path, &st);
	if (fd < 0)
		return -1;
	if (*cap < FILTER_CHUNK + FILTER_OVERLAP) {
		*cap = FILTER_CHUNK + FILTER_OVERLAP;
		free(*buf);
		*buf = xmalloc(*cap);
	}
	if (st.st_size < (off_t)FILTER_CHUNK) {
		/* one read; the file may have grown: then go on below */
		n = read_full(fd, *buf, FILTER_CHUNK);
		if (n < 0)
			goto fail;
		if (n < (ssize_t)FILTER_CHUNK) {
			close(fd);
			*data = *buf;
			*len = (size_t)n;
			return passes_filter(*buf, *len, depth);
		}
		if (lseek(fd, 0, SEEK_SET) < 0)
			goto fail;
	}
	if (depth != READ_FULL) {
		for (;;) {
			n = read_full(fd, *buf + carry, FILTER_CHUNK);
			if (n < 0)
				goto fail;
			if (passes_filter(*buf, carry + (size_t)n, depth)) {
				rc = 1;
				break;
			}
			if (n < (ssize_t)FILTER_CHUNK)
				break;
			memmove(*buf, *buf + carry + (size_t)n -
				FILTER_OVERLAP, FILTER_OVERLAP);
			carry = FILTER_OVERLAP;
		}
		if (!rc) {
			close(fd);
			return 0;
		}
	}
	if (fstat(fd, &st) < 0)
		goto fail;
	*data = mmap(NULL, st.st_size ? (size_t)st.st_size : 1, PROT_READ,
		     MAP_PRIVATE, fd, 0);
	if (*data == MAP_FAILED)
		goto fail;
	close(fd);
	*mapped = true;
	*len = (size_t)st.st_size;
	return 1;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static void *worker_run(void *arg)
{
	struct worker *wk = arg;
	struct work_queue *w = wk->w;
	struct token *toks = NULL;
	size_t tokcap = 0, cap = 0, len;
	char *buf = NULL;

	for (;;) {
		size_t i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED);
		struct file_info *fi;
		const char *data;
		bool mapped;
		int r;

		if (i >= w->end)
			break;
		fi = w->fs->files.v[w->idx ? w->idx[i] : w->from + i];
		if (fi->lexed)
			continue;
		r = load_source(fi->path, w->depth, &buf, &cap, &data, &len,
				&mapped);
		if (r < 0) {
			fi->error = errno;
			continue;
		}
		if (r > 0)
			analyze(fi, data, len, w->depth == READ_FULL, wk->arena,
				&toks, &tokcap);
		if (mapped)
			munmap((void *)data, len ? len : 1);
		/* do not keep a huge token buffer for the next file */
		if (tokcap > (1u << 16)) {
			free(toks);
			toks = NULL;
			tokcap = 0;
		}
	}
	free(buf);
	free(toks);
	return NULL;
}

void fileset_process(struct fileset *fs, const size_t *idx, size_t n,
		     size_t from, int jobs, enum read_depth depth)
{
	struct work_queue w = { 0 };
	struct worker *wk;
	int i;

	w.fs = fs;
	w.idx = idx;
	w.from = from;
	w.end = idx ? n : (from < fs->files.n ? fs->files.n - from : 0);
	w.depth = depth;
	if (!w.end)
		return;
	if (jobs < 1)
		jobs = 1;
	if ((size_t)jobs > w.end)
		jobs = (int)w.end;
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

void fileset_free(struct fileset *fs)
{
	size_t i;

	for (i = 0; i < fs->files.n; i++)
		file_info_free(fs->files.v[i]);
	vec_free(&fs->files);
	for (i = 0; i < fs->arenas.n; i++) {
		arena_free(fs->arenas.v[i]);
		free(fs->arenas.v[i]);
	}
	vec_free(&fs->arenas);
	hmap_free(&fs->by_id);
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

char *unit_dir_of(const char *ktree, const char *rel)
{
	char *r;

	if (!*rel || !strcmp(rel, "."))
		return NULL;
	r = xstrdup(rel);
	for (;;) {
		char *p = path_join(ktree, r), *slash = strrchr(r, '/');
		bool unit = dir_is_unit(p);

		free(p);
		if (unit)
			return r;
		if (!slash)
			break;
		*slash = '\0';
	}
	free(r);
	return NULL;
}

/* PATH is a unit, or a directory below it is. */
static bool holds_unit(const char *path)
{
	strvec subs = { 0 };
	bool r = dir_is_unit(path);
	size_t i;

	if (!r)
		list_subdirs(path, path, &subs);
	for (i = 0; !r && i < subs.n; i++)
		r = holds_unit(subs.v[i]);
	strvec_free(&subs);
	return r;
}

char *unit_enclosing(const char *ktree, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	char *path, *up, *holder;
	bool holds;

	if (!slash)
		return NULL;
	path = path_join(ktree, rel);
	holds = holds_unit(path);
	free(path);
	if (holds)
		return NULL;
	up = xstrndup(rel, slash - rel);
	holder = unit_dir_of(ktree, up);
	free(up);
	return holder;
}

static bool skip_nested_unit(const char *path, void *arg)
{
	(void)arg;
	return dir_is_unit(path);
}

static void add_walked(const char *path, ino_t ino, void *arg)
{
	fileset_add(arg, path, ino);
}

/*
 * A unit's source that is a symbolic link: the rules would neither read
 * nor write it (spatch and apply replace files), so its freezer uses
 * would stay while the unit is flagged.  Refused, naming it.
 */
static void refuse_link(const char *path, void *arg)
{
	(void)arg;
	af_die(EXIT_BADINPUT, path,
	       "a symbolic link: autofreeze converts regular files only (put the file itself there, or leave its unit out of DIR)");
}

static bool is_c_file(const char *dir, const char *name, unsigned char type)
{
	char *path;

	if (type == DT_LNK && is_c_source(name)) {
		path = path_join(dir, name);
		refuse_link(path, NULL);
	}
	return type == DT_REG && is_c_source(name);
}

void fileset_add_unit(struct fileset *fs, const char *unitdir, bool core)
{
	strvec paths = { 0 };
	size_t i;

	if (!core) {
		walk_sources(unitdir, add_walked, refuse_link, skip_nested_unit, fs);
		return;
	}
	/* fs (core): the files at the top of fs/ only */
	list_dir(unitdir, unitdir, is_c_file, &paths);
	for (i = 0; i < paths.n; i++)
		fileset_add(fs, paths.v[i], 0);
	strvec_free(&paths);
}
