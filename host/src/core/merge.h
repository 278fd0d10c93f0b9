/*
 * merge.h -- merges the event streams of several inputs (one trace file per
 * core, or any traces that share a clock) into one stream in time order.
 *
 * Each input's decoder hands its events and diagnostics to the merge, which
 * copies them (strings and arguments too: an event is only valid during its
 * callback) into a bounded queue per input and releases them through
 * struct sonde_merge_out in merged order:
 *
 *   - a k-way merge by time stamp: the queued event with the smallest time
 *     goes first; equal times go in input order; each input's own order is
 *     never changed (a stream whose time goes back stays as it is);
 *   - an event without a valid time (and every diagnostic) keeps its place
 *     in its own stream: it goes out as soon as everything queued before it
 *     in that stream has gone, without waiting for the other inputs;
 *   - a timed event goes out only when every input that has not ended has
 *     something queued (else that input might still bring an earlier one):
 *     sonde_merge_needs() tells the reader which input to read next;
 *   - when an input's queue reaches its limit (events or bytes) while
 *     another input has nothing queued, the merge stops waiting: it releases
 *     the smallest queued events until there is room again, and raises a
 *     diagnostic on that input saying the merged order is no longer
 *     guaranteed there (once, until the merge is back to normal).
 *
 * Clocks: the merged clock (ticks per second) is fixed at the first timed
 * event released: the frequency all inputs that know one agree on, or the
 * highest of them if they differ (the finest resolution; a note says so).
 * Times of an input whose frequency differs from the merged clock are
 * converted to it (rounded down); a frequency that is unknown (0), on
 * either side, leaves ticks as they are.  Until a frequency is known the
 * merged clock is unknown and ticks are compared as they are.
 *
 * Memory: at most max_events events and max_bytes bytes of copies per
 * input, in chunks recycled in FIFO order.
 */
#ifndef SONDE_MERGE_H
#define SONDE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"

#define SONDE_MERGE_MAX_INPUTS 16
#define SONDE_MERGE_DEFAULT_EVENTS 16384u         /* per input */
#define SONDE_MERGE_DEFAULT_BYTES (8u << 20)       /* per input */

struct sonde_merge_out {
	/* An event of input 'input' in merged order: ts in the merged clock
	 * of freq ticks per second (0 = unknown), core set as configured.
	 * Valid during the call only. */
	void (*event)(void *ctx, size_t input, const struct sonde_event *ev, uint64_t freq);
	/* A diagnostic of that input, at its place in the merged stream. */
	void (*diag)(void *ctx, size_t input, const struct sonde_diag *d);
	/* The merge's own diagnostic on an input (its queue overflowed, or no
	 * memory for a copy: the record is dropped), when it is raised; it is
	 * also passed to diag at its place.  May be NULL. */
	void (*raised)(void *ctx, size_t input, const struct sonde_diag *d);
	/* A remark about the clocks (one line, no newline).  May be NULL. */
	void (*note)(void *ctx, const char *msg);
	void *ctx;
};

struct sonde_merge_config {
	size_t max_events; /* per input queue; 0 = SONDE_MERGE_DEFAULT_EVENTS */
	size_t max_bytes;  /* per input queue; 0 = SONDE_MERGE_DEFAULT_BYTES */
};

struct sonde_merge_stats {
	uint64_t queued;   /* events and diagnostics queued */
	uint64_t forced;   /* released without waiting for the other inputs */
	uint64_t overflows;/* overflow diagnostics raised */
	uint64_t lost;     /* not queued for lack of memory */
	size_t peak;       /* most events queued at once */
};

struct sonde_merge;

/* n inputs (1..SONDE_MERGE_MAX_INPUTS) named names[i] in messages; cfg may
 * be NULL.  Returns NULL on a bad n or out of memory. */
struct sonde_merge *sonde_merge_new(size_t n, const char *const *names, const struct sonde_merge_config *cfg,
				    const struct sonde_merge_out *out);
void sonde_merge_free(struct sonde_merge *m);

/* Every event of input i gets core = core (by default events keep theirs). */
void sonde_merge_set_core(struct sonde_merge *m, size_t i, uint32_t core);

/* Queue a copy of an event of input i, whose clock runs at ts_freq ticks
 * per second (0 = unknown), and release what can be released. */
void sonde_merge_event(struct sonde_merge *m, size_t i, const struct sonde_event *ev, uint64_t ts_freq);
/* The same for a diagnostic of input i. */
void sonde_merge_diag(struct sonde_merge *m, size_t i, const struct sonde_diag *d);
/* Input i has ended: nothing more comes from it.  When every input has
 * ended, everything queued has been released. */
void sonde_merge_end(struct sonde_merge *m, size_t i);

/* 1 if input i holds the merge up: it has not ended and nothing of it is
 * queued, so it should be read next. */
int sonde_merge_needs(const struct sonde_merge *m, size_t i);
/* The merged clock in ticks per second, 0 while unknown. */
uint64_t sonde_merge_freq(const struct sonde_merge *m);
/* Figures of input i. */
void sonde_merge_get_stats(const struct sonde_merge *m, size_t i, struct sonde_merge_stats *st);

#endif /* SONDE_MERGE_H */
