/* SPDX-License-Identifier: GPL-2.0 */
/*
 * annotate.h - "autofreeze annotate": check-tree's findings, the
 * "FILE:LINE:COL: SEVERITY: MESSAGE" lines "autofreeze check" prints, as
 * a CI system shows them: GitHub workflow commands, or a GitLab
 * code-quality report.
 */
#ifndef AF_ANNOTATE_H
#define AF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One finding; the strings point into the line it was parsed from. */
struct annotation {
	const char *file, *severity, *msg;
	long line, col;
};

/*
 * Parse LINE (without its newline) in place into A: the file is all
 * before the first ":LINE:COL: SEVERITY: " (SEVERITY error, warning or
 * note).  False when LINE is not such a line.
 */
bool annotation_parse(char *line, struct annotation *a);

/* "::error file=F,line=L,col=C::MESSAGE", escaped as GitHub wants. */
void annotation_github(FILE *f, const struct annotation *a);

/*
 * The N findings of A as a GitLab code-quality report: a JSON array of
 * {description, check_name, fingerprint, severity, location: {path,
 * lines: {begin}}}.  The fingerprint is of the file, the message and
 * how many identical ones came before, not of the line: a finding that
 * only moves stays the same finding between a merge request and its
 * base.
 */
void annotation_codequality(FILE *f, const struct annotation *a, size_t n);

int cmd_annotate(int argc, char **argv);

#endif /* AF_ANNOTATE_H */
