/* SPDX-License-Identifier: GPL-2.0 */
/*
 * anchor.h - the code a reviewed judgment rests on, checked in the tree
 * at hand.  An anchor names a function and what its body does:
 *
 *	F()			F is defined
 *	F() -> G()		F's body calls G (not through a pointer)
 *	F() => G()		F reaches a call of G: it calls G, or calls
 *				a function of the scope that reaches it
 *	F() !-> G()		F's body calls no G; "G*()" no function
 *				whose name starts with G
 *	F() -> "C TEXT"		F's body holds that run of C tokens
 *	F() !-> "C TEXT"	F's body does not
 *
 * F is looked for in the judgment's unit, or, written "PATH:F()", in
 * that file of the tree ("fs/super.c:freeze_super()").  Where F has
 * several definitions (#ifdef), a positive anchor holds when one of
 * them does what it says, a negative one when none does.
 *
 * A judgment's evidence cites code the same way, in braces: "{F() ->
 * G()}" becomes the place of that call, FILE:LINE (FILE relative to the
 * unit when it is in the unit, else to the tree), "{:F() -> G()}" only
 * ":LINE", "{A .. B}" the lines A to B.  Each citation is an anchor
 * too: line numbers are read from the tree, never written down.
 */
#ifndef AF_ANCHOR_H
#define AF_ANCHOR_H

#include <stdbool.h>

#include "cdef.h"
#include "util.h"

enum anchor_op {
	ANCHOR_DEFINED,
	ANCHOR_CALLS,
	ANCHOR_REACHES,
	ANCHOR_NOT_CALLS,
	ANCHOR_HAS,
	ANCHOR_NOT_HAS,
};

struct anchor {
	char *file;		/* F's file, relative to the tree, or NULL */
	char *fn;		/* F */
	enum anchor_op op;
	char *what;		/* the callee (a prefix when it ends in '*'),
				 * or the C text */
	char *text;		/* as written */
};

typedef VEC(struct anchor) anchorvec;

/*
 * Parse the anchor S[0..N) into A: NULL, or why it is not one
 * (malloc'ed).
 */
char *anchor_parse(const char *s, size_t n, struct anchor *a);
void anchor_free(struct anchor *a);

/*
 * Split ANCHORS at the semicolons outside its C texts, each anchor
 * added to OUT: NULL, or why one does not parse (malloc'ed).
 */
char *anchors_parse(const char *anchors, anchorvec *out);

/*
 * Where anchors are checked: the tree, the unit (relative to the tree),
 * and a function that adds to PATHS each file of the unit that defines
 * FN (full paths, in the order to try), and the files read so far
 * (each file is read and lexed once).
 */
struct anchor_scope {
	const char *ktree;
	const char *unit;
	void (*defined_in)(void *arg, const char *fn, strvec *paths);
	void *arg;
	struct ctexts *texts;	/* the files read: the caller's */
};

/*
 * Does A hold in SC?  NULL when it does, with, for a positive anchor,
 * *PATH (relative to the tree, valid while SC is) and *LINE of what it
 * names: the definition, the call, the text.  Else why not, one clause,
 * malloc'ed.
 */
char *anchor_check(struct anchor_scope *sc, const struct anchor *a,
		   const char **path, unsigned int *line);

/*
 * EVIDENCE with each citation replaced by the place it names in SC,
 * malloc'ed; or NULL with *WHY, the first citation that does not hold.
 */
char *evidence_render(struct anchor_scope *sc, const char *evidence,
		      char **why);

/* Is every citation of EVIDENCE well formed?  NULL, or why not. */
char *evidence_parse(const char *evidence);

#endif /* AF_ANCHOR_H */
