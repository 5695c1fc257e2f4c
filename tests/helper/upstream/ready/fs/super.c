// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-7.3 fs/super.c with patches/linux-mainline/
 * applied: upstream's suspend freeze, which freezes the types that carry
 * FS_POWER_FREEZE, fails on their failed freeze and thaws only what it
 * froze.  fake_ktree (tests/lib.sh) puts it in a fixture tree of a
 * version we ship no core series for.
 */
static const char *filesystems_freeze_ptr = "filesystems_freeze";

struct filesystems_freeze_state {
	bool freeze_all;
	int error;
};

static void filesystems_freeze_callback(struct super_block *sb, void *arg)
{
	struct filesystems_freeze_state *state = arg;
	int error;

	if (state->error)
		return;

	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)
		return;

	if (!state->freeze_all && !(sb->s_type->fs_flags & FS_POWER_FREEZE))
		return;

	if (!get_active_super(sb))
		return;

	if (sb->s_op->freeze_super)
		error = sb->s_op->freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
					       filesystems_freeze_ptr);
	else
		error = freeze_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
				     filesystems_freeze_ptr);

	/*
	 * A type that carries FS_POWER_FREEZE relies on this freeze to
	 * quiesce its kernel threads and workqueues, so it must not go
	 * unfrozen.  Freezing any other type is best effort.
	 */
	if (error && (sb->s_type->fs_flags & FS_POWER_FREEZE)) {
		pr_err("VFS: %s (%s): freeze for system sleep failed: %d\n",
		       sb->s_type->name, sb->s_id, error);
		state->error = error;
	}

	deactivate_super(sb);
}

/**
 * filesystems_freeze - freeze filesystems for system sleep
 * @freeze_all: freeze every filesystem that can be frozen, not only the
 *	types that carry %FS_POWER_FREEZE
 *
 * Return: 0, or the error of a type that carries %FS_POWER_FREEZE and
 * failed to freeze; then every filesystem this call froze is thawed.
 */
int filesystems_freeze(bool freeze_all)
{
	struct filesystems_freeze_state state = { .freeze_all = freeze_all };

	__iterate_supers(filesystems_freeze_callback, &state,
			 SUPER_ITER_UNLOCKED | SUPER_ITER_REVERSE);
	if (state.error)
		filesystems_thaw();
	return state.error;
}

static void filesystems_thaw_callback(struct super_block *sb, void *unused)
{
	bool active = false;

	if (!sb->s_op->freeze_fs && !sb->s_op->freeze_super)
		return;

	/*
	 * Thaw only what filesystems_freeze() froze: a superblock it passed
	 * over may still be frozen by userspace, and that freeze is not ours
	 * to end.
	 */
	if (!super_lock_excl(sb))
		return;
	if (sb->s_writers.freeze_owner == filesystems_freeze_ptr)
		active = atomic_inc_not_zero(&sb->s_active);
	super_unlock_excl(sb);
	if (!active)
		return;

	if (sb->s_op->thaw_super)
		sb->s_op->thaw_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
				     filesystems_freeze_ptr);
	else
		thaw_super(sb, FREEZE_EXCL | FREEZE_HOLDER_KERNEL,
			   filesystems_freeze_ptr);

	deactivate_super(sb);
}

void filesystems_thaw(void)
{
	__iterate_supers(filesystems_thaw_callback, NULL, SUPER_ITER_UNLOCKED);
}

