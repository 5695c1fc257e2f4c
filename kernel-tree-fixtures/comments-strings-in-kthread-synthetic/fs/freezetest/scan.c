// SPDX-License-Identifier: GPL-2.0
/* Synthetic minimal kthread whose comments and strings name the freezer API. */
#include <linux/kthread.h>
#include <linux/freezer.h>
#include <linux/workqueue.h>

static struct workqueue_struct *ft_wq;

/*
 * ft_scan_thread - background scanner.
 *
 * Historically this thread called set_freezable() and try_to_freeze(),
 * tested freezing(current) and used a WQ_FREEZABLE workqueue.
 */
static int ft_scan_thread(void *data)
{
	set_freezable();

	pr_debug("ft: started, set_freezable() done\n");

	while (!kthread_should_stop()) {
		/* try_to_freeze() used to be called here */
		if (try_to_freeze())
			continue;

		pr_debug("ft: freezing(current) is %s\n", "false");
		queue_work(ft_wq, data);	/* not WQ_FREEZABLE any more? */
		schedule_timeout_interruptible(HZ);
	}

	return 0;
}

int ft_scan_start(void)
{
	struct task_struct *t;

	ft_wq = alloc_workqueue("ft-WQ_FREEZABLE", WQ_FREEZABLE | WQ_UNBOUND, 0);
	if (!ft_wq)
		return -ENOMEM;

	t = kthread_run(ft_scan_thread, NULL, "ft-scan");
	return PTR_ERR_OR_ZERO(t);
}
