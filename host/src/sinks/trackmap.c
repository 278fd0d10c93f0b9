/*
 * trackmap.c -- the event rules of the trackmap model shared by the Perfetto
 * and Chrome JSON exporters (see trackmap.h for the layout): how each event
 * kind maps onto tracks, slices, instants and counters.
 *
 * The model keeps, per core, the running context and, per track, the stack
 * of open slices, because both formats demand that slices on one track nest
 * strictly while the target's events do not always: a task is switched out
 * in the middle of a function, a frame is lost, an exit has no enter.  The
 * rules that restore nesting are here, once, for both writers; the track
 * table is in trackmap_tracks.c, the slice stacks in trackmap_slices.c.
 */
#include "trackmap_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "namepool.h"
#include "sonde_proto.h"

/* ---- time --------------------------------------------------------------- */

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
		int added;

		if (sn->state_open)
			tmap_emit_end(m, ns, sn, sn->state_name ? namepool_str(m->names, sn->state_name) : "state");
		sn->state_open = 0;
		if (state) {
			sn->state_name = namepool_intern_str(m->names, state, &added);
			if (sn->state_name)
				tmap_emit_id(m, TMAP_BEGIN, ns, sn, "state", sn->state_name);
			else
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

/* The code outside any task pauses while a task or idle runs on its core,
 * as a task does when switched out: its open function slices end, and
 * reopen ("resumed") when no task runs again -- so that they count the
 * time of that code only, as the profile does. */
static void tmap_notask_show(struct tmap *m, struct tmap_core *c, uint64_t ns, int show)
{
	if (c->notask)
		tmap_frames_show(m, c->notask, ns, show);
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
		if (!c->cur)
			tmap_notask_show(m, c, ns, 0);
		tmap_switch_out(m, c, ns);
		c->cur = t;
		tmap_state(m, t, ns, "Running", 1, TMAP_T_RUNNING);
		tmap_resume(m, t, ns, ev);
		break;
	case SONDE_EV_TASK_OUT:
		if (c->cur == t) {
			tmap_suspend(m, t, ns);
			c->cur = NULL;
			tmap_notask_show(m, c, ns, 1);
		}
		switch (ev->obj2) {
		case SONDE_TASK_PREEMPTED: tmap_state(m, t, ns, "Ready", 1, TMAP_T_RUNNABLE); break;
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
		default: { /* blocked, delayed, waiting for something */
			enum tmap_tstate st;
			char buf[160];
			const char *name = tmap_rtos_out_state(ev, buf, sizeof(buf), &st);

			tmap_state(m, t, ns, name, ev->obj2 < SONDE_TASK_STATE_COUNT, st);
		}
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
		/* on the core's diagnostics track, beside the loss that caused
		 * it (or the capture's start): no ISR is open to hold it, and
		 * the report splits the ISRs track into a lane per ISR */
		struct tmap_node *d = tmap_core_track(m, c, R_DIAG);
		tmap_unmatched(m, d ? d : n, ns, ev, "ISR exit without enter");
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

/* INFO and DROPS; lost: the records a DROPS reports lost since the
 * previous one of its core (core/loss.h). */
static void tmap_diag_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns,
			    uint64_t lost)
{
	struct tmap_node *n;

	if (ev->kind == SONDE_EV_DROPS) {
		/* a report that changes nothing (Tonbandgeraet sends "0 dropped"
		 * every few thousand events) draws nothing */
		if (ev->value == c->drops_overwritten && ev->obj2 == c->drops_refused)
			return;
		c->drops_overwritten = ev->value;
		c->drops_refused = ev->obj2;
	}
	n = tmap_core_track(m, c, R_DIAG);
	if (!n) {
		m->st.unmapped++;
		return;
	}
	if (ev->kind == SONDE_EV_DROPS) {
		struct tmap_node *ovw = tmap_lookup(m, R_LOST, c->id, 0);
		struct tmap_node *refused = tmap_lookup(m, R_REFUSED, c->id, 0);

		if (lost) { /* a count that went down (the target restarted) is no loss */
			tmap_args_event(m, ev);
			tmap_arg_i(m, "overwritten", ev->value);
			tmap_arg_u(m, "refused", ev->obj2);
			tmap_emit(m, TMAP_INSTANT, ns, n, "drops", "Records lost", 0);
		}
		if (!ovw)
			ovw = tmap_node_new(m, c, R_LOST, c->id, 0, TMAP_COUNTER, "Records overwritten");
		if (!refused)
			refused = tmap_node_new(m, c, R_REFUSED, c->id, 0, TMAP_COUNTER, "Records refused");
		if (ovw)
			m->ops->counter(m->w, ns, &ovw->t, ev->value);
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
	/* Time starts at the session's first timed record; the absolute
	 * target time is kept as an annotation of "Session start". */
	uint64_t origin = s && s->have_origin ? s->origin : 0;
	m->last_ns = tmap_ticks_to_ns(ev->ts > origin ? ev->ts - origin : 0, freq);
	c->last_ns = m->last_ns;
	if (!m->origin_noted && s && s->have_origin) {
		m->origin_noted = 1;
		d = tmap_core_track(m, c, R_DIAG);
		if (d) {
			size_t keep = m->nargs;

			m->nargs = 0;
			tmap_arg_u(m, "origin_ticks", origin);
			tmap_arg_u(m, "origin_ns", tmap_ticks_to_ns(origin, freq));
			tmap_emit(m, TMAP_INSTANT, 0, d, "info", "Session start", 0);
			m->nargs = keep;
		}
	}
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

/* ---- losses ------------------------------------------------------------- */

/* A loss cuts core c at ns (core/loss.h): its ISR slices end (with the
 * function slices inside, unterminated), the running task's or idle's
 * slices end, the calls every task of the core had open are forgotten
 * (they are not reopened when it runs again), and the core runs no task
 * until a record says otherwise. */
static void tmap_cut(struct tmap *m, struct tmap_core *c, uint64_t ns)
{
	struct tmap_node *nt;

	while (c->isr_depth)
		tmap_isr_close(m, c, ns, NULL, 1);
	int notask_shown = !c->cur;

	if (c->cur) {
		tmap_suspend(m, c->cur, ns);
		if (c->cur->role == R_TASK)
			/* what it did next is lost: no state slice; not running */
			tmap_state(m, c->cur, ns, NULL, 1, TMAP_T_RUNNABLE);
		c->cur = NULL;
	}
	for (uint32_t i = 0; i < m->nnodes; i++) {
		struct tmap_node *t = m->nodes[i];
		if (t->core == c && (t->role == R_TASK || t->role == R_IDLE)) {
			t->depth = 0;
			t->hidden = 0;
		}
	}
	nt = c->notask;
	if (nt) {
		while (nt->depth && notask_shown) {
			tmap_arg_bool(m, "unterminated");
			tmap_pop(m, nt, ns);
		}
		nt->depth = 0;
		nt->hidden = 0;
	}
}

static void tmap_cut_cores(struct tmap *m, uint32_t core)
{
	for (uint32_t i = 0; i < m->nnodes; i++) {
		struct tmap_node *p = m->nodes[i];
		if (p->role == R_PROCESS && p->core && (core == SONDE_LOSS_ALL || p->core->id == core))
			tmap_cut(m, p->core, p->core->last_ns);
	}
}

void tmap_event(struct tmap *m, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct tmap_core *c;
	uint64_t ns, lost;
	uint32_t cut;
	int is_loss;

	m->st.events++;
	m->nargs = 0;
	if (ev->kind == SONDE_EV_DICT || ev->kind == SONDE_EV_TIME_SYNC)
		return; /* names travel with the events; times are in ev->ts */
	m->core_name = s ? s->core_name : NULL;
	c = tmap_core_get(m, ev->core);
	if (!c) {
		m->st.unmapped++;
		return;
	}
	m->last_core = c->id;
	m->names_gen = s ? s->names_gen : 0;
	ns = tmap_event_ns(m, c, ev, s);
	is_loss = sonde_loss_event(&m->loss, ev, &cut, &lost);
	if (is_loss) {
		/* at the loss's time: a DROPS's own, else the core's last */
		tmap_cut_cores(m, cut);
		m->nargs = 0;
	}

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
		struct tmap_node *idle;

		if (ev->flags & SONDE_EVF_REF) {
			/* an RTOS's idle task: a task like the others, its thread
			 * and state track those it got when it was created */
			struct sonde_event in = *ev;

			in.kind = SONDE_EV_TASK_IN;
			in.obj = ev->ref;
			in.obj_name = ev->ref_name;
			tmap_task_event(m, c, &in, ns);
			break;
		}
		idle = tmap_core_track(m, c, R_IDLE);
		if (!idle) {
			m->st.unmapped++;
			break;
		}
		if (c->cur == idle)
			break;
		if (!c->cur)
			tmap_notask_show(m, c, ns, 0);
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
	case SONDE_EV_OBJECT:
	case SONDE_EV_OBJ_OP:
	case SONDE_EV_TASK_PRIO:
		tmap_rtos_event(m, c, ev, ns);
		break;
	case SONDE_EV_INFO:
	case SONDE_EV_DROPS:
		tmap_diag_event(m, c, ev, ns, lost);
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
	m->nargs = 0;
	if (sonde_loss_diag(d))
		tmap_cut_cores(m, SONDE_LOSS_ALL);
}
