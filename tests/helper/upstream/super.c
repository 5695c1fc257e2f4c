// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-7.3 fs/super.c: upstream's suspend freeze, which
 * freezes the types that carry FS_POWER_FREEZE, as Debian ships it,
 * without the prerequisites of patches/linux-mainline/ (ready/ has them).
 */
static const char *filesystems_freeze_ptr = "filesystems_freeze";

static void filesystems_freeze_callback(struct super_block *sb, void *freeze_all_ptr)
{
	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)
		return;

	if (!freeze_all_ptr && !(sb->s_type->fs_flags & FS_POWER_FREEZE))
		return;

	if (!get_active_super(sb))
		return;

	if (sb->s_op->freeze_super)
		sb->s_op->freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
				       filesystems_freeze_ptr);
	else
		freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
			     filesystems_freeze_ptr);

	deactivate_super(sb);
}

void filesystems_freeze(bool freeze_all)
{
	void *freeze_all_ptr = NULL;

	if (freeze_all)
		freeze_all_ptr = &freeze_all;
	__iterate_supers(filesystems_freeze_callback, freeze_all_ptr,
			 SUPER_ITER_UNLOCKED | SUPER_ITER_REVERSE);
}
