// SPDX-License-Identifier: LGPL-2.1
/* Trimmed from fs/smb/client/cifsfs.c (Linux 6.1). */
static const struct super_operations cifs_super_ops = {
	.statfs = cifs_statfs,
};

struct file_system_type cifs_fs_type = {
	.owner = THIS_MODULE,
	.name = "cifs",
	.init_fs_context = smb3_init_fs_context,
	.kill_sb = cifs_kill_sb,
	.fs_flags = FS_RENAME_DOES_D_MOVE,
};

static int __init
init_cifs(void)
{
	cifsiod_wq = alloc_workqueue("cifsiod", WQ_FREEZABLE|WQ_MEM_RECLAIM, 0);
	return 0;
}
