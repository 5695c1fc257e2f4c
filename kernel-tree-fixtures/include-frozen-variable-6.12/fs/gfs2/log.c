// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from linux-6.12 fs/gfs2/log.c: __gfs2_log_flush(), gfs2_logd(). */
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/freezer.h>

#include "gfs2.h"
#include "incore.h"
#include "log.h"

static void __gfs2_log_flush(struct gfs2_sbd *sdp, struct gfs2_glock *gl,
			     u32 flags)
{
	struct gfs2_trans *tr = NULL;
	unsigned int reserved_blocks = 0, used_blocks = 0;
	bool frozen = test_bit(SDF_FROZEN, &sdp->sd_flags);
	unsigned int first_log_head;
	unsigned int reserved_revokes = 0;

	/* ... */

	if (flags & GFS2_LOG_HEAD_FLUSH_SHUTDOWN)
		clear_bit(SDF_JOURNAL_LIVE, &sdp->sd_flags);

	if (unlikely(frozen))
		if (gfs2_assert_withdraw_delayed(sdp, !reserved_revokes))
			goto out_withdraw;
	/* ... */

out_withdraw:
	return;
}

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

	set_freezable();
	while (!kthread_should_stop()) {
		if (gfs2_withdrawing_or_withdrawn(sdp))
			break;

		/* Check for errors writing to the journal */
		if (sdp->sd_log_error) {
			gfs2_lm(sdp,
				"GFS2: fsid=%s: error %d: "
				"withdrawing the file system to "
				"prevent further damage.\n",
				sdp->sd_fsname, sdp->sd_log_error);
			gfs2_withdraw(sdp);
			break;
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

		t = wait_event_freezable_timeout(sdp->sd_logd_waitq,
				test_bit(SDF_FORCE_AIL_FLUSH, &sdp->sd_flags) ||
				gfs2_ail_flush_reqd(sdp) ||
				gfs2_jrnl_flush_reqd(sdp) ||
				sdp->sd_log_error ||
				gfs2_withdrawing_or_withdrawn(sdp) ||
				kthread_should_stop(),
				t);
	}

	if (gfs2_withdrawing(sdp))
		gfs2_withdraw(sdp);

	return 0;
}
