/*
 * rtos_stats.c -- the RTOS figures of `sonde stats` (rtos_stats.h).
 *
 * Task states follow the events: TASK_CREATE and TASK_READY make a task
 * ready, TASK_IN running, TASK_OUT leaves it in the state it names (a
 * TASK_IN or IDLE without a TASK_OUT of the task that ran: preempted, still
 * ready).  A wait begins when a task is switched out waiting on an object
 * (TASK_OUT's ref) and ends when it becomes ready or runs again: that time
 * is the object's.  A loss (a sequence gap) makes every state unknown until
 * the task's next event, so no time is counted across what was lost.
 */
#include "rtos_stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/rtos_desc.h"
#include "util/utf8text.h"
#include "sonde_proto.h"

void rtos_stats_init(struct rtos_stats *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void rtos_stats_free(struct rtos_stats *rs)
{
	free(rs->tasks);
	free(rs->objs);
	free(rs->heap_use);
	heapmap_clear(&rs->heap);
	rtos_stats_init(rs);
}

/* Keep name (cut to fit) in dst[n]; nothing when there is none.  Every
 * task event names its task: a plain copy, compared first. */
static void set_name(char *dst, size_t n, const char *name)
{
	if (!name || !name[0])
		return;
	size_t k = strnlen(name, n - 1);
	if (memcmp(dst, name, k) == 0 && dst[k] == '\0')
		return;
	memcpy(dst, name, k);
	dst[k] = '\0';
}

/* The entry of (core, id) in a table of at most RTOS_STATS_MAX, created on
 * first use; NULL beyond the limit (counted). */
static void *entry(struct rtos_stats *rs, void **tab, size_t *n, size_t size, uint32_t core, uint64_t id)
{
	char *p = *tab;
	size_t i;

	for (i = 0; i < *n; i++) {
		const struct rtos_key *k = (const struct rtos_key *)(void *)(p + i * size);

		if (k->core == core && k->id == id)
			return p + i * size;
	}
	if (*n == RTOS_STATS_MAX) {
		rs->untracked++;
		return NULL;
	}
	if (*n == 0) {
		p = calloc(RTOS_STATS_MAX, size); /* bounded: allocated once */
		if (!p) {
			rs->untracked++;
			return NULL;
		}
		*tab = p;
	}
	p += (*n)++ * size;
	((struct rtos_key *)(void *)p)->core = core;
	((struct rtos_key *)(void *)p)->id = id;
	return p;
}

static struct rtos_task *task_of(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t id)
{
	struct rtos_task *t = entry(rs, (void **)&rs->tasks, &rs->ntasks, sizeof(*t), ev->core, id);

	if (t && id == ev->obj)
		set_name(t->name, sizeof(t->name), ev->obj_name);
	return t;
}

static struct rtos_obj *obj_of(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t id, const char *name)
{
	struct rtos_obj *o = entry(rs, (void **)&rs->objs, &rs->nobjs, sizeof(*o), ev->core, id);

	if (o)
		set_name(o->name, sizeof(o->name), name);
	return o;
}

static void set_state(struct rtos_task *t, enum rtos_st st, uint64_t ts)
{
	if (t->since_valid && ts >= t->since)
		t->in_state[t->st] += ts - t->since;
	t->st = st;
	t->since = ts;
	t->since_valid = 1;
}

/* A wait ends (the task is ready or runs): its time is the object's. */
static void end_wait(struct rtos_stats *rs, const struct sonde_event *ev, struct rtos_task *t, uint64_t ts)
{
	struct rtos_obj *o;

	if (!t->waiting)
		return;
	t->waiting = 0;
	o = obj_of(rs, ev, t->wait_obj, NULL);
	if (!o || ts < t->wait_from)
		return;
	o->waits++;
	o->wait_sum += ts - t->wait_from;
	if (ts - t->wait_from > o->wait_max)
		o->wait_max = ts - t->wait_from;
}

static struct rtos_task *running(struct rtos_stats *rs, uint32_t core)
{
	return core < 8 && rs->running[core] ? &rs->tasks[rs->running[core] - 1] : NULL;
}

static void set_running(struct rtos_stats *rs, uint32_t core, const struct rtos_task *t)
{
	if (core < 8)
		rs->running[core] = t ? (uint64_t)(t - rs->tasks) + 1 : 0;
}

/* Whatever ran on the core stops without saying why: preempted. */
static void stop_running(struct rtos_stats *rs, uint32_t core, const struct rtos_task *next, uint64_t ts)
{
	struct rtos_task *prev = running(rs, core);

	if (prev && prev != next && prev->st == RTOS_ST_RUNNING)
		set_state(prev, RTOS_ST_READY, ts);
	set_running(rs, core, NULL);
}

static void task_in(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t id, uint64_t ts)
{
	struct rtos_task *t = task_of(rs, ev, id);

	stop_running(rs, ev->core, t, ts);
	if (!t)
		return;
	end_wait(rs, ev, t, ts);
	t->switches++;
	set_state(t, RTOS_ST_RUNNING, ts);
	set_running(rs, ev->core, t);
}

static void task_out(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t ts)
{
	struct rtos_task *t = task_of(rs, ev, ev->obj);

	if (!t)
		return;
	if (running(rs, ev->core) == t)
		set_running(rs, ev->core, NULL);
	switch (ev->obj2) {
	case SONDE_TASK_PREEMPTED: set_state(t, RTOS_ST_READY, ts); break;
	case SONDE_TASK_SUSPENDED: set_state(t, RTOS_ST_SUSPENDED, ts); break;
	case SONDE_TASK_DELETED:   set_state(t, RTOS_ST_DELETED, ts); break;
	default:
		set_state(t, RTOS_ST_BLOCKED, ts);
		t->blocks++;
		if (ev->flags & SONDE_EVF_REF) {
			struct rtos_obj *o = obj_of(rs, ev, ev->ref, ev->ref_name);

			(void)o;
			t->waiting = 1;
			t->wait_obj = ev->ref;
			t->wait_from = ts;
		}
	}
}

/* The heap: by the task that runs (or none), and the blocks it holds. */
static void heap_op(struct rtos_stats *rs, const struct sonde_event *ev, const struct sonde_session *s,
		    uint64_t ts)
{
	struct rtos_task *cur = running(rs, ev->core);
	struct rtos_heap_use *u = &rs->notask_heap;
	struct heap_block b = { .core = ev->core };
	int failed = (ev->op & SONDE_OP_F_FAILED) != 0;

	for (size_t i = 0; i < ev->nargs; i++) {
		if (ev->args[i].name && strcmp(ev->args[i].name, "address") == 0)
			b.addr = ev->args[i].v.u;
		else if (ev->args[i].name && strcmp(ev->args[i].name, "size") == 0)
			b.size = ev->args[i].v.u;
	}
	if (cur) {
		if (!rs->heap_use)
			rs->heap_use = calloc(RTOS_STATS_MAX, sizeof(*rs->heap_use)); /* bounded: once */
		if (rs->heap_use)
			u = &rs->heap_use[cur - rs->tasks];
		b.task = (uint64_t)(cur - rs->tasks) + 1;
	}
	rs->heap_seen = 1;
	if ((ev->op & SONDE_OP_MASK) == SONDE_OP_HEAP_FREE) {
		u->frees++;
		u->bytes_freed += b.size;
		heapmap_remove(&rs->heap, b.addr, NULL);
		return;
	}
	if (failed) {
		u->failed++;
		return;
	}
	u->allocs++;
	u->bytes_alloc += b.size;
	b.ts = s && s->have_origin && ts >= s->origin ? ts - s->origin : ts;
	heapmap_add(&rs->heap, &b);
	if (ev->value > 0 && (uint64_t)ev->value > rs->heap_max)
		rs->heap_max = (uint64_t)ev->value;
}

/* Operations on a task that are not its states: its free stack, the idle
 * task's low power. */
static void task_op(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t ts)
{
	struct rtos_task *t = task_of(rs, ev, ev->obj);

	if (!t)
		return;
	switch (ev->op & SONDE_OP_MASK) {
	case SONDE_OP_STACK_FREE:
		if (!t->stack_seen || (uint64_t)ev->value < t->stack_min)
			t->stack_min = (uint64_t)ev->value;
		t->stack_seen = 1;
		break;
	case SONDE_OP_LOW_POWER_BEGIN:
		t->lp_on = 1;
		t->lp_from = ts;
		break;
	case SONDE_OP_LOW_POWER_END:
		if (t->lp_on && ts >= t->lp_from) {
			t->lp_count++;
			t->lp_sum += ts - t->lp_from;
		}
		t->lp_on = 0;
		break;
	default:
		break;
	}
}

static void obj_op(struct rtos_stats *rs, const struct sonde_event *ev, uint64_t ts)
{
	uint32_t base = ev->op & SONDE_OP_MASK;
	struct rtos_obj *o;
	int failed = (ev->op & SONDE_OP_F_FAILED) != 0;
	struct rtos_task *cur = running(rs, ev->core);

	o = NULL;
	if (rtos_op_on_task(base))
		return; /* operations on tasks: their states count them */
	if ((o = obj_of(rs, ev, ev->obj, ev->obj_name)) == NULL)
		return;
	if (ev->obj2)
		o->kind = ev->obj2;
	if (base >= SONDE_OP_SEND && base <= SONDE_OP_PEEK)
		o->ops[base - SONDE_OP_SEND][failed]++;
	else if (base == SONDE_OP_SET_SEND) /* a member's signal: an item in the set */
		o->ops[0][failed]++;
	else if (ev->op != SONDE_OP_INIT) /* the level it starts with: no operation */
		o->other_ops++;
	if ((ev->flags & SONDE_EVF_LEVEL) && (!o->have_level || ev->value > o->max_level)) {
		o->max_level = ev->value;
		o->have_level = 1;
	}
	if (failed || (o->kind != SONDE_OBJK_MUTEX && o->kind != SONDE_OBJK_RECURSIVE_MUTEX))
		return;
	/* a mutex is held from a task's take to the give */
	if (base == SONDE_OP_RECEIVE && cur) {
		o->held = 1;
		o->held_by = cur->key.id;
		o->held_from = ts;
	} else if (base == SONDE_OP_SEND && o->held) {
		o->held = 0;
		if (ts >= o->held_from) {
			o->holds++;
			o->hold_sum += ts - o->held_from;
			if (ts - o->held_from > o->hold_max)
				o->hold_max = ts - o->held_from;
		}
	}
}

/* RTOS API calls (function spans of RTOS_API_FN ids from Sonde's API
 * record: other decoders' function ids may fall in that range): calls,
 * and the returns that carried a value, how many of them 0 (pdFAIL,
 * nothing). */
static void api_call(struct rtos_stats *rs, const struct sonde_event *ev)
{
	struct rtos_api *a;

	if ((ev->flags & (SONDE_EVF_ADDR | SONDE_EVF_NO_OBJ)) || ev->obj < RTOS_API_FN(0) ||
	    ev->obj >= RTOS_API_FN(RTOS_APIS) || !ev->rec_name || strcmp(ev->rec_name, "API") != 0)
		return;
	rs->seen = 1;
	a = &rs->api[ev->obj - RTOS_API_FN(0)];
	if (ev->kind == SONDE_EV_FUNC_ENTER) {
		a->calls++;
		return;
	}
	for (size_t i = 0; i < ev->nargs; i++) {
		if (ev->args[i].name && strcmp(ev->args[i].name, "ret") == 0) {
			a->rets++;
			a->zero += ev->args[i].v.u == 0;
		}
	}
}

/* The time of the latest record, tallied ones included. */
static uint64_t latest(const struct rtos_stats *rs)
{
	return rs->tally && rs->tally->n != rs->tally_seen ? rs->tally->last : rs->last_ts;
}

/* Records tallied since the last event: the latest of them is the latest
 * record. */
static void catch_up(struct rtos_stats *rs, const struct sonde_session *s)
{
	if (s && s->tally)
		rs->tally = s->tally;
	rs->last_ts = latest(rs);
	if (rs->tally)
		rs->tally_seen = rs->tally->n;
}

static void rtos_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct rtos_stats *rs = ctx;
	struct rtos_task *t;
	struct rtos_obj *o;

	catch_up(rs, s);
	uint64_t ts = (ev->ts_flags & SONDE_TS_VALID) ? ev->ts : rs->last_ts;
	rs->last_ts = ts;
	switch (ev->kind) {
	case SONDE_EV_TASK_CREATE:
		if ((t = task_of(rs, ev, ev->obj)) != NULL)
			set_state(t, RTOS_ST_READY, ts);
		break;
	case SONDE_EV_TASK_IN:
		task_in(rs, ev, ev->obj, ts);
		break;
	case SONDE_EV_IDLE: /* the idle task runs, if it is known */
		if (ev->flags & SONDE_EVF_REF)
			task_in(rs, ev, ev->ref, ts);
		else if (ev->core < 8 && rs->idle[ev->core])
			task_in(rs, ev, rs->idle[ev->core] - 1, ts);
		else
			stop_running(rs, ev->core, NULL, ts);
		break;
	case SONDE_EV_TASK_OUT:
		task_out(rs, ev, ts);
		break;
	case SONDE_EV_TASK_READY:
		if ((t = task_of(rs, ev, ev->obj)) != NULL && t->st != RTOS_ST_RUNNING) {
			end_wait(rs, ev, t, ts);
			set_state(t, RTOS_ST_READY, ts);
		}
		break;
	case SONDE_EV_OBJ_OP:
		rs->seen = 1;
		if (ev->obj == SONDE_OBJ_HEAP)
			heap_op(rs, ev, s, ts);
		else if ((ev->op & SONDE_OP_MASK) >= SONDE_OP_STACK_FREE &&
			 (ev->op & SONDE_OP_MASK) <= SONDE_OP_LOW_POWER_END)
			task_op(rs, ev, ts);
		else
			obj_op(rs, ev, ts);
		break;
	case SONDE_EV_OBJECT:
		rs->seen = 1;
		if (ev->op == SONDE_OBJ_CREATE_FAILED) {
			rs->create_failed[ev->obj2 < RTOS_KINDS ? ev->obj2 : 0]++;
		} else if (rtos_kind_is_task(ev->obj2)) {
			task_of(rs, ev, ev->obj);
			if (ev->obj2 == SONDE_OBJK_IDLE_TASK && ev->core < 8)
				rs->idle[ev->core] = ev->obj + 1;
		} else if ((o = obj_of(rs, ev, ev->obj, ev->obj_name)) != NULL && ev->obj2) {
			o->kind = ev->obj2;
		}
		break;
	case SONDE_EV_TASK_PRIO:
		rs->seen = 1;
		break;
	case SONDE_EV_FUNC_ENTER:
	case SONDE_EV_FUNC_EXIT:
		api_call(rs, ev);
		break;
	default:
		break;
	}
}

/* A loss: nothing is known about states until the next events. */
static void rtos_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	struct rtos_stats *rs = ctx;

	catch_up(rs, s);
	if (d->code != SONDE_D_SEQ_GAP)
		return;
	for (size_t i = 0; i < rs->ntasks; i++) {
		struct rtos_task *t = &rs->tasks[i];

		if (t->since_valid && rs->last_ts >= t->since)
			t->in_state[t->st] += rs->last_ts - t->since;
		t->st = RTOS_ST_UNKNOWN;
		t->since_valid = t->waiting = 0;
	}
	for (size_t i = 0; i < rs->nobjs; i++)
		rs->objs[i].held = 0;
	for (size_t i = 0; i < rs->ntasks; i++)
		rs->tasks[i].lp_on = 0;
	memset(rs->running, 0, sizeof(rs->running));
}

struct sonde_listener rtos_stats_listener(struct rtos_stats *rs)
{
	uint32_t needed = sonde_kind_bit(SONDE_EV_TASK_CREATE) | sonde_kind_bit(SONDE_EV_TASK_IN) |
			  sonde_kind_bit(SONDE_EV_TASK_OUT) | sonde_kind_bit(SONDE_EV_TASK_READY) |
			  sonde_kind_bit(SONDE_EV_IDLE) | sonde_kind_bit(SONDE_EV_OBJ_OP) |
			  sonde_kind_bit(SONDE_EV_OBJECT) | sonde_kind_bit(SONDE_EV_TASK_PRIO);
	/* FUNC_ENTER/FUNC_EXIT stay tallied: of them only the API spans count
	 * here, and the Sonde decoder delivers those (record API) whatever
	 * the tally; the application's FUNC records keep their fast path. */
	struct sonde_listener l = { .event = rtos_event, .diag = rtos_diag, .ctx = rs, .no_text = 1,
				    .tally_kinds = SONDE_KINDS_ALL & ~needed };
	return l;
}

/* ---- the report ----------------------------------------------------------- */

/* Ticks as microseconds with one decimal (or ticks without a clock). */
static void put_us(FILE *out, int width, uint64_t ticks, uint64_t freq)
{
	if (freq)
		fprintf(out, " %*.1f", width, (double)ticks * 1e6 / (double)freq);
	else
		fprintf(out, " %*" PRIu64, width, ticks);
}

static const char *label(char *buf, size_t n, const char *name, uint64_t id)
{
	if (name[0])
		return name;
	snprintf(buf, n, "#%" PRIu64, id);
	return buf;
}

/* Failed creations, by kind: one line, none when there were none. */
static void print_failed(const struct rtos_stats *rs, FILE *out)
{
	const char *sep = "";
	uint64_t n = 0;

	for (size_t k = 0; k < RTOS_KINDS; k++)
		n += rs->create_failed[k];
	if (!n)
		return;
	fprintf(out, "\nRTOS objects that could not be created: %" PRIu64 " (", n);
	for (size_t k = 0; k < RTOS_KINDS; k++) {
		if (!rs->create_failed[k])
			continue;
		fprintf(out, "%s%s %" PRIu64, sep, rtos_kind_name(k) ? rtos_kind_name(k) : "unknown kind",
			rs->create_failed[k]);
		sep = ", ";
	}
	fputs(")\n", out);
}

/* The API calls table, when the trace has API spans. */
static void print_api(const struct rtos_stats *rs, FILE *out)
{
	int any = 0;

	for (size_t i = 0; i < RTOS_APIS; i++) {
		const struct rtos_api *a = &rs->api[i];
		char rets[24] = "-", zero[24] = "-";

		if (!a->calls && !a->rets)
			continue;
		if (!any)
			fprintf(out, "\nRTOS API calls (returned: calls that returned a value; 0: of those, "
				     "the ones that returned 0)\n%-32s %9s %9s %9s\n", "function", "calls", "returned",
				"0");
		any = 1;
		if (a->rets) {
			snprintf(rets, sizeof(rets), "%" PRIu64, a->rets);
			snprintf(zero, sizeof(zero), "%" PRIu64, a->zero);
		}
		fprintf(out, "%-32s %9" PRIu64 " %9s %9s\n", rtos_api_name(i) ? rtos_api_name(i) : "?", a->calls, rets,
			zero);
	}
}

static void heap_row(FILE *out, const char *name, const struct rtos_heap_use *u)
{
	if (!u->allocs && !u->failed && !u->frees)
		return;
	fprintf(out, "%-16s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", name, u->allocs,
		u->failed, u->frees, u->bytes_alloc, u->bytes_freed);
}

struct leak_ctx {
	const struct rtos_stats *rs;
	uint64_t freq;
	FILE *out;
};

static void leak_row(const struct heap_block *b, void *ctx)
{
	const struct leak_ctx *l = ctx;
	const struct rtos_task *t = b->task ? &l->rs->tasks[b->task - 1] : NULL;
	char buf[32];

	fprintf(l->out, "0x%08" PRIx64 " %10" PRIu64 "  %-16s", b->addr, b->size,
		t ? label(buf, sizeof(buf), t->name, t->key.id) : SONDE_NOTASK_NAME);
	put_us(l->out, 14, b->ts, l->freq);
	fputc('\n', l->out);
}

/* The heap: by task, and the blocks still allocated at the end. */
static void heap_print(const struct rtos_stats *rs, uint64_t freq, FILE *out)
{
	struct leak_ctx l = { rs, freq, out };
	char buf[32];

	if (!rs->heap_seen)
		return;
	fprintf(out, "\nRTOS heap, bytes: in use at the end %" PRIu64 ", most in use %" PRIu64 "\n", rs->heap.bytes,
		rs->heap_max);
	fprintf(out, "%-16s %8s %8s %8s %12s %12s\n", "task", "allocs", "failed", "frees", "allocated", "freed");
	heap_row(out, SONDE_NOTASK_NAME, &rs->notask_heap);
	for (size_t i = 0; rs->heap_use && i < rs->ntasks; i++)
		heap_row(out, label(buf, sizeof(buf), rs->tasks[i].name, rs->tasks[i].key.id), &rs->heap_use[i]);
	fprintf(out, "\nRTOS heap blocks still allocated at the end: %zu blocks, %" PRIu64 " bytes "
		     "(allocated at: %s since the trace began)\n", rs->heap.n, rs->heap.bytes, freq ? "us" : "ticks");
	fprintf(out, "%-10s %10s  %-16s %14s\n", "address", "size", "task", "allocated at");
	heapmap_each(&rs->heap, leak_row, &l);
	if (rs->heap.dropped)
		fprintf(out, "(%" PRIu64 " blocks beyond the first %u not followed)\n", rs->heap.dropped, HEAPMAP_MAX);
}

/* A task's time in each state up to the latest event (the state it is in
 * still counting). */
static void task_states(const struct rtos_task *t, uint64_t last, uint64_t st[RTOS_ST_COUNT])
{
	memcpy(st, t->in_state, sizeof(t->in_state));
	if (t->since_valid && last >= t->since)
		st[t->st] += last - t->since;
}

int rtos_stats_print(const struct rtos_stats *rs, uint64_t freq, FILE *out)
{
	const char *unit = freq ? "us" : "ticks";
	char buf[32];
	uint64_t last = latest(rs);

	if (!rs->seen)
		return 0;
	fprintf(out, "\nRTOS tasks, time in %s by state (switches: switched in; blocks: switched out waiting)\n",
		unit);
	fprintf(out, "%-16s %12s %12s %12s %12s %9s %8s %10s\n", "task", "running", "ready", "blocked", "suspended",
		"switches", "blocks", "stack min");
	for (size_t i = 0; i < rs->ntasks; i++) {
		const struct rtos_task *t = &rs->tasks[i];
		uint64_t st[RTOS_ST_COUNT];

		task_states(t, last, st);
		fprintf(out, "%-16s", label(buf, sizeof(buf), t->name, t->key.id));
		put_us(out, 12, st[RTOS_ST_RUNNING], freq);
		put_us(out, 12, st[RTOS_ST_READY], freq);
		put_us(out, 12, st[RTOS_ST_BLOCKED], freq);
		put_us(out, 12, st[RTOS_ST_SUSPENDED], freq);
		fprintf(out, " %9" PRIu64 " %8" PRIu64, t->switches, t->blocks);
		if (t->stack_seen)
			fprintf(out, " %10" PRIu64 "\n", t->stack_min);
		else
			fprintf(out, " %10s\n", "-");
	}
	fprintf(out, "(stack min: the least free stack a task was seen with, in bytes; -: not traced)\n");
	for (size_t i = 0; i < rs->ntasks; i++) {
		const struct rtos_task *t = &rs->tasks[i];

		if (!t->lp_count)
			continue;
		fprintf(out, "low power: %s %" PRIu64 " times,", label(buf, sizeof(buf), t->name, t->key.id),
			t->lp_count);
		put_us(out, 0, t->lp_sum, freq);
		fprintf(out, " %s in all\n", unit);
	}
	fprintf(out, "\nRTOS objects, time in %s (waits: tasks blocked on the object; held: a mutex "
		     "from take to give)\n", unit);
	fprintf(out, "%-16s %-18s %11s %11s %9s %6s %6s %7s %12s %10s %10s %7s %10s\n", "object", "kind",
		"put/failed", "get/failed", "peek", "other", "level", "waits", "wait total", "mean", "max", "holds",
		"held max");
	for (size_t i = 0; i < rs->nobjs; i++) {
		const struct rtos_obj *o = &rs->objs[i];
		const char *kind = rtos_kind_name(o->kind);
		char put[24], get[24], peek[24], lvl[24];

		snprintf(put, sizeof(put), "%" PRIu64 "/%" PRIu64, o->ops[0][0], o->ops[0][1]);
		snprintf(get, sizeof(get), "%" PRIu64 "/%" PRIu64, o->ops[1][0], o->ops[1][1]);
		snprintf(peek, sizeof(peek), "%" PRIu64 "/%" PRIu64, o->ops[2][0], o->ops[2][1]);
		if (o->have_level)
			snprintf(lvl, sizeof(lvl), "%" PRId64, o->max_level);
		else
			snprintf(lvl, sizeof(lvl), "-");
		fprintf(out, "%-16s %-18s %11s %11s %9s %6" PRIu64 " %6s %7" PRIu64,
			label(buf, sizeof(buf), o->name, o->key.id), kind ? kind : "?", put, get, peek, o->other_ops, lvl,
			o->waits);
		put_us(out, 12, o->wait_sum, freq);
		put_us(out, 10, o->waits ? o->wait_sum / o->waits : 0, freq);
		put_us(out, 10, o->wait_max, freq);
		fprintf(out, " %7" PRIu64, o->holds);
		put_us(out, 10, o->hold_max, freq);
		fputc('\n', out);
	}
	if (rs->untracked)
		fprintf(out, "(%" PRIu64 " events about tasks or objects beyond the first %d not counted)\n",
			rs->untracked, RTOS_STATS_MAX);
	print_failed(rs, out);
	print_api(rs, out);
	heap_print(rs, freq, out);
	return ferror(out) ? -1 : 0;
}

/* ---- the same as JSON lines --------------------------------------------------- */

static void json_name(FILE *out, const char *key, const char *name)
{
	fprintf(out, ",\"%s\":", key);
	if (name && name[0])
		utf8text_json(out, (const uint8_t *)name, strlen(name));
	else
		fputs("null", out);
}

static void json_task(const struct rtos_stats *rs, const struct rtos_task *t, FILE *out)
{
	uint64_t st[RTOS_ST_COUNT];

	task_states(t, latest(rs), st);
	fputs("{\"type\":\"rtos_task\"", out);
	json_name(out, "name", t->name);
	fprintf(out, ",\"id\":%" PRIu64 ",\"core\":%" PRIu32 ",\"running\":%" PRIu64 ",\"ready\":%" PRIu64
		     ",\"blocked\":%" PRIu64 ",\"suspended\":%" PRIu64 ",\"switches\":%" PRIu64 ",\"blocks\":%" PRIu64,
		t->key.id, t->key.core, st[RTOS_ST_RUNNING], st[RTOS_ST_READY], st[RTOS_ST_BLOCKED],
		st[RTOS_ST_SUSPENDED], t->switches, t->blocks);
	if (t->stack_seen)
		fprintf(out, ",\"stack_min\":%" PRIu64, t->stack_min);
	else
		fputs(",\"stack_min\":null", out);
	fprintf(out, ",\"low_power\":{\"count\":%" PRIu64 ",\"time\":%" PRIu64 "}}\n", t->lp_count, t->lp_sum);
}

static void json_obj(const struct rtos_obj *o, FILE *out)
{
	fputs("{\"type\":\"rtos_object\"", out);
	json_name(out, "name", o->name);
	json_name(out, "kind", rtos_kind_name(o->kind));
	fprintf(out, ",\"id\":%" PRIu64 ",\"core\":%" PRIu32 ",\"put\":[%" PRIu64 ",%" PRIu64 "],\"get\":[%" PRIu64
		     ",%" PRIu64 "],\"peek\":[%" PRIu64 ",%" PRIu64 "],\"other\":%" PRIu64,
		o->key.id, o->key.core, o->ops[0][0], o->ops[0][1], o->ops[1][0], o->ops[1][1], o->ops[2][0],
		o->ops[2][1], o->other_ops);
	if (o->have_level)
		fprintf(out, ",\"max_level\":%" PRId64, o->max_level);
	else
		fputs(",\"max_level\":null", out);
	fprintf(out, ",\"waits\":%" PRIu64 ",\"wait_total\":%" PRIu64 ",\"wait_max\":%" PRIu64 ",\"holds\":%" PRIu64
		     ",\"hold_total\":%" PRIu64 ",\"hold_max\":%" PRIu64 "}\n",
		o->waits, o->wait_sum, o->wait_max, o->holds, o->hold_sum, o->hold_max);
}

/* Who used the heap: the task's name (null: never named) and id, or the
 * no-task context with id null. */
static void json_who(FILE *out, const struct rtos_task *t)
{
	json_name(out, "task", t ? t->name : SONDE_NOTASK_NAME);
	if (t)
		fprintf(out, ",\"task_id\":%" PRIu64, t->key.id);
	else
		fputs(",\"task_id\":null", out);
}

static void json_heap_use(FILE *out, const struct rtos_task *t, const struct rtos_heap_use *u)
{
	if (!u->allocs && !u->failed && !u->frees)
		return;
	fputs("{\"type\":\"rtos_heap_task\"", out);
	json_who(out, t);
	fprintf(out, ",\"allocs\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"frees\":%" PRIu64 ",\"allocated\":%" PRIu64
		     ",\"freed\":%" PRIu64 "}\n",
		u->allocs, u->failed, u->frees, u->bytes_alloc, u->bytes_freed);
}

static void json_block(const struct heap_block *b, void *ctx)
{
	const struct leak_ctx *l = ctx;
	fprintf(l->out, "{\"type\":\"rtos_heap_block\",\"address\":%" PRIu64 ",\"size\":%" PRIu64, b->addr, b->size);
	json_who(l->out, b->task ? &l->rs->tasks[b->task - 1] : NULL);
	fprintf(l->out, ",\"ts\":%" PRIu64 "}\n", b->ts);
}

int rtos_stats_json(const struct rtos_stats *rs, FILE *out)
{
	struct leak_ctx l = { rs, 0, out };
	const char *sep = "";

	if (!rs->seen)
		return 0;
	fprintf(out, "{\"type\":\"rtos\",\"tasks\":%zu,\"objects\":%zu,\"untracked\":%" PRIu64 ",\"create_failed\":{",
		rs->ntasks, rs->nobjs, rs->untracked);
	for (size_t k = 0; k < RTOS_KINDS; k++) {
		if (!rs->create_failed[k])
			continue;
		fprintf(out, "%s\"%s\":%" PRIu64, sep, rtos_kind_name(k) ? rtos_kind_name(k) : "unknown kind",
			rs->create_failed[k]);
		sep = ",";
	}
	fputs("}}\n", out);
	for (size_t i = 0; i < rs->ntasks; i++)
		json_task(rs, &rs->tasks[i], out);
	for (size_t i = 0; i < rs->nobjs; i++)
		json_obj(&rs->objs[i], out);
	for (size_t i = 0; i < RTOS_APIS; i++) {
		const struct rtos_api *a = &rs->api[i];

		if (!a->calls && !a->rets)
			continue;
		fputs("{\"type\":\"rtos_api\"", out);
		json_name(out, "name", rtos_api_name(i));
		fprintf(out, ",\"id\":%zu,\"calls\":%" PRIu64 ",\"returned\":%" PRIu64 ",\"zero\":%" PRIu64 "}\n", i,
			a->calls, a->rets, a->zero);
	}
	if (rs->heap_seen) {
		fprintf(out, "{\"type\":\"rtos_heap\",\"in_use\":%" PRIu64 ",\"max_in_use\":%" PRIu64
			     ",\"blocks\":%zu,\"blocks_not_followed\":%" PRIu64 "}\n",
			rs->heap.bytes, rs->heap_max, rs->heap.n, rs->heap.dropped);
		json_heap_use(out, NULL, &rs->notask_heap);
		for (size_t i = 0; rs->heap_use && i < rs->ntasks; i++)
			json_heap_use(out, &rs->tasks[i], &rs->heap_use[i]);
		heapmap_each(&rs->heap, json_block, &l);
	}
	return ferror(out) ? -1 : 0;
}
