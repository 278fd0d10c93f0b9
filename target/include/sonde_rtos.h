/*
 * sonde_rtos.h -- the RTOS records of the Sonde target tracer: task
 * switches with the state a task leaves in and what it waits on, kernel
 * objects (tasks, queues, semaphores, mutexes, event groups, stream
 * buffers, timers) and operations on them with their fill levels; the
 * heap's allocations and frees.
 *
 * The calls are RTOS-neutral; an RTOS binding maps its kernel's trace hooks
 * onto them (target/rtos/freertos/ for FreeRTOS).  Wire format:
 * docs/protocol.md section 4.1.  Every call is ISR-safe and, like the
 * records of sonde.h, a filter test at the call site plus one of the
 * shared record functions.
 *
 * Object ids share the one 0..255 space of sonde.h (ISRs, tasks, markers,
 * counters) and its local filter.
 */
#ifndef SONDE_RTOS_H
#define SONDE_RTOS_H

#include <stdint.h>

#include "sonde.h"

#ifdef __cplusplus
extern "C" {
#endif

#if SONDE_ENABLED

/* Like the records of sonde.h, each call below tests its filters inline at
 * the call site and then calls one of the shared record functions
 * (sonde_w_*, sonde.h).  TASK_SWITCH and the OBJ_OPs with a value of 1 or
 * 2 bytes, the frequent kernel events, have one of their own: sonde_w_word,
 * up to four untyped bytes (a third cheaper than sonde_w_gen's general
 * shapes; linked only where they are used).  A filtered call costs the
 * filter test alone. */

/* OBJ_OP and OBJ_CREATE follow the global filter and the local filter of
 * their object, tested separately (like markers: the object byte's
 * combined bits are taken by the records of sonde.h). */
SONDE_API_INLINE int sonde_obj_rec_on_(uint32_t rec, uint8_t obj)
{
	return sonde_rec_on_(rec) && sonde_obj_on_(SONDE_OF_LOCAL, obj);
}

/* TASK_SWITCH with its four bytes in one word, out | state << 8 | obj <<
 * 16 | in << 24 (the byte order on the wire): one untyped word.  Global
 * filter only: a switch names two tasks, and dropping it for one of them
 * would lose the other's. */
SONDE_API_INLINE void sonde_task_switch_w(uint32_t w)
{
	if (sonde_rec_on_(SONDE_REC_TASK_SWITCH))
		sonde_w_word(SONDE_REC_TASK_SWITCH | 4u << 8, w);
}

/* TASK_SWITCH: task `out` stops running, leaving in `state` (SONDE_TASK_*:
 * preempted, delayed, waiting to receive from object `obj`, ...), and task
 * `in` runs.  obj is the object waited on (or the notification index; 0
 * when the state has none). */
SONDE_API_INLINE void sonde_task_switch(uint8_t out, uint8_t state, uint8_t obj, uint8_t in)
{
	sonde_task_switch_w((uint32_t)out | (uint32_t)state << 8 | (uint32_t)obj << 16 | (uint32_t)in << 24);
}

/* OBJ_CREATE: object obj of kind SONDE_OBJK_* exists, with a capacity
 * (queue length, maximum count, priority of a task, bytes, timer period).
 * Sent with the fewest bytes that hold cap.  kind | SONDE_OBJK_ANNOUNCED
 * says that the object exists, not that it was created now (for a host that
 * joins late and asks for INFO).  Rare (object creation, INFO): out of
 * line, filters included, through the record writer. */
void sonde_obj_create(uint8_t obj, uint8_t kind, uint32_t cap);

/* OBJ_OP: operation op (SONDE_OP_*, with SONDE_OP_F_FAILED and
 * SONDE_OP_F_ISR) on object obj, with a value of 0, 1, 2 or 4 bytes (the
 * operation says what it means: a fill level, bits, a priority, an
 * index).  op, obj and the value are, in wire order: two bytes
 * (sonde_w_small); three or four bytes of one word (sonde_w_word: queue
 * operations, priorities, notifications); two prefix bytes and a word
 * (sonde_w_gen: bits, byte counts). */
SONDE_API_INLINE void sonde_obj_op(uint8_t op, uint8_t obj)
{
	if (sonde_obj_rec_on_(SONDE_REC_OBJ_OP, obj))
		sonde_w_small(SONDE_REC_OBJ_OP | (uint32_t)op << 8 | (uint32_t)obj << 16 | 2u << 24);
}

SONDE_API_INLINE void sonde_obj_op8(uint8_t op, uint8_t obj, uint8_t v)
{
	if (sonde_obj_rec_on_(SONDE_REC_OBJ_OP, obj))
		sonde_w_word(SONDE_REC_OBJ_OP | 3u << 8, (uint32_t)op | (uint32_t)obj << 8 | (uint32_t)v << 16);
}

SONDE_API_INLINE void sonde_obj_op16(uint8_t op, uint8_t obj, uint16_t v)
{
	if (sonde_obj_rec_on_(SONDE_REC_OBJ_OP, obj))
		sonde_w_word(SONDE_REC_OBJ_OP | 4u << 8, (uint32_t)op | (uint32_t)obj << 8 | (uint32_t)v << 16);
}

SONDE_API_INLINE void sonde_obj_op32(uint8_t op, uint8_t obj, uint32_t v)
{
	if (sonde_obj_rec_on_(SONDE_REC_OBJ_OP, obj))
		sonde_w_gen(SONDE_REC_OBJ_OP | (uint32_t)op << 8 | (uint32_t)obj << 16, v, 0u,
			    SONDE_W_SHAPE(2u, 1u, 0u));
}

/* HEAP_ALLOC / HEAP_FREE: a block of the RTOS heap at addr (its low 32
 * bits on the wire: a heap spans less than 4 GiB; NULL: the allocation
 * failed) of size bytes, as the allocator reports it (0: not said).  Global
 * filter only: a block is no object.  Two untyped words through
 * sonde_w_gen. */
SONDE_API_INLINE void sonde_heap_alloc(const void *addr, uint32_t size)
{
	if (sonde_rec_on_(SONDE_REC_HEAP_ALLOC))
		sonde_w_gen(SONDE_REC_HEAP_ALLOC, (uint32_t)(uintptr_t)addr, size, SONDE_W_SHAPE(0u, 2u, 0u));
}

SONDE_API_INLINE void sonde_heap_free(const void *addr, uint32_t size)
{
	if (sonde_rec_on_(SONDE_REC_HEAP_FREE))
		sonde_w_gen(SONDE_REC_HEAP_FREE, (uint32_t)(uintptr_t)addr, size, SONDE_W_SHAPE(0u, 2u, 0u));
}

#else /* !SONDE_ENABLED */

static inline void sonde_task_switch(uint8_t o, uint8_t s, uint8_t b, uint8_t i) { (void)o; (void)s; (void)b; (void)i; }
static inline void sonde_task_switch_w(uint32_t w) { (void)w; }
static inline void sonde_obj_create(uint8_t o, uint8_t k, uint32_t c) { (void)o; (void)k; (void)c; }
static inline void sonde_obj_op(uint8_t p, uint8_t o) { (void)p; (void)o; }
static inline void sonde_obj_op8(uint8_t p, uint8_t o, uint8_t v) { (void)p; (void)o; (void)v; }
static inline void sonde_obj_op16(uint8_t p, uint8_t o, uint16_t v) { (void)p; (void)o; (void)v; }
static inline void sonde_obj_op32(uint8_t p, uint8_t o, uint32_t v) { (void)p; (void)o; (void)v; }
static inline void sonde_heap_alloc(const void *a, uint32_t n) { (void)a; (void)n; }
static inline void sonde_heap_free(const void *a, uint32_t n) { (void)a; (void)n; }

#endif /* SONDE_ENABLED */

#ifdef __cplusplus
}
#endif

#endif /* SONDE_RTOS_H */
