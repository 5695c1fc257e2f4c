// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-7.3 kernel/power/hibernate.c with
 * patches/linux-mainline/ applied: hibernate() up to the freeze of tasks.
 */
int hibernate(void)
{
	int error;

	error = pm_sleep_fs_sync();
	if (error)
		goto Notify;

	error = filesystems_freeze(filesystem_freeze_enabled);
	if (!error)
		error = freeze_processes();
	if (error)
		goto Exit;
	/* ... */
 Exit:
	filesystems_thaw();
 Notify:
	pm_notifier_call_chain(PM_POST_HIBERNATION);
	return error;
}
