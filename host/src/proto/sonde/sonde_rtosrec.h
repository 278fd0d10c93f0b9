/*
 * sonde_rtosrec.h -- the Sonde decoder's RTOS records (docs/protocol.md
 * section 4.1): TASK_SWITCH, OBJ_CREATE and OBJ_OP onto the event model,
 * and the little state that needs (each object's kind and capacity, to
 * turn "items before the operation" into the level after it; the idle
 * task, whose switch-in is IDLE; a mutex's creation); HEAP_ALLOC and
 * HEAP_FREE, with the blocks allocated (for the heap in use).
 */
#ifndef SONDE_RTOSREC_H
#define SONDE_RTOSREC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "heapmap.h"

struct sdec;
struct sdec_frame;

struct srtos_obj {
	uint8_t kind;  /* SONDE_OBJK_*, 0 unknown */
	uint32_t cap;  /* capacity from OBJ_CREATE, 0 unknown */
	uint8_t fresh; /* a mutex created now, no operation yet: its first give
			* is the kernel's, inside the creation */
};

struct srtos {
	struct srtos_obj obj[256];
	int idle;      /* object id of the idle task, -1 unknown */
	struct heapmap heap; /* blocks allocated (HEAP_ALLOC) and not freed */
};

/* Forget everything (init, target reset).  The first call may find r
 * zeroed. */
static inline void srtos_reset(struct srtos *r)
{
	memset(r->obj, 0, sizeof(r->obj));
	r->idle = -1;
	heapmap_clear(&r->heap);
}

static inline void srtos_free(struct srtos *r)
{
	heapmap_clear(&r->heap);
}

/* Records were lost: a mutex's first give seen after it may be any give
 * (the creation's, and the take before a give, may be among them). */
static inline void srtos_loss(struct srtos *r)
{
	for (size_t i = 0; i < 256; i++)
		r->obj[i].fresh = 0;
}

/* One RTOS record whose time is taken: fields[n] are its own fields (the
 * timestamp field split off, sonde_ts.h), of a length its layout accepted,
 * at DATA index off (for the byte offsets of diagnostics). */
void srtos_record(struct sdec *d, const struct sdec_frame *f, uint8_t id, const uint8_t *fields, size_t n,
		  size_t off);

#endif /* SONDE_RTOSREC_H */
