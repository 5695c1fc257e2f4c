// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from linux-6.1 fs/gfs2/super.c: gfs2_freeze_super(). */
#include <linux/bio.h>
#include <linux/sched/signal.h>

#include "gfs2.h"
#include "incore.h"
#include "super.h"

/**
 * gfs2_freeze_super - prevent further writes to the filesystem
 * @sb: the VFS structure for the filesystem
 *
 */

static int gfs2_freeze_super(struct super_block *sb)
{
	struct gfs2_sbd *sdp = sb->s_fs_info;
	int error;

	if (!mutex_trylock(&sdp->sd_freeze_mutex))
		return -EBUSY;
	error = -EBUSY;
	if (atomic_read(&sdp->sd_freeze_state) != SFS_UNFROZEN)
		goto out;

	for (;;) {
		error = gfs2_freeze_locally(sdp);
		if (error) {
			fs_info(sdp, "GFS2: couldn't freeze filesystem: %d\n",
				error);
			goto out;
		}

		error = gfs2_lock_fs_check_clean(sdp);
		if (!error)
			break;  /* success */

		(void)gfs2_do_thaw(sdp);

		if (error == -EBUSY)
			fs_err(sdp, "waiting for recovery before freeze\n");
		else if (error == -EIO) {
			fs_err(sdp, "Fatal IO error: cannot freeze gfs2 due "
			       "to recovery error.\n");
			goto out;
		} else {
			fs_err(sdp, "error freezing FS: %d\n", error);
		}
		fs_err(sdp, "retrying...\n");
		msleep(1000);
	}

out:
	if (!error) {
		set_bit(SDF_FREEZE_INITIATOR, &sdp->sd_flags);
		atomic_set(&sdp->sd_freeze_state, SFS_FROZEN);
	}
	mutex_unlock(&sdp->sd_freeze_mutex);
	return error;
}
