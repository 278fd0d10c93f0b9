/*
 * sonde_frame.c -- framing off the fast path: the slow-path frame writer
 * (one byte at a time, with escaping (docs/protocol.md section 1), the
 * checksum, and wrapping at the end of the ring; the caller has checked the
 * worst-case room), and the in-place escaping of frames the fast path
 * wrote.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

static int is_esc(uint8_t b)
{
	return b == SONDE_FLAG || b == SONDE_ESC;
}

/* SEQ 0xFF written: count the 256 frames (frames written = frames_hi * 256
 * + seq + 1) and close the fast path, so that SEQ 0 takes the slow path,
 * which applies rule 4. */
static void seq_wrapped(void)
{
	sonde_g.frames_hi++;
	sonde_g.flags |= SONDE_F_WRAP;
}

/* n bytes into the frame being written, escaped, summed, wrapping at the
 * end of the ring; the write pointer and the sum stay in registers. */
void sonde_fw_bytes(const uint8_t *p, size_t n)
{
	struct sonde_state *g = &sonde_g;
	uint8_t *w = g->wp, *end = g->end;
	uint32_t sum = g->fsum;

	while (n--) {
		uint8_t b = *p++;

		sum += b;
		if (is_esc(b)) {
			*w++ = SONDE_ESC;
			if (w == end)
				w = g->buf;
			b ^= SONDE_ESC_XOR;
		}
		*w++ = b;
		if (w == end)
			w = g->buf;
	}
	g->wp = w;
	g->fsum = (uint8_t)sum;
}

uint8_t sonde_fw_begin(uint8_t id)
{
	uint8_t hdr[2];

	hdr[0] = (uint8_t)(sonde_g.seq + 1u);
	hdr[1] = id;
	sonde_g.seq = hdr[0];
	if (hdr[0] == 0xFFu)
		seq_wrapped();
	else
		sonde_g.flags &= (uint8_t)~SONDE_F_WRAP;
	if (id < SONDE_REC_ISR_ENTER)
		sonde_g.sys_frames++;
	sonde_g.fsum = 0;
	sonde_fw_bytes(hdr, sizeof hdr);
	return hdr[0];
}

void sonde_fw_end(void)
{
	uint8_t chk = (uint8_t)~sonde_g.fsum;

	sonde_fw_bytes(&chk, 1u);
	*sonde_g.wp = SONDE_FLAG;
	if (++sonde_g.wp == sonde_g.end)
		sonde_g.wp = sonde_g.buf;
}

/* Non-zero when a byte of w is 0x7D or 0x7E, exactly. */
static uint32_t has_esc(uint32_t w)
{
	return sonde_has_zero(w ^ 0x7D7D7D7Du) | sonde_has_zero(w ^ 0x7E7E7E7Eu);
}

/*
 * The fast path wrote the frame [wp - len, wp) -- its flag is the last
 * byte -- without escaping, and its pre-test said "maybe": a byte may be
 * 0x7D or 0x7E, or SEQ may be 0xFF.  Most calls are false alarms (0x7F,
 * 0xFD..0xFF), so first look for a byte to escape exactly, a word at a
 * time.  If there is one: the frame lies in one piece and its worst case
 * fits after it, so escaping is a move up within the buffer -- count the
 * bytes to escape, then copy from the end down, escaping, until the
 * distance between source and destination (the escapes still to come)
 * is 0.
 */
void sonde_fix(size_t len)
{
	struct sonde_state *g = &sonde_g;
	uint8_t *p = g->wp - len, *src = g->wp - 1, *dst, *q = p;
	size_t extra = 0;

	if (*p == 0xFFu) {
		seq_wrapped();
		sonde_ring_relimit();
	}
	while (q + 4 <= src && !has_esc(sonde_ld32(q)))
		q += 4;
	for (; q < src; q++)
		extra += is_esc(*q);
	if (extra == 0u)
		return;
	dst = src + extra;
	SONDE_ASSERT(dst < g->end); /* inside the worst case that wlim keeps free */
	*dst = SONDE_FLAG;
	g->wp = dst + 1;
	while (dst > src) {
		uint8_t b = *--src;

		if (is_esc(b)) {
			*--dst = (uint8_t)(b ^ SONDE_ESC_XOR);
			b = SONDE_ESC;
		}
		*--dst = b;
	}
}

#endif /* SONDE_ENABLED */
