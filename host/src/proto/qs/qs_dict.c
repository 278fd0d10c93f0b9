/*
 * qs_dict.c -- bounded hash maps behind the QS dictionaries (qs_dict.h).
 * Open addressing with linear probing, kept at most half full; entries are
 * never removed one by one, only all at once.
 */
#include "qs_dict.h"

#include <stdlib.h>
#include <string.h>

static void map_init(struct qs_map *m, size_t max)
{
	m->ent = NULL;
	m->cap = 0;
	m->shift = 64;
	m->n = 0;
	m->n_k2 = 0;
	m->max = max;
}

void qs_dicts_init(struct qs_dicts *d)
{
	map_init(&d->obj, 2048);
	map_init(&d->fun, 8192);
	map_init(&d->sig, 8192);
	map_init(&d->usr, 256);
	map_init(&d->enm, 8 * 256);
}

static void map_clear(struct qs_map *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		free(m->ent[i].name);
		m->ent[i].name = NULL;
	}
	m->n = 0;
	m->n_k2 = 0;
}

static void map_free(struct qs_map *m)
{
	map_clear(m);
	free(m->ent);
	m->ent = NULL;
	m->cap = 0;
	m->shift = 64;
}

void qs_dicts_clear(struct qs_dicts *d)
{
	map_clear(&d->obj);
	map_clear(&d->fun);
	map_clear(&d->sig);
	map_clear(&d->usr);
	map_clear(&d->enm);
}

void qs_dicts_free(struct qs_dicts *d)
{
	map_free(&d->obj);
	map_free(&d->fun);
	map_free(&d->sig);
	map_free(&d->usr);
	map_free(&d->enm);
}

static int grow(struct qs_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct qs_map_ent *ent = calloc(cap, sizeof(*ent));
	if (!ent)
		return -1;
	struct qs_map old = *m;
	m->ent = ent;
	m->cap = cap;
	m->shift = 64 - (unsigned)__builtin_ctzll(cap);
	for (size_t i = 0; i < old.cap; i++)
		if (old.ent[i].name)
			*qs_map_slot(m, old.ent[i].k1, old.ent[i].k2) = old.ent[i];
	free(old.ent);
	return 0;
}

int qs_map_put(struct qs_map *m, uint64_t k1, uint64_t k2, const char *name, size_t len)
{
	if (len > QS_NAME_MAX)
		len = QS_NAME_MAX;
	size_t size = (len + QS_NAME_PAD) & ~(size_t)(QS_NAME_PAD - 1); /* > len, whole blocks */
	char *copy = malloc(size);
	if (!copy)
		return -1;
	memcpy(copy, name, len);
	memset(copy + len, 0, size - len);
	if (m->cap && qs_map_get(m, k1, k2)) { /* re-sending a key overwrites it */
		struct qs_map_ent *e = qs_map_slot(m, k1, k2);
		free(e->name);
		e->name = copy;
		e->len = len;
		return 0;
	}
	if (m->n >= m->max || ((m->n + 1) * 2 > m->cap && grow(m) != 0)) {
		free(copy);
		return -1;
	}
	struct qs_map_ent *e = qs_map_slot(m, k1, k2);
	e->k1 = k1;
	e->k2 = k2;
	e->name = copy;
	e->len = len;
	m->n++;
	m->n_k2 += k2 != 0;
	return 0;
}
