/*
 * rtos_desc.c -- the tables behind rtos_desc.h.
 */
#include "rtos_desc.h"

#include <stdio.h>
#include <string.h>

#include "sonde_frtos_api.h"
#include "sonde_proto.h"

static int is_semaphore(uint64_t kind)
{
	return kind == SONDE_OBJK_COUNTING_SEM || kind == SONDE_OBJK_BINARY_SEM ||
	       kind == SONDE_OBJK_MUTEX || kind == SONDE_OBJK_RECURSIVE_MUTEX;
}

static const char *const reasons[SONDE_TASK_STATE_COUNT] = {
	[SONDE_TASK_PREEMPTED] = "preempted",
	[SONDE_TASK_BLOCKED] = "blocked",
	[SONDE_TASK_SUSPENDED] = "suspended",
	[SONDE_TASK_DELETED] = "deleted",
	[SONDE_TASK_DELAYED] = "delayed",
	[SONDE_TASK_WAIT_RECV] = "waiting to receive",
	[SONDE_TASK_WAIT_SEND] = "waiting to send",
	[SONDE_TASK_WAIT_PEEK] = "waiting to peek",
	[SONDE_TASK_WAIT_NOTIFY] = "waiting for a notification",
	[SONDE_TASK_WAIT_EVENT] = "waiting for event bits",
};

const char *rtos_reason_name(uint64_t reason)
{
	return reason < SONDE_TASK_STATE_COUNT ? reasons[reason] : NULL;
}

const char *rtos_reason_name_k(uint64_t reason, uint64_t kind)
{
	if (is_semaphore(kind) && reason == SONDE_TASK_WAIT_RECV)
		return "waiting to take";
	if (is_semaphore(kind) && reason == SONDE_TASK_WAIT_SEND)
		return "waiting to give";
	return rtos_reason_name(reason);
}

const char *rtos_wait_verb(uint64_t reason, uint64_t kind)
{
	switch (reason) {
	case SONDE_TASK_WAIT_RECV: return is_semaphore(kind) ? "take" : "receive";
	case SONDE_TASK_WAIT_SEND: return is_semaphore(kind) ? "give" : "send";
	case SONDE_TASK_WAIT_PEEK: return "peek";
	case SONDE_TASK_WAIT_EVENT: return "event bits";
	default: return NULL;
	}
}

const char *rtos_reason_state(uint64_t reason)
{
	switch (reason) {
	case SONDE_TASK_PREEMPTED: return "Ready";
	case SONDE_TASK_SUSPENDED: return "Suspended";
	case SONDE_TASK_DELETED: return "Deleted";
	default: return reason < SONDE_TASK_STATE_COUNT ? "Blocked" : NULL;
	}
}

int rtos_reason_has_object(uint64_t reason)
{
	return reason == SONDE_TASK_WAIT_RECV || reason == SONDE_TASK_WAIT_SEND ||
	       reason == SONDE_TASK_WAIT_PEEK || reason == SONDE_TASK_WAIT_EVENT;
}

static const char *const kinds[SONDE_OBJK_COUNT] = {
	[SONDE_OBJK_TASK] = "task",
	[SONDE_OBJK_IDLE_TASK] = "idle task",
	[SONDE_OBJK_TIMER_TASK] = "timer service task",
	[SONDE_OBJK_QUEUE] = "queue",
	[SONDE_OBJK_COUNTING_SEM] = "counting semaphore",
	[SONDE_OBJK_BINARY_SEM] = "binary semaphore",
	[SONDE_OBJK_MUTEX] = "mutex",
	[SONDE_OBJK_RECURSIVE_MUTEX] = "recursive mutex",
	[SONDE_OBJK_QUEUE_SET] = "queue set",
	[SONDE_OBJK_EVENT_GROUP] = "event group",
	[SONDE_OBJK_STREAM_BUFFER] = "stream buffer",
	[SONDE_OBJK_MESSAGE_BUFFER] = "message buffer",
	[SONDE_OBJK_TIMER] = "timer",
};

const char *rtos_kind_name(uint64_t kind)
{
	return kind < SONDE_OBJK_COUNT ? kinds[kind] : NULL;
}

int rtos_kind_is_task(uint64_t kind)
{
	return kind >= SONDE_OBJK_TASK && kind <= SONDE_OBJK_TIMER_TASK;
}

int rtos_kind_counts_items(uint64_t kind)
{
	return kind != SONDE_OBJK_STREAM_BUFFER && kind != SONDE_OBJK_MESSAGE_BUFFER;
}

static const char *const ops[SONDE_OP_MASK + 1] = {
	[SONDE_OP_SEND] = "send",
	[SONDE_OP_RECEIVE] = "receive",
	[SONDE_OP_PEEK] = "peek",
	[SONDE_OP_RESET] = "reset",
	[SONDE_OP_DELETE] = "delete",
	[SONDE_OP_TAKE_RECURSIVE] = "take recursive",
	[SONDE_OP_GIVE_RECURSIVE] = "give recursive",
	[SONDE_OP_SET_BITS] = "set bits",
	[SONDE_OP_CLEAR_BITS] = "clear bits",
	[SONDE_OP_WAIT_BITS] = "wait bits",
	[SONDE_OP_SYNC_BITS] = "sync bits",
	[SONDE_OP_NOTIFY] = "notify",
	[SONDE_OP_NOTIFY_TAKE] = "notify take",
	[SONDE_OP_PRIO_SET] = "priority set",
	[SONDE_OP_PRIO_INHERIT] = "priority inherit",
	[SONDE_OP_PRIO_DISINHERIT] = "priority disinherit",
	[SONDE_OP_RESUME] = "resume",
	[SONDE_OP_TIMER_EXPIRED] = "timer expired",
	[SONDE_OP_TIMER_COMMAND] = "timer command",
	[SONDE_OP_NOTIFY_NONE] = "notify no action",
	[SONDE_OP_NOTIFY_SET_BITS] = "notify set bits",
	[SONDE_OP_NOTIFY_INCREMENT] = "notify increment",
	[SONDE_OP_NOTIFY_SET_VALUE] = "notify set value",
	[SONDE_OP_NOTIFY_SET_VALUE_KEEP] = "notify set value no overwrite",
	[SONDE_OP_TIMER_START] = "timer start",
	[SONDE_OP_TIMER_RESET] = "timer reset",
	[SONDE_OP_TIMER_STOP] = "timer stop",
	[SONDE_OP_TIMER_CHANGE_PERIOD] = "timer change period",
	[SONDE_OP_TIMER_DELETE] = "timer delete",
	[SONDE_OP_STACK_FREE] = "stack free",
	[SONDE_OP_LOW_POWER_BEGIN] = "low power begin",
	[SONDE_OP_LOW_POWER_END] = "low power end",
	[SONDE_OP_HEAP_ALLOC] = "malloc",
	[SONDE_OP_HEAP_FREE] = "free",
	[SONDE_OP_SET_SEND] = "signal",
	[SONDE_OP_SET_ADD] = "add to set",
	[SONDE_OP_SET_REMOVE] = "remove from set",
};

int rtos_op_is_notify(uint32_t op)
{
	op &= SONDE_OP_MASK;
	return op == SONDE_OP_NOTIFY || (op >= SONDE_OP_NOTIFY_NONE && op <= SONDE_OP_NOTIFY_SET_VALUE_KEEP);
}

int rtos_op_on_task(uint32_t op)
{
	op &= SONDE_OP_MASK;
	return rtos_op_is_notify(op) || op == SONDE_OP_NOTIFY_TAKE || op == SONDE_OP_RESUME ||
	       op == SONDE_OP_STACK_FREE || op == SONDE_OP_LOW_POWER_BEGIN || op == SONDE_OP_LOW_POWER_END;
}

/* FreeRTOS's timer command codes (timers.h: tmrCOMMAND_*, the ISR forms
 * from 6 on), which targets before the timer ops sent in TIMER_COMMAND. */
uint32_t rtos_timer_command_op(uint64_t code)
{
	static const uint8_t map[6] = { SONDE_OP_TIMER_START, SONDE_OP_TIMER_START, SONDE_OP_TIMER_RESET,
					SONDE_OP_TIMER_STOP, SONDE_OP_TIMER_CHANGE_PERIOD, SONDE_OP_TIMER_DELETE };

	if (code >= 6 && code <= 9)
		code -= 5;
	return code < 6 ? map[code] : SONDE_OP_TIMER_COMMAND;
}

const char *rtos_op_name(uint32_t op, uint64_t kind)
{
	if (op == SONDE_OP_INIT)
		return "create";
	op &= SONDE_OP_MASK;
	if (is_semaphore(kind) && op == SONDE_OP_SEND)
		return "give";
	if (is_semaphore(kind) && op == SONDE_OP_RECEIVE)
		return "take";
	return ops[op];
}

/* The API record's table, shared with the target (sonde_frtos_api.h). */
static const struct {
	const char *name;
	uint8_t ret;
} apis[SONDE_FRTOS_API_LIMIT] = {
#define API_ENTRY_(id, name, ret) [id] = { #name, ret },
	SONDE_FRTOS_APIS(API_ENTRY_)
#undef API_ENTRY_
};

const char *rtos_api_name(uint64_t id)
{
	return id < SONDE_FRTOS_API_LIMIT ? apis[id].name : NULL;
}

int rtos_api_returns(uint64_t id)
{
	return id < SONDE_FRTOS_API_LIMIT && apis[id].ret;
}

/* Append s to buf (length *k, capacity n), cut to fit.  The Perfetto
 * export names a slice with this for every kernel event: snprintf was a
 * noticeable part of its time. */
static void put(char *buf, size_t n, size_t *k, const char *s)
{
	size_t l = strlen(s);
	if (l > n - 1 - *k)
		l = n - 1 - *k;
	memcpy(buf + *k, s, l);
	*k += l;
	buf[*k] = '\0';
}

const char *rtos_op_text(char *buf, size_t n, uint32_t op, uint64_t kind)
{
	const char *name = rtos_op_name(op, kind);
	int isr = (op & SONDE_OP_F_ISR) != 0, failed = (op & SONDE_OP_F_FAILED) != 0;
	size_t k = 0;

	if (!n)
		return buf;
	buf[0] = '\0';
	if (!name) {
		snprintf(buf, n, "op %u", (unsigned)(op & SONDE_OP_MASK));
		return buf;
	}
	put(buf, n, &k, name);
	if (isr || failed)
		put(buf, n, &k, isr && failed ? " (ISR, failed)" : isr ? " (ISR)" : " (failed)");
	return buf;
}
