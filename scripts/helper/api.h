/* SPDX-License-Identifier: GPL-2.0 */
/*
 * api.h - the kthread freezer API names autofreeze looks for, and the
 * functions that start a kernel thread.  The tables themselves are in
 * api.c: the one place to add a name.
 */
#ifndef AF_API_H
#define AF_API_H

#include <stdbool.h>
#include <stddef.h>

enum api_kind {
	API_CALL,	/* a function or function-like macro: NAME ( */
	API_OBJECT,	/* a constant, flag or variable */
};

enum api_class {
	API_TASK,	/* acts on the running task */
	API_WQ,		/* a workqueue or worker: belongs to the subsystem */
};

struct freezer_api {
	const char *name;
	enum api_kind kind;
	enum api_class class;
};

extern const struct freezer_api freezer_apis[];
extern const size_t n_freezer_apis;

/* A function whose argument ARG (-1: the last) is a thread function. */
struct thread_starter {
	const char *name;
	int arg;
};

extern const struct thread_starter thread_starters[];
extern const size_t n_thread_starters;

/* Index of the API named by S[0..N) with hash H, or -1. */
int api_lookup(const char *s, size_t n, unsigned int h);

/* Index of a name; -1 if unknown. */
int api_index(const char *name);

#endif /* AF_API_H */
