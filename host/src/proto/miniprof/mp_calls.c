/*
 * mp_calls.c -- completed calls onto FUNC_ENTER/FUNC_EXIT in time order
 * (mp_calls.h).
 *
 * Pending calls sit in a binary min-heap ordered by (entry, depth, arrival):
 * that is the pre-order of the call tree, callers before their callees.
 * Released calls go through a stack of the calls still open, whose depths
 * strictly increase; a released call first closes (FUNC_EXIT) every open
 * call it does not nest in, so exits come out at their own times, in order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_calls.h"

#define WRAP  (1ull << 32)
#define HALF  (1ull << 31)

struct call {
	uint64_t entry, end;   /* unwrapped microseconds */
	uint64_t seq;          /* arrival number */
	uint64_t offset, frame;
	uint32_t addr, dur, entry_raw;
	uint16_t depth;
};

struct mp_calls {
	struct sonde_out out;
	size_t window;
	struct call *heap;
	size_t n, cap;
	struct call *stack;    /* released calls still open */
	size_t sn, scap;
	int have_ref;          /* ref_end: the latest end, for unwrapping */
	uint64_t ref_end;
	int have_root;         /* root_end: the latest end of a depth-0 call */
	uint64_t root_end;
	int have_entry;        /* max_entry: the latest entry received */
	uint64_t max_entry;
	int have_last;         /* the last released call's key */
	uint64_t last_entry;
	uint16_t last_depth;
	uint64_t seq;
	struct mp_calls_stats st;
	struct sonde_arg args[4];
	char msg[256];
};

static int key_less(const struct call *a, const struct call *b)
{
	if (a->entry != b->entry)
		return a->entry < b->entry;
	if (a->depth != b->depth)
		return a->depth < b->depth;
	return a->seq < b->seq;
}

/* ---- the heap ----------------------------------------------------------------- */

static int heap_push(struct mp_calls *c, const struct call *k)
{
	size_t i;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct call *h;

		if (cap > c->window + 1)
			cap = c->window + 1;
		if (cap <= c->n)
			return -1;
		h = realloc(c->heap, cap * sizeof(*h));
		if (!h)
			return -1;
		c->heap = h;
		c->cap = cap;
	}
	i = c->n++;
	while (i) {
		size_t up = (i - 1) / 2;

		if (!key_less(k, &c->heap[up]))
			break;
		c->heap[i] = c->heap[up];
		i = up;
	}
	c->heap[i] = *k;
	return 0;
}

static struct call heap_pop(struct mp_calls *c)
{
	struct call top = c->heap[0];
	struct call last = c->heap[--c->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < c->n && key_less(&c->heap[l], &last))
			m = l;
		if (l + 1 < c->n && key_less(&c->heap[l + 1], m == i ? &last : &c->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		c->heap[i] = c->heap[m];
		i = m;
	}
	if (c->n)
		c->heap[i] = last;
	return top;
}

/* ---- output ------------------------------------------------------------------- */

static void ev_init(struct sonde_event *ev, enum sonde_ev_kind kind, const struct call *k)
{
	sonde_event_clear(ev);
	ev->kind = kind;
	ev->rec_id = MP_RSP_PROFILE_DATA;
	if (kind == SONDE_EV_FUNC_ENTER)
		ev->rec_name = "CALL_ENTER";
	else if (kind == SONDE_EV_FUNC_EXIT)
		ev->rec_name = "CALL_EXIT";
	else
		ev->rec_name = "PROFILE_RECORD"; /* a call delivered untimed */
	ev->offset = k->offset;
	ev->frame = k->frame;
}

static void arg_u(struct sonde_arg *a, const char *name, enum sonde_arg_type t, uint64_t v)
{
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.u = v;
}

static void emit_func(struct mp_calls *c, enum sonde_ev_kind kind, const struct call *k)
{
	struct sonde_event ev;

	ev_init(&ev, kind, k);
	ev.flags = SONDE_EVF_ADDR;
	ev.ts = kind == SONDE_EV_FUNC_ENTER ? k->entry : k->end;
	ev.ts_flags = SONDE_TS_VALID;
	ev.obj = k->addr;
	ev.value = (int64_t)k->depth + 1;
	if (kind == SONDE_EV_FUNC_ENTER) {
		arg_u(&c->args[0], "duration_us", SONDE_A_U32, k->dur);
		ev.args = c->args;
		ev.nargs = 1;
	}
	if (c->out.event)
		c->out.event(c->out.ctx, &ev);
}

/* A call that cannot take its place in the timed stream: reported (the
 * message is in c->msg), then delivered as a RECORD without a time. */
static void emit_untimed(struct mp_calls *c, const struct call *k, enum sonde_diag_code code)
{
	struct sonde_event ev;

	sonde_diag_put(&c->out, code, k->offset, k->frame, 1, c->msg);
	ev_init(&ev, SONDE_EV_RECORD, k);
	arg_u(&c->args[0], "func", SONDE_A_FUNC, k->addr);
	arg_u(&c->args[1], "entry_us", SONDE_A_U32, k->entry_raw);
	arg_u(&c->args[2], "duration_us", SONDE_A_U32, k->dur);
	arg_u(&c->args[3], "depth", SONDE_A_U16, k->depth);
	ev.args = c->args;
	ev.nargs = 4;
	if (c->out.event)
		c->out.event(c->out.ctx, &ev);
}

static int describe(char *buf, size_t n, const struct call *k)
{
	return snprintf(buf, n, "call of 0x%08" PRIx32 " at depth %u (entry %" PRIu32 " us, %" PRIu32 " us)",
			k->addr, (unsigned)k->depth, k->entry_raw, k->dur);
}

/* ---- release ------------------------------------------------------------------ */

static void release(struct mp_calls *c, const struct call *k)
{
	while (c->sn) {
		const struct call *t = &c->stack[c->sn - 1];

		if (k->depth > t->depth && k->end <= t->end)
			break; /* k runs inside t */
		if (t->end > k->entry) {
			int w = describe(c->msg, sizeof(c->msg), k);

			if (w > 0 && (size_t)w < sizeof(c->msg))
				snprintf(c->msg + w, sizeof(c->msg) - (size_t)w,
					 " overlaps the call of 0x%08" PRIx32 " at depth %u (entry %" PRIu32
					 " us, %" PRIu32 " us) without nesting in it: not placed in the call stacks",
					 t->addr, (unsigned)t->depth, t->entry_raw, t->dur);
			c->st.unnested++;
			emit_untimed(c, k, SONDE_D_MALFORMED);
			return;
		}
		emit_func(c, SONDE_EV_FUNC_EXIT, t);
		c->sn--;
	}
	if (c->sn == c->scap) {
		size_t cap = c->scap ? 2 * c->scap : 64;
		struct call *s = realloc(c->stack, cap * sizeof(*s));

		if (!s) {
			describe(c->msg, sizeof(c->msg), k);
			strncat(c->msg, ": out of memory for the call stack", sizeof(c->msg) - strlen(c->msg) - 1);
			emit_untimed(c, k, SONDE_D_OTHER);
			return;
		}
		c->stack = s;
		c->scap = cap;
	}
	emit_func(c, SONDE_EV_FUNC_ENTER, k);
	c->stack[c->sn++] = *k;
	c->have_last = 1;
	c->last_entry = k->entry;
	c->last_depth = k->depth;
	c->st.released++;
}

/* Release what nothing still to come can precede. */
static void release_ready(struct mp_calls *c)
{
	while (c->n) {
		uint64_t mark;

		if (c->n > c->window) {
			struct call k = heap_pop(c);

			c->st.forced++;
			release(c, &k);
			continue;
		}
		if (!c->have_root || !c->have_entry)
			break;
		mark = c->root_end < c->max_entry ? c->root_end : c->max_entry;
		if (c->heap[0].entry >= mark)
			break;
		struct call k = heap_pop(c);
		release(c, &k);
	}
}

/* ---- input --------------------------------------------------------------------- */

/* The end time on the unwrapped clock: the value with end's low 32 bits
 * nearest to the latest end seen.  Unwrapping the end, not the entry, keeps
 * long calls right: in completion order ends never go backwards. */
static uint64_t unwrap_end(struct mp_calls *c, const struct mp_record *r)
{
	uint64_t end;

	if (!c->have_ref)
		return (uint64_t)r->entry_time + r->duration_us;
	end = (c->ref_end & ~(WRAP - 1)) | (uint32_t)(r->entry_time + r->duration_us);
	if (end + HALF < c->ref_end)
		end += WRAP;
	else if (end > c->ref_end + HALF && end >= WRAP)
		end -= WRAP;
	return end;
}

void mp_calls_add(struct mp_calls *c, const struct mp_record *r, uint64_t offset, uint64_t frame)
{
	struct call k;
	uint64_t end = unwrap_end(c, r);

	memset(&k, 0, sizeof(k));
	k.addr = r->func_addr;
	k.entry_raw = r->entry_time;
	k.dur = r->duration_us;
	k.depth = r->depth;
	k.offset = offset;
	k.frame = frame;
	k.seq = c->seq++;
	c->st.records++;
	if (end < r->duration_us) {
		describe(c->msg, sizeof(c->msg), &k);
		strncat(c->msg, " starts before the first record's time: not placed in the call stacks",
			sizeof(c->msg) - strlen(c->msg) - 1);
		c->st.late++;
		emit_untimed(c, &k, SONDE_D_TIME);
		return;
	}
	k.end = end;
	k.entry = end - r->duration_us;
	if (!c->have_ref || end > c->ref_end)
		c->ref_end = end;
	c->have_ref = 1;
	if (c->have_last && (k.entry < c->last_entry || (k.entry == c->last_entry && k.depth < c->last_depth))) {
		int w = describe(c->msg, sizeof(c->msg), &k);

		if (w > 0 && (size_t)w < sizeof(c->msg))
			snprintf(c->msg + w, sizeof(c->msg) - (size_t)w,
				 " arrived after later calls were released (reorder window of %zu calls): "
				 "not placed in the call stacks", c->window);
		c->st.late++;
		emit_untimed(c, &k, SONDE_D_TIME);
		return;
	}
	if (!c->have_entry || k.entry > c->max_entry)
		c->max_entry = k.entry;
	c->have_entry = 1;
	if (k.depth == 0) {
		if (!c->have_root || k.end > c->root_end)
			c->root_end = k.end;
		c->have_root = 1;
	}
	if (heap_push(c, &k) != 0) {
		/* out of memory below the window: make room the same way a
		 * full window does */
		if (c->n) {
			struct call first = heap_pop(c);

			c->st.forced++;
			release(c, &first);
		}
		if (heap_push(c, &k) != 0) {
			c->st.forced++;
			release(c, &k);
		}
	}
	if (c->n > c->st.max_pending)
		c->st.max_pending = c->n;
	release_ready(c);
}

void mp_calls_finish(struct mp_calls *c)
{
	while (c->n) {
		struct call k = heap_pop(c);

		release(c, &k);
	}
	while (c->sn) {
		emit_func(c, SONDE_EV_FUNC_EXIT, &c->stack[c->sn - 1]);
		c->sn--;
	}
}

struct mp_calls *mp_calls_new(const struct sonde_out *out, size_t window)
{
	struct mp_calls *c;

	if (window < 1 || window > MP_CALLS_MAX_WINDOW)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->out = *out;
	c->window = window;
	return c;
}

void mp_calls_free(struct mp_calls *c)
{
	if (!c)
		return;
	free(c->heap);
	free(c->stack);
	free(c);
}

const struct mp_calls_stats *mp_calls_stats(const struct mp_calls *c)
{
	return &c->st;
}
