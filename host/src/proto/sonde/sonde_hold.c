/*
 * sonde_hold.c -- the hold queue: a circular array of items and a byte ring
 * for their payloads, both FIFO, so allocation is a pointer bump that wraps
 * to the start when the end is too short.
 */
#include <stdlib.h>
#include <string.h>

#include "sonde_hold.h"

int shold_init(struct shold *h)
{
	memset(h->items, 0, sizeof(h->items));
	h->first = h->n = h->head = 0;
	h->ring = malloc(SHOLD_RING_BYTES);
	return h->ring ? 0 : -1;
}

void shold_free(struct shold *h)
{
	free(h->ring);
	h->ring = NULL;
	h->n = 0;
}

struct shold_item *shold_push(struct shold *h, size_t len)
{
	if (len == 0)
		len = 1; /* every item owns a byte, so head == tail means full */
	if (h->n == SHOLD_MAX_ITEMS || len > SHOLD_RING_BYTES)
		return NULL;
	size_t pos;
	if (h->n == 0) {
		pos = 0;
	} else {
		size_t tail = h->items[h->first].pos;
		if (h->head > tail) { /* used: [tail, head) */
			if (SHOLD_RING_BYTES - h->head >= len)
				pos = h->head;
			else if (tail >= len)
				pos = 0;
			else
				return NULL;
		} else { /* wrapped: used [tail, end) and [0, head) */
			if (tail - h->head >= len)
				pos = h->head;
			else
				return NULL;
		}
	}
	struct shold_item *it = &h->items[(h->first + h->n) % SHOLD_MAX_ITEMS];
	memset(it, 0, sizeof(*it));
	it->pos = (uint32_t)pos;
	h->head = pos + len;
	h->n++;
	return it;
}

void shold_pop(struct shold *h)
{
	if (!h->n)
		return;
	h->first = (h->first + 1) % SHOLD_MAX_ITEMS;
	h->n--;
	if (!h->n)
		h->first = h->head = 0;
}
