/*
 * an_out.c -- the timing analyses as text (for `sonde stats`) and as JSON
 * (for `sonde stats --format jsonl` and the HTML report).  Times are in
 * microseconds with three decimals when the clock rate is known, else in
 * ticks; JSON always carries ticks (and the rate, to convert).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "an.h"
#include "core/event.h"
#include "util/utf8text.h"

const char *an_label(const struct an_ent *e, char *buf, size_t n)
{
	switch (e->kind) {
	case AN_TASK:
		if (e->name)
			return e->name;
		snprintf(buf, n, "task #%" PRIu64, e->id);
		return buf;
	case AN_ISR:
		if (e->name)
			return e->name;
		snprintf(buf, n, "isr #%" PRIu64, e->id);
		return buf;
	case AN_IDLE:
	case AN_NOTASK:
		if (e->core)
			snprintf(buf, n, "%s@%" PRIu32, e->kind == AN_IDLE ? "(idle)" : SONDE_NOTASK_NAME, e->core);
		else
			snprintf(buf, n, "%s", e->kind == AN_IDLE ? "(idle)" : SONDE_NOTASK_NAME);
		return buf;
	}
	return "?";
}

static const struct an_model *cmp_m;

static int rank(enum an_kind k)
{
	return k == AN_TASK ? 0 : k == AN_IDLE ? 1 : k == AN_NOTASK ? 2 : 3;
}

static int an_cmp(const void *a, const void *b)
{
	const struct an_ent *x = &cmp_m->ent[*(const uint32_t *)a], *y = &cmp_m->ent[*(const uint32_t *)b];
	if (rank(x->kind) != rank(y->kind))
		return rank(x->kind) - rank(y->kind);
	if (x->cpu != y->cpu)
		return x->cpu > y->cpu ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

uint32_t an_order(const struct an_model *m, uint32_t *idx)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nent; i++)
		if (m->ent[i].kind == AN_TASK || m->ent[i].kind == AN_ISR || m->ent[i].cpu || m->ent[i].count)
			idx[n++] = i;
	cmp_m = m;
	qsort(idx, n, sizeof(*idx), an_cmp);
	return n;
}

/* ---- text ---------------------------------------------------------------- */

#define CELL 32

static const char *fmt_t(char *b, uint64_t ticks, uint64_t freq)
{
	if (freq)
		snprintf(b, CELL, "%.3f", (double)ticks * 1e6 / (double)freq);
	else
		snprintf(b, CELL, "%" PRIu64, ticks);
	return b;
}

static const char *fmt_pct(char *b, uint64_t part, uint64_t total)
{
	if (total)
		snprintf(b, CELL, "%.2f", 100.0 * (double)part / (double)total);
	else
		snprintf(b, CELL, "-");
	return b;
}

static const char *fmt_mean(char *b, const struct hist *h, uint64_t freq)
{
	if (!h->n)
		return "-";
	if (freq)
		snprintf(b, CELL, "%.3f", (double)h->sum * 1e6 / (double)freq / (double)h->n);
	else
		snprintf(b, CELL, "%.1f", (double)h->sum / (double)h->n);
	return b;
}

static const char *fmt_pctl(char *b, const struct hist *h, double p, uint64_t freq)
{
	return h->n ? fmt_t(b, p >= 100 ? h->max : hist_pct(h, p), freq) : "-";
}

/* start of a span in seconds from the origin (or ticks) */
static const char *fmt_at(char *b, const struct an_model *m, uint64_t ts)
{
	uint64_t rel = ts > m->origin ? ts - m->origin : 0;
	if (m->ts_freq)
		snprintf(b, CELL, "%.9f", (double)rel / (double)m->ts_freq);
	else
		snprintf(b, CELL, "%" PRIu64 "t", rel);
	return b;
}

static void row(FILE *out, int w0, const char *const *cells, size_t n)
{
	fprintf(out, "%-*s", w0, cells[0]);
	for (size_t i = 1; i < n; i++)
		fprintf(out, "  %*s", i < n ? 9 : 0, cells[i]);
	fputc('\n', out);
}

static int label_width(const struct an_model *m, const uint32_t *idx, uint32_t n, enum an_kind k1, enum an_kind k2,
		       const char *head)
{
	char lb[64];
	int w = (int)strlen(head);
	for (uint32_t i = 0; i < n; i++) {
		const struct an_ent *e = &m->ent[idx[i]];
		if (e->kind != k1 && e->kind != k2)
			continue;
		int l = (int)strlen(an_label(e, lb, sizeof(lb)));
		if (l > w)
			w = l;
	}
	return w;
}

static void text_tasks(const struct an_model *m, const uint32_t *idx, uint32_t n, uint64_t total, FILE *out)
{
	uint64_t f = m->ts_freq;
	char b[13][CELL], lb[64];
	const char *u = f ? "us" : "t";
	int w = label_width(m, idx, n, AN_TASK, AN_TASK, "task");
	fprintf(out, "\nTasks: CPU time outside ISRs; run = one activation; latency = ready to running [%s]\n", u);
	const char *head[] = { "task", "runs", "cpu", "cpu%", "run_mean", "run_p50", "run_p99", "run_max",
			       "lat_n", "lat_mean", "lat_p99", "lat_max", "incomplete" };
	row(out, w, head, 13);
	for (uint32_t i = 0; i < n; i++) {
		const struct an_ent *e = &m->ent[idx[i]];
		if (e->kind != AN_TASK)
			continue;
		snprintf(b[1], CELL, "%" PRIu64, e->count);
		snprintf(b[8], CELL, "%" PRIu64, e->lat.n);
		snprintf(b[12], CELL, "%" PRIu64 "+%" PRIu64, e->incomplete, e->lat_incomplete);
		const char *c[] = { an_label(e, lb, sizeof(lb)), b[1], fmt_t(b[2], e->cpu, f), fmt_pct(b[3], e->cpu, total),
				    fmt_mean(b[4], &e->span, f), fmt_pctl(b[5], &e->span, 50, f),
				    fmt_pctl(b[6], &e->span, 99, f), fmt_pctl(b[7], &e->span, 100, f), b[8],
				    fmt_mean(b[9], &e->lat, f), fmt_pctl(b[10], &e->lat, 99, f),
				    fmt_pctl(b[11], &e->lat, 100, f), b[12] };
		row(out, w, c, 13);
	}
}

static void text_isrs(const struct an_model *m, const uint32_t *idx, uint32_t n, uint64_t total, FILE *out)
{
	uint64_t f = m->ts_freq;
	char b[12][CELL], lb[64];
	int any = 0;
	for (uint32_t i = 0; i < n; i++)
		any |= m->ent[idx[i]].kind == AN_ISR;
	if (!any)
		return;
	int w = label_width(m, idx, n, AN_ISR, AN_ISR, "isr");
	fprintf(out, "\nISRs: duration = CPU time of one activation without nested ISRs; gap = entry to next entry [%s]\n",
		f ? "us" : "t");
	const char *head[] = { "isr", "count", "cpu", "cpu%", "dur_mean", "dur_p50", "dur_p99", "dur_max",
			       "gap_mean", "gap_min", "nest", "incomplete" };
	row(out, w, head, 12);
	for (uint32_t i = 0; i < n; i++) {
		const struct an_ent *e = &m->ent[idx[i]];
		if (e->kind != AN_ISR)
			continue;
		snprintf(b[1], CELL, "%" PRIu64, e->count);
		snprintf(b[10], CELL, "%" PRIu32, e->max_nest);
		snprintf(b[11], CELL, "%" PRIu64, e->incomplete);
		const char *c[] = { an_label(e, lb, sizeof(lb)), b[1], fmt_t(b[2], e->cpu, f), fmt_pct(b[3], e->cpu, total),
				    fmt_mean(b[4], &e->span, f), fmt_pctl(b[5], &e->span, 50, f),
				    fmt_pctl(b[6], &e->span, 99, f), fmt_pctl(b[7], &e->span, 100, f),
				    fmt_mean(b[8], &e->lat, f), e->lat.n ? fmt_t(b[9], e->lat.min, f) : "-", b[10], b[11] };
		row(out, w, c, 12);
	}
}

static void text_cores(const struct an_model *m, FILE *out)
{
	uint64_t f = m->ts_freq;
	char b[7][CELL];
	fprintf(out, "\nCores [%s]:\n", f ? "us" : "t");
	const char *head[] = { "core", "traced", "tasks%", "isr%", "idle%", "notask%", "max_nest" };
	row(out, 4, head, 7);
	for (uint32_t k = 0; k < AN_MAX_CORES; k++) {
		const struct an_core *c = m->core[k];
		if (!c || !c->have_time)
			continue;
		uint64_t span = c->last - c->first;
		snprintf(b[0], CELL, "%" PRIu32, k);
		snprintf(b[6], CELL, "%" PRIu32, c->max_depth);
		const char *cells[] = { b[0], fmt_t(b[1], span, f), fmt_pct(b[2], c->by_kind[AN_TASK], span),
					fmt_pct(b[3], c->by_kind[AN_ISR], span), fmt_pct(b[4], c->by_kind[AN_IDLE], span),
					fmt_pct(b[5], c->by_kind[AN_NOTASK], span), b[6] };
		row(out, 4, cells, 7);
	}
}

static void text_longest(const struct an_model *m, const uint32_t *idx, uint32_t n, FILE *out)
{
	char b[2][CELL], lb[64];
	int any = 0;
	for (uint32_t i = 0; i < n; i++)
		any |= m->ent[idx[i]].ntop != 0;
	if (!any)
		return;
	fprintf(out, "\nLongest %" PRIu32 " runs / activations [%s at %s from the first record]:\n", m->cfg.top,
		m->ts_freq ? "us" : "t", m->ts_freq ? "s" : "ticks");
	for (uint32_t i = 0; i < n; i++) {
		const struct an_ent *e = &m->ent[idx[i]];
		if (!e->ntop)
			continue;
		fprintf(out, "  %s:", an_label(e, lb, sizeof(lb)));
		for (uint32_t k = 0; k < e->ntop; k++)
			fprintf(out, " %s@%s", fmt_t(b[0], e->top[k].dur, m->ts_freq), fmt_at(b[1], m, e->top[k].start));
		fputc('\n', out);
	}
}

static void text_windows(const struct an_model *m, const uint32_t *idx, uint32_t n, FILE *out)
{
	char b[CELL], lb[64];
	if (!m->cfg.window || !m->nwin)
		return;
	fprintf(out, "\nCPU load per window of %s %s (percent of the window", fmt_t(b, m->window, m->ts_freq),
		m->ts_freq ? "us" : "ticks");
	if (m->merges)
		fprintf(out, "; %" PRIu32 " times wider than asked: at most %" PRIu64 " cells are kept",
			1u << (m->merges > 31 ? 31 : m->merges), m->max_cells);
	fprintf(out, "):\n%-14s", m->ts_freq ? "start[s]" : "start[t]");
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "  %9s", an_label(&m->ent[idx[i]], lb, sizeof(lb)));
	fputc('\n', out);
	for (uint32_t w = 0; w < m->nwin; w++) {
		uint64_t start = m->origin + (uint64_t)w * m->window;
		fprintf(out, "%-14s", fmt_at(b, m, start));
		for (uint32_t i = 0; i < n; i++) {
			const struct an_ent *e = &m->ent[idx[i]];
			fprintf(out, "  %9s", fmt_pct(b, w < e->nwin ? e->win[w] : 0, m->window));
		}
		fputc('\n', out);
	}
}

int an_write_text(struct an_model *m, FILE *out)
{
	uint32_t *idx = malloc((m->nent + 1) * sizeof(*idx));
	if (!idx)
		return -1;
	an_finish(m);
	uint32_t n = an_order(m, idx);
	uint64_t total = an_total(m);
	uint64_t inc_run = 0, inc_isr = 0, inc_lat = 0;
	for (uint32_t i = 0; i < m->nent; i++) {
		if (m->ent[i].kind == AN_ISR)
			inc_isr += m->ent[i].incomplete;
		else
			inc_run += m->ent[i].incomplete;
		if (m->ent[i].kind == AN_TASK)
			inc_lat += m->ent[i].lat_incomplete;
	}
	text_tasks(m, idx, n, total, out);
	text_isrs(m, idx, n, total, out);
	text_cores(m, out);
	text_longest(m, idx, n, out);
	text_windows(m, idx, n, out);
	fprintf(out, "\nIncomplete (a loss inside, or open at the end; not in mean/percentiles/max): %" PRIu64
		     " runs, %" PRIu64 " ISR activations, %" PRIu64 " ready waits; %" PRIu64 " losses, %" PRIu64
		     " ISR stack resyncs\n", inc_run, inc_isr, inc_lat, m->losses, m->resyncs);
	if (m->other_ents || m->other_cores || m->backwards)
		fprintf(out, "Notes: %" PRIu32 " tasks/ISRs beyond %u and %" PRIu64 " events of cores beyond %u ignored; %" PRIu64
			     " timestamps went backwards (not charged)\n",
			m->other_ents, AN_MAX_ENTITIES, m->other_cores, AN_MAX_CORES, m->backwards);
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->text && an_plugins[i]->text(m->plug[i], m, out) != 0)
			break;
	free(idx);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_str(FILE *out, const char *s)
{
	utf8text_json(out, (const uint8_t *)s, strlen(s));
}

static void json_hist(FILE *out, const char *key, const struct hist *h, uint64_t incomplete)
{
	fprintf(out, ",\"%s\":{\"n\":%" PRIu64 ",\"incomplete\":%" PRIu64, key, h->n, incomplete);
	if (h->n) {
		fprintf(out, ",\"sum\":%" PRIu64 ",\"min\":%" PRIu64 ",\"p50\":%" PRIu64 ",\"p90\":%" PRIu64
			     ",\"p99\":%" PRIu64 ",\"max\":%" PRIu64,
			h->sum, h->min, hist_pct(h, 50), hist_pct(h, 90), hist_pct(h, 99), h->max);
		/* the histogram by powers of two: [count of 2^k <= v < 2^(k+1)] */
		uint64_t pow2[65] = { 0 };
		int top = 0;
		for (uint32_t i = 0; h->b && i < HIST_BUCKETS; i++) {
			if (!h->b[i])
				continue;
			uint64_t lo, hi;
			hist_range(i, &lo, &hi);
			int k = lo ? 64 - __builtin_clzll(lo) : 0;
			pow2[k] += h->b[i];
			if (k > top)
				top = k;
		}
		fprintf(out, ",\"log2\":[");
		for (int k = 0; k <= top; k++)
			fprintf(out, "%s%" PRIu64, k ? "," : "", pow2[k]);
		fputc(']', out);
	}
	fputc('}', out);
}

void an_json_ent(const struct an_model *m, const struct an_ent *e, uint32_t idx, FILE *out)
{
	static const char *const kinds[] = { "task", "isr", "idle", "notask" };
	char lb[64];
	fprintf(out, "{\"type\":\"%s\",\"idx\":%" PRIu32 ",\"name\":", kinds[e->kind], idx);
	json_str(out, an_label(e, lb, sizeof(lb)));
	fprintf(out, ",\"id\":%" PRIu64 ",\"core\":%" PRIu32 ",\"count\":%" PRIu64 ",\"cpu\":%" PRIu64, e->id,
		e->core, e->count, e->cpu);
	if (e->kind == AN_TASK && e->prio >= 0)
		fprintf(out, ",\"prio\":%" PRId32, e->prio);
	if (e->kind == AN_ISR)
		fprintf(out, ",\"max_nest\":%" PRIu32, e->max_nest);
	json_hist(out, e->kind == AN_ISR ? "duration" : "run", &e->span, e->incomplete);
	if (e->kind == AN_TASK || e->kind == AN_ISR)
		json_hist(out, e->kind == AN_ISR ? "gap" : "latency", &e->lat, e->lat_incomplete);
	fprintf(out, ",\"longest\":[");
	for (uint32_t k = 0; k < e->ntop; k++)
		fprintf(out, "%s[%" PRIu64 ",%" PRIu64 "]", k ? "," : "", e->top[k].dur,
			e->top[k].start > m->origin ? e->top[k].start - m->origin : 0);
	fprintf(out, "]}");
}

int an_write_jsonl(struct an_model *m, FILE *out)
{
	uint32_t *idx = malloc((m->nent + 1) * sizeof(*idx));
	if (!idx)
		return -1;
	an_finish(m);
	uint32_t n = an_order(m, idx);
	fprintf(out, "{\"type\":\"analysis\",\"ts_freq\":%" PRIu64 ",\"origin\":%" PRIu64 ",\"total\":%" PRIu64
		     ",\"losses\":%" PRIu64 ",\"resyncs\":%" PRIu64 ",\"window\":%" PRIu64 "}\n",
		m->ts_freq, m->origin, an_total(m), m->losses, m->resyncs, m->cfg.window ? m->window : 0);
	for (uint32_t i = 0; i < n; i++) {
		an_json_ent(m, &m->ent[idx[i]], idx[i], out);
		fputc('\n', out);
	}
	for (uint32_t k = 0; k < AN_MAX_CORES; k++) {
		const struct an_core *c = m->core[k];
		if (!c || !c->have_time)
			continue;
		fprintf(out, "{\"type\":\"core\",\"core\":%" PRIu32 ",\"traced\":%" PRIu64 ",\"tasks\":%" PRIu64
			     ",\"isr\":%" PRIu64 ",\"idle\":%" PRIu64 ",\"notask\":%" PRIu64 ",\"max_nest\":%" PRIu32 "}\n",
			k, c->last - c->first, c->by_kind[AN_TASK], c->by_kind[AN_ISR], c->by_kind[AN_IDLE],
			c->by_kind[AN_NOTASK], c->max_depth);
	}
	for (uint32_t w = 0; m->cfg.window && w < m->nwin; w++) {
		fprintf(out, "{\"type\":\"window\",\"start\":%" PRIu64 ",\"width\":%" PRIu64 ",\"cpu\":{",
			(uint64_t)w * m->window, m->window);
		int first = 1;
		for (uint32_t i = 0; i < n; i++) {
			const struct an_ent *e = &m->ent[idx[i]];
			if (w < e->nwin && e->win[w]) {
				fprintf(out, "%s\"%" PRIu32 "\":%" PRIu64, first ? "" : ",", idx[i], e->win[w]);
				first = 0;
			}
		}
		fprintf(out, "}}\n");
	}
	for (size_t i = 0; an_plugins[i] && i < 16; i++)
		if (an_plugins[i]->json && an_plugins[i]->json(m->plug[i], m, out) != 0)
			break;
	free(idx);
	return ferror(out) ? -1 : 0;
}
