// SPDX-License-Identifier: GPL-2.0
/*
 * fstype_parse.c - what a file's file_system_type and super_operations
 * initializers say, and which super_operations a function installs.
 *
 * analyze() finds a file-scope initializer; initializer_kind() says
 * whether it is of a struct file_system_type or a struct
 * super_operations, designator() reads its ".name", ".fs_flags",
 * ".freeze_fs" and ".freeze_super" into the file_info's fstypes and
 * sops, and s_op_assign() records "->s_op = &NAME" in a function body.
 */
#include <stdlib.h>
#include <string.h>

#include "fstype_parse.h"
#include "tokwalk.h"

enum init_kind initializer_kind(const struct analysis *an, long from, long to)
{
	long i;

	for (i = from; i >= 0 && i < to; i = next_code(an, i)) {
		const struct token *t = &an->t[i];
		long j;

		if (!tok_is(an->buf, t, "struct"))
			continue;
		j = next_code(an, i);
		if (j < 0)
			break;
		if (tok_is(an->buf, &an->t[j], "file_system_type"))
			return INIT_FSTYPE;
		if (tok_is(an->buf, &an->t[j], "super_operations"))
			return INIT_SOP;
	}
	return INIT_OTHER;
}

/* Text of tokens [from, to) with one space where there was any gap. */
static const char *expr_text(struct analysis *an, long from, long to)
{
	VEC(char) s = { 0 };
	long i, last = -1;

	for (i = from; i >= 0 && i < to; i = next_code(an, i)) {
		const struct token *t = &an->t[i];
		char tmp[256];
		size_t n, k;

		if (last >= 0 && t->start > an->t[last].end)
			vec_push(&s, ' ');
		n = tok_text(an->buf, t, tmp, sizeof(tmp));
		for (k = 0; k < n; k++)
			vec_push(&s, tmp[k]);
		last = i;
	}
	vec_push(&s, '\0');
	{
		const char *r = arena_strndup(an->arena, s.v, s.n - 1);

		vec_free(&s);
		return r;
	}
}

/*
 * A designator ".FIELD = VALUE" directly inside the initializer of an
 * fstype or super_operations object; I is the "." token.
 */
void designator(struct analysis *an, long i, enum init_kind kind,
		long obj_idx)
{
	long f = next_code(an, i), eq, v, e;
	int d = 0;

	if (f < 0 || an->t[f].kind != TK_IDENT)
		return;
	eq = next_code(an, f);
	if (eq < 0 || !is_punct(&an->t[eq], P1('=')))
		return;
	v = next_code(an, eq);
	if (v < 0)
		return;
	/* the value ends at "," or "}" outside brackets */
	for (e = v; e >= 0; e = next_code(an, e)) {
		const struct token *t = &an->t[e];

		if (is_punct(t, P1('(')) || is_punct(t, P1('[')) ||
		    is_punct(t, P1('{')))
			d++;
		else if (is_punct(t, P1(')')) || is_punct(t, P1(']')) ||
			 is_punct(t, P1('}'))) {
			if (d-- == 0)
				break;
		} else if (d == 0 && (is_punct(t, P1(',')) ||
				      is_punct(t, P1(';')))) {
			break;
		}
	}
	if (e < 0)
		e = (long)an->n;

	if (kind == INIT_FSTYPE) {
		struct fstype *ft = &an->fi->fstypes.v[obj_idx];

		if (tok_is(an->buf, &an->t[f], "fs_flags")) {
			long k;

			ft->flags = expr_text(an, v, e);
			for (k = v; k >= 0 && k < e; k = next_code(an, k))
				if (tok_is(an->buf, &an->t[k], "FS_REQUIRES_DEV"))
					ft->requires_dev = true;
		} else if (tok_is(an->buf, &an->t[f], "name") &&
			   an->t[v].kind == TK_STRING) {
			const struct token *t = &an->t[v];
			char tmp[256];
			size_t n = tok_text(an->buf, t, tmp, sizeof(tmp));

			if (n >= 2 && tmp[n - 1] == '"')
				ft->fsname = arena_strndup(an->arena, tmp + 1,
							   n - 2);
		}
	} else if (kind == INIT_SOP) {
		struct sop *so = &an->fi->sops.v[obj_idx];
		bool set = !tok_is(an->buf, &an->t[v], "NULL");

		if (tok_is(an->buf, &an->t[f], "freeze_fs"))
			so->freeze_fs = set;
		else if (tok_is(an->buf, &an->t[f], "freeze_super"))
			so->freeze_super = set;
	}
}

/* "->s_op = &NAME" in a function body */
void s_op_assign(struct analysis *an, long i, struct definition *fn)
{
	long p = prev_code(an, i), v;

	if (p < 0 || (!is_punct(&an->t[p], P2('-', '>')) &&
		      !is_punct(&an->t[p], P1('.'))))
		return;
	v = assigned_ident(an, i);
	if (v >= 0)
		add_unique(&fn->sops, intern(an, &an->t[v]));
}
