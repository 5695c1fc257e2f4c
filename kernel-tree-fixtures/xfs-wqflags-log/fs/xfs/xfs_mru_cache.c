// SPDX-License-Identifier: GPL-2.0
/* Trimmed from linux-6.1 fs/xfs/xfs_mru_cache.c: xfs_mru_cache_init(), xfs_mru_cache_uninit(). */
#include "xfs.h"
#include "xfs_mru_cache.h"

static struct workqueue_struct	*xfs_mru_reap_wq;

int
xfs_mru_cache_init(void)
{
	xfs_mru_reap_wq = alloc_workqueue("xfs_mru_cache",
			XFS_WQFLAGS(WQ_MEM_RECLAIM | WQ_FREEZABLE), 1);
	if (!xfs_mru_reap_wq)
		return -ENOMEM;
	return 0;
}

void
xfs_mru_cache_uninit(void)
{
	destroy_workqueue(xfs_mru_reap_wq);
}
