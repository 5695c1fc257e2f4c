// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trimmed from fs/jfs/jfs_logmgr.c (Linux 6.1): jfsIOWait(), which calls
 * set_freezable().
 */
#include <linux/freezer.h>

int jfsIOWait(void *arg)
{
	struct lbuf *bp;

	set_freezable();
	do {
		spin_lock_irq(&log_redrive_lock);
		while ((bp = log_redrive_list)) {
			log_redrive_list = bp->l_redrive_next;
			bp->l_redrive_next = NULL;
			spin_unlock_irq(&log_redrive_lock);
			lbmStartIO(bp);
			spin_lock_irq(&log_redrive_lock);
		}

		if (freezing(current)) {
			spin_unlock_irq(&log_redrive_lock);
			try_to_freeze();
		} else {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(&log_redrive_lock);
			schedule();
		}
	} while (!kthread_should_stop());

	return 0;
}
