/*
 * hist.h -- a histogram of durations (ticks) with bounded memory, for
 * percentiles: exact count, min, max and sum; log-linear buckets (32 per
 * power of two, so a percentile is exact below 64 ticks and within 1/32 of
 * the true value above) allocated on first use.  An HDR histogram in
 * miniature: Debian has no C library for it (libhdr-histogram is not
 * packaged), and this one is 60 lines.
 */
#ifndef AN_HIST_H
#define AN_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 5u
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64u - HIST_SUB_BITS + 1u) * HIST_SUB)

struct hist {
	uint64_t n, sum, min, max;
	uint32_t *b;      /* HIST_BUCKETS counters, NULL until the first value */
};

void hist_add(struct hist *h, uint64_t v);
/* The p-th percentile (0 < p <= 100): the upper end of the bucket holding
 * that rank, never above max; 0 when empty. */
uint64_t hist_pct(const struct hist *h, double p);
void hist_free(struct hist *h);
/* Bucket helpers for printing a histogram: the bucket of v and the range
 * [lo, hi] of bucket i. */
uint32_t hist_index(uint64_t v);
void hist_range(uint32_t i, uint64_t *lo, uint64_t *hi);

#endif /* AN_HIST_H */
