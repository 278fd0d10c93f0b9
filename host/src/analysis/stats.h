/*
 * stats.h -- the figures of `sonde stats`: records per type, errors, losses
 * and their split (target vs link), time span and rates.  A listener on the
 * pipeline (core/pipe.h), so it works for every decoder; the loss split
 * comes from the decoder's session counters.
 */
#ifndef SONDE_STATS_H
#define SONDE_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "core/pipe.h"

#define SONDE_STATS_MAX_TYPES 4096 /* distinct record ids counted one by one */

struct sonde_stats_type {
	uint32_t rec_id;
	char *name;          /* copy of the latest name seen */
	size_t name_cap;     /* bytes allocated for it */
	const char *seen;    /* the pointer of the name last seen, */
	uint64_t seen_gen;   /*   under this names_gen (struct sonde_session) */
	uint64_t count;
	uint64_t tally_at;   /* the session's tally's n when its latest event came */
};

struct sonde_stats {
	uint64_t records;
	struct sonde_stats_type *types;
	size_t ntypes, cap;
	int32_t direct[256];   /* index in types for rec_id < 256, -1 none */
	uint64_t other_types;  /* records beyond SONDE_STATS_MAX_TYPES ids */
	uint64_t diags[SONDE_D_COUNT];
	uint64_t ndiags;
	uint64_t gaps, gap_frames;
	uint64_t resyncs, discarded;
	uint64_t estimated;    /* records whose time is an estimate */
	int have_time;
	uint64_t t_min, t_max; /* over exact times */
};

/* The figures that take in the records the decoder tallied instead of
 * delivering (struct sonde_tally, via s->tally). */
struct sonde_stats_totals {
	uint64_t records;
	int have_time;
	uint64_t t_min, t_max;
};
void sonde_stats_totals(const struct sonde_stats *st, const struct sonde_session *s, struct sonde_stats_totals *t);

void sonde_stats_init(struct sonde_stats *st);
void sonde_stats_free(struct sonde_stats *st);
/* The listener to add to a pipe. */
struct sonde_listener sonde_stats_listener(struct sonde_stats *st);
/* The report, after sonde_pipe_run.  Returns 0, -1 on a write error. */
int sonde_stats_print(const struct sonde_stats *st, const struct sonde_pipe *p, FILE *out);

#endif /* SONDE_STATS_H */
