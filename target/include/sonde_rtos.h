/*
 * sonde_rtos.h -- the RTOS records of the Sonde target tracer: task
 * switches with the state a task leaves in and what it waits on, kernel
 * objects (tasks, queues, semaphores, mutexes, event groups, stream
 * buffers, timers) and operations on them with their fill levels.
 *
 * The calls are RTOS-neutral; an RTOS binding maps its kernel's trace hooks
 * onto them (target/rtos/freertos/ for FreeRTOS).  Wire format:
 * docs/protocol.md section 4.1.  Every call is ISR-safe and, like the
 * records of sonde.h, one filter test plus the inline fast path.
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

/* TASK_SWITCH: task `out` stops running, leaving in `state` (SONDE_TASK_*:
 * preempted, delayed, waiting to receive from object `obj`, ...), and task
 * `in` runs.  obj is the object waited on (or the notification index;
 * 0 when the state has none).  Global filter only: a switch names two
 * tasks, and dropping it for one of them would lose the other's. */
void sonde_task_switch(uint8_t out, uint8_t state, uint8_t obj, uint8_t in);

/* The same with its four bytes in one word, out | state << 8 | obj << 16 |
 * in << 24 (the byte order on the wire): a binding that keeps the outgoing
 * task and its state in a word saves the packing. */
void sonde_task_switch_w(uint32_t w);

/* OBJ_CREATE: object obj of kind SONDE_OBJK_* exists, with a capacity
 * (queue length, maximum count, priority of a task, bytes, timer period).
 * Sent with the fewest bytes that hold cap.  kind | SONDE_OBJK_ANNOUNCED
 * says that the object exists, not that it was created now (for a host that
 * joins late and asks for INFO). */
void sonde_obj_create(uint8_t obj, uint8_t kind, uint32_t cap);

/* OBJ_OP: operation op (SONDE_OP_*, with SONDE_OP_F_FAILED and
 * SONDE_OP_F_ISR) on object obj, with a value of 0, 1, 2 or 4 bytes (the
 * operation says what it means: a fill level, bits, a priority, an
 * index). */
void sonde_obj_op(uint8_t op, uint8_t obj);
void sonde_obj_op8(uint8_t op, uint8_t obj, uint8_t v);
void sonde_obj_op16(uint8_t op, uint8_t obj, uint16_t v);
void sonde_obj_op32(uint8_t op, uint8_t obj, uint32_t v);

#else /* !SONDE_ENABLED */

static inline void sonde_task_switch(uint8_t o, uint8_t s, uint8_t b, uint8_t i) { (void)o; (void)s; (void)b; (void)i; }
static inline void sonde_task_switch_w(uint32_t w) { (void)w; }
static inline void sonde_obj_create(uint8_t o, uint8_t k, uint32_t c) { (void)o; (void)k; (void)c; }
static inline void sonde_obj_op(uint8_t p, uint8_t o) { (void)p; (void)o; }
static inline void sonde_obj_op8(uint8_t p, uint8_t o, uint8_t v) { (void)p; (void)o; (void)v; }
static inline void sonde_obj_op16(uint8_t p, uint8_t o, uint16_t v) { (void)p; (void)o; (void)v; }
static inline void sonde_obj_op32(uint8_t p, uint8_t o, uint32_t v) { (void)p; (void)o; (void)v; }

#endif /* SONDE_ENABLED */

#ifdef __cplusplus
}
#endif

#endif /* SONDE_RTOS_H */
