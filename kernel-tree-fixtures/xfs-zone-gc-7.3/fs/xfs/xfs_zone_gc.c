// SPDX-License-Identifier: GPL-2.0
/* Trimmed from linux-7.3 fs/xfs/xfs_zone_gc.c: xfs_zoned_gcd(), the kthread_create() in xfs_zone_gc_mount(). */
#include "xfs.h"
#include "xfs_mount.h"
#include "xfs_zone_priv.h"

static int
xfs_zoned_gcd(
	void			*private)
{
	struct xfs_zone_gc_data	*data = private;
	struct xfs_mount	*mp = data->mp;
	struct xfs_zone_info	*zi = mp->m_zone_info;
	unsigned int		nofs_flag;

	nofs_flag = memalloc_nofs_save();
	set_freezable();

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE | TASK_FREEZABLE);
		xfs_set_zonegc_running(mp);

		xfs_zone_gc_handle_work(data);

		/*
		 * Only sleep if nothing set the state to running.  Else check for
		 * work again as someone might have queued up more work and woken
		 * us in the meantime.
		 */
		if (get_current_state() == TASK_RUNNING) {
			try_to_freeze();
			continue;
		}

		if (list_empty(&data->reading) &&
		    list_empty(&data->writing) &&
		    list_empty(&data->resetting) &&
		    !zi->zi_reset_list) {
			xfs_clear_zonegc_running(mp);
			xfs_zoned_resv_wake_all(mp);

			if (kthread_should_stop()) {
				__set_current_state(TASK_RUNNING);
				break;
			}

			if (kthread_should_park()) {
				__set_current_state(TASK_RUNNING);
				kthread_parkme();
				continue;
			}
		}

		schedule();
	}
	xfs_clear_zonegc_running(mp);

	if (data->oz)
		xfs_open_zone_put(data->oz);
	if (data->iter.victim_rtg)
		xfs_rtgroup_rele(data->iter.victim_rtg);

	memalloc_nofs_restore(nofs_flag);
	xfs_zone_gc_data_free(data);
	return 0;
}

int
xfs_zone_gc_mount(
	struct xfs_mount	*mp)
{
	struct xfs_zone_info	*zi = mp->m_zone_info;
	struct xfs_zone_gc_data	*data;

	zi->zi_gc_thread = kthread_create(xfs_zoned_gcd, data,
			"xfs-zone-gc/%s", mp->m_super->s_id);
	return 0;
}
