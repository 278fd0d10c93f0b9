/*
 * tband_map.c -- one parsed tband frame onto the sonde event model: the
 * event kind and operands, names, timestamps in ns, and the little state
 * this needs (names, the running task and ISR nesting per core, the
 * timestamp resolution).  The mapping: docs/proto-tband.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"
#include "rtos_desc.h"
#include "sonde_proto.h"
#include "tband_dec.h"
#include "tband_json.h"

/* ---- names -------------------------------------------------------------- */

/* Text built per event (names of task-local markers and priorities, why a
 * task stopped) is put together piece by piece: snprintf would parse its
 * format for every task switch and marker.  Each appends at 'at' and
 * returns the new end; the result is cut to cap - 1 bytes and
 * tband_txt_end() terminates it. */
static size_t tband_txt(char *dst, size_t cap, size_t at, const char *s)
{
	size_t n = strlen(s);

	if (at + n >= cap)
		n = cap - 1 - at;
	memcpy(dst + at, s, n);
	return at + n;
}

static size_t tband_txt_u64(char *dst, size_t cap, size_t at, uint64_t v)
{
	char t[24];
	size_t n = numfmt_u64(t, v);

	if (at + n >= cap)
		n = cap - 1 - at;
	memcpy(dst + at, t, n);
	return at + n;
}

/* A name, or prefix and the id when the name is unknown. */
static size_t tband_txt_name(char *dst, size_t cap, size_t at, const char *name,
			     const char *prefix, uint64_t id)
{
	if (name)
		return tband_txt(dst, cap, at, name);
	return tband_txt_u64(dst, cap, tband_txt(dst, cap, at, prefix), id);
}

static const char *tband_txt_end(char *dst, size_t at)
{
	dst[at] = 0;
	return dst;
}

static uint64_t tband_tasklocal(uint32_t task, uint32_t id)
{
	return TBAND_OBJ_TASKLOCAL | ((uint64_t)(task & 0x7FFFFFFFu) << 32) | id;
}

static enum tband_dkind tband_dkind_of(enum tband_ref ref)
{
	switch (ref) {
	case TBAND_REF_ISR: return TBAND_D_ISR;
	case TBAND_REF_MARKER: return TBAND_D_MARKER;
	case TBAND_REF_VALMARKER: return TBAND_D_VALMARKER;
	case TBAND_REF_QUEUE: return TBAND_D_QUEUE;
	default: return TBAND_D_TASK;
	}
}

static const char *tband_name(struct tband_dec *d, enum tband_dkind kind, uint64_t id)
{
	return tband_dict_name(&d->dict, kind, id);
}

/* The text behind a name the events hand out (rec_name, obj_name, ...)
 * changed, or a pointer was handed out whose text may change: the
 * session's names_gen says so, and consumers compare names again (struct
 * sonde_session).  Names are the dictionary's strings (a change counts in
 * its gen), the task-local marker names made from them, and a metadata
 * event's own string (d->str). */
static void tband_names_changed(struct tband_dec *d)
{
	d->names_gen++;
	if (d->out.session)
		d->out.session->names_gen = d->names_gen;
}

/* Remember a name; reports once when the table is full. */
static struct tband_dent *tband_learn(struct tband_dec *d, enum tband_dkind kind,
				      uint64_t id, const char *name)
{
	struct tband_dent *e = tband_dict_get(&d->dict, kind, id, 1);
	uint64_t gen = d->dict.gen;
	int rc;

	if (!e) {
		if (!d->dict_full_told) {
			d->dict_full_told = 1;
			snprintf(d->msg, sizeof(d->msg),
				 "name table full (%zu objects): further names are not kept",
				 d->dict.used);
			tband_diag_at(d, SONDE_D_OTHER, 0);
		}
		return NULL;
	}
	if (!name)
		return e;
	rc = tband_dict_set_name(&d->dict, e, name, strlen(name));
	if (d->dict.gen != gen)
		tband_names_changed(d);
	return rc < 0 ? NULL : e;
}

/* The name of task-local marker 'id' of 'task'.  tband's target registers
 * these names under task 0 (notes §12 B6), so a name missing for the task
 * is looked up there. */
static const char *tband_marker_name(struct tband_dec *d, enum tband_dkind kind,
				     uint32_t task, uint32_t id)
{
	const char *mn = tband_name(d, kind, tband_tasklocal(task, id));

	return mn ? mn : tband_name(d, kind, tband_tasklocal(0, id));
}

/* The names of the task-local marker 'id' of 'task' (struct tband_tlname):
 * the object's name is the same as the event model's, "<task>: <marker>",
 * so the markers of different tasks stay apart.  Three look-ups (two
 * hashed) and the text would be made again for every marker event: they
 * are kept in a small table, valid while the dictionary's gen is. */
static const struct tband_tlname *tband_tl_names(struct tband_dec *d, enum tband_dkind kind,
						 uint32_t task, uint32_t id)
{
	struct tband_tlname *t = &d->tlnames[(task * 5u + id * 3u + kind) % TBAND_TLNAMES];
	const char *tn;
	size_t at;

	if (t->gen == d->dict.gen && t->task == task && t->id == id && t->kind == kind)
		return t;
	tband_names_changed(d); /* the text of t->text changes */
	t->gen = d->dict.gen;
	t->task = task;
	t->id = id;
	t->kind = (uint8_t)kind;
	t->marker = tband_marker_name(d, kind, task, id);
	tn = tband_name(d, TBAND_D_TASK, task);
	at = tband_txt_name(t->text, sizeof(t->text), 0, tn, "Task #", task);
	at = tband_txt(t->text, sizeof(t->text), at, ": ");
	at = tband_txt_name(t->text, sizeof(t->text), at, t->marker, "#", id);
	tband_txt_end(t->text, at);
	return t;
}

/* ---- task switch bookkeeping --------------------------------------------- */

/* The state a task leaves in, in the event model's terms (the same as
 * Sonde's own TASK_SWITCH). */
static unsigned tband_reason(enum tband_why why)
{
	switch (why) {
	case TBAND_WHY_NONE: return SONDE_TASK_PREEMPTED;
	case TBAND_WHY_SUSPENDED: return SONDE_TASK_SUSPENDED;
	case TBAND_WHY_DELETED: return SONDE_TASK_DELETED;
	case TBAND_WHY_DELAY:
	case TBAND_WHY_DELAY_UNTIL: return SONDE_TASK_DELAYED;
	case TBAND_WHY_PEEK: return SONDE_TASK_WAIT_PEEK;
	case TBAND_WHY_SEND: return SONDE_TASK_WAIT_SEND;
	case TBAND_WHY_RECEIVE: return SONDE_TASK_WAIT_RECV;
	default: return SONDE_TASK_BLOCKED;
	}
}

/* Detail text of a switch-out reason, NULL if there is none. */
static const char *tband_why_text(struct tband_dec *d, const struct tband_core *c)
{
	static const char *const what[] = {
		[TBAND_WHY_PEEK] = "peek", [TBAND_WHY_SEND] = "send",
		[TBAND_WHY_RECEIVE] = "receive",
	};
	const char *qn;
	size_t at;

	switch (c->why) {
	case TBAND_WHY_DELAY:
		at = tband_txt(d->why, sizeof(d->why), 0, "delay ");
		at = tband_txt_u64(d->why, sizeof(d->why), at, c->why_arg);
		return tband_txt_end(d->why, tband_txt(d->why, sizeof(d->why), at, " ticks"));
	case TBAND_WHY_DELAY_UNTIL:
		at = tband_txt(d->why, sizeof(d->why), 0, "delay until tick ");
		return tband_txt_end(d->why, tband_txt_u64(d->why, sizeof(d->why), at, c->why_arg));
	case TBAND_WHY_PEEK:
	case TBAND_WHY_SEND:
	case TBAND_WHY_RECEIVE:
		qn = tband_name(d, TBAND_D_QUEUE, c->why_arg);
		at = tband_txt(d->why, sizeof(d->why), 0, what[c->why]);
		at = tband_txt(d->why, sizeof(d->why), at, " on queue ");
		return tband_txt_end(d->why, tband_txt_name(d->why, sizeof(d->why), at, qn, "#",
							  c->why_arg));
	default:
		return NULL;
	}
}

/* The core on which 'task' runs, -1 if none. */
static int tband_running_on(struct tband_dec *d, uint64_t task)
{
	for (int i = 0; i < TBAND_CORES; i++)
		if (d->cores[i].task == task && task && !d->cores[i].task_idle)
			return i;
	return -1;
}

static void tband_emit(struct tband_dec *d, const struct sonde_event *ev)
{
	if (d->out.event)
		d->out.event(d->out.ctx, ev);
}

/* A FreeRTOS queue kind (FrQueueKind) as an event-model object kind. */
static uint64_t tband_objk(int qkind)
{
	static const uint8_t map[] = { SONDE_OBJK_QUEUE, SONDE_OBJK_COUNTING_SEM, SONDE_OBJK_BINARY_SEM,
				       SONDE_OBJK_MUTEX, SONDE_OBJK_RECURSIVE_MUTEX };

	return qkind >= 0 && (size_t)qkind < sizeof(map) ? map[qkind] : 0;
}

/* task_switched_in: first the inferred TASK_OUT of the task that ran. */
static void tband_switch(struct tband_dec *d, struct sonde_event *ev, uint32_t task)
{
	struct tband_core *c = &d->cores[d->core];

	if (c->task && c->task != task && !c->task_idle) {
		struct sonde_event out = *ev;
		unsigned reason = tband_reason(c->why);
		struct sonde_arg arg = { SONDE_A_OBJ, "task_id", NULL, 0, { .u = c->task } };

		out.kind = SONDE_EV_TASK_OUT;
		out.flags |= SONDE_EVF_PART; /* the record is the switch-in */
		out.rec_name = "task_switched_out";
		out.obj = c->task;
		out.obj_name = tband_name(d, TBAND_D_TASK, c->task);
		arg.resolved = out.obj_name;
		out.obj2 = reason;
		out.obj2_name = rtos_reason_name(reason);
		out.text = tband_why_text(d, c);
		if (rtos_reason_has_object(reason)) {
			struct tband_dent *q = tband_dict_find(&d->dict, TBAND_D_QUEUE, c->why_arg);

			out.flags |= SONDE_EVF_REF;
			out.ref = c->why_arg;
			out.ref_name = tband_name(d, TBAND_D_QUEUE, c->why_arg);
			/* its kind: a wait on a semaphore or mutex is a take */
			out.op = q && q->qkind >= 0 ? (uint32_t)tband_objk(q->qkind) : 0;
			out.obj2_name = rtos_reason_name_k(reason, out.op);
		}
		out.nargs = 1;
		out.args = &arg;
		out.native = NULL;
		tband_emit(d, &out);
	}
	c->task = task;
	c->task_idle = c->idle_task && task == c->idle_task;
	c->why = TBAND_WHY_NONE;
	c->why_arg = 0;
	ev->kind = c->task_idle ? SONDE_EV_IDLE : SONDE_EV_TASK_IN;
}

/* The running task of the current core will stop for 'why'. */
static void tband_curtask_will(struct tband_dec *d, enum tband_why why, uint64_t arg)
{
	struct tband_core *c = &d->cores[d->core];

	if (c->task && !c->task_idle) {
		c->why = why;
		c->why_arg = arg;
	}
}

/* task_suspended / task_deleted name the task: it may run on any core,
 * and then says so when it is switched out.  A task that is not running
 * leaves at once: TASK_OUT, as Sonde's own trace has it. */
static void tband_task_will(struct tband_dec *d, struct sonde_event *ev, uint64_t task, enum tband_why why)
{
	int core = tband_running_on(d, task);

	if (core >= 0) {
		d->cores[core].why = why;
		d->cores[core].why_arg = 0;
		return;
	}
	ev->kind = SONDE_EV_TASK_OUT;
	ev->obj2 = tband_reason(why);
	ev->obj2_name = rtos_reason_name(ev->obj2);
}

/* A queue operation: OBJ_OP with the level after it (len_after). */
static void tband_queue_op(struct tband_dec *d, struct sonde_event *ev, uint64_t queue, uint32_t op,
			   int64_t level)
{
	struct tband_dent *e = tband_dict_find(&d->dict, TBAND_D_QUEUE, queue);

	ev->kind = SONDE_EV_OBJ_OP;
	ev->op = op;
	ev->value = level;
	ev->flags |= SONDE_EVF_LEVEL;
	if (e && e->qkind >= 0) {
		ev->obj2 = tband_objk(e->qkind);
		ev->obj2_name = rtos_kind_name(ev->obj2);
	}
}

/* ---- mapping one record onto the event model ----------------------------- */

static void tband_set_core(struct tband_dec *d, uint64_t core)
{
	if (core >= TBAND_CORES) {
		snprintf(d->msg, sizeof(d->msg),
			 "core_id %" PRIu64 " out of range 0..%d: ignored", core,
			 TBAND_CORES - 1);
		tband_diag_at(d, SONDE_D_MALFORMED, 0);
		return;
	}
	d->core = (uint32_t)core;
}

/* Session loss accounting: the count is one global total (all cores); a
 * smaller one than before means the target restarted counting. */
static void tband_count_drops(struct tband_dec *d, uint64_t cnt)
{
	uint64_t add = cnt >= d->drops_last ? cnt - d->drops_last : cnt;

	d->drops_last = cnt;
	if (d->out.session)
		d->out.session->drops_refused += add;
}

/* Timestamp in ns and the per-core order check. */
static void tband_time(struct tband_dec *d, const struct tband_rec *rec,
		       struct sonde_event *ev)
{
	struct tband_core *c = &d->cores[d->core];

	/* core_id events carry ts 0 when the streaming backend replays the
	 * metadata of each core: they take no part in the order check. */
	if (rec->desc->id != TBAND_ID_CORE_ID) {
		if (c->have_ts && rec->ts < c->last_ts) {
			snprintf(d->msg, sizeof(d->msg),
				 "%s: timestamp %" PRIu64 " before the previous one (%"
				 PRIu64 ") on core %" PRIu32, rec->desc->name, rec->ts,
				 c->last_ts, d->core);
			tband_diag_at(d, SONDE_D_TIME, 0);
		}
		c->last_ts = rec->ts;
		c->have_ts = 1;
	}
	ev->ts_flags = SONDE_TS_VALID | (d->ns_known ? 0 : SONDE_TS_ESTIMATED);
	/* not ts > UINT64_MAX / ns_per_ts: a division for every event */
	if (__builtin_mul_overflow(rec->ts, d->ns_per_ts, &ev->ts)) {
		snprintf(d->msg, sizeof(d->msg),
			 "%s: timestamp %" PRIu64 " x %" PRIu64 " ns overflows 64 bits",
			 rec->desc->name, rec->ts, d->ns_per_ts);
		tband_diag_at(d, SONDE_D_TIME, 0);
		ev->ts = UINT64_MAX;
		ev->ts_flags |= SONDE_TS_ESTIMATED;
	}
}

/* Arguments: every field, ids as objects with their names.  'task' is the
 * task a task-local marker belongs to. */
static void tband_args(struct tband_dec *d, const struct tband_rec *rec, size_t slen,
		       uint32_t task)
{
	const struct tband_evdesc *ds = rec->desc;
	int tasklocal = ds->group == TBAND_G_FREERTOS && ds->id >= TBAND_ID_TASK_EVTMARKER_NAME; /* the task-local ones */

	for (unsigned i = 0; i < ds->nfields; i++) {
		const struct tband_field *f = &ds->f[i];
		static const struct sonde_arg blank; /* a copy, not a memset: see sonde_event_clear */
		struct sonde_arg *a = &d->args[i];

		*a = blank;
		a->name = f->name;
		switch (f->type) {
		case TBAND_F_U8ENUM:
			a->type = SONDE_A_ENUM;
			a->v.u = rec->v[i].u;
			a->resolved = tband_queue_kind_name(rec->v[i].u);
			break;
		case TBAND_F_U32:
		case TBAND_F_U64:
			a->v.u = rec->v[i].u;
			if (f->ref == TBAND_REF_NONE || f->ref == TBAND_REF_CORE) {
				a->type = f->type == TBAND_F_U32 ? SONDE_A_U32 : SONDE_A_U64;
			} else if (tasklocal && f->ref != TBAND_REF_TASK) {
				a->type = SONDE_A_OBJ;
				a->resolved = tband_tl_names(d, tband_dkind_of(f->ref), task,
							     (uint32_t)a->v.u)->marker;
			} else {
				a->type = SONDE_A_OBJ;
				a->resolved = tband_name(d, tband_dkind_of(f->ref), a->v.u);
			}
			break;
		case TBAND_F_S64:
			a->type = SONDE_A_I64;
			a->v.i = rec->v[i].i;
			break;
		case TBAND_F_STR:
			a->type = SONDE_A_STR;
			a->v.mem.p = (const uint8_t *)d->str;
			a->v.mem.n = slen;
			break;
		}
	}
}

/* Fill ev's kind and operands from rec; learn names and state.  Returns the
 * task that task-local markers of this event belong to. */
static uint32_t tband_map(struct tband_dec *d, const struct tband_rec *rec,
			  struct sonde_event *ev)
{
	uint64_t a = rec->v[0].u, b = rec->v[1].u;
	struct tband_core *c = &d->cores[d->core];
	uint32_t cur = c->task_idle ? 0 : c->task;
	struct tband_dent *e;

	ev->obj = a;
	switch (rec->desc->id) {
	/* ---- base group ---- */
	case TBAND_ID_CORE_ID:
		ev->kind = SONDE_EV_INFO;
		break;
	case TBAND_ID_DROPPED_EVT_CNT: /* events the backend refused, in total */
		ev->kind = SONDE_EV_DROPS;
		ev->obj = 0;
		ev->value = 0;
		ev->obj2 = a;
		tband_count_drops(d, a);
		break;
	case TBAND_ID_TS_RESOLUTION_NS:
		ev->kind = SONDE_EV_INFO;
		ev->obj = 0;
		if (a == 0) {
			snprintf(d->msg, sizeof(d->msg), "ts_resolution_ns 0 ignored");
			tband_diag_at(d, SONDE_D_MALFORMED, 0);
		} else {
			d->ns_per_ts = a;
			d->ns_known = 1;
		}
		break;
	case TBAND_ID_ISR_NAME:
	case TBAND_ID_EVTMARKER_NAME:
	case TBAND_ID_VALMARKER_NAME:
	case TBAND_ID_TASK_NAME:
	case TBAND_ID_QUEUE_NAME:
		ev->kind = SONDE_EV_DICT;
		ev->text = d->str;
		ev->obj2 = rec->desc->id == TBAND_ID_ISR_NAME ? SONDE_DICT_ISR
			 : rec->desc->id == TBAND_ID_EVTMARKER_NAME ? SONDE_DICT_MARKER
			 : rec->desc->id == TBAND_ID_VALMARKER_NAME ? SONDE_DICT_COUNTER
			 : rec->desc->id == TBAND_ID_TASK_NAME ? SONDE_DICT_TASK : SONDE_DICT_OBJECT;
		tband_learn(d, tband_dkind_of(rec->desc->f[0].ref), a, d->str);
		break;
	case TBAND_ID_ISR_ENTER:
		ev->kind = SONDE_EV_ISR_ENTER;
		if (c->isr_depth < INT64_MAX)
			c->isr_depth++;
		ev->value = c->isr_depth;
		break;
	case TBAND_ID_ISR_EXIT:
		ev->kind = SONDE_EV_ISR_EXIT;
		ev->value = c->isr_depth;
		if (c->isr_depth > 0)
			c->isr_depth--;
		break;
	case TBAND_ID_EVTMARKER:
	case TBAND_ID_EVTMARKER_BEGIN:
		ev->kind = rec->desc->id == TBAND_ID_EVTMARKER ? SONDE_EV_MARK : SONDE_EV_MARK_BEGIN;
		ev->text = d->str;
		break;
	case TBAND_ID_EVTMARKER_END:
		ev->kind = SONDE_EV_MARK_END;
		break;
	case TBAND_ID_VALMARKER:
		ev->kind = SONDE_EV_COUNTER;
		ev->value = rec->v[1].i;
		break;

	/* ---- FreeRTOS group ---- */
	case TBAND_ID_TASK_SWITCHED_IN:
		tband_switch(d, ev, (uint32_t)a);
		break;
	case TBAND_ID_TASK_TO_RDY_STATE:
		ev->kind = SONDE_EV_TASK_READY;
		break;
	case TBAND_ID_TASK_RESUMED:
	case TBAND_ID_TASK_RESUMED_FROM_ISR:
		ev->kind = SONDE_EV_OBJ_OP;
		ev->op = SONDE_OP_RESUME | (rec->desc->id == TBAND_ID_TASK_RESUMED_FROM_ISR ? SONDE_OP_F_ISR : 0);
		ev->obj2 = SONDE_OBJK_TASK;
		ev->obj2_name = rtos_kind_name(SONDE_OBJK_TASK);
		ev->flags |= SONDE_EVF_REF;
		ev->ref = a;
		ev->ref_name = tband_name(d, TBAND_D_TASK, a);
		break;
	case TBAND_ID_QUEUE_CREATED: /* its kind follows in queue_kind */
		ev->kind = SONDE_EV_OBJECT;
		ev->op = SONDE_OBJ_CREATED;
		break;
	case TBAND_ID_TASK_SUSPENDED:
		ev->kind = SONDE_EV_RECORD;
		tband_task_will(d, ev, a, TBAND_WHY_SUSPENDED);
		break;
	case TBAND_ID_TASK_DELETED:
		ev->kind = SONDE_EV_RECORD;
		tband_task_will(d, ev, a, TBAND_WHY_DELETED);
		break;
	case TBAND_ID_CURTASK_DELAY:
	case TBAND_ID_CURTASK_DELAY_UNTIL:
		ev->kind = SONDE_EV_RECORD;
		ev->obj = cur;
		ev->obj_name = tband_name(d, TBAND_D_TASK, cur);
		tband_curtask_will(d, rec->desc->id == TBAND_ID_CURTASK_DELAY ? TBAND_WHY_DELAY
				   : TBAND_WHY_DELAY_UNTIL, a);
		return cur;
	case TBAND_ID_TASK_PRIORITY_SET:
	case TBAND_ID_TASK_PRIORITY_INHERIT:
	case TBAND_ID_TASK_PRIORITY_DISINHERIT:
		ev->kind = SONDE_EV_TASK_PRIO;
		ev->op = rec->desc->id == TBAND_ID_TASK_PRIORITY_SET ? SONDE_OP_PRIO_SET
		       : rec->desc->id == TBAND_ID_TASK_PRIORITY_INHERIT ? SONDE_OP_PRIO_INHERIT : SONDE_OP_PRIO_DISINHERIT;
		ev->obj2 = ev->op;
		ev->obj2_name = rtos_op_name(ev->op, 0);
		ev->value = (int64_t)b;
		break;
	case TBAND_ID_TASK_CREATED: /* the priority follows in task_priority_set */
		ev->kind = SONDE_EV_TASK_CREATE;
		break;
	case TBAND_ID_TASK_IS_IDLE_TASK:
		ev->kind = SONDE_EV_INFO;
		if (b < TBAND_CORES) {
			struct tband_core *ic = &d->cores[b];

			ic->idle_task = (uint32_t)a;
			if (ic->task == a)
				ic->task_idle = 1;
			ev->kind = SONDE_EV_OBJECT;
			ev->op = SONDE_OBJ_ANNOUNCED;
			ev->obj2 = SONDE_OBJK_IDLE_TASK;
			ev->obj2_name = rtos_kind_name(ev->obj2);
		} else {
			snprintf(d->msg, sizeof(d->msg),
				 "task_is_idle_task: core_id %" PRIu64 " out of range 0..%d",
				 b, TBAND_CORES - 1);
			tband_diag_at(d, SONDE_D_MALFORMED, 0);
		}
		break;
	case TBAND_ID_TASK_IS_TIMER_TASK:
		ev->kind = SONDE_EV_OBJECT;
		ev->op = SONDE_OBJ_ANNOUNCED;
		ev->obj2 = SONDE_OBJK_TIMER_TASK;
		ev->obj2_name = rtos_kind_name(ev->obj2);
		break;
	case TBAND_ID_QUEUE_KIND:
		ev->kind = SONDE_EV_OBJECT;
		ev->op = SONDE_OBJ_ANNOUNCED;
		e = tband_learn(d, TBAND_D_QUEUE, a, NULL);
		if (e && tband_queue_kind_json(b))
			e->qkind = (int16_t)b;
		ev->obj2 = tband_objk(tband_queue_kind_json(b) ? (int)b : -1);
		ev->obj2_name = rtos_kind_name(ev->obj2);
		break;
	case TBAND_ID_QUEUE_SEND: case TBAND_ID_QUEUE_OVERWRITE:
		tband_queue_op(d, ev, a, SONDE_OP_SEND, (int64_t)b);
		break;
	case TBAND_ID_QUEUE_SEND_FROM_ISR: case TBAND_ID_QUEUE_OVERWRITE_FROM_ISR:
		tband_queue_op(d, ev, a, SONDE_OP_SEND | SONDE_OP_F_ISR, (int64_t)b);
		break;
	case TBAND_ID_QUEUE_RECEIVE:
		tband_queue_op(d, ev, a, SONDE_OP_RECEIVE, (int64_t)b);
		break;
	case TBAND_ID_QUEUE_RECEIVE_FROM_ISR:
		tband_queue_op(d, ev, a, SONDE_OP_RECEIVE | SONDE_OP_F_ISR, (int64_t)b);
		break;
	case TBAND_ID_QUEUE_RESET: /* empties the queue */
		tband_queue_op(d, ev, a, SONDE_OP_RESET, 0);
		break;
	case TBAND_ID_QUEUE_CUR_LENGTH: /* a level, no operation */
		ev->kind = SONDE_EV_QUEUE;
		ev->value = (int64_t)b;
		e = tband_dict_find(&d->dict, TBAND_D_QUEUE, a);
		if (e && e->qkind >= 0) {
			ev->obj2 = tband_objk(e->qkind);
			ev->obj2_name = rtos_kind_name(ev->obj2);
		}
		break;
	case TBAND_ID_CURTASK_BLOCK_ON_QUEUE_PEEK:
	case TBAND_ID_CURTASK_BLOCK_ON_QUEUE_SEND:
	case TBAND_ID_CURTASK_BLOCK_ON_QUEUE_RECEIVE:
		ev->kind = SONDE_EV_RECORD;
		tband_curtask_will(d, rec->desc->id == TBAND_ID_CURTASK_BLOCK_ON_QUEUE_PEEK ? TBAND_WHY_PEEK
				   : rec->desc->id == TBAND_ID_CURTASK_BLOCK_ON_QUEUE_SEND ? TBAND_WHY_SEND : TBAND_WHY_RECEIVE, a);
		break;
	case TBAND_ID_TASK_EVTMARKER_NAME:
	case TBAND_ID_TASK_VALMARKER_NAME:
		ev->kind = SONDE_EV_DICT;
		ev->text = d->str;
		ev->obj = tband_tasklocal((uint32_t)b, (uint32_t)a);
		ev->obj2 = rec->desc->id == TBAND_ID_TASK_EVTMARKER_NAME ? SONDE_DICT_MARKER : SONDE_DICT_COUNTER;
		tband_learn(d, rec->desc->id == TBAND_ID_TASK_EVTMARKER_NAME ? TBAND_D_MARKER : TBAND_D_VALMARKER,
			    ev->obj, d->str);
		ev->obj_name = d->str;
		tband_names_changed(d);
		return (uint32_t)b;
	case TBAND_ID_TASK_EVTMARKER:
	case TBAND_ID_TASK_EVTMARKER_BEGIN:
	case TBAND_ID_TASK_EVTMARKER_END:
		ev->kind = rec->desc->id == TBAND_ID_TASK_EVTMARKER ? SONDE_EV_MARK
			 : rec->desc->id == TBAND_ID_TASK_EVTMARKER_BEGIN ? SONDE_EV_MARK_BEGIN : SONDE_EV_MARK_END;
		if (ev->kind != SONDE_EV_MARK_END)
			ev->text = d->str;
		ev->obj = tband_tasklocal(cur, (uint32_t)a);
		ev->obj_name = tband_tl_names(d, TBAND_D_MARKER, cur, (uint32_t)a)->text;
		return cur;
	case TBAND_ID_TASK_VALMARKER:
		ev->kind = SONDE_EV_COUNTER;
		ev->value = rec->v[1].i;
		ev->obj = tband_tasklocal(cur, (uint32_t)a);
		ev->obj_name = tband_tl_names(d, TBAND_D_VALMARKER, cur, (uint32_t)a)->text;
		return cur;
	default:
		ev->kind = SONDE_EV_RECORD;
		break;
	}
	/* The subject's name, when the first field names an object. */
	if (rec->desc->f[0].ref != TBAND_REF_NONE && rec->desc->f[0].ref != TBAND_REF_CORE &&
	    ev->obj == a)
		ev->obj_name = tband_name(d, tband_dkind_of(rec->desc->f[0].ref), a);
	return cur;
}

void tband_record(struct tband_dec *d, struct tband_rec *rec)
{
	struct sonde_event ev;
	size_t slen = 0;
	uint32_t task;

	/* The string field as valid, NUL-terminated UTF-8. */
	if (rec->str) {
		if (rec->err == TBAND_E_UTF8)
			slen = tband_utf8_lossy(rec->str, rec->str_len, d->str);
		else
			memcpy(d->str, rec->str, slen = rec->str_len);
		rec->str = (const uint8_t *)d->str;
		rec->str_len = slen;
	}
	d->str[slen] = 0;

	/* core_id applies to its own event. */
	if (rec->desc->id == TBAND_ID_CORE_ID)
		tband_set_core(d, rec->v[0].u);

	sonde_event_clear(&ev);
	ev.flags = rec->err != TBAND_OK ? SONDE_EVF_MALFORMED : 0;
	ev.core = d->core;
	ev.rec_id = rec->desc->id;
	ev.rec_name = rec->desc->name;
	ev.offset = d->frame_off;
	ev.frame = d->frame_no;
	if (!rec->desc->meta)
		tband_time(d, rec, &ev);
	if (!(d->out.needs.omit & SONDE_OMIT_NATIVE)) {
		ev.native_len = tband_json_render(rec, d->native, tband_json_size(sizeof(d->str) - 1));
		ev.native = d->native;
	}
	task = tband_map(d, rec, &ev);
	/* after the mapping: it may have learnt the names the arguments show;
	 * not made when nobody reads them (the mapping still runs: its state
	 * and its diagnostics are the decoder's, whatever the output) */
	if (!(d->out.needs.omit & SONDE_OMIT_DETAIL)) {
		tband_args(d, rec, slen, task);
		ev.nargs = rec->desc->nfields;
		ev.args = d->args;
	}
	tband_emit(d, &ev);
}

