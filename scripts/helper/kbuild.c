// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild.c - the Makefiles (obj- lines) and Kconfig files (config
 * symbols and what they select or depend on) of a kernel tree, read for the owner of
 * each symbol and the users of each library unit.  The files are read
 * line by line, not evaluated: conditionals count as true.
 */
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "units.h"

/* The unit owning Kconfig symbol SYM, or NULL. */
static struct unit *config_owner(const struct kbuild *kb, const char *sym)
{
	size_t n = strlen(sym);
	const struct hmap_entry *e = hmap_find(&kb->owner, sym, n,
					       str_hash(sym, n));

	return e ? e->val : NULL;
}

/* Make U the owner of SYM (copied) unless it has one already. */
static void set_config_owner(struct kbuild *kb, const char *sym,
			     struct unit *u)
{
	size_t n = strlen(sym);

	if (!hmap_find(&kb->owner, sym, n, str_hash(sym, n)))
		hmap_add(&kb->owner, xstrndup(sym, n), n, str_hash(sym, n), u,
			 NULL);
}

/* The whole file at PATH, NUL-terminated and malloc'ed, or NULL. */
static char *read_text_file(const char *path)
{
	size_t len, cap = 0;
	char *buf = NULL;

	if (read_file(path, &buf, &len, &cap, NULL, NULL)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The owners that unit U's Makefile names.  With DIRS false, each
 * obj-$(CONFIG_X) += x.o makes U the owner of X; with DIRS true, each
 * obj-$(CONFIG_X) += dir/ makes the unit of U/dir the owner of X.
 * Symbols already owned are left alone.
 */
static void makefile_owners(struct unit_survey *sv, struct unit *u,
			    bool dirs)
{
	char *mk = path_join(u->path, "Makefile");
	char *buf = read_text_file(mk), *line, *save = NULL;
	size_t i;

	free(mk);
	if (!buf)
		return;
	/* join continuation lines */
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\\' && buf[i + 1] == '\n')
			buf[i] = buf[i + 1] = ' ';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c = strstr(line, "$(CONFIG_"), *e, *items, sym[128];
		bool obj;

		if (!c || line[0] == '#')
			continue;
		e = strchr(c, ')');
		if (!e || (size_t)(e - c - 9) >= sizeof(sym))
			continue;
		memcpy(sym, c + 9, (size_t)(e - c - 9));
		sym[e - c - 9] = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		obj = !strncmp(line, "obj-$(CONFIG_", 13);
		items = strchr(e, '=');
		if (!items)
			continue;
		items++;
		if (!obj)
			continue;
		for (;;) {
			size_t n;

			items += strspn(items, " \t+:=");
			n = strcspn(items, " \t");
			if (!n)
				break;
			if (items[n - 1] == '/' && dirs) {
				char *sub = xstrndup(items, n - 1);
				char *rel = path_join(u->rel, sub);
				struct unit *s = find_unit(sv, rel);

				if (s)
					set_config_owner(&sv->kbuild, sym, s);
				free(rel);
				free(sub);
			} else if (items[n - 1] != '/' && !dirs) {
				set_config_owner(&sv->kbuild, sym, u);
			}
			items += n;
		}
	}
	free(buf);
}

/* The column of the first non-blank of S, tabs to multiples of 8. */
static int indent_of(const char *s)
{
	int n = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		n = *s == '\t' ? (n + 8) & ~7 : n + 1;
	return n;
}

/*
 * "depends on EXPR": the symbols EXPR needs, as S's needs (a "!SYM" is
 * not one, nor y, m or n).
 */
static void depends_on(struct kconfig_sym *s, const char *e)
{
	static const char word[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789_";
	bool negated = false;

	while (*e && *e != '#') {
		size_t n = strspn(e, word);

		if (!n) {
			if (*e == '!')
				negated = true;
			else if (*e != ' ' && *e != '\t' && *e != '(')
				negated = false;
			e++;
			continue;
		}
		if (!negated && ((*e >= 'A' && *e <= 'Z') || *e == '_'))
			vec_push(&s->needs, xstrndup(e, n));
		negated = false;
		e += n;
	}
}

/* The config entries of the Kconfig file PATH, in directory RELDIR. */
static void parse_kconfig(struct kbuild *kb, const char *path,
			  const char *reldir)
{
	char *buf = read_text_file(path), *line, *save = NULL;
	struct kconfig_sym *cur = NULL;
	int help = -1;

	if (!buf)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int ind = indent_of(line);
		char *w = line + strspn(line, " \t");
		size_t n;

		if (!*w)
			continue;
		if (help >= 0) {
			if (ind > help)
				continue;
			help = -1;
		}
		if (!strncmp(w, "config ", 7) || !strncmp(w, "menuconfig ", 11)) {
			struct kconfig_sym s = { 0 };

			w += strcspn(w, " \t");
			w += strspn(w, " \t");
			n = strcspn(w, " \t#");
			s.name = xstrndup(w, n);
			s.dir = xstrdup(reldir);
			vec_push(&kb->syms, s);
			cur = &kb->syms.v[kb->syms.n - 1];
		} else if (!strncmp(w, "help", 4) &&
			   (!w[4] || w[4] == ' ' || w[4] == '\t')) {
			help = ind;
		} else if (!strncmp(w, "---help---", 10)) {
			help = ind;
		} else if (cur && !strncmp(w, "select", 6) &&
			   (w[6] == ' ' || w[6] == '\t')) {
			w += 6;
			w += strspn(w, " \t");
			n = strcspn(w, " \t#");
			if (n)
				vec_push(&cur->needs, xstrndup(w, n));
		} else if (cur && !strncmp(w, "depends on", 10) &&
			   (w[10] == ' ' || w[10] == '\t')) {
			depends_on(cur, w + 10);
		} else if (ind == 0) {
			cur = NULL;	/* menu, if, choice, source, ... */
		}
	}
	free(buf);
}

static bool is_kconfig(const char *dir, const char *name, unsigned char type)
{
	(void)dir;
	(void)type;
	return !strncmp(name, "Kconfig", 7);
}

/* Every Kconfig* file at or below REL, depth first in name order. */
static void walk_kconfigs(struct unit_survey *sv, const char *rel)
{
	char *path = path_join(sv->ktree, rel);
	strvec names = { 0 }, subs = { 0 };
	size_t i;

	list_dir(path, path, is_kconfig, &names);
	for (i = 0; i < names.n; i++)
		parse_kconfig(&sv->kbuild, names.v[i], rel);
	strvec_free(&names);
	list_subdirs(path, rel, &subs);
	for (i = 0; i < subs.n; i++)
		walk_kconfigs(sv, subs.v[i]);
	strvec_free(&subs);
	free(path);
}

/* The owner of every symbol: see kbuild.h. */
static void find_owners(struct unit_survey *sv)
{
	size_t i;

	for (i = 0; i < sv->all.n; i++)
		makefile_owners(sv, sv->all.v[i], false);
	for (i = 0; i < sv->all.n; i++)
		makefile_owners(sv, sv->all.v[i], true);
	for (i = 0; i < sv->kbuild.syms.n; i++) {
		const struct kconfig_sym *s = &sv->kbuild.syms.v[i];
		struct unit *u = unit_above(sv, s->dir);

		if (u)
			set_config_owner(&sv->kbuild, s->name, u);
	}
}

static void list_configs(struct unit_survey *sv)
{
	const struct hmap *m = &sv->kbuild.owner;
	size_t i;

	for (i = 0; i < m->cap; i++) {
		const struct hmap_entry *e = &m->slot[i];

		if (e->key)
			vec_push(&((struct unit *)e->val)->configs,
				 (char *)e->key);
	}
	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		xqsort(u->configs.v, u->configs.n, sizeof(char *), cmp_strp);
	}
}

static int cmp_unitp(const void *a, const void *b)
{
	return strcmp((*(struct unit *const *)a)->rel,
		      (*(struct unit *const *)b)->rel);
}

/* Users: the units owning a symbol that selects or depends on one of
 * the library's. */
static void list_users(struct unit_survey *sv)
{
	const struct kbuild *kb = &sv->kbuild;
	size_t i, j;

	for (i = 0; i < kb->syms.n; i++) {
		const struct kconfig_sym *s = &kb->syms.v[i];
		struct unit *user = config_owner(kb, s->name);

		if (!user)
			continue;
		for (j = 0; j < s->needs.n; j++) {
			struct unit *lib = config_owner(kb, s->needs.v[j]);
			size_t k;
			bool dup = false;

			if (!lib || lib == user)
				continue;
			for (k = 0; k < lib->users.n; k++)
				dup |= lib->users.v[k] == user;
			if (!dup)
				vec_push(&lib->users, user);
		}
	}
	for (i = 0; i < sv->all.n; i++) {
		struct unit *u = sv->all.v[i];

		xqsort(u->users.v, u->users.n, sizeof(*u->users.v), cmp_unitp);
	}
}

void kbuild_read(struct unit_survey *sv)
{
	walk_kconfigs(sv, "fs");
	find_owners(sv);
	list_configs(sv);
	list_users(sv);
}

void kbuild_free(struct kbuild *kb)
{
	size_t i;

	for (i = 0; i < kb->syms.n; i++) {
		free(kb->syms.v[i].name);
		free(kb->syms.v[i].dir);
		strvec_free(&kb->syms.v[i].needs);
	}
	vec_free(&kb->syms);
	for (i = 0; i < kb->owner.cap; i++)
		free((char *)kb->owner.slot[i].key);
	hmap_free(&kb->owner);
}
