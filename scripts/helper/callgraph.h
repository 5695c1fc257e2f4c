/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callgraph.h - which functions of a unit run only in its kernel threads.
 */
#ifndef AF_CALLGRAPH_H
#define AF_CALLGRAPH_H

#include "analyze.h"
#include "util.h"

/*
 * Add to KTHREADS, the thread functions of the unit made of FILES[0..N),
 * every function of the unit that only they reach (see callgraph.c);
 * with VIA, map each one added to a caller it is reached from (the
 * first found, nearest a thread).  Files not read in full (no
 * functions) add nothing.
 */
void thread_callees(struct file_info **files, size_t n,
		    struct strset *kthreads, struct hmap *via);

#endif /* AF_CALLGRAPH_H */
