/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze.h - what one source file tells: its freezer API uses (with the
 * enclosing function), the functions it starts as threads, its functions
 * and file-scope initializers (file_system_type, super_operations) and
 * which super_operations each function installs in sb->s_op.
 */
#ifndef AF_ANALYZE_H
#define AF_ANALYZE_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

enum use_where {
	WHERE_FUNC,	/* in a function body */
	WHERE_MACRO,	/* in a preprocessor line (a #define body) */
	WHERE_FILE,	/* at file scope: an initializer, a declaration */
};

enum context {
	CTX_KTHREAD,
	CTX_USER,
	CTX_MACRO,
	CTX_UNKNOWN,
	CTX_MAX,
};

extern const char *const context_names[CTX_MAX];

struct use {
	unsigned int line, col;
	int api;		/* index in freezer_apis[] */
	enum use_where where;
	const char *func;	/* WHERE_FUNC: the function */
};

/* "CALLEE(..., NAME, ...)": a lone identifier as argument POS of NARGS */
struct value_arg {
	const char *callee, *name;
	unsigned short pos, nargs;
};

/* a function definition, or a file-scope "NAME = { ... }" initializer */
struct definition {
	const char *name;
	unsigned int line;
	strvec refs;		/* identifiers referenced (units mode) */
	strvec calls;		/* functions: refs followed by "(" */
	strvec named;		/* functions: refs not followed by "(" */
	strvec params;		/* functions: parameter names, "" unnamed */
	VEC(struct value_arg) vargs;	/* functions: lone identifier args */
	strvec sops;		/* functions: NAME in "->s_op = &NAME" */
};

/* units mode: a function-like #define */
struct macro {
	const char *name;
	const char *text;	/* "(params) body", its tokens one space apart */
	unsigned int line;
};

struct fstype {
	const char *name;	/* the variable */
	const char *fsname;	/* .name = "..." or NULL */
	const char *flags;	/* .fs_flags expression text, or NULL */
	bool requires_dev;
	unsigned int line;
};

struct sop {
	const char *name;
	bool freeze_fs, freeze_super;
	unsigned int line;
};

/* Which file it is, whatever the path: a key of the fileset's map. */
struct file_id {
	dev_t dev;
	ino_t ino;
};

struct file_info {
	char *path;
	struct file_id id;
	bool lexed;
	bool again;			/* added twice (see fileset_add) */
	int error;			/* errno of a failed read, or 0 */
	VEC(struct use) uses;
	strvec threads;			/* started as threads here */
	strvec freezable;		/* functions calling set_freezable() */
	VEC(struct definition) funcs;		/* units mode */
	VEC(struct definition) objs;		/* units mode */
	/*
	 * units mode: identifiers outside function bodies (initializers,
	 * macro bodies, EXPORT_SYMBOL() and the like), not counting the
	 * names that file-scope declarations declare
	 */
	strvec loose;
	VEC(struct macro) macros;		/* units mode */
	VEC(struct fstype) fstypes;
	VEC(struct sop) sops;
};

/*
 * Cheap substring tests deciding what, if anything, to lex for
 * (prefilter.c).
 */
bool may_use_freezer(const char *buf, size_t len);
bool may_start_thread(const char *buf, size_t len);

/*
 * Lex BUF and fill FI.  Strings are allocated in ARENA; TOKS/TOKCAP is a
 * token buffer the caller keeps between calls.  FULL asks for functions,
 * objects, file_system_types and super_operations too.
 */
struct token;
void analyze(struct file_info *fi, const char *buf, size_t len, bool full,
	     struct arena *arena, struct token **toks, size_t *tokcap);

/*
 * Use US, of the unit whose files (read in full) are FILES[0..N), is dead
 * freezer code: a task freezer use (api.c's API_TASK) in a kernel thread
 * that provably never becomes freezable, so that removing it changes
 * nothing.  The thread is started by a starter of api.c and its name is
 * used in no other way, and neither it nor a function of the unit it
 * calls calls set_freezable() (or kthread_worker_fn()); where that
 * cannot be shown (a macro or a function that is not a started thread
 * calls one), no use is dead.  The one place this is decided: the plan
 * says it ("nofreeze" lines), the report reads it.  In nofreeze.c.
 */
bool freezer_use_dead(struct file_info *const *files, size_t n,
		      const struct use *us);

/* Forget what was read of FI: it is as fileset_add() left it. */
void file_info_reset(struct file_info *fi);

/* Free FI and what it owns (its strings are in the arena, not here). */
void file_info_free(struct file_info *fi);

#endif /* AF_ANALYZE_H */
