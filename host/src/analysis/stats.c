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

static void stats_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct sonde_stats *st = ctx;
	(void)s;
	st->records++;
	struct sonde_stats_type *t = type_of(st, ev->rec_id);
	if (!t) {
		st->other_types++;
	} else {
		t->count++;
		const char *name = ev->rec_name ? ev->rec_name : sonde_ev_desc(ev->kind)->name;
		if (name != t->last) { /* names from dictionaries can change */
			t->last = name;
			if (!t->name || strcmp(t->name, name) != 0) {
				char *copy = strdup(name);
				for (char *c = copy; c && *c; c++)
					if ((unsigned char)*c < 0x20 || *c == 0x7F)
						*c = '?'; /* one line per type */
				if (copy) {
					free(t->name);
					t->name = copy;
				}
			}
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
	struct sonde_listener l = { stats_event, stats_diag, st };
	return l;
}

static int by_id(const void *a, const void *b)
{
	const struct sonde_stats_type *x = a, *y = b;
	return x->rec_id < y->rec_id ? -1 : x->rec_id > y->rec_id;
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

int sonde_stats_print(const struct sonde_stats *st, const struct sonde_pipe *p, FILE *out)
{
	const struct sonde_session *s = &p->session;
	fprintf(out, "%-22s %s\n", "input", p->input_name);
	fprintf(out, "%-22s %s%s%s\n", "protocol", s->proto ? s->proto : "-", s->variant ? " " : "",
		s->variant ? s->variant : "");
	fprintf(out, "%-22s %" PRIu64 "\n", "bytes", p->bytes);
	fprintf(out, "%-22s %" PRIu64 "\n", "frames", s->frames);
	fprintf(out, "%-22s %" PRIu64 "\n", "records", st->records);
	struct sonde_stats_type *sorted = NULL;
	if (st->ntypes) {
		sorted = malloc(st->ntypes * sizeof(*sorted));
		if (sorted) {
			memcpy(sorted, st->types, st->ntypes * sizeof(*sorted));
			qsort(sorted, st->ntypes, sizeof(*sorted), by_id);
			for (size_t i = 0; i < st->ntypes; i++)
				fprintf(out, "  %-20s %-10" PRIu64 " (id 0x%02" PRIX32 ")\n",
					sorted[i].name ? sorted[i].name : "?", sorted[i].count, sorted[i].rec_id);
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
	fprintf(out, "%-22s %" PRIu64 " (%" PRIu64 " bytes discarded)\n", "resyncs", st->resyncs, st->discarded);
	fprintf(out, "%-22s %" PRIu64 "\n", "diagnostics", st->ndiags);
	for (int c = 0; c < SONDE_D_COUNT; c++)
		if (st->diags[c])
			fprintf(out, "  %-20s %" PRIu64 "\n", sonde_diag_name((enum sonde_diag_code)c), st->diags[c]);
	fprintf(out, "%-22s %" PRIu64 "\n", "estimated times", st->estimated);
	fprintf(out, "%-22s ", "time span");
	uint64_t span = st->have_time ? st->t_max - st->t_min : 0;
	if (!st->have_time) {
		fprintf(out, "none (no record with an exact time)\n");
	} else if (!s->ts_freq) {
		fprintf(out, "%" PRIu64 " ticks (tick frequency unknown)\n", span);
	} else {
		fprintf(out, "%" PRIu64 " ticks (", span);
		seconds(out, span, s->ts_freq);
		fprintf(out, " s at %" PRIu64 " Hz)\n", s->ts_freq);
	}
	fprintf(out, "%-22s ", "rates");
	if (!st->have_time || !s->ts_freq || span == 0) {
		fprintf(out, "n/a (%s)\n", !st->have_time || span == 0 ? "no time span" : "tick frequency unknown");
	} else {
		print_rate(out, st->records, span, s->ts_freq, "records/s");
		fprintf(out, ", ");
		print_rate(out, p->bytes, span, s->ts_freq, "bytes/s");
		fprintf(out, "\n");
	}
	return ferror(out) ? -1 : 0;
}
