/* SPDX-License-Identifier: GPL-2.0 */
/* Trimmed from linux-6.1 fs/xfs/xfs_super.h: the XFS_WQFLAGS() definition. */
#ifndef __XFS_SUPER_H__
#define __XFS_SUPER_H__

#include <linux/exportfs.h>

#ifdef DEBUG
# define XFS_WQFLAGS(wqflags)	(WQ_SYSFS | (wqflags))
#else
# define XFS_WQFLAGS(wqflags)	(wqflags)
#endif

extern struct workqueue_struct *xfs_discard_wq;

#endif	/* __XFS_SUPER_H__ */
