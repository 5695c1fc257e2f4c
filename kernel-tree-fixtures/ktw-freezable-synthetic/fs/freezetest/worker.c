// SPDX-License-Identifier: GPL-2.0
/* Synthetic minimal kthread_worker user (no user of this flag exists in linux-6.1 or linux-6.12). */
#include <linux/kthread.h>

static struct kthread_worker *ft_worker;
static struct kthread_worker *ft_rt_worker;

int ft_init_workers(void)
{
	ft_worker = kthread_create_worker(KTW_FREEZABLE, "ft-worker");
	if (IS_ERR(ft_worker))
		return PTR_ERR(ft_worker);

	ft_rt_worker = kthread_create_worker(0, "ft-rt-worker");
	if (IS_ERR(ft_rt_worker)) {
		kthread_destroy_worker(ft_worker);
		return PTR_ERR(ft_rt_worker);
	}
	sched_set_fifo(ft_rt_worker->task);

	return 0;
}
