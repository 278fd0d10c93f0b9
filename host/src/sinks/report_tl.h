/*
 * report_tl.h -- the timeline of the HTML report (docs/report.md), collected
 * from the track model (trackmap.h) with bounded memory whatever the length
 * of the trace:
 *
 *   overview  per lane, the busy time and the number of slices and instants
 *             in each of RTL_BINS bins spanning the whole trace (the bins
 *             double in width as the trace grows);
 *   detail    every slice, instant and counter value, up to max_items;
 *             beyond, detail is kept only in evenly spread windows of
 *             RTL_WINDOW_NS: each time the budget is exceeded the spacing of
 *             the windows doubles and the items outside them are dropped.
 *             The page draws detail where it was kept, the overview bins
 *             elsewhere.
 */
#ifndef SONDE_REPORT_TL_H
#define SONDE_REPORT_TL_H

#include <stdint.h>
#include <stdio.h>

#include "trackmap.h"

#define RTL_BINS 2048u
#define RTL_MAX_LANES 512u
#define RTL_DEFAULT_MAX_ITEMS 300000u
#define RTL_WINDOW_NS 1000000u  /* detail windows are 1 ms wide */
#define RTL_MAX_DEPTH 32u

enum rtl_type { RTL_SLICE, RTL_INSTANT, RTL_COUNTER };

struct rtl_item {
	uint64_t t0, t1;       /* ns from the time origin */
	uint32_t lane;
	uint32_t name;         /* in the name pool; 0 = unnamed */
	uint32_t args;         /* in the args pool; 0 = none */
	uint16_t depth;
	uint8_t type, cat;
	int64_t value;         /* counters */
};

struct rtl;

struct rtl *rtl_new(uint32_t max_items);
void rtl_free(struct rtl *r);
extern const struct tmap_writer_ops rtl_ops; /* w is a struct rtl * */

/* Write "lanes", "overview", "items", "names", "args", "detail" members of
 * the report's JSON object (each followed by a comma).  jstr writes a JSON
 * string safely for a <script> element. */
void rtl_write_json(struct rtl *r, FILE *out, void (*jstr)(FILE *, const char *, size_t));
uint64_t rtl_items(const struct rtl *r);
uint64_t rtl_dropped(const struct rtl *r);

#endif /* SONDE_REPORT_TL_H */
