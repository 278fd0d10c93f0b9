/*
 * qs_dict.h -- the QS dictionaries: names for object and function addresses,
 * signals (per object), user record ids and enum values (8 groups).
 *
 * Each is a bounded hash map keyed by two integers.  Limits follow QSPY 8.x
 * (the larger ones): 2048 objects, 8192 functions, 8192 signals, names up to
 * 128 characters (longer names are cut).  A full map refuses new keys.
 */
#ifndef SONDE_QS_DICT_H
#define SONDE_QS_DICT_H

#include <stddef.h>
#include <stdint.h>

#define QS_NAME_MAX 128
/* Names are stored with zeros up to a multiple of QS_NAME_PAD bytes (at
 * least one), so that the line writers may copy them in whole blocks of
 * QS_NAME_PAD bytes without reading past the allocation. */
#define QS_NAME_PAD 32

struct qs_map_ent {
	uint64_t k1, k2;
	char *name; /* NULL: free slot */
	size_t len; /* strlen(name) */
};

struct qs_map {
	struct qs_map_ent *ent;
	size_t cap;     /* slots, a power of two (0 before the first insert) */
	unsigned shift; /* 64 - log2(cap): the hash's top bits index the slots */
	size_t n;       /* entries in use */
	size_t n_k2;    /* of which with k2 != 0 */
	size_t max;     /* entries allowed */
};

struct qs_dicts {
	struct qs_map obj; /* k1 = address */
	struct qs_map fun; /* k1 = address */
	struct qs_map sig; /* k1 = signal, k2 = object (0 = any object) */
	struct qs_map usr; /* k1 = record id */
	struct qs_map enm; /* k1 = value, k2 = group */
};

void qs_dicts_init(struct qs_dicts *d);
void qs_dicts_clear(struct qs_dicts *d);
void qs_dicts_free(struct qs_dicts *d);

/* Store a name (len bytes, need not be NUL-terminated).  0 ok, -1 the map
 * is full or out of memory. */
int qs_map_put(struct qs_map *m, uint64_t k1, uint64_t k2, const char *name, size_t len);

/* The slot of a key: its entry, or the free slot where it would go.
 * Inline, with one multiplication for a hash (its top bits: keys are
 * addresses, signals and small numbers, and the map is at most half full),
 * because every record looks up two to four names. */
static inline struct qs_map_ent *qs_map_slot(const struct qs_map *m, uint64_t k1, uint64_t k2)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)(((k1 ^ (k2 * 0x9E3779B97F4A7C15ull)) * 0xD6E8FEB86659FD93ull) >> m->shift);
	while (m->ent[i].name && (m->ent[i].k1 != k1 || m->ent[i].k2 != k2))
		i = (i + 1) & mask;
	return &m->ent[i];
}

/* The entry of a key, NULL if there is none. */
static inline const struct qs_map_ent *qs_map_find(const struct qs_map *m, uint64_t k1, uint64_t k2)
{
	if (m->n == 0)
		return NULL;
	const struct qs_map_ent *e = qs_map_slot(m, k1, k2);
	return e->name ? e : NULL;
}

/* The name or NULL. */
static inline const char *qs_map_get(const struct qs_map *m, uint64_t k1, uint64_t k2)
{
	const struct qs_map_ent *e = qs_map_find(m, k1, k2);
	return e ? e->name : NULL;
}

/* Signal lookup as QSPY does it: the exact object first, then object 0
 * (only the latter when no signal has an object of its own, as in most
 * targets' dictionaries). */
static inline const struct qs_map_ent *qs_dict_sig_find(const struct qs_dicts *d, uint64_t sig, uint64_t obj)
{
	if (obj != 0 && d->sig.n_k2) {
		const struct qs_map_ent *e = qs_map_find(&d->sig, sig, obj);
		if (e)
			return e;
	}
	return qs_map_find(&d->sig, sig, 0);
}

static inline const char *qs_dict_sig(const struct qs_dicts *d, uint64_t sig, uint64_t obj)
{
	const struct qs_map_ent *e = qs_dict_sig_find(d, sig, obj);
	return e ? e->name : NULL;
}

#endif /* SONDE_QS_DICT_H */
