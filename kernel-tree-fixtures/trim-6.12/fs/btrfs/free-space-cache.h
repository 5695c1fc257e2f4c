/* SPDX-License-Identifier: GPL-2.0 */
/* Trimmed from linux-6.12 fs/btrfs/free-space-cache.h: btrfs_trim_interrupted() and neighbours. */
#ifndef BTRFS_FREE_SPACE_CACHE_H
#define BTRFS_FREE_SPACE_CACHE_H

#include <linux/rbtree.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/freezer.h>
#include "fs.h"

static inline bool btrfs_free_space_trimmed(struct btrfs_free_space *info)
{
	return (info->trim_state == BTRFS_TRIM_STATE_TRIMMED);
}

static inline bool btrfs_free_space_trimming_bitmap(
					    struct btrfs_free_space *info)
{
	return (info->trim_state == BTRFS_TRIM_STATE_TRIMMING);
}

static inline bool btrfs_trim_interrupted(void)
{
	return fatal_signal_pending(current) || freezing(current);
}

#endif
