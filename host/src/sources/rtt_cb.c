/*
 * rtt_cb.c -- an RTT control block's layout and checks (rtt_cb.h).
 */
#include <stdio.h>
#include <string.h>

#include "rtt_cb.h"

uint32_t rtt_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void rtt_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t rtt_desc_offset(int up, uint32_t i, uint32_t max_up)
{
	return RTT_HDR_SIZE + RTT_DESC_SIZE * (up ? i : max_up + i);
}

int rtt_parse_header(const uint8_t *p, uint32_t *max_up, uint32_t *max_down, char *why, size_t wl)
{
	if (memcmp(p, RTT_ID, sizeof(RTT_ID)) != 0) {
		snprintf(why, wl, "no control block id");
		return -1;
	}
	uint32_t u = rtt_le32(p + 16), d = rtt_le32(p + 20);
	if (u == 0 || u > RTT_MAX_BUFFERS || d > RTT_MAX_BUFFERS) {
		snprintf(why, wl, "%u up and %u down buffers: not a control block", u, d);
		return -1;
	}
	*max_up = u;
	*max_down = d;
	return 0;
}

int rtt_parse_desc(const uint8_t *p, uint32_t addr, struct rtt_desc *d, char *why, size_t wl)
{
	d->addr = addr;
	d->name = rtt_le32(p);
	d->buf = rtt_le32(p + 4);
	d->size = rtt_le32(p + 8);
	d->wr = rtt_le32(p + 12);
	d->rd = rtt_le32(p + 16);
	d->flags = rtt_le32(p + 20);
	if (d->buf == 0 || d->size < 2 || d->size > RTT_MAX_SIZE) {
		snprintf(why, wl, "buffer at 0x%08x of %u bytes: not set up", d->buf, d->size);
		return -1;
	}
	if (d->wr >= d->size || d->rd >= d->size) {
		snprintf(why, wl, "offsets %u (write) and %u (read) outside a buffer of %u bytes", d->wr, d->rd, d->size);
		return -1;
	}
	return 0;
}

uint32_t rtt_used(const struct rtt_desc *d)
{
	return d->wr >= d->rd ? d->wr - d->rd : d->size - d->rd + d->wr;
}

uint32_t rtt_room(const struct rtt_desc *d)
{
	return d->size - 1u - rtt_used(d);
}

size_t rtt_find_id(const uint8_t *p, size_t n)
{
	const size_t k = sizeof(RTT_ID); /* with the NUL */
	for (size_t i = 0; i + k <= n; i++)
		if (p[i] == 'S' && memcmp(p + i, RTT_ID, k) == 0)
			return i;
	return n;
}
