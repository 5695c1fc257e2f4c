// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - the spatch result cache of "autofreeze convert": a rule
 * run's logs, and in the patch modes the files it wrote, kept under a
 * key made of everything the run reads (which spatch, the rule's text,
 * the options, the arguments and the content of every file), so that a
 * second run on an unchanged tree starts no spatch.  An entry is a
 * directory KEY holding log.tar, files.tar (patch modes) and sums,
 * their sha256sum lines; the key is the SHA-256 of the stream the shell
 * version hashed, so warm caches stay warm.  The cache is an
 * optimisation: one that cannot be written is no cache, and an entry
 * that is not whole and as it was written (its sums, each member the
 * runner's index names) is dropped, with a line on stderr, and the run
 * goes on uncached.  tar archives and unpacks, as before.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "cache.h"
#include "proc.h"
#include "sha256.h"
#include "util.h"

static bool patch_mode(const char *mode)
{
	return !strcmp(mode, "patch") || !strcmp(mode, "both");
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* "HASH  NAME\n" as sha256sum prints it, appended to S; -1 on failure. */
static int sum_line(struct sha256 *s, const char *path, const char *name)
{
	char hex[65];

	if (sha256_file(path, hex))
		return -1;
	sha256_update(s, hex, 64);
	sha256_update(s, "  ", 2);
	sha256_update(s, name, strlen(name));
	sha256_update(s, "\n", 1);
	return 0;
}

/* The sums an entry E of MODE carries, of its archives, or NULL. */
static char *entry_sums(const char *e, const char *mode)
{
	char *path, *text = xstrdup(""), *more, hex[65];
	const char *names[] = { "log.tar", "files.tar" };
	size_t i;
	int bad;

	for (i = 0; i < (patch_mode(mode) ? 2 : 1); i++) {
		path = xasprintf("%s/%s", e, names[i]);
		bad = sha256_file(path, hex);
		free(path);
		if (bad) {
			free(text);
			return NULL;
		}
		more = xasprintf("%s%s  %s\n", text, hex, names[i]);
		free(text);
		text = more;
	}
	return text;
}

/* Split LINE at tabs, runs of them one (as read with IFS=tab). */
static void tab_words(char *line, strvec *w)
{
	char *tok, *save;

	for (tok = strtok_r(line, "\t", &save); tok;
	     tok = strtok_r(NULL, "\t", &save))
		vec_push(w, tok);
}

/*
 * The files of a run, from the runner's index in LOG (its third field
 * on), into NAMES (pointing into the returned text); with CHECK, false
 * when a job's .out or .err is not in LOG or there is no index.
 */
static char *index_files(const char *log, bool check, strvec *names,
			 bool *ok)
{
	char *path = xasprintf("%s/index", log), *text, *line, *save, *p;
	strvec w = { 0 };
	size_t i;

	text = file_text(path);
	free(path);
	*ok = text;
	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		w.n = 0;
		tab_words(line, &w);
		for (i = 0; check && i < 2; i++) {
			p = xasprintf("%s/%s.%s", log, w.n ? w.v[0] : "",
				      i ? "err" : "out");
			if (!is_file(p))
				*ok = false;
			free(p);
		}
		for (i = 2; i < w.n; i++)
			vec_push(names, w.v[i]);
	}
	vec_free(&w);
	return text;
}

static int tar_x(const char *dir, const char *archive)
{
	const char *argv[] = { "tar", "-C", dir, "-xf", archive, NULL };

	return proc_run(argv, NULL, PROC_INHERIT, PROC_INHERIT, PROC_NULL);
}

/*
 * Entry E's log into LOG and its files over IN's, only when it is
 * whole: unpacked aside in the scratch directory, checked, then renamed
 * into place.  -1 for an entry that is not ours to read or could not be
 * unpacked, 0 when done; 1 for a damaged entry, *WHY saying why.
 */
static int unpack(struct cache *c, const char *e, const char *log,
		  const char *in, const char *mode, const char **why)
{
	char *sums_path = xasprintf("%s/sums", e), *want, *got, *tmp;
	char *tlog, *tfiles, *text = NULL, *from, *to;
	strvec names = { 0 };
	struct stat st;
	int rc = -1;
	bool ok;
	size_t i;

	/* another user's entry (mkdtemp made it 0700) is no entry here */
	if (!lstat(e, &st) && S_ISDIR(st.st_mode) &&
	    (access(e, R_OK) || access(e, X_OK) ||
	     (exists(sums_path) && access(sums_path, R_OK)))) {
		free(sums_path);
		return -1;
	}
	want = is_file(sums_path) && !lstat(e, &st) && S_ISDIR(st.st_mode) ?
	       file_text(sums_path) : NULL;
	got = want ? entry_sums(e, mode) : NULL;
	free(sums_path);
	if (!got || strcmp(want, got)) {
		free(want);
		free(got);
		*why = "its sums do not match";
		return 1;
	}
	free(want);
	free(got);
	tmp = xasprintf("%s/cache.XXXXXX", c->scratch);
	if (!mkdtemp(tmp)) {
		free(tmp);
		return -1;
	}
	tlog = xasprintf("%s/log", tmp);
	tfiles = xasprintf("%s/files", tmp);
	from = xasprintf("%s/log.tar", e);
	to = xasprintf("%s/files.tar", e);
	if (mkdir(tlog, 0777) || mkdir(tfiles, 0777) || tar_x(tlog, from) ||
	    (patch_mode(mode) && tar_x(tfiles, to)))
		goto out;	/* the sums hold: TMPDIR */
	free(from);
	free(to);
	from = to = NULL;
	text = index_files(tlog, true, &names, &ok);
	if (!patch_mode(mode))
		names.n = 0;
	for (i = 0; ok && i < names.n; i++) {
		from = xasprintf("%s/%s", tfiles, names.v[i]);
		ok = is_file(from);
		free(from);
		from = NULL;
	}
	if (!ok) {
		*why = "a member is missing";
		rc = 1;
		goto out;
	}
	if (rm_rf(log) || rename(tlog, log))
		goto out;
	for (i = 0; i < names.n; i++) {
		from = xasprintf("%s/%s", tfiles, names.v[i]);
		to = xasprintf("%s/%s", in, names.v[i]);
		rename(from, to);
		free(from);
		free(to);
	}
	from = to = NULL;
	rc = 0;
out:
	rm_rf(tmp);
	free(from);
	free(to);
	free(tmp);
	free(tlog);
	free(tfiles);
	free(text);
	vec_free(&names);
	return rc;
}

/* The key: the SHA-256 of what the shell version hashed, or -1. */
static int make_key(struct cache *c, const char *in, const char *mode,
		    const char *rule, const char *rule_path, char **args,
		    size_t nargs)
{
	const char *fixed[] = { "sums", c->spatch_id, mode, rule };
	struct sha256 s;
	bool files = false;
	char *path;
	size_t i;
	int bad;

	sha256_init(&s);
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		sha256_update(&s, fixed[i], strlen(fixed[i]) + 1);
	for (i = 0; i < nargs; i++)
		sha256_update(&s, args[i], strlen(args[i]) + 1);
	if (sum_line(&s, rule_path, "-"))
		return -1;
	for (i = 0; i < nargs; i++) {
		if (files) {
			path = xasprintf("%s/%s", in, args[i]);
			bad = sum_line(&s, path, args[i]);
			free(path);
			if (bad)
				return -1;
		}
		if (!strcmp(args[i], ":::"))
			files = true;
	}
	sha256_hex(&s, c->key);
	return 0;
}

bool cache_get(struct cache *c, const char *log, const char *in,
	       const char *mode, const char *rule, const char *rule_path,
	       char **args, size_t nargs)
{
	const char *why = NULL;
	char *e;
	int rc;

	c->key[0] = '\0';
	if (!c->dir)
		return false;
	if (make_key(c, in, mode, rule, rule_path, args, nargs)) {
		c->key[0] = '\0';
		return false;
	}
	e = xasprintf("%s/%s", c->dir, c->key);
	if (!exists(e)) {
		free(e);
		return false;
	}
	rc = unpack(c, e, log, in, mode, &why);
	if (rc == 1) {
		if (rm_rf(e))
			fprintf(stderr, "%s: warning: %s: a damaged entry of the spatch cache, which cannot be removed: running spatch\n",
				c->prog, e);
		else
			fprintf(stderr, "%s: warning: %s: a damaged entry of the spatch cache (%s): dropped it, running spatch\n",
				c->prog, e, why);
	} else if (!rc) {
		utime(e, NULL);
	}
	free(e);
	return !rc;
}

/* Entries not used for 30 days go (find -mtime +30). */
static void expire(const char *dir)
{
	time_t now = time(NULL);
	struct dirent *d;
	struct stat st;
	DIR *dp = opendir(dir);
	char *p;

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, d->d_name);
		if (!lstat(p, &st) && (now - st.st_mtime) / 86400 > 30)
			rm_rf(p);
		free(p);
	}
	closedir(dp);
}

/* mkdir -p PATH: 0, or -1 */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path), *s;
	int rc = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0777);
		*s = '/';
	}
	if (mkdir(p, 0777) && !is_dir(p))
		rc = -1;
	free(p);
	return rc;
}

void cache_put(struct cache *c, const char *log, const char *in,
	       const char *mode)
{
	char *e, *tmp, *a, *sums, *text = NULL;
	strvec argv = { 0 }, names = { 0 };
	const char *fixed[] = { "tar", "-C", in, "-cf", NULL, "--" };
	bool ok;
	size_t i;
	FILE *f;

	if (!c->dir || !c->key[0])
		return;
	e = xasprintf("%s/%s", c->dir, c->key);
	tmp = xasprintf("%s/.new.XXXXXX", c->dir);
	if (is_dir(e) || make_dirs(c->dir) || !mkdtemp(tmp))
		goto out;
	a = xasprintf("%s/log.tar", tmp);
	{
		const char *t[] = { "tar", "-C", log, "-cf", a, ".", NULL };

		ok = !proc_run(t, NULL, PROC_INHERIT, PROC_INHERIT, PROC_NULL);
	}
	free(a);
	if (ok && patch_mode(mode)) {
		/* the files of the run, from the runner's index */
		a = xasprintf("%s/files.tar", tmp);
		fixed[4] = a;
		for (i = 0; i < ARRAY_SIZE(fixed); i++)
			vec_push(&argv, (char *)fixed[i]);
		text = index_files(log, false, &names, &ok);
		for (i = 0; i < names.n; i++)
			vec_push(&argv, names.v[i]);
		vec_push(&argv, NULL);
		ok = !proc_run((const char *const *)argv.v, NULL, PROC_INHERIT,
			       PROC_INHERIT, PROC_NULL);
		free(a);
	}
	sums = ok ? entry_sums(tmp, mode) : NULL;
	a = xasprintf("%s/sums", tmp);
	f = sums ? fopen(a, "w") : NULL;
	ok = f && fputs(sums, f) >= 0;
	if (f && fclose(f))
		ok = false;
	free(a);
	free(sums);
	if (ok && !rename(tmp, e))
		expire(c->dir);
	else
		rm_rf(tmp);
out:
	free(e);
	free(tmp);
	free(text);
	vec_free(&argv);
	vec_free(&names);
}
