// SPDX-License-Identifier: GPL-2.0
/*
 * convplan.c - the readers of "autofreeze convert" (convert.c): the
 * plan's columns (lines of tab-separated fields), the -D options the
 * plan gives each rule, and which files each removal rule has anything
 * to look at in, from the scan of the files before the rules ran.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "convplan.h"
#include "proc.h"

bool read_lines(const char *path, strvec *lines)
{
	char *text = file_text(path), *p, *nl;

	if (!text)
		return false;
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			vec_push(lines, xstrdup(p));
			break;
		}
		vec_push(lines, xstrndup(p, (size_t)(nl - p)));
	}
	free(text);
	return true;
}

char *tsv_col(const char *line, int col)
{
	const char *end;

	for (; col > 1; col--) {
		line = strchr(line, '\t');
		if (!line)
			return xstrdup("");
		line++;
	}
	end = strchr(line, '\t');
	return end ? xstrndup(line, (size_t)(end - line)) : xstrdup(line);
}

void plan_cols(const strvec *plan, const char *kind, int col,
	       const char *unit, strvec *out)
{
	size_t i, n = strlen(kind);
	bool mine;
	char *u;

	for (i = 0; i < plan->n; i++) {
		if (strncmp(plan->v[i], kind, n) || plan->v[i][n] != '\t')
			continue;
		if (unit) {
			u = tsv_col(plan->v[i], 2);
			mine = !strcmp(u, unit);
			free(u);
			if (!mine)
				continue;
		}
		vec_push(out, tsv_col(plan->v[i], col));
	}
}

void sort_uniq(strvec *v)
{
	size_t i, n = 0;

	xqsort(v->v, v->n, sizeof(*v->v), cmp_strp);
	for (i = 0; i < v->n; i++) {
		if (n && !strcmp(v->v[n - 1], v->v[i]))
			free(v->v[i]);
		else
			v->v[n++] = v->v[i];
	}
	v->n = n;
}

char *join(const strvec *v, const char *sep)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < v->n; i++)
		len += strlen(v->v[i]) + strlen(sep);
	s = xmalloc(len);
	*s = '\0';
	for (i = 0; i < v->n; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, v->v[i]);
	}
	return s;
}

/* "-D" and NAME=V,... to OUT, nothing when V is empty */
static void push_def(strvec *out, const char *name, const strvec *v)
{
	char *s = join(v, ",");

	if (*s) {
		vec_push(out, xstrdup("-D"));
		vec_push(out, xasprintf("%s=%s", name, s));
	}
	free(s);
}

/* "-D" and NAME=the sorted unique column COL of KIND, unless empty */
static void def_col(const strvec *plan, const char *name, const char *kind,
		    int col, const char *unit, strvec *out)
{
	strvec v = { 0 };

	plan_cols(plan, kind, col, unit, &v);
	sort_uniq(&v);
	push_def(out, name, &v);
	strvec_free(&v);
}

/* "-D" and NAME=A:B,... of KIND's columns 3 and 4, B up to a ':' */
static void def_pairs(const strvec *plan, const char *name, const char *kind,
		      const char *unit, bool sorted, strvec *out)
{
	strvec a = { 0 }, b = { 0 }, v = { 0 };
	size_t i;

	plan_cols(plan, kind, 3, unit, &a);
	plan_cols(plan, kind, 4, unit, &b);
	for (i = 0; i < a.n && i < b.n; i++) {
		if (!sorted)
			b.v[i][strcspn(b.v[i], ":")] = '\0';
		vec_push(&v, xasprintf("%s:%s", a.v[i], b.v[i]));
	}
	if (sorted)
		sort_uniq(&v);
	push_def(out, name, &v);
	strvec_free(&a);
	strvec_free(&b);
	strvec_free(&v);
}

void plan_rule_defs(const strvec *plan, const char *rule, const char *unit,
		    const char *renamed, strvec *out)
{
	strvec v = { 0 };
	char *s;

	plan_cols(plan, "file", 2, unit, &v);
	sort_uniq(&v);
	s = join(&v, ",");
	vec_push(out, xstrdup("-D"));
	vec_push(out, xasprintf("units=%s%s%s", s, *renamed ? "," : "",
				renamed));
	free(s);
	strvec_free(&v);
	if (!strcmp(rule, "kthread_freezer")) {
		def_col(plan, "kthread_fns", "kthread", 3, unit, out);
		def_pairs(plan, "twins", "twin", unit, true, out);
		def_col(plan, "unused_twins", "unusedtwin", 3, unit, out);
	} else {
		def_pairs(plan, "keep_at", "keep", unit, false, out);
	}
}

static bool is_wq_name(const char *name)
{
	size_t i;

	for (i = 0; i < n_freezer_apis; i++)
		if (freezer_apis[i].class == API_WQ &&
		    !strcmp(freezer_apis[i].name, name))
			return true;
	return false;
}

/* NAME:N:M: digits back to the ':' before them, or -1 */
static long digits_before(const char *s, long k)
{
	long m = k;

	while (m > 0 && s[m - 1] >= '0' && s[m - 1] <= '9')
		m--;
	return m == k || m == 0 || s[m - 1] != ':' ? -1 : m - 1;
}

/* FILE:LINE:COL: to FILE (awk's sub(/:[0-9]+:[0-9]+:$/, "")) */
static void strip_position(char *s)
{
	long n = (long)strlen(s), k;

	if (!n || s[n - 1] != ':')
		return;
	k = digits_before(s, n - 1);
	if (k >= 0)
		k = digits_before(s, k);
	if (k >= 0)
		s[k] = '\0';
}

void rule_files(const strvec *plan, const strvec *scan, const char *class,
		const char *unit, strvec *out)
{
	bool wq = !strcmp(class, "wq");
	strvec files = { 0 }, twins = { 0 }, keys = { 0 };
	struct strset has = { 0 };
	char *line, *api, *end;
	size_t i, j, n;

	for (i = 0; i < scan->n; i++) {
		/* FILE:LINE:COL: API ...: the file, and whether API is wq */
		line = xstrdup(scan->v[i]);
		end = line + strcspn(line, " \t");
		api = end + strspn(end, " \t");
		api[strcspn(api, " \t")] = '\0';
		*end = '\0';
		strip_position(line);
		if (is_wq_name(api) == wq && strset_add(&has, line))
			vec_push(&keys, line);
		else
			free(line);
	}
	plan_cols(plan, "file", 3, unit, &files);
	if (!wq) {
		plan_cols(plan, "twin", 2, NULL, &twins);
		sort_uniq(&twins);
	}
	for (i = 0; i < files.n; i++) {
		bool keep = strset_has(&has, files.v[i]);

		for (j = 0; !keep && j < twins.n; j++) {
			n = strlen(twins.v[j]);
			keep = !strncmp(files.v[i], twins.v[j], n) &&
			       files.v[i][n] == '/';
		}
		if (keep)
			vec_push(out, xstrdup(files.v[i]));
	}
	strvec_free(&files);
	strvec_free(&twins);
	strset_free(&has);
	strvec_free(&keys);
}
