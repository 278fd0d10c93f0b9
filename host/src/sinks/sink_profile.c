/*
 * sink_profile.c -- "--format profile": a function profile as a readable
 * table (per function, per task, per ISR), built by profile_model.c.
 *
 * Options:  -o profile.sort=self|incl|calls|name   row order (default self)
 *           -o elf=FILE                           name addresses from FILE
 *
 * Times are in ticks of the trace clock and, when the decoder learned the
 * clock frequency, also in microseconds.  See docs/profiling.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "profile_model.h"
#include "profile_text.h"
#include "core/msg.h"
#include "core/opts.h"

enum psink_sort { PSORT_SELF, PSORT_INCL, PSORT_CALLS, PSORT_NAME };

struct psink {
	FILE *out;
	struct prof_model *m;
	enum psink_sort sort;
};

/* ---- a text table: first column left-aligned, numbers right-aligned, the
 * last (flags) column left-aligned, never padded, and left out when no row
 * has anything in it ------------------------------------------------------- */

struct ptable {
	char **cells;
	size_t ncols, nrows, caprows;
};

static void ptable_init(struct ptable *t, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
}

/* Append a row of ncols strings (copied). */
static int ptable_row(struct ptable *t, const char *const *cells)
{
	if (t->nrows == t->caprows) {
		size_t nc = t->caprows ? t->caprows * 2 : 32;
		char **p = realloc(t->cells, nc * t->ncols * sizeof(*p));

		if (!p)
			return -1;
		t->cells = p;
		t->caprows = nc;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		char *s = strdup(cells[i] ? cells[i] : "");

		if (!s) {
			while (i--)
				free(t->cells[t->nrows * t->ncols + i]);
			return -1;
		}
		t->cells[t->nrows * t->ncols + i] = s;
	}
	t->nrows++;
	return 0;
}

static void ptable_print(const struct ptable *t, FILE *out)
{
	size_t w[16] = { 0 };
	size_t last = t->ncols - 1;
	int last_used = 0;

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols && c < 16; c++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);

			if (l > w[c])
				w[c] = l;
			if (r && c == last && l)
				last_used = 1;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		char *const *row = &t->cells[r * t->ncols];

		fprintf(out, "%-*s", (int)w[0], row[0]);
		for (size_t c = 1; c < last; c++)
			fprintf(out, "  %*s", (int)w[c], row[c]);
		if (last_used && row[last][0])
			fprintf(out, "  %s", row[last]);
		fputc('\n', out);
	}
}

static void ptable_free(struct ptable *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* ---- number formatting --------------------------------------------------- */

#define PCELL 48

static char *pfmt_u(char *b, uint64_t v)
{
	snprintf(b, PCELL, "%" PRIu64, v);
	return b;
}

static char *pfmt_mean(char *b, uint64_t sum, uint64_t n)
{
	if (n)
		snprintf(b, PCELL, "%.1f", (double)sum / (double)n);
	else
		snprintf(b, PCELL, "-");
	return b;
}

static char *pfmt_pct(char *b, uint64_t part, uint64_t total)
{
	if (total)
		snprintf(b, PCELL, "%.2f", 100.0 * (double)part / (double)total);
	else
		snprintf(b, PCELL, "-");
	return b;
}

/* ticks (or a mean of n ticks when n > 1) in microseconds */
static char *pfmt_us(char *b, uint64_t ticks, uint64_t n, uint64_t freq)
{
	if (!n)
		snprintf(b, PCELL, "-");
	else
		snprintf(b, PCELL, "%.3f", (double)ticks * 1e6 / (double)freq / (double)n);
	return b;
}

/* ---- the three sections ----------------------------------------------------- */

struct psort_ctx {
	const struct prof_model *m;
	enum psink_sort key;
};

static int pcmp_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

/* Rows by the chosen key, ties by the other time, then by name, then by
 * first appearance: the order never depends on anything but the input. */
static int psort_cmp(const void *a, const void *b, void *arg)
{
	const struct psort_ctx *sc = arg;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct prof_func *x = prof_func_at(sc->m, ia);
	const struct prof_func *y = prof_func_at(sc->m, ib);
	int c = 0;

	switch (sc->key) {
	case PSORT_SELF:
		c = pcmp_desc(x->self, y->self);
		if (!c)
			c = pcmp_desc(x->incl, y->incl);
		break;
	case PSORT_INCL:
		c = pcmp_desc(x->incl, y->incl);
		if (!c)
			c = pcmp_desc(x->self, y->self);
		break;
	case PSORT_CALLS:
		c = pcmp_desc(x->calls, y->calls);
		if (!c)
			c = pcmp_desc(x->self, y->self);
		break;
	case PSORT_NAME:
		break;
	}
	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = ia < ib ? -1 : ia > ib;
	return c;
}

static const char *const psort_names[] = { "self", "incl", "calls", "name", NULL };

static int psink_functions(struct psink *p, uint64_t total, uint64_t freq, unsigned *flags_seen)
{
	const struct prof_model *m = p->m;
	uint32_t n = prof_func_count(m);
	uint32_t *order;
	struct ptable t;
	char b[14][PCELL];
	const char *cells[14];
	size_t nc = freq ? 14 : 9;
	static const char *const head_t[] = { "function", "calls", "incl[t]", "self[t]", "self%",
		"mean[t]", "min[t]", "max[t]" };
	static const char *const head_us[] = { "incl[us]", "self[us]", "mean[us]", "min[us]", "max[us]" };

	fprintf(p->out, "\nFunctions (%" PRIu32 ", sorted by %s):\n", n, psort_names[p->sort]);
	if (!n) {
		fprintf(p->out, "no function events\n");
		return 0;
	}
	order = malloc(n * sizeof(*order));
	if (!order)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), psort_cmp, &(struct psort_ctx){ m, p->sort });

	ptable_init(&t, nc);
	for (size_t i = 0; i < 8; i++)
		cells[i] = head_t[i];
	for (size_t i = 0; freq && i < 5; i++)
		cells[8 + i] = head_us[i];
	cells[nc - 1] = "flags";
	if (ptable_row(&t, cells) < 0)
		goto fail;
	for (uint32_t i = 0; i < n; i++) {
		const struct prof_func *f = prof_func_at(m, order[i]);
		int have = f->closed != 0;
		char fl[8];

		cells[0] = f->name;
		cells[1] = pfmt_u(b[1], f->calls);
		cells[2] = pfmt_u(b[2], f->incl);
		cells[3] = pfmt_u(b[3], f->self);
		cells[4] = pfmt_pct(b[4], f->self, total);
		cells[5] = pfmt_mean(b[5], f->sum, f->closed);
		cells[6] = have ? pfmt_u(b[6], f->min) : "-";
		cells[7] = have ? pfmt_u(b[7], f->max) : "-";
		if (freq) {
			cells[8] = pfmt_us(b[8], f->incl, 1, freq);
			cells[9] = pfmt_us(b[9], f->self, 1, freq);
			cells[10] = pfmt_us(b[10], f->sum, f->closed, freq);
			cells[11] = pfmt_us(b[11], f->min, have, freq);
			cells[12] = pfmt_us(b[12], f->max, have, freq);
		}
		cells[nc - 1] = prof_flag_letters(f->flags, fl);
		*flags_seen |= f->flags;
		if (ptable_row(&t, cells) < 0)
			goto fail;
	}
	ptable_print(&t, p->out);
	ptable_free(&t);
	free(order);
	return 0;
fail:
	ptable_free(&t);
	free(order);
	return -1;
}

/* Rows of the task and ISR tables: by time, longest first, ties in the
 * order they were first seen. */
struct ptime {
	uint64_t t;
	uint32_t idx;
};

static int ptime_cmp(const void *a, const void *b)
{
	const struct ptime *x = a, *y = b;
	int c = pcmp_desc(x->t, y->t);

	return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int psink_tasks(struct psink *p, uint64_t total, uint64_t freq, unsigned *flags_seen)
{
	const struct prof_model *m = p->m;
	uint32_t n = prof_ctx_count(m), k = 0;
	struct ptime *rows = malloc((n + 1) * sizeof(*rows));
	struct ptable t;
	char b[6][PCELL], label[128], fl[8];
	const char *cells[6];
	size_t nc = freq ? 6 : 5;
	int rc = -1;

	if (!rows)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct prof_ctx *c = prof_ctx_at(m, i);

		/* ISR levels are reported per ISR; pseudo contexts only if used */
		if (c->kind == PROF_CTX_ISR)
			continue;
		if (c->kind != PROF_CTX_TASK && !c->run && !c->switches)
			continue;
		rows[k++] = (struct ptime){ c->run, i };
	}
	qsort(rows, k, sizeof(*rows), ptime_cmp);
	fprintf(p->out, "\nTasks (CPU time outside ISRs):\n");
	if (!k) {
		fprintf(p->out, "none\n");
		free(rows);
		return 0;
	}
	ptable_init(&t, nc);
	cells[0] = "task";
	cells[1] = "switches";
	cells[2] = "run[t]";
	cells[3] = "cpu%";
	if (freq)
		cells[4] = "run[us]";
	cells[nc - 1] = "flags";
	if (ptable_row(&t, cells) < 0)
		goto out;
	for (uint32_t i = 0; i < k; i++) {
		const struct prof_ctx *c = prof_ctx_at(m, rows[i].idx);

		cells[0] = prof_ctx_label(c, label, sizeof(label));
		cells[1] = pfmt_u(b[1], c->switches);
		cells[2] = pfmt_u(b[2], c->run);
		cells[3] = pfmt_pct(b[3], c->run, total);
		if (freq)
			cells[4] = pfmt_us(b[4], c->run, 1, freq);
		cells[nc - 1] = prof_flag_letters(c->flags, fl);
		*flags_seen |= c->flags;
		if (ptable_row(&t, cells) < 0)
			goto out;
	}
	ptable_print(&t, p->out);
	rc = 0;
out:
	ptable_free(&t);
	free(rows);
	return rc;
}

static int psink_isrs(struct psink *p, uint64_t total, uint64_t freq, unsigned *flags_seen)
{
	const struct prof_model *m = p->m;
	uint32_t n = prof_isr_count(m);
	struct ptime *rows;
	struct ptable t;
	char b[10][PCELL], label[128], fl[8];
	const char *cells[10];
	size_t nc = freq ? 10 : 7;
	int rc = -1;

	if (!n)
		return 0;
	rows = malloc(n * sizeof(*rows));
	if (!rows)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		rows[i] = (struct ptime){ prof_isr_at(m, i)->total, i };
	qsort(rows, n, sizeof(*rows), ptime_cmp);
	fprintf(p->out, "\nISRs (CPU time without nested ISRs):\n");
	ptable_init(&t, nc);
	cells[0] = "isr";
	cells[1] = "count";
	cells[2] = "total[t]";
	cells[3] = "cpu%";
	cells[4] = "mean[t]";
	cells[5] = "max[t]";
	if (freq) {
		cells[6] = "total[us]";
		cells[7] = "mean[us]";
		cells[8] = "max[us]";
	}
	cells[nc - 1] = "flags";
	if (ptable_row(&t, cells) < 0)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		const struct prof_isr *r = prof_isr_at(m, rows[i].idx);

		cells[0] = prof_isr_label(r, label, sizeof(label));
		cells[1] = pfmt_u(b[1], r->count);
		cells[2] = pfmt_u(b[2], r->total);
		cells[3] = pfmt_pct(b[3], r->total, total);
		cells[4] = pfmt_mean(b[4], r->total, r->count);
		cells[5] = pfmt_u(b[5], r->max);
		if (freq) {
			cells[6] = pfmt_us(b[6], r->total, 1, freq);
			cells[7] = pfmt_us(b[7], r->total, r->count, freq);
			cells[8] = pfmt_us(b[8], r->max, 1, freq);
		}
		cells[nc - 1] = prof_flag_letters(r->flags, fl);
		*flags_seen |= r->flags;
		if (ptable_row(&t, cells) < 0)
			goto out;
	}
	ptable_print(&t, p->out);
	rc = 0;
out:
	ptable_free(&t);
	free(rows);
	return rc;
}

static void psink_legend(FILE *out, unsigned flags)
{
	if (!flags)
		return;
	fprintf(out, "\nFlags:\n");
	if (flags & PROF_F_ESTIMATED)
		fprintf(out, "  E  includes time from estimated timestamps\n");
	if (flags & PROF_F_UNTIMED)
		fprintf(out, "  U  includes events without a timestamp (taken at the time before them)\n");
	if (flags & PROF_F_OPEN)
		fprintf(out, "  O  still active at the end of the trace, closed at the last timestamp\n");
	if (flags & PROF_F_MISSING_EXIT)
		fprintf(out, "  M  an exit was missing: closed when the caller or the ISR ended\n");
	if (flags & PROF_F_LOST)
		fprintf(out, "  L  cut by a loss (records lost): closed at the loss\n");
}

/* ---- sink operations ----------------------------------------------------------- */

static void *psink_create(FILE *out, sonde_opts opts)
{
	struct psink *p = calloc(1, sizeof(*p));

	if (!p) {
		sonde_err("profile: out of memory");
		return NULL;
	}
	p->out = out;
	p->sort = PSORT_SELF;
	int sort = sonde_opt_word(opts, "profile.sort", psort_names, PSORT_SELF);
	if (sort < 0) {
		free(p);
		return NULL;
	}
	p->sort = (enum psink_sort)sort;
	p->m = prof_create_from_opts(opts, "profile", 0);
	if (!p->m) {
		free(p);
		return NULL;
	}
	return p;
}

static void psink_event(void *sink, const struct sonde_event *ev, const struct sonde_session *s)
{
	(void)s;
	prof_event(((struct psink *)sink)->m, ev);
}

static void psink_diag(void *sink, const struct sonde_diag *d, const struct sonde_session *s)
{
	(void)s;
	prof_diag(((struct psink *)sink)->m, d);
}

static int psink_finish(void *sink, const struct sonde_session *s)
{
	struct psink *p = sink;
	uint64_t total, freq = s ? s->ts_freq : 0;
	unsigned flags = 0;
	int rc = 0;

	prof_finish(p->m);
	total = prof_total_time(p->m);
	fprintf(p->out, "Profile: %" PRIu64 " ticks traced", total);
	if (freq)
		fprintf(p->out, " = %.3f us at %" PRIu64 " Hz\n", (double)total * 1e6 / (double)freq, freq);
	else
		fprintf(p->out, " (clock frequency unknown: times in ticks only)\n");
	if (psink_functions(p, total, freq, &flags) < 0 ||
	    psink_tasks(p, total, freq, &flags) < 0 ||
	    psink_isrs(p, total, freq, &flags) < 0) {
		sonde_err("profile: out of memory");
		rc = -1;
	}
	psink_legend(p->out, flags);
	if (prof_write_notes(p->m, NULL, NULL) > 0) {
		fprintf(p->out, "\nNotes:\n");
		prof_write_notes(p->m, p->out, "  ");
	}
	if (fflush(p->out) != 0 || ferror(p->out))
		rc = -1;
	return rc;
}

static void psink_destroy(void *sink)
{
	struct psink *p = sink;

	if (!p)
		return;
	prof_destroy(p->m);
	free(p);
}

const struct sonde_sink_ops sonde_sink_profile = {
	.name = "profile",
	.desc = "function profile table: calls, inclusive/self time per function, task and ISR (-o profile.sort=self|incl|calls|name, -o elf=FILE)",
	.create = psink_create,
	.event = psink_event,
	.diag = psink_diag,
	.finish = psink_finish,
	.destroy = psink_destroy,
};
