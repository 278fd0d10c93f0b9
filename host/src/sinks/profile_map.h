/*
 * profile_map.h -- the hash index of the profile model: a 64-bit hash to an
 * index into one of the model's tables (functions, tasks, ISRs, stack tree
 * nodes).  The caller's eq() tells entries with equal hashes apart, so a
 * table can be keyed by anything (a name, an address, a pair of indexes).
 */
#ifndef PROF_MAP_H
#define PROF_MAP_H

#include <stddef.h>
#include <stdint.h>

#define PROF_MAP_EMPTY UINT32_MAX

struct prof_map {
	uint64_t *hash;
	uint32_t *val;     /* PROF_MAP_EMPTY = free slot */
	size_t cap, used;  /* cap is 0 or a power of two */
};

/* Does entry idx of the caller's table have this key? */
typedef int (*prof_eq_fn)(const void *ctx, uint32_t idx, const void *key);

/* The index stored under h whose entry eq() accepts, or PROF_MAP_EMPTY.
 * An empty (zeroed) map is valid. */
uint32_t prof_map_find(const struct prof_map *mp, uint64_t h, prof_eq_fn eq,
		       const void *ctx, const void *key);
/* Store val under h (the caller checked it is not there).  0, or -1 when
 * out of memory. */
int prof_map_add(struct prof_map *mp, uint64_t h, uint32_t val);
void prof_map_free(struct prof_map *mp);

/* Hashes for the keys. */
uint64_t prof_mix(uint64_t a, uint64_t b);
uint64_t prof_strhash(const char *s);

#endif /* PROF_MAP_H */
