// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - the verdict on every freezer use, once the plan is made
 * and the rules have run, each decision in one function:
 *
 *   use_verdict()	      converted, kept or manual, and why, for every
 *			      freezer use ("autofreeze report"); in the
 *			      definition of a twin the conversion removes:
 *			      twin_definition_verdict();
 *   use_verdict_as_run()     what the rules made of a use, before a
 *			      unit left whole is accounted for ("autofreeze
 *			      check");
 *   rule_message_verdict()   what a line of the rules' report mode says.
 *
 * They read the plan, "autofreeze scan" output, the rules' report-mode
 * messages and the drivers' unparsed list (planfile.h); unit_keeps(),
 * unit_quiesced() and unit_unreviewed() find the plan's judged line for
 * a use; verdict_inputs_read() reads what they read.  report.c and
 * check.c give the verdicts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "verdict.h"

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

const struct kept_use *unit_keeps(const struct plan_unit *u,
				  const struct scanned_use *s)
{
	return judged_line(u->keeps.v, u->keeps.n, s);
}

const struct kept_use *unit_quiesced(const struct plan_unit *u,
				     const struct scanned_use *s)
{
	return judged_line(u->quiesced.v, u->quiesced.n, s);
}

void verdict_inputs_read(struct verdict_inputs *in, const char *plan,
			 const char *flags, const char *unparsed,
			 const char *rules, const char *scan)
{
	plan_read(plan, &in->plan);
	if (flags)
		read_flags(flags, &in->plan);
	read_located(unparsed, false, &in->unparsed);
	read_located(rules, true, &in->rules);
	read_scan(scan, &in->uses);
	xqsort(in->uses.v, in->uses.n, sizeof(*in->uses.v), cmp_use_order);
}

void verdict_inputs_free(struct verdict_inputs *in)
{
	plan_free(&in->plan);
	locvec_free(&in->unparsed);
	locvec_free(&in->rules);
	usevec_free(&in->uses);
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

const struct kept_use *unit_unreviewed(const struct plan_unit *u,
				       const struct scanned_use *s)
{
	return judged_line(u->unreviewed.v, u->unreviewed.n, s);
}

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

void use_verdict_as_run(struct verdict_inputs *in,
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
 * tells the rest (twins.c:twin_left_unused(), find_twins()): every use
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

void use_verdict(struct verdict_inputs *in,
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
