// SPDX-License-Identifier: GPL-2.0-or-later
/* Trimmed from fs/jfs/jfs_txnmgr.c (Linux 6.1): no set_freezable(). */
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

int jfs_sync(void *arg)
{
	struct inode *ip;
	struct jfs_inode_info *jfs_ip;
	tid_t tid;

	do {
		TXN_LOCK();
		while (jfs_tlocks_low && !list_empty(&TxAnchor.anon_list)) {
			jfs_ip = list_entry(TxAnchor.anon_list.next,
					    struct jfs_inode_info,
					    anon_inode_list);
			ip = &jfs_ip->vfs_inode;
			TXN_UNLOCK();
			tid = txBegin(ip->i_sb, COMMIT_INODE);
			txCommit(tid, 1, &ip, 0);
			txEnd(tid);
			TXN_LOCK();
		}

		if (freezing(current)) {
			TXN_UNLOCK();
			try_to_freeze();
		} else {
			set_current_state(TASK_INTERRUPTIBLE);
			TXN_UNLOCK();
			schedule();
		}
	} while (!kthread_should_stop());

	return 0;
}
