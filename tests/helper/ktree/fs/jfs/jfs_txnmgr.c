// SPDX-License-Identifier: GPL-2.0-or-later
/* Trimmed from fs/jfs/jfs_txnmgr.c (Linux 6.1). */
#include <linux/freezer.h>

int jfs_lazycommit(void *arg)
{
	int WorkDone;
	unsigned long flags;

	do {
		LAZY_LOCK(flags);
		jfs_commit_thread_waking = 0;

		if (freezing(current)) {
			LAZY_UNLOCK(flags);
			try_to_freeze();
		} else {
			DECLARE_WAITQUEUE(wq, current);

			add_wait_queue(&jfs_commit_thread_wait, &wq);
			set_current_state(TASK_INTERRUPTIBLE);
			LAZY_UNLOCK(flags);
			schedule();
			remove_wait_queue(&jfs_commit_thread_wait, &wq);
		}
	} while (!kthread_should_stop());

	return 0;
}
