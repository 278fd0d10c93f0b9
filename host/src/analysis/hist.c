/*
 * hist.c -- log-linear duration histogram (hist.h).
 */
#include <stdlib.h>

#include "hist.h"

uint32_t hist_index(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (uint32_t)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v) - HIST_SUB_BITS; /* v >> e in [SUB, 2 SUB) */
	return (e + 1u) * HIST_SUB + (uint32_t)(v >> e) - HIST_SUB;
}

void hist_range(uint32_t i, uint64_t *lo, uint64_t *hi)
{
	if (i < 2 * HIST_SUB) {
		*lo = *hi = i;
		return;
	}
	unsigned e = i / HIST_SUB - 1u;
	uint64_t m = (uint64_t)(i % HIST_SUB + HIST_SUB);
	*lo = m << e;
	*hi = e >= 64u - HIST_SUB_BITS - 1u && m == 2 * HIST_SUB - 1u ? UINT64_MAX : ((m + 1u) << e) - 1u;
}

void hist_add(struct hist *h, uint64_t v)
{
	if (h->n == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += v;
	if (!h->b)
		h->b = calloc(HIST_BUCKETS, sizeof(*h->b));
	if (!h->b)
		return; /* count, min, max and sum stay exact; percentiles say max */
	uint32_t *c = &h->b[hist_index(v)];
	if (*c != UINT32_MAX)
		(*c)++;
}

uint64_t hist_pct(const struct hist *h, double p)
{
	if (!h->n)
		return 0;
	if (!h->b)
		return h->max;
	uint64_t rank = (uint64_t)((double)h->n * p / 100.0 + 0.999999999);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (uint32_t i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t lo, hi;
			hist_range(i, &lo, &hi);
			return hi < h->max ? hi : h->max;
		}
	}
	return h->max;
}

void hist_free(struct hist *h)
{
	free(h->b);
	h->b = NULL;
}
