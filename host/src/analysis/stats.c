/*
 * stats.c -- counting for `sonde stats` (stats.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/event_desc.h"
#include "stats.h"

void sonde_stats_init(struct sonde_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < 256; i++)
		st->direct[i] = -1;
}

void sonde_stats_free(struct sonde_stats *st)
{
	for (size_t i = 0; i < st->ntypes; i++)
		free(st->types[i].name);
	free(st->types);
	sonde_stats_init(st);
}

static struct sonde_stats_type *type_of(struct sonde_stats *st, uint32_t rec_id)
{
	if (rec_id < 256 && st->direct[rec_id] >= 0)
		return &st->types[st->direct[rec_id]];
	if (rec_id >= 256)
		for (size_t i = 0; i < st->ntypes; i++)
			if (st->types[i].rec_id == rec_id)
				return &st->types[i];
	if (st->ntypes == SONDE_STATS_MAX_TYPES)
		return NULL;
	if (st->ntypes == st->cap) {
		size_t ncap = st->cap ? st->cap * 2 : 64;
		struct sonde_stats_type *nt = realloc(st->types, ncap * sizeof(*nt));
		if (!nt)
			return NULL;
		st->types = nt;
		st->cap = ncap;
	}
	struct sonde_stats_type *t = &st->types[st->ntypes];
	memset(t, 0, sizeof(*t));
	t->rec_id = rec_id;
	if (rec_id < 256)
		st->direct[rec_id] = (int32_t)st->ntypes;
	st->ntypes++;
	return t;
}

/* Copy name into t->name (control bytes are replaced when the report is
 * printed); the buffer is reused, since a record id's name may alternate
 * (an inferred record sharing the id of the one it comes from). */
static void keep_name(struct sonde_stats_type *t, const char *name)
{
	size_t n = strlen(name);
	if (n + 1 > t->name_cap) {
		char *nn = realloc(t->name, n + 1);
		if (!nn)
			return;
		t->name = nn;
		t->name_cap = n + 1;
	}
	memcpy(t->name, name, n + 1);
}

static void stats_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct sonde_stats *st = ctx;
	if (ev->flags & SONDE_EVF_PART)
		return; /* the record is counted with its own event */
	st->records++;
	struct sonde_stats_type *t = type_of(st, ev->rec_id);
	if (!t) {
		st->other_types++;
	} else {
		t->count++;
		t->tally_at = s && s->tally ? s->tally->n : 0;
		/* Names from dictionaries can change, and a decoder may show the
		 * new one from the same storage as the old (as the Sonde decoder
		 * does for user records): compared by their text, unless the
		 * session's names_gen says it is the same as last time. */
		const char *name = ev->rec_name ? ev->rec_name : sonde_ev_desc(ev->kind)->name;
		uint64_t gen = s ? s->names_gen : 0;
		if (name != t->seen || !gen || gen != t->seen_gen) {
			if (!t->name || strcmp(t->name, name) != 0)
				keep_name(t, name);
			t->seen = name;
			t->seen_gen = gen;
		}
	}
	if (ev->ts_flags & SONDE_TS_ESTIMATED) {
		st->estimated++;
	} else if (ev->ts_flags & SONDE_TS_VALID) {
		if (!st->have_time || ev->ts < st->t_min)
			st->t_min = ev->ts;
		if (!st->have_time || ev->ts > st->t_max)
			st->t_max = ev->ts;
		st->have_time = 1;
	}
}

static void stats_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	struct sonde_stats *st = ctx;
	(void)s;
	st->ndiags++;
	st->diags[(unsigned)d->code < SONDE_D_COUNT ? d->code : SONDE_D_OTHER]++;
	if (d->code == SONDE_D_SEQ_GAP) {
		st->gaps++;
		st->gap_frames += d->count;
	}
	if (sonde_diag_is_discard(d->code)) {
		st->resyncs++;
		st->discarded += d->count;
	}
}

struct sonde_listener sonde_stats_listener(struct sonde_stats *st)
{
	/* it needs no event of any kind: the figures of records tallied
	 * instead are read from the session's tally when printed */
	struct sonde_listener l = { .event = stats_event, .diag = stats_diag, .ctx = st, .no_text = 1,
				    .tally_kinds = SONDE_KINDS_ALL };
	return l;
}

/* A rate as events per second, with one decimal, from integers only. */
static void print_rate(FILE *out, uint64_t n, uint64_t ticks, uint64_t freq, const char *unit)
{
	unsigned __int128 tenths = (unsigned __int128)n * freq * 10 / ticks;
	fprintf(out, "%" PRIu64 ".%u %s", (uint64_t)(tenths / 10), (unsigned)(tenths % 10), unit);
}

static void seconds(FILE *out, uint64_t ticks, uint64_t freq)
{
	uint64_t ns = (uint64_t)((unsigned __int128)(ticks % freq) * 1000000000u / freq);
	fprintf(out, "%" PRIu64 ".%09" PRIu64, ticks / freq, ns);
}

void sonde_stats_totals(const struct sonde_stats *st, const struct sonde_session *s, struct sonde_stats_totals *t)
{
	const struct sonde_tally *ty = s->tally;
	t->records = st->records;
	t->have_time = st->have_time;
	t->t_min = st->t_min;
	t->t_max = st->t_max;
	if (!ty || !ty->n)
		return;
	t->records += ty->n;
	if (!t->have_time || ty->t_min < t->t_min)
		t->t_min = ty->t_min;
	if (!t->have_time || ty->t_max > t->t_max)
		t->t_max = ty->t_max;
	t->have_time = 1;
}

/* A line of the records per type. */
struct type_line {
	uint32_t rec_id;
	uint64_t count;
	const char *name;
};

static int by_id(const void *a, const void *b)
{
	const struct type_line *x = a, *y = b;
	return x->rec_id < y->rec_id ? -1 : x->rec_id > y->rec_id;
}

/* The record types seen as events and tallied, by id, in a new array
 * (*n of them); NULL when memory ran out. */
static struct type_line *types_by_id(const struct sonde_stats *st, const struct sonde_tally *ty, size_t *n)
{
	size_t k = st->ntypes;
	struct type_line *v = malloc((k + (ty ? 256 : 0) + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < k; i++)
		v[i] = (struct type_line){ st->types[i].rec_id, st->types[i].count, st->types[i].name };
	for (size_t id = 0; ty && id < 256; id++) {
		if (!ty->count[id])
			continue;
		if (st->direct[id] >= 0) {
			struct type_line *t = &v[st->direct[id]];
			t->count += ty->count[id];
			if (ty->at[id] > st->types[st->direct[id]].tally_at) /* its latest record was tallied */
				t->name = ty->name[id];
			continue;
		}
		v[k++] = (struct type_line){ (uint32_t)id, ty->count[id], ty->name[id] };
	}
	qsort(v, k, sizeof(*v), by_id);
	*n = k;
	return v;
}

/* A name left-aligned in width columns, control bytes shown as '?' (one
 * line per type). */
static void put_name(FILE *out, const char *name, size_t width)
{
	size_t n = 0;
	for (const char *c = name; *c; c++, n++)
		putc((unsigned char)*c < 0x20 || *c == 0x7F ? '?' : *c, out);
	for (; n < width; n++)
		putc(' ', out);
}

int sonde_stats_print(const struct sonde_stats *st, const struct sonde_pipe *p, FILE *out)
{
	const struct sonde_session *s = &p->session;
	struct sonde_stats_totals tot;
	sonde_stats_totals(st, s, &tot);
	fprintf(out, "%-22s %s\n", "input", p->input_name);
	fprintf(out, "%-22s %s%s%s\n", "protocol", s->proto ? s->proto : "-", s->variant ? " " : "",
		s->variant ? s->variant : "");
	fprintf(out, "%-22s %" PRIu64 "\n", "bytes", p->bytes);
	fprintf(out, "%-22s %" PRIu64 "\n", "frames", s->frames);
	fprintf(out, "%-22s %" PRIu64 "\n", "records", tot.records);
	if (st->ntypes || (s->tally && s->tally->n)) {
		size_t ntypes = 0;
		struct type_line *sorted = types_by_id(st, s->tally, &ntypes);
		if (sorted) {
			for (size_t i = 0; i < ntypes; i++) {
				fputs("  ", out);
				put_name(out, sorted[i].name ? sorted[i].name : "?", 20);
				fprintf(out, " %-10" PRIu64 " (id 0x%02" PRIX32 ")\n", sorted[i].count, sorted[i].rec_id);
			}
			free(sorted);
		}
	}
	if (st->other_types)
		fprintf(out, "  %-20s %" PRIu64 "\n", "(other ids)", st->other_types);
	fprintf(out, "%-22s %" PRIu64 "\n", "checksum errors", st->diags[SONDE_D_BAD_CHECKSUM]);
	fprintf(out, "%-22s %" PRIu64 " (%" PRIu64 " frames lost)\n", "sequence gaps", st->gaps, st->gap_frames);
	fprintf(out, "%-22s %" PRIu64 " overwritten, %" PRIu64 " refused\n", "target drops",
		s->drops_overwritten, s->drops_refused);
	fprintf(out, "%-22s %" PRIu64 "\n", "link-lost frames", s->lost_link);
	fprintf(out, "%-22s %" PRIu64 "\n", "unexplained lost", s->lost_unexplained);
	if (s->stopped_records)
		fprintf(out, "%-22s %" PRIu64 " (tracing stopped on purpose: not lost)\n", "not recorded",
			s->stopped_records);
	fprintf(out, "%-22s %" PRIu64 " (%" PRIu64 " bytes discarded)\n", "resyncs", st->resyncs, st->discarded);
	fprintf(out, "%-22s %" PRIu64 "\n", "diagnostics", st->ndiags);
	for (int c = 0; c < SONDE_D_COUNT; c++)
		if (st->diags[c])
			fprintf(out, "  %-20s %" PRIu64 "\n", sonde_diag_name((enum sonde_diag_code)c), st->diags[c]);
	fprintf(out, "%-22s %" PRIu64 "\n", "estimated times", st->estimated);
	fprintf(out, "%-22s ", "time span");
	uint64_t span = tot.have_time ? tot.t_max - tot.t_min : 0;
	if (!tot.have_time) {
		fprintf(out, "none (no record with an exact time)\n");
	} else if (!s->ts_freq) {
		fprintf(out, "%" PRIu64 " ticks (tick frequency unknown)\n", span);
	} else {
		fprintf(out, "%" PRIu64 " ticks (", span);
		seconds(out, span, s->ts_freq);
		fprintf(out, " s at %" PRIu64 " Hz)\n", s->ts_freq);
	}
	fprintf(out, "%-22s ", "rates");
	if (!tot.have_time || !s->ts_freq || span == 0) {
		fprintf(out, "n/a (%s)\n", !tot.have_time || span == 0 ? "no time span" : "tick frequency unknown");
	} else {
		print_rate(out, tot.records, span, s->ts_freq, "records/s");
		fprintf(out, ", ");
		print_rate(out, p->bytes, span, s->ts_freq, "bytes/s");
		fprintf(out, "\n");
	}
	return ferror(out) ? -1 : 0;
}
