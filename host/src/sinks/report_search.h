/*
 * report_search.h -- what the search box of the HTML report searches: every
 * record of the trace, not only the timeline's kept detail, in bounded
 * memory (docs/report.md).
 *
 * Records are grouped by key: the texts --filter matches (kind, name, obj:
 * sonde_select_fields() of core/select.h), so that the page can evaluate a
 * --filter expression on a key and find exactly the records `sonde decode
 * --filter` finds.  Per key: its exact count, the times of its earliest
 * `first` records, and a histogram over RSEARCH_BINS bins spanning the
 * trace (their width doubles as the trace grows, as the timeline's
 * overview does), so that the page can count matches in any window and
 * draw where they are.  Past max_keys keys (or RSEARCH_KEY_BYTES of key
 * text) a record is counted in "other" of its kind, with a count and a
 * histogram but no other texts: the page then says its count is a lower
 * bound, unless the query's kind= filters leave those kinds out.
 *
 * Independent of the page's other data: the HTML sink and the live view
 * feed it the events they are given and write its JSON member.
 */
#ifndef SONDE_REPORT_SEARCH_H
#define SONDE_REPORT_SEARCH_H

#include <stdint.h>
#include <stdio.h>

#include "event.h"

#define RSEARCH_BINS 2048u
#define RSEARCH_FIRST_BIN_NS 1000u   /* the first bin width; it doubles */
#define RSEARCH_DEFAULT_KEYS 20000u
#define RSEARCH_DEFAULT_FIRST 200u
#define RSEARCH_KEY_BYTES (4u << 20) /* bytes of key text kept at most */

struct rsearch;

/* max_keys: keys kept before "other" (0 = RSEARCH_DEFAULT_KEYS); first:
 * times kept per key (0 = RSEARCH_DEFAULT_FIRST). */
struct rsearch *rsearch_new(uint32_t max_keys, uint32_t first);
void rsearch_free(struct rsearch *r);

/* One record.  Its time is ns from the session's origin (ss->origin), as
 * the timeline counts; a record without a time of its own takes the time of
 * the latest record that had one. */
void rsearch_event(struct rsearch *r, const struct sonde_event *ev, const struct sonde_session *ss);

/* Write the member "search":{...}, followed by a comma.  jstr writes a JSON
 * string (safe for a <script> element in the HTML sink).  The object:
 *   bin, n      bin width in ns and the bins in use (bin k: [k*bin, (k+1)*bin))
 *   end         the latest time of a record (the last bin ends there)
 *   first       times kept per key at most
 *   total       records seen; other: those of keys past the cap
 *   others      [[kind, count, [bin, count, bin, count, ...]], ...] of those
 *   keys        [[kind, [names], [objs], count, [times], [bin, count, ...]], ...]
 *               names: the record's name, a LOG's text; objs: the object's id
 *               in decimal, its name, 0x... for an address (sel_fields). */
void rsearch_write_json(const struct rsearch *r, FILE *out, void (*jstr)(FILE *, const char *, size_t));

/* For the tests: records seen, those counted in "other", keys kept. */
uint64_t rsearch_total(const struct rsearch *r);
uint64_t rsearch_other(const struct rsearch *r);
uint32_t rsearch_keys(const struct rsearch *r);

#endif /* SONDE_REPORT_SEARCH_H */
