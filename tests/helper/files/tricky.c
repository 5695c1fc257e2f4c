// SPDX-License-Identifier: GPL-2.0
/*
 * tricky.c - lexing cases for "autofreeze scan", outside a kernel tree.
 * Made up, in the style of kernel code; every API name below that is
 * not in the expected output is in a comment, a literal, a member name
 * or a variable.  try_to_freeze(); set_freezable();
 */
#define WAIT_FREEZABLE(wq, c) \
	wait_event_freezable(wq, c)	/* macro: context macro */

static const char *msg = "try_to_freeze() \" set_freezable()";
static const char q = '"', a = '\'';	/* try_to_freeze() */

// a comment continued \
   try_to_freeze();

static int worker(void *data)
{
	int frozen = 0;			/* a variable, not frozen() */

	set_freez\
able();
	while (!kthread_should_stop()) {
		if (data->frozen)	/* a member */
			continue;
#if 0
		try_to_freeze();	/* under #if 0: still code */
#endif
		if (freezing(current) || frozen)
			break;
	}
	return 0;
}

static int helper_fn(void)
{
	return wait_event_freezable_timeout(wq, done, HZ);
}

static void start(void)
{
	kthread_run(worker, NULL, "worker");
}
/* unterminated at the end: set_freezable() 