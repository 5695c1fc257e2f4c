/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache.h - the spatch result cache of "autofreeze convert" (cache.c).
 */
#ifndef AF_CACHE_H
#define AF_CACHE_H

#include <stdbool.h>
#include <stddef.h>

struct cache {
	char *dir;		/* DIR/spatch, NULL for no cache */
	const char *prog;	/* the warnings' prefix */
	const char *spatch_id;	/* which spatch, part of every key */
	const char *scratch;	/* where entries are unpacked aside */
	char key[65];		/* cache_get()'s key for cache_put(), or "" */
};

/*
 * Fill LOG (and in MODE patch or both the files in IN) from the entry
 * of a run of RULE (its text at RULE_PATH) with ARGS (the options, "--",
 * the -D words, ":::" and the files, relative to IN): true when it was
 * there and whole.  Otherwise false, with the key in C->key.
 */
bool cache_get(struct cache *c, const char *log, const char *in,
	       const char *mode, const char *rule, const char *rule_path,
	       char **args, size_t nargs);
/* Keep the successful run in LOG (and IN's files) under C->key. */
void cache_put(struct cache *c, const char *log, const char *in,
	       const char *mode);

#endif /* AF_CACHE_H */
