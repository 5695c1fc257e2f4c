// SPDX-License-Identifier: GPL-2.0+
/* Trimmed from linux-6.12 fs/nilfs2/segment.c: nilfs_segctor_thread(), nilfs_attach_log_writer(). */
#include <linux/pagemap.h>
#include <linux/buffer_head.h>
#include <linux/writeback.h>
#include <linux/bitops.h>
#include <linux/bio.h>
#include <linux/completion.h>
#include <linux/blkdev.h>
#include <linux/backing-dev.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/crc32.h>
#include <linux/pagevec.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "nilfs.h"
#include "btnode.h"
#include "page.h"
#include "segment.h"

/**
 * nilfs_segctor_thread - main loop of the log writer thread
 * @arg: pointer to a struct nilfs_sc_info.
 *
 * nilfs_segctor_thread() is the main loop function of the log writer kernel
 * thread, which determines whether log writing is necessary, and if so,
 * performs the log write in the background, or waits if not.  It is also
 * used to decide the background writeback of the superblock.
 *
 * Return: Always 0.
 */
static int nilfs_segctor_thread(void *arg)
{
	struct nilfs_sc_info *sci = (struct nilfs_sc_info *)arg;
	struct the_nilfs *nilfs = sci->sc_super->s_fs_info;

	nilfs_info(sci->sc_super,
		   "segctord starting. Construction interval = %lu seconds, CP frequency < %lu seconds",
		   sci->sc_interval / HZ, sci->sc_mjcp_freq / HZ);

	set_freezable();

	while (!kthread_should_stop()) {
		DEFINE_WAIT(wait);
		bool should_write;
		int mode;

		if (freezing(current)) {
			try_to_freeze();
			continue;
		}

		prepare_to_wait(&sci->sc_wait_daemon, &wait,
				TASK_INTERRUPTIBLE);
		should_write = nilfs_log_write_required(sci, &mode);
		if (!should_write)
			schedule();
		finish_wait(&sci->sc_wait_daemon, &wait);

		if (nilfs_sb_dirty(nilfs) && nilfs_sb_need_update(nilfs))
			set_nilfs_discontinued(nilfs);

		if (should_write)
			nilfs_segctor_thread_construct(sci, mode);
	}

	/* end sync. */
	spin_lock(&sci->sc_state_lock);
	sci->sc_task = NULL;
	timer_shutdown_sync(&sci->sc_timer);
	spin_unlock(&sci->sc_state_lock);
	return 0;
}

/**
 * nilfs_attach_log_writer - attach log writer
 * @sb: super block instance
 * @root: root object of the current filesystem tree
 *
 * This allocates a log writer object, initializes it, and starts the
 * log writer.
 *
 * Return: 0 on success, or the following negative error code on failure.
 * * %-EINTR	- Log writer thread creation failed due to interruption.
 * * %-ENOMEM	- Insufficient memory available.
 */
int nilfs_attach_log_writer(struct super_block *sb, struct nilfs_root *root)
{
	struct the_nilfs *nilfs = sb->s_fs_info;
	struct nilfs_sc_info *sci;
	struct task_struct *t;
	int err;

	if (nilfs->ns_writer) {
		/*
		 * This happens if the filesystem is made read-only by
		 * __nilfs_error or nilfs_remount and then remounted
		 * read/write.  In these cases, reuse the existing
		 * writer.
		 */
		return 0;
	}

	sci = nilfs_segctor_new(sb, root);
	if (unlikely(!sci))
		return -ENOMEM;

	nilfs->ns_writer = sci;
	t = kthread_create(nilfs_segctor_thread, sci, "segctord");
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
		nilfs_err(sb, "error %d creating segctord thread", err);
		nilfs_detach_log_writer(sb);
		return err;
	}
	sci->sc_task = t;
	timer_setup(&sci->sc_timer, nilfs_construction_timeout, 0);

	wake_up_process(sci->sc_task);
	return 0;
}
