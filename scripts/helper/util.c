// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - errors, memory, arenas, the hash map and string sets, files
 * and directories.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void vwarn(const char *file, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (file)
		fprintf(stderr, "%s: %s: %s\n", PROG, file, msg);
	else
		fprintf(stderr, "%s: %s\n", PROG, msg);
}

void af_warn(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(file, fmt, ap);
	va_end(ap);
}

void af_die(int code, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(file, fmt, ap);
	va_end(ap);
	exit(code);
}

static void oom(void)
{
	af_die(EXIT_RUNTIME, NULL, "out of memory");
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

#define ARENA_BLOCK	65536

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p;

	if (n + 1 > a->left) {
		size_t sz = n + 1 > ARENA_BLOCK ? n + 1 : ARENA_BLOCK;

		a->cur = xmalloc(sz);
		a->left = sz;
		vec_push(&a->blocks, a->cur);
	}
	p = a->cur;
	memcpy(p, s, n);
	p[n] = '\0';
	a->cur += n + 1;
	a->left -= n + 1;
	return p;
}

void arena_free(struct arena *a)
{
	size_t i;

	for (i = 0; i < a->blocks.n; i++)
		free(a->blocks.v[i]);
	vec_free(&a->blocks);
	a->cur = NULL;
	a->left = 0;
}

unsigned int str_hash(const char *s, size_t n)
{
	unsigned int h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* The free slot where an entry of HASH goes (M has one). */
static struct hmap_entry *hmap_free_slot(const struct hmap *m,
					 unsigned int hash)
{
	size_t j = hash & (m->cap - 1);

	while (m->slot[j].key)
		j = (j + 1) & (m->cap - 1);
	return &m->slot[j];
}

static void hmap_resize(struct hmap *m, size_t cap)
{
	struct hmap old = *m;
	size_t i;

	m->slot = xcalloc(cap, sizeof(*m->slot));
	m->cap = cap;
	for (i = 0; i < old.cap; i++)
		if (old.slot[i].key)
			*hmap_free_slot(m, old.slot[i].hash) = old.slot[i];
	free(old.slot);
}

struct hmap_entry *hmap_add(struct hmap *m, const void *key, size_t len,
			    unsigned int hash, void *val, bool *added)
{
	struct hmap_entry *e;
	size_t j;

	if (2 * (m->n + 1) > m->cap)
		hmap_resize(m, m->cap ? 2 * m->cap : 16);
	for (j = hash & (m->cap - 1); m->slot[j].key;
	     j = (j + 1) & (m->cap - 1)) {
		if (hmap_entry_is(&m->slot[j], key, len, hash)) {
			if (added)
				*added = false;
			return &m->slot[j];
		}
	}
	e = &m->slot[j];
	e->key = key;
	e->len = (unsigned int)len;
	e->hash = hash;
	e->val = val;
	m->n++;
	if (added)
		*added = true;
	return e;
}

void hmap_reserve(struct hmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 16;

	while (cap < 4 * n)
		cap *= 2;
	if (cap > m->cap)
		hmap_resize(m, cap);
}

void hmap_free(struct hmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->n = m->cap = 0;
}

bool strset_add(struct strset *s, const char *str)
{
	size_t n = strlen(str);
	bool added;

	hmap_add(&s->map, str, n, str_hash(str, n), NULL, &added);
	return added;
}

const char *strset_get(const struct strset *s, const char *str)
{
	size_t n = strlen(str);
	const struct hmap_entry *e = hmap_find(&s->map, str, n,
					       str_hash(str, n));

	return e ? e->key : NULL;
}

bool strset_has(const struct strset *s, const char *str)
{
	return strset_get(s, str) != NULL;
}

void strset_free(struct strset *s)
{
	hmap_free(&s->map);
}

void xqsort(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

void *xbsearch(const void *key, const void *base, size_t n, size_t size,
	       int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool strvec_has(const strvec *v, const char *s)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

void strvec_free(strvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

const char **strset_sorted(const struct strset *s, size_t *n)
{
	const char **v = xmalloc((s->map.n ? s->map.n : 1) * sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < s->map.cap; i++)
		if (s->map.slot[i].key)
			v[k++] = s->map.slot[i].key;
	xqsort(v, k, sizeof(*v), cmp_strp);
	*n = k;
	return v;
}

/*
 * The kernel tree the helper reads (read_confine()): its real path, and
 * the working directory relative paths start from.
 */
static char *confine_root, *confine_cwd;

void read_confine(const char *root)
{
	free(confine_root);
	free(confine_cwd);
	confine_root = strcmp(root, "/") ? xstrdup(root) : NULL;
	confine_cwd = getcwd(NULL, 0);
}

/* PATH lies inside DIR, a real path ("/" excluded), as a string. */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

/*
 * PATH, spelled inside the confined tree, was opened as FD: it must be
 * a file of the tree once its symbolic links and ".." are followed, or
 * a Makefile, a Kconfig or a source of the tree would be read from
 * anywhere.  Dies naming it otherwise.
 */
static void check_confined(const char *path, int fd)
{
	char link[64], real[PATH_MAX], *spelled;
	ssize_t n;

	if (!confine_root)
		return;
	spelled = path[0] == '/' || !confine_cwd ? xstrdup(path) :
		path_join(confine_cwd, path);
	if (!path_under(spelled, confine_root)) {
		free(spelled);
		return;
	}
	free(spelled);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n > 0 && real[0] == '/')
		real[n] = '\0';
	else if (!realpath(path, real))
		af_die(EXIT_BADINPUT, path, "%s", strerror(errno));
	if (!path_under(real, confine_root))
		af_die(EXIT_BADINPUT, path, "leads outside the kernel tree %s "
		       "(to %s, through a symbolic link or ..): not read",
		       confine_root, real);
}

/*
 * Open PATH for reading as a source file: not a directory, and small
 * enough for 32-bit offsets.  Returns the descriptor with *ST filled, or
 * -1 with errno.  Anything but a regular file (a FIFO would block the
 * read forever, a device never end), or a file of the confined tree
 * that lies outside it, is refused: one line, exit 2.
 */
int open_source(const char *path, struct stat *st)
{
	int fd, err;

	/* O_NONBLOCK: opening a FIFO does not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0)
		goto fail;
	if (S_ISDIR(st->st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st->st_mode))
		af_die(EXIT_BADINPUT, path, "not a regular file (%s): not read",
		       S_ISFIFO(st->st_mode) ? "a FIFO" :
		       S_ISSOCK(st->st_mode) ? "a socket" : "a device");
	check_confined(path, fd);
	if (st->st_size > (off_t)(UINT32_MAX / 2)) {
		errno = EFBIG;
		goto fail;
	}
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

FILE *open_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open_source(path, &st);

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int read_file(const char *path, char **buf, size_t *len, size_t *cap,
	      dev_t *dev, ino_t *ino)
{
	struct stat st;
	size_t n = 0;
	int fd, err;

	fd = open_source(path, &st);
	if (fd < 0)
		return -1;
	if (dev)
		*dev = st.st_dev;
	if (ino)
		*ino = st.st_ino;
	if (*cap < (size_t)st.st_size + 1) {
		*cap = (size_t)st.st_size + 1;
		free(*buf);
		*buf = xmalloc(*cap);
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= *cap) {
			*cap *= 2;
			*buf = xrealloc(*buf, *cap);
		}
		r = read(fd, *buf + n, *cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	(*buf)[n] = '\0';
	*len = n;
	close(fd);
	return 0;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool is_c_source(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' &&
		(name[n - 1] == 'c' || name[n - 1] == 'h');
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);

	/* "." + "fs" is "fs": a path relative to the tree names units */
	if (!strcmp(a, "."))
		return xstrdup(b);
	if (n && a[n - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}

char *path_clean(const char *path)
{
	char *p = xstrdup(path), *d = p;
	const char *s;
	size_t n;

	for (s = path; *s; s++) {
		if (*s == '/' && d > p && d[-1] == '/')
			continue;
		*d++ = *s;
	}
	*d = '\0';
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	return p;
}

void list_dir(const char *dir, const char *prefix,
	      bool (*want)(const char *dir, const char *name,
			   unsigned char type), strvec *out)
{
	struct dirent *de;
	strvec names = { 0 };
	size_t i;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (want(dir, de->d_name, de->d_type))
			vec_push(&names, xstrdup(de->d_name));
	closedir(d);
	xqsort(names.v, names.n, sizeof(*names.v), cmp_strp);
	for (i = 0; i < names.n; i++)
		vec_push(out, path_join(prefix, names.v[i]));
	strvec_free(&names);
}

static bool is_subdir(const char *dir, const char *name, unsigned char type)
{
	char *p;
	bool r;

	if (name[0] == '.' || (type != DT_DIR && type != DT_UNKNOWN))
		return false;
	p = path_join(dir, name);
	r = is_dir(p);
	free(p);
	return r;
}

void list_subdirs(const char *dir, const char *prefix, strvec *out)
{
	list_dir(dir, prefix, is_subdir, out);
}

struct dir_entry {
	char *name;
	unsigned char type;
	ino_t ino;
};

static int cmp_dir_entry(const void *a, const void *b)
{
	return strcmp(((const struct dir_entry *)a)->name,
		      ((const struct dir_entry *)b)->name);
}

int walk_sources(const char *dir,
		 void (*fn)(const char *path, ino_t ino, void *arg),
		 void (*on_link)(const char *path, void *arg),
		 bool (*skip_dir)(const char *path, void *arg), void *arg)
{
	VEC(struct dir_entry) ents = { 0 };
	struct dirent *de;
	size_t i;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		af_warn(dir, "%s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct dir_entry e;

		if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]) ||
				    !strcmp(n, ".git")))
			continue;
		e.type = de->d_type;
		if (e.type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			e.type = S_ISDIR(st.st_mode) ? DT_DIR :
				S_ISREG(st.st_mode) ? DT_REG :
				S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
		}
		if (e.type != DT_DIR &&
		    (!is_c_source(n) ||
		     !(e.type == DT_REG || (e.type == DT_LNK && on_link))))
			continue;
		e.name = xstrdup(n);
		e.ino = de->d_ino;
		vec_push(&ents, e);
	}
	closedir(d);
	xqsort(ents.v, ents.n, sizeof(*ents.v), cmp_dir_entry);
	for (i = 0; i < ents.n; i++) {
		char *path = path_join(dir, ents.v[i].name);

		if (ents.v[i].type == DT_REG)
			fn(path, ents.v[i].ino, arg);
		else if (ents.v[i].type == DT_LNK)
			on_link(path, arg);
		else if (!skip_dir || !skip_dir(path, arg))
			walk_sources(path, fn, on_link, skip_dir, arg);
		free(path);
		free(ents.v[i].name);
	}
	vec_free(&ents);
	return 0;
}

char *one_line(const char *s)
{
	char *r = xmalloc(strlen(s) * 4 + 1), *d = r;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			d += sprintf(d, "\\n");
		else if (c == '\t')
			d += sprintf(d, "\\t");
		else if (c < 0x20 || c == 0x7f)
			d += sprintf(d, "\\%03o", c);
		else
			*d++ = (char)c;
	}
	*d = '\0';
	return r;
}

void json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : (int)n;
}

int job_count(const char *cmd, const char *arg)
{
	char *end;
	int n = (int)strtol(arg, &end, 10);

	if (*end || n < 1 || n > 1024)
		af_die(EXIT_BADINPUT, NULL, "%s: bad job count '%s'", cmd, arg);
	return n;
}

int flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		af_warn(NULL, "write error on standard output");
		return EXIT_RUNTIME;
	}
	return 0;
}

char *beside_helper(const char *rel)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int up;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (up = 0; up < 3; up++) {
		char *p;

		slash = strrchr(exe, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
		p = xasprintf("%s/%s", exe, rel);
		if (is_file(p) || is_dir(p))
			return p;
		free(p);
	}
	return NULL;
}

size_t split_tabs(char *s, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = s;
		if (n == max)
			break;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return n;
}
