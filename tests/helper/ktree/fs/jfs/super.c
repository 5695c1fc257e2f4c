// SPDX-License-Identifier: GPL-2.0-or-later
/* Trimmed from fs/jfs/super.c (Linux 6.1). */
#include <linux/kthread.h>

static const struct super_operations jfs_super_operations = {
	.alloc_inode	= jfs_alloc_inode,
	.freeze_fs	= jfs_freeze,
	.unfreeze_fs	= jfs_unfreeze,
};

static int jfs_fill_super(struct super_block *sb, void *data, int silent)
{
	sb->s_op = &jfs_super_operations;
	return 0;
}

static struct dentry *jfs_do_mount(struct file_system_type *fs_type,
	int flags, const char *dev_name, void *data)
{
	return mount_bdev(fs_type, flags, dev_name, data, jfs_fill_super);
}

static struct file_system_type jfs_fs_type = {
	.owner		= THIS_MODULE,
	.name		= "jfs",
	.mount		= jfs_do_mount,
	.kill_sb	= kill_block_super,
	.fs_flags	= FS_REQUIRES_DEV,
};

static int __init init_jfs_fs(void)
{
	int i;

	jfsIOthread = kthread_run(jfsIOWait, NULL, "jfsIO");
	if (IS_ERR(jfsIOthread))
		return PTR_ERR(jfsIOthread);

	for (i = 0; i < commit_threads; i++) {
		jfsCommitThread[i] = kthread_run(jfs_lazycommit, NULL,
						 "jfsCommit");
		if (IS_ERR(jfsCommitThread[i]))
			goto kill_committask;
	}

	jfsSyncThread = kthread_run(jfs_sync, NULL, "jfsSync");
	if (IS_ERR(jfsSyncThread))
		goto kill_committask;
	return 0;
kill_committask:
	return -1;
}
