/*
 * sonde_rtosrec.c -- TASK_SWITCH, OBJ_CREATE and OBJ_OP (docs/protocol.md
 * section 4.1) onto the event model (event.h):
 *
 *   TASK_SWITCH  TASK_OUT of the outgoing task (reason = the state it
 *                leaves in, ref = the object it waits on, op = that
 *                object's kind: a wait on a semaphore or mutex is "waiting
 *                to take"), then TASK_IN of the incoming one -- or IDLE
 *                when that is the idle task (ref = the idle task: every
 *                output names it).  Leaving the idle task is no TASK_OUT
 *                (as for Tonbandgeraet): the next TASK_IN ends its run.
 *                The TASK_OUT (named so) is flagged SONDE_EVF_PART: the
 *                record is counted once, as its TASK_IN or IDLE event.
 *   OBJ_CREATE   TASK_CREATE for a task created now; OBJECT otherwise
 *                (objects, and tasks announced again).
 *   OBJ_OP       TASK_PRIO for priority changes, OBJECT for DELETE,
 *                OBJ_OP for the rest, with the fill level after the
 *                operation where it has one.  A mutex's first give after
 *                its creation is the kernel's own, inside
 *                xSemaphoreCreateMutex(): op INIT (its starting level),
 *                not a give.  TIMER_COMMAND of older targets (FreeRTOS's
 *                command code) becomes the timer op it names.  SET_SEND
 *                (a member signals its queue set) is a send to the set;
 *                SET_ADD / SET_REMOVE name the set (arg "set").
 *                A task's free stack and the idle task's low power are
 *                OBJ_OPs on the task (ref = the task).
 *   PEND_CALL    RECORD "PEND_CALL": function (FUNC), isr, failed.
 *   CREATE_FAILED  OBJECT "create failed" (no object; obj2 the kind).
 *   API          FUNC_ENTER / FUNC_EXIT of RTOS_API_FN(id) on the running
 *                context's call stack, named from sonde_frtos_api.h; the
 *                value returned as arg "ret".
 *   HEAP_ALLOC,  OBJ_OP of the heap (obj SONDE_OBJ_HEAP, op HEAP_ALLOC /
 *   HEAP_FREE    _FREE, failed: no block): the bytes in use after it, with
 *                the block's address and size.
 *
 * Called by sonde_records.c with the time already taken and the timestamp
 * field split off (at the end of DATA in version 2, at its start in
 * version 1: the same fields follow either way), so the timestamp's
 * encoding is not this file's business.  Diagnostics name the byte of the
 * frame: 2 (SEQ, ID) + the fields' DATA index + the field's own.
 */
#include <string.h>

#include "rtos_desc.h"
#include "sonde_dec.h"
#include "sonde_frtos_api.h"
#include "sonde_proto.h"
#include "util/bytes.h"

static void str_arg(struct sdec *d, struct sonde_event *ev, const char *name, const char *s)
{
	struct sonde_arg *a = srec_add_arg(d, ev, name, SONDE_A_STR, 0);

	a->v.mem.p = (const uint8_t *)s;
	a->v.mem.n = strlen(s);
}

static const char *task_name(const struct sdec *d, uint8_t id)
{
	const char *n = sdict_get(&d->dict, SONDE_DICT_TASK, id);

	return n ? n : sdict_get(&d->dict, SONDE_DICT_OBJECT, id);
}

static const char *obj_name(const struct sdec *d, uint8_t id)
{
	const char *n = sdict_get(&d->dict, SONDE_DICT_OBJECT, id);

	return n ? n : sdict_get(&d->dict, SONDE_DICT_TASK, id);
}

/* ---- TASK_SWITCH ---------------------------------------------------------- */

static void task_switch(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t off)
{
	struct srtos *r = &d->rtos;
	uint8_t out = p[0], state = p[1], what = p[2], in = p[3];
	struct sonde_event ev;

	if (state >= SONDE_TASK_STATE_COUNT)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off + 1, 1,
			     "TASK_SWITCH: unknown task state %u (shown as a number)", state);
	if (r->idle != out) {
		srec_ev_init(d, &ev, f, SONDE_EV_TASK_OUT, "TASK_OUT");
		ev.flags |= SONDE_EVF_PART;
		ev.obj = out;
		ev.obj_name = task_name(d, out);
		ev.obj2 = state;
		ev.obj2_name = rtos_reason_name(state);
		if (rtos_reason_has_object(state)) {
			ev.op = r->obj[what].kind;
			ev.obj2_name = rtos_reason_name_k(state, ev.op);
			ev.flags |= SONDE_EVF_REF;
			ev.ref = what;
			ev.ref_name = obj_name(d, what);
			srec_add_arg(d, &ev, "waits_on", SONDE_A_OBJ, what)->resolved = ev.ref_name;
		} else if (state == SONDE_TASK_WAIT_NOTIFY) {
			srec_add_arg(d, &ev, "index", SONDE_A_U8, what);
		}
		sstk_task_out(&d->stk, out, state == SONDE_TASK_DELETED);
		srec_emit(d, &ev);
	}
	if (r->idle == in) {
		srec_ev_init(d, &ev, f, SONDE_EV_IDLE, "TASK_SWITCH");
		ev.flags |= SONDE_EVF_REF;
		ev.ref = in;
		ev.ref_name = task_name(d, in);
		srec_add_arg(d, &ev, "task", SONDE_A_OBJ, in)->resolved = ev.ref_name;
		sstk_idle(&d->stk);
	} else {
		srec_ev_init(d, &ev, f, SONDE_EV_TASK_IN, "TASK_SWITCH");
		ev.obj = in;
		ev.obj_name = task_name(d, in);
		sstk_task_in(&d->stk, in);
	}
	srec_emit(d, &ev);
}

/* ---- OBJ_CREATE ----------------------------------------------------------- */

static void obj_create(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t n, size_t off)
{
	struct srtos *r = &d->rtos;
	uint8_t id = p[0], kind = p[1] & 0x7Fu;
	int announced = (p[1] & SONDE_OBJK_ANNOUNCED) != 0;
	uint32_t cap = (uint32_t)bytes_le(p + 2, n - 2);
	struct sonde_event ev;

	if (kind == 0 || kind >= SONDE_OBJK_COUNT)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off + 1, 1,
			     "OBJ_CREATE: unknown object kind %u (shown as a number)", kind);
	r->obj[id].kind = kind;
	r->obj[id].cap = cap;
	r->obj[id].fresh = !announced && (kind == SONDE_OBJK_MUTEX || kind == SONDE_OBJK_RECURSIVE_MUTEX);
	if (kind == SONDE_OBJK_IDLE_TASK)
		r->idle = id;
	else if (r->idle == id)
		r->idle = -1;
	if (rtos_kind_is_task(kind) && !announced) {
		srec_ev_init(d, &ev, f, SONDE_EV_TASK_CREATE, "OBJ_CREATE");
		ev.obj = id;
		ev.obj_name = task_name(d, id);
		ev.obj2 = cap; /* the priority */
	} else {
		srec_ev_init(d, &ev, f, SONDE_EV_OBJECT, "OBJ_CREATE");
		ev.obj = id;
		ev.obj_name = rtos_kind_is_task(kind) ? task_name(d, id) : obj_name(d, id);
		ev.obj2 = kind;
		ev.obj2_name = rtos_kind_name(kind);
		ev.value = cap;
		ev.op = announced ? SONDE_OBJ_ANNOUNCED : SONDE_OBJ_CREATED;
		str_arg(d, &ev, "op", announced ? "announced" : "created");
	}
	srec_emit(d, &ev);
}

/* ---- OBJ_OP --------------------------------------------------------------- */

/* The level after a queue-like operation from the items before it (what the
 * target sends); -1 when the operation does not change a level. */
static int64_t level_after(const struct srtos_obj *o, uint32_t op, uint32_t before)
{
	uint32_t base = op & SONDE_OP_MASK;

	if (op & SONDE_OP_F_FAILED)
		return before;
	switch (base) {
	case SONDE_OP_SEND:
		/* only an overwrite sends to a full queue: it stays full */
		return o->cap != 0 && before >= o->cap ? before : (int64_t)before + 1;
	case SONDE_OP_RECEIVE:
		return before > 0 ? (int64_t)before - 1 : 0;
	case SONDE_OP_PEEK:
		return before;
	default:
		return -1;
	}
}

static void add_flag(struct sdec *d, struct sonde_event *ev, const char *name)
{
	srec_add_arg(d, ev, name, SONDE_A_BOOL, 1);
}

/* A member signals its set: the set (an object of kind queue until now,
 * when its creation was not seen as a set's) gets an item, the member's id;
 * the value is the member's id, then the items in the set before. */
static void set_send(struct sdec *d, struct sonde_event *ev, struct srtos_obj *o, const uint8_t *p, size_t n)
{
	uint8_t member = n > 2 ? p[2] : 0;
	uint32_t before = n > 3 ? (uint32_t)bytes_le(p + 3, n - 3) : 0;

	if (o->kind == 0 || o->kind == SONDE_OBJK_QUEUE)
		o->kind = SONDE_OBJK_QUEUE_SET;
	ev->obj2 = o->kind;
	ev->obj2_name = rtos_kind_name(o->kind);
	ev->obj_name = obj_name(d, (uint8_t)ev->obj);
	ev->value = level_after(o, SONDE_OP_SEND | (ev->op & SONDE_OP_F_FAILED), before);
	ev->flags |= SONDE_EVF_LEVEL;
	srec_add_arg(d, ev, "member", SONDE_A_OBJ, member)->resolved = obj_name(d, member);
	srec_add_arg(d, ev, "before", SONDE_A_U32, before);
}

static void obj_op(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t n, size_t off)
{
	struct srtos *r = &d->rtos;
	uint8_t op = p[0], id = p[1], base = op & SONDE_OP_MASK;
	uint32_t v = (uint32_t)bytes_le(p + 2, n - 2);
	struct srtos_obj *o = &r->obj[id];
	struct sonde_event ev;
	int init = o->fresh && op == SONDE_OP_SEND;

	if (n == 7 && base != SONDE_OP_SET_SEND) { /* the layout's 7 is SET_SEND's alone */
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off + 6, 1,
			     "OBJ_OP: 7 data bytes before its timestamp, expected 2 to 6 (7: SET_SEND only)");
		return;
	}
	if (!rtos_op_name(base, 0))
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off, 1,
			     "OBJ_OP: unknown operation %u (shown as a number)", base);
	o->fresh = 0;
	if (base == SONDE_OP_TIMER_COMMAND && rtos_timer_command_op(v) != SONDE_OP_TIMER_COMMAND) {
		/* an older target: FreeRTOS's command code; its ISR and
		 * failed flags are the op's already */
		base = (uint8_t)rtos_timer_command_op(v);
		op = (uint8_t)((op & ~SONDE_OP_MASK) | base);
		v = 0;
	}
	if (base == SONDE_OP_PRIO_SET || base == SONDE_OP_PRIO_INHERIT || base == SONDE_OP_PRIO_DISINHERIT) {
		srec_ev_init(d, &ev, f, SONDE_EV_TASK_PRIO, "OBJ_OP");
		ev.obj = id;
		ev.obj_name = task_name(d, id);
		ev.op = op;
		ev.obj2 = base;
		ev.obj2_name = rtos_op_name(op, 0);
		ev.value = v;
		srec_emit(d, &ev);
		return;
	}
	if (base == SONDE_OP_DELETE) {
		srec_ev_init(d, &ev, f, SONDE_EV_OBJECT, "OBJ_OP");
		ev.obj = id;
		ev.obj_name = obj_name(d, id);
		ev.obj2 = o->kind;
		ev.obj2_name = rtos_kind_name(o->kind);
		ev.value = o->cap;
		ev.op = SONDE_OBJ_DELETED;
		str_arg(d, &ev, "op", "deleted");
		o->kind = 0;
		o->cap = 0;
		srec_emit(d, &ev);
		return;
	}
	srec_ev_init(d, &ev, f, SONDE_EV_OBJ_OP, "OBJ_OP");
	ev.obj = id;
	ev.op = op;
	ev.obj2 = o->kind;
	ev.obj2_name = rtos_kind_name(o->kind);
	ev.value = v;
	if (init)
		ev.op = SONDE_OP_INIT; /* its level is a give's */
	if (rtos_op_on_task(base)) {
		ev.obj_name = task_name(d, id);
		ev.flags |= SONDE_EVF_REF;
		ev.ref = id;
		ev.ref_name = ev.obj_name;
	} else switch (base) {
	case SONDE_OP_SEND:
	case SONDE_OP_RECEIVE:
	case SONDE_OP_PEEK:
		ev.obj_name = obj_name(d, id);
		if (rtos_kind_counts_items(o->kind)) {
			ev.value = level_after(o, op, v);
			srec_add_arg(d, &ev, "before", SONDE_A_U32, v);
		}
		ev.flags |= SONDE_EVF_LEVEL;
		break;
	case SONDE_OP_SET_SEND:
		set_send(d, &ev, o, p, n);
		break;
	case SONDE_OP_SET_ADD:
	case SONDE_OP_SET_REMOVE: /* the member; the set in the value */
		ev.obj_name = obj_name(d, id);
		srec_add_arg(d, &ev, "set", SONDE_A_OBJ, v)->resolved = obj_name(d, (uint8_t)v);
		break;
	case SONDE_OP_RESET:
		ev.obj_name = obj_name(d, id);
		ev.value = 0;
		ev.flags |= SONDE_EVF_LEVEL;
		break;
	default:
		ev.obj_name = obj_name(d, id);
		break;
	}
	if (rtos_op_name(ev.op, o->kind))
		str_arg(d, &ev, "op", rtos_op_name(ev.op, o->kind));
	else
		srec_add_arg(d, &ev, "op", SONDE_A_U8, base);
	if (op & SONDE_OP_F_ISR)
		add_flag(d, &ev, "isr");
	if (op & SONDE_OP_F_FAILED)
		add_flag(d, &ev, "failed");
	srec_emit(d, &ev);
}

/* ---- PEND_CALL, CREATE_FAILED, API ---------------------------------------- */

/* A deferred function call (xTimerPendFunctionCall()): a record event
 * with the function (named from the dictionary here, from an ELF by the
 * pipeline's symbolizer) and its flags. */
static void pend_call(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t n)
{
	struct sonde_event ev;
	uint8_t flags = p[0];
	struct sonde_arg *a;

	srec_ev_init(d, &ev, f, SONDE_EV_RECORD, "PEND_CALL");
	a = srec_add_arg(d, &ev, "function", SONDE_A_FUNC, bytes_le(p + 1, n - 1));
	a->resolved = sdict_get(&d->dict, SONDE_DICT_FUNCTION, (uint32_t)a->v.u);
	if (flags & SONDE_OP_F_ISR)
		add_flag(d, &ev, "isr");
	if (flags & SONDE_OP_F_FAILED)
		add_flag(d, &ev, "failed");
	srec_emit(d, &ev);
}

/* An object the kernel could not make: OBJECT "create failed" of no
 * object, its kind in obj2. */
static void create_failed(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t off)
{
	struct sonde_event ev;
	uint8_t kind = p[0];

	if (!rtos_kind_name(kind))
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off, 1,
			     "CREATE_FAILED: unknown object kind %u (shown as a number)", kind);
	srec_ev_init(d, &ev, f, SONDE_EV_OBJECT, "CREATE_FAILED");
	ev.flags |= SONDE_EVF_NO_OBJ;
	ev.obj2 = kind;
	ev.obj2_name = rtos_kind_name(kind);
	ev.op = SONDE_OBJ_CREATE_FAILED;
	str_arg(d, &ev, "op", "create failed");
	srec_emit(d, &ev);
}

/* An API call entered or returned: a function span of the running context
 * (its call stack, as FUNC_ENTER/FUNC_EXIT), the function RTOS_API_FN(id),
 * named from the shared table; the value returned as arg "ret". */
static void api(struct sdec *d, const struct sdec_frame *f, const uint8_t *p, size_t n, size_t off)
{
	struct sonde_event ev;
	uint8_t id = p[0] & 0x7Fu;
	int returned = (p[0] & SONDE_FRTOS_API_RETURNED) != 0;

	if (!rtos_api_name(id))
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off, 1, "API: unknown API id %u (shown as a number)", id);
	if (!returned && n > 1)
		sdec_diag_at(d, SONDE_D_MALFORMED, 2 + off + 1, 1, "API: %zu bytes after an entry, expected none",
			     n - 1);
	srec_ev_init(d, &ev, f, returned ? SONDE_EV_FUNC_EXIT : SONDE_EV_FUNC_ENTER, "API");
	ev.obj = RTOS_API_FN(id);
	ev.obj_name = rtos_api_name(id);
	if (!returned) {
		ev.value = sstk_func_enter(&d->stk, ev.obj, 0);
	} else {
		struct sstk_call c;
		int known;

		ev.value = sstk_func_exit(&d->stk, &c, &known);
		if (rtos_api_returns(id))
			srec_add_arg(d, &ev, "ret", SONDE_A_U32, bytes_le(p + 1, n - 1));
	}
	srec_emit(d, &ev);
}

/* ---- HEAP_ALLOC, HEAP_FREE ----------------------------------------------- */

/* An OBJ_OP of the heap (SONDE_OBJ_HEAP): its level the bytes in use after
 * it, from the blocks allocated and not freed (a free's own size may be 0:
 * heap_3; one of a block allocated before the trace began, or lost, changes
 * nothing). */
static void heap_op(struct sdec *d, const struct sdec_frame *f, uint8_t id, const uint8_t *p)
{
	struct srtos *r = &d->rtos;
	uint32_t addr = (uint32_t)bytes_le(p, 4), size = (uint32_t)bytes_le(p + 4, 4);
	int alloc = id == SONDE_REC_HEAP_ALLOC, failed = alloc && addr == 0;
	struct heap_block b = { .addr = addr, .size = size };
	struct sonde_event ev;

	srec_ev_init(d, &ev, f, SONDE_EV_OBJ_OP, alloc ? "HEAP_ALLOC" : "HEAP_FREE");
	if (alloc && !failed)
		heapmap_add(&r->heap, &b);
	else if (!alloc && !heapmap_remove(&r->heap, addr, &b))
		b.size = size;
	ev.obj = SONDE_OBJ_HEAP;
	ev.obj_name = "heap";
	ev.obj2_name = "heap"; /* its kind: no SONDE_OBJK_* (obj2 0) */
	ev.op = (alloc ? SONDE_OP_HEAP_ALLOC : SONDE_OP_HEAP_FREE) | (failed ? SONDE_OP_F_FAILED : 0u);
	ev.value = (int64_t)r->heap.bytes;
	ev.flags |= SONDE_EVF_LEVEL;
	str_arg(d, &ev, "op", alloc ? "malloc" : "free");
	srec_add_arg(d, &ev, "address", SONDE_A_HEX, addr);
	srec_add_arg(d, &ev, "size", SONDE_A_U32, b.size);
	if (failed)
		add_flag(d, &ev, "failed");
	srec_emit(d, &ev);
}

void srtos_record(struct sdec *d, const struct sdec_frame *f, uint8_t id, const uint8_t *fields, size_t n,
		  size_t off)
{
	switch (id) {
	case SONDE_REC_PEND_CALL:
		pend_call(d, f, fields, n);
		break;
	case SONDE_REC_CREATE_FAILED:
		create_failed(d, f, fields, off);
		break;
	case SONDE_REC_API:
		api(d, f, fields, n, off);
		break;
	case SONDE_REC_HEAP_ALLOC:
	case SONDE_REC_HEAP_FREE:
		heap_op(d, f, id, fields);
		break;
	case SONDE_REC_TASK_SWITCH:
		task_switch(d, f, fields, off);
		break;
	case SONDE_REC_OBJ_CREATE:
		obj_create(d, f, fields, n, off);
		break;
	default:
		obj_op(d, f, fields, n, off);
		break;
	}
}
