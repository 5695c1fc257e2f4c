/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - what the helper's unit test files share: the checks of
 * unit-tests.c (its main() runs them all), and the tests each other
 * file of tests/helper/ adds.
 */
#ifndef AF_UNIT_H
#define AF_UNIT_H

/* One "ok N - what" or "not ok N - what" line. */
void check(int ok, const char *what, ...)
	__attribute__((format(printf, 2, 3)));
/* check() that GOT is WANT, showing both when not. */
void check_str(const char *got, const char *want, const char *what);

/* layout-tests.c: autofreeze layout (layout.c) */
void test_layout(void);
/* freezepath-tests.c: the freeze's flag test, partial series, PM calls */
void test_freezepath(void);
/*
 * freeze_path_parse() of SRC: "FUNC FLAG LINE", " super_op" added when
 * it calls a type's ->freeze_super; "FUNC - LINE WHY"; or "none".
 */
const char *freeze_parsed(const char *src);
/* inside-tests.c: only regular files inside the tree are read (util.c) */
void test_inside(void);
/* annotate-tests.c: check-tree's findings as CI annotations */
void test_annotate(void);

/* sha256-tests.c: SHA-256, the result cache's keys (sha256.c) */
void test_sha256(void);

#endif /* AF_UNIT_H */
