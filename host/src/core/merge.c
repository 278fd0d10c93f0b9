/*
 * merge.c -- the k-way merge of several inputs' event streams (merge.h).
 *
 * Per input a FIFO of deep copies.  The copies are cut from 64 KiB chunks
 * in order and leave in the same order, so a chunk is given back as soon as
 * its last copy has gone and a queue costs a malloc per 64 KiB, not one per
 * event.  Picking the next event scans the heads of all queues: with at
 * most SONDE_MERGE_MAX_INPUTS inputs that is cheaper than keeping a heap.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

#define MQ_CHUNK (64u * 1024u)
#define MQ_ALIGN alignof(max_align_t)

struct mq_chunk {
	struct mq_chunk *next;
	size_t cap, used, live; /* bytes; bytes taken; copies still queued */
	max_align_t data[];
};

struct mq_item {
	struct mq_item *next;
	struct mq_chunk *chunk;
	size_t size;            /* bytes taken in the chunk */
	uint64_t freq;          /* the input's clock when the item was queued */
	int is_diag;
	union {
		struct sonde_event ev;
		struct sonde_diag d;
	} u;
};

struct merge_in {
	const char *name;
	struct mq_item *head, *tail;
	size_t count, bytes;
	struct mq_chunk *first, *last, *spare;
	uint64_t freq;          /* the input's latest clock */
	uint32_t core;
	int set_core, ended;
	int overflowing;        /* released ahead of the others; said so */
	int noted;              /* its clock conversion was noted */
	struct sonde_merge_stats st;
};

struct sonde_merge {
	struct sonde_merge_out out;
	size_t n, max_events, max_bytes;
	size_t blocked;         /* inputs not ended with nothing queued */
	size_t overflowing;     /* inputs with overflowing set */
	uint64_t freq;          /* the merged clock, 0 until known */
	struct merge_in in[];
};

/* ---- the queues' memory ----------------------------------------------- */

static size_t mq_round(size_t n)
{
	return (n + MQ_ALIGN - 1) / MQ_ALIGN * MQ_ALIGN;
}

static void mq_recycle(struct merge_in *q, struct mq_chunk *c)
{
	if (!q->spare && c->cap == MQ_CHUNK)
		q->spare = c;
	else
		free(c);
}

static void *mq_alloc(struct merge_in *q, size_t size, struct mq_chunk **where)
{
	struct mq_chunk *c = q->last;

	if (c && c->live == 0 && c->cap < size) {
		/* an empty queue's only chunk, too small for this one */
		q->first = q->last = NULL;
		mq_recycle(q, c);
		c = NULL;
	}
	if (!c || c->cap - c->used < size) {
		if (q->spare && size <= q->spare->cap) {
			c = q->spare;
			q->spare = NULL;
		} else {
			size_t cap = size > MQ_CHUNK ? size : MQ_CHUNK;
			c = malloc(sizeof(*c) + cap);
			if (!c)
				return NULL;
			c->cap = cap;
		}
		c->next = NULL;
		c->used = c->live = 0;
		if (q->last)
			q->last->next = c;
		else
			q->first = c;
		q->last = c;
	}
	void *p = (unsigned char *)c->data + c->used;
	c->used += size;
	c->live++;
	*where = c;
	return p;
}

/* Unlink the head item and give its memory back. */
static void mq_drop_head(struct merge_in *q)
{
	struct mq_item *it = q->head;
	struct mq_chunk *c = it->chunk;

	q->head = it->next;
	if (!q->head)
		q->tail = NULL;
	q->count--;
	q->bytes -= it->size;
	if (--c->live == 0) {
		if (c == q->last) {
			c->used = 0; /* the queue is empty: start the chunk afresh */
		} else {
			/* copies leave in order: an emptied chunk is the oldest */
			q->first = c->next;
			mq_recycle(q, c);
		}
	}
}

/* ---- deep copies ------------------------------------------------------- */

static size_t str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

static const char *put_str(unsigned char **p, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *r = memcpy(*p, s, n);
	*p += n;
	return r;
}

static int arg_has_mem(const struct sonde_arg *a)
{
	return a->type == SONDE_A_STR || a->type == SONDE_A_MEM;
}

static size_t nargs_of(const struct sonde_event *ev)
{
	return ev->args ? ev->nargs : 0;
}

static size_t event_size(const struct sonde_event *ev)
{
	size_t nargs = nargs_of(ev);
	size_t n = mq_round(sizeof(struct mq_item)) + mq_round(nargs * sizeof(struct sonde_arg));

	n += str_size(ev->rec_name) + str_size(ev->obj_name) + str_size(ev->obj2_name) + str_size(ev->text) +
	     str_size(ev->native);
	for (size_t k = 0; k < nargs; k++) {
		const struct sonde_arg *a = &ev->args[k];
		n += str_size(a->name) + str_size(a->resolved);
		if (arg_has_mem(a))
			n += a->v.mem.n;
	}
	return mq_round(n);
}

/* Copy ev into the item (size from event_size) and what it points to
 * behind it. */
static void event_copy(struct mq_item *it, const struct sonde_event *ev)
{
	size_t nargs = nargs_of(ev);
	unsigned char *p = (unsigned char *)it + mq_round(sizeof(*it));
	struct sonde_arg *args = nargs ? (struct sonde_arg *)p : NULL;
	struct sonde_event *c = &it->u.ev;

	*c = *ev;
	p += mq_round(nargs * sizeof(struct sonde_arg));
	c->rec_name = put_str(&p, ev->rec_name);
	c->obj_name = put_str(&p, ev->obj_name);
	c->obj2_name = put_str(&p, ev->obj2_name);
	c->text = put_str(&p, ev->text);
	c->native = put_str(&p, ev->native);
	c->args = args;
	c->nargs = nargs;
	for (size_t k = 0; k < nargs; k++) {
		const struct sonde_arg *a = &ev->args[k];
		args[k] = *a;
		args[k].name = put_str(&p, a->name);
		args[k].resolved = put_str(&p, a->resolved);
		if (arg_has_mem(a)) {
			if (a->v.mem.n)
				memcpy(p, a->v.mem.p, a->v.mem.n);
			args[k].v.mem.p = p;
			p += a->v.mem.n;
		}
	}
}

/* ---- order ------------------------------------------------------------- */

static int item_timed(const struct mq_item *it)
{
	return !it->is_diag && (it->u.ev.ts_flags & SONDE_TS_VALID);
}

/* ts from a clock of 'from' Hz to one of 'to' Hz, rounded down,
 * saturated; unchanged when either is unknown. */
static uint64_t convert_ts(uint64_t ts, uint64_t from, uint64_t to)
{
	if (!from || !to || from == to)
		return ts;
	unsigned __int128 v = (unsigned __int128)ts * to / from;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static uint64_t item_key(const struct sonde_merge *m, const struct mq_item *it)
{
	return convert_ts(it->u.ev.ts, it->freq, m->freq);
}

/* The merged clock: the fastest of the clocks known so far. */
static void merge_fix_clock(struct sonde_merge *m)
{
	for (size_t j = 0; j < m->n; j++)
		if (m->in[j].freq > m->freq)
			m->freq = m->in[j].freq;
}

/* The first input whose head has no time, -1 if none. */
static long pick_untimed(const struct sonde_merge *m)
{
	for (size_t j = 0; j < m->n; j++)
		if (m->in[j].head && !item_timed(m->in[j].head))
			return (long)j;
	return -1;
}

/* The input whose head has the smallest time, the first on ties; -1 if
 * every queue is empty.  (Called when no head is untimed.) */
static long pick_timed(const struct sonde_merge *m)
{
	long best = -1;
	uint64_t best_key = 0;

	for (size_t j = 0; j < m->n; j++) {
		if (!m->in[j].head)
			continue;
		uint64_t key = item_key(m, m->in[j].head);
		if (best < 0 || key < best_key) {
			best = (long)j;
			best_key = key;
		}
	}
	return best;
}

static void note_conversion(struct sonde_merge *m, struct merge_in *q, uint64_t freq)
{
	char msg[256];

	q->noted = 1;
	if (!m->out.note)
		return;
	snprintf(msg, sizeof(msg),
		 "%s: its clock runs at %llu Hz, the merged clock at %llu Hz: its times are converted", q->name,
		 (unsigned long long)freq, (unsigned long long)m->freq);
	m->out.note(m->out.ctx, msg);
}

/* Hand the head of input j out and drop it. */
static void release_head(struct sonde_merge *m, size_t j)
{
	struct merge_in *q = &m->in[j];
	struct mq_item *it = q->head;

	if (it->is_diag) {
		if (m->out.diag)
			m->out.diag(m->out.ctx, j, &it->u.d);
	} else {
		if (item_timed(it)) {
			if (it->freq && m->freq && it->freq != m->freq && !q->noted)
				note_conversion(m, q, it->freq);
			it->u.ev.ts = item_key(m, it);
		}
		if (m->out.event)
			m->out.event(m->out.ctx, j, &it->u.ev, m->freq);
	}
	mq_drop_head(q);
	if (q->count == 0 && !q->ended)
		m->blocked++;
}

/* Release everything that may go out in order. */
static void merge_release(struct sonde_merge *m)
{
	for (;;) {
		long j = pick_untimed(m);
		if (j < 0) {
			if (m->blocked)
				return; /* an input might still bring an earlier event */
			if (!m->freq)
				merge_fix_clock(m);
			j = pick_timed(m);
			if (j < 0)
				return;
			if (m->overflowing) { /* back to normal: the next overflow is news */
				for (size_t k = 0; k < m->n; k++)
					m->in[k].overflowing = 0;
				m->overflowing = 0;
			}
		}
		release_head(m, (size_t)j);
	}
}

/* Release the next event without waiting for the inputs that hold up. */
static void merge_force_one(struct sonde_merge *m)
{
	long j = pick_untimed(m);

	if (j < 0) {
		if (!m->freq)
			merge_fix_clock(m);
		j = pick_timed(m);
		if (j < 0)
			return;
		m->in[j].st.forced++;
	}
	release_head(m, (size_t)j);
}

static int queue_full(const struct sonde_merge *m, const struct merge_in *q, size_t size)
{
	return q->count && (q->count >= m->max_events || q->bytes + size > m->max_bytes);
}

/* The merge's own diagnostic on input i: to the caller now, and into the
 * merged stream here. */
static void merge_raise(struct sonde_merge *m, size_t i, const struct sonde_diag *d)
{
	if (m->out.raised)
		m->out.raised(m->out.ctx, i, d);
	if (m->out.diag)
		m->out.diag(m->out.ctx, i, d);
}

/* Input i's queue is full: say so (once per episode) and make room. */
static void merge_overflow(struct sonde_merge *m, size_t i, size_t size, uint64_t offset, uint64_t frame)
{
	struct merge_in *q = &m->in[i];

	if (!q->overflowing) {
		char msg[512];
		size_t k = 0;
		int first = 1;

		k += (size_t)snprintf(msg, sizeof(msg), "merge: queue full (%zu events, %zu bytes) while waiting for ",
				      q->count, q->bytes);
		for (size_t j = 0; j < m->n && k < sizeof(msg); j++)
			if (j != i && !m->in[j].ended && !m->in[j].count) {
				k += (size_t)snprintf(msg + k, sizeof(msg) - k, "%s%s", first ? "" : ", ",
						      m->in[j].name);
				first = 0;
			}
		if (k < sizeof(msg))
			snprintf(msg + k, sizeof(msg) - k,
				 ": events are released without waiting; the merged order is not guaranteed from here");
		struct sonde_diag d = { SONDE_D_OTHER, offset, frame, q->count, msg };
		q->overflowing = 1;
		m->overflowing++;
		q->st.overflows++;
		merge_raise(m, i, &d);
	}
	while (queue_full(m, q, size))
		merge_force_one(m);
}

/* Room for an item of size bytes at the tail of input i's queue, linked
 * in; NULL (counted and reported) without memory. */
static struct mq_item *merge_push(struct sonde_merge *m, size_t i, size_t size, uint64_t offset, uint64_t frame)
{
	struct merge_in *q = &m->in[i];
	struct mq_chunk *c;

	if (queue_full(m, q, size))
		merge_overflow(m, i, size, offset, frame);
	struct mq_item *it = mq_alloc(q, size, &c);
	if (!it) {
		struct sonde_diag d = { SONDE_D_OTHER, offset, frame, 1, "merge: out of memory: a record is dropped" };
		q->st.lost++;
		merge_raise(m, i, &d);
		return NULL;
	}
	memset(it, 0, sizeof(*it));
	it->chunk = c;
	it->size = size;
	if (q->tail)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
	if (q->count++ == 0 && !q->ended)
		m->blocked--;
	q->bytes += size;
	q->st.queued++;
	if (q->count > q->st.peak)
		q->st.peak = q->count;
	return it;
}

/* ---- the interface ------------------------------------------------------ */

struct sonde_merge *sonde_merge_new(size_t n, const char *const *names, const struct sonde_merge_config *cfg,
				    const struct sonde_merge_out *out)
{
	if (n == 0 || n > SONDE_MERGE_MAX_INPUTS)
		return NULL;
	struct sonde_merge *m = calloc(1, sizeof(*m) + n * sizeof(m->in[0]));
	if (!m)
		return NULL;
	m->out = *out;
	m->n = n;
	m->blocked = n;
	m->max_events = cfg && cfg->max_events ? cfg->max_events : SONDE_MERGE_DEFAULT_EVENTS;
	m->max_bytes = cfg && cfg->max_bytes ? cfg->max_bytes : SONDE_MERGE_DEFAULT_BYTES;
	for (size_t i = 0; i < n; i++)
		m->in[i].name = names && names[i] ? names[i] : "<input>";
	return m;
}

void sonde_merge_free(struct sonde_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct mq_chunk *c = m->in[i].first;
		while (c) {
			struct mq_chunk *next = c->next;
			free(c);
			c = next;
		}
		free(m->in[i].spare);
	}
	free(m);
}

void sonde_merge_set_core(struct sonde_merge *m, size_t i, uint32_t core)
{
	m->in[i].core = core;
	m->in[i].set_core = 1;
}

void sonde_merge_event(struct sonde_merge *m, size_t i, const struct sonde_event *ev, uint64_t ts_freq)
{
	struct merge_in *q = &m->in[i];

	q->freq = ts_freq;
	size_t size = event_size(ev);
	struct mq_item *it = merge_push(m, i, size, ev->offset, ev->frame);
	if (!it)
		return;
	it->freq = ts_freq;
	event_copy(it, ev);
	if (q->set_core)
		it->u.ev.core = q->core;
	merge_release(m);
}

void sonde_merge_diag(struct sonde_merge *m, size_t i, const struct sonde_diag *d)
{
	size_t size = mq_round(mq_round(sizeof(struct mq_item)) + str_size(d->msg));
	struct mq_item *it = merge_push(m, i, size, d->offset, d->frame);
	if (!it)
		return;
	unsigned char *p = (unsigned char *)it + mq_round(sizeof(*it));
	it->is_diag = 1;
	it->u.d = *d;
	it->u.d.msg = put_str(&p, d->msg);
	merge_release(m);
}

void sonde_merge_end(struct sonde_merge *m, size_t i)
{
	struct merge_in *q = &m->in[i];

	if (q->ended)
		return;
	q->ended = 1;
	if (q->count == 0)
		m->blocked--;
	merge_release(m);
}

int sonde_merge_needs(const struct sonde_merge *m, size_t i)
{
	return !m->in[i].ended && m->in[i].count == 0;
}

uint64_t sonde_merge_freq(const struct sonde_merge *m)
{
	return m->freq;
}

void sonde_merge_get_stats(const struct sonde_merge *m, size_t i, struct sonde_merge_stats *st)
{
	*st = m->in[i].st;
}
