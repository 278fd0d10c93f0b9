/*
 * namepool.c -- bounded string interning: an open-addressing hash table of
 * ids over strings stored in fixed-size blocks, so that a string's address
 * never moves once added.
 */
#include "namepool.h"

#include <stdlib.h>
#include <string.h>

#define NAMEPOOL_BLOCK 65536u
#define NAMEPOOL_RECENT 64u     /* addresses remembered by namepool_intern_str */

struct namepool_entry {
	const char *s;
	size_t n;
	uint32_t hash;
};

struct namepool_block {
	struct namepool_block *next;
	size_t used, size;
	char data[];
};

struct namepool {
	uint32_t max_entries;
	size_t max_bytes, bytes;
	struct namepool_entry *ent; /* ent[id - 1] */
	uint32_t count, ent_cap;
	uint32_t *slot;             /* hash table of ids, 0 = empty */
	uint32_t slot_mask;
	struct namepool_block *blocks;
	/* by a hash of the address: the id of the string last interned from
	 * there (the string there may have changed since: compared) */
	struct namepool_recent {
		const char *at;
		uint32_t id;
	} recent[NAMEPOOL_RECENT];
};

static uint32_t namepool_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

struct namepool *namepool_new(uint32_t max_entries, size_t max_bytes)
{
	struct namepool *np = calloc(1, sizeof(*np));

	if (!np)
		return NULL;
	np->max_entries = max_entries;
	np->max_bytes = max_bytes;
	np->slot_mask = 255;
	np->slot = calloc(np->slot_mask + 1, sizeof(*np->slot));
	if (!np->slot) {
		free(np);
		return NULL;
	}
	return np;
}

void namepool_free(struct namepool *np)
{
	if (!np)
		return;
	for (struct namepool_block *b = np->blocks, *nx; b; b = nx) {
		nx = b->next;
		free(b);
	}
	free(np->ent);
	free(np->slot);
	free(np);
}

/* Keep the table at most half full. */
static int namepool_grow(struct namepool *np)
{
	uint32_t mask = np->slot_mask * 2 + 1;
	uint32_t *slot = calloc((size_t)mask + 1, sizeof(*slot));

	if (!slot)
		return -1;
	for (uint32_t id = 1; id <= np->count; id++) {
		uint32_t i = np->ent[id - 1].hash & mask;

		while (slot[i])
			i = (i + 1) & mask;
		slot[i] = id;
	}
	free(np->slot);
	np->slot = slot;
	np->slot_mask = mask;
	return 0;
}

static char *namepool_store(struct namepool *np, const char *s, size_t n)
{
	struct namepool_block *b = np->blocks;
	char *p;

	if (!b || b->size - b->used < n + 1) {
		size_t size = n + 1 > NAMEPOOL_BLOCK ? n + 1 : NAMEPOOL_BLOCK;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->used = 0;
		b->size = size;
		b->next = np->blocks;
		np->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

uint32_t namepool_intern(struct namepool *np, const char *s, size_t n, int *added)
{
	uint32_t h = namepool_hash(s, n);
	uint32_t i = h & np->slot_mask;
	struct namepool_entry *e;

	*added = 0;
	for (; np->slot[i]; i = (i + 1) & np->slot_mask) {
		e = &np->ent[np->slot[i] - 1];
		if (e->hash == h && e->n == n && memcmp(e->s, s, n) == 0)
			return np->slot[i];
	}
	if (np->count >= np->max_entries || np->bytes + n + 1 > np->max_bytes)
		return 0;
	if (np->count == np->ent_cap) {
		uint32_t cap = np->ent_cap ? np->ent_cap * 2 : 64;
		void *ne = realloc(np->ent, (size_t)cap * sizeof(*np->ent));

		if (!ne)
			return 0;
		np->ent = ne;
		np->ent_cap = cap;
	}
	if ((np->count + 1) * 2 > np->slot_mask + 1) {
		if (namepool_grow(np) < 0)
			return 0;
		for (i = h & np->slot_mask; np->slot[i]; i = (i + 1) & np->slot_mask)
			;
	}
	e = &np->ent[np->count];
	e->s = namepool_store(np, s, n);
	if (!e->s)
		return 0;
	e->n = n;
	e->hash = h;
	np->bytes += n + 1;
	np->slot[i] = ++np->count;
	*added = 1;
	return np->count;
}

uint32_t namepool_intern_str(struct namepool *np, const char *s, int *added)
{
	struct namepool_recent *r = &np->recent[((uintptr_t)s >> 3) % NAMEPOOL_RECENT];

	if (r->at == s && r->id && strcmp(np->ent[r->id - 1].s, s) == 0) {
		*added = 0;
		return r->id;
	}
	uint32_t id = namepool_intern(np, s, strlen(s), added);
	if (id) {
		r->at = s;
		r->id = id;
	}
	return id;
}

const char *namepool_str(const struct namepool *np, uint32_t id)
{
	return np->ent[id - 1].s;
}

uint32_t namepool_count(const struct namepool *np)
{
	return np->count;
}
