/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fstype_parse.h - file_system_type and super_operations initializers,
 * and "->s_op = &NAME", as analyze() reads them (fstype_parse.c).
 */
#ifndef AF_FSTYPE_PARSE_H
#define AF_FSTYPE_PARSE_H

struct analysis;
struct definition;

/* What a file-scope initializer initializes. */
enum init_kind { INIT_OTHER, INIT_FSTYPE, INIT_SOP };

/* What the declaration in tokens [from, to) initializes. */
enum init_kind initializer_kind(const struct analysis *an, long from, long to);

/*
 * A designator ".FIELD = VALUE" directly inside the initializer of an
 * fstype or super_operations object; I is the "." token.
 */
void designator(struct analysis *an, long i, enum init_kind kind,
		long obj_idx);

/* "->s_op = &NAME" in a function body */
void s_op_assign(struct analysis *an, long i, struct definition *fn);

#endif /* AF_FSTYPE_PARSE_H */
