/*
 * namepool.h -- a bounded string interning table for the trace exporters.
 *
 * Maps strings to small dense ids (1, 2, ...) and keeps one stable copy of
 * each.  The Perfetto writer uses the ids as interning ids; the track mapper
 * uses the copies to remember names across events.  Both entries and bytes
 * are capped, so memory stays bounded on any input: once full, the pool
 * refuses new strings and the caller falls back (writes the name inline,
 * or rebuilds it from the object id).
 */
#ifndef SONDE_NAMEPOOL_H
#define SONDE_NAMEPOOL_H

#include <stddef.h>
#include <stdint.h>

struct namepool;

/* max_entries and max_bytes (string bytes, NULs included) bound the pool. */
struct namepool *namepool_new(uint32_t max_entries, size_t max_bytes);
void namepool_free(struct namepool *np);

/* The id of s[0..n), adding it if absent and there is room (*added = 1 then).
 * Returns 0 when s is absent and the pool is full (or out of memory). */
uint32_t namepool_intern(struct namepool *np, const char *s, size_t n, int *added);

/* The same for a NUL-terminated s.  The exporters pass the same strings
 * again and again (a category, "Running", an argument's name): the last
 * string seen at each of a few addresses is remembered and checked by one
 * comparison, without hashing. */
uint32_t namepool_intern_str(struct namepool *np, const char *s, int *added);

/* The stored copy (NUL-terminated) of id, which must be one returned by
 * namepool_intern(). */
const char *namepool_str(const struct namepool *np, uint32_t id);

/* Number of strings held. */
uint32_t namepool_count(const struct namepool *np);

#endif /* SONDE_NAMEPOOL_H */
