/*
 * trackmap.c -- the event-to-track model shared by the Perfetto and Chrome
 * JSON exporters (see trackmap.h for the layout).
 *
 * The model keeps, per core, the running context and, per track, the stack
 * of open slices, because both formats demand that slices on one track nest
 * strictly while the target's events do not always: a task is switched out
 * in the middle of a function, a frame is lost, an exit has no enter.  The
 * rules that restore nesting are here, once, for both writers.
 */
#include "trackmap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "namepool.h"
#include "sonde_proto.h"

/* What a track is for; with the core and the object id it is the key. */
enum tmap_role {
	R_PROCESS, R_DIAG, R_NOTASK, R_ISR, R_IDLE, R_TASK, R_TSTATE,
	R_MARKER, R_COUNTER, R_QUEUE, R_LOST, R_REFUSED
};

/* An open slice on a track. */
enum tmap_fkind { F_ISR, F_FUNC, F_MARK };

struct tmap_frame {
	uint64_t obj;
	uint32_t name_id;  /* in tmap.names; 0 if the pool was full */
	uint8_t kind;
	uint8_t addr;      /* FUNC: obj is an address */
};

struct tmap_core;

struct tmap_node {
	struct tmap_track t;       /* what the writers see */
	enum tmap_role role;
	uint64_t obj;
	struct tmap_core *core;
	char *name;                /* owned; t.name points here */
	struct tmap_frame *stk;    /* open slices (the root slice not counted) */
	uint32_t depth, cap;
	uint32_t hidden;           /* slices deeper than max_depth: counted only */
	int running;               /* task/idle: its root slice is open */
	struct tmap_node *state;   /* task: its state track */
	int state_open;            /* state track: a state slice is open */
};

struct tmap_core {
	uint32_t id;
	struct tmap_node *proc, *diag, *isr, *notask, *idle;
	struct tmap_node *cur;     /* running task or idle context, NULL if none */
	uint32_t isr_depth;        /* ISRs entered and not left (hidden included) */
	uint32_t next_idx;         /* tid allocation within the process */
	int limit_noted;
};

struct tmap {
	const struct tmap_writer_ops *ops;
	void *w;
	char *name;
	uint32_t max_tracks, max_depth;
	struct namepool *names;    /* frame names, so a slice can be reopened */
	struct tmap_node **nodes;  /* every track, in creation order */
	uint32_t nnodes, nodes_cap;
	struct tmap_node **slot;   /* hash table over (role, core, obj) */
	uint32_t slot_mask;
	uint64_t next_uuid;
	int32_t next_pid, next_tid;/* fallbacks for out-of-range core ids */
	struct sonde_arg *args;    /* annotations of the slice being built */
	size_t nargs, args_cap;
	uint32_t last_core;
	uint64_t last_ns;
	int freq_noted;
	struct tmap_stats st;
};

#define TMAP_NAME_MAX 1024     /* stored track names are cut to this */
#define TMAP_PID_MAX  1000000  /* pid = core + 1 below this; tid = pid * 1000 + n */
#define TMAP_TID_FALLBACK 1500000000

/* ---- small helpers ------------------------------------------------------ */

uint64_t tmap_ticks_to_ns(uint64_t ticks, uint64_t freq)
{
	const uint64_t g = 1000000000u;
	uint64_t s, r, ns;

	if (freq == 0 || freq == g)
		return ticks;
	s = ticks / freq;
	r = ticks % freq;
	if (s > UINT64_MAX / g)
		return UINT64_MAX;
	ns = s * g;
	/* r < freq, so r * 1e9 fits while freq < 2^64 / 1e9 (18 GHz) */
	if (freq <= UINT64_MAX / g)
		r = r * g / freq;
	else
		r = (uint64_t)((long double)r * g / freq);
	return ns > UINT64_MAX - r ? UINT64_MAX : ns + r;
}

const char *tmap_arg_name(const struct sonde_arg *a, size_t i, char buf[24])
{
	if (a->name && a->name[0])
		return a->name;
	snprintf(buf, 24, "arg%zu", i);
	return buf;
}

/* The display name of an object: its dictionary name, else "<what> #id"
 * (or a hex address for large ids and FUNC addresses). */
static const char *tmap_label(char *buf, size_t n, const char *what,
			      const char *name, uint64_t obj, int addr)
{
	if (name && name[0])
		return name;
	if (addr || obj > 0xFFFF)
		snprintf(buf, n, "%s 0x%" PRIx64, what, obj);
	else
		snprintf(buf, n, "%s #%" PRIu64, what, obj);
	return buf;
}

/* ---- annotations -------------------------------------------------------- */

static struct sonde_arg *tmap_arg_add(struct tmap *m, const char *name, enum sonde_arg_type type)
{
	struct sonde_arg *a;

	if (m->nargs == m->args_cap) {
		size_t cap = m->args_cap ? m->args_cap * 2 : 16;
		void *p = realloc(m->args, cap * sizeof(*m->args));

		if (!p)
			return NULL;
		m->args = p;
		m->args_cap = cap;
	}
	a = &m->args[m->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->name = name;
	return a;
}

static void tmap_arg_bool(struct tmap *m, const char *name)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_BOOL);

	if (a)
		a->v.u = 1;
}

static void tmap_arg_u(struct tmap *m, const char *name, uint64_t v)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_U64);

	if (a)
		a->v.u = v;
}

static void tmap_arg_i(struct tmap *m, const char *name, int64_t v)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_I64);

	if (a)
		a->v.i = v;
}

static void tmap_arg_str(struct tmap *m, const char *name, const char *s)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_STR);

	if (a) {
		a->v.mem.p = (const uint8_t *)s;
		a->v.mem.n = strlen(s);
	}
}

/* The event's own arguments and flags. */
static void tmap_args_event(struct tmap *m, const struct sonde_event *ev)
{
	for (size_t i = 0; i < ev->nargs; i++) {
		struct sonde_arg *a = tmap_arg_add(m, NULL, SONDE_A_NONE);

		if (!a)
			break;
		*a = ev->args[i];
		if (!a->name || !a->name[0])
			a->name = NULL; /* writers name it arg<i>, i = this index */
	}
	if (ev->ts_flags & SONDE_TS_ESTIMATED)
		tmap_arg_bool(m, "ts_estimated");
	if (ev->flags & SONDE_EVF_MALFORMED)
		tmap_arg_bool(m, "malformed");
}

/* ---- output ------------------------------------------------------------- */

static void tmap_emit(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
		      const char *cat, const char *name, int is_text)
{
	struct tmap_slice s = { cat, name, is_text, m->args, m->nargs };

	m->ops->slice(m->w, type, ns, &n->t, &s);
	m->nargs = 0;
}

/* ---- tracks ------------------------------------------------------------- */

static uint32_t tmap_key_hash(enum tmap_role role, uint32_t core, uint64_t obj)
{
	uint64_t h = obj * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)core << 8 | role) * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	return (uint32_t)h;
}

static struct tmap_node *tmap_lookup(struct tmap *m, enum tmap_role role, uint32_t core, uint64_t obj)
{
	if (!m->slot)
		return NULL;
	for (uint32_t i = tmap_key_hash(role, core, obj) & m->slot_mask; m->slot[i];
	     i = (i + 1) & m->slot_mask) {
		struct tmap_node *n = m->slot[i];

		if (n->role == role && n->t.core == core && n->obj == obj)
			return n;
	}
	return NULL;
}

static int tmap_insert(struct tmap *m, struct tmap_node *n)
{
	if (m->nnodes == m->nodes_cap) {
		uint32_t cap = m->nodes_cap ? m->nodes_cap * 2 : 64;
		void *p = realloc(m->nodes, (size_t)cap * sizeof(*m->nodes));

		if (!p)
			return -1;
		m->nodes = p;
		m->nodes_cap = cap;
	}
	if (!m->slot || (m->nnodes + 1) * 2 > m->slot_mask + 1) {
		uint32_t mask = m->slot ? m->slot_mask * 2 + 1 : 127;
		struct tmap_node **slot = calloc((size_t)mask + 1, sizeof(*slot));

		if (!slot)
			return -1;
		for (uint32_t k = 0; k < m->nnodes; k++) {
			struct tmap_node *o = m->nodes[k];
			uint32_t i = tmap_key_hash(o->role, o->t.core, o->obj) & mask;

			while (slot[i])
				i = (i + 1) & mask;
			slot[i] = o;
		}
		free(m->slot);
		m->slot = slot;
		m->slot_mask = mask;
	}
	uint32_t i = tmap_key_hash(n->role, n->t.core, n->obj) & m->slot_mask;

	while (m->slot[i])
		i = (i + 1) & m->slot_mask;
	m->slot[i] = n;
	m->nodes[m->nnodes++] = n;
	return 0;
}

static int tmap_set_name(struct tmap_node *n, const char *name)
{
	size_t len = strlen(name);
	char *s;

	if (len > TMAP_NAME_MAX)
		len = TMAP_NAME_MAX;
	s = malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, name, len);
	s[len] = '\0';
	free(n->name);
	n->name = s;
	n->t.name = s;
	return 0;
}

static int32_t tmap_alloc_tid(struct tmap *m, struct tmap_core *c)
{
	if (c->proc->t.pid < TMAP_PID_MAX && c->next_idx < 999)
		return c->proc->t.pid * 1000 + (int32_t)++c->next_idx;
	return TMAP_TID_FALLBACK + m->next_tid++;
}

/* Create a track and declare it to the writer.  NULL at the track limit. */
static struct tmap_node *tmap_node_new(struct tmap *m, struct tmap_core *c, enum tmap_role role,
				       uint32_t core, uint64_t obj, enum tmap_kind kind,
				       const char *name)
{
	struct tmap_node *n;

	if (m->nnodes >= m->max_tracks)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->role = role;
	n->obj = obj;
	n->core = c;
	n->t.uuid = ++m->next_uuid;
	n->t.kind = kind;
	n->t.core = core;
	n->t.prio = -1;
	n->t.is_task = role == R_TASK;
	n->t.unit = (role == R_QUEUE || role == R_LOST || role == R_REFUSED)
		? TMAP_UNIT_COUNT : TMAP_UNIT_NONE;
	if (role == R_PROCESS) {
		n->t.pid = core < TMAP_PID_MAX - 1 ? (int32_t)core + 1 : TMAP_PID_MAX + m->next_pid++;
	} else {
		n->t.pid = c->proc->t.pid;
		n->t.parent = c->proc->t.uuid;
		if (kind != TMAP_COUNTER)
			n->t.tid = role == R_NOTASK ? n->t.pid : tmap_alloc_tid(m, c);
	}
	if (tmap_set_name(n, name) < 0 || tmap_insert(m, n) < 0) {
		free(n->name);
		free(n);
		return NULL;
	}
	m->st.tracks++;
	m->ops->track(m->w, &n->t);
	return n;
}

static struct tmap_core *tmap_core_get(struct tmap *m, uint32_t id)
{
	struct tmap_node *p = tmap_lookup(m, R_PROCESS, id, 0);
	struct tmap_core *c;
	char name[256];

	if (p)
		return p->core;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->id = id;
	if (m->name)
		snprintf(name, sizeof(name), "%s core %" PRIu32, m->name, id);
	else
		snprintf(name, sizeof(name), "Core %" PRIu32, id);
	p = tmap_node_new(m, c, R_PROCESS, id, 0, TMAP_PROCESS, name);
	if (!p) {
		free(c);
		return NULL;
	}
	p->core = c;
	c->proc = p;
	return c;
}

/* The per-core tracks that exist once per core. */
static struct tmap_node *tmap_core_track(struct tmap *m, struct tmap_core *c, enum tmap_role role)
{
	struct tmap_node **pp;
	enum tmap_kind kind = TMAP_THREAD;
	const char *name;

	switch (role) {
	case R_DIAG:    pp = &c->diag;   name = "Trace diagnostics"; kind = TMAP_SLICES; break;
	case R_ISR:     pp = &c->isr;    name = "ISRs"; break;
	case R_NOTASK:  pp = &c->notask; name = "No task"; break;
	case R_IDLE:    pp = &c->idle;   name = "Idle"; break;
	default:        return NULL;
	}
	if (!*pp)
		*pp = tmap_node_new(m, c, role, c->id, 0, kind, name);
	return *pp;
}

/* A track per object (task, marker, counter, queue): created on first use,
 * renamed when the event carries a different dictionary name. */
static struct tmap_node *tmap_obj_track(struct tmap *m, struct tmap_core *c, enum tmap_role role,
					const struct sonde_event *ev)
{
	static const char *const what[] = {
		[R_TASK] = "Task", [R_MARKER] = "Marker", [R_COUNTER] = "Counter", [R_QUEUE] = "Queue",
	};
	struct tmap_node *n = tmap_lookup(m, role, c->id, ev->obj);
	enum tmap_kind kind = role == R_COUNTER || role == R_QUEUE ? TMAP_COUNTER
			      : role == R_TASK ? TMAP_THREAD : TMAP_SLICES;
	char buf[64], sbuf[TMAP_NAME_MAX + 8];
	const char *name = tmap_label(buf, sizeof(buf), what[role], ev->obj_name, ev->obj, 0);

	if (n) {
		if (ev->obj_name && ev->obj_name[0] && strncmp(n->name, ev->obj_name, TMAP_NAME_MAX)
		    && tmap_set_name(n, ev->obj_name) == 0) {
			m->ops->track(m->w, &n->t);
			if (n->state) {
				snprintf(sbuf, sizeof(sbuf), "%s state", n->name);
				if (tmap_set_name(n->state, sbuf) == 0)
					m->ops->track(m->w, &n->state->t);
			}
		}
		return n;
	}
	if (role == R_TASK && m->nnodes + 2 > m->max_tracks)
		return NULL;    /* a task needs its state track too */
	n = tmap_node_new(m, c, role, c->id, ev->obj, kind, name);
	if (n && role == R_TASK) {
		snprintf(sbuf, sizeof(sbuf), "%s state", n->name);
		n->state = tmap_node_new(m, c, R_TSTATE, c->id, ev->obj, TMAP_SLICES, sbuf);
	}
	return n;
}

/* ---- slices ------------------------------------------------------------- */

static const char *tmap_frame_name(struct tmap *m, const struct tmap_frame *f, char *buf, size_t n)
{
	static const char *const what[] = { [F_ISR] = "ISR", [F_FUNC] = "func", [F_MARK] = "Marker" };

	if (f->name_id)
		return namepool_str(m->names, f->name_id);
	return tmap_label(buf, n, what[f->kind], NULL, f->obj, f->addr);
}

/* Open a slice; the annotations built so far go with it. */
static void tmap_push(struct tmap *m, struct tmap_node *n, enum tmap_fkind kind, uint64_t obj,
		      int addr, const char *name, uint64_t ns, const char *cat)
{
	struct tmap_frame *f;
	int added;

	if (n->depth == n->cap && n->cap < m->max_depth) {
		uint32_t cap = n->cap ? n->cap * 2 : 4;
		void *p;

		if (cap > m->max_depth)
			cap = m->max_depth;
		p = realloc(n->stk, (size_t)cap * sizeof(*n->stk));
		if (p) {
			n->stk = p;
			n->cap = cap;
		}
	}
	if (n->depth == n->cap || n->hidden) {
		n->hidden++;
		m->st.hidden++;
		m->nargs = 0;
		return;
	}
	f = &n->stk[n->depth++];
	f->kind = (uint8_t)kind;
	f->obj = obj;
	f->addr = (uint8_t)addr;
	f->name_id = namepool_intern(m->names, name, strlen(name), &added);
	tmap_emit(m, TMAP_BEGIN, ns, n, cat, name, 0);
}

/* Close the innermost open slice; the annotations built so far go with it. */
static void tmap_pop(struct tmap *m, struct tmap_node *n, uint64_t ns)
{
	if (n->hidden) {
		n->hidden--;
		m->nargs = 0;
		return;
	}
	if (n->depth == 0) {
		m->nargs = 0;
		return;
	}
	n->depth--;
	tmap_emit(m, TMAP_END, ns, n, NULL, NULL, 0);
}

/* A task (or idle) stops running: close its function slices, then its root. */
static void tmap_suspend(struct tmap *m, struct tmap_node *n, uint64_t ns)
{
	if (!n->running)
		return;
	for (uint32_t i = n->depth; i-- > 0;)
		tmap_emit(m, TMAP_END, ns, n, NULL, NULL, 0);
	tmap_emit(m, TMAP_END, ns, n, NULL, NULL, 0);
	n->running = 0;
}

/* A task (or idle) runs again: reopen its root, then the function slices
 * that were open when it was switched out. */
static void tmap_resume(struct tmap *m, struct tmap_node *n, uint64_t ns, const struct sonde_event *ev)
{
	char buf[64];

	tmap_args_event(m, ev);
	tmap_emit(m, TMAP_BEGIN, ns, n, "sched", n->role == R_IDLE ? "Idle" : "Running", 0);
	for (uint32_t i = 0; i < n->depth; i++) {
		tmap_arg_bool(m, "resumed");
		tmap_emit(m, TMAP_BEGIN, ns, n, "func", tmap_frame_name(m, &n->stk[i], buf, sizeof(buf)), 0);
	}
	n->running = 1;
}

/* The track that FUNC, LOG, RECORD and STATE events of this core go to. */
static struct tmap_node *tmap_context(struct tmap *m, struct tmap_core *c)
{
	if (c->isr_depth && c->isr)
		return c->isr;
	if (c->cur)
		return c->cur;
	return tmap_core_track(m, c, R_NOTASK);
}

/* Leave the innermost ISR: close function slices it left open (marked
 * unterminated), then its own slice.  ev (may be NULL) annotates the end. */
static void tmap_isr_close(struct tmap *m, struct tmap_core *c, uint64_t ns,
			   const struct sonde_event *ev, int unterminated)
{
	struct tmap_node *n = c->isr;

	if (c->isr_depth)
		c->isr_depth--;
	if (n->hidden) {
		n->hidden--;
		return;
	}
	while (n->depth && n->stk[n->depth - 1].kind == F_FUNC) {
		tmap_arg_bool(m, "unterminated");
		tmap_pop(m, n, ns);
	}
	if (n->depth) {
		if (ev)
			tmap_args_event(m, ev);
		if (unterminated)
			tmap_arg_bool(m, "unterminated");
		tmap_pop(m, n, ns);
	}
}

static void tmap_unmatched(struct tmap *m, struct tmap_node *n, uint64_t ns,
			   const struct sonde_event *ev, const char *what)
{
	tmap_args_event(m, ev);
	tmap_emit(m, TMAP_INSTANT, ns, n, "diag", what, 0);
}

/* ---- task states -------------------------------------------------------- */

static void tmap_state(struct tmap *m, struct tmap_node *task, uint64_t ns, const char *state,
		       int sched, enum tmap_tstate st)
{
	struct tmap_node *sn = task->state;

	if (sn) {
		if (sn->state_open)
			tmap_emit(m, TMAP_END, ns, sn, NULL, NULL, 0);
		sn->state_open = 0;
		if (state) {
			tmap_emit(m, TMAP_BEGIN, ns, sn, "state", state, 0);
			sn->state_open = 1;
		}
	}
	m->nargs = 0;
	if (sched && m->ops->task_state)
		m->ops->task_state(m->w, ns, &task->t, st);
}

/* Whatever runs on the core stops; a task that did not say why is taken
 * to be preempted (still ready). */
static void tmap_switch_out(struct tmap *m, struct tmap_core *c, uint64_t ns)
{
	struct tmap_node *prev = c->cur;

	if (!prev)
		return;
	tmap_suspend(m, prev, ns);
	if (prev->role == R_TASK)
		tmap_state(m, prev, ns, "Ready", 1, TMAP_T_RUNNABLE);
	c->cur = NULL;
}

/* ---- event handlers ----------------------------------------------------- */

static void tmap_task_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *t = tmap_obj_track(m, c, R_TASK, ev);

	if (!t) {
		m->st.unmapped++;
		return;
	}
	switch (ev->kind) {
	case SONDE_EV_TASK_CREATE:
		if (ev->obj2 <= INT32_MAX)
			t->t.prio = (int32_t)ev->obj2;
		if (t->state) {
			tmap_args_event(m, ev);
			tmap_arg_u(m, "priority", ev->obj2);
			tmap_emit(m, TMAP_INSTANT, ns, t->state, "state", "Created", 0);
		}
		if (c->cur != t)
			tmap_state(m, t, ns, "Ready", 1, TMAP_T_RUNNABLE);
		break;
	case SONDE_EV_TASK_IN:
		if (c->cur == t)
			break;
		tmap_switch_out(m, c, ns);
		c->cur = t;
		tmap_state(m, t, ns, "Running", 1, TMAP_T_RUNNING);
		tmap_resume(m, t, ns, ev);
		break;
	case SONDE_EV_TASK_OUT:
		if (c->cur == t) {
			tmap_suspend(m, t, ns);
			c->cur = NULL;
		}
		switch (ev->obj2) {
		case SONDE_TASK_PREEMPTED: tmap_state(m, t, ns, "Ready", 1, TMAP_T_RUNNABLE); break;
		case SONDE_TASK_BLOCKED:   tmap_state(m, t, ns, "Blocked", 1, TMAP_T_BLOCKED); break;
		case SONDE_TASK_SUSPENDED: tmap_state(m, t, ns, "Suspended", 1, TMAP_T_SUSPENDED); break;
		case SONDE_TASK_DELETED:
			/* its call stack dies with it: a task created later
			 * with the same id starts afresh */
			t->depth = 0;
			t->hidden = 0;
			tmap_state(m, t, ns, NULL, 1, TMAP_T_DEAD);
			if (t->state) {
				tmap_args_event(m, ev);
				tmap_emit(m, TMAP_INSTANT, ns, t->state, "state", "Deleted", 0);
			}
			break;
		default:
			tmap_state(m, t, ns, ev->obj2_name && ev->obj2_name[0]
				   ? ev->obj2_name : "Not running", 0, TMAP_T_BLOCKED);
		}
		break;
	case SONDE_EV_TASK_READY:
		if (c->cur != t)
			tmap_state(m, t, ns, "Ready", 1, TMAP_T_RUNNABLE);
		break;
	default:
		break;
	}
}

static void tmap_isr_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *n = tmap_core_track(m, c, R_ISR);
	char buf[64];

	if (!n) {
		m->st.unmapped++;
		return;
	}
	if (ev->kind == SONDE_EV_ISR_ENTER) {
		/* the decoder's depth after entering resynchronises us after a loss */
		if (ev->value >= 1)
			while (c->isr_depth >= (uint64_t)ev->value)
				tmap_isr_close(m, c, ns, NULL, 1);
		tmap_args_event(m, ev);
		tmap_push(m, n, F_ISR, ev->obj, 0,
			  tmap_label(buf, sizeof(buf), "ISR", ev->obj_name, ev->obj, 0), ns, "isr");
		c->isr_depth++;
		return;
	}
	if (c->isr_depth == 0) {
		tmap_unmatched(m, n, ns, ev, "ISR exit without enter");
		return;
	}
	if (ev->value >= 1)
		while (c->isr_depth > (uint64_t)ev->value)
			tmap_isr_close(m, c, ns, NULL, 1);
	tmap_isr_close(m, c, ns, ev, 0);
}

static void tmap_func_exit(struct tmap *m, struct tmap_node *n, const struct sonde_event *ev, uint64_t ns)
{
	uint32_t top = n->depth, j;
	int by_obj;

	if (n->hidden) {
		n->hidden--;
		return;
	}
	/* Only the function slices above the innermost ISR (or the bottom)
	 * belong to this context.  An exit naming its function closes the
	 * slices entered after it too; an exit naming none (obj 0 or
	 * SONDE_EVF_NO_OBJ) closes the innermost. */
	by_obj = ev->obj != 0 && !(ev->flags & SONDE_EVF_NO_OBJ);
	for (j = top; j > 0 && n->stk[j - 1].kind == F_FUNC; j--)
		if (!by_obj || n->stk[j - 1].obj == ev->obj)
			break;
	if (j == 0 || n->stk[j - 1].kind != F_FUNC) {
		tmap_unmatched(m, n, ns, ev, "FUNC exit without enter");
		return;
	}
	while (n->depth > j) {
		tmap_arg_bool(m, "unterminated");
		tmap_pop(m, n, ns);
	}
	tmap_args_event(m, ev);
	tmap_pop(m, n, ns);
}

static void tmap_marker_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *n = tmap_obj_track(m, c, R_MARKER, ev);

	if (!n) {
		m->st.unmapped++;
		return;
	}
	switch (ev->kind) {
	case SONDE_EV_MARK:
		tmap_args_event(m, ev);
		tmap_emit(m, TMAP_INSTANT, ns, n, "mark", n->name, 0);
		break;
	case SONDE_EV_MARK_BEGIN:
		tmap_args_event(m, ev);
		tmap_push(m, n, F_MARK, ev->obj, 0, n->name, ns, "mark");
		break;
	default:
		if (n->depth == 0 && n->hidden == 0) {
			tmap_unmatched(m, n, ns, ev, "MARK_END without MARK_BEGIN");
			break;
		}
		tmap_args_event(m, ev);
		tmap_pop(m, n, ns);
	}
}

static void tmap_counter_event(struct tmap *m, struct tmap_core *c, enum tmap_role role,
			       const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *n = tmap_obj_track(m, c, role, ev);

	if (!n) {
		m->st.unmapped++;
		return;
	}
	m->ops->counter(m->w, ns, &n->t, ev->value);
}

static const char *tmap_level_name(uint32_t level)
{
	switch (level) {
	case SONDE_LVL_ERROR: return "error";
	case SONDE_LVL_WARN:  return "warning";
	case SONDE_LVL_INFO:  return "info";
	case SONDE_LVL_DEBUG: return "debug";
	case SONDE_LVL_TRACE: return "trace";
	default:              return NULL;
	}
}

/* LOG, RECORD and STATE: instants on the running context's track. */
static void tmap_instant_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *n = tmap_context(m, c);
	char buf[64];
	const char *name, *cat;
	int is_text = 0;

	if (!n) {
		m->st.unmapped++;
		return;
	}
	/* the event's own arguments first, so that an unnamed one is
	 * arg<its index in the record> */
	tmap_args_event(m, ev);
	if (ev->kind == SONDE_EV_LOG) {
		const char *lvl = tmap_level_name(ev->level);

		cat = "log";
		if (lvl)
			tmap_arg_str(m, "level", lvl);
		else
			tmap_arg_u(m, "level", ev->level);
		if (ev->text) {
			name = ev->text;
			is_text = 1;
		} else {
			name = ev->rec_name ? ev->rec_name : "log";
		}
	} else {
		cat = ev->kind == SONDE_EV_STATE ? "state" : "record";
		if (ev->rec_name && ev->rec_name[0]) {
			name = ev->rec_name;
		} else {
			snprintf(buf, sizeof(buf), "record 0x%" PRIx32, ev->rec_id);
			name = buf;
		}
		if (ev->kind == SONDE_EV_STATE) {
			if (ev->obj_name)
				tmap_arg_str(m, "object", ev->obj_name);
			else
				tmap_arg_u(m, "object", ev->obj);
			if (ev->obj2_name)
				tmap_arg_str(m, "state", ev->obj2_name);
			else
				tmap_arg_u(m, "state", ev->obj2);
		}
		if (ev->text)
			tmap_arg_str(m, "text", ev->text);
	}
	tmap_emit(m, TMAP_INSTANT, ns, n, cat, name, is_text);
}

static void tmap_diag_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns)
{
	struct tmap_node *n = tmap_core_track(m, c, R_DIAG);

	if (!n) {
		m->st.unmapped++;
		return;
	}
	if (ev->kind == SONDE_EV_DROPS) {
		struct tmap_node *lost = tmap_lookup(m, R_LOST, c->id, 0);
		struct tmap_node *refused = tmap_lookup(m, R_REFUSED, c->id, 0);

		tmap_args_event(m, ev);
		tmap_arg_i(m, "overwritten", ev->value);
		tmap_arg_u(m, "refused", ev->obj2);
		tmap_emit(m, TMAP_INSTANT, ns, n, "drops", "Records lost", 0);
		if (!lost)
			lost = tmap_node_new(m, c, R_LOST, c->id, 0, TMAP_COUNTER, "Records overwritten");
		if (!refused)
			refused = tmap_node_new(m, c, R_REFUSED, c->id, 0, TMAP_COUNTER, "Records refused");
		if (lost)
			m->ops->counter(m->w, ns, &lost->t, ev->value);
		if (refused)
			m->ops->counter(m->w, ns, &refused->t, (int64_t)ev->obj2);
		return;
	}
	tmap_args_event(m, ev);
	tmap_emit(m, TMAP_INSTANT, ns, n, "info", ev->rec_name ? ev->rec_name : "Target info", 0);
}

static uint64_t tmap_event_ns(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev,
			      const struct sonde_session *s)
{
	uint64_t freq = s ? s->ts_freq : 0;
	struct tmap_node *d;

	if (!(ev->ts_flags & SONDE_TS_VALID))
		return m->last_ns;
	m->last_ns = tmap_ticks_to_ns(ev->ts, freq);
	if (freq == 0 && !m->freq_noted) {
		/* No TARGET_INFO (or a format without a clock rate): ticks are
		 * written as ns, and the trace says so where it is seen. */
		m->freq_noted = 1;
		m->st.ticks_as_ns = 1;
		d = tmap_core_track(m, c, R_DIAG);
		if (d)
			tmap_emit(m, TMAP_INSTANT, m->last_ns, d, "diag",
				  "Clock rate unknown: 1 tick is shown as 1 ns", 0);
	}
	return m->last_ns;
}

void tmap_event(struct tmap *m, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct tmap_core *c;
	uint64_t ns;

	m->st.events++;
	m->nargs = 0;
	if (ev->kind == SONDE_EV_DICT || ev->kind == SONDE_EV_TIME_SYNC)
		return; /* names travel with the events; times are in ev->ts */
	c = tmap_core_get(m, ev->core);
	if (!c) {
		m->st.unmapped++;
		return;
	}
	m->last_core = c->id;
	ns = tmap_event_ns(m, c, ev, s);

	switch (ev->kind) {
	case SONDE_EV_ISR_ENTER:
	case SONDE_EV_ISR_EXIT:
		tmap_isr_event(m, c, ev, ns);
		break;
	case SONDE_EV_TASK_CREATE:
	case SONDE_EV_TASK_IN:
	case SONDE_EV_TASK_OUT:
	case SONDE_EV_TASK_READY:
		tmap_task_event(m, c, ev, ns);
		break;
	case SONDE_EV_IDLE: {
		struct tmap_node *idle = tmap_core_track(m, c, R_IDLE);

		if (!idle) {
			m->st.unmapped++;
			break;
		}
		if (c->cur == idle)
			break;
		tmap_switch_out(m, c, ns);
		c->cur = idle;
		tmap_resume(m, idle, ns, ev);
		break;
	}
	case SONDE_EV_MARK:
	case SONDE_EV_MARK_BEGIN:
	case SONDE_EV_MARK_END:
		tmap_marker_event(m, c, ev, ns);
		break;
	case SONDE_EV_COUNTER:
		tmap_counter_event(m, c, R_COUNTER, ev, ns);
		break;
	case SONDE_EV_QUEUE:
		tmap_counter_event(m, c, R_QUEUE, ev, ns);
		break;
	case SONDE_EV_FUNC_ENTER: {
		struct tmap_node *n = tmap_context(m, c);
		char buf[64];

		if (!n) {
			m->st.unmapped++;
			break;
		}
		tmap_args_event(m, ev);
		tmap_push(m, n, F_FUNC, ev->obj, !!(ev->flags & SONDE_EVF_ADDR),
			  tmap_label(buf, sizeof(buf), "func", ev->obj_name, ev->obj,
				     !!(ev->flags & SONDE_EVF_ADDR)), ns, "func");
		break;
	}
	case SONDE_EV_FUNC_EXIT: {
		struct tmap_node *n = tmap_context(m, c);

		if (!n)
			m->st.unmapped++;
		else
			tmap_func_exit(m, n, ev, ns);
		break;
	}
	case SONDE_EV_LOG:
	case SONDE_EV_RECORD:
	case SONDE_EV_STATE:
		tmap_instant_event(m, c, ev, ns);
		break;
	case SONDE_EV_INFO:
	case SONDE_EV_DROPS:
		tmap_diag_event(m, c, ev, ns);
		break;
	default:
		break;
	}
	m->nargs = 0;
}

static const char *const tmap_diag_names[SONDE_D_COUNT] = {
	[SONDE_D_BAD_CHECKSUM]   = "Bad checksum",
	[SONDE_D_SEQ_GAP]        = "Sequence gap",
	[SONDE_D_TOO_SHORT]      = "Frame too short",
	[SONDE_D_TOO_LONG]       = "Frame too long",
	[SONDE_D_ABORTED]        = "Frame aborted",
	[SONDE_D_GARBAGE]        = "Garbage skipped",
	[SONDE_D_TRUNCATED]      = "Input truncated",
	[SONDE_D_UNKNOWN_RECORD] = "Unknown record",
	[SONDE_D_MALFORMED]      = "Malformed record",
	[SONDE_D_VERSION]        = "Unsupported version",
	[SONDE_D_TIME]           = "Time not anchored",
	[SONDE_D_OTHER]          = "Decoder error",
};

void tmap_diag(struct tmap *m, const struct sonde_diag *d)
{
	struct tmap_core *c = tmap_core_get(m, m->last_core);
	struct tmap_node *n = c ? tmap_core_track(m, c, R_DIAG) : NULL;
	const char *name = d->code < SONDE_D_COUNT ? tmap_diag_names[d->code] : NULL;

	if (!n) {
		m->st.unmapped++;
		return;
	}
	m->nargs = 0;
	if (d->msg)
		tmap_arg_str(m, "message", d->msg);
	tmap_arg_u(m, "offset", d->offset);
	tmap_arg_u(m, "frame", d->frame);
	tmap_arg_u(m, "count", d->count);
	/* a diagnostic has no time of its own: it is shown at the last event's */
	tmap_emit(m, TMAP_INSTANT, m->last_ns, n, "diag", name ? name : "Decoder error", 0);
}

/* ---- life cycle --------------------------------------------------------- */

static int tmap_opt_u32(sonde_opts opts, const char *prefix, const char *key,
			uint32_t lo, uint32_t hi, uint32_t *out)
{
	char full[96];
	const char *v;
	char *end;
	unsigned long long x;

	snprintf(full, sizeof(full), "%s.%s", prefix, key);
	v = sonde_opt_get(opts, full);
	if (!v)
		return 0;
	errno = 0;
	x = strtoull(v, &end, 0);
	if (errno || end == v || *end || x < lo || x > hi || v[0] == '-') {
		fprintf(stderr, "sonde: option %s=%s: expected a number from %" PRIu32 " to %" PRIu32 "\n",
			full, v, lo, hi);
		return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

int tmap_opt_bool(sonde_opts opts, const char *key, int def)
{
	const char *v = sonde_opt_get(opts, key);
	static const char *const yes[] = { "1", "yes", "on", "true" }, *const no[] = { "0", "no", "off", "false" };

	if (!v)
		return def;
	for (size_t i = 0; i < 4; i++) {
		if (strcmp(v, yes[i]) == 0)
			return 1;
		if (strcmp(v, no[i]) == 0)
			return 0;
	}
	fprintf(stderr, "sonde: option %s=%s: expected 1/0, yes/no, on/off or true/false\n", key, v);
	return -1;
}

int tmap_config_from_opts(struct tmap_config *cfg, sonde_opts opts, const char *prefix)
{
	char full[96];

	memset(cfg, 0, sizeof(*cfg));
	snprintf(full, sizeof(full), "%s.name", prefix);
	cfg->name = sonde_opt_get(opts, full);
	if (tmap_opt_u32(opts, prefix, "max_tracks", 8, 1000000, &cfg->max_tracks) < 0 ||
	    tmap_opt_u32(opts, prefix, "max_depth", 1, 65536, &cfg->max_depth) < 0)
		return -1;
	return 0;
}

struct tmap *tmap_new(const struct tmap_writer_ops *ops, void *w, const struct tmap_config *cfg)
{
	struct tmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->ops = ops;
	m->w = w;
	m->max_tracks = cfg && cfg->max_tracks ? cfg->max_tracks : TMAP_DEFAULT_MAX_TRACKS;
	m->max_depth = cfg && cfg->max_depth ? cfg->max_depth : TMAP_DEFAULT_MAX_DEPTH;
	m->names = namepool_new(cfg && cfg->max_names ? cfg->max_names : TMAP_DEFAULT_MAX_NAMES,
				(size_t)8 << 20);
	if (cfg && cfg->name && cfg->name[0])
		m->name = strdup(cfg->name);
	if (!m->names || (cfg && cfg->name && cfg->name[0] && !m->name)) {
		tmap_free(m);
		return NULL;
	}
	return m;
}

void tmap_free(struct tmap *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nnodes; i++) {
		struct tmap_node *n = m->nodes[i];

		if (n->role == R_PROCESS)
			free(n->core);
		free(n->stk);
		free(n->name);
		free(n);
	}
	free(m->nodes);
	free(m->slot);
	free(m->args);
	free(m->name);
	namepool_free(m->names);
	free(m);
}

void tmap_get_stats(const struct tmap *m, struct tmap_stats *st)
{
	*st = m->st;
}
