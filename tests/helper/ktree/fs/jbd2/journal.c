// SPDX-License-Identifier: GPL-2.0+
/* Trimmed from fs/jbd2/journal.c (Linux 6.1). */
#include <linux/freezer.h>

static int kjournald2(void *arg)
{
	journal_t *journal = arg;

	set_freezable();
loop:
	if (freezing(current)) {
		/*
		 * The simpler the better. Flushing journal isn't a
		 * good idea, because that depends on threads that may
		 * be already stopped.
		 */
		jbd_debug(1, "Now suspending kjournald2\n");
		write_unlock(&journal->j_state_lock);
		try_to_freeze();
		write_lock(&journal->j_state_lock);
	} else {
		DEFINE_WAIT(wait);

		prepare_to_wait(&journal->j_wait_commit, &wait,
				TASK_INTERRUPTIBLE);
		finish_wait(&journal->j_wait_commit, &wait);
	}
	goto loop;
}

static int jbd2_journal_start_thread(journal_t *journal)
{
	struct task_struct *t;

	t = kthread_run(kjournald2, journal, "jbd2/%s",
			journal->j_devname);
	return PTR_ERR_OR_ZERO(t);
}
