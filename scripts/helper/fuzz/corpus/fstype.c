/* cut from fs/xfs/xfs_super.c */
static const struct super_operations xfs_super_operations = {
	.freeze_fs		= xfs_fs_freeze,
};
static struct file_system_type xfs_fs_type = {
	.name			= "xfs",
	.init_fs_context	= xfs_init_fs_context,
	.fs_flags		= FS_REQUIRES_DEV | FS_ALLOW_IDMAP,
};
