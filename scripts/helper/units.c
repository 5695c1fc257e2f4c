// SPDX-License-Identifier: GPL-2.0
/*
 * units.c - "autofreeze units" and "autofreeze plan": a kernel tree's
 * units under DIR, their file_system_types and super_operations, and
 * whether each is freeze-capable (DESIGN.md §2.3).
 *
 * Which super_operations a file_system_type uses is traced: from the
 * identifiers in its initializer (.mount, .init_fs_context, ...) through
 * the unit's functions and initializers (a fs_context_operations, a
 * fill_super passed to get_tree_bdev()) to "X->s_op = &NAME;".  When
 * nothing is found, the unit's super_operations count as a whole.
 *
 * A library's users come from Kconfig: the units owning a symbol that
 * "select"s one of the library's symbols.  A symbol belongs to the unit
 * that builds on it (obj-$(CONFIG_X) += x.o), else to the unit whose
 * parent Makefile enters it (obj-$(CONFIG_X) += dir/), else to the unit
 * of the Kconfig file defining it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "scan.h"
#include "tree.h"

enum status { ST_ELIGIBLE, ST_SKIP, ST_LIBRARY, ST_CORE };

static const char *const status_names[] = {
	[ST_ELIGIBLE] = "eligible",
	[ST_SKIP] = "skip",
	[ST_LIBRARY] = "library",
	[ST_CORE] = "core",
};

struct tinfo {
	const struct fstype *ft;
	const struct file_info *fi;
	const char **sops;	/* traced (or the unit's), sorted */
	size_t nsops;
	bool traced;
	bool capable;
};

struct unit {
	char *rel;		/* relative to KTREE: "fs/xfs"; "fs" core */
	char *path;		/* KTREE/rel */
	bool core;
	bool requested;
	bool analyzed;
	size_t first, end;	/* its files in the fileset */
	enum status status;
	bool capable;
	char *reason;
	unsigned int uses[CTX_MAX], nuses;
	strvec kthreads;	/* defined in the unit, sorted */
	strvec configs;		/* sorted */
	VEC(struct unit *) users;
	VEC(struct tinfo) types;
};

/* The unit owning Kconfig symbol SYM, or NULL. */
static struct unit *config_owner(const struct hmap *m, const char *sym)
{
	size_t n = strlen(sym);
	const struct hmap_entry *e = hmap_find(m, sym, n, str_hash(sym, n));

	return e ? e->val : NULL;
}

/* Make U the owner of SYM (copied) unless it has one already. */
static void set_config_owner(struct hmap *m, const char *sym,
			     struct unit *u)
{
	size_t n = strlen(sym);

	if (!hmap_find(m, sym, n, str_hash(sym, n)))
		hmap_add(m, xstrndup(sym, n), n, str_hash(sym, n), u, NULL);
}

static void config_owners_free(struct hmap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free((char *)m->slot[i].key);
	hmap_free(m);
}

struct kconfig_sym {
	char *name;
	char *dir;		/* relative dir of its Kconfig file */
	strvec selects;
};

struct state {
	const char *ktree;
	VEC(struct unit *) all;		/* every unit under fs/ and DIR */
	VEC(struct unit *) list;	/* the units of DIR, in order */
	VEC(struct kconfig_sym) syms;
	struct hmap config_unit;	/* symbol -> struct unit * */
	struct fileset fs;
	int jobs;
	bool force;
};

static struct unit *find_unit(struct state *st, const char *rel)
{
	size_t i;

	for (i = 0; i < st->all.n; i++)
		if (!strcmp(st->all.v[i]->rel, rel))
			return st->all.v[i];
	return NULL;
}

static struct unit *add_unit(struct state *st, const char *rel, bool core)
{
	struct unit *u = find_unit(st, rel);

	if (u)
		return u;
	u = xcalloc(1, sizeof(*u));
	u->rel = xstrdup(rel);
	u->path = path_join(st->ktree, rel);
	u->core = core;
	vec_push(&st->all, u);
	return u;
}

/* Subdirectories of DIR, sorted; names malloc'ed. */
static void subdirs(const char *dir, strvec *out)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		p = path_join(dir, de->d_name);
		if (is_dir(p))
			vec_push(out, xstrdup(de->d_name));
		free(p);
	}
	closedir(d);
	xqsort(out->v, out->n, sizeof(*out->v), cmp_strp);
}

/* The units at or below REL, depth first in name order. */
static void expand(struct state *st, const char *rel, strvec *found)
{
	char *path = path_join(st->ktree, rel);
	strvec subs = { 0 };
	size_t i;

	if (dir_is_unit(path)) {
		add_unit(st, rel, !strcmp(rel, "fs"));
		vec_push(found, xstrdup(rel));
	}
	subdirs(path, &subs);
	for (i = 0; i < subs.n; i++) {
		char *sub = path_join(rel, subs.v[i]);

		expand(st, sub, found);
		free(sub);
		free(subs.v[i]);
	}
	vec_free(&subs);
	free(path);
}

/* The unit holding relative path REL: it, or the nearest one above. */
static struct unit *unit_above(struct state *st, const char *rel)
{
	char *r = xstrdup(rel);
	struct unit *u = NULL;

	for (;;) {
		char *slash;

		u = find_unit(st, r);
		if (u)
			break;
		slash = strrchr(r, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(r);
	return u;
}

/* ---- Makefiles and Kconfig ---- */

static char *slurp(const char *path)
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
 * Walk a unit's Makefile: PASS 1 maps obj-$(CONFIG_X) += x.o to U, pass
 * 2 maps obj-$(CONFIG_X) += dir/ to the unit of dir.
 */
static void makefile_pass(struct state *st, struct unit *u, int pass)
{
	char *mk = path_join(u->path, "Makefile"), *buf = slurp(mk), *line;
	char *save = NULL;
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
			if (items[n - 1] == '/' && pass == 2) {
				char *sub = xstrndup(items, n - 1);
				char *rel = path_join(u->rel, sub);
				struct unit *s = find_unit(st, rel);

				if (s)
					set_config_owner(&st->config_unit, sym, s);
				free(rel);
				free(sub);
			} else if (items[n - 1] != '/' && pass == 1) {
				set_config_owner(&st->config_unit, sym, u);
			}
			items += n;
		}
	}
	free(buf);
}

static int indent_of(const char *s)
{
	int n = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		n = *s == '\t' ? (n + 8) & ~7 : n + 1;
	return n;
}

static void parse_kconfig(struct state *st, const char *path,
			  const char *reldir)
{
	char *buf = slurp(path), *line, *save = NULL;
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
			vec_push(&st->syms, s);
			cur = &st->syms.v[st->syms.n - 1];
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
				vec_push(&cur->selects, xstrndup(w, n));
		} else if (ind == 0) {
			cur = NULL;	/* menu, if, choice, source, ... */
		}
	}
	free(buf);
}

static void walk_kconfigs(struct state *st, const char *rel)
{
	char *path = path_join(st->ktree, rel);
	struct dirent *de;
	strvec names = { 0 }, subs = { 0 };
	size_t i;
	DIR *d = opendir(path);

	if (!d) {
		free(path);
		return;
	}
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "Kconfig", 7))
			vec_push(&names, xstrdup(de->d_name));
	closedir(d);
	xqsort(names.v, names.n, sizeof(*names.v), cmp_strp);
	for (i = 0; i < names.n; i++) {
		char *p = path_join(path, names.v[i]);

		parse_kconfig(st, p, rel);
		free(p);
		free(names.v[i]);
	}
	vec_free(&names);
	subdirs(path, &subs);
	for (i = 0; i < subs.n; i++) {
		char *sub = path_join(rel, subs.v[i]);

		walk_kconfigs(st, sub);
		free(sub);
		free(subs.v[i]);
	}
	vec_free(&subs);
	free(path);
}

static void map_configs(struct state *st)
{
	size_t i, j;

	for (i = 0; i < st->all.n; i++)
		makefile_pass(st, st->all.v[i], 1);
	for (i = 0; i < st->all.n; i++)
		makefile_pass(st, st->all.v[i], 2);
	for (i = 0; i < st->syms.n; i++) {
		struct unit *u = unit_above(st, st->syms.v[i].dir);

		if (u)
			set_config_owner(&st->config_unit,
					 st->syms.v[i].name, u);
	}
	/* the configs of each unit */
	for (i = 0; i < st->config_unit.cap; i++) {
		const struct hmap_entry *e = &st->config_unit.slot[i];

		if (e->key)
			vec_push(&((struct unit *)e->val)->configs,
				 (char *)e->key);
	}
	for (i = 0; i < st->all.n; i++) {
		struct unit *u = st->all.v[i];

		xqsort(u->configs.v, u->configs.n, sizeof(char *), cmp_strp);
	}
	/* users: units owning a symbol that selects one of ours */
	for (i = 0; i < st->syms.n; i++) {
		struct kconfig_sym *s = &st->syms.v[i];
		struct unit *user = config_owner(&st->config_unit, s->name);

		if (!user)
			continue;
		for (j = 0; j < s->selects.n; j++) {
			struct unit *lib = config_owner(&st->config_unit,
						       s->selects.v[j]);
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
}

static int cmp_unitp(const void *a, const void *b)
{
	return strcmp((*(struct unit *const *)a)->rel,
		      (*(struct unit *const *)b)->rel);
}

/* ---- analysis ---- */

struct entry {
	const char *name;
	const struct file_info *fi;
	const struct def *d;
	bool obj;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static bool file_has_type(const struct file_info *fi, const char *name,
			  bool sop)
{
	size_t i;

	if (sop) {
		for (i = 0; i < fi->sops.n; i++)
			if (!strcmp(fi->sops.v[i].name, name))
				return true;
	} else {
		for (i = 0; i < fi->fstypes.n; i++)
			if (!strcmp(fi->fstypes.v[i].name, name))
				return true;
	}
	return false;
}

/* The super_operations reached from file_system_type FT (see top). */
static void trace_sops(const struct entry *ents, size_t nents,
		       const struct file_info *fi, const struct fstype *ft,
		       const struct strset *unit_sops, struct strset *found)
{
	VEC(const char *) queue = { 0 };
	struct strset visited = { 0 };
	size_t i, head = 0;

	for (i = 0; i < fi->objs.n; i++) {
		const struct def *d = &fi->objs.v[i];
		size_t k;

		if (strcmp(d->name, ft->name))
			continue;
		for (k = 0; k < d->refs.n; k++)
			vec_push(&queue, d->refs.v[k]);
	}
	while (head < queue.n && strset_size(&visited) < 20000) {
		const char *name = queue.v[head++];
		struct entry key = { 0 };
		const struct entry *e;

		if (!strset_add(&visited, name))
			continue;
		key.name = name;
		e = xbsearch(&key, ents, nents, sizeof(*ents), cmp_entry);
		if (!e)
			continue;
		while (e > ents && !strcmp(e[-1].name, name))
			e--;
		for (; e < ents + nents && !strcmp(e->name, name); e++) {
			size_t k;

			/* another type's mount (btrfs) is followed */
			if (e->obj && file_has_type(e->fi, name, true))
				continue;
			for (k = 0; k < e->d->sops.n; k++)
				if (strset_has(unit_sops, e->d->sops.v[k]))
					strset_add(found, e->d->sops.v[k]);
			for (k = 0; k < e->d->refs.n; k++)
				vec_push(&queue, e->d->refs.v[k]);
		}
	}
	vec_free(&queue);
	strset_free(&visited);
}

static const struct sop *find_sop(struct state *st, struct unit *u,
				  const char *name,
				  const struct file_info **where)
{
	size_t i, k;

	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = st->fs.files.v[i];

		for (k = 0; k < fi->sops.n; k++) {
			if (!strcmp(fi->sops.v[k].name, name)) {
				if (where)
					*where = fi;
				return &fi->sops.v[k];
			}
		}
	}
	return NULL;
}

static bool sop_freezes(const struct sop *s)
{
	return s && (s->freeze_fs || s->freeze_super);
}

static void analyze_unit(struct state *st, struct unit *u)
{
	VEC(struct entry) ents = { 0 };
	VEC(struct file_info *) files = { 0 };
	struct strset unit_sops = { 0 }, kt = { 0 }, defined = { 0 };
	size_t i, k;

	for (i = u->first; i < u->end; i++) {
		struct file_info *fi = st->fs.files.v[i];

		vec_push(&files, fi);
		for (k = 0; k < fi->funcs.n; k++) {
			struct entry e = { fi->funcs.v[k].name, fi,
					   &fi->funcs.v[k], false };

			vec_push(&ents, e);
			strset_add(&defined, fi->funcs.v[k].name);
		}
		for (k = 0; k < fi->objs.n; k++) {
			struct entry e = { fi->objs.v[k].name, fi,
					   &fi->objs.v[k], true };

			vec_push(&ents, e);
		}
		for (k = 0; k < fi->sops.n; k++)
			strset_add(&unit_sops, fi->sops.v[k].name);
	}
	xqsort(ents.v, ents.n, sizeof(*ents.v), cmp_entry);

	/* uses and thread functions */
	unit_kthreads(files.v, files.n, &kt);
	for (i = 0; i < files.n; i++) {
		for (k = 0; k < files.v[i]->uses.n; k++) {
			enum context c = use_context(&files.v[i]->uses.v[k],
						     &kt);

			u->uses[c]++;
			u->nuses++;
		}
	}
	{
		size_t n;
		const char **v = strset_sorted(&kt, &n);

		for (i = 0; i < n; i++)
			if (strset_has(&defined, v[i]))
				vec_push(&u->kthreads, (char *)v[i]);
		free(v);
	}

	/* file_system_types and their super_operations */
	for (i = 0; i < files.n; i++) {
		const struct file_info *fi = files.v[i];

		for (k = 0; k < fi->fstypes.n; k++) {
			struct tinfo t = { 0 };
			struct strset found = { 0 };
			size_t j;

			t.ft = &fi->fstypes.v[k];
			t.fi = fi;
			trace_sops(ents.v, ents.n, fi, t.ft, &unit_sops,
				   &found);
			t.traced = strset_size(&found) > 0;
			t.sops = strset_sorted(t.traced ? &found : &unit_sops,
					       &t.nsops);
			for (j = 0; j < t.nsops; j++)
				if (sop_freezes(find_sop(st, u, t.sops[j],
							 NULL)))
					t.capable = t.ft->requires_dev;
			u->capable |= t.capable;
			vec_push(&u->types, t);
			strset_free(&found);
		}
	}
	vec_free(&ents);
	vec_free(&files);
	strset_free(&unit_sops);
	strset_free(&kt);
	strset_free(&defined);
	u->analyzed = true;
}

static const char *unit_name(const struct unit *u)
{
	return u->core ? "fs (core)" : u->rel;
}

static void append(charvec *s, const char *str)
{
	for (; *str; str++)
		vec_push(s, *str);
}

/* The first freezing super_operations of T and its field. */
static const char *freeze_field(struct state *st, struct unit *u,
				const struct tinfo *t, const char **sop)
{
	size_t j;

	for (j = 0; j < t->nsops; j++) {
		const struct sop *s = find_sop(st, u, t->sops[j], NULL);

		if (sop_freezes(s)) {
			*sop = s->name;
			return s->freeze_fs ? ".freeze_fs" : ".freeze_super";
		}
	}
	return NULL;
}

static void decide(struct state *st, struct unit *u)
{
	charvec r = { 0 };
	size_t i, j;

	if (u->core) {
		u->status = ST_CORE;
		u->reason = xstrdup("kept: fs (core), the files at the top of "
				    "fs/ are the VFS, not a filesystem unit");
		return;
	}
	if (!u->types.n) {
		u->status = ST_LIBRARY;
		append(&r, "library: no file_system_type, ");
		if (!u->users.n)
			append(&r, "no users (no Kconfig select of it)");
		else
			append(&r, "used by ");
		for (i = 0; i < u->users.n; i++) {
			if (i)
				append(&r, ", ");
			append(&r, unit_name(u->users.v[i]));
			append(&r, u->users.v[i]->capable ?
			       " (freeze-capable)" : " (not freeze-capable)");
		}
	} else if (u->capable) {
		bool *done = xcalloc(u->types.n, sizeof(bool));

		u->status = ST_ELIGIBLE;
		append(&r, "eligible: ");
		/* group the types by the (sop, field) that makes them */
		for (i = 0; i < u->types.n; i++) {
			const char *sop = NULL, *field, *sop2 = NULL;
			size_t count = 0;

			if (done[i] || !u->types.v[i].capable)
				continue;
			field = freeze_field(st, u, &u->types.v[i], &sop);
			if (r.n > 10)
				append(&r, "; ");
			for (j = i; j < u->types.n; j++) {
				const struct tinfo *t = &u->types.v[j];

				if (done[j] || !t->capable)
					continue;
				if (strcmp(freeze_field(st, u, t, &sop2),
					   field) || strcmp(sop2, sop))
					continue;
				done[j] = true;
				if (count++)
					append(&r, ", ");
				append(&r, t->ft->name);
			}
			append(&r, count > 1 ? " are" : " is");
			append(&r, " FS_REQUIRES_DEV and ");
			append(&r, sop);
			append(&r, " has ");
			append(&r, field);
		}
		free(done);
	} else {
		bool dev = false;

		u->status = ST_SKIP;
		for (i = 0; i < u->types.n; i++)
			dev |= u->types.v[i].ft->requires_dev;
		if (!dev) {
			append(&r, "not freeze-capable: no FS_REQUIRES_DEV "
			       "file_system_type");
		} else {
			append(&r, "not freeze-capable: no .freeze_fs/"
			       ".freeze_super (");
			for (i = 0, j = 0; i < u->types.n; i++) {
				const struct tinfo *t = &u->types.v[i];
				size_t k;

				if (!t->ft->requires_dev)
					continue;
				if (j++)
					append(&r, "; ");
				append(&r, t->ft->name);
				append(&r, ": ");
				if (!t->nsops)
					append(&r, "no super_operations");
				for (k = 0; k < t->nsops; k++) {
					if (k)
						append(&r, ", ");
					append(&r, t->sops[k]);
				}
			}
			append(&r, ")");
		}
	}
	vec_push(&r, '\0');
	u->reason = xstrdup(r.v);
	vec_free(&r);
}

static bool converted(const struct state *st, const struct unit *u)
{
	return u->status == ST_ELIGIBLE ||
		(st->force && (u->status == ST_SKIP ||
			       u->status == ST_LIBRARY));
}

static const char *relpath(const struct state *st, const char *path)
{
	size_t n = strlen(st->ktree);

	if (!strncmp(path, st->ktree, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/* ---- the shared front end ---- */

static void usage_units(FILE *f, const char *cmd)
{
	fprintf(f, "usage: %s %s%s [--force] [-j N] KTREE DIR\n", PROG, cmd,
		strcmp(cmd, "units") ? "" : " [--json]");
}

static int setup(struct state *st, int argc, char **argv, const char *cmd,
		 bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "force", no_argument, NULL, 'f' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	strvec found = { 0 };
	char *dir, *end;
	size_t i;
	int opt;

	memset(st, 0, sizeof(*st));
	st->jobs = ncpus();
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+j:fh", opts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			if (!json)
				goto bad;
			*json = true;
			break;
		case 'f':
			st->force = true;
			break;
		case 'j':
			st->jobs = (int)strtol(optarg, &end, 10);
			if (*end || st->jobs < 1 || st->jobs > 1024)
				af_die(EXIT_BADINPUT, NULL,
				       "%s: bad job count '%s'", cmd, optarg);
			break;
		case 'h':
			usage_units(stdout, cmd);
			exit(0);
		default:
bad:
			usage_units(stderr, cmd);
			return EXIT_BADINPUT;
		}
	}
	if (argc - optind != 2) {
		usage_units(stderr, cmd);
		return EXIT_BADINPUT;
	}
	st->ktree = path_clean(argv[optind]);
	if (!is_dir(st->ktree))
		af_die(EXIT_BADINPUT, st->ktree, "no such directory");
	if (!is_ktree(st->ktree))
		af_die(EXIT_BADINPUT, st->ktree, "not a kernel tree "
		       "(no Makefile, Kconfig and include/linux)");
	dir = path_clean(argv[optind + 1]);
	if (dir[0] == '/' || !strcmp(dir, "..") || !strncmp(dir, "../", 3) ||
	    strstr(dir, "/../") || (strlen(dir) >= 3 &&
				    !strcmp(dir + strlen(dir) - 3, "/..")))
		af_die(EXIT_BADINPUT, dir, "DIR must be relative to KTREE, "
		       "inside it");
	if (!strncmp(dir, "./", 2))
		memmove(dir, dir + 2, strlen(dir + 2) + 1);
	{
		char *p = path_join(st->ktree, dir);

		if (!is_dir(p))
			af_die(EXIT_BADINPUT, dir, "no such directory in %s",
			       st->ktree);
		free(p);
	}

	/* every unit of fs/ (for Kconfig owners), then DIR's */
	{
		char *p = path_join(st->ktree, "fs");

		if (is_dir(p))
			expand(st, "fs", &found);
		free(p);
	}
	for (i = 0; i < found.n; i++)
		free(found.v[i]);
	found.n = 0;
	expand(st, dir, &found);
	if (!found.n) {
		struct unit *u = unit_above(st, dir);

		if (!u && strcmp(dir, ".")) {
			/* outside fs/: enter the units above DIR */
			char *r = xstrdup(dir);

			for (;;) {
				char *slash = strrchr(r, '/'), *p;

				p = path_join(st->ktree, r);
				if (dir_is_unit(p))
					u = add_unit(st, r, false);
				free(p);
				if (u || !slash)
					break;
				*slash = '\0';
			}
			free(r);
		}
		if (!u)
			af_die(EXIT_BADINPUT, dir, "no unit (no directory with "
			       "a Makefile and C files) at or above it");
		vec_push(&found, xstrdup(u->rel));
	}
	for (i = 0; i < found.n; i++) {
		struct unit *u = find_unit(st, found.v[i]);

		if (!u->requested) {
			u->requested = true;
			vec_push(&st->list, u);
		}
		free(found.v[i]);
	}
	vec_free(&found);
	free(dir);

	walk_kconfigs(st, "fs");
	map_configs(st);

	/* read the units asked for and the users of the libraries */
	for (i = 0; i < st->list.n; i++) {
		struct unit *u = st->list.v[i];

		u->first = st->fs.files.n;
		fileset_add_unit(&st->fs, u->path, u->core);
		u->end = st->fs.files.n;
		u->analyzed = true;
	}
	for (i = 0; i < st->list.n; i++) {
		struct unit *lib = st->list.v[i];
		size_t k;

		for (k = 0; k < lib->users.n; k++) {
			struct unit *u = lib->users.v[k];

			if (u->analyzed)
				continue;
			u->first = st->fs.files.n;
			fileset_add_unit(&st->fs, u->path, u->core);
			u->end = st->fs.files.n;
			u->analyzed = true;
		}
	}
	fileset_process(&st->fs, NULL, 0, 0, st->jobs, PM_FULL);
	for (i = 0; i < st->fs.files.n; i++)
		if (st->fs.files.v[i]->error)
			af_die(EXIT_RUNTIME, st->fs.files.v[i]->path, "%s",
			       strerror(st->fs.files.v[i]->error));
	for (i = 0; i < st->all.n; i++) {
		struct unit *u = st->all.v[i];

		if (!u->analyzed)
			continue;
		xqsort(u->users.v, u->users.n, sizeof(*u->users.v), cmp_unitp);
		analyze_unit(st, u);
	}
	for (i = 0; i < st->all.n; i++)
		if (st->all.v[i]->analyzed)
			decide(st, st->all.v[i]);
	return 0;
}

static void teardown(struct state *st)
{
	size_t i, k;

	for (i = 0; i < st->all.n; i++) {
		struct unit *u = st->all.v[i];

		for (k = 0; k < u->types.n; k++)
			free(u->types.v[k].sops);
		vec_free(&u->types);
		vec_free(&u->kthreads);
		vec_free(&u->configs);
		vec_free(&u->users);
		free(u->rel);
		free(u->path);
		free(u->reason);
		free(u);
	}
	vec_free(&st->all);
	vec_free(&st->list);
	for (i = 0; i < st->syms.n; i++) {
		free(st->syms.v[i].name);
		free(st->syms.v[i].dir);
		for (k = 0; k < st->syms.v[i].selects.n; k++)
			free(st->syms.v[i].selects.v[k]);
		vec_free(&st->syms.v[i].selects);
	}
	vec_free(&st->syms);
	config_owners_free(&st->config_unit);
	fileset_free(&st->fs);
	free((char *)st->ktree);
}

/* ---- output ---- */

static void print_text(struct state *st, struct unit *u)
{
	size_t i, k;

	printf("%s: %s\n", unit_name(u), u->reason);
	printf("\tstatus: %s%s\n", status_names[u->status],
	       converted(st, u) && u->status != ST_ELIGIBLE ?
	       ", converted with --force" : "");
	printf("\tuses: %u (kthread %u, user %u, macro %u, unknown %u)\n",
	       u->nuses, u->uses[CTX_KTHREAD], u->uses[CTX_USER],
	       u->uses[CTX_MACRO], u->uses[CTX_UNKNOWN]);
	for (i = 0; i < u->types.n; i++) {
		const struct tinfo *t = &u->types.v[i];

		printf("\tfstype: %s", t->ft->name);
		if (t->ft->fsname)
			printf(" \"%s\"", t->ft->fsname);
		printf(" %s:%u fs_flags: %s%s s_op: ",
		       relpath(st, t->fi->path), t->ft->line,
		       t->ft->flags ? t->ft->flags : "-",
		       t->ft->requires_dev ? " [FS_REQUIRES_DEV]" : "");
		if (!t->nsops)
			printf("-");
		else if (!t->traced)
			printf("?(");
		for (k = 0; k < t->nsops; k++)
			printf("%s%s", k ? "," : "", t->sops[k]);
		printf("%s%s\n", t->traced || !t->nsops ? "" : ")",
		       t->capable ? " [freeze-capable]" : "");
	}
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = st->fs.files.v[i];

		for (k = 0; k < fi->sops.n; k++)
			printf("\ts_op: %s %s:%u%s%s\n", fi->sops.v[k].name,
			       relpath(st, fi->path), fi->sops.v[k].line,
			       fi->sops.v[k].freeze_fs ? " .freeze_fs" : "",
			       fi->sops.v[k].freeze_super ?
			       " .freeze_super" : "");
	}
	if (u->kthreads.n) {
		printf("\tkthread:");
		for (i = 0; i < u->kthreads.n; i++)
			printf(" %s", u->kthreads.v[i]);
		putchar('\n');
	}
	if (u->configs.n && u->status == ST_LIBRARY) {
		printf("\tconfig:");
		for (i = 0; i < u->configs.n; i++)
			printf(" CONFIG_%s", u->configs.v[i]);
		putchar('\n');
	}
	if (u->status == ST_LIBRARY) {
		printf("\tusers:");
		for (i = 0; i < u->users.n; i++)
			printf(" %s (%s)", unit_name(u->users.v[i]),
			       u->users.v[i]->capable ? "freeze-capable" :
			       "not freeze-capable");
		if (!u->users.n)
			printf(" -");
		putchar('\n');
	}
}

static void json_strs(const char *key, char **v, size_t n, const char *pre)
{
	size_t i;

	printf(", \"%s\": [", key);
	for (i = 0; i < n; i++) {
		char *s = xasprintf("%s%s", pre, v[i]);

		printf("%s", i ? ", " : "");
		json_str(stdout, s);
		free(s);
	}
	putchar(']');
}

static void print_json(struct state *st, struct unit *u)
{
	size_t i, k;
	bool first = true;

	printf("  {\"unit\": ");
	json_str(stdout, unit_name(u));
	printf(", \"dir\": ");
	json_str(stdout, u->rel);
	printf(", \"status\": \"%s\", \"freeze_capable\": %s, "
	       "\"convert\": %s, \"reason\": ", status_names[u->status],
	       u->capable ? "true" : "false",
	       converted(st, u) ? "true" : "false");
	json_str(stdout, u->reason);
	printf(",\n   \"uses\": {\"total\": %u, \"kthread\": %u, "
	       "\"user\": %u, \"macro\": %u, \"unknown\": %u}",
	       u->nuses, u->uses[CTX_KTHREAD], u->uses[CTX_USER],
	       u->uses[CTX_MACRO], u->uses[CTX_UNKNOWN]);
	printf(",\n   \"fstypes\": [");
	for (i = 0; i < u->types.n; i++) {
		const struct tinfo *t = &u->types.v[i];

		printf("%s{\"name\": ", i ? ", " : "");
		json_str(stdout, t->ft->name);
		printf(", \"fsname\": ");
		if (t->ft->fsname)
			json_str(stdout, t->ft->fsname);
		else
			printf("null");
		printf(", \"file\": ");
		json_str(stdout, relpath(st, t->fi->path));
		printf(", \"line\": %u, \"fs_flags\": ", t->ft->line);
		if (t->ft->flags)
			json_str(stdout, t->ft->flags);
		else
			printf("null");
		printf(", \"requires_dev\": %s, \"s_op_traced\": %s, "
		       "\"s_ops\": [", t->ft->requires_dev ? "true" : "false",
		       t->traced ? "true" : "false");
		for (k = 0; k < t->nsops; k++) {
			printf("%s", k ? ", " : "");
			json_str(stdout, t->sops[k]);
		}
		printf("], \"freeze_capable\": %s}",
		       t->capable ? "true" : "false");
	}
	printf("],\n   \"s_ops\": [");
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = st->fs.files.v[i];

		for (k = 0; k < fi->sops.n; k++) {
			printf("%s{\"name\": ", first ? "" : ", ");
			first = false;
			json_str(stdout, fi->sops.v[k].name);
			printf(", \"file\": ");
			json_str(stdout, relpath(st, fi->path));
			printf(", \"line\": %u, \"freeze_fs\": %s, "
			       "\"freeze_super\": %s}", fi->sops.v[k].line,
			       fi->sops.v[k].freeze_fs ? "true" : "false",
			       fi->sops.v[k].freeze_super ? "true" : "false");
		}
	}
	printf("]");
	json_strs("kthreads", u->kthreads.v, u->kthreads.n, "");
	json_strs("configs", u->configs.v, u->configs.n, "CONFIG_");
	printf(", \"users\": [");
	for (i = 0; i < u->users.n; i++) {
		printf("%s{\"unit\": ", i ? ", " : "");
		json_str(stdout, u->users.v[i]->rel);
		printf(", \"freeze_capable\": %s}",
		       u->users.v[i]->capable ? "true" : "false");
	}
	printf("]}");
}

static int finish(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		af_warn(NULL, "write error on standard output");
		return EXIT_RUNTIME;
	}
	return 0;
}

int cmd_units(int argc, char **argv)
{
	struct state st;
	bool json = false;
	size_t i;
	int rc;

	rc = setup(&st, argc, argv, "units", &json);
	if (rc)
		return rc;
	if (json)
		printf("[\n");
	for (i = 0; i < st.list.n; i++) {
		if (json) {
			print_json(&st, st.list.v[i]);
			printf("%s\n", i + 1 < st.list.n ? "," : "");
		} else {
			print_text(&st, st.list.v[i]);
		}
	}
	if (json)
		printf("]\n");
	teardown(&st);
	return finish();
}

int cmd_plan(int argc, char **argv)
{
	struct state st;
	size_t i, j, k;
	int rc;

	rc = setup(&st, argc, argv, "plan", NULL);
	if (rc)
		return rc;
	for (i = 0; i < st.list.n; i++) {
		struct unit *u = st.list.v[i];
		strvec files = { 0 };

		printf("unit\t%s\t%s\t%s\n", u->rel,
		       u->status == ST_CORE ? "skip" : status_names[u->status],
		       u->reason);
		if (u->status == ST_CORE || !converted(&st, u))
			continue;
		for (j = u->first; j < u->end; j++) {
			const struct file_info *fi = st.fs.files.v[j];
			bool want = fi->uses.n > 0;

			for (k = 0; k < u->types.n && !want; k++)
				want = u->status == ST_ELIGIBLE &&
					u->types.v[k].capable &&
					u->types.v[k].fi == fi;
			if (want)
				vec_push(&files, (char *)relpath(&st, fi->path));
		}
		xqsort(files.v, files.n, sizeof(char *), cmp_strp);
		for (j = 0; j < files.n; j++)
			printf("file\t%s\t%s\n", u->rel, files.v[j]);
		vec_free(&files);
		for (j = 0; j < u->kthreads.n; j++)
			printf("kthread\t%s\t%s\n", u->rel, u->kthreads.v[j]);
		if (u->status != ST_ELIGIBLE)
			continue;
		for (j = 0; j < u->types.n; j++)
			if (u->types.v[j].capable)
				printf("fstype\t%s\t%s\t%s\n", u->rel,
				       u->types.v[j].ft->name,
				       relpath(&st, u->types.v[j].fi->path));
	}
	teardown(&st);
	return finish();
}
