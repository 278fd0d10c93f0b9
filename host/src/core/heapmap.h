/*
 * heapmap.h -- the blocks of a target's heap that are allocated, by
 * address: what the Sonde decoder needs to tell the heap in use after each
 * allocation and free (a free does not always say its size: FreeRTOS's
 * heap_3 says 0), and what `sonde stats` lists as still allocated at the
 * end (address, size, the task that allocated it, when).
 *
 * A balanced tree of the C library (tsearch): no hand-written container.
 * Bounded: beyond HEAPMAP_MAX blocks (a trace whose frees were lost) new
 * blocks are counted, not kept.
 */
#ifndef SONDE_HEAPMAP_H
#define SONDE_HEAPMAP_H

#include <stddef.h>
#include <stdint.h>

#define HEAPMAP_MAX (1u << 20)

struct heap_block {
	uint64_t addr;
	uint64_t size;
	uint64_t ts;      /* when it was allocated */
	uint64_t task;    /* who allocated it (a task id, or the caller's own code) */
	uint32_t core;
};

struct heapmap {
	void *root;       /* tsearch tree of struct heap_block */
	size_t n;         /* blocks kept */
	uint64_t bytes;   /* their sizes added up: the heap in use */
	uint64_t dropped; /* blocks not kept (HEAPMAP_MAX) */
};

void heapmap_init(struct heapmap *m);
void heapmap_clear(struct heapmap *m);

/* A block is allocated.  One already kept at its address (its free was
 * lost) is replaced.  Returns 0, -1 when it could not be kept. */
int heapmap_add(struct heapmap *m, const struct heap_block *b);

/* The block at addr is freed: 1 and *out (may be NULL) its record, 0 when
 * no block is kept there. */
int heapmap_remove(struct heapmap *m, uint64_t addr, struct heap_block *out);

/* Every block kept, in address order. */
void heapmap_each(const struct heapmap *m, void (*fn)(const struct heap_block *b, void *ctx), void *ctx);

#endif /* SONDE_HEAPMAP_H */
