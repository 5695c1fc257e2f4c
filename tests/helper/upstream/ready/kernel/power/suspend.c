// SPDX-License-Identifier: GPL-2.0
/*
 * Trimmed from linux-7.3 kernel/power/suspend.c with patches/linux-mainline/
 * applied: suspend fails when a filesystem that opted in fails to freeze.
 */
static int suspend_prepare(suspend_state_t state)
{
	int error;

	if (!sleep_state_supported(state))
		return -EPERM;

	pm_prepare_console();

	error = pm_notifier_call_chain_robust(PM_SUSPEND_PREPARE, PM_POST_SUSPEND);
	if (error)
		goto Restore;

	error = filesystems_freeze(filesystem_freeze_enabled);
	if (!error) {
		trace_suspend_resume(TPS("freeze_processes"), 0, true);
		error = suspend_freeze_processes();
		trace_suspend_resume(TPS("freeze_processes"), 0, false);
		if (!error)
			return 0;
	}

	dpm_save_failed_step(SUSPEND_FREEZE);
	filesystems_thaw();
	pm_notifier_call_chain(PM_POST_SUSPEND);
 Restore:
	pm_restore_console();
	return error;
}
