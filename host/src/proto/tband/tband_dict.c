/*
 * tband_dict.c -- bounded name table of the tband decoder (tband_dict.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tband_dict.h"

int tband_dict_init(struct tband_dict *d, unsigned cap_log2)
{
	d->cap = (size_t)1 << cap_log2;
	d->used = 0;
	d->gen = 1;
	memset(d->direct, 0, sizeof(d->direct));
	d->tab = calloc(d->cap, sizeof(*d->tab));
	return d->tab ? 0 : -1;
}

void tband_dict_free(struct tband_dict *d)
{
	for (size_t i = 0; d->tab && i < d->cap; i++)
		free(d->tab[i].name);
	free(d->tab);
	d->tab = NULL;
	d->cap = d->used = 0;
	memset(d->direct, 0, sizeof(d->direct));
}

static size_t tband_dict_hash(enum tband_dkind kind, uint64_t id)
{
	uint64_t h = (id ^ ((uint64_t)kind << 56)) * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 32);
}

struct tband_dent *tband_dict_get(struct tband_dict *d, enum tband_dkind kind,
				  uint64_t id, int create)
{
	size_t mask = d->cap - 1;
	size_t i = tband_dict_hash(kind, id) & mask;

	if (id < TBAND_DICT_DIRECT && (d->direct[kind][id] || !create))
		return d->direct[kind][id];
	for (;;) {
		struct tband_dent *e = &d->tab[i];

		if (!e->used)
			break;
		if (e->kind == kind && e->id == id)
			return e;
		i = (i + 1) & mask;
	}
	/* Not there; the load limit guarantees the loop above found a hole. */
	if (!create || d->used >= d->cap / 4 * 3)
		return NULL;
	d->used++;
	d->tab[i].used = 1;
	d->tab[i].kind = (uint8_t)kind;
	d->tab[i].id = id;
	d->tab[i].qkind = -1;
	d->tab[i].name = NULL;
	if (id < TBAND_DICT_DIRECT)
		d->direct[kind][id] = &d->tab[i];
	return &d->tab[i];
}

int tband_dict_set_name(struct tband_dict *d, struct tband_dent *e, const char *s, size_t n)
{
	int changed;
	char *p;

	if (n > TBAND_NAME_MAX) {
		n = TBAND_NAME_MAX;
		/* do not cut a UTF-8 sequence: back up over continuation
		 * bytes to the start of the sequence that would be cut */
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	if (e->name && strlen(e->name) == n && memcmp(e->name, s, n) == 0)
		return 0;
	changed = e->name != NULL;
	p = realloc(e->name, n + 1);
	if (!p)
		return -1;
	memcpy(p, s, n);
	p[n] = 0;
	e->name = p;
	d->gen++;
	return changed;
}
