// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-6.1 fs/super.c with the core series applied
 * (patches/linux-6.1/0006): the suspend freeze of the types that carry
 * FS_AUTOFREEZE, which is how the helper knows the tree carries it, and
 * the write freeze of freeze_super(), which ext4's judgment rests on.
 */
static bool super_should_freeze(struct super_block *sb)
{
	if (!(sb->s_type->fs_flags & FS_AUTOFREEZE))
		return false;
	/*
	 * We don't freeze virtual filesystems, we skip those filesystems with
	 * no backing device.
	 */
	if (sb->s_bdi == &noop_backing_dev_info)
		return false;
	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)
		return false;

	return true;
}

static int fs_suspend_freeze_sb(struct super_block *sb, void *unused)
{
	int error;

	if (!super_should_freeze(sb))
		return 0;

	/* Frozen by userspace (or by the filesystem itself): leave it be. */
	if (sb_is_frozen(sb)) {
		pr_info("%s (%s): already frozen, leaving it alone\n",
			sb->s_type->name, sb->s_id);
		return 0;
	}

	pr_info("%s (%s): freezing\n", sb->s_type->name, sb->s_id);
	error = freeze_super(sb, false);
	if (error)
		pr_notice("%s (%s): unable to freeze, error=%d\n",
			  sb->s_type->name, sb->s_id, error);
	return error;
}

int freeze_super(struct super_block *sb, bool usercall)
{
	sb->s_writers.frozen = SB_FREEZE_WRITE;
	/* Release s_umount to preserve sb_start_write -> s_umount ordering */
	up_write(&sb->s_umount);
	sb_wait_write(sb, SB_FREEZE_WRITE);
	down_write(&sb->s_umount);

	/* Now we go and block page faults... */
	sb->s_writers.frozen = SB_FREEZE_PAGEFAULT;
	sb_wait_write(sb, SB_FREEZE_PAGEFAULT);

	/* All writers are done so after syncing there won't be dirty data */
	sync_filesystem(sb);
	return 0;
}
