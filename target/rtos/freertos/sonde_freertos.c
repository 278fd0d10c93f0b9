/*
 * sonde_freertos.c -- the state behind the FreeRTOS trace macros
 * (sonde_freertos.h): the table of traced kernel objects (id, kind,
 * capacity, name) for announcing them again when the host asks for INFO,
 * the running task and the state it will leave in, and the context switch;
 * if configured, the tasks' stack high-water marks.
 *
 * Compile it with the kernel and the application (it includes FreeRTOS.h,
 * so FreeRTOSConfig.h must be on the include path).  It calls only
 * tasks.c's public API (and timers.c's when configUSE_TIMERS is 1): the
 * hooks of the optional kernel files (event groups, stream buffers) are
 * expanded in those files, so nothing here makes them needed.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"
#if configUSE_TIMERS == 1
#include "timers.h"
#endif

#include "sonde.h"
#include "sonde_freertos.h"
#include "sonde_port.h"
#include "sonde_rtos.h"

#if SONDE_ENABLED

struct sonde_frtos_run sonde_frtos_run;

/* One traced object; h NULL: the slot is free.  Its id is
 * SONDE_FRTOS_ID_FIRST + its index. */
struct obj {
	const void *h;
	const char *name; /* NULL: none known */
	uint32_t cap;     /* as created (a task: its priority then) */
	uint8_t kind;
#if SONDE_FRTOS_STACK
	uint32_t stack_min;  /* a task: the free stack last sent, in bytes; UINT32_MAX none */
	volatile uint8_t ran; /* a task: switched out since its stack was looked at */
#endif
};

static struct obj objs[SONDE_FRTOS_MAX_OBJECTS];
static uint32_t untracked;
static void (*app_dict_cb)(void);

static struct obj *slot(uint8_t id)
{
	if (id < SONDE_FRTOS_ID_FIRST || id >= SONDE_FRTOS_ID_FIRST + SONDE_FRTOS_MAX_OBJECTS)
		return NULL;
	return &objs[id - SONDE_FRTOS_ID_FIRST];
}

static uint8_t dict_kind(uint8_t kind)
{
	return kind <= SONDE_OBJK_TIMER_TASK ? SONDE_DICT_TASK : SONDE_DICT_OBJECT;
}

/* The name first, so that the host names the object from its creation. */
static void announce(uint8_t id, const struct obj *o, uint8_t flags)
{
	if (o->name != NULL)
		sonde_dict(dict_kind(o->kind), id, o->name);
	sonde_obj_create(id, (uint8_t)(o->kind | flags), o->cap);
#if SONDE_FRTOS_STACK
	if (flags != 0u && o->stack_min != UINT32_MAX) /* a host that joins late learns it too */
		sonde_obj_op32(SONDE_OP_STACK_FREE, id, o->stack_min);
#endif
}

uint8_t sonde_frtos_created(const void *handle, uint8_t kind, uint32_t cap, const char *name)
{
	uint8_t id = 0;
	unsigned i;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	for (i = 0; i < SONDE_FRTOS_MAX_OBJECTS; i++) {
		if (objs[i].h == NULL) {
			objs[i].h = handle;
			objs[i].name = name;
			objs[i].cap = cap;
			objs[i].kind = kind;
#if SONDE_FRTOS_STACK
			objs[i].stack_min = UINT32_MAX;
			objs[i].ran = 0u;
#endif
			id = (uint8_t)(SONDE_FRTOS_ID_FIRST + i);
			break;
		}
	}
	if (id == 0u)
		untracked++;
	SONDE_PORT_CRIT_EXIT();
	if (id != 0u)
		announce(id, &objs[id - SONDE_FRTOS_ID_FIRST], 0u);
	return id;
}

/* Tasks end with their TASK_SWITCH or TASK_OUT (sonde_frtos_leaves());
 * every other object with OBJ_OP DELETE. */
void sonde_frtos_deleted(const void *handle, uint8_t id)
{
	struct obj *o = slot(id);
	uint8_t kind = 0;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	if (o != NULL && o->h == handle) {
		kind = o->kind;
		o->h = NULL;
	}
	SONDE_PORT_CRIT_EXIT();
	if (kind > SONDE_OBJK_TIMER_TASK)
		sonde_obj_op(SONDE_OP_DELETE, id);
}

void sonde_frtos_named(uint8_t id, const char *name)
{
	struct obj *o = slot(id);

	if (o == NULL || o->h == NULL)
		return;
	o->name = name;
	sonde_dict(dict_kind(o->kind), id, name);
}

void sonde_frtos_name(const void *handle, const char *name)
{
	sonde_frtos_named(sonde_frtos_id(handle), name);
}

uint8_t sonde_frtos_id(const void *handle)
{
	unsigned i;

	if (handle == NULL)
		return 0;
	for (i = 0; i < SONDE_FRTOS_MAX_OBJECTS; i++)
		if (objs[i].h == handle)
			return (uint8_t)(SONDE_FRTOS_ID_FIRST + i);
	return 0;
}

uint32_t sonde_frtos_untracked(void)
{
	return untracked;
}

/* ---- tasks -------------------------------------------------------------- */

/* A task suspended or deleted: the running one says so when it is switched
 * out; any other at once. */
void sonde_frtos_leaves(const void *tcb, uint8_t id, uint8_t state)
{
	if (tcb == sonde_frtos_run.tcb)
		sonde_frtos_run.wait = state;
	else
		sonde_task_out(id, state);
}

/* A task became ready.  If it is the running one, whatever it was about to
 * wait for came before it was switched out: it runs on, or is preempted. */
void sonde_frtos_ready(const void *tcb, uint8_t id)
{
	if (tcb == sonde_frtos_run.tcb)
		sonde_frtos_run.wait = 0u;
	sonde_task_ready(id);
}

/* A notification: its action (the kernel's eNotifyAction) as the op, with
 * the value it gives (bits, a value) or the index (no action, increment).
 * An index other than 0 with a value to give goes out as plain NOTIFY:
 * OBJ_OP has room for one of them. */
void sonde_frtos_notify(uint8_t task, uint8_t flags, uint32_t action, uint32_t value, uint8_t index)
{
	static const uint8_t ops[5] = { SONDE_OP_NOTIFY_NONE, SONDE_OP_NOTIFY_SET_BITS,
					SONDE_OP_NOTIFY_INCREMENT, SONDE_OP_NOTIFY_SET_VALUE,
					SONDE_OP_NOTIFY_SET_VALUE_KEEP };

	if (action == 0u || action == 2u)
		sonde_obj_op8((uint8_t)(ops[action] | flags), task, index);
	else if (action < 5u && index == 0u)
		sonde_obj_op32((uint8_t)(ops[action] | flags), task, value);
	else
		sonde_obj_op8((uint8_t)(SONDE_OP_NOTIFY | flags), task, index);
}

#if configUSE_TIMERS == 1
/* A timer command (timers.h: tmrCOMMAND_*; the ISR forms are the task
 * forms + 5) as its timer op; a change of period with the new period. */
void sonde_frtos_timer_cmd(uint8_t timer, int32_t cmd, uint32_t value, int ok)
{
	uint8_t flags = ok ? 0u : SONDE_OP_F_FAILED;

	if (cmd >= tmrFIRST_FROM_ISR_COMMAND) {
		flags |= SONDE_OP_F_ISR;
		cmd -= tmrCOMMAND_START_FROM_ISR - tmrCOMMAND_START;
	}
	switch (cmd) {
	case tmrCOMMAND_START_DONT_TRACE:
	case tmrCOMMAND_START: sonde_obj_op((uint8_t)(SONDE_OP_TIMER_START | flags), timer); break;
	case tmrCOMMAND_RESET: sonde_obj_op((uint8_t)(SONDE_OP_TIMER_RESET | flags), timer); break;
	case tmrCOMMAND_STOP: sonde_obj_op((uint8_t)(SONDE_OP_TIMER_STOP | flags), timer); break;
	case tmrCOMMAND_CHANGE_PERIOD:
		sonde_obj_op32((uint8_t)(SONDE_OP_TIMER_CHANGE_PERIOD | flags), timer, value);
		break;
	case tmrCOMMAND_DELETE: sonde_obj_op((uint8_t)(SONDE_OP_TIMER_DELETE | flags), timer); break;
	default: sonde_obj_op8((uint8_t)(SONDE_OP_TIMER_COMMAND | flags), timer, (uint8_t)cmd); break;
	}
}
#endif

/* ---- queue sets, deferred calls, API returns ------------------------------ */

/* A set is a queue to the kernel (type 0 before 11.x's hook says so): the
 * first sign of it makes it a set, announced again with its kind. */
void sonde_frtos_set_created(uint8_t set)
{
	struct obj *o = slot(set);

	if (o == NULL || o->h == NULL || o->kind == SONDE_OBJK_QUEUE_SET)
		return;
	o->kind = SONDE_OBJK_QUEUE_SET;
	sonde_obj_create(set, SONDE_OBJK_QUEUE_SET | SONDE_OBJK_ANNOUNCED, o->cap);
}

/* OBJ_OP SET_SEND: the set, the member that signals it, the items in the
 * set before (the member's own send is traced as its send). */
void sonde_frtos_set_send(uint8_t set, uint8_t member, uint32_t before)
{
	sonde_frtos_set_created(set);
	if (sonde_obj_rec_on_(SONDE_REC_OBJ_OP, set))
		sonde_w_gen(SONDE_REC_OBJ_OP | (uint32_t)SONDE_OP_SET_SEND << 8 | (uint32_t)set << 16 |
				    (uint32_t)member << 24,
			    before, 0u, SONDE_W_SHAPE(3u, 1u, 0u));
}

/* PEND_CALL: flags (SONDE_OP_F_ISR, SONDE_OP_F_FAILED), the function's
 * address in SONDE_ADDR_SIZE bytes, as FUNC_ENTER_A carries one. */
void sonde_frtos_pend(uint8_t flags, uintptr_t fn)
{
	uint64_t a = (uint64_t)fn;

	if (sonde_rec_on_(SONDE_REC_PEND_CALL))
		sonde_w_gen(SONDE_REC_PEND_CALL | (uint32_t)flags << 8, (uint32_t)a, (uint32_t)(a >> 32),
			    SONDE_W_SHAPE(1u, SONDE_ADDR_SIZE / 4u, 0u));
}

/* API returned: the id with bit 7, then the value in the fewest bytes that
 * hold it (none for 0). */
void sonde_frtos_api_ret(uint8_t api, uint32_t value)
{
	uint32_t n = value == 0u ? 0u : value <= 0xFFu ? 1u : value <= 0xFFFFu ? 2u : value <= 0xFFFFFFu ? 3u : 4u;

	if (!sonde_rec_on_(SONDE_REC_API))
		return;
	if (n < 4u)
		sonde_w_word(SONDE_REC_API | (1u + n) << 8, (uint32_t)api | 0x80u | value << 8);
	else
		sonde_w_gen(SONDE_REC_API | ((uint32_t)api | 0x80u) << 8, value, 0u, SONDE_W_SHAPE(1u, 1u, 0u));
}

/* The idle and timer service tasks: their handles are known once the
 * scheduler starts, which is when the first task is switched in. */
static void mark_role(const void *h, uint8_t kind)
{
	uint8_t id = sonde_frtos_id(h);
	struct obj *o = slot(id);

	if (o == NULL)
		return;
	o->kind = kind;
	sonde_obj_create(id, (uint8_t)(kind | SONDE_OBJK_ANNOUNCED), o->cap);
}

static void first_switch(uint8_t in)
{
	mark_role(xTaskGetIdleTaskHandle(), SONDE_OBJK_IDLE_TASK);
#if configUSE_TIMERS == 1 && INCLUDE_xTimerGetTimerDaemonTaskHandle == 1
	mark_role(xTimerGetTimerDaemonTaskHandle(), SONDE_OBJK_TIMER_TASK);
#endif
	sonde_task_in(in);
}

#if SONDE_FRTOS_STACK
/* The stack of task o (id): its high-water mark, sent if it fell (it
 * never rises). */
static void stack_look(struct obj *o, uint8_t id)
{
	uint32_t bytes = (uint32_t)uxTaskGetStackHighWaterMark((TaskHandle_t)o->h) * (uint32_t)sizeof(StackType_t);

	if (bytes == o->stack_min)
		return;
	o->stack_min = bytes;
	if (bytes <= 0xFFFFu)
		sonde_obj_op16(SONDE_OP_STACK_FREE, id, (uint16_t)bytes);
	else
		sonde_obj_op32(SONDE_OP_STACK_FREE, id, bytes);
}

/* Off the switch: each task marked, with the scheduler suspended (no task
 * can delete it meanwhile; a deleted task has no slot any more), the
 * interrupts enabled. */
void sonde_frtos_stack_poll(void)
{
	unsigned i;
#if SONDE_FRTOS_STACK_PERIOD > 0
	static TickType_t last;
	static uint8_t polled;
	TickType_t now = xTaskGetTickCount();

	if (polled && (TickType_t)(now - last) < (TickType_t)SONDE_FRTOS_STACK_PERIOD)
		return;
	polled = 1u;
	last = now;
#endif
	for (i = 0; i < SONDE_FRTOS_MAX_OBJECTS; i++) {
		struct obj *o = &objs[i];

		if (!o->ran)
			continue;
		vTaskSuspendAll();
		o->ran = 0u;
		if (o->h != NULL && o->kind <= SONDE_OBJK_TIMER_TASK)
			stack_look(o, (uint8_t)(SONDE_FRTOS_ID_FIRST + i));
		(void)xTaskResumeAll();
	}
}
#endif

/* A different task runs (the macro filters out the same one running on):
 * one record with both tasks and the state the outgoing one leaves in. */
void sonde_frtos_switched_in(const void *tcb, uint8_t id)
{
#if SONDE_FRTOS_STACK
	{
		struct obj *o = slot(sonde_frtos_run.id);

		if (o != NULL) /* its stack may have grown: the next poll looks */
			o->ran = 1u;
	}
#endif
	if (sonde_frtos_run.tcb != NULL)
		sonde_task_switch_w((uint32_t)sonde_frtos_run.id | (uint32_t)sonde_frtos_run.wait << 8 |
				    (uint32_t)id << 24);
	else
		first_switch(id);
	sonde_frtos_run.tcb = tcb;
	sonde_frtos_run.id = id;
	sonde_frtos_run.wait = 0u;
}

/* ---- announcing --------------------------------------------------------- */

void sonde_frtos_announce(void)
{
	unsigned i;

	for (i = 0; i < SONDE_FRTOS_MAX_OBJECTS; i++) {
		struct obj o;
		SONDE_PORT_CRIT_DECL;

		SONDE_PORT_CRIT_ENTER();
		o = objs[i];
		SONDE_PORT_CRIT_EXIT();
		if (o.h != NULL)
			announce((uint8_t)(SONDE_FRTOS_ID_FIRST + i), &o, SONDE_OBJK_ANNOUNCED);
	}
}

static void dict_cb(void)
{
	sonde_frtos_announce();
	if (app_dict_cb != NULL)
		app_dict_cb();
}

void sonde_frtos_init(void (*app_dict)(void))
{
	app_dict_cb = app_dict;
	sonde_set_dict_callback(dict_cb);
	dict_cb();
}

#else /* !SONDE_ENABLED */

typedef int sonde_frtos_disabled_t;

#endif /* SONDE_ENABLED */
