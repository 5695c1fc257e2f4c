/* Trimmed from linux-6.1 fs/nfs/nfs4proc.c: nfs4_delay_killable(), nfs4_delay_interruptible(). */
#include <linux/mm.h>
#include <linux/delay.h>
#include <linux/sunrpc/clnt.h>
#include <linux/nfs_fs.h>
#include <linux/freezer.h>

#include "nfs4_fs.h"

static int nfs4_delay_killable(long *timeout)
{
	might_sleep();

	if (unlikely(nfs_current_task_exiting()))
		return -EINTR;
	__set_current_state(TASK_KILLABLE|TASK_FREEZABLE_UNSAFE);
	schedule_timeout(nfs4_update_delay(timeout));
	if (!__fatal_signal_pending(current))
		return 0;
	return -EINTR;
}

static int nfs4_delay_interruptible(long *timeout)
{
	might_sleep();

	if (unlikely(nfs_current_task_exiting()))
		return -EINTR;
	__set_current_state(TASK_INTERRUPTIBLE|TASK_FREEZABLE_UNSAFE);
	schedule_timeout(nfs4_update_delay(timeout));
	if (!signal_pending(current))
		return 0;
	return __fatal_signal_pending(current) ? -EINTR :-ERESTARTSYS;
}
