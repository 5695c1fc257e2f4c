// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trimmed from fs/nfs/inode.c (Linux 5.15, before 6.1): the old
 * freezable_schedule_unsafe(), in a wait user tasks make.
 */
int nfs_wait_bit_killable(struct wait_bit_key *key, int mode)
{
	freezable_schedule_unsafe();
	if (signal_pending_state(mode, current))
		return -ERESTARTSYS;
	return 0;
}
