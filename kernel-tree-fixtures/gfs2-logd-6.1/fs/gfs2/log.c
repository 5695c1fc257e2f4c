// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from linux-6.1 fs/gfs2/log.c: gfs2_logd(). */
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/bio.h>

#include "gfs2.h"
#include "incore.h"
#include "log.h"

/**
 * gfs2_logd - Update log tail as Active Items get flushed to in-place blocks
 * @data: Pointer to GFS2 superblock
 *
 * Also, periodically check to make sure that we're using the most recent
 * journal index.
 */

int gfs2_logd(void *data)
{
	struct gfs2_sbd *sdp = data;
	unsigned long t = 1;

	while (!kthread_should_stop()) {

		if (gfs2_withdrawn(sdp)) {
			msleep_interruptible(HZ);
			continue;
		}
		/* Check for errors writing to the journal */
		if (sdp->sd_log_error) {
			gfs2_lm(sdp,
				"GFS2: fsid=%s: error %d: "
				"withdrawing the file system to "
				"prevent further damage.\n",
				sdp->sd_fsname, sdp->sd_log_error);
			gfs2_withdraw(sdp);
			continue;
		}

		if (gfs2_jrnl_flush_reqd(sdp) || t == 0) {
			down_write(&sdp->sd_log_flush_lock);
			gfs2_ail1_empty(sdp, 0);
			__gfs2_log_flush(sdp, NULL,
					 GFS2_LOG_HEAD_FLUSH_NORMAL |
					 GFS2_LFC_LOGD_JFLUSH_REQD);
			up_write(&sdp->sd_log_flush_lock);
		}

		if (test_bit(SDF_FORCE_AIL_FLUSH, &sdp->sd_flags) ||
		    gfs2_ail_flush_reqd(sdp)) {
			clear_bit(SDF_FORCE_AIL_FLUSH, &sdp->sd_flags);
			down_write(&sdp->sd_log_flush_lock);
			gfs2_ail1_start(sdp);
			gfs2_ail1_wait(sdp);
			gfs2_ail1_empty(sdp, 0);
			__gfs2_log_flush(sdp, NULL,
					 GFS2_LOG_HEAD_FLUSH_NORMAL |
					 GFS2_LFC_LOGD_AIL_FLUSH_REQD);
			up_write(&sdp->sd_log_flush_lock);
		}

		t = gfs2_tune_get(sdp, gt_logd_secs) * HZ;

		try_to_freeze();

		t = wait_event_interruptible_timeout(sdp->sd_logd_waitq,
				test_bit(SDF_FORCE_AIL_FLUSH, &sdp->sd_flags) ||
				gfs2_ail_flush_reqd(sdp) ||
				gfs2_jrnl_flush_reqd(sdp) ||
				kthread_should_stop(),
				t);
	}

	return 0;
}

