// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - the decisions taken once the plan is made and the rules
 * have run, each in one function:
 *
 *   thread_name_collision()  whether the units' thread functions can go
 *			      to the rules in one run ("autofreeze runs");
 *   unit_flag_verdict()      whether a unit's file_system_types get the
 *			      opt-in flag, now that the removal rules have
 *			      run ("autofreeze flags");
 *   use_verdict()	      converted, kept or manual, and why, for every
 *			      freezer use ("autofreeze report"); in the
 *			      definition of a twin the conversion removes:
 *			      twin_definition_verdict();
 *   rule_message_verdict()   what a line of the rules' report mode says;
 *   unparsed_regions()       which lines spatch could not parse, so that
 *			      the rules never saw the uses there
 *			      ("autofreeze unparsed").
 *
 * They read the files the drivers keep: the plan ("autofreeze plan"),
 * "autofreeze scan" output, the rules' report-mode messages, and the
 * drivers' flag and unparsed lists.  Every list is a sorted array,
 * searched by bsearch.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "scan.h"

/*
 * A use a judgment keeps freezable, or whose work the unit's freeze
 * quiesces: the plan's keep and quiesced lines.
 */
struct kept_use {
	char *file;
	long line;
	char *code, *evidence;		/* of "CODE: EVIDENCE" */
};

typedef VEC(struct kept_use) kept_usevec;

/* A flagstate line of the plan: a type and the opt-in flag. */
struct flagstate {
	char *type, *file, *state, *why;
	long line;
	char *col;
};

/* The plan, as "autofreeze plan" writes it. */
struct plan_unit {
	char *name, *status, *reason;
	bool converted;			/* it has file lines */
	bool whole;			/* flags: left whole, not flagged */
	strvec files, kthreads, fstypes, fstype_files;
	strvec twins;			/* the freezable macros renamed */
	strvec twin_to;			/* per twin: its plain twin */
	strvec unused_twins;		/* twins whose definitions go */
	strvec kthread_via;		/* per kthread: a caller, or "" */
	kept_usevec keeps, quiesced, unreviewed;
	kept_usevec nofreeze;		/* dead freezer code: code the thread */
	strvec notes;			/* "CODE: EVIDENCE" */
	VEC(struct flagstate) flagstates;
	char *flag;			/* report's flag line, or NULL */
	/* the flags file's line: "flag", "noflag" or "forced", or NULL */
	const char *flag_verdict;
	strvec flag_types;		/* flag: the types that get it */
	char *flag_why;			/* noflag, forced: why */
	size_t count[3];		/* report: converted, kept, manual */
	strvec uses;			/* report's use lines, in full */
	strvec brief_uses;		/* the same, each reason said once */
	strvec json_uses;
};

struct plan {
	VEC(struct plan_unit) units;
	bool force;			/* "option force": FORCE=1 */
	/* "optin STATE FLAG FUNC WHERE TEXT [AT]": what freezes a flagged type */
	char *optin_state, *optin_flag, *optin_text;
	char *optin_at;			/* FILE:LINE:COL it falls short, or NULL */
};

/* The flag the plan adds, for messages: "FS_POWER_FREEZE". */
static const char *plan_flag(const struct plan *p)
{
	return p->optin_flag && strcmp(p->optin_flag, "-") ? p->optin_flag :
		"opt-in flag";
}

/* One "FILE:LINE:COL..." line: where it points, and what follows. */
struct located {
	char *file;
	long line;
	char *col;		/* "COL" or "FIRST-LAST" */
	char *rest;		/* after ": " */
	size_t order;
};

/* A use, as "autofreeze scan" prints it: FILE:LINE:COL: API CONTEXT FN */
struct scanned_use {
	struct located at;
	char *api, *ctx, *fn;
};

static char *slurp_lines(const char *path, strvec *lines)
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

typedef VEC(struct located) locvec;

/* Every line of PATH that is a FILE:LINE: place; sorted by place. */
static void read_located(const char *path, bool with_col, locvec *out)
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

static void locvec_free(locvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		located_free(&v->v[i]);
	vec_free(v);
}

/* The first entry of V at FILE:LINE, and how many there are. */
static struct located *find_place(const locvec *v, const char *file,
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

static struct plan_unit *plan_find(struct plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->units.n; i++)
		if (!strcmp(p->units.v[i].name, name))
			return &p->units.v[i];
	return NULL;
}

static void plan_read(const char *path, struct plan *p)
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

/* A plan unit's keep or quiesced lines (EVIDENCE is inside CODE's). */
static void kept_uses_free(kept_usevec *v)
{
	size_t k;

	for (k = 0; k < v->n; k++) {
		free(v->v[k].file);
		free(v->v[k].code);
	}
	vec_free(v);
}

static void plan_free(struct plan *p)
{
	size_t i, k;

	free(p->optin_state);
	free(p->optin_flag);
	free(p->optin_text);
	free(p->optin_at);
	for (i = 0; i < p->units.n; i++) {
		struct plan_unit *u = &p->units.v[i];

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
		kept_uses_free(&u->keeps);
		kept_uses_free(&u->quiesced);
		kept_uses_free(&u->unreviewed);
		kept_uses_free(&u->nofreeze);
		strvec_free(&u->notes);
		for (k = 0; k < u->flagstates.n; k++) {
			struct flagstate *fs = &u->flagstates.v[k];

			free(fs->type);
			free(fs->file);
			free(fs->col);
			free(fs->state);
			free(fs->why);
		}
		vec_free(&u->flagstates);
		strvec_free(&u->flag_types);
		free(u->flag_why);
		strvec_free(&u->uses);
		strvec_free(&u->brief_uses);
		strvec_free(&u->json_uses);
	}
	vec_free(&p->units);
}

/* The unit a file of the plan belongs to, by its file line. */
static struct plan_unit *unit_of_file(struct plan *p, const char *file)
{
	size_t i;

	for (i = 0; i < p->units.n; i++)
		if (strvec_has(&p->units.v[i].files, file))
			return &p->units.v[i];
	return NULL;
}

/*
 * The unit of PATH for the report: the longest unit of the plan that is
 * a prefix of it; "fs" when none is.
 */
static const char *unit_of_path(const struct plan *p, const char *path)
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

typedef VEC(struct scanned_use) usevec;

static void read_scan(const char *path, usevec *out)
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

static int cmp_use_order(const void *a, const void *b)
{
	const struct scanned_use *x = a, *y = b;

	return x->at.order < y->at.order ? -1 : x->at.order > y->at.order;
}

static void usevec_free(usevec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		located_free(&v->v[i].at);
	vec_free(v);
}

/*
 * Whether a thread function of one unit has freezer uses, outside a
 * thread, in another unit, or a macro one unit renames to its twin is
 * used in another that has no such twin: then each unit must go to the
 * rules with its own thread functions and twins.  The first such name,
 * or NULL.
 */
static const char *thread_name_collision(struct plan *p, const usevec *uses)
{
	size_t i, k;

	for (i = 0; i < uses->n; i++) {
		const struct scanned_use *u = &uses->v[i];
		const struct plan_unit *own = unit_of_file(p, u->at.file);
		bool thread_somewhere = false, twin_somewhere = false;

		for (k = 0; k < p->units.n; k++) {
			thread_somewhere |= strvec_has(&p->units.v[k].kthreads,
						       u->fn);
			twin_somewhere |= strvec_has(&p->units.v[k].twins,
						     u->api);
		}
		if (thread_somewhere &&
		    !(own && strvec_has(&own->kthreads, u->fn)))
			return u->fn;
		if (twin_somewhere && !(own && strvec_has(&own->twins, u->api)))
			return u->api;
	}
	return NULL;
}

/* The plan's keep line for use S of unit U, or NULL. */
static const struct kept_use *judged_line(const struct kept_use *v, size_t n,
					  const struct scanned_use *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].line == s->at.line && !strcmp(v[i].file, s->at.file))
			return &v[i];
	return NULL;
}

static const struct kept_use *unit_keeps(const struct plan_unit *u,
					 const struct scanned_use *s)
{
	return judged_line(u->keeps.v, u->keeps.n, s);
}

/* The plan's quiesced line for use S of unit U, or NULL. */
static const struct kept_use *unit_quiesced(const struct plan_unit *u,
					    const struct scanned_use *s)
{
	return judged_line(u->quiesced.v, u->quiesced.n, s);
}

/*
 * The plan's nofreeze line for use S of unit U (dead freezer code in a
 * thread that never becomes freezable: its code is the thread), or NULL.
 */
static const struct kept_use *unit_nofreeze(const struct plan_unit *u,
					    const struct scanned_use *s)
{
	return judged_line(u->nofreeze.v, u->nofreeze.n, s);
}

/* The plan's unreviewed line for use S of unit U, or NULL. */
static const struct kept_use *unit_unreviewed(const struct plan_unit *u,
					      const struct scanned_use *s)
{
	return judged_line(u->unreviewed.v, u->unreviewed.n, s);
}

/*
 * Whether converted unit U's types get the flag, now that the removal
 * rules have run: only when no use the conversion takes off the freezer
 * is unreviewed (no judgment that holds here says what quiesces its
 * work), no use is left in kernel-thread context (scan says kthread, or
 * it is in one of the unit's thread functions) in its converted files,
 * and it has a type to flag.  A use a judgment keeps does not count:
 * its evidence says its work never waits for the freeze, so it can
 * freeze with the tasks.  All or nothing:
 * a unit that gets no flag is left whole ("noflag"), unless the plan
 * was made with --force ("forced": converted, and nothing freezes it).
 * Prints "flag UNIT TYPES", "noflag UNIT REASON" or "forced UNIT
 * REASON".
 */
static void unit_flag_verdict(const struct plan *p, const struct plan_unit *u,
			      const usevec *uses, FILE *out)
{
	const char *verdict = p->force ? "forced" : "noflag";
	size_t i, left = 0;

	if (p->optin_state && !strcmp(p->optin_state, "none")) {
		fprintf(out, "%s\t%s\tnothing freezes it on suspend: %s\n",
			verdict, u->name, p->optin_text);
		return;
	}

	if (u->unreviewed.n) {
		fprintf(out, "%s\t%s\tunreviewed: %zu use%s the conversion "
			"would take off the freezer, and no reviewed judgment "
			"holds here for %s: ", verdict, u->name,
			u->unreviewed.n, u->unreviewed.n > 1 ? "s" : "",
			u->unreviewed.n > 1 ? "them" : "it");
		for (i = 0; i < u->unreviewed.n && i < 3; i++)
			fprintf(out, "%s%s:%ld", i ? ", " : "",
				u->unreviewed.v[i].file,
				u->unreviewed.v[i].line);
		fputs(i < u->unreviewed.n ? ", ...\n" : "\n", out);
		return;
	}
	for (i = 0; i < uses->n && left < 3; i++) {
		const struct scanned_use *s = &uses->v[i];

		if (!strvec_has(&u->files, s->at.file))
			continue;
		if (strcmp(s->ctx, "kthread") && !strvec_has(&u->kthreads, s->fn))
			continue;
		if (unit_keeps(u, s))
			continue;
		if (!left++)
			fprintf(out, "%s\t%s\tkthread freezer uses left: ",
				verdict, u->name);
		else
			putc(';', out);
		fprintf(out, "%s:%ld:%s %s", s->at.file, s->at.line,
			s->at.col, s->api);
	}
	if (left) {
		putc('\n', out);
		return;
	}
	if (!u->fstypes.n) {
		fprintf(out, "%s\t%s\tno file_system_type to flag: %s\n",
			verdict, u->name, u->reason);
		return;
	}
	fprintf(out, "flag\t%s\t", u->name);
	for (i = 0; i < u->fstypes.n; i++)
		fprintf(out, "%s%s", i ? "," : "", u->fstypes.v[i]);
	putc('\n', out);
}

/*
 * The verdict on a use: converted, kept or manual, a reason code from
 * the list in README.md ("Reason codes"), and the reason in words.
 */
struct use_verdict {
	const char *status;
	const char *code;
	char *why;		/* malloc'ed */
	/*
	 * a conversion's evidence when it is not the use's own quiesced
	 * line (malloc'ed, or NULL): see twin_definition_verdict()
	 */
	char *evidence;
	/*
	 * use_verdict(): the reason without what the unit's own lines
	 * of the report say (malloc'ed), or NULL when it is WHY
	 */
	char *brief;
};

/*
 * What one line of the rules' report mode says of a use: fills V and
 * returns true, or false when the line is none of the rules' verdicts.
 */
static bool rule_message_verdict(const char *m, struct use_verdict *v)
{
	static const char *const converted_tails[] = {
		": convert, the VFS freezes the filesystem",
		": drop the freezable flag",
	};
	/* the rules' kept and manual messages, by what they say */
	static const struct {
		const char *has, *code;
	} codes[] = {
		{ "kept by -D keep_at", "judged" },
		{ "outside a function", "file-scope" },
		{ "macro or initializer", "macro" },
		{ "is not the kthread freezer", "not-freezer" },
		{ "not a kernel thread", "not-kthread" },
		{ "no mechanical conversion", "no-mechanical-conversion" },
		{ "is kept with its", "thread-left-whole" },
	};
	static const char wq[] = "freezable workqueue or worker in ";
	size_t i, n = strlen(m);

	if (!strncmp(m, "manual: ", 8) || !strncmp(m, "kept: ", 6)) {
		v->status = m[0] == 'm' ? "manual" : "kept";
		v->code = "rule";
		for (i = 0; i < ARRAY_SIZE(codes); i++)
			if (strstr(m, codes[i].has)) {
				v->code = codes[i].code;
				break;
			}
		v->why = xstrdup(strchr(m, ' ') + 1);
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(converted_tails); i++) {
		size_t t = strlen(converted_tails[i]);
		const char *s = m, *sp;

		if (n < t || strcmp(m + n - t, converted_tails[i]))
			continue;
		v->status = "converted";
		v->code = i ? "workqueue" : "kthread";
		/* "API in kernel thread FN()" becomes "in kernel thread FN()" */
		sp = strchr(m, ' ');
		if (sp && sp > m && !strncmp(sp, " in ", 4) &&
		    strspn(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_") ==
		    (size_t)(sp - m))
			s = sp + 1;
		if (!strncmp(s, wq, strlen(wq)))
			v->why = xasprintf("workqueue flag in %.*s",
					   (int)(m + n - t - (s + strlen(wq))),
					   s + strlen(wq));
		else
			v->why = xstrndup(s, (size_t)(m + n - t - s));
		return true;
	}
	return false;
}

struct verdict_inputs {
	struct plan plan;
	locvec rules;		/* FILE:LINE:COLS: message */
	locvec unparsed;	/* FILE:LINE: API */
	usevec uses;
};

static void set_verdict(struct use_verdict *v, const char *status,
			const char *code, char *why)
{
	v->status = status;
	v->code = code;
	v->why = why;
}

/*
 * A converted use in FN, a function only kernel threads reach: say how
 * ("in kernel thread T() -> F()"), from the plan's kthread lines.
 */
static void thread_path(const struct plan_unit *u, const char *fn,
			struct use_verdict *v)
{
	strvec chain = { 0 };
	charvec text = { 0 };
	const char *at = fn;
	size_t i, k;

	while (at && chain.n < 32) {
		const char *next = NULL;

		vec_push(&chain, (char *)at);
		for (k = 0; k < u->kthreads.n; k++)
			if (!strcmp(u->kthreads.v[k], at) &&
			    *u->kthread_via.v[k])
				next = u->kthread_via.v[k];
		at = next;
	}
	if (chain.n > 1) {
		for (i = chain.n; i-- > 0;) {
			const char *sep = i + 1 == chain.n ?
				"in kernel thread " : " -> ";

			while (*sep)
				vec_push(&text, *sep++);
			for (k = 0; chain.v[i][k]; k++)
				vec_push(&text, chain.v[i][k]);
			vec_push(&text, '(');
			vec_push(&text, ')');
		}
		free(v->why);
		v->why = xstrndup(text.v, text.n);
	}
	vec_free(&text);
	vec_free(&chain);
}

/* The verdict on one use, before a unit left whole is accounted for. */
static void use_verdict_as_run(struct verdict_inputs *in,
			       const struct plan_unit *u,
			       const struct scanned_use *s,
			       struct use_verdict *v)
{
	const struct kept_use *k;
	struct located *msgs;
	const char *m = NULL;
	size_t n, i;

	k = unit_keeps(u, s);
	if (k) {
		set_verdict(v, "kept", k->code,
			    xasprintf("%s in %s(): %s", s->api, s->fn,
				      k->evidence));
		return;
	}
	find_place(&in->unparsed, s->at.file, s->at.line, &n);
	if (n) {
		set_verdict(v, "manual", "unparsed",
			    xstrdup("spatch cannot parse the code around it; "
				    "the rules never saw it"));
		return;
	}
	/* the rules' message on this line about this API, else the first */
	msgs = find_place(&in->rules, s->at.file, s->at.line, &n);
	for (i = 0; i < n; i++) {
		if (strstr(msgs[i].rest, s->api) ||
		    !strncmp(msgs[i].rest, "freezable workqueue", 19)) {
			m = msgs[i].rest;
			break;
		}
	}
	if (!m && n)
		m = msgs[0].rest;
	if (m && rule_message_verdict(m, v)) {
		if (!strcmp(v->code, "kthread"))
			thread_path(u, s->fn, v);
		return;
	}
	if (!strcmp(s->ctx, "macro"))
		set_verdict(v, "kept", "macro",
			    xasprintf("%s in a macro definition", s->api));
	else if (!strcmp(s->ctx, "unknown"))
		set_verdict(v, "kept", "file-scope",
			    xasprintf("%s outside a function", s->api));
	else if (!strcmp(s->ctx, "kthread"))
		set_verdict(v, "manual", "no-rule",
			    xasprintf("%s in kernel thread %s(): no rule "
				      "converts this form", s->api, s->fn));
	else
		set_verdict(v, "kept", "not-kthread",
			    xasprintf("%s in %s(): not a kernel thread",
				      s->api, s->fn));
}

/* Where use A stands against use B of the same file: by line, column. */
static int cmp_use_at(const struct scanned_use *a,
		      const struct scanned_use *b)
{
	long ca = strtol(a->at.col, NULL, 10), cb = strtol(b->at.col, NULL, 10);

	if (a->at.line != b->at.line)
		return a->at.line < b->at.line ? -1 : 1;
	return ca < cb ? -1 : ca > cb;
}

/*
 * Whether use S, in a preprocessor line of a unit whose plan says
 * "unusedtwin UNIT FROM", is in the definition of FROM.  The scan tells
 * a preprocessor line, not which #define it is in; the plan's line
 * tells the rest (units.c:twin_left_unused(), find_twins()): every use
 * of FROM in a preprocessor line of the unit is its own "#define FROM("
 * (any other use there would have kept the macro), and that
 * definition's body holds exactly one try_to_freeze().  So S is in it
 * when it is FROM's name there, or when it comes after that name and no
 * later than the first try_to_freeze() in a preprocessor line after
 * it, with only preprocessor lines between (the definition spans them).
 * With anything else between (code in a function or at file scope,
 * another definition of FROM), only the name is told; a use of the
 * body after its try_to_freeze() is not told either (the rest of the
 * body is the plain twin's, and no twin found so far has a freezer use
 * there).
 */
static bool in_twin_definition(const struct verdict_inputs *in,
			       const char *from, const struct scanned_use *s)
{
	const struct scanned_use *def = NULL, *tf = NULL;
	size_t i;

	if (strcmp(s->ctx, "macro"))
		return false;
	if (!strcmp(s->api, from))
		return true;		/* "#define FROM(" itself */
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *o = &in->uses.v[i];

		if (!strcmp(o->at.file, s->at.file) && !strcmp(o->api, from) &&
		    !strcmp(o->ctx, "macro") && cmp_use_at(o, s) <= 0 &&
		    (!def || cmp_use_at(o, def) > 0))
			def = o;
	}
	if (!def)
		return false;
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *o = &in->uses.v[i];

		if (!strcmp(o->at.file, s->at.file) &&
		    !strcmp(o->api, "try_to_freeze") &&
		    !strcmp(o->ctx, "macro") && cmp_use_at(o, def) > 0 &&
		    (!tf || cmp_use_at(o, tf) < 0))
			tf = o;
	}
	if (!tf || cmp_use_at(s, tf) > 0)
		return false;
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *o = &in->uses.v[i];

		if (strcmp(o->at.file, s->at.file) ||
		    cmp_use_at(o, def) <= 0 || cmp_use_at(o, tf) > 0)
			continue;
		if (strcmp(o->ctx, "macro") || !strcmp(o->api, from))
			return false;
	}
	return true;
}

/*
 * Use S of converted unit U is in the definition of a freezable twin
 * that the conversion removes (the plan's "unusedtwin" lines, which
 * convert.sh hands kthread_freezer.cocci as -D unused_twins; where it is
 * in that definition: in_twin_definition()): fills V, converted, and
 * returns true; else false.  Its reason names the twin and what its
 * uses become; where each of those uses has a quiesced line, it says
 * they carry the evidence (in which functions), and the evidence is
 * theirs.  A use spatch could not parse, or one a judgment keeps, is
 * not: the rules never see the first, and are told to keep the second.
 */
static bool twin_definition_verdict(const struct verdict_inputs *in,
				    const struct plan_unit *u,
				    const struct scanned_use *s,
				    const struct use_verdict *as_run,
				    struct use_verdict *v)
{
	const char *from = NULL, *to = NULL;
	strvec fns = { 0 }, evidence = { 0 };
	bool quiesced = true;
	char *buf = NULL;
	size_t len = 0, i, k;
	FILE *f;

	if (strcmp(as_run->status, "kept") ||
	    (strcmp(as_run->code, "macro") &&
	     strcmp(as_run->code, "file-scope")))
		return false;
	for (k = 0; k < u->unused_twins.n && !from; k++) {
		for (i = 0; i < u->twins.n; i++)
			if (!strcmp(u->twins.v[i], u->unused_twins.v[k]))
				to = u->twin_to.v[i];
		if (to && in_twin_definition(in, u->unused_twins.v[k], s))
			from = u->unused_twins.v[k];
		else
			to = NULL;
	}
	if (!from)
		return false;
	/* the twin's uses in U, which the rules rename in U's threads */
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *o = &in->uses.v[i];
		const struct kept_use *q;

		if (strcmp(o->api, from) || !strcmp(o->fn, "-") ||
		    strcmp(unit_of_path(&in->plan, o->at.file), u->name))
			continue;
		if (!strvec_has(&fns, o->fn))
			vec_push(&fns, o->fn);
		q = unit_quiesced(u, o);
		quiesced &= q != NULL;
		if (q && !strvec_has(&evidence, q->evidence))
			vec_push(&evidence, q->evidence);
	}
	f = open_memstream(&buf, &len);
	if (!f)
		af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
		       strerror(errno));
	fprintf(f, "in the definition of %s(), which the conversion removes: "
		"its uses, all in the unit's kernel threads, become %s()",
		from, to);
	if (fns.n)
		fputs(quiesced ? "; quiesced: as at those uses, in " : " (in ",
		      f);
	for (i = 0; i < fns.n; i++)
		fprintf(f, "%s%s()", i ? i + 1 < fns.n ? ", " : " and " : "",
			fns.v[i]);
	if (fns.n && !quiesced)
		fputc(')', f);
	fclose(f);
	set_verdict(v, "converted", "unused-twin", buf);
	v->evidence = NULL;
	if (fns.n && quiesced) {
		f = open_memstream(&v->evidence, &len);
		if (!f)
			af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
			       strerror(errno));
		for (i = 0; i < evidence.n; i++)
			fprintf(f, "%s%s", i ? "; " : "", evidence.v[i]);
		fclose(f);
	}
	vec_free(&fns);
	vec_free(&evidence);
	return true;
}

/* The verdict on one use (see struct use_verdict). */
static void use_verdict(struct verdict_inputs *in,
			const struct scanned_use *s, struct use_verdict *v)
{
	struct plan_unit *u = plan_find(&in->plan,
					 unit_of_path(&in->plan, s->at.file));
	const struct kept_use *q;
	struct use_verdict as_run = { 0 };
	char *why;

	v->evidence = NULL;
	v->brief = NULL;
	if (!u) {
		set_verdict(v, "kept", "outside-units",
			    xstrdup("outside the units converted"));
		return;
	}
	if (!u->converted) {
		set_verdict(v, "kept", strcmp(u->status, "unreviewed") ?
			    "unit-not-converted" : "unreviewed",
			    xasprintf("unit not converted: %s", u->reason));
		v->brief = xstrdup("unit not converted");
		return;
	}
	use_verdict_as_run(in, u, s, &as_run);
	if (twin_definition_verdict(in, u, s, &as_run, v))
		free(as_run.why);
	else
		*v = as_run;
	q = strcmp(v->status, "converted") ? NULL : unit_nofreeze(u, s);
	if (q) {
		why = xasprintf("%s, which never calls set_freezable(): the "
				"removed lines were dead code (no functional "
				"change)", v->why);
		free(v->why);
		v->why = why;
	}
	q = strcmp(v->status, "converted") ? NULL : unit_quiesced(u, s);
	if (q) {
		why = xasprintf("%s; quiesced: %s", v->why, q->evidence);
		free(v->why);
		v->why = why;
	}
	if (!u->whole)
		return;
	q = unit_unreviewed(u, s);
	if (q) {
		free(v->why);
		set_verdict(v, "kept", "unreviewed",
			    xasprintf("%s in %s(): unreviewed: %s", s->api,
				      s->fn, q->evidence));
		return;
	}
	if (strcmp(v->status, "converted"))
		return;
	/* all or nothing: the unit gets no flag, so it stays as it is */
	why = xasprintf("unit left whole, it gets no %s: would convert (%s)",
			plan_flag(&in->plan), v->why);
	v->brief = xasprintf("unit left whole: would convert (%s)", v->why);
	free(v->why);
	set_verdict(v, "kept", "unit-left-whole", why);
}

/* flags: "flag UNIT TYPES", "noflag UNIT REASON" or "forced UNIT
 * REASON" lines, as unit_flag_verdict() writes them; the report shows
 * them. */
static void read_flags(const char *path, struct plan *p)
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

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
		       strerror(errno));
	json_str(f, s);
	fclose(f);
	return buf;
}

/*
 * A note of the plan ("CODE: EVIDENCE") as the report gives it: its
 * evidence, the caveat a changelog of the unit's conversion carries.  A
 * unit left whole is not converted, and carries none.
 */
static const char *note_text(const char *note)
{
	const char *e = strstr(note, ": ");

	return e ? e + 2 : note;
}

/*
 * The text report's width, tabs every 8 columns: checkpatch's, so that
 * a report line shows whole in a terminal or an email.
 */
#define REPORT_COLS 100

/*
 * The column after byte C of a line, C at column COL: a tab goes to the
 * next multiple of 8; a UTF-8 sequence takes one column, at its first
 * byte.
 */
static size_t next_col(size_t col, unsigned char c)
{
	if (c == '\t')
		return (col / 8 + 1) * 8;
	return (c & 0xc0) == 0x80 ? col : col + 1;
}

/*
 * Put LEAD and the N bytes of S on F as one line of at most REPORT_COLS
 * columns: a longer one is cut, at a space when one is within 12
 * columns of the end, and ends in "...".  Returns whether it was cut.
 */
static bool put_cut(FILE *f, const char *lead, const char *s, size_t n)
{
	size_t col = 0, i, end = 0, space = 0;
	const char *c;

	for (c = lead; *c; c++)
		col = next_col(col, (unsigned char)*c);
	for (i = 0; i < n && col <= REPORT_COLS; i++) {
		col = next_col(col, (unsigned char)s[i]);
		if (col <= REPORT_COLS - 3 &&
		    (i + 1 == n || ((unsigned char)s[i + 1] & 0xc0) != 0x80))
			end = i + 1;
		if (s[i] == ' ' && col <= REPORT_COLS - 3)
			space = i;
	}
	if (i == n && col <= REPORT_COLS) {
		fprintf(f, "%s%.*s\n", lead, (int)n, s);
		return false;
	}
	if (space && space + 12 >= end)
		end = space;
	while (end && strchr(" ,;:(", s[end - 1]))
		end--;
	fprintf(f, "%s%.*s...\n", lead, (int)end, s);
	return true;
}

/*
 * Put LEAD and S on F in lines of at most REPORT_COLS columns, broken at
 * spaces, the lines after the first led by MORE; a word longer than a
 * line is cut (put_cut()).  Returns whether one was.
 */
static bool put_wrapped(FILE *f, const char *lead, const char *more,
			const char *s)
{
	size_t col0 = 0, col, i;
	const char *line = s, *end = s, *w = s, *c;
	bool cut = false;

	for (c = lead; *c; c++)
		col0 = next_col(col0, (unsigned char)*c);
	col = col0;
	while (*w) {
		size_t wl = strcspn(w, " ");
		/* the spaces before the word, as they are */
		size_t wcol = col + (end > line ? (size_t)(w - end) : 0);

		for (i = 0; i < wl; i++)
			wcol = next_col(wcol, (unsigned char)w[i]);
		if (end > line && wcol > REPORT_COLS) {
			cut |= put_cut(f, lead, line, (size_t)(end - line));
			lead = more;
			for (col0 = 0, c = lead; *c; c++)
				col0 = next_col(col0, (unsigned char)*c);
			line = w;
			wcol = col0;
			for (i = 0; i < wl; i++)
				wcol = next_col(wcol, (unsigned char)w[i]);
		}
		col = wcol;
		end = w + wl;
		w = end + strspn(end, " ");
	}
	return put_cut(f, lead, line, (size_t)(end - line)) || cut;
}

/*
 * What the report says of a unit at a glance: "convert" (its types get
 * the flag, its uses are converted), "left-whole" (no flag, nothing
 * converted), "forced" (converted with FORCE=1, no flag), else its
 * status in the plan (skip, library, unreviewed, core, eligible).
 */
static const char *unit_verdict(const struct plan_unit *u)
{
	if (!u->flag_verdict)
		return u->status;
	if (!strcmp(u->flag_verdict, "flag"))
		return "convert";
	return strcmp(u->flag_verdict, "noflag") ? "forced" : "left-whole";
}

/* A unit the text report has something to say about. */
static bool unit_shown(const struct plan_unit *u)
{
	return u->uses.n || u->flag || !strcmp(u->status, "eligible");
}

static const char *const count_names[] = { "converted", "kept", "manual" };

/*
 * The text report's table: a row per unit shown, its verdict, its uses
 * converted, kept and manual, the types that get the flag.  Returns
 * whether a row was cut.
 */
static bool print_table(const struct plan *p)
{
	static const char *const head[] = { "UNIT", "VERDICT", "CONVERTED",
					    "KEPT", "MANUAL", "FLAG" };
	int w[5] = { 0 };
	size_t i, k;
	char *row = NULL;
	size_t len = 0;
	bool cut = false;
	FILE *f;

	for (k = 0; k < 5; k++)
		w[k] = (int)strlen(head[k]);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		if ((int)strlen(u->name) > w[0])
			w[0] = (int)strlen(u->name);
		if ((int)strlen(unit_verdict(u)) > w[1])
			w[1] = (int)strlen(unit_verdict(u));
		for (k = 0; k < 3; k++) {
			int d = snprintf(NULL, 0, "%zu", u->count[k]);

			if (d > w[k + 2])
				w[k + 2] = d;
		}
	}
	printf("%-*s  %-*s  %*s  %*s  %*s  %s\n", w[0], head[0], w[1],
	       head[1], w[2], head[2], w[3], head[3], w[4], head[4], head[5]);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		f = open_memstream(&row, &len);
		if (!f)
			af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
			       strerror(errno));
		fprintf(f, "%-*s  %-*s  %*zu  %*zu  %*zu  ", w[0], u->name,
			w[1], unit_verdict(u), w[2], u->count[0], w[3],
			u->count[1], w[4], u->count[2]);
		for (k = 0; k < u->flag_types.n; k++)
			fprintf(f, "%s%s", k ? "," : "", u->flag_types.v[k]);
		if (!u->flag_types.n)
			putc('-', f);
		fclose(f);
		cut |= put_cut(stdout, "", row, len);
		free(row);
		row = NULL;
	}
	return cut;
}

/*
 * The text report: the table, then unit by unit its line, its flag
 * line, its notes and its uses, then the totals.  With VERBOSE each
 * line is whole, the flag line with the mechanism of the freeze and
 * every use with its full reason (what series.sh reads); without, the
 * mechanism comes once, before the units, what a unit's line says is
 * not said again under it, the unit's lines are wrapped and each use's
 * line is cut at REPORT_COLS columns.
 */
static void print_text(const struct plan *p, bool verbose,
		       const size_t count[3])
{
	char *body = NULL, *t;
	size_t len = 0, i, k;
	bool cut = false;
	FILE *f = open_memstream(&body, &len);

	if (!f)
		af_die(EXIT_RUNTIME, NULL, "open_memstream: %s",
		       strerror(errno));
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		if (!unit_shown(u))
			continue;
		if (verbose) {
			fprintf(f, "%s: %s\n", u->name, u->reason);
			if (u->flag)
				fprintf(f, "\t%s\n", u->flag);
			for (k = 0; !u->whole && k < u->notes.n; k++)
				fprintf(f, "\tnote: %s\n",
					note_text(u->notes.v[k]));
			for (k = 0; k < u->uses.n; k++)
				fprintf(f, "\t%s\n", u->uses.v[k]);
			continue;
		}
		t = xasprintf("%s: %s", u->name, u->reason);
		cut |= put_wrapped(f, "", "    ", t);
		free(t);
		if (u->flag && !strcmp(u->flag_verdict, "flag")) {
			fprintf(f, "\t%s: ", plan_flag(p));
			for (k = 0; k < u->flag_types.n; k++)
				fprintf(f, "%s%s", k ? "," : "",
					u->flag_types.v[k]);
			putc('\n', f);
		} else if (u->flag) {
			cut |= put_wrapped(f, "\t", "\t    ", u->flag);
		}
		for (k = 0; !u->whole && k < u->notes.n; k++) {
			t = xasprintf("note: %s", note_text(u->notes.v[k]));
			cut |= put_wrapped(f, "\t", "\t    ", t);
			free(t);
		}
		for (k = 0; k < u->brief_uses.n; k++)
			cut |= put_cut(f, "\t", u->brief_uses.v[k],
				       strlen(u->brief_uses.v[k]));
	}
	fclose(f);
	cut |= print_table(p);
	if (!verbose && p->optin_text && *p->optin_text) {
		putchar('\n');
		t = xasprintf("%s: %s", plan_flag(p), p->optin_text);
		cut |= put_wrapped(stdout, "", "    ", t);
		free(t);
	}
	if (cut)
		printf("Lines that end in \"...\" are cut at %d columns: "
		       "make report V=1 or FORMAT=json gives them whole.\n",
		       REPORT_COLS);
	putchar('\n');
	fwrite(body, 1, len, stdout);
	free(body);
	printf("%zu converted, %zu kept, %zu manual\n", count[0], count[1],
	       count[2]);
}

/* JSON's list of strings V: [] when it is empty. */
static void json_strvec(const strvec *v)
{
	size_t k;

	putchar('[');
	for (k = 0; k < v->n; k++) {
		fputs(k ? "," : "", stdout);
		json_str(stdout, v->v[k]);
	}
	putchar(']');
}

/*
 * The JSON report.  Its layout is versioned by "schema_version": 2
 * added the unit's "verdict", "counts" and "flag" (verdict, types,
 * reason); "fs_autofreeze" is "flag"'s text of version 1, kept so that
 * a reader of version 1 goes on working.
 */
#define REPORT_SCHEMA 2

static void print_json(const struct plan *p, const size_t count[3])
{
	size_t i, k;

	printf("{\"schema_version\":%d,\"optin\":{\"state\":", REPORT_SCHEMA);
	json_str(stdout, p->optin_state ? p->optin_state : "none");
	fputs(",\"flag\":", stdout);
	if (p->optin_flag && strcmp(p->optin_flag, "-"))
		json_str(stdout, p->optin_flag);
	else
		fputs("null", stdout);
	fputs(",\"mechanism\":", stdout);
	json_str(stdout, p->optin_text ? p->optin_text : "");
	fputs("},\"units\":[", stdout);
	for (i = 0; i < p->units.n; i++) {
		const struct plan_unit *u = &p->units.v[i];

		printf("%s{\"unit\":", i ? "," : "");
		json_str(stdout, u->name);
		fputs(",\"status\":", stdout);
		json_str(stdout, u->status);
		fputs(",\"reason\":", stdout);
		json_str(stdout, u->reason);
		fputs(",\"verdict\":", stdout);
		json_str(stdout, unit_verdict(u));
		printf(",\"converted\":%s,\"counts\":{",
		       u->converted ? "true" : "false");
		for (k = 0; k < 3; k++)
			printf("%s\"%s\":%zu", k ? "," : "", count_names[k],
			       u->count[k]);
		fputs("},\"flag\":", stdout);
		if (u->flag_verdict) {
			fputs("{\"verdict\":", stdout);
			json_str(stdout, u->flag_verdict);
			fputs(",\"types\":", stdout);
			json_strvec(&u->flag_types);
			fputs(",\"reason\":", stdout);
			json_str(stdout, u->flag_why);
			fputs(",\"text\":", stdout);
			json_str(stdout, u->flag);
			putchar('}');
		} else {
			fputs("null", stdout);
		}
		fputs(",\"fs_autofreeze\":", stdout);
		json_str(stdout, u->flag);
		fputs(",\"notes\":[", stdout);
		for (k = 0; !u->whole && k < u->notes.n; k++) {
			fputs(k ? "," : "", stdout);
			json_str(stdout, note_text(u->notes.v[k]));
		}
		fputs("],\"uses\":[", stdout);
		for (k = 0; k < u->json_uses.n; k++)
			printf("%s%s", k ? "," : "", u->json_uses.v[k]);
		fputs("]}", stdout);
	}
	printf("],\"totals\":{\"converted\":%zu,\"kept\":%zu,"
	       "\"manual\":%zu}}\n", count[0], count[1], count[2]);
}

static void print_report(struct verdict_inputs *in, bool json, bool verbose)
{
	struct plan *p = &in->plan;
	size_t i, k, count[3] = { 0 };

	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *s = &in->uses.v[i];
		struct use_verdict v;
		char *j[8];
		struct plan_unit *u = plan_find(p, unit_of_path(p, s->at.file));
		const struct kept_use *q;

		use_verdict(in, s, &v);
		for (k = 0; k < 3; k++)
			if (!strcmp(v.status, count_names[k])) {
				count[k]++;
				if (u)
					u->count[k]++;
			}
		if (!u) {
			free(v.why);
			free(v.evidence);
			free(v.brief);
			continue;
		}
		vec_push(&u->uses, xasprintf("%s:%ld:%s: %s: %s: %s",
					     s->at.file, s->at.line,
					     s->at.col, s->api, v.status,
					     v.why));
		vec_push(&u->brief_uses, xasprintf("%s:%ld:%s: %s: %s: %s",
						   s->at.file, s->at.line,
						   s->at.col, s->api, v.status,
						   v.brief ? v.brief : v.why));
		j[0] = json_of(s->at.file);
		j[1] = json_of(s->api);
		j[2] = json_of(s->ctx);
		j[3] = strcmp(s->fn, "-") ? json_of(s->fn) : xstrdup("null");
		j[4] = json_of(v.status);
		j[5] = json_of(v.why);
		j[6] = json_of(v.code);
		/*
		 * a conversion's evidence: what quiesces its work (a
		 * reviewed judgment), else the unit's freeze path
		 */
		q = strcmp(v.status, "converted") ? NULL : unit_quiesced(u, s);
		j[7] = strcmp(v.status, "converted") ? xstrdup("null") :
			json_of(q ? q->evidence : v.evidence ? v.evidence :
				u->reason);
		vec_push(&u->json_uses,
			 xasprintf("{\"file\":%s,\"line\":%ld,\"col\":%s,"
				   "\"api\":%s,\"context\":%s,\"function\":%s,"
				   "\"status\":%s,\"code\":%s,\"reason\":%s,"
				   "\"evidence\":%s}", j[0], s->at.line,
				   s->at.col, j[1], j[2], j[3], j[4], j[6],
				   j[5], j[7]));
		for (k = 0; k < 8; k++)
			free(j[k]);
		free(v.why);
		free(v.evidence);
		free(v.brief);
	}
	if (json)
		print_json(p, count);
	else
		print_text(p, verbose, count);
}

/* -f FORMAT of CMD: true for json, false for text; else bad input. */
static bool format_is_json(const char *cmd, const char *format)
{
	if (strcmp(format, "json") && strcmp(format, "text"))
		af_die(EXIT_BADINPUT, NULL, "%s: unknown format '%s' (text or "
		       "json)", cmd, one_line(format));
	return !strcmp(format, "json");
}

int cmd_report(int argc, char **argv)
{
	struct verdict_inputs in = { 0 };
	bool json = false, verbose = false;
	int opt;

	optind = 1;
	while ((opt = getopt(argc, argv, "+f:vh")) != -1) {
		switch (opt) {
		case 'f':
			json = format_is_json("report", optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			printf("usage: %s report [-f text|json] [-v] PLAN FLAGS "
			       "UNPARSED RULES SCAN\n", PROG);
			return 0;
		default:
			goto usage;
		}
	}
	if (argc - optind != 5)
		goto usage;
	plan_read(argv[optind], &in.plan);
	read_flags(argv[optind + 1], &in.plan);
	read_located(argv[optind + 2], false, &in.unparsed);
	read_located(argv[optind + 3], true, &in.rules);
	read_scan(argv[optind + 4], &in.uses);
	xqsort(in.uses.v, in.uses.n, sizeof(*in.uses.v), cmp_use_order);
	print_report(&in, json, verbose);
	plan_free(&in.plan);
	locvec_free(&in.unparsed);
	locvec_free(&in.rules);
	usevec_free(&in.uses);
	return 0;
usage:
	fprintf(stderr, "usage: %s report [-f text|json] [-v] PLAN FLAGS "
		"UNPARSED RULES SCAN\n", PROG);
	return EXIT_BADINPUT;
}

/* runs PLAN SCAN / flags PLAN SCAN: read both, in scan order */
static int read_plan_and_scan(int argc, char **argv, const char *cmd,
			      struct plan *p, usevec *uses)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s %s PLAN SCAN\n", PROG, cmd);
		return EXIT_BADINPUT;
	}
	plan_read(argv[1], p);
	memset(uses, 0, sizeof(*uses));
	read_scan(argv[2], uses);
	xqsort(uses->v, uses->n, sizeof(*uses->v), cmp_use_order);
	return 0;
}

int cmd_runs(int argc, char **argv)
{
	struct plan p;
	usevec uses;
	const char *name;
	int rc = read_plan_and_scan(argc, argv, "runs", &p, &uses);

	if (rc)
		return rc;
	name = thread_name_collision(&p, &uses);
	if (name)
		puts(name);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}

int cmd_flags(int argc, char **argv)
{
	struct plan p;
	usevec uses;
	size_t i;
	int rc = read_plan_and_scan(argc, argv, "flags", &p, &uses);

	if (rc)
		return rc;
	for (i = 0; i < p.units.n; i++)
		if (p.units.v[i].converted)
			unit_flag_verdict(&p, &p.units.v[i], &uses, stdout);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}

struct region {
	char *file;
	long first, last;
};

typedef VEC(struct region) regionvec;

/*
 * The regions spatch could not parse, from its --verbose-parsing
 * messages in LOG: after 'parse error ... = File "F", line L, ...' it
 * lists the region's lines ("bad:"), the one at L marked "BAD:".  Only
 * files of the plan count: spatch also reparses its own output.
 */
static void unparsed_regions(const char *log, const struct plan *p,
			     regionvec *out)
{
	strvec lines = { 0 };
	char *buf = slurp_lines(log, &lines), *file = NULL;
	long at = 0, before = -1, n = 0;
	size_t i, k;

	for (i = 0; i <= lines.n; i++) {
		const char *l = i < lines.n ? lines.v[i] : NULL;
		bool bad = l && at && (!strncmp(l, "bad:", 4) ||
				       !strncmp(l, "BAD:", 4));
		bool file_line = l && !strncmp(l, " = File \"", 9);

		if (bad) {
			if (l[0] == 'B' && before < 0)
				before = n;
			n++;
			continue;
		}
		if (!l || file_line || (at && n)) {
			bool ours = false;

			for (k = 0; file && k < p->units.n && !ours; k++)
				ours = strvec_has(&p->units.v[k].files, file);
			if (at && n && ours) {
				struct region r = { .file = xstrdup(file) };

				if (before < 0)
					before = 0;
				r.first = at - before;
				r.last = r.first + n - 1;
				vec_push(out, r);
			}
			at = 0;
		}
		if (file_line) {
			const char *q = strstr(l, "\", line ");

			free(file);
			file = NULL;
			if (!q)
				continue;
			file = xstrndup(l + 9, (size_t)(q - (l + 9)));
			at = strtol(q + 8, NULL, 10);
			n = 0;
			before = -1;
		}
	}
	free(file);
	vec_free(&lines);
	free(buf);
}

int cmd_unparsed(int argc, char **argv)
{
	regionvec regions = { 0 };
	struct plan p;
	usevec uses;
	size_t i, k;
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: %s unparsed PLAN SCAN [LOG...]\n",
			PROG);
		return EXIT_BADINPUT;
	}
	rc = read_plan_and_scan(3, argv, "unparsed", &p, &uses);
	if (rc)
		return rc;
	for (i = 3; i < (size_t)argc; i++)
		unparsed_regions(argv[i], &p, &regions);
	for (i = 0; i < uses.n; i++) {
		const struct scanned_use *s = &uses.v[i];

		for (k = 0; k < regions.n; k++) {
			const struct region *r = &regions.v[k];

			if (!strcmp(r->file, s->at.file) &&
			    s->at.line >= r->first && s->at.line <= r->last) {
				printf("%s:%ld: %s\n", s->at.file, s->at.line,
				       s->api);
				break;
			}
		}
	}
	for (i = 0; i < regions.n; i++)
		free(regions.v[i].file);
	vec_free(&regions);
	plan_free(&p);
	usevec_free(&uses);
	return 0;
}

/* Unit U carries the opt-in flag on a type as the conversion flags it. */
static bool unit_carries_flag(const struct plan_unit *u)
{
	size_t i;

	for (i = 0; i < u->flagstates.n; i++)
		if (!strcmp(u->flagstates.v[i].state, "set"))
			return true;
	return false;
}

/*
 * Which units check-tree looks at: each that carries the opt-in flag,
 * rightly or not (a flagstate line set or misplaced), and with TOUCHED
 * (paths relative to the tree, one a line: a git diff's), only those
 * holding one of them.
 */
static bool check_selects_unit(const struct plan *p,
			       const struct plan_unit *u,
			       const strvec *touched)
{
	size_t i;
	bool flagged = false;

	for (i = 0; i < u->flagstates.n; i++)
		flagged |= !strcmp(u->flagstates.v[i].state, "set") ||
			!strcmp(u->flagstates.v[i].state, "misplaced");
	if (!flagged || !touched)
		return flagged;
	for (i = 0; i < touched->n; i++)
		if (!strcmp(unit_of_path(p, touched->v[i]), u->name))
			return true;
	return false;
}

struct finding {
	const char *file, *col, *unit, *code;
	long line;
	char *msg;		/* malloc'ed */
};

static void print_finding(const struct finding *f, bool json, size_t n)
{
	if (!json) {
		printf("%s:%ld:%s: error: %s\n", f->file, f->line, f->col,
		       f->msg);
		return;
	}
	fputs(n ? ",\n {\"file\":" : "\n {\"file\":", stdout);
	json_str(stdout, f->file);
	printf(",\"line\":%ld,\"col\":%s,\"severity\":\"error\",\"unit\":",
	       f->line, f->col);
	json_str(stdout, f->unit);
	fputs(",\"code\":", stdout);
	json_str(stdout, f->code);
	fputs(",\"message\":", stdout);
	json_str(stdout, f->msg);
	putchar('}');
}

/*
 * The tree's suspend freeze, when units carry the flag and it is not
 * what freezes them (the plan's optin line is not "tree": a flag test
 * that skips them, a freeze the PM core never calls, a core series only
 * partly in): one finding, where the plan's AT says it falls short, else
 * at fs/super.c.  Returns the number of findings, 0 or 1.
 */
static size_t check_freeze(const struct plan *p, bool json)
{
	struct finding f = { "fs/super.c", "1", "-", "freeze", 1, NULL };
	charvec units = { 0 };
	char *at = NULL, *c;
	size_t i, k, nunits = 0;

	if (!p->optin_state || !strcmp(p->optin_state, "tree"))
		return 0;
	for (i = 0; i < p->units.n; i++) {
		if (!unit_carries_flag(&p->units.v[i]))
			continue;
		if (nunits++)
			vec_push(&units, ',');
		if (nunits > 1)
			vec_push(&units, ' ');
		for (k = 0; p->units.v[i].name[k]; k++)
			vec_push(&units, p->units.v[i].name[k]);
	}
	if (!nunits)
		return 0;
	vec_push(&units, '\0');
	if (p->optin_at) {
		/* FILE:LINE:COL, the file's name may hold a colon */
		at = xstrdup(p->optin_at);
		c = strrchr(at, ':');
		if (c && c > at) {
			*c = '\0';
			f.col = c + 1;
			c = strrchr(at, ':');
			if (c) {
				*c = '\0';
				f.line = strtol(c + 1, NULL, 10);
				f.file = at;
			}
		}
	}
	f.msg = xasprintf("%s carr%s %s, which the tree's suspend freeze "
			  "does not honour: %s", units.v,
			  nunits > 1 ? "y" : "ies", strcmp(plan_flag(p),
			  "opt-in flag") ? plan_flag(p) : "the opt-in flag",
			  p->optin_text ?
			  p->optin_text : p->optin_state);
	print_finding(&f, json, 0);
	free(f.msg);
	free(at);
	vec_free(&units);
	return 1;
}

/*
 * The gate's findings on the plan's units (check_selects_unit() chose
 * them): the tree's freeze that does not freeze the flagged types
 * (check_freeze()), a type that carries the flag it should not, a type
 * of a flagged unit without it, and every use of a flagged unit that a
 * rule would still convert or that no rule converts
 * (use_verdict_as_run(); uses a judgment keeps, and those outside
 * kernel threads, are fine).  Returns the number of findings.
 */
static size_t check_findings(struct verdict_inputs *in, bool json)
{
	struct plan *p = &in->plan;
	const char *flag = plan_flag(p);
	size_t i, k, n = check_freeze(p, json);

	for (i = 0; i < p->units.n; i++) {
		struct plan_unit *u = &p->units.v[i];
		bool carries = unit_carries_flag(u);

		for (k = 0; k < u->flagstates.n; k++) {
			const struct flagstate *fs = &u->flagstates.v[k];
			struct finding f = { fs->file, fs->col, u->name,
					     fs->state, fs->line, NULL };

			if (!strcmp(fs->state, "misplaced"))
				f.msg = xasprintf("%s carries %s, but %s",
						  fs->type, flag, fs->why);
			else if (!strcmp(fs->state, "missing") && carries)
				f.msg = xasprintf("%s lacks %s, which the other "
						  "types of %s carry: "
						  "cocci/fs_autofreeze.cocci "
						  "would add it", fs->type,
						  flag, u->name);
			if (f.msg)
				print_finding(&f, json, n++);
			free(f.msg);
		}
	}
	for (i = 0; i < in->uses.n; i++) {
		const struct scanned_use *s = &in->uses.v[i];
		struct plan_unit *u = plan_find(p, unit_of_path(p, s->at.file));
		const struct kept_use *q;
		struct use_verdict v;
		struct finding f;

		if (!u || !u->converted || !unit_carries_flag(u))
			continue;
		use_verdict_as_run(in, u, s, &v);
		f = (struct finding){ s->at.file, s->at.col, u->name, v.code,
				      s->at.line, NULL };
		q = unit_unreviewed(u, s);
		if (q) {
			f.code = "unreviewed";
			f.msg = xasprintf("%s in %s(): %s carries %s, yet this "
					  "is still here, and %s: review it "
					  "first", s->api, s->fn, u->name,
					  flag, q->evidence);
		} else if (!strcmp(v.status, "converted"))
			f.msg = xasprintf("%s %s: %s carries %s, yet this is "
					  "still here: cocci/%s.cocci would "
					  "remove it (make apply DIR=%s)",
					  s->api, v.why, u->name, flag,
					  strcmp(v.code, "workqueue") ?
					  "kthread_freezer" : "wq_freezable",
					  u->name);
		else if (!strcmp(v.status, "manual"))
			f.msg = xasprintf("%s: %s carries %s, yet this is "
					  "still here: %s (remove it by hand, "
					  "or the flag)", s->api, u->name,
					  flag, v.why);
		if (f.msg)
			print_finding(&f, json, n++);
		free(f.msg);
		free(v.why);
	}
	return n;
}

/* "--touched FILE": its lines; NULL without. */
static strvec *read_touched(const char *path, strvec *v, char **buf)
{
	if (!path)
		return NULL;
	*buf = slurp_lines(path, v);
	return v;
}

int cmd_check(int argc, char **argv)
{
	struct verdict_inputs in = { 0 };
	const char *touched_path = NULL;
	strvec touched = { 0 };
	char *tbuf = NULL;
	bool json = false, select = false;
	size_t i, n;
	int opt;
	static const struct option longopts[] = {
		{ "select", no_argument, NULL, 's' },
		{ "touched", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			json = format_is_json("check", optarg);
			break;
		case 's':
			select = true;
			break;
		case 't':
			touched_path = optarg;
			break;
		case 'h':
			printf("usage: %s check --select [--touched FILE] "
			       "PLAN\n       %s check [-f text|json] PLAN "
			       "UNPARSED RULES SCAN\n", PROG, PROG);
			return 0;
		default:
			goto usage;
		}
	}
	if (select) {
		const strvec *t;

		if (argc - optind != 1)
			goto usage;
		plan_read(argv[optind], &in.plan);
		t = read_touched(touched_path, &touched, &tbuf);
		for (i = 0; i < in.plan.units.n; i++)
			if (check_selects_unit(&in.plan, &in.plan.units.v[i],
					       t))
				puts(in.plan.units.v[i].name);
		vec_free(&touched);
		free(tbuf);
		plan_free(&in.plan);
		return 0;
	}
	if (argc - optind != 4 || touched_path)
		goto usage;
	plan_read(argv[optind], &in.plan);
	read_located(argv[optind + 1], false, &in.unparsed);
	read_located(argv[optind + 2], true, &in.rules);
	read_scan(argv[optind + 3], &in.uses);
	xqsort(in.uses.v, in.uses.n, sizeof(*in.uses.v), cmp_use_order);
	if (json)
		putchar('[');
	n = check_findings(&in, json);
	if (json)
		puts(n ? "\n]" : "]");
	plan_free(&in.plan);
	locvec_free(&in.unparsed);
	locvec_free(&in.rules);
	usevec_free(&in.uses);
	return n ? 1 : 0;
usage:
	fprintf(stderr, "usage: %s check --select [--touched FILE] PLAN\n"
		"       %s check [-f text|json] PLAN UNPARSED RULES SCAN\n",
		PROG, PROG);
	return EXIT_BADINPUT;
}
