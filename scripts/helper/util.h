/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - small helpers shared by the autofreeze helper: errors, memory,
 * growable arrays, string arenas, the hash map and string sets, file
 * reading, directory walks and JSON string output.
 */
#ifndef AF_UTIL_H
#define AF_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PROG "autofreeze"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes, like the kernel's host programs. */
#define EXIT_BADINPUT	2
#define EXIT_RUNTIME	1

/* "autofreeze: FILE: message" (FILE may be NULL) on stderr. */
void af_warn(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void af_die(int code, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array: struct { T *v; size_t n, cap; }. */
#define VEC(type) struct { type *v; size_t n, cap; }

#define vec_grow(vec)							\
	do {								\
		if ((vec)->n == (vec)->cap) {				\
			(vec)->cap = (vec)->cap ? 2 * (vec)->cap : 16;	\
			(vec)->v = xrealloc((vec)->v,			\
				(vec)->cap * sizeof(*(vec)->v));	\
		}							\
	} while (0)

#define vec_push(vec, val)						\
	do {								\
		vec_grow(vec);						\
		(vec)->v[(vec)->n++] = (val);				\
	} while (0)

#define vec_free(vec)							\
	do {								\
		free((vec)->v);						\
		(vec)->v = NULL;					\
		(vec)->n = (vec)->cap = 0;				\
	} while (0)

/* free_elem() each element of VEC (by its address), then VEC. */
#define vec_free_each(vec, free_elem)					\
	do {								\
		size_t vec_i_;						\
									\
		for (vec_i_ = 0; vec_i_ < (vec)->n; vec_i_++)		\
			free_elem(&(vec)->v[vec_i_]);			\
		vec_free(vec);						\
	} while (0)

/*
 * An arena hands out strings that live until the arena is freed; each
 * thread owns its own, so no locking.
 */
struct arena {
	char *cur;
	size_t left;
	VEC(char *) blocks;
};

char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* FNV-1a of S[0..N); the lexer computes the same for identifiers. */
unsigned int str_hash(const char *s, size_t n);

/*
 * A hash map from byte-string keys to pointers, the one hash table of
 * the helper: open addressing, linear probing, at most half full.  Keys
 * are not copied: the caller keeps them alive as long as the map.  HASH
 * is str_hash() of the key, passed in so that a caller holding it (the
 * lexer does) need not compute it again.  Empty when zeroed.
 */
struct hmap_entry {
	const void *key;	/* NULL in a free slot */
	unsigned int len;	/* keys are short: names, file ids */
	unsigned int hash;
	void *val;
};

struct hmap {
	struct hmap_entry *slot;
	size_t n, cap;		/* cap is 0 or a power of two */
};

static inline bool hmap_entry_is(const struct hmap_entry *e,
				 const void *key, size_t len,
				 unsigned int hash)
{
	return e->hash == hash && e->len == len && !memcmp(e->key, key, len);
}

/* The entry for KEY[0..LEN), or NULL; inline: the lexer's hot path. */
static inline struct hmap_entry *hmap_find(const struct hmap *m,
					   const void *key, size_t len,
					   unsigned int hash)
{
	size_t j;

	if (!m->cap)
		return NULL;
	for (j = hash & (m->cap - 1); m->slot[j].key;
	     j = (j + 1) & (m->cap - 1))
		if (hmap_entry_is(&m->slot[j], key, len, hash))
			return &m->slot[j];
	return NULL;
}
/*
 * The entry for KEY[0..LEN), added with VAL when there was none (then
 * *ADDED, when given, is true).
 */
struct hmap_entry *hmap_add(struct hmap *m, const void *key, size_t len,
			    unsigned int hash, void *val, bool *added);
/*
 * Make room for N entries, at most a quarter full: fewer collisions, for
 * a table mostly asked for what it does not hold.
 */
void hmap_reserve(struct hmap *m, size_t n);
void hmap_free(struct hmap *m);

/* A set of strings: an hmap without values. */
struct strset {
	struct hmap map;
};

bool strset_add(struct strset *s, const char *str);	/* true if new */
bool strset_has(const struct strset *s, const char *str);
/* The member equal to STR, or NULL. */
const char *strset_get(const struct strset *s, const char *str);
void strset_free(struct strset *s);
/* The members, sorted with strcmp; the array is malloc'ed. */
const char **strset_sorted(const struct strset *s, size_t *n);

static inline size_t strset_size(const struct strset *s)
{
	return s->map.n;
}

/* qsort() and bsearch() that take an empty (NULL) array */
void xqsort(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *));
void *xbsearch(const void *key, const void *base, size_t n, size_t size,
	       int (*cmp)(const void *, const void *));

typedef VEC(char *) strvec;
typedef VEC(char) charvec;
int cmp_strp(const void *a, const void *b);
/* V holds a string equal to S (a linear search: short lists). */
bool strvec_has(const strvec *v, const char *s);
/* Free the strings of V, then V. */
void strvec_free(strvec *v);

/*
 * Only regular files are read, and once read_confine(ROOT) is called,
 * only from inside the kernel tree at ROOT (a real path): a path spelled
 * inside it that a symbolic link or ".." leads out of is refused, as is
 * a FIFO or a device anywhere (one line naming it, EXIT_BADINPUT).
 * ktree_resolve() confines the commands that read a tree.
 */
void read_confine(const char *root);
/* Open PATH to read it; -1 with errno (EISDIR for a directory). */
int open_source(const char *path, struct stat *st);
/* open_source() as a stdio stream, or NULL with errno. */
FILE *open_regular(const char *path);
/* Read a whole file; returns 0, or -1 with errno set. */
int read_file(const char *path, char **buf, size_t *len, size_t *cap,
	      dev_t *dev, ino_t *ino);

/*
 * REL (a file or directory of the project: "policy/judgments.tsv") in
 * the helper's directory or up to two above it, malloc'ed, or NULL.
 */
char *beside_helper(const char *rel);

/* True when PATH names something of that kind. */
bool is_dir(const char *path);
bool is_file(const char *path);

/* NAME ends in ".c" or ".h". */
bool is_c_source(const char *name);

/*
 * Walk DIR recursively, calling fn(path, d_ino, arg) for every regular
 * *.c and *.h file.  Symbolic links are not followed: one named *.c or
 * *.h goes to on_link(path, arg) when that is given.  When skip_dir is
 * given and returns true for a subdirectory, it is not entered.  Returns
 * -1 when DIR cannot be read (reported), 0 otherwise.
 */
int walk_sources(const char *dir,
		 void (*fn)(const char *path, ino_t ino, void *arg),
		 void (*on_link)(const char *path, void *arg),
		 bool (*skip_dir)(const char *path, void *arg), void *arg);

/*
 * The entries of DIR that WANT accepts (given DIR, the entry's name and
 * its d_type), sorted by name, each as PREFIX/NAME, malloc'ed, appended
 * to OUT.  An unreadable DIR has none.
 */
void list_dir(const char *dir, const char *prefix,
	      bool (*want)(const char *dir, const char *name,
			   unsigned char type), strvec *out);
/* list_dir() of the subdirectories (not hidden, links not followed). */
void list_subdirs(const char *dir, const char *prefix, strvec *out);

/* "a" + "/" + "b", with no doubled slash; malloc'ed. */
char *path_join(const char *a, const char *b);
/* PATH without trailing slashes and doubled slashes; malloc'ed. */
char *path_clean(const char *path);

/*
 * S with its control characters written as \n, \t or \ooo: a message
 * that quotes a user's value stays one line.  Malloc'ed.
 */
char *one_line(const char *s);

/* Write S as a JSON string literal (with the quotes); NULL as null. */
void json_str(FILE *f, const char *s);

/* Number of online CPUs, at least 1. */
int ncpus(void);

/* The N of CMD's "-j N", 1 to 1024; dies on anything else. */
int job_count(const char *cmd, const char *arg);

/* Flush standard output: 0, or EXIT_RUNTIME after a message. */
int flush_stdout(void);

/*
 * Split S in place at its tabs into at most MAX fields, F[0..): how many.
 * The last of MAX fields keeps the rest of S, tabs and all.
 */
size_t split_tabs(char *s, char **f, size_t max);

#endif /* AF_UTIL_H */
