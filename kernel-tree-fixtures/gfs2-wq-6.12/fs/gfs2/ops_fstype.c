// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from linux-6.12 fs/gfs2/ops_fstype.c: gfs2_fill_super() (middle parts cut). */
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/module.h>

#include "gfs2.h"
#include "incore.h"
#include "super.h"

static int gfs2_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct gfs2_args *args = fc->fs_private;
	int silent = fc->sb_flags & SB_SILENT;
	struct gfs2_sbd *sdp;
	struct gfs2_holder mount_gh;
	struct address_space *mapping;
	int error;

	sdp = init_sbd(sb);
	if (!sdp) {
		pr_warn("can't alloc struct gfs2_sbd\n");
		return -ENOMEM;
	}
	sdp->sd_args = *args;

	/* (trimmed: superblock flags and inode set-up) */

	error = -ENOMEM;
	sdp->sd_glock_wq = alloc_workqueue("gfs2-glock/%s",
			WQ_MEM_RECLAIM | WQ_HIGHPRI | WQ_FREEZABLE, 0,
			sdp->sd_fsname);
	if (!sdp->sd_glock_wq)
		goto fail_iput;

	sdp->sd_delete_wq = alloc_workqueue("gfs2-delete/%s",
			WQ_MEM_RECLAIM | WQ_FREEZABLE, 0, sdp->sd_fsname);
	if (!sdp->sd_delete_wq)
		goto fail_glock_wq;

	error = gfs2_sys_fs_add(sdp);
	if (error)
		goto fail_delete_wq;

	/* (trimmed: locking, journal, inode and thread set-up) */

	return 0;

fail_per_node:
	init_per_node(sdp, UNDO);
	gfs2_destroy_threads(sdp);
fail_inodes:
	init_inodes(sdp, UNDO);
fail_sb:
	if (sdp->sd_root_dir)
		dput(sdp->sd_root_dir);
	if (sdp->sd_master_dir)
		dput(sdp->sd_master_dir);
	if (sb->s_root)
		dput(sb->s_root);
	sb->s_root = NULL;
fail_locking:
	init_locking(sdp, &mount_gh, UNDO);
fail_lm:
	complete_all(&sdp->sd_journal_ready);
	gfs2_gl_hash_clear(sdp);
	gfs2_lm_unmount(sdp);
fail_debug:
	gfs2_delete_debugfs_file(sdp);
	gfs2_sys_fs_del(sdp);
fail_delete_wq:
	destroy_workqueue(sdp->sd_delete_wq);
fail_glock_wq:
	if (sdp->sd_glock_wq)
		destroy_workqueue(sdp->sd_glock_wq);
fail_iput:
	iput(sdp->sd_inode);
fail_free:
	free_sbd(sdp);
	return error;
}
