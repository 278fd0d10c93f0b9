/*
 * sonde_dict.c -- dictionary storage for the Sonde decoder (see sonde_dict.h).
 */
#include <stdlib.h>
#include <string.h>

#include "sonde_dict.h"
#include "sonde_proto.h"

void sdict_init(struct sdict *d)
{
	memset(d, 0, sizeof(*d));
	d->gen = 1;
}

void sdict_clear(struct sdict *d)
{
	d->gen++;
	for (size_t i = 0; i < d->cap; i++) {
		free(d->tab[i].name);
		d->tab[i].name = NULL;
	}
	d->n = 0;
	d->bytes = 0;
	memset(d->small, 0, sizeof(d->small));
}

void sdict_free(struct sdict *d)
{
	sdict_clear(d);
	free(d->tab);
	d->tab = NULL;
	d->cap = 0;
}

static size_t slot_of(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static struct sdict_slot *find(const struct sdict *d, uint64_t key)
{
	if (!d->cap)
		return NULL;
	for (size_t i = slot_of(key, d->cap);; i = (i + 1) & (d->cap - 1)) {
		if (!d->tab[i].name || d->tab[i].key == key)
			return &d->tab[i];
	}
}

static int grow(struct sdict *d)
{
	size_t ncap = d->cap ? d->cap * 2 : 256;
	struct sdict_slot *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -1;
	for (size_t i = 0; i < d->cap; i++) {
		if (!d->tab[i].name)
			continue;
		size_t j = slot_of(d->tab[i].key, ncap);
		while (nt[j].name)
			j = (j + 1) & (ncap - 1);
		nt[j] = d->tab[i];
	}
	free(d->tab);
	d->tab = nt;
	d->cap = ncap;
	return 0;
}

int sdict_set(struct sdict *d, unsigned kind, uint32_t id, const char *name, size_t len)
{
	if (kind >= SDICT_KINDS)
		return -1;
	uint64_t key = (uint64_t)kind << 32 | id;
	struct sdict_slot *s = find(d, key);
	int is_new = !s || !s->name;
	if (is_new) {
		if (d->n >= SDICT_MAX_ENTRIES)
			return -1;
		if (2 * (d->n + 1) > d->cap) { /* keep the load at or below 1/2 */
			if (grow(d) != 0)
				return -1;
		}
		s = find(d, key);
	}
	size_t old = is_new ? 0 : strlen(s->name) + 1;
	if (d->bytes - old + len + 1 > SDICT_MAX_BYTES)
		return -1;
	char *copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, name, len);
	copy[len] = '\0';
	if (!is_new)
		free(s->name);
	else
		d->n++;
	d->bytes = d->bytes - old + len + 1;
	d->gen++;
	s->key = key;
	s->name = copy;
	if (id < 256)
		d->small[kind][id] = copy;
	return 0;
}

const char *sdict_get_big(const struct sdict *d, unsigned kind, uint32_t id)
{
	const struct sdict_slot *s = find(d, (uint64_t)kind << 32 | id);
	return s ? s->name : NULL;
}

const char *sdict_kind_name(unsigned kind)
{
	static const char *const names[] = {
		[SONDE_DICT_OBJECT] = "OBJECT",   [SONDE_DICT_TASK] = "TASK",
		[SONDE_DICT_ISR] = "ISR",         [SONDE_DICT_FUNCTION] = "FUNCTION",
		[SONDE_DICT_RECORD] = "RECORD",   [SONDE_DICT_ENUM] = "ENUM",
		[SONDE_DICT_FORMAT] = "FORMAT",   [SONDE_DICT_MARKER] = "MARKER",
		[SONDE_DICT_COUNTER] = "COUNTER", [SONDE_DICT_ENUM_GROUP] = "ENUM_GROUP",
	};
	if (kind >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[kind];
}
