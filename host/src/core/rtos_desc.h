/*
 * rtos_desc.h -- names of the event model's RTOS vocabulary (event.h): the
 * states a task leaves in (SONDE_TASK_*), kernel object kinds
 * (SONDE_OBJK_*) and operations (SONDE_OP_*), shared by the decoders that
 * produce them (Sonde, Tonbandgeraet) and the sinks and analyses that show
 * them, so that every output calls a thing the same.
 */
#ifndef SONDE_RTOS_DESC_H
#define SONDE_RTOS_DESC_H

#include <stddef.h>
#include <stdint.h>

/* "preempted", "delayed", "waiting to receive", ...; NULL if unknown. */
const char *rtos_reason_name(uint64_t reason);

/* The broad state a reason leaves a task in, for views with few states:
 * "Ready", "Blocked", "Suspended", "Deleted"; NULL if unknown. */
const char *rtos_reason_state(uint64_t reason);

/* 1 if the reason names an object the task waits on (TASK_OUT's ref). */
int rtos_reason_has_object(uint64_t reason);

/* "queue", "mutex", "event group", ...; NULL if unknown (0 included). */
const char *rtos_kind_name(uint64_t kind);

/* 1 for the kinds that are tasks (task, idle task, timer service task). */
int rtos_kind_is_task(uint64_t kind);

/* 1 for the kinds whose level is a count of items (queues, semaphores,
 * mutexes, queue sets) and 0 for bytes (stream and message buffers). */
int rtos_kind_counts_items(uint64_t kind);

/* The operation's name for an object of this kind (op's flag bits
 * ignored): "send", or "give" on a semaphore or mutex; NULL if unknown. */
const char *rtos_op_name(uint32_t op, uint64_t kind);

/* The operation with its flags, e.g. "take (ISR, failed)", into buf. */
const char *rtos_op_text(char *buf, size_t n, uint32_t op, uint64_t kind);

#endif /* SONDE_RTOS_DESC_H */
