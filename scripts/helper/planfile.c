// SPDX-License-Identifier: GPL-2.0
/*
 * planfile.c - the files the drivers keep, read for the decisions after
 * the plan: the plan ("autofreeze plan"), "autofreeze scan" output, the
 * rules' report-mode messages and the drivers' unparsed list (FILE:LINE:
 * lines), and the flags list ("autofreeze flags").
 *
 * plan_read(), read_scan(), read_located() and read_flags() read them
 * into the structs of planfile.h; plan_find(), unit_of_path() and
 * find_place() look things up in them.  Every list is a sorted array,
 * searched by bsearch.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "planfile.h"
#include "util.h"

const char *plan_flag(const struct plan *p)
{
	return p->optin_flag && strcmp(p->optin_flag, "-") ? p->optin_flag :
		"opt-in flag";
}

char *slurp_lines(const char *path, strvec *lines)
{
	char *buf = NULL, *p, *nl;
	size_t len, cap = 0;

	if (read_file(path, &buf, &len, &cap, NULL, NULL))
		af_die(EXIT_RUNTIME, path, "%s", strerror(errno));
	for (p = buf; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (!nl)
			nl = buf + len;
		*nl = '\0';
		vec_push(lines, p);
	}
	return buf;
}

/*
 * Parse "FILE:LINE:COL: REST" (COL may be "A-B", or absent with
 * WITH_COL false: "FILE:LINE: REST"): the first ":LINE:" that is all
 * digits ends FILE, so a FILE may hold spaces or colons.
 */
static bool parse_located(const char *s, bool with_col, struct located *at)
{
	const char *p;

	for (p = strchr(s, ':'); p; p = strchr(p + 1, ':')) {
		const char *q = p + 1, *c = NULL, *e;

		while (isdigit((unsigned char)*q))
			q++;
		if (q == p + 1 || *q != ':')
			continue;
		e = q;			/* the ':' after LINE */
		if (with_col) {
			c = q + 1;
			e = c;
			while (isdigit((unsigned char)*e) || *e == '-')
				e++;
			if (e == c || *e != ':')
				continue;
		}
		if (e[1] != ' ')
			continue;
		at->file = xstrndup(s, (size_t)(p - s));
		at->line = strtol(p + 1, NULL, 10);
		at->col = with_col ? xstrndup(c, (size_t)(e - c)) : xstrdup("");
		at->rest = xstrdup(e + 2);
		return true;
	}
	return false;
}

static void located_free(struct located *at)
{
	free(at->file);
	free(at->col);
	free(at->rest);
}

static int cmp_located(const void *a, const void *b)
{
	const struct located *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Compare by place only: FILE and LINE. */
static int cmp_place(const void *a, const void *b)
{
	const struct located *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

void read_located(const char *path, bool with_col, locvec *out)
{
	strvec lines = { 0 };
	char *buf = slurp_lines(path, &lines);
	size_t i;

	for (i = 0; i < lines.n; i++) {
		struct located at;

		if (!parse_located(lines.v[i], with_col, &at))
			continue;
		at.order = out->n;
		vec_push(out, at);
	}
	xqsort(out->v, out->n, sizeof(*out->v), cmp_located);
	vec_free(&lines);
	free(buf);
}

void locvec_free(locvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		located_free(&v->v[i]);
	vec_free(v);
}

struct located *find_place(const locvec *v, const char *file,
			   long line, size_t *n)
{
	struct located key = { .file = (char *)file, .line = line };
	struct located *hit = xbsearch(&key, v->v, v->n, sizeof(*v->v),
				       cmp_place);

	*n = 0;
	if (!hit)
		return NULL;
	while (hit > v->v && !cmp_place(hit - 1, &key))
		hit--;
	while (hit + *n < v->v + v->n && !cmp_place(hit + *n, &key))
		(*n)++;
	return hit;
}

struct plan_unit *plan_find(struct plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->units.n; i++)
		if (!strcmp(p->units.v[i].name, name))
			return &p->units.v[i];
	return NULL;
}

void plan_read(const char *path, struct plan *p)
{
	strvec lines = { 0 };
	char *buf = slurp_lines(path, &lines);
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < lines.n; i++) {
		char *f[7];
		size_t n = split_tabs(lines.v[i], f, 7);
		struct plan_unit *u;

		if (n == 2 && !strcmp(f[0], "option") &&
		    !strcmp(f[1], "force"))
			p->force = true;
		if (n >= 6 && !strcmp(f[0], "optin") && !p->optin_state) {
			p->optin_state = xstrdup(f[1]);
			p->optin_flag = xstrdup(f[2]);
			p->optin_text = xstrdup(f[5]);
			p->optin_at = n > 6 ? xstrdup(f[6]) : NULL;
			continue;
		}
		if (n < 3)
			continue;
		u = plan_find(p, f[1]);
		if (!strcmp(f[0], "unit")) {
			struct plan_unit nu = { 0 };

			if (u)
				continue;
			nu.name = xstrdup(f[1]);
			nu.status = xstrdup(f[2]);
			nu.reason = xstrdup(n > 3 ? f[3] : "");
			vec_push(&p->units, nu);
			continue;
		}
		if (!u)
			af_die(EXIT_BADINPUT, path, "%s line before its unit "
			       "line: %s", f[0], f[1]);
		if (!strcmp(f[0], "file")) {
			u->converted = true;
			vec_push(&u->files, xstrdup(f[2]));
		} else if (!strcmp(f[0], "kthread")) {
			vec_push(&u->kthreads, xstrdup(f[2]));
			vec_push(&u->kthread_via, xstrdup(n > 3 ? f[3] : ""));
		} else if (!strcmp(f[0], "twin") && n > 3) {
			vec_push(&u->twins, xstrdup(f[2]));
			vec_push(&u->twin_to, xstrdup(f[3]));
		} else if (!strcmp(f[0], "unusedtwin") && n == 3) {
			vec_push(&u->unused_twins, xstrdup(f[2]));
		} else if (!strcmp(f[0], "flagstate") && n == 7) {
			struct flagstate fs = { xstrdup(f[2]), xstrdup(f[3]),
						xstrdup(f[5]), xstrdup(f[6]),
						strtol(f[4], NULL, 10), NULL };
			char *c = strchr(f[4], ':');

			fs.col = xstrdup(c ? c + 1 : "1");
			vec_push(&u->flagstates, fs);
		} else if (!strcmp(f[0], "nofreeze") && n > 4) {
			struct kept_use k = { xstrdup(f[2]),
					      strtol(f[3], NULL, 10),
					      xstrdup(f[4]), NULL };

			vec_push(&u->nofreeze, k);
		} else if (!strcmp(f[0], "note") && n == 3) {
			vec_push(&u->notes, xstrdup(f[2]));
		} else if (!strcmp(f[0], "fstype") && n > 3) {
			vec_push(&u->fstypes, xstrdup(f[2]));
			vec_push(&u->fstype_files, xstrdup(f[3]));
		} else if ((!strcmp(f[0], "keep") ||
			    !strcmp(f[0], "quiesced") ||
			    !strcmp(f[0], "unreviewed")) && n > 4) {
			struct kept_use k = { xstrdup(f[2]),
					      strtol(f[3], NULL, 10),
					      xstrdup(f[4]), NULL };
			char *colon = strstr(k.code, ": ");

			if (!colon)
				af_die(EXIT_BADINPUT, path, "%s line without "
				       "\"CODE: EVIDENCE\": %s", f[0], f[4]);
			*colon = '\0';
			k.evidence = colon + 2;
			if (f[0][0] == 'k')
				vec_push(&u->keeps, k);
			else if (f[0][0] == 'q')
				vec_push(&u->quiesced, k);
			else
				vec_push(&u->unreviewed, k);
		}
	}
	vec_free(&lines);
	free(buf);
}

/* A plan unit's keep or quiesced line (EVIDENCE is inside CODE's). */
static void kept_use_free(struct kept_use *k)
{
	free(k->file);
	free(k->code);
}

static void flagstate_free(struct flagstate *fs)
{
	free(fs->type);
	free(fs->file);
	free(fs->col);
	free(fs->state);
	free(fs->why);
}

static void plan_unit_free(struct plan_unit *u)
{
	free(u->name);
	free(u->status);
	free(u->reason);
	free(u->flag);
	strvec_free(&u->files);
	strvec_free(&u->kthreads);
	strvec_free(&u->twins);
	strvec_free(&u->twin_to);
	strvec_free(&u->unused_twins);
	strvec_free(&u->kthread_via);
	strvec_free(&u->fstypes);
	strvec_free(&u->fstype_files);
	vec_free_each(&u->keeps, kept_use_free);
	vec_free_each(&u->quiesced, kept_use_free);
	vec_free_each(&u->unreviewed, kept_use_free);
	vec_free_each(&u->nofreeze, kept_use_free);
	strvec_free(&u->notes);
	vec_free_each(&u->flagstates, flagstate_free);
	strvec_free(&u->flag_types);
	free(u->flag_why);
	strvec_free(&u->uses);
	strvec_free(&u->brief_uses);
	strvec_free(&u->json_uses);
}

void plan_free(struct plan *p)
{
	free(p->optin_state);
	free(p->optin_flag);
	free(p->optin_text);
	free(p->optin_at);
	vec_free_each(&p->units, plan_unit_free);
}

const char *unit_of_path(const struct plan *p, const char *path)
{
	const char *best = NULL;
	size_t i, bestlen = 0;

	for (i = 0; i < p->units.n; i++) {
		const char *u = p->units.v[i].name;
		size_t len = strlen(u);

		if (len > bestlen && !strncmp(path, u, len) &&
		    path[len] == '/') {
			best = u;
			bestlen = len;
		}
	}
	return best ? best : "fs";
}

void read_scan(const char *path, usevec *out)
{
	locvec at = { 0 };
	size_t i;

	read_located(path, true, &at);
	/* back to scan's own order: by file, line, column */
	for (i = 0; i < at.n; i++) {
		struct scanned_use u = { .at = at.v[i] };
		char *s = u.at.rest, *sp;

		u.api = s;
		sp = strchr(s, ' ');
		if (!sp)
			af_die(EXIT_BADINPUT, path, "not scan output: %s", s);
		*sp = '\0';
		u.ctx = sp + 1;
		sp = strchr(u.ctx, ' ');
		if (!sp)
			af_die(EXIT_BADINPUT, path, "not scan output: %s", s);
		*sp = '\0';
		u.fn = sp + 1;
		vec_push(out, u);
	}
	vec_free(&at);
}

int cmp_use_order(const void *a, const void *b)
{
	const struct scanned_use *x = a, *y = b;

	return x->at.order < y->at.order ? -1 : x->at.order > y->at.order;
}

void usevec_free(usevec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		located_free(&v->v[i].at);
	vec_free(v);
}

void read_flags(const char *path, struct plan *p)
{
	strvec lines = { 0 };
	char *buf = slurp_lines(path, &lines);
	size_t i;

	for (i = 0; i < lines.n; i++) {
		char *f[3];
		struct plan_unit *u;

		if (split_tabs(lines.v[i], f, 3) < 3)
			continue;
		u = plan_find(p, f[1]);
		if (!u)
			continue;
		free(u->flag);
		free(u->flag_why);
		u->flag_why = NULL;
		strvec_free(&u->flag_types);
		if (!strcmp(f[0], "flag")) {
			char *t, *save = NULL;

			u->flag_verdict = "flag";
			u->flag = xasprintf("%s: %s; %s", plan_flag(p), f[2],
					    p->optin_text ? p->optin_text : "");
			for (t = strtok_r(f[2], ",", &save); t;
			     t = strtok_r(NULL, ",", &save))
				vec_push(&u->flag_types, xstrdup(t));
			continue;
		}
		u->flag_why = xstrdup(f[2]);
		if (!strcmp(f[0], "forced")) {
			u->flag_verdict = "forced";
			u->flag = xasprintf("no %s, converted with FORCE=1: "
					    "its threads no longer freeze and "
					    "nothing freezes the filesystem: "
					    "%s", plan_flag(p), f[2]);
		} else {
			u->flag_verdict = "noflag";
			u->whole = true;
			u->flag = xasprintf("no %s, left whole: %s",
					    plan_flag(p), f[2]);
		}
	}
	vec_free(&lines);
	free(buf);
}
