/*
 * report_page.h -- the report page's frame, shared by `sonde report`
 * (sink_html.c) and the page `sonde live --serve` serves (cli/live_serve.c):
 * the template with the title and CSS, the data object, the script.
 */
#ifndef SONDE_REPORT_PAGE_H
#define SONDE_REPORT_PAGE_H

#include <stdio.h>

#include "analysis/stats.h"
#include "event.h"

/* A JSON string that is safe inside a <script> element. */
void report_jstr(FILE *out, const char *s, size_t n);

/* The page: data(out, ctx) writes the members of the data object after
 * "title", "producer", "proto", "ts_freq", "origin" (each member followed
 * by a comma; the object is closed after it). */
void report_page(FILE *out, const char *title, const struct sonde_session *ss, int ticks_as_ns,
		 void (*data)(FILE *out, void *ctx), void *ctx);

/* The "stats" member (losses, records, diagnostics) followed by a comma. */
void report_stats_json(FILE *out, const struct sonde_stats *st, const struct sonde_session *ss);

#endif /* SONDE_REPORT_PAGE_H */
