// SPDX-License-Identifier: GPL-2.0
/*
 * api.c - the table of kthread freezer API names: what makes a task
 * freezable or tests for the freezer (API_TASK), and the freezable
 * workqueues and workers (API_WQ); with the lookup of the lexer's
 * identifiers in it.
 *
 * A CALL is only a use when the name is followed by "(": "frozen" is also
 * a common variable and struct member name (sb->s_writers.frozen).
 */
#include <pthread.h>
#include <string.h>

#include "api.h"
#include "util.h"

const struct freezer_api freezer_apis[] = {
	{ "set_freezable",				API_CALL,   API_TASK },
	{ "try_to_freeze",				API_CALL,   API_TASK },
	{ "freezing",					API_CALL,   API_TASK },
	{ "frozen",					API_CALL,   API_TASK },
	{ "__refrigerator",				API_CALL,   API_TASK },
	{ "freezer_active",				API_OBJECT, API_TASK },
	{ "freezable_schedule",				API_CALL,   API_TASK },
	{ "freezable_schedule_unsafe",			API_CALL,   API_TASK },
	{ "freezable_schedule_timeout",			API_CALL,   API_TASK },
	{ "freezable_schedule_timeout_interruptible",	API_CALL,   API_TASK },
	{ "freezable_schedule_timeout_interruptible_unsafe",
							API_CALL,   API_TASK },
	{ "freezable_schedule_timeout_killable",	API_CALL,   API_TASK },
	{ "freezable_schedule_timeout_killable_unsafe",	API_CALL,   API_TASK },
	{ "freezable_schedule_hrtimeout_range",		API_CALL,   API_TASK },
	{ "freezer_do_not_count",			API_CALL,   API_TASK },
	{ "freezer_count",				API_CALL,   API_TASK },
	{ "wait_event_freezable",			API_CALL,   API_TASK },
	{ "wait_event_freezable_timeout",		API_CALL,   API_TASK },
	{ "wait_event_freezable_exclusive",		API_CALL,   API_TASK },
	{ "wait_event_freezekillable_unsafe",		API_CALL,   API_TASK },
	{ "kthread_freezable_should_stop",		API_CALL,   API_TASK },
	{ "TASK_FREEZABLE",				API_OBJECT, API_TASK },
	{ "TASK_FREEZABLE_UNSAFE",			API_OBJECT, API_TASK },
	{ "WQ_FREEZABLE",				API_OBJECT, API_WQ },
	{ "create_freezable_workqueue",			API_CALL,   API_WQ },
	{ "system_freezable_wq",			API_OBJECT, API_WQ },
	{ "system_freezable_power_efficient_wq",	API_OBJECT, API_WQ },
	{ "KTW_FREEZABLE",				API_OBJECT, API_WQ },
	{ "set_freezable_with_signal",			API_CALL,   API_TASK },
	{ "kthread_wait_freezable",			API_CALL,   API_TASK },	/* bcachefs */
};

const size_t n_freezer_apis = ARRAY_SIZE(freezer_apis);

const struct thread_starter thread_starters[] = {
	{ "kthread_run", 0 },
	{ "kthread_create", 0 },
	{ "kthread_create_on_node", 0 },
	{ "kthread_run_on_cpu", 0 },
	{ "kthread_create_on_cpu", 0 },
	{ "svc_create", -1 },		/* sunrpc: threadfn is the last */
	{ "svc_create_pooled", -1 },
};

const size_t n_thread_starters = ARRAY_SIZE(thread_starters);

static struct hmap api_map;	/* name -> its freezer_apis[] entry */
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

/* Filled on first use, once, whichever thread comes first. */
static void api_init(void)
{
	size_t i;

	/* most identifiers are not API names: let them miss at once */
	hmap_reserve(&api_map, n_freezer_apis);
	for (i = 0; i < n_freezer_apis; i++) {
		const char *n = freezer_apis[i].name;

		hmap_add(&api_map, n, strlen(n), str_hash(n, strlen(n)),
			 (void *)&freezer_apis[i], NULL);
	}
}

int api_lookup(const char *s, size_t n, unsigned int h)
{
	const struct hmap_entry *e;

	pthread_once(&api_once, api_init);
	e = hmap_find(&api_map, s, n, h);
	return e ? (int)((const struct freezer_api *)e->val - freezer_apis) :
		-1;
}

int api_index(const char *name)
{
	return api_lookup(name, strlen(name), str_hash(name, strlen(name)));
}
