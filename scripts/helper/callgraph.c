// SPDX-License-Identifier: GPL-2.0
/*
 * callgraph.c - the functions of a unit that run only in its kernel
 * threads.
 *
 * A function defined in the unit runs only in kernel-thread context when
 * it is reached by calls from a thread function, every call to it is from
 * a thread function or from another such function, and its name is used
 * in no other way: not taken as a value (a work function given to
 * INIT_WORK(), a callback), not in an initializer (an ops table), not in
 * a macro body (whose callers are not known) and not outside a function
 * (EXPORT_SYMBOL(): callers in other units).  That is the greatest such
 * set, so that mutually recursive callees count, cut to what the threads
 * reach.
 *
 * Functions are known by name: two static functions of one name in two
 * files are one node, whose callers are those of both.  That can only
 * keep a function out of the set, never put one in wrongly.
 */
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"

struct node {
	const char *name;
	bool root;		/* a thread function */
	bool bad;		/* named other than in a call */
	bool in;		/* still a candidate */
	bool reached;
	VEC(size_t) callers, callees;
};

struct graph {
	VEC(struct node) nodes;
	struct hmap index;	/* name -> node index + 1 */
};

static long node_of(const struct graph *g, const char *name)
{
	size_t len = strlen(name);
	struct hmap_entry *e = hmap_find(&g->index, name, len,
					 str_hash(name, len));

	return e ? (long)(size_t)e->val - 1 : -1;
}

static void add_node(struct graph *g, const char *name)
{
	size_t len = strlen(name);
	struct node nd = { 0 };
	bool added = false;
	struct hmap_entry *e;

	e = hmap_add(&g->index, name, len, str_hash(name, len),
		     (void *)(g->nodes.n + 1), &added);
	if (!added)
		return;
	nd.name = name;
	vec_push(&g->nodes, nd);
	(void)e;
}

static void mark_bad(struct graph *g, const strvec *names)
{
	size_t i;

	for (i = 0; i < names->n; i++) {
		long k = node_of(g, names->v[i]);

		if (k >= 0)
			g->nodes.v[k].bad = true;
	}
}

static void build(struct graph *g, struct file_info **files, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < files[i]->funcs.n; j++)
			add_node(g, files[i]->funcs.v[j].name);
	for (i = 0; i < n; i++) {
		const struct file_info *fi = files[i];

		mark_bad(g, &fi->loose);
		for (j = 0; j < fi->objs.n; j++)
			mark_bad(g, &fi->objs.v[j].refs);
		for (j = 0; j < fi->funcs.n; j++) {
			const struct definition *d = &fi->funcs.v[j];
			size_t from = (size_t)node_of(g, d->name);

			mark_bad(g, &d->named);
			for (k = 0; k < d->calls.n; k++) {
				long to = node_of(g, d->calls.v[k]);

				if (to < 0)
					continue;
				vec_push(&g->nodes.v[to].callers, from);
				vec_push(&g->nodes.v[from].callees, (size_t)to);
			}
		}
	}
}

void thread_callees(struct file_info **files, size_t n,
		    struct strset *kthreads, struct hmap *via)
{
	struct graph g = { 0 };
	VEC(size_t) queue = { 0 };
	bool changed = true;
	size_t i, j, head = 0;

	build(&g, files, n);
	for (i = 0; i < g.nodes.n; i++) {
		struct node *nd = &g.nodes.v[i];

		nd->root = strset_has(kthreads, nd->name);
		nd->in = !nd->root && !nd->bad && nd->callers.n;
	}
	/* drop every candidate with a caller that is neither */
	while (changed) {
		changed = false;
		for (i = 0; i < g.nodes.n; i++) {
			struct node *nd = &g.nodes.v[i];

			if (!nd->in)
				continue;
			for (j = 0; j < nd->callers.n; j++) {
				const struct node *c = &g.nodes.v[nd->callers.v[j]];

				if (!c->in && !c->root) {
					nd->in = false;
					changed = true;
					break;
				}
			}
		}
	}
	for (i = 0; i < g.nodes.n; i++)
		if (g.nodes.v[i].root)
			vec_push(&queue, i);
	while (head < queue.n) {
		const struct node *nd = &g.nodes.v[queue.v[head++]];

		for (j = 0; j < nd->callees.n; j++) {
			struct node *c = &g.nodes.v[nd->callees.v[j]];

			if (!c->in || c->reached)
				continue;
			c->reached = true;
			strset_add(kthreads, c->name);
			if (via)
				hmap_add(via, c->name, strlen(c->name),
					 str_hash(c->name, strlen(c->name)),
					 (void *)nd->name, NULL);
			vec_push(&queue, nd->callees.v[j]);
		}
	}
	for (i = 0; i < g.nodes.n; i++) {
		vec_free(&g.nodes.v[i].callers);
		vec_free(&g.nodes.v[i].callees);
	}
	vec_free(&g.nodes);
	vec_free(&queue);
	hmap_free(&g.index);
}
