/* SPDX-License-Identifier: GPL-2.0 */
/*
 * definitions.h - what analyze() records in full (units) mode of each
 * function or initializer, and of function-like macros (definitions.c).
 */
#ifndef AF_DEFINITIONS_H
#define AF_DEFINITIONS_H

struct analysis;
struct definition;
struct token;

/*
 * The parameter names of the function whose name is at NM: of each
 * parameter, the name in "(*NAME)" or else its last identifier; "" for
 * "void" or "...".
 */
void param_names(struct analysis *an, struct definition *d, long nm);

/* Identifier T at I in definition D: a ref, and a call or a named one. */
void add_ref(struct analysis *an, struct definition *d,
	     const struct token *t, long i);

/*
 * "#define NAME(params) body" at HASH (units mode): NAME and the text
 * of everything after it, token by token.
 */
void macro_definition(struct analysis *an, long hash);

#endif /* AF_DEFINITIONS_H */
