// SPDX-License-Identifier: GPL-2.0-only
/* Trimmed from linux-6.1 drivers/mmc/core/core.c: mmc_schedule_delayed_work() (same code in 6.12). */
#include <linux/module.h>
#include <linux/device.h>

static int mmc_schedule_delayed_work(struct delayed_work *work,
				     unsigned long delay)
{
	/*
	 * We use the system_freezable_wq, because of two reasons.
	 * First, it allows several works (not the same work item) to be
	 * executed simultaneously. Second, the queue becomes frozen when
	 * userspace becomes frozen during system PM.
	 */
	return queue_delayed_work(system_freezable_wq, work, delay);
}
