// SPDX-License-Identifier: GPL-2.0
/* Synthetic minimal pre-6.1 kthread (no real fs/ kthread found using these variants). */
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/hrtimer.h>

struct ft_info {
	wait_queue_head_t	wait;
	unsigned long		interval;
	bool			busy;
};

static int ft_thread(void *data)
{
	struct ft_info *fi = data;
	ktime_t expires;

	set_freezable();

	while (!kthread_should_stop()) {
		if (fi->busy) {
			freezable_schedule_timeout_killable(HZ / 10);
			continue;
		}

		if (freezable_schedule_timeout_interruptible(fi->interval))
			continue;

		expires = ktime_add_ms(ktime_get(), 100);
		set_current_state(TASK_INTERRUPTIBLE);
		freezable_schedule_hrtimeout_range(&expires, NSEC_PER_MSEC,
						   HRTIMER_MODE_ABS);
	}

	return 0;
}

int ft_start(struct ft_info *fi)
{
	struct task_struct *t;

	t = kthread_run(ft_thread, fi, "ftd");
	return PTR_ERR_OR_ZERO(t);
}
