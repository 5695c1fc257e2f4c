// SPDX-License-Identifier: GPL-2.0
/* Trimmed from fs/ext4/super.c (Linux 6.1). */
#include <linux/kthread.h>

static struct file_system_type ext4_fs_type;

static int ext4_lazyinit_thread(void *arg)
{
	unsigned long next_wakeup;

	set_freezable();
cont_thread:
	while (true) {
		try_to_freeze();
		if (kthread_should_stop())
			goto exit_thread;
		if (sb_start_write_trylock(elr->lr_super)) {
			progress = 1;
			err = ext4_run_li_request(elr);
			sb_end_write(elr->lr_super);
		}
		schedule_timeout_interruptible(next_wakeup - jiffies);
	}
exit_thread:
	return 0;
}

static int ext4_run_lazyinit_thread(void)
{
	ext4_lazyinit_task = kthread_run(ext4_lazyinit_thread,
					 ext4_li_info, "ext4lazyinit");
	return 0;
}

static const struct super_operations ext4_sops = {
	.alloc_inode	= ext4_alloc_inode,
	.freeze_fs	= ext4_freeze,
	.unfreeze_fs	= ext4_unfreeze,
};

static int __ext4_fill_super(struct fs_context *fc, struct super_block *sb)
{
	sb->s_op = &ext4_sops;
	return 0;
}

static int ext4_fill_super(struct super_block *sb, struct fs_context *fc)
{
	return __ext4_fill_super(fc, sb);
}

static int ext4_get_tree(struct fs_context *fc)
{
	return get_tree_bdev(fc, ext4_fill_super);
}

static const struct fs_context_operations ext4_context_ops = {
	.parse_param	= ext4_parse_param,
	.get_tree	= ext4_get_tree,
};

static int ext4_init_fs_context(struct fs_context *fc)
{
	fc->ops = &ext4_context_ops;
	return 0;
}

static struct file_system_type ext4_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "ext4",
	.init_fs_context	= ext4_init_fs_context,
	.parameters		= ext4_param_specs,
	.kill_sb		= kill_block_super,
	.fs_flags		= FS_REQUIRES_DEV | FS_ALLOW_IDMAP,
};
