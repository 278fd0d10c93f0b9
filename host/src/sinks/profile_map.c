/*
 * profile_map.c -- the hash index of the profile model (see profile_map.h).
 * Linear probing over power-of-two tables, grown at half load.
 */
#include "profile_map.h"

#include <stdlib.h>

uint64_t prof_mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));

	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return h;
}

uint64_t prof_strhash(const char *s)
{
	uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001B3ull;
	return h;
}

static int prof_map_rehash(struct prof_map *mp, size_t ncap)
{
	uint64_t *h = calloc(ncap, sizeof(*h));
	uint32_t *v = malloc(ncap * sizeof(*v));

	if (!h || !v) {
		free(h);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < ncap; i++)
		v[i] = PROF_MAP_EMPTY;
	for (size_t i = 0; i < mp->cap; i++) {
		size_t j;

		if (mp->val[i] == PROF_MAP_EMPTY)
			continue;
		for (j = mp->hash[i] & (ncap - 1); v[j] != PROF_MAP_EMPTY; j = (j + 1) & (ncap - 1))
			;
		h[j] = mp->hash[i];
		v[j] = mp->val[i];
	}
	free(mp->hash);
	free(mp->val);
	mp->hash = h;
	mp->val = v;
	mp->cap = ncap;
	return 0;
}

uint32_t prof_map_find(const struct prof_map *mp, uint64_t h, prof_eq_fn eq,
		       const void *ctx, const void *key)
{
	if (!mp->cap)
		return PROF_MAP_EMPTY;
	for (size_t j = h & (mp->cap - 1); mp->val[j] != PROF_MAP_EMPTY; j = (j + 1) & (mp->cap - 1))
		if (mp->hash[j] == h && eq(ctx, mp->val[j], key))
			return mp->val[j];
	return PROF_MAP_EMPTY;
}

int prof_map_add(struct prof_map *mp, uint64_t h, uint32_t val)
{
	size_t j;

	/* at most half full keeps the probe sequences short */
	if ((mp->used + 1) * 2 > mp->cap && prof_map_rehash(mp, mp->cap ? mp->cap * 2 : 64) < 0)
		return -1;
	for (j = h & (mp->cap - 1); mp->val[j] != PROF_MAP_EMPTY; j = (j + 1) & (mp->cap - 1))
		;
	mp->hash[j] = h;
	mp->val[j] = val;
	mp->used++;
	return 0;
}

void prof_map_free(struct prof_map *mp)
{
	free(mp->hash);
	free(mp->val);
}
