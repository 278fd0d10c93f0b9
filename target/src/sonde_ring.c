/*
 * sonde_ring.c -- the ring buffer: geometry, the fast-path limit, making
 * room by overwriting whole frames, and the drain.
 *
 * The buffer holds whole frames, except that the drain may have read the
 * first part of the oldest one.  Overwriting discards the oldest *whole*
 * frames; the rest of a partly drained frame is moved up next to the
 * surviving frames, so the transport never sends a torn frame.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

struct sonde_state sonde_g;

void sonde_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
	while (n--)
		*dst++ = *src++;
}

/* The fast path writes a frame at wp only if wp <= wlim: then its worst
 * case (at most SONDE_FAST_WORST bytes) ends at or before rp - 1 (one byte
 * stays free, so full never looks empty) and at or before end - 1 (so the
 * fast path never has to wrap wp).  0 closes it: something rare is pending,
 * or too little room is left. */
void sonde_ring_relimit(void)
{
	struct sonde_state *g = &sonde_g;
	uintptr_t hard;

	if (g->flags != 0 || g->buf == NULL) {
		g->wlim = 0;
		return;
	}
	SONDE_ASSERT(g->rp >= g->buf && g->rp < g->end && g->wp >= g->buf && g->wp < g->end);
	hard = (uintptr_t)(g->rp > g->wp ? g->rp : g->end) - 1u;
	g->wlim = hard - (uintptr_t)g->wp >= SONDE_FAST_WORST ? hard - SONDE_FAST_WORST : 0u;
}

/* Offset o (< 2 * size) folded into the ring. */
static size_t fold(size_t o)
{
	return o >= sonde_g.size ? o - sonde_g.size : o;
}

/* The first flag in [p, e), or e: four bytes at a time, then the rest. */
static const uint8_t *find_flag(const uint8_t *p, const uint8_t *e)
{
	while (e - p >= 4 && !sonde_has_zero(sonde_ld32(p) ^ 0x7E7E7E7Eu))
		p += 4;
	while (p < e && *p != SONDE_FLAG)
		p++;
	return p;
}

/* Length of the (whole) frame starting at offset o, flag included. */
static size_t frame_len(size_t o)
{
	const struct sonde_state *g = &sonde_g;
	const uint8_t *s = g->buf + o, *f = find_flag(s, g->end);

	if (f != g->end)
		return (size_t)(f - s) + 1u;
	return (size_t)(g->end - s) + (size_t)(find_flag(g->buf, g->end) - g->buf) + 1u;
}

int sonde_ring_make_room(size_t need)
{
	struct sonde_state *g = &sonde_g;
	size_t rp = (size_t)(g->rp - g->buf);
	size_t keep = g->mid ? frame_len(rp) : 0u; /* rest of a partly drained frame */
	size_t free_ = sonde_ring_free();
	size_t q = fold(rp + keep);                  /* oldest whole frame */
	size_t i;

	if (need > g->size - 1u - keep)
		return 0;
	while (free_ < need) {
		size_t len = frame_len(q);

		q = fold(q + len);
		free_ += len;
		g->overwritten++;
		g->removed++;
		g->bytes_lost += (uint32_t)len;
	}
	/* Move the kept bytes up to end just before the oldest surviving frame;
	 * from the last byte down, since the regions may overlap. */
	q = fold(q + g->size - keep);
	for (i = keep; i-- > 0;)
		g->buf[fold(q + i)] = g->buf[fold(rp + i)];
	g->rp = g->buf + q;
	g->flags |= SONDE_F_DROPS;
	SONDE_ASSERT(sonde_ring_free() >= need);
	return 1;
}

/* Snapshot and post-mortem buffers are read out only once they stop
 * recording -- frozen, or stopped (docs/protocol.md section 9.1): while
 * they record, the drain returns nothing.  (A post-mortem buffer read
 * while it overwrites would send the transport a stream with a hole
 * wherever the writer overtook it; a snapshot is one capture, read out
 * whole.) */
static int holding(void)
{
	return (sonde_g.mode == SONDE_MODE_SNAPSHOT || sonde_g.mode == SONDE_MODE_POSTMORTEM) &&
	       !(sonde_g.flags & SONDE_F_REFUSE);
}

/* n bytes from the ring to dst; returns the flags among them, the frames
 * that left the ring whole (DROPS's "oldest" counts them). */
static uint32_t drain_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
	uint32_t flags = 0;

	while (n--) {
		uint8_t b = *src++;

		flags += b == SONDE_FLAG;
		*dst++ = b;
	}
	return flags;
}

/* One chunk: at most max bytes, contiguous, inside one critical section.
 * When the ring is empty, a loss report may be due here (docs/protocol.md
 * section 4, DROPS): the pending one of a refusing buffer read out
 * completely, or the one that closes an open report -- frames queued
 * before the last report have all left the ring now, so a report written
 * here covers every frame before it. */
static size_t drain_chunk(uint8_t *dst, size_t max)
{
	struct sonde_state *g = &sonde_g;
	size_t n = 0;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	if (g->buf != NULL && !holding()) {
		if (g->rp == g->wp &&
		    (((g->flags & SONDE_F_DROPS) && (g->flags & SONDE_F_REFUSE)) || g->open) &&
		    sonde_ring_free() >= SONDE_REPORT_WORST)
			sonde_report(SONDE_PORT_TS());
		n = (size_t)((g->wp >= g->rp ? g->wp : g->end) - g->rp);
		if (n > max)
			n = max;
		SONDE_ASSERT(n <= sonde_ring_used() && g->rp + n <= g->end);
		if (n > 0) {
			g->removed += drain_copy(dst, g->rp, n);
			g->rp += n;
			if (g->rp == g->end)
				g->rp = g->buf;
			g->mid = dst[n - 1u] != SONDE_FLAG;
			g->bytes_out += (uint32_t)n;
		}
		sonde_ring_relimit();
	}
	SONDE_PORT_CRIT_EXIT();
	return n;
}

size_t sonde_drain(uint8_t *dst, size_t max)
{
	size_t done = 0;

	while (done < max) {
		size_t want = max - done;
		size_t n = drain_chunk(dst + done, want < SONDE_DRAIN_CHUNK ? want : SONDE_DRAIN_CHUNK);

		if (n == 0)
			break;
		done += n;
	}
	return done;
}

int sonde_drain_byte(void)
{
	uint8_t b = 0; /* written by drain_chunk when it returns 1; gcc -O3 cannot tell */

	return drain_chunk(&b, 1u) ? (int)b : -1;
}

size_t sonde_pending(void)
{
	size_t n = 0;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	if (sonde_g.buf != NULL && !holding())
		n = sonde_ring_used();
	SONDE_PORT_CRIT_EXIT();
	return n;
}

#endif /* SONDE_ENABLED */
