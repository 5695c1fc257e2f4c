/* SPDX-License-Identifier: GPL-2.0 */
/*
 * threads.h - the functions a file starts as kernel threads, as
 * analyze() finds them (threads.c).
 */
#ifndef AF_THREADS_H
#define AF_THREADS_H

struct analysis;

/* A thread starter of api.c called at token I: its thread function. */
void thread_start(struct analysis *an, long i);

/* ".svo_function = NAME" (struct svc_serv_ops, before 6.2) */
void svo_function(struct analysis *an, long i);

/* "threadfn = nfs41_callback_svc;" for a thread argument "threadfn" */
void thread_aliases(struct analysis *an);

#endif /* AF_THREADS_H */
