// SPDX-License-Identifier: GPL-2.0
/*
 * layout-tests.c - unit tests of "autofreeze layout" (layout.c): the
 * lines the rules changed in real kernel code, trimmed, with the layout
 * checkpatch.pl --strict wants for them, and the code that must stay as
 * it is.  Run from unit-tests.c's main().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "unit.h"
#include "util.h"

/*
 * A source, its listed lines ("3 5": the lines the change made), and
 * what layout makes of it (NULL: the source as it is).  Or, with no
 * source (NULL), both in WANT as a patch shows them: its ' ' lines (and
 * empty lines) are in both, its '-' lines in the source only, its '+'
 * lines in what layout makes of it only.
 */
struct layout_case {
	const char *what, *src, *lines, *want;
};

static const struct layout_case cases[] = {
	/*
	 * Trimmed from linux-7.3 fs/f2fs/gc.c, gc_thread_func(), as the
	 * rules leave it (the golden expected-diffs/linux-7.3/fs-f2fs.diff):
	 * wait_event_freezable_timeout() became
	 * wait_event_interruptible_timeout(), four characters longer, and
	 * its arguments at four tabs no longer match the parenthesis.
	 */
	{ "f2fs gc.c (7.3): the arguments go under the renamed call's parenthesis",
	  NULL, "6",
	  " static int gc_thread_func(void *data)\n"
	  " {\n"
	  " \tdo {\n"
	  " \t\tbool sync_mode, foreground = false, gc_boost = false;\n"
	  "\n"
	  " \t\twait_event_interruptible_timeout(*wq,\n"
	  "-\t\t\t\tkthread_should_stop() ||\n"
	  "-\t\t\t\twaitqueue_active(fggc_wq) ||\n"
	  "-\t\t\t\tgc_th->gc_wake,\n"
	  "-\t\t\t\tmsecs_to_jiffies(wait_ms));\n"
	  "+\t\t\t\t\t\t kthread_should_stop() ||\n"
	  "+\t\t\t\t\t\t waitqueue_active(fggc_wq) ||\n"
	  "+\t\t\t\t\t\t gc_th->gc_wake,\n"
	  "+\t\t\t\t\t\t msecs_to_jiffies(wait_ms));\n"
	  "\n"
	  " \t\tif (test_opt(sbi, GC_MERGE) && waitqueue_active(fggc_wq)) {\n"
	  " \t\t\tforeground = true;\n"
	  " \t\t\tgc_control.one_time = false;\n"
	  " \t\t}\n"
	  " \t} while (!kthread_should_stop());\n"
	  " \treturn 0;\n"
	  " }\n" },
	/*
	 * Trimmed from linux-7.3 fs/f2fs/segment.c,
	 * issue_discard_thread(): the same rename; the if after it, not
	 * aligned either, holds no listed line and stays.
	 */
	{ "f2fs segment.c (7.3): the renamed call aligned, the next statement kept",
	  NULL, "2",
	  " \tdo {\n"
	  " \t\twait_event_interruptible_timeout(*q,\n"
	  "-\t\t\t\tkthread_should_stop() || dcc->discard_wake,\n"
	  "-\t\t\t\tmsecs_to_jiffies(wait_ms));\n"
	  "+\t\t\t\t\t\t kthread_should_stop() || dcc->discard_wake,\n"
	  "+\t\t\t\t\t\t msecs_to_jiffies(wait_ms));\n"
	  "\n"
	  " \t\tif (sbi->gc_mode == GC_URGENT_HIGH ||\n"
	  " \t\t\t!f2fs_available_free_memory(sbi, DISCARD_CACHE))\n"
	  " \t\t\t__init_discard_policy(sbi, &dpolicy, DPOLICY_FORCE,\n"
	  " \t\t\t\t\t\tMIN_DISCARD_GRANULARITY);\n" },
	/*
	 * Trimmed from linux-7.3 fs/xfs/xfs_super.c,
	 * xfs_init_workqueues(): the rule dropped WQ_FREEZABLE from the
	 * first line; its "0);" goes under alloc_workqueue(, the
	 * xfs_discard_wq statement (no listed line) stays as it is.
	 */
	{ "xfs_super.c (7.3): the continuation of a changed line aligned, not the next statement's",
	  NULL, "7",
	  " STATIC int __init\n"
	  " xfs_init_workqueues(void)\n"
	  " {\n"
	  " \t/*\n"
	  " \t * The allocation workqueue can be used in memory reclaim situations\n"
	  " \t */\n"
	  " \txfs_alloc_wq = alloc_workqueue(\"xfsalloc\", XFS_WQFLAGS(WQ_MEM_RECLAIM | WQ_PERCPU),\n"
	  "-\t\t\t0);\n"
	  "+\t\t\t\t       0);\n"
	  " \tif (!xfs_alloc_wq)\n"
	  " \t\treturn -ENOMEM;\n"
	  "\n"
	  " \txfs_discard_wq = alloc_workqueue(\"xfsdiscard\", XFS_WQFLAGS(WQ_UNBOUND),\n"
	  " \t\t\t0);\n"
	  " \tif (!xfs_discard_wq)\n"
	  " \t\tgoto out_free_alloc_wq;\n" },
	/*
	 * Trimmed from linux-6.12 fs/bcachefs/journal.c,
	 * bch2_fs_journal_init(): WQ_FREEZABLE| taken out of the flags; the
	 * line is already under the parenthesis.
	 */
	{ "bcachefs journal.c (6.12): spaces around '|' on the changed line",
	  NULL, "4",
	  " \tj->pin.front = j->pin.back = 1;\n"
	  "\n"
	  " \tj->wq = alloc_workqueue(\"bcachefs_journal\",\n"
	  "-\t\t\t\tWQ_HIGHPRI|WQ_UNBOUND|WQ_MEM_RECLAIM, 512);\n"
	  "+\t\t\t\tWQ_HIGHPRI | WQ_UNBOUND | WQ_MEM_RECLAIM, 512);\n"
	  " \tif (!j->wq)\n"
	  " \t\treturn -BCH_ERR_ENOMEM_fs_other_alloc;\n" },
	/*
	 * Trimmed from linux-6.12 fs/bcachefs/super.c, bch2_fs_alloc(): the
	 * flag lines get their spaces; aligned under alloc_workqueue( they
	 * would pass 100 columns, so the statement keeps its indentation
	 * (the #ifndef in it too).
	 */
	{ "bcachefs super.c (6.12): spaces, and no alignment that would pass 100 columns",
	  NULL, "2 4 6",
	  " \tif (!(c->btree_update_wq = alloc_workqueue(\"bcachefs\",\n"
	  "-\t\t\t\tWQ_HIGHPRI|WQ_MEM_RECLAIM|WQ_UNBOUND, 512)) ||\n"
	  "+\t\t\t\tWQ_HIGHPRI | WQ_MEM_RECLAIM | WQ_UNBOUND, 512)) ||\n"
	  " \t    !(c->btree_io_complete_wq = alloc_workqueue(\"bcachefs_btree_io\",\n"
	  "-\t\t\t\tWQ_HIGHPRI|WQ_MEM_RECLAIM, 1)) ||\n"
	  "+\t\t\t\tWQ_HIGHPRI | WQ_MEM_RECLAIM, 1)) ||\n"
	  " \t    !(c->write_ref_wq = alloc_workqueue(\"bcachefs_write_ref\",\n"
	  " \t\t\t\t0, 0)) ||\n"
	  " #ifndef BCH_WRITE_REF_DEBUG\n"
	  " \t    percpu_ref_init(&c->writes, bch2_writes_disabled,\n"
	  " \t\t\t    PERCPU_REF_INIT_DEAD, GFP_KERNEL) ||\n"
	  " #endif\n"
	  " \t    mempool_init_kmalloc_pool(&c->fill_iter, 1, iter_size)) {\n"
	  " \t\tret = -BCH_ERR_ENOMEM_fs_other_alloc;\n"
	  " \t\tgoto err;\n"
	  " \t}\n" },
	/*
	 * Trimmed from linux-6.12 fs/btrfs/super.c, btrfs_fs_type: the flag
	 * rule appended " | FS_AUTOFREEZE" (105 columns); the rest goes
	 * under FS_REQUIRES_DEV.
	 */
	{ "btrfs super.c (6.12): a long flags line broken after its last fitting ' | '",
	  NULL, "5",
	  " static struct file_system_type btrfs_fs_type = {\n"
	  " \t.owner\t\t\t= THIS_MODULE,\n"
	  " \t.name\t\t\t= \"btrfs\",\n"
	  " \t.kill_sb\t\t= btrfs_kill_super,\n"
	  "-\t.fs_flags\t\t= FS_REQUIRES_DEV | FS_BINARY_MOUNTDATA | FS_ALLOW_IDMAP | FS_AUTOFREEZE,\n"
	  "+\t.fs_flags\t\t= FS_REQUIRES_DEV | FS_BINARY_MOUNTDATA | FS_ALLOW_IDMAP |\n"
	  "+\t\t\t\t  FS_AUTOFREEZE,\n"
	  "  };\n" },

	/* what must not change */
	{ "a listed line with no continuation, a bad one unlisted: unchanged",
	  "\tfoo(a, b);\n"
	  "\tbar(a,\n"
	  "\t\tb);\n",
	  "1", NULL },
	{ "a statement with no listed line: unchanged",
	  "\tx = 1;\n"
	  "\tfoo(a,\n"
	  "\t\tb|c);\n"
	  "\ty = 2;\n",
	  "1 4", NULL },
	{ "'|' in a string, a character literal, comments: unchanged",
	  "\tpr_info(\"a|b\", '|'); /* x|y */ // p|q\n"
	  "\t/*\n"
	  "\t * a|b\n"
	  "\t */\n",
	  "1 2 3 4", NULL },
	{ "'||', '|=' and spaced '|': unchanged",
	  "\tif (a||b)\n"
	  "\t\tx|=y;\n"
	  "\tz = A | B;\n",
	  "1 2 3", NULL },
	{ "preprocessor lines: unchanged, a #define body too",
	  "#define F(x) (A|B|\\\n"
	  "\t\tC)\n"
	  "#if A|B\n"
	  "#endif\n",
	  "1 2 3", NULL },
	{ "a continuation that would pass 100 columns: the statement keeps its indentation",
	  "\tret = some_function_with_a_long_name(first_argument, second_argument,\n"
	  "\t\t\tthird_argument_with_a_rather_long_name_and_longer_still_indeed_so);\n",
	  "1", NULL },
	{ "a long line with nothing to break at: unchanged",
	  "\tpr_err(\"a message that is much longer than a hundred columns, "
	  "all in one string literal, as is\");\n",
	  "1", NULL },
	{ "a continuation in braces inside parentheses: the statement left",
	  "\tfoo(a, (struct bar){\n"
	  "\t\t.x = 1,\n"
	  "\t}, b);\n",
	  "1", NULL },
	/*
	 * Trimmed from linux-6.1 fs/f2fs/gc.c, gc_thread_func(): the rule
	 * took "freezing(current) ||" off a continuation line.  checkpatch
	 * looks at a continuation line only under a line the patch adds;
	 * the line above it is not, so the statement stays as it was
	 * (moving it would make checkpatch see the waitqueue_active()
	 * below too).
	 */
	{ "f2fs gc.c (6.1): a listed line under an unchanged one keeps its place",
	  "\t\twait_event_interruptible_timeout(*wq,\n"
	  "\t\t\t\tkthread_should_stop() ||\n"
	  "\t\t\t\twaitqueue_active(fggc_wq) ||\n"
	  "\t\t\t\tgc_th->gc_wake,\n"
	  "\t\t\t\tmsecs_to_jiffies(wait_ms));\n",
	  "2", NULL },
	/*
	 * Trimmed from linux-7.3 fs/xfs/xfs_super.c,
	 * xfs_init_mount_workqueues(): the rule changed the flags, on the
	 * continuation line; alloc_workqueue( is on a line it left.
	 */
	{ "xfs_super.c (7.3): a changed flags line under an unchanged call stays",
	  "\tmp->m_buf_workqueue = alloc_workqueue(\"xfs-buf/%s\",\n"
	  "\t\t\tXFS_WQFLAGS(WQ_MEM_RECLAIM | WQ_PERCPU),\n"
	  "\t\t\t1, mp->m_super->s_id);\n",
	  "2", NULL },
	{ "a hanging parenthesis keeps its indent",
	  "\tret = foo(\n"
	  "\t\ta, b,\n"
	  "\t\tc);\n",
	  "1 2 3", NULL },
	{ "a continuation line that starts with ')' or in a comment keeps its own",
	  "\tret = foo(a,\n"
	  "\t\t  /* why */ b\n"
	  "\t);\n",
	  "1", NULL },

	/* more of each rule */
	{ "'|' at either end of a line, spaced on the inside only",
	  NULL, "1 2",
	  "-\tx = A|\n"
	  "-\t    |B;\n"
	  "+\tx = A |\n"
	  "+\t    | B;\n" },
	{ "'|' half spaced",
	  NULL, "1",
	  "-\tx = A |B| C;\n"
	  "+\tx = A | B | C;\n" },
	{ "a long call broken after its last fitting ', ', under its parenthesis",
	  NULL, "1",
	  "-\t\terr = do_something_rather_long(first_argument, second_argument, third_argument, fourth);\n"
	  "+\t\terr = do_something_rather_long(first_argument, second_argument, third_argument,\n"
	  "+\t\t\t\t\t       fourth);\n" },
	{ "broken again while the rest is too long",
	  NULL, "1",
	  "-\tx = AAAAAAAAAAAAAAAAAAAA | BBBBBBBBBBBBBBBBBBBB | CCCCCCCCCCCCCCCCCCCC | DDDDDDDDDDDDDDDDDDDD | EEEEEEEEEEEEEEEEEEEE | FFFFFFFFFFFFFFFFFFFF | GGGGGGGGGGGGGGGGGGGG | HHHHHHHHHHHHHHHHHHHH;\n"
	  "+\tx = AAAAAAAAAAAAAAAAAAAA | BBBBBBBBBBBBBBBBBBBB | CCCCCCCCCCCCCCCCCCCC |\n"
	  "+\t    DDDDDDDDDDDDDDDDDDDD | EEEEEEEEEEEEEEEEEEEE | FFFFFFFFFFFFFFFFFFFF |\n"
	  "+\t    GGGGGGGGGGGGGGGGGGGG | HHHHHHHHHHHHHHHHHHHH;\n" },
	{ "spaces added, then the line is too long and broken, then aligned",
	  NULL, "1",
	  "-\tret = register_something(dev, FLAG_ONE|FLAG_TWO|FLAG_THREE|FLAG_FOUR|FLAG_FIVE|FLAG_SIX, data,\n"
	  "-\t\tmore);\n"
	  "+\tret = register_something(dev, FLAG_ONE | FLAG_TWO | FLAG_THREE | FLAG_FOUR | FLAG_FIVE |\n"
	  "+\t\t\t\t FLAG_SIX, data,\n"
	  "+\t\t\t\t more);\n" },
	{ "the lines under a listed line move, then those under them",
	  NULL, "1",
	  " \tfoo(a,\n"
	  "-\t\tbar(b,\n"
	  "+\t    bar(b,\n"
	  " \t\tc),\n"
	  "-\t\td);\n"
	  "+\t    d);\n" },
	{ "a function's parameters, aligned; spaces make it tabs then spaces",
	  NULL, "1 4",
	  " static int f(int a,\n"
	  "-                 int b)\n"
	  "+\t     int b)\n"
	  " {\n"
	  "-\treturn a|b;\n"
	  "+\treturn a | b;\n"
	  " }\n" },
	{ "no newline at the end of the file",
	  "\tfoo(a,\n"
	  "\t\tb|c);",
	  "1 2",
	  "\tfoo(a,\n"
	  "\t    b | c);" },
};

/* The numbers of S ("3 5"), in LINES; how many. */
static size_t parse_lines(const char *s, unsigned long *lines, size_t max)
{
	size_t n = 0;
	char *end;

	while (*s && n < max) {
		lines[n++] = strtoul(s, &end, 10);
		if (end == s)
			break;
		s = end;
	}
	return n;
}

/* The source and the result in PATCH (struct layout_case), malloc'ed. */
static void unpatch(const char *patch, char **src, char **want)
{
	char *s = xmalloc(strlen(patch) + 1), *w = xmalloc(strlen(patch) + 1);
	const char *text, *end;
	size_t n;

	*src = s;
	*want = w;
	for (; *patch; patch = end) {
		text = *patch == '\n' ? patch : patch + 1;
		end = strchr(text, '\n');
		end = end ? end + 1 : text + strlen(text);
		n = (size_t)(end - text);
		if (*patch != '+') {
			memcpy(s, text, n);
			s += n;
		}
		if (*patch != '-') {
			memcpy(w, text, n);
			w += n;
		}
	}
	*s = '\0';
	*w = '\0';
}

void test_layout(void)
{
	unsigned long lines[16], one = 1;
	size_t i, n, len;
	char *got;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct layout_case *c = &cases[i];
		const char *src = c->src, *want = c->want ? c->want : c->src;
		char *from_patch[2] = { NULL, NULL };

		if (!c->src) {
			unpatch(c->want, &from_patch[0], &from_patch[1]);
			src = from_patch[0];
			want = from_patch[1];
		}
		n = parse_lines(c->lines, lines, ARRAY_SIZE(lines));
		got = layout_tidy(src, strlen(src), lines, n, &len);
		check_str(got, want, c->what);
		check(len == strlen(want), "layout: the length of: %s", c->what);
		free(got);
		/* what it did is done: a second run changes nothing */
		got = layout_tidy(want, strlen(want), lines, n, &len);
		check_str(got, want, "layout: again, nothing to do");
		free(got);
		free(from_patch[0]);
		free(from_patch[1]);
	}
	got = layout_tidy("", 0, &one, 1, &len);
	check(len == 0 && !*got, "layout: an empty file, a line out of range");
	free(got);
	got = layout_tidy("\tx = a|b;\n", 10, NULL, 0, &len);
	check_str(got, "\tx = a|b;\n", "layout: no listed line, no change");
	free(got);
}
