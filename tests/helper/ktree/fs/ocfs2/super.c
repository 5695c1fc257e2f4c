// SPDX-License-Identifier: GPL-2.0-or-later
/* Trimmed from fs/ocfs2/super.c (Linux 6.1): no .freeze_fs. */
static const struct super_operations ocfs2_sops = {
	.statfs		= ocfs2_statfs,
	.sync_fs	= ocfs2_sync_fs,
	.put_super	= ocfs2_put_super,
};

static int ocfs2_fill_super(struct super_block *sb, void *data, int silent)
{
	sb->s_op = &ocfs2_sops;
	return 0;
}

static struct dentry *ocfs2_mount(struct file_system_type *fs_type,
			int flags, const char *dev_name, void *data)
{
	return mount_bdev(fs_type, flags, dev_name, data, ocfs2_fill_super);
}

static struct file_system_type ocfs2_fs_type = {
	.owner          = THIS_MODULE,
	.name           = "ocfs2",
	.mount          = ocfs2_mount,
	.kill_sb        = kill_block_super,
	.fs_flags       = FS_REQUIRES_DEV|FS_RENAME_DOES_D_MOVE,
	.next           = NULL
};
