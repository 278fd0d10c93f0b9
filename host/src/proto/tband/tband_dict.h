/*
 * tband_dict.h -- the names (and a little per-object state) the tband decoder
 * learns from metadata events: ISRs, event and value markers, tasks, queues.
 *
 * A fixed-capacity open-addressing table, so memory stays bounded however
 * many distinct ids a (possibly corrupt) stream names: when it is full, new
 * objects are simply not remembered and the caller reports it once.
 */
#ifndef TBAND_DICT_H
#define TBAND_DICT_H

#include <stddef.h>
#include <stdint.h>

enum tband_dkind {
	TBAND_D_ISR,
	TBAND_D_MARKER,    /* event markers (global and task-local) */
	TBAND_D_VALMARKER, /* value markers (global and task-local) */
	TBAND_D_TASK,
	TBAND_D_QUEUE
};

/* Longest name kept, in bytes; longer ones are cut at a UTF-8 boundary. */
#define TBAND_NAME_MAX 255

struct tband_dent {
	uint64_t id;
	uint8_t kind;      /* enum tband_dkind */
	uint8_t used;
	int16_t qkind;     /* queues: FrQueueKind, -1 while unknown */
	char *name;        /* NUL-terminated, NULL while unknown */
};

/* Ids below this are found without hashing: streams number their tasks,
 * queues, ISRs and markers from 0, and every event looks one or two up. */
#define TBAND_DICT_DIRECT 256
#define TBAND_DICT_KINDS 5

struct tband_dict {
	struct tband_dent *tab;
	size_t cap;        /* a power of two */
	size_t used;
	uint64_t gen;      /* counts the changes of names, from 1 */
	/* the entry of (kind, id) for id < TBAND_DICT_DIRECT, NULL while
	 * there is none (entries never move or go) */
	struct tband_dent *direct[TBAND_DICT_KINDS][TBAND_DICT_DIRECT];
};

/* cap_log2: the table has 2^cap_log2 slots, at most 3/4 of them used.
 * Returns 0, or -1 when out of memory. */
int tband_dict_init(struct tband_dict *d, unsigned cap_log2);
void tband_dict_free(struct tband_dict *d);

/* The entry for (kind, id); with 'create' a new one if it does not exist.
 * NULL if it does not exist, or when creating and the table is full. */
struct tband_dent *tband_dict_get(struct tband_dict *d, enum tband_dkind kind,
				  uint64_t id, int create);

/* Set the entry's name to s[0..n) (valid UTF-8); a name that differs from
 * the one before counts in d->gen.  Returns 1 if the name changed from a
 * different earlier one, 0 otherwise, -1 out of memory. */
int tband_dict_set_name(struct tband_dict *d, struct tband_dent *e, const char *s, size_t n);

/* The entry of (kind, id), or NULL: tband_dict_get without creating,
 * inline for the ids of the direct table. */
static inline struct tband_dent *tband_dict_find(struct tband_dict *d, enum tband_dkind kind,
						 uint64_t id)
{
	return id < TBAND_DICT_DIRECT ? d->direct[kind][id] : tband_dict_get(d, kind, id, 0);
}

/* The name of (kind, id), or NULL. */
static inline const char *tband_dict_name(struct tband_dict *d, enum tband_dkind kind, uint64_t id)
{
	struct tband_dent *e = tband_dict_find(d, kind, id);

	return e ? e->name : NULL;
}

#endif /* TBAND_DICT_H */
