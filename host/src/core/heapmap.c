/*
 * heapmap.c -- the allocated blocks of a target's heap (heapmap.h), in the
 * C library's tsearch tree.
 */
#include "heapmap.h"

#include <search.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct heap_block *)a)->addr, y = ((const struct heap_block *)b)->addr;

	return x < y ? -1 : x > y;
}

void heapmap_init(struct heapmap *m)
{
	m->root = NULL;
	m->n = 0;
	m->bytes = 0;
	m->dropped = 0;
}

void heapmap_clear(struct heapmap *m)
{
	tdestroy(m->root, free);
	heapmap_init(m);
}

int heapmap_add(struct heapmap *m, const struct heap_block *b)
{
	struct heap_block *k, **slot;

	if (heapmap_remove(m, b->addr, NULL) == 0 && m->n >= HEAPMAP_MAX) {
		m->dropped++;
		return -1;
	}
	k = malloc(sizeof(*k));
	if (!k) {
		m->dropped++;
		return -1;
	}
	*k = *b;
	slot = tsearch(k, &m->root, cmp);
	if (!slot) {
		free(k);
		m->dropped++;
		return -1;
	}
	m->n++;
	m->bytes += b->size;
	return 0;
}

int heapmap_remove(struct heapmap *m, uint64_t addr, struct heap_block *out)
{
	struct heap_block key = { .addr = addr }, **slot = tfind(&key, &m->root, cmp), *b;

	if (!slot)
		return 0;
	b = *slot;
	tdelete(&key, &m->root, cmp);
	m->n--;
	m->bytes -= b->size;
	if (out)
		*out = *b;
	free(b);
	return 1;
}

struct each_ctx {
	void (*fn)(const struct heap_block *b, void *ctx);
	void *ctx;
};

static void visit(const void *node, VISIT which, void *arg)
{
	const struct each_ctx *e = arg;

	if (which == postorder || which == leaf)
		e->fn(*(const struct heap_block *const *)node, e->ctx);
}

void heapmap_each(const struct heapmap *m, void (*fn)(const struct heap_block *b, void *ctx), void *ctx)
{
	struct each_ctx e = { fn, ctx };

	twalk_r(m->root, visit, &e);
}
