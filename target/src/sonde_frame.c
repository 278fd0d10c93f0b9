/*
 * sonde_frame.c -- the slow-path frame writer: one byte at a time, with
 * escaping (docs/protocol.md section 1), the checksum, and wrapping at the
 * end of the ring.  The caller has checked the worst-case room.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

static void put_raw(uint8_t b)
{
	struct sonde_state *g = &sonde_g;

	*g->wp = b;
	if (++g->wp == g->end)
		g->wp = g->buf;
}

static void put(uint8_t b)
{
	sonde_g.fsum = (uint8_t)(sonde_g.fsum + b);
	if (b == SONDE_FLAG || b == SONDE_ESC) {
		put_raw(SONDE_ESC);
		b ^= SONDE_ESC_XOR;
	}
	put_raw(b);
}

uint8_t sonde_fw_begin(uint8_t id)
{
	uint8_t seq = (uint8_t)(sonde_g.seq + 1u);

	sonde_g.seq = seq;
	if (seq == 0xFFu) {
		sonde_g.frames_hi++; /* frames written = frames_hi * 256 + seq + 1 */
		sonde_g.flags |= SONDE_F_WRAP;
	} else {
		sonde_g.flags &= (uint8_t)~SONDE_F_WRAP;
	}
	if (id < SONDE_REC_ISR_ENTER)
		sonde_g.sys_frames++;
	sonde_g.fsum = 0;
	put(seq);
	put(id);
	return seq;
}

void sonde_fw_bytes(const uint8_t *p, size_t n)
{
	while (n--)
		put(*p++);
}

void sonde_fw_end(void)
{
	put((uint8_t)~sonde_g.fsum);
	put_raw(SONDE_FLAG);
}

#endif /* SONDE_ENABLED */
