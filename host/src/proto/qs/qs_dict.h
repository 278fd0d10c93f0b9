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

struct qs_map_ent {
	uint64_t k1, k2;
	char *name; /* NULL: free slot */
};

struct qs_map {
	struct qs_map_ent *ent;
	size_t cap;  /* slots, a power of two (0 before the first insert) */
	size_t n;    /* entries in use */
	size_t max;  /* entries allowed */
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
/* The name or NULL. */
const char *qs_map_get(const struct qs_map *m, uint64_t k1, uint64_t k2);

/* Signal lookup as QSPY does it: the exact object first, then object 0. */
const char *qs_dict_sig(const struct qs_dicts *d, uint64_t sig, uint64_t obj);

#endif /* SONDE_QS_DICT_H */
