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
 *
 * Live mode (`sonde live --serve`, rtl_new_live): the detail is a ring of
 * the latest items in arrival order, each with a sequence number, so that a
 * viewer asks for what came since the last it saw (rtl_write_delta); lanes
 * are kept for the whole capture.
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

/* Live mode: a ring of `ring` items (0: RTL_DEFAULT_MAX_ITEMS). */
struct rtl *rtl_new_live(uint32_t ring);
/* A new target session (a reset): its items, bins and open slices go. */
void rtl_live_reset(struct rtl *r);
uint64_t rtl_seq(const struct rtl *r);      /* items ever added = the next item's number */
uint64_t rtl_session(const struct rtl *r);  /* rtl_live_reset calls */
/* Write "lanes", "overview" (its bins from the viewer's nbins - 1 on when
 * the viewer has the same bin width, else all), "seq", "session", "missed"
 * (items that left the ring unseen) and "items" since seq `since`, each
 * item as in rtl_write_json but with its name and args as strings. */
void rtl_write_delta(struct rtl *r, FILE *out, uint64_t since, uint64_t bin, uint32_t nbins,
		     void (*jstr)(FILE *, const char *, size_t));
uint64_t rtl_dropped(const struct rtl *r);

#endif /* SONDE_REPORT_TL_H */
