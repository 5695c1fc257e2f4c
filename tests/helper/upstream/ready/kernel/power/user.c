// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-7.3 kernel/power/user.c with patches/linux-mainline/
 * applied: /dev/snapshot freezes the filesystems at SNAPSHOT_FREEZE and
 * thaws them at SNAPSHOT_UNFREEZE and on release.
 */
static int snapshot_release(struct inode *inode, struct file *filp)
{
	struct snapshot_data *data = filp->private_data;

	if (data->frozen) {
		pm_restore_gfp_mask();
		free_basic_memory_bitmaps();
		thaw_processes();
		filesystems_thaw();
	} else if (data->free_bitmaps) {
		free_basic_memory_bitmaps();
	}
	return 0;
}

static long snapshot_ioctl(struct file *filp, unsigned int cmd,
			   unsigned long arg)
{
	struct snapshot_data *data = filp->private_data;
	int error = 0;

	switch (cmd) {

	case SNAPSHOT_FREEZE:
		if (data->frozen)
			break;

		error = pm_sleep_fs_sync();
		if (error)
			break;

		error = filesystems_freeze(filesystem_freeze_enabled);
		if (error)
			break;

		error = freeze_processes();
		if (error) {
			filesystems_thaw();
			break;
		}

		error = create_basic_memory_bitmaps();
		if (error) {
			thaw_processes();
			filesystems_thaw();
		} else {
			data->frozen = true;
		}

		break;

	case SNAPSHOT_UNFREEZE:
		if (!data->frozen || data->ready)
			break;
		pm_restore_gfp_mask();
		free_basic_memory_bitmaps();
		data->free_bitmaps = false;
		thaw_processes();
		filesystems_thaw();
		data->frozen = false;
		break;

	default:
		error = -ENOTTY;
	}
	return error;
}
