/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout.h - "autofreeze layout": the statements a conversion changed,
 * laid out the way scripts/checkpatch.pl --strict wants them.
 *
 * Only the statements that hold a listed line (a line the change added
 * or modified) change, and in them only:
 *
 *  - on a listed line, a binary '|' gets a space on each side (none is
 *    added at the start or the end of the line);
 *  - a listed line wider than LAYOUT_COLS columns is broken after its
 *    last " | " that leaves the first part within them, else after its
 *    last ", ", and the rest goes on a new line (listed too) under the
 *    first operand: just after the innermost open parenthesis, else
 *    after the statement's last "=" or "return", else one tab in from
 *    the statement;
 *  - a continuation line (one that starts inside parentheses) whose
 *    innermost open parenthesis is on a listed line, or on a line this
 *    moves, is indented to the column just after that parenthesis,
 *    tabs then spaces (under the first token after it when the
 *    parenthesis ends its line: a hanging indent is kept), unless that
 *    would push a line of the statement past LAYOUT_COLS columns: then
 *    the statement keeps its indentation.  checkpatch.pl looks at a
 *    continuation line only under a line the patch adds, so the lines
 *    under one left as it was stay, listed or not: moving them would
 *    add lines to the patch, and checkpatch would then judge their
 *    content too.  A line that starts with ')', in a comment or in a
 *    literal keeps its own; a statement in which a line to move is
 *    inside brackets or braces is left as it is.
 *
 * Comments, string and character literals and preprocessor lines are
 * never touched (lex.h).  Tabs count 8 columns, other bytes one.
 */
#ifndef AF_LAYOUT_H
#define AF_LAYOUT_H

#include <stddef.h>

#define LAYOUT_COLS	100	/* checkpatch.pl's max_line_length */

/*
 * BUF[0..LEN) tidied at the listed lines LINES[0..N) (1-based, in any
 * order; one out of range is ignored): a malloc'ed copy, NUL-terminated,
 * its length in *OUTLEN.
 */
char *layout_tidy(const char *buf, size_t len, const unsigned long *lines,
		  size_t n, size_t *outlen);

/* autofreeze layout FILE LINE...: the whole file, tidied, on stdout. */
int cmd_layout(int argc, char **argv);

#endif /* AF_LAYOUT_H */
