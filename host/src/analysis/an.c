/*
 * an.c -- the timing analyses (an.h): the shared state of each core (what
 * runs, the ISR stack), the loss epoch, and the per-task/ISR figures.
 * Output is in an_out.c.
 */
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "core/event_desc.h"
#include "core/loss.h"

#define AN_NONE UINT32_MAX
#define AN_DEFAULT_MAX_CELLS 4000000u

static void *an_grow(void *p, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return p;
	uint32_t nc = *cap ? *cap : 16;
	while (nc < need)
		nc *= 2;
	void *q = realloc(p, (size_t)nc * size);
	if (q)
		*cap = nc;
	return q;
}

struct an_model *an_new(const struct an_config *cfg)
{
	struct an_model *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (cfg)
		m->cfg = *cfg;
	if (!m->cfg.top)
		m->cfg.top = 10;
	if (m->cfg.top > AN_TOP_MAX)
		m->cfg.top = AN_TOP_MAX;
	m->window = m->cfg.window;
	m->max_cells = AN_DEFAULT_MAX_CELLS;
	sonde_loss_init(&m->loss);
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		m->plug[i] = an_plugins[i]->create ? an_plugins[i]->create(m) : NULL;
	return m;
}

/* ---- entities ------------------------------------------------------------ */

static uint32_t an_find(struct an_model *m, enum an_kind kind, uint64_t id, const char *name, uint32_t core)
{
	uint32_t i;
	uint32_t *small = kind <= AN_ISR && id < 256 ? &m->small[kind][id] : NULL;
	if (small && *small) {
		i = *small - 1;
	} else {
		/* the other entities are few (two per core): a linear search from
		 * the most recent */
		for (i = m->nent; i-- > 0;)
			if (m->ent[i].kind == kind && m->ent[i].id == id)
				break;
	}
	if (i == UINT32_MAX) {
		if (m->nent >= AN_MAX_ENTITIES) {
			m->other_ents++;
			return AN_NONE;
		}
		struct an_ent *ne = an_grow(m->ent, &m->capent, m->nent + 1, sizeof(*m->ent));
		if (!ne)
			return AN_NONE;
		m->ent = ne;
		i = m->nent++;
		memset(&m->ent[i], 0, sizeof(m->ent[i]));
		m->ent[i].kind = kind;
		m->ent[i].id = id;
		m->ent[i].core = core;
		m->ent[i].prio = -1;
		if (small)
			*small = i + 1;
	}
	struct an_ent *e = &m->ent[i];
	/* the text behind a pointer seen under the same names_gen is known */
	if (name && (name != e->seen || !m->names_gen || m->names_gen != e->seen_gen)) {
		if (name[0] && (!e->name || strcmp(e->name, name) != 0)) {
			char *c = strdup(name);
			if (c) {
				free(e->name);
				e->name = c;
			}
		}
		e->seen = name;
		e->seen_gen = m->names_gen;
	}
	return i;
}

static uint32_t an_pseudo(struct an_model *m, struct an_core *c, enum an_kind kind)
{
	uint32_t *slot = kind == AN_IDLE ? &c->idle : &c->notask;
	if (*slot == AN_NONE)
		*slot = an_find(m, kind, c->id, NULL, c->id);
	return *slot;
}

static struct an_core *an_core_get(struct an_model *m, uint32_t id)
{
	if (id >= AN_MAX_CORES) {
		m->other_cores++;
		return NULL;
	}
	if (!m->core[id]) {
		struct an_core *c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		c->id = id;
		c->cur = c->idle = c->notask = AN_NONE;
		m->core[id] = c;
	}
	return m->core[id];
}

/* ---- windows --------------------------------------------------------------- */

static void an_win_merge(struct an_model *m)
{
	for (uint32_t i = 0; i < m->nent; i++) {
		struct an_ent *e = &m->ent[i];
		uint32_t n = (e->nwin + 1) / 2;
		for (uint32_t k = 0; k < n; k++)
			e->win[k] = e->win[2 * k] + (2 * k + 1 < e->nwin ? e->win[2 * k + 1] : 0);
		m->cells -= e->nwin - n;
		e->nwin = n;
	}
	m->nwin = (m->nwin + 1) / 2;
	m->window *= 2;
	m->merges++;
}

static void an_win_add(struct an_model *m, struct an_ent *e, uint64_t from, uint64_t to)
{
	uint64_t o = m->origin;
	if (!m->window || from < o)
		return;
	while (from < to) {
		uint64_t w = (from - o) / m->window;
		uint64_t wend = o + (w + 1) * m->window;
		uint64_t part = (to < wend ? to : wend) - from;
		uint32_t maxw = m->cfg.max_windows ? m->cfg.max_windows : UINT32_MAX;
		if (w >= maxw || (w >= e->nwin && m->cells + (w + 1 - e->nwin) > m->max_cells)) {
			an_win_merge(m);
			continue;
		}
		if (w >= e->nwin) {
			uint32_t need = (uint32_t)w + 1;
			uint64_t *nw = an_grow(e->win, &e->capwin, need, sizeof(*nw));
			if (!nw)
				return;
			memset(nw + e->nwin, 0, (size_t)(need - e->nwin) * sizeof(*nw));
			m->cells += need - e->nwin;
			e->win = nw;
			e->nwin = need;
		}
		e->win[w] += part;
		if (w + 1 > m->nwin)
			m->nwin = (uint32_t)w + 1;
		from += part;
	}
}

/* ---- spans ------------------------------------------------------------------- */

static void an_top_add(const struct an_model *m, struct an_ent *e, uint64_t dur, uint64_t start)
{
	uint32_t n = e->ntop, i;
	if (n == m->cfg.top && dur <= e->top[n - 1].dur)
		return;
	if (n < m->cfg.top)
		e->ntop = ++n;
	for (i = n - 1; i > 0 && e->top[i - 1].dur < dur; i--)
		e->top[i] = e->top[i - 1];
	e->top[i] = (struct an_top){ dur, start };
}

/* Report a span that ended at c->last to on_span. */
static void an_emit(struct an_model *m, const struct an_core *c, const struct an_ent *e, uint64_t start,
		    uint64_t cpu, uint32_t depth, int complete)
{
	struct an_span s = { e, c->id, depth, start, c->last, cpu, complete };
	if (m->on_span)
		m->on_span(m->span_ctx, m, &s);
}

/* A run or an activation ended (at c->last): into the figures, or counted
 * as incomplete; then reported. */
static void an_span_end(struct an_model *m, const struct an_core *c, struct an_ent *e, uint64_t dur,
			uint64_t start, uint64_t epoch, int complete, uint32_t depth)
{
	complete = complete && epoch == m->epoch;
	if (complete) {
		hist_add(&e->span, dur);
		an_top_add(m, e, dur, start);
	} else {
		e->incomplete++;
	}
	an_emit(m, c, e, start, dur, depth, complete);
}

/* Charge [c->last, t) to what runs on c. */
static void an_charge(struct an_model *m, struct an_core *c, uint64_t t)
{
	uint64_t dt = t - c->last;
	uint32_t who;
	if (!dt)
		return;
	if (c->depth && !c->hidden) {
		struct an_frame *f = &c->isr[c->depth - 1];
		f->cpu += dt;
		who = f->ent;
	} else if (c->depth) {
		who = c->isr[AN_MAX_NEST - 1].ent; /* deeper levels: charged to the deepest kept */
	} else {
		who = c->cur != AN_NONE ? c->cur : an_pseudo(m, c, AN_NOTASK);
	}
	if (who == AN_NONE)
		return;
	m->ent[who].cpu += dt;
	c->by_kind[m->ent[who].idle_task ? AN_IDLE : m->ent[who].kind] += dt;
	an_win_add(m, &m->ent[who], c->last, t);
}

static void an_run_end(struct an_model *m, struct an_core *c, int complete)
{
	if (!c->switched && c->have_time && m->on_span) {
		/* before the first switch: the time went to no task */
		uint32_t nt = c->notask;
		if (nt != AN_NONE && m->ent[nt].cpu)
			an_emit(m, c, &m->ent[nt], c->first, m->ent[nt].cpu, 0,
				complete && m->epoch == 0);
		return;
	}
	if (c->cur == AN_NONE)
		return;
	struct an_ent *e = &m->ent[c->cur];
	if (c->running) {
		an_span_end(m, c, e, e->cpu - c->run_cpu, c->run_start, c->run_epoch, complete, 0);
		c->running = 0;
	} else if (e->cpu > c->run_cpu || c->last > c->run_start) {
		/* an idle or no-task period: reported, not in the figures */
		an_emit(m, c, e, c->run_start, e->cpu - c->run_cpu, 0, complete && c->run_epoch == m->epoch);
	}
}

static void an_switch(struct an_model *m, struct an_core *c, uint32_t to, uint64_t t)
{
	an_run_end(m, c, 1);
	c->cur = to;
	c->switched = 1;
	if (to == AN_NONE)
		return;
	struct an_ent *e = &m->ent[to];
	c->run_start = t;
	c->run_cpu = e->cpu;
	c->run_epoch = m->epoch;
	e->count++;
	if (e->kind == AN_TASK) {
		c->running = 1;
		if (e->ready) {
			if (e->ready_epoch == m->epoch && t >= e->ready_ts)
				hist_add(&e->lat, t - e->ready_ts);
			else
				e->lat_incomplete++;
			e->ready = 0;
		}
	}
}

static void an_isr_pop(struct an_model *m, struct an_core *c, int complete)
{
	if (c->hidden) {
		c->hidden--;
		return;
	}
	if (!c->depth)
		return;
	struct an_frame *f = &c->isr[--c->depth];
	if (f->ent != AN_NONE)
		an_span_end(m, c, &m->ent[f->ent], f->cpu, f->start, f->epoch, complete, c->depth + 1);
}

static void an_loss(struct an_model *m)
{
	m->epoch++;
	m->losses++;
}

/* A loss cuts core c (core/loss.h): its ISR activations and its current
 * period end now (at c->last), incomplete, and the core runs no task until
 * a record says otherwise, as at the start of a trace. */
static void an_cut(struct an_model *m, struct an_core *c)
{
	while (c->depth || c->hidden)
		an_isr_pop(m, c, 0);
	an_run_end(m, c, 0);
	c->running = 0;
	c->switched = 1;
	c->cur = an_pseudo(m, c, AN_NOTASK);
	c->run_start = c->last;
	c->run_cpu = c->cur != AN_NONE ? m->ent[c->cur].cpu : 0;
	c->run_epoch = m->epoch;
}

/* Cut one core, or every core (SONDE_LOSS_ALL). */
static void an_cut_cores(struct an_model *m, uint32_t core)
{
	for (uint32_t k = 0; k < AN_MAX_CORES; k++)
		if (m->core[k] && (core == SONDE_LOSS_ALL || core == k))
			an_cut(m, m->core[k]);
}

static void an_isr_event(struct an_model *m, struct an_core *c, const struct sonde_event *ev, uint64_t t)
{
	uint32_t depth_now = c->depth + c->hidden;
	if (ev->kind == SONDE_EV_ISR_ENTER) {
		if (ev->value >= 1 && depth_now >= (uint64_t)ev->value) {
			/* the decoder's nesting restarted lower: exits were lost */
			m->resyncs++;
			an_loss(m);
			while (c->depth + c->hidden >= (uint64_t)ev->value)
				an_isr_pop(m, c, 0);
		}
		uint32_t who = an_find(m, AN_ISR, ev->obj, ev->obj_name, c->id);
		if (c->depth == AN_MAX_NEST) {
			c->hidden++;
		} else {
			c->isr[c->depth++] = (struct an_frame){ who, t, 0, m->epoch };
		}
		depth_now = c->depth + c->hidden;
		if (depth_now > c->max_depth)
			c->max_depth = depth_now;
		if (who == AN_NONE)
			return;
		struct an_ent *e = &m->ent[who];
		e->count++;
		if (depth_now > e->max_nest)
			e->max_nest = depth_now;
		if (e->have_enter) {
			if (e->enter_epoch == m->epoch && t >= e->last_enter)
				hist_add(&e->lat, t - e->last_enter);
			else
				e->lat_incomplete++;
		}
		e->have_enter = 1;
		e->last_enter = t;
		e->enter_epoch = m->epoch;
		return;
	}
	if (!depth_now)
		return; /* an exit without an enter (after a selection or a loss) */
	if (ev->value >= 1 && depth_now > (uint64_t)ev->value) {
		m->resyncs++;
		an_loss(m);
		while (c->depth + c->hidden > (uint64_t)ev->value)
			an_isr_pop(m, c, 0);
	}
	an_isr_pop(m, c, 1);
}

/* Idle: the idle task runs when the decoder names it (one row in the
 * tasks' table, its time the core's idle time), else the core's idle. */
static void an_idle(struct an_model *m, struct an_core *c, const struct sonde_event *ev, uint64_t t)
{
	uint32_t who = AN_NONE;

	if (ev->flags & SONDE_EVF_REF)
		who = an_find(m, AN_TASK, ev->ref, ev->ref_name, c->id);
	if (who == AN_NONE)
		who = an_pseudo(m, c, AN_IDLE);
	else
		m->ent[who].idle_task = 1;
	if (who != AN_NONE && c->cur != who)
		an_switch(m, c, who, t);
}

static void an_task_event(struct an_model *m, struct an_core *c, const struct sonde_event *ev, uint64_t t)
{
	uint32_t who = an_find(m, AN_TASK, ev->obj, ev->obj_name, c->id);
	if (who == AN_NONE)
		return;
	struct an_ent *e = &m->ent[who];
	switch (ev->kind) {
	case SONDE_EV_TASK_CREATE:
		if (ev->obj2 <= INT32_MAX)
			e->prio = (int32_t)ev->obj2;
		/* a new task is ready */
		/* fall through */
	case SONDE_EV_TASK_READY:
		if (c->cur != who && !e->ready) {
			e->ready = 1;
			e->ready_ts = t;
			e->ready_epoch = m->epoch;
		}
		break;
	case SONDE_EV_TASK_IN:
		if (c->cur != who)
			an_switch(m, c, who, t);
		break;
	case SONDE_EV_TASK_OUT:
		if (c->cur == who)
			an_switch(m, c, an_pseudo(m, c, AN_NOTASK), t);
		e->ready = 0;
		break;
	default:
		break;
	}
}

uint32_t an_tally_kinds(void)
{
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->event)
			return 0; /* a plugin may want any event */
	return SONDE_KINDS_ALL &
	       ~(sonde_kind_bit(SONDE_EV_DROPS) | sonde_kind_bit(SONDE_EV_ISR_ENTER) |
		 sonde_kind_bit(SONDE_EV_ISR_EXIT) | sonde_kind_bit(SONDE_EV_TASK_CREATE) |
		 sonde_kind_bit(SONDE_EV_TASK_IN) | sonde_kind_bit(SONDE_EV_TASK_OUT) |
		 sonde_kind_bit(SONDE_EV_TASK_READY) | sonde_kind_bit(SONDE_EV_IDLE));
}

/* Records were tallied since the last look: their time passed on their
 * core as if their events had come (struct sonde_tally's rules: the core's
 * latest time is the tally's 'hi', and the records that came earlier than
 * a time before them are counted as such). */
static void an_tally(struct an_model *m)
{
	const struct sonde_tally *t = m->tally;
	uint64_t records = t->n - m->tally_seen, behind = t->behind - m->tally_behind;
	m->tally_seen = t->n;
	m->tally_behind = t->behind;
	if (t->core >= AN_MAX_CORES) { /* each would have been counted, as an event */
		m->other_cores += records;
		return;
	}
	struct an_core *c = an_core_get(m, t->core);
	if (!c)
		return;
	m->backwards += behind;
	if (!c->have_time) {
		c->have_time = 1;
		c->first = c->last = t->hi;
	} else if (t->hi > c->last) {
		an_charge(m, c, t->hi);
		c->last = t->hi;
	}
}

void an_event(struct an_model *m, const struct sonde_event *ev, const struct sonde_session *s)
{
	if (m->finished)
		return;
	if (s && s->tally) {
		m->tally = s->tally;
		if (m->tally->n != m->tally_seen)
			an_tally(m);
	}
	m->names_gen = s ? s->names_gen : 0;
	if (s) {
		m->ts_freq = s->ts_freq;
		if (!m->have_origin && s->have_origin) {
			m->have_origin = 1;
			m->origin = s->origin;
		}
	}
	uint32_t cut;
	int is_loss = sonde_loss_event(&m->loss, ev, &cut, NULL);
	if (is_loss && ev->kind == SONDE_EV_DROPS) /* a target reset cuts, but loses nothing */
		an_loss(m);
	if (ev->ts_flags & SONDE_TS_ESTIMATED)
		an_loss(m);
	struct an_core *c = an_core_get(m, ev->core);
	if (c && (ev->ts_flags & SONDE_TS_VALID)) {
		if (!m->have_origin) {
			m->have_origin = 1;
			m->origin = ev->ts;
		}
		if (!m->window && m->cfg.max_windows && m->ts_freq) {
			m->window = m->ts_freq / 1000000u ? m->ts_freq / 1000000u : 1; /* 1 us, doubling as needed */
		}
		if (!c->have_time) {
			c->have_time = 1;
			c->first = c->last = ev->ts;
		} else if (ev->ts < c->last) {
			m->backwards++;
		} else {
			an_charge(m, c, ev->ts);
			c->last = ev->ts;
		}
	}
	if (is_loss) /* at the loss's time: a DROPS's own, else the core's last (loss.h) */
		an_cut_cores(m, cut);
	if (c) {
		uint64_t t = c->last;
		switch (ev->kind) {
		case SONDE_EV_ISR_ENTER:
		case SONDE_EV_ISR_EXIT:
			an_isr_event(m, c, ev, t);
			break;
		case SONDE_EV_TASK_CREATE:
		case SONDE_EV_TASK_IN:
		case SONDE_EV_TASK_OUT:
		case SONDE_EV_TASK_READY:
			an_task_event(m, c, ev, t);
			break;
		case SONDE_EV_IDLE:
			an_idle(m, c, ev, t);
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->event)
			an_plugins[i]->event(m->plug[i], m, ev);
}

void an_diag(struct an_model *m, const struct sonde_diag *d)
{
	if (m->tally && m->tally->n != m->tally_seen)
		an_tally(m);
	if (sonde_loss_diag(d)) {
		an_loss(m);
		an_cut_cores(m, SONDE_LOSS_ALL);
	}
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->diag)
			an_plugins[i]->diag(m->plug[i], m, d);
}

void an_finish(struct an_model *m)
{
	if (m->finished)
		return;
	if (m->tally && m->tally->n != m->tally_seen)
		an_tally(m);
	for (uint32_t k = 0; k < AN_MAX_CORES; k++) {
		struct an_core *c = m->core[k];
		if (!c)
			continue;
		while (c->depth || c->hidden)
			an_isr_pop(m, c, 0);
		an_run_end(m, c, 0);
	}
	for (uint32_t i = 0; i < m->nent; i++)
		if (m->ent[i].ready)
			m->ent[i].lat_incomplete++;
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->finish)
			an_plugins[i]->finish(m->plug[i], m);
	m->finished = 1;
}

void an_free(struct an_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->destroy)
			an_plugins[i]->destroy(m->plug[i]);
	for (uint32_t i = 0; i < m->nent; i++) {
		free(m->ent[i].name);
		free(m->ent[i].win);
		hist_free(&m->ent[i].span);
		hist_free(&m->ent[i].lat);
	}
	free(m->ent);
	for (uint32_t k = 0; k < AN_MAX_CORES; k++)
		free(m->core[k]);
	free(m);
}

uint64_t an_total(const struct an_model *m)
{
	uint64_t t = 0;
	for (uint32_t k = 0; k < AN_MAX_CORES; k++)
		if (m->core[k] && m->core[k]->have_time)
			t += m->core[k]->last - m->core[k]->first;
	return t;
}
