// SPDX-License-Identifier: GPL-2.0
/*
 * nofreeze-tests.c - which freezer uses are dead code: in a kernel thread
 * that never becomes freezable (analyze.c:freezer_use_dead()).  Each case
 * is a unit of one or more files read in full, as the survey reads them;
 * the real ones are trimmed from Linux 6.1 and 6.12 (Debian
 * linux-source-6.1, -6.12), the file and version named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "api.h"
#include "unit.h"
#include "util.h"

/* FILES[0..N) analyzed in full, as one unit */
static void read_unit(struct file_info **fi, const char *const *src, size_t n)
{
	static struct arena arena;
	static struct token *toks;
	static size_t cap;
	size_t i;

	for (i = 0; i < n; i++) {
		fi[i] = xcalloc(1, sizeof(**fi));
		fi[i]->path = xasprintf("f%zu.c", i);
		analyze(fi[i], src[i], strlen(src[i]), true, &arena, &toks,
			&cap);
	}
}

/* "API@LINE ..." of the uses freezer_use_dead() finds dead, in order */
static char *dead_uses(const char *const *src, size_t n)
{
	static char out[1024];
	struct file_info *fi[4];
	size_t i, k, len = 0;

	out[0] = '\0';
	read_unit(fi, src, n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < fi[i]->uses.n; k++) {
			const struct use *u = &fi[i]->uses.v[k];

			if (freezer_use_dead(fi, n, u))
				len += (size_t)snprintf(out + len,
					sizeof(out) - len, "%s%s@%u",
					len ? " " : "",
					freezer_apis[u->api].name, u->line);
		}
	}
	for (i = 0; i < n; i++)
		file_info_free(fi[i]);
	return out;
}

/* The end of jfs_sync() (fs/jfs/jfs_txnmgr.c), the same in 6.1 and 6.12 */
#define JFS_SYNC_SLEEP							\
	"\t\tif (freezing(current)) {\n"				\
	"\t\t\tTXN_UNLOCK();\n"						\
	"\t\t\ttry_to_freeze();\n"					\
	"\t\t} else {\n"						\
	"\t\t\tset_current_state(TASK_INTERRUPTIBLE);\n"		\
	"\t\t\tTXN_UNLOCK();\n"						\
	"\t\t\tschedule();\n"						\
	"\t\t}\n"							\
	"\t} while (!kthread_should_stop());\n"				\
	"\treturn 0;\n"							\
	"}\n"

/* Linux 6.1 fs/jfs/jfs_txnmgr.c jfs_sync(), trimmed: no set_freezable() */
static const char jfs_sync_61[] =
	"int jfs_sync(void *arg)\n"
	"{\n"
	"\tstruct inode *ip;\n"
	"\ttid_t tid;\n"
	"\n"
	"\tdo {\n"
	"\t\tTXN_LOCK();\n"
	"\t\twhile (jfs_tlocks_low && !list_empty(&TxAnchor.anon_list)) {\n"
	"\t\t\tTXN_UNLOCK();\n"
	"\t\t\ttid = txBegin(ip->i_sb, COMMIT_INODE);\n"
	"\t\t\ttxCommit(tid, 1, &ip, 0);\n"
	"\t\t\ttxEnd(tid);\n"
	"\t\t\tTXN_LOCK();\n"
	"\t\t}\n"
	JFS_SYNC_SLEEP
	"tid_t txBegin(struct super_block *sb, int flag)\n"
	"{\n"
	"\treturn lmLogSync(sb, flag);\n"
	"}\n";

/* Linux 6.1 fs/jfs/jfs_logmgr.c jfsIOWait(), trimmed: set_freezable() */
static const char jfs_iowait_61[] =
	"int jfsIOWait(void *arg)\n"
	"{\n"
	"\tstruct lbuf *bp;\n"
	"\n"
	"\tset_freezable();\n"
	"\tdo {\n"
	"\t\tspin_lock_irq(&log_redrive_lock);\n"
	"\t\tif (freezing(current)) {\n"
	"\t\t\tspin_unlock_irq(&log_redrive_lock);\n"
	"\t\t\ttry_to_freeze();\n"
	"\t\t} else {\n"
	"\t\t\tset_current_state(TASK_INTERRUPTIBLE);\n"
	"\t\t\tspin_unlock_irq(&log_redrive_lock);\n"
	"\t\t\tschedule();\n"
	"\t\t}\n"
	"\t} while (!kthread_should_stop());\n"
	"\treturn 0;\n"
	"}\n";

/* Linux 6.1 fs/jfs/super.c init_jfs_fs(), trimmed: the thread starts */
static const char jfs_init_61[] =
	"static int __init init_jfs_fs(void)\n"
	"{\n"
	"\tjfsIOthread = kthread_run(jfsIOWait, NULL, \"jfsIO\");\n"
	"\tjfsSyncThread = kthread_run(jfs_sync, NULL, \"jfsSync\");\n"
	"\treturn 0;\n"
	"}\n";

/* Linux 6.12 fs/jfs/jfs_txnmgr.c jfs_sync(), trimmed: set_freezable() */
static const char jfs_sync_612[] =
	"int jfs_sync(void *arg)\n"
	"{\n"
	"\tset_freezable();\n"
	"\tdo {\n"
	"\t\tTXN_LOCK();\n"
	JFS_SYNC_SLEEP;

/* A thread t() that never calls set_freezable(), started by s(). */
#define T "static int t(void *d)\n{\n\th();\n\ttry_to_freeze();\n}\n"
#define START "void s(void) { kthread_run(t, NULL, \"t\"); }\n"

void test_nofreeze(void)
{
	static const struct {
		const char *src[3];
		const char *want, *what;
	} cases[] = {
		{ { jfs_sync_61, jfs_init_61 },
		  "freezing@15 try_to_freeze@17",
		  "6.1 jfs_sync(): started by kthread_run(), never freezable" },
		{ { jfs_sync_61, jfs_iowait_61, jfs_init_61 },
		  "freezing@15 try_to_freeze@17",
		  "6.1 jfsIOWait() calls set_freezable(): only jfs_sync() is "
		  "dead" },
		{ { jfs_sync_612, jfs_init_61 }, "",
		  "6.12 jfs_sync() calls set_freezable(): live" },
		{ { jfs_sync_61 }, "",
		  "a thread started nowhere in the unit is not known" },
		{ { T "static void h(void) { }\n" START }, "try_to_freeze@4",
		  "a thread whose callees never call set_freezable()" },
		{ { T "static void h(void) { g(); }\n"
		    "static void g(void) { set_freezable(); }\n" START }, "",
		  "a callee two calls down calls set_freezable()" },
		{ { T "static void h(void) { }\n"
		    "static void g(void) { set_freezable(); }\n" START }, "",
		  "another function that is no started thread calls "
		  "set_freezable(): a pointer may reach it" },
		{ { T "static void h(void) { kthread_worker_fn(w); }\n" START },
		  "", "kthread_worker_fn() makes a KTW_FREEZABLE worker's "
		  "thread freezable" },
		{ { T "static void h(void) { current->flags &= ~PF_NOFREEZE; }\n"
		    START }, "",
		  "a callee clears PF_NOFREEZE by hand" },
		{ { T "#define H() set_freezable()\n"
		    "static void h(void) { }\n" START }, "",
		  "a macro of the unit holds set_freezable()" },
		{ { T "static void h(void) { }\n" START
		    "long ioctl(void) { return t(NULL); }\n" }, "",
		  "also called directly: it may run in a user task" },
		{ { T "static void h(void) { }\n" START
		    "static const struct ops o = { .fn = t };\n" }, "",
		  "also in an initializer: other callers" },
		{ { T "static void h(void) { }\n" START
		    "void r(void) { x->fn = t; }\n" }, "",
		  "also handed to something that does not start it" },
		{ { "static int t(void *d)\n{\n\th();\n"
		    "\tq = alloc_workqueue(\"q\", WQ_FREEZABLE, 0);\n"
		    "\twhile (!kthread_freezable_should_stop(NULL))\n"
		    "\t\tschedule();\n}\n"
		    "static void h(void) { }\n" START },
		  "kthread_freezable_should_stop@5",
		  "a workqueue's flag is the workqueue's, not the thread's; "
		  "kthread_freezable_should_stop() makes nothing freezable" },
		{ { "static int t(void *d)\n{\n\tset_freezable();\n"
		    "\ttry_to_freeze();\n}\n"
		    "static int u(void *d)\n{\n\ttry_to_freeze();\n}\n"
		    "void s(void) { kthread_run(t, NULL, \"t\");\n"
		    "\tkthread_run(u, NULL, \"u\"); }\n" },
		  "try_to_freeze@8",
		  "of two threads, the one that never calls "
		  "set_freezable()" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = 0;

		while (n < 3 && cases[i].src[n])
			n++;
		check_str(dead_uses(cases[i].src, n), cases[i].want,
			  cases[i].what);
	}
}
