// SPDX-License-Identifier: GPL-2.0
/* Trimmed from fs/coredump.c (Linux 6.1): fs (core), kept. */
#include <linux/freezer.h>

static int zap_threads(struct task_struct *tsk, int exit_code)
{
	struct signal_struct *signal = tsk->signal;
	int nr = -EAGAIN;

	/* A freeze requested before the dump would be lost with TIF_SIGPENDING. */
	if (!(signal->flags & SIGNAL_GROUP_EXIT) && !signal->group_exec_task &&
	    !freezing(tsk) && !(tsk->jobctl & JOBCTL_TRAP_FREEZE)) {
		signal->core_state = core_state;
		nr = zap_process(tsk, exit_code);
	}
	return nr;
}

static int coredump_wait(int exit_code, struct core_state *core_state)
{
	int core_waiters = -EBUSY;

	core_waiters = zap_threads(tsk, exit_code);
	if (core_waiters > 0)
		wait_for_completion_state(&core_state->startup,
					  TASK_UNINTERRUPTIBLE|TASK_FREEZABLE);
	return core_waiters;
}
