/*
 * sonde_dict.h -- the DICT records of a Sonde stream: names by (kind, id).
 *
 * Lookups happen for almost every event, so ids below 256 (objects, tasks,
 * ISRs, markers, counters, small function ids) are also kept in a direct
 * table; everything else is an open-addressing hash.  Memory is bounded by
 * SDICT_MAX_ENTRIES and SDICT_MAX_BYTES whatever the stream sends.
 */
#ifndef SONDE_DICT_H
#define SONDE_DICT_H

#include <stddef.h>
#include <stdint.h>

#define SDICT_KINDS 16               /* kinds 0..15 (protocol uses 1..10) */
#define SDICT_MAX_ENTRIES 65536u
#define SDICT_MAX_BYTES (8u << 20)   /* name bytes */

struct sdict_slot {
	uint64_t key;   /* kind << 32 | id */
	char *name;     /* NULL: empty slot */
};

struct sdict {
	struct sdict_slot *tab;
	size_t cap;     /* power of two, or 0 */
	size_t n;
	size_t bytes;
	const char *small[SDICT_KINDS][256];
	uint64_t gen;   /* generation: changes with every entry set and every clear (from 1) */
};

void sdict_init(struct sdict *d);
void sdict_clear(struct sdict *d); /* forget everything (target reset) */
void sdict_free(struct sdict *d);

/* Set (or replace) a name; len bytes of name, no NUL needed.  Returns 0, or
 * -1 when the dictionary is full or memory ran out (entry not stored). */
int sdict_set(struct sdict *d, unsigned kind, uint32_t id, const char *name, size_t len);

/* Lookup of an id >= 256 (the hash part); use sdict_get. */
const char *sdict_get_big(const struct sdict *d, unsigned kind, uint32_t id);

/* The name, or NULL if unknown. */
static inline const char *sdict_get(const struct sdict *d, unsigned kind, uint32_t id)
{
	if (kind >= SDICT_KINDS)
		return NULL;
	if (id < 256)
		return d->small[kind][id];
	return sdict_get_big(d, kind, id);
}

/* "OBJECT", "TASK", ... or NULL for an unknown kind. */
const char *sdict_kind_name(unsigned kind);

#endif /* SONDE_DICT_H */
