// SPDX-License-Identifier: GPL-2.0
/*
 * freezepath-tests.c - that the tree's suspend freeze is verified, not
 * assumed (freezepath.c, patchfit.c, prereq.c): the freeze function
 * freezes the flagged types (the flag test's sense, a return before the
 * freeze, the freeze call itself), a core series only partly in is found
 * with the patches in and missing, and the PM core's calls of the freeze
 * are looked for in kernel/power/.  Fixture-size texts, trimmed from our
 * 6.12 series' fs_suspend_freeze_sb() and linux-7.3's suspend_prepare().
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "freezepath.h"
#include "patchfit.h"
#include "prereq.h"
#include "unit.h"
#include "util.h"

const char *freeze_parsed(const char *src)
{
	static char out[512];
	struct freeze_path fp = { 0 };

	if (!freeze_path_parse(&fp, src, strlen(src)))
		snprintf(out, sizeof(out), "none");
	else if (fp.flag)
		snprintf(out, sizeof(out), "%s %s %u%s", fp.func, fp.flag,
			 fp.line, fp.super_op ? " super_op" : "");
	else
		snprintf(out, sizeof(out), "%s - %u %s", fp.func, fp.line,
			 fp.why);
	freeze_path_free(&fp);
	return out;
}

/* our 6.12 series' freeze, trimmed; %s: what replaces its flag test */
static const char sb612[] =
	"static void fs_suspend_freeze_sb(struct super_block *sb, void *arg)\n"
	"{\n"
	"\tint *error = arg;\n"
	"\tint ret;\n"
	"\n"
	"%s"
	"\tif (!get_active_super(sb))\n"
	"\t\treturn;\n"
	"\tif (!frozen) {\n"
	"\t\tret = -ENOMEM;\n"
	"\t\tgoto fail;\n"
	"\t}\n"
	"\tif (sb->s_op->freeze_super)\n"
	"\t\tret = sb->s_op->freeze_super(sb, FREEZE_HOLDER_KERNEL);\n"
	"\telse\n"
	"\t\tret = %s(sb, FREEZE_HOLDER_KERNEL);\n"
	"fail:\n"
	"\t*error = ret;\n"
	"}\n";

static const char *sb612_with(const char *test, const char *freeze)
{
	static char src[2048];

	snprintf(src, sizeof(src), sb612, test, freeze);
	return freeze_parsed(src);
}

static void test_freeze_sense(void)
{
	static const char test[] =
		"\tif (*error || !(sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
		"\t\treturn;\n";
	static const char inverted[] =
		"\tif (*error || (sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
		"\t\treturn;\n";
	static const char first[] =
		"\treturn;\n"
		"\tif (*error || !(sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
		"\t\treturn;\n";

	check_str(sb612_with(test, "freeze_super"),
		  "fs_suspend_freeze_sb FS_AUTOFREEZE 6 super_op",
		  "freeze: the 6.12 series' freeze freezes the flagged types");
	check_str(sb612_with(inverted, "freeze_super"),
		  "fs_suspend_freeze_sb - 6 fs_suspend_freeze_sb() tests FS_AUTOFREEZE, but skips the types that carry it",
		  "freeze: the flag test inverted skips the flagged types, at its if");
	check_str(sb612_with(first, "freeze_super"),
		  "fs_suspend_freeze_sb - 6 fs_suspend_freeze_sb() tests FS_AUTOFREEZE, but returns before its freeze_super(), whatever the type: it freezes nothing",
		  "freeze: a return before the freeze, whatever the type, freezes nothing");
	check_str(freeze_parsed("static int fs_suspend_freeze_sb(struct super_block *sb, void *unused)\n"
				"{\n"
				"\tif (!(sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
				"\t\treturn 0;\n"
				"\treturn freeze_super(sb, false);\n"
				"}\n"), "fs_suspend_freeze_sb FS_AUTOFREEZE 3",
		  "freeze: a return of the freeze's own result is no return before it");
	check(!strncmp(sb612_with(test, "frobnicate"), "fs_suspend_freeze_sb FS_AUTOFREEZE", 34),
	      "freeze: ->freeze_super() alone is a freeze");
	check_str(freeze_parsed("static void fs_suspend_freeze_sb(struct super_block *sb, void *arg)\n"
				"{\n"
				"\tif (!(sb->s_type->fs_flags & FS_AUTOFREEZE))\n"
				"\t\treturn;\n"
				"\tpr_info(\"freezing\\n\");\n"
				"}\n"),
		  "fs_suspend_freeze_sb - 3 fs_suspend_freeze_sb() tests FS_AUTOFREEZE, but calls no freeze_super(): it freezes nothing",
		  "freeze: a freeze without its freeze_super() call freezes nothing");
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = path_join(dir, rel), *slash = strrchr(path, '/');
	FILE *f;

	*slash = '\0';
	mkdir(path, 0755);
	*slash = '/';
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	check(f != NULL, "write %s", rel);
	free(path);
}

/* series_split() of S in DIR, and its text when partly in */
static const char *split_of(const struct series *s, const char *dir)
{
	static char out[256];
	long k = series_split(s, dir);
	char *why = k > 0 && (size_t)k < s->patches.n ?
		series_split_text(s, k) : NULL;

	snprintf(out, sizeof(out), "%ld%s%s", k, why ? " " : "",
		 why ? why : "");
	free(why);
	return out;
}

/*
 * A series of three patches, each on the last's line: in whole, in
 * part (the first, the first two), not at all, and a tree it is not.
 */
static void test_series_split(void)
{
	char dir[] = "/tmp/af-fp.XXXXXX";
	struct series s = { "patches/linux-9.9", { 0 } };
	static const char *const names[] = {
		"0001-fs.patch", "0002-fs.patch", "0003-pm.patch",
	};
	static const char *const texts[] = {
		"--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,3 @@\n a\n+fs1\n b\n",
		"--- a/a.c\n+++ b/a.c\n@@ -2,2 +2,3 @@\n fs1\n+fs2\n b\n",
		"--- a/p.c\n+++ b/p.c\n@@ -1,2 +1,3 @@\n p\n+pm\n q\n",
	};
	size_t i;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return;
	}
	for (i = 0; i < 3; i++) {
		put(dir, names[i], texts[i]);
		vec_push(&s.patches, path_join(dir, names[i]));
	}
	put(dir, "p.c", "p\nq\n");
	put(dir, "a.c", "a\nb\n");
	check_str(split_of(&s, dir), "0", "split: none in, the series applies whole");
	put(dir, "a.c", "a\nfs1\nb\n");
	check_str(split_of(&s, dir), "1 patches/linux-9.9/ is only partly in: 0001 in, 0002-0003 missing",
		  "split: the first patch in, the others named missing");
	put(dir, "a.c", "a\nfs1\nfs2\nb\n");
	check_str(split_of(&s, dir), "2 patches/linux-9.9/ is only partly in: 0001-0002 in, 0003 missing",
		  "split: the PM hook missing, named");
	put(dir, "p.c", "p\npm\nq\n");
	check_str(split_of(&s, dir), "3", "split: in whole");
	put(dir, "p.c", "p\nr\n");
	check_str(split_of(&s, dir), "-1",
		  "split: a tree the rest does not apply to is no split");
	for (i = 0; i < 3; i++)
		unlink(s.patches.v[i]);
	strvec_free(&s.patches);
	for (i = 0; i < 2; i++) {
		char *p = path_join(dir, i ? "p.c" : "a.c");

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/* prereqs_check() of the PM core's calls: "broken AT" or "ok" */
static const char *pm_calls(const char *ktree, const char *fn)
{
	static char out[512];
	struct prereq_state st;

	prereqs_check(ktree, fn, &st);
	if (st.broken)
		snprintf(out, sizeof(out), "broken %s", st.at);
	else
		snprintf(out, sizeof(out), "ok");
	prereq_state_free(&st);
	return out;
}

/*
 * The PM core's calls of the freeze, policy/prerequisites.tsv's "-"
 * lines: found in kernel/power/, missing named with the function they
 * are missing from, and not looked for in a tree without kernel/power/.
 */
static void test_pm_calls(void)
{
	char dir[] = "/tmp/af-pm.XXXXXX";
	static const char process[] =
		"// SPDX-License-Identifier: GPL-2.0\n\n"
		"int freeze_processes(void)\n{\n\tint error;\n\n"
		"\terror = try_to_freeze_tasks(true);\n"
		"\tif (!error)\n\t\terror = %s();\n\treturn error;\n}\n"
		"void thaw_processes(void)\n{\n\tfs_suspend_thaw();\n}\n";
	static const char *const files[] = {
		"kernel/power/process.c", "kernel/power/suspend.c",
		"kernel/power/hibernate.c", "kernel/power", "kernel",
	};
	char src[512], *p;
	size_t i;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp");
		return;
	}
	check_str(pm_calls(dir, "fs_suspend_freeze_sb"), "ok",
		  "pm: a trimmed tree without kernel/power/ is not looked at");
	p = path_join(dir, "kernel");
	mkdir(p, 0755);
	free(p);
	snprintf(src, sizeof(src), process, "fs_suspend_freeze");
	put(dir, "kernel/power/process.c", src);
	check_str(pm_calls(dir, "fs_suspend_freeze_sb"), "ok",
		  "pm: freeze_processes() calls fs_suspend_freeze()");
	snprintf(src, sizeof(src), process, "some_other_freeze");
	put(dir, "kernel/power/process.c", src);
	check_str(pm_calls(dir, "fs_suspend_freeze_sb"),
		  "broken kernel/power/process.c:3:1",
		  "pm: the call removed, at the function it is missing from");
	put(dir, "kernel/power/suspend.c",
	    "/* suspend.c */\nstatic int suspend_prepare(suspend_state_t state)\n{\n"
	    "\tint error;\n\n\tfilesystems_thaw();\n\treturn error;\n}\n");
	put(dir, "kernel/power/hibernate.c",
	    "int hibernate(void)\n{\n\tfilesystems_freeze(1);\n"
	    "\tfilesystems_thaw();\n\treturn 0;\n}\n");
	check_str(pm_calls(dir, "filesystems_freeze_callback"),
		  "broken kernel/power/suspend.c:2:1",
		  "pm: mainline's suspend_prepare() without filesystems_freeze()");
	put(dir, "kernel/power/suspend.c",
	    "static int suspend_prepare(suspend_state_t state)\n{\n"
	    "\tint error;\n\n\terror = filesystems_freeze(enabled);\n"
	    "\tif (error)\n\t\tfilesystems_thaw();\n\treturn error;\n}\n");
	check_str(pm_calls(dir, "filesystems_freeze_callback"), "ok",
		  "pm: mainline's calls, its prerequisites' form included");
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		p = path_join(dir, files[i]);
		if (i < 3)
			unlink(p);
		else
			rmdir(p);
		free(p);
	}
	rmdir(dir);
}

void test_freezepath(void)
{
	test_freeze_sense();
	test_series_split();
	test_pm_calls();
}
