/*
 * trackmap_rtos.c -- the trackmap rules for RTOS events (event.h: OBJECT,
 * OBJ_OP, TASK_PRIO) and the names of the states a task leaves in:
 *
 *   OBJ_OP with a level  counter track `<object>` (unit count): the fill
 *                        level after the operation (a mutex's starting
 *                        level only when it is named by then)
 *   OBJ_OP               instant `<op> <object>` (cat `rtos`) on the running
 *                        context (task, ISR, idle), with the event's args;
 *                        a successful send/give starts a flow that the
 *                        receive/take that gets the item ends (first in,
 *                        first out, per object; Perfetto draws the arrow)
 *   mutex take / give    slice `<holder task>` on track `<mutex> holder`
 *                        while it is held
 *   TASK_PRIO            counter track `<task> priority`, instant
 *                        `<priority set|inherit|disinherit>` on the task's
 *                        state track; the priority goes to the scheduler view
 *   OBJECT               instants `Created` / `Deleted` on the object's
 *                        holder track for mutexes; a failed creation:
 *                        instant `create failed <kind>` on the running
 *                        context; otherwise nothing drawn
 *   OBJ_OP stack free    counter track `<task> stack free` (bytes never used)
 *   OBJ_OP low power     slice `Low power` on track `<idle task> low power`
 *                        from its begin to its end
 *   heap (OBJ_OP of SONDE_OBJ_HEAP) as any OBJ_OP with a level: counter
 *                        `heap` (bytes in use), instants `malloc heap`,
 *                        `free heap` on the task that called
 *
 * Per object the model keeps the flow ids of items sent and not yet
 * received, at most TMAP_FLOWS_MAX (older ones get no arrow): memory stays
 * bounded however long the trace.
 */
#include "trackmap_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "namepool.h"
#include "rtos_desc.h"
#include "sonde_proto.h"

#define TMAP_FLOWS_MAX 64u

#define TMAP_OPNAMES 4 /* operation names remembered per object */

struct tmap_robj {
	uint64_t flows[TMAP_FLOWS_MAX]; /* ring of pending sends' flow ids */
	uint32_t head, n;
	struct tmap_node *holder;       /* mutexes: the holder track */
	int held;                       /* a holder slice is open */
	uint32_t held_name;             /* its name (the holder task) in tmap.names, 0 none */
	uint32_t holder_gen;            /* the object's name_gen the holder track is named after */
	/* The names of the last operations' instants ("give Mutex #3") in
	 * tmap.names, and what each was made of: an object sees a few
	 * operations again and again (give, take), and then neither the
	 * text nor its interning is done again. */
	struct tmap_opname {
		uint32_t name;          /* 0: unused */
		uint32_t op, gen;
		uint64_t kind;
		int named;
	} ops[TMAP_OPNAMES];
	uint32_t next_op;               /* the entry replaced next */
};

const char *tmap_rtos_out_state(const struct sonde_event *ev, char *buf, size_t n, enum tmap_tstate *st)
{
	const char *ref = NULL;
	char num[32];

	*st = TMAP_T_BLOCKED;
	if (ev->flags & SONDE_EVF_REF) {
		if (ev->ref_name && ev->ref_name[0]) {
			ref = ev->ref_name;
		} else {
			snprintf(num, sizeof(num), "#%" PRIu64, ev->ref);
			ref = num;
		}
	}
	switch (ev->obj2) {
	case SONDE_TASK_BLOCKED:     return "Blocked";
	case SONDE_TASK_DELAYED:     return "Delayed";
	case SONDE_TASK_WAIT_NOTIFY: return "Blocked: notification";
	case SONDE_TASK_WAIT_RECV:
	case SONDE_TASK_WAIT_SEND:
	case SONDE_TASK_WAIT_PEEK:
	case SONDE_TASK_WAIT_EVENT:
		snprintf(buf, n, "Blocked: %s %s", rtos_wait_verb(ev->obj2, ev->op), ref ? ref : "?");
		return buf;
	default:
		snprintf(buf, n, "%s", ev->obj2_name && ev->obj2_name[0] ? ev->obj2_name : "Not running");
		return buf;
	}
}

/* The object's name, or "<kind> #id". */
static const char *obj_label(const struct sonde_event *ev, char *buf, size_t n)
{
	const char *kind = rtos_kind_name(ev->obj2);

	if (ev->obj_name && ev->obj_name[0])
		return ev->obj_name;
	snprintf(buf, n, "%s #%" PRIu64, kind ? kind : "Object", ev->obj);
	return buf;
}

/* The object's counter track (named after the object), with its state. */
static struct tmap_node *obj_node(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev)
{
	struct tmap_node *n = tmap_obj_track(m, c, R_QUEUE, ev);

	if (n && !n->robj)
		n->robj = calloc(1, sizeof(*n->robj));
	return n && n->robj ? n : NULL;
}

static int is_mutex(uint64_t kind)
{
	return kind == SONDE_OBJK_MUTEX || kind == SONDE_OBJK_RECURSIVE_MUTEX;
}

/* The holder track of a mutex: "<mutex> holder", named after the mutex's
 * counter track (a name that arrives later renames both). */
static struct tmap_node *holder_node(struct tmap *m, struct tmap_core *c, struct tmap_node *o)
{
	char name[TMAP_NAME_MAX + 16];
	struct tmap_robj *r = o->robj;

	if (r->holder && r->holder_gen == o->name_gen)
		return r->holder;
	snprintf(name, sizeof(name), "%s holder", o->name);
	if (!r->holder)
		r->holder = tmap_node_new(m, c, R_HOLDER, c->id, o->obj, TMAP_SLICES, name);
	else
		tmap_rename(m, r->holder, name);
	r->holder_gen = o->name_gen;
	return r->holder;
}

/* Flows: a send starts one, the receive that takes its item ends it. */
static void flow_send(struct tmap *m, struct tmap_robj *r)
{
	uint64_t id = ++m->next_flow;

	if (r->n == TMAP_FLOWS_MAX) { /* the oldest item loses its arrow */
		r->head = (r->head + 1) % TMAP_FLOWS_MAX;
		r->n--;
	}
	r->flows[(r->head + r->n) % TMAP_FLOWS_MAX] = id;
	r->n++;
	m->flow_out = id;
}

static void flow_receive(struct tmap *m, struct tmap_robj *r)
{
	if (r->n == 0)
		return;
	m->flow_in = r->flows[r->head];
	r->head = (r->head + 1) % TMAP_FLOWS_MAX;
	r->n--;
}

/* End the holder slice of a mutex, if one is open. */
static void holder_end(struct tmap *m, struct tmap_robj *r, uint64_t ns)
{
	if (!r->held)
		return;
	tmap_emit_end(m, ns, r->holder, r->held_name ? namepool_str(m->names, r->held_name) : "holder");
	r->held = 0;
}

static void obj_op(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *o = obj_node(m, c, ev), *ctx = tmap_context(m, c), *h;
	uint32_t base = ev->op & SONDE_OP_MASK;
	int ok = !(ev->op & SONDE_OP_F_FAILED);
	char opbuf[64], lb[64], name[200];

	if (!o || !ctx) {
		m->st.unmapped++;
		return;
	}
	/* A mutex's starting level comes before vQueueAddToRegistry() can
	 * name it: drawn then, its sample would be the only one of a counter
	 * "Queue #id" in formats that name each sample (Chrome JSON).  The
	 * first operation draws the level. */
	if ((ev->flags & SONDE_EVF_LEVEL) && (ev->op != SONDE_OP_INIT || (ev->obj_name && ev->obj_name[0])))
		m->ops->counter(m->w, ns, &o->t, ev->value);
	if (ok && base == SONDE_OP_RESET)
		o->robj->n = 0;
	/* mutexes: the holder, from takes and gives by the running task */
	if (ok && is_mutex(ev->obj2) && (base == SONDE_OP_RECEIVE || base == SONDE_OP_SEND) &&
	    (h = holder_node(m, c, o)) != NULL) {
		int added;

		holder_end(m, o->robj, ns);
		if (base == SONDE_OP_RECEIVE && c->cur && c->cur->role == R_TASK && !c->isr_depth) {
			tmap_emit(m, TMAP_BEGIN, ns, h, "rtos", c->cur->name, 0);
			o->robj->held = 1;
			o->robj->held_name = namepool_intern_str(m->names, c->cur->name, &added);
		}
	}
	if (ok && (base == SONDE_OP_SEND || base == SONDE_OP_SET_SEND))
		flow_send(m, o->robj);
	else if (ok && base == SONDE_OP_RECEIVE)
		flow_receive(m, o->robj);
	tmap_args_event(m, ev);
	if (ev->flags & SONDE_EVF_LEVEL)
		tmap_arg_i(m, "level", ev->value);
	/* The label is the event's object name when it has one, which
	 * tmap_obj_track has just made the track's name (a change of it
	 * changes name_gen), else "Kind #id" from the kind and the id. */
	struct tmap_robj *r = o->robj;
	int named = ev->obj_name && ev->obj_name[0];
	for (int i = 0; i < TMAP_OPNAMES; i++) {
		const struct tmap_opname *e = &r->ops[i];
		if (e->name && e->op == ev->op && e->kind == ev->obj2 && e->named == named && e->gen == o->name_gen) {
			tmap_emit_id(m, TMAP_INSTANT, ns, ctx, "rtos", e->name);
			return;
		}
	}
	/* "give (ISR) Mutex #3": by hand, it is done for every new name */
	const char *op = rtos_op_text(opbuf, sizeof(opbuf), ev->op, ev->obj2), *obj = obj_label(ev, lb, sizeof(lb));
	size_t lo = strlen(op), lj = strlen(obj);
	if (lo > sizeof(name) - 2)
		lo = sizeof(name) - 2;
	if (lj > sizeof(name) - 2 - lo)
		lj = sizeof(name) - 2 - lo;
	memcpy(name, op, lo);
	name[lo] = ' ';
	memcpy(name + lo + 1, obj, lj);
	name[lo + 1 + lj] = '\0';
	int added;
	uint32_t id = namepool_intern(m->names, name, lo + 1 + lj, &added);
	if (!id) { /* the table is full */
		tmap_emit(m, TMAP_INSTANT, ns, ctx, "rtos", name, 0);
		return;
	}
	r->ops[r->next_op] = (struct tmap_opname){ id, ev->op, o->name_gen, ev->obj2, named };
	r->next_op = (r->next_op + 1) % TMAP_OPNAMES;
	tmap_emit_id(m, TMAP_INSTANT, ns, ctx, "rtos", id);
}

/* A track of the task's own (role, "<task> <what>"), made on first use. */
static struct tmap_node *task_track(struct tmap *m, struct tmap_core *c, const struct tmap_node *t,
				    enum tmap_role role, enum tmap_kind kind, const char *what)
{
	struct tmap_node *p = tmap_lookup(m, role, c->id, t->obj);
	char name[TMAP_NAME_MAX + 16];

	if (!p) {
		snprintf(name, sizeof(name), "%s %s", t->name, what);
		p = tmap_node_new(m, c, role, c->id, t->obj, kind, name);
	}
	return p;
}

/* A task's free stack (a counter), the idle task's low power (a slice). */
static void task_op(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *t = tmap_obj_track(m, c, R_TASK, ev), *p;
	uint32_t base = ev->op & SONDE_OP_MASK;

	if (!t) {
		m->st.unmapped++;
		return;
	}
	if (base == SONDE_OP_STACK_FREE) {
		if ((p = task_track(m, c, t, R_STACK, TMAP_COUNTER, "stack free")) != NULL)
			m->ops->counter(m->w, ns, &p->t, ev->value);
		return;
	}
	if ((p = task_track(m, c, t, R_LOWPOWER, TMAP_SLICES, "low power")) == NULL)
		return;
	if (base == SONDE_OP_LOW_POWER_BEGIN && !p->running) {
		tmap_args_event(m, ev);
		tmap_arg_i(m, "expected_ticks", ev->value);
		tmap_emit(m, TMAP_BEGIN, ns, p, "rtos", "Low power", 0);
		p->running = 1;
	} else if (base == SONDE_OP_LOW_POWER_END && p->running) {
		tmap_emit_end(m, ns, p, "Low power");
		p->running = 0;
	}
}

static void task_prio(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *t = tmap_obj_track(m, c, R_TASK, ev), *p;
	char name[TMAP_NAME_MAX + 16];

	if (!t) {
		m->st.unmapped++;
		return;
	}
	if (ev->value >= 0 && ev->value <= INT32_MAX)
		t->t.prio = (int32_t)ev->value;
	p = tmap_lookup(m, R_PRIO, c->id, ev->obj);
	if (!p) {
		snprintf(name, sizeof(name), "%s priority", t->name);
		p = tmap_node_new(m, c, R_PRIO, c->id, ev->obj, TMAP_COUNTER, name);
	}
	if (p)
		m->ops->counter(m->w, ns, &p->t, ev->value);
	if (t->state) {
		tmap_args_event(m, ev);
		tmap_arg_i(m, "priority", ev->value);
		tmap_emit(m, TMAP_INSTANT, ns, t->state, "state", rtos_op_name(ev->op, 0) ? rtos_op_name(ev->op, 0)
			  : "priority", 0);
	}
}

static void object(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *o, *h;

	if (ev->op == SONDE_OBJ_CREATE_FAILED) { /* no object: on whatever tried */
		char name[64];

		if ((h = tmap_context(m, c)) == NULL) {
			m->st.unmapped++;
			return;
		}
		snprintf(name, sizeof(name), "create failed %s", ev->obj2_name ? ev->obj2_name : "object");
		tmap_args_event(m, ev);
		tmap_emit(m, TMAP_INSTANT, ns, h, "rtos", name, 0);
		return;
	}
	if (!is_mutex(ev->obj2) || ev->op == SONDE_OBJ_ANNOUNCED)
		return;
	o = obj_node(m, c, ev);
	if (!o || (h = holder_node(m, c, o)) == NULL) {
		m->st.unmapped++;
		return;
	}
	holder_end(m, o->robj, ns);
	tmap_args_event(m, ev);
	tmap_emit(m, TMAP_INSTANT, ns, h, "rtos", ev->op == SONDE_OBJ_DELETED ? "Deleted" : "Created", 0);
}

void tmap_rtos_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	switch (ev->kind) {
	case SONDE_EV_OBJ_OP:
		switch (ev->op & SONDE_OP_MASK) {
		case SONDE_OP_STACK_FREE:
		case SONDE_OP_LOW_POWER_BEGIN:
		case SONDE_OP_LOW_POWER_END:
			task_op(m, c, ev, ns);
			break;
		default:
			obj_op(m, c, ev, ns);
			break;
		}
		break;
	case SONDE_EV_TASK_PRIO:
		task_prio(m, c, ev, ns);
		break;
	default:
		object(m, c, ev, ns);
		break;
	}
}
