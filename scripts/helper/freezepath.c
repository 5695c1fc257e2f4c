// SPDX-License-Identifier: GPL-2.0
/*
 * freezepath.c - how the target kernel freezes a superblock on suspend:
 * the function that does it, where it was read, and whether it calls a
 * type's own ->freeze_super or only the VFS freeze_super() (which calls
 * ->freeze_fs).
 *
 * The function is our core series' fs_suspend_freeze_sb().  It is read
 * from the tree's fs/super.c when the series is applied there, else from
 * the series shipped for the tree's version (patches/linux-VERSION/, the
 * lines the patches add).  The 6.1 series calls freeze_super() alone; the
 * 6.12 series calls ->freeze_super where the type has one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "freezepath.h"
#include "lex.h"

static const char suspend_fn[] = "fs_suspend_freeze_sb";

/* The lines a patch adds, without their "+", appended to OUT. */
static void added_lines(const char *buf, size_t len, charvec *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (*p == '+' && !(e - p >= 3 && !strncmp(p, "+++", 3))) {
			for (p++; p < e; p++)
				vec_push(out, *p);
			vec_push(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/*
 * In the C text BUF, the definition of suspend_fn: true when found, with
 * *SUPER_OP telling whether its body calls "->freeze_super(".
 */
static bool read_definition(const char *buf, size_t len, bool *super_op)
{
	struct token *t = NULL;
	size_t cap = 0, n = lex_all(buf, len, &t, &cap), i, k;
	bool found = false;

	for (i = 0; i + 1 < n && !found; i++) {
		int depth = 0;

		if (t[i].kind != TK_IDENT || !tok_is(buf, &t[i], suspend_fn) ||
		    (t[i].flags & TF_DIRECTIVE))
			continue;
		/* NAME ( ... ) { : a definition, not a call or declaration */
		for (k = i + 1; k < n; k++) {
			if (t[k].kind != TK_PUNCT)
				continue;
			if (t[k].val == P1('('))
				depth++;
			else if (t[k].val == P1(')') && --depth == 0)
				break;
		}
		if (k + 1 >= n || t[k + 1].kind != TK_PUNCT ||
		    t[k + 1].val != P1('{'))
			continue;
		found = true;
		*super_op = false;
		depth = 0;
		for (k = k + 1; k < n; k++) {
			if (t[k].kind == TK_PUNCT && t[k].val == P1('{'))
				depth++;
			else if (t[k].kind == TK_PUNCT && t[k].val == P1('}') &&
				 --depth == 0)
				break;
			if (k + 2 < n && t[k].kind == TK_PUNCT &&
			    t[k].val == P2('-', '>') &&
			    tok_is(buf, &t[k + 1], "freeze_super") &&
			    t[k + 2].kind == TK_PUNCT &&
			    t[k + 2].val == P1('('))
				*super_op = true;
		}
	}
	free(t);
	return found;
}

static bool read_tree(struct freeze_path *fp, const char *ktree)
{
	char *path = path_join(ktree, "fs/super.c"), *buf = NULL;
	size_t len = 0, cap = 0;
	bool found = false;

	if (!read_file(path, &buf, &len, &cap, NULL, NULL))
		found = read_definition(buf, len, &fp->super_op);
	if (found)
		fp->where = xstrdup("fs/super.c");
	free(buf);
	free(path);
	return found;
}

static bool is_patch(const char *dir, const char *name, unsigned char type)
{
	size_t n = strlen(name);

	(void)dir;
	(void)type;
	return n > 6 && !strcmp(name + n - 6, ".patch");
}

static bool read_series(struct freeze_path *fp, const char *version)
{
	char *rel = xasprintf("patches/linux-%s", version);
	char *dir = beside_helper(rel);
	strvec names = { 0 };
	charvec text = { 0 };
	bool found = false;
	size_t i;

	if (dir)
		list_dir(dir, dir, is_patch, &names);
	for (i = 0; i < names.n; i++) {
		char *buf = NULL;
		size_t len = 0, cap = 0;

		if (!read_file(names.v[i], &buf, &len, &cap, NULL, NULL))
			added_lines(buf, len, &text);
		free(buf);
	}
	if (text.n)
		found = read_definition(text.v, text.n, &fp->super_op);
	if (found)
		fp->where = xasprintf("%s/", rel);
	vec_free(&text);
	strvec_free(&names);
	free(dir);
	free(rel);
	return found;
}

void freeze_path_read(struct freeze_path *fp, const char *ktree,
		      const char *version)
{
	memset(fp, 0, sizeof(*fp));
	if (read_tree(fp, ktree) || (version && read_series(fp, version)))
		fp->func = suspend_fn;
}

void freeze_path_free(struct freeze_path *fp)
{
	free(fp->where);
	memset(fp, 0, sizeof(*fp));
}
