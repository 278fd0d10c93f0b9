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

/* An operation of the event model only, never on the wire: the level an
 * object starts with, set by the kernel as it creates it (a mutex's give
 * inside xSemaphoreCreateMutex()).  Named "create"; not a put. */
#define SONDE_OP_INIT 0x100u /* beyond the wire's op byte */

/* "preempted", "delayed", "waiting to receive", ...; NULL if unknown. */
const char *rtos_reason_name(uint64_t reason);

/* The same for a wait on an object of this kind: "waiting to take" and
 * "waiting to give" on a semaphore or mutex. */
const char *rtos_reason_name_k(uint64_t reason, uint64_t kind);

/* What a task waiting on an object of this kind waits to do: "receive",
 * "take", "send", "give", "peek", "event bits"; NULL for reasons without
 * an object. */
const char *rtos_wait_verb(uint64_t reason, uint64_t kind);

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

/* 1 for the notify operations (NOTIFY and those with an action). */
int rtos_op_is_notify(uint32_t op);

/* 1 for the operations whose object is a task (notifications, the end of
 * a wait for one, resumption, its free stack, the idle task's low power). */
int rtos_op_on_task(uint32_t op);

/* The timer operation of a FreeRTOS timer command code (TIMER_COMMAND's
 * value; the ISR forms map onto the same), TIMER_COMMAND if unknown. */
uint32_t rtos_timer_command_op(uint64_t code);

/* RTOS API calls (the Sonde API record, sonde_frtos_api.h): the kernel
 * function of an id ("xQueueReceive"), NULL if unknown; 1 if it returns a
 * value the record carries.  As function spans (FUNC_ENTER/FUNC_EXIT) an
 * API call's obj is RTOS_API_FN(id): beyond the 16-bit function ids of
 * FUNC_ENTER, never an address (no SONDE_EVF_ADDR). */
#define RTOS_API_FN(id) (0x10000u + (uint64_t)(id))
const char *rtos_api_name(uint64_t id);
int rtos_api_returns(uint64_t id);

/* The operation with its flags, e.g. "take (ISR, failed)", into buf. */
const char *rtos_op_text(char *buf, size_t n, uint32_t op, uint64_t kind);

#endif /* SONDE_RTOS_DESC_H */
