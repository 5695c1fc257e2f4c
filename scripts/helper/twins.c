// SPDX-License-Identifier: GPL-2.0
/*
 * twins.c - a unit's freezable macros that have a plain twin, and those
 * the conversion leaves unused.
 *
 * find_twins() pairs each freezer API macro a unit defines with the
 * macro of the unit that is the same but for its try_to_freeze() (the
 * unit's twins, which the rules rename in kernel threads);
 * twin_left_unused(), once every unit read is analyzed, tells whether
 * the conversion leaves a twin with no use, so that its definition
 * goes.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "scan.h"
#include "twins.h"

/*
 * Macro TEXT with the one "try_to_freeze ( ) ;" in it taken out, or NULL
 * when there is not exactly one.  Malloc'ed.
 */
static char *without_freeze_point(const char *text)
{
	static const char point[] = " try_to_freeze ( ) ;";
	const char *at = strstr(text, point);
	size_t n = sizeof(point) - 1;
	char *s;

	if (!at || strstr(at + n, point))
		return NULL;
	s = xmalloc(strlen(text) - n + 1);
	memcpy(s, text, (size_t)(at - text));
	memcpy(s + (at - text), at + n, strlen(at + n) + 1);
	return s;
}

void find_twins(struct unit *u, const struct unit_index *ix)
{
	size_t i, k, f, g;

	for (i = 0; i < ix->files.n; i++) {
		const struct file_info *fi = ix->files.v[i];

		for (k = 0; k < fi->macros.n; k++) {
			const struct macro *m = &fi->macros.v[k];
			int api = api_index(m->name);
			const char *to = NULL;
			char *plain;

			if (api < 0 || freezer_apis[api].class == API_WQ ||
			    strvec_has(&u->twins, m->name))
				continue;
			plain = without_freeze_point(m->text);
			if (!plain)
				continue;
			for (f = 0; f < ix->files.n; f++) {
				const struct file_info *fj = ix->files.v[f];

				for (g = 0; g < fj->macros.n; g++) {
					const struct macro *t = &fj->macros.v[g];

					if (strcmp(t->text, plain) ||
					    !strcmp(t->name, m->name))
						continue;
					to = to && strcmp(to, t->name) ?
						"" : t->name;
				}
			}
			free(plain);
			if (!to || !*to)
				continue;
			vec_push(&u->twins, (char *)m->name);
			vec_push(&u->twins, (char *)to);
		}
	}
}

/* Whether a unit read here other than U defines a macro NAME. */
static bool macro_elsewhere(const struct unit_survey *sv,
			    const struct unit *u, const char *name)
{
	size_t i, j, m;

	for (i = 0; i < sv->all.n; i++) {
		const struct unit *o = sv->all.v[i];

		if (o == u || !o->analyzed)
			continue;
		for (j = o->first; j < o->end; j++) {
			const struct file_info *fi = sv->files.files.v[j];

			for (m = 0; m < fi->macros.n; m++)
				if (!strcmp(fi->macros.v[m].name, name))
					return true;
		}
	}
	return false;
}

bool twin_left_unused(const struct unit_survey *sv,
		      const struct unit *u, const char *name)
{
	size_t i, k, m, n = 0;

	if (sv->force)
		return false;
	for (i = u->first; i < u->end; i++) {
		const struct file_info *fi = sv->files.files.v[i];

		for (k = 0; k < fi->uses.n; k++) {
			const struct use *us = &fi->uses.v[k];
			bool definition = false;

			if (strcmp(freezer_apis[us->api].name, name))
				continue;
			for (m = 0; m < fi->macros.n; m++)
				definition |= fi->macros.v[m].line == us->line &&
					!strcmp(fi->macros.v[m].name, name);
			if (definition && us->where == WHERE_MACRO)
				continue;
			if (use_context(us, &u->kthread_set) != CTX_KTHREAD)
				return false;
			n++;
		}
	}
	return n > 0 && !macro_elsewhere(sv, u, name);
}
