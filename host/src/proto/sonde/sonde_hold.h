/*
 * sonde_hold.h -- the records the Sonde decoder holds back after a loss
 * until a TIME_SYNC lets it compute their times backwards (protocol §5).
 *
 * Held items are raw frames (un-escaped bytes plus the positions of their
 * escapes, so that diagnostics keep exact input offsets) and diagnostics,
 * in stream order: releasing them replays the stream as if it had never
 * been held, with the times filled in.  Both the number of items and their
 * bytes are capped; the decoder releases the oldest early (with estimated
 * times) when a cap is reached.
 */
#ifndef SONDE_HOLD_H
#define SONDE_HOLD_H

#include <stddef.h>
#include <stdint.h>

#define SHOLD_MAX_ITEMS 1024
#define SHOLD_RING_BYTES (1024u * 1024u)

/* SHOLD_REJOIN: the input continued after a break (a reconnected link),
 * in stream order with the rest. */
enum shold_type { SHOLD_FRAME, SHOLD_DIAG, SHOLD_REJOIN };

struct shold_item {
	uint8_t type;        /* enum shold_type */
	uint8_t timed;       /* a frame with a timestamp field */
	uint8_t after_break; /* a loss lies between the previous item and this one */
	uint8_t link;        /* SHOLD_DIAG of a sequence gap: lost on the link (at a rejoin) */
	uint32_t tv;         /* the timestamp field's value (sonde_ts.h) */
	int code;            /* SHOLD_DIAG: enum sonde_diag_code */
	uint32_t pos;        /* payload in the ring */
	uint32_t len;        /* frame bytes, or message bytes */
	uint32_t nesc;       /* SHOLD_FRAME: uint16_t escape positions after the bytes */
	uint64_t offset;
	uint64_t frame;
	uint64_t idx;        /* host index: a frame's slot, a gap's first frame */
	uint64_t count;      /* SHOLD_DIAG */
	uint64_t t;          /* time assigned on release */
	uint32_t tflags;
};

struct shold {
	struct shold_item items[SHOLD_MAX_ITEMS];
	size_t first, n;     /* circular */
	uint8_t *ring;
	size_t head;         /* next free byte */
};

int shold_init(struct shold *h); /* -1: out of memory */
void shold_free(struct shold *h);

static inline size_t shold_count(const struct shold *h) { return h->n; }

/* The i-th oldest item (i < count). */
static inline struct shold_item *shold_at(struct shold *h, size_t i)
{
	return &h->items[(h->first + i) % SHOLD_MAX_ITEMS];
}

/* A new item with len payload bytes (contents to be written at
 * shold_data), or NULL when a cap is reached. */
struct shold_item *shold_push(struct shold *h, size_t len);
static inline uint8_t *shold_data(struct shold *h, const struct shold_item *it)
{
	return h->ring + it->pos;
}
void shold_pop(struct shold *h); /* drop the oldest */

#endif /* SONDE_HOLD_H */
