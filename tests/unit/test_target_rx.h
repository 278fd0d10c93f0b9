/*
 * test_target_rx.h -- shared by the receive channel tests
 * (test_target_rx_*.c): sending command frames (built with the host's
 * hdlc_encode) to the target's parser whole, byte by byte or in uneven
 * chunks; draining and checking the replies with the target tests' own
 * frame parser (tgt_frames.h); and snapshots of the whole library state, to
 * show that a refused command changed nothing but the trace.  Header-only,
 * like test_sonde_helpers.h, so that each test stays one file.
 */
#ifndef TEST_TARGET_RX_H
#define TEST_TARGET_RX_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "sonde.h"
#include "tgt_frames.h"
#include "../../target/src/sonde_internal.h" /* sonde_g, for the snapshots */

/* The fake clock stands still here: every timed record carries delta 0,
 * the one-byte timestamp field 00 (docs/protocol.md section 5). */
#define RX_CLOCK 0x00012345u
#define RX_TS    0x00u

/* How a test's command bytes reach the parser. */
enum rx_how { RX_WHOLE, RX_BYTES, RX_CHUNKS };

static const enum rx_how rx_how_whole = RX_WHOLE, rx_how_bytes = RX_BYTES, rx_how_chunks = RX_CHUNKS;

/* cmocka state -> feeding mode (tests registered with cmocka_unit_test_prestate). */
static inline enum rx_how rx_how_of(void **state)
{
	return *(const enum rx_how *)*state;
}

static inline void rx_feed_how(enum rx_how how, const uint8_t *w, size_t n)
{
	static uint32_t lcg = 1;
	size_t i = 0;

	switch (how) {
	case RX_WHOLE:
		sonde_rx_feed(w, n);
		break;
	case RX_BYTES:
		for (i = 0; i < n; i++)
			sonde_rx_byte(w[i]);
		break;
	case RX_CHUNKS: /* 0..6 bytes at a time, zero-length calls included */
		while (i < n) {
			size_t k;

			lcg = lcg * 1103515245u + 12345u;
			k = (lcg >> 16) % 7u;
			if (k > n - i)
				k = n - i;
			sonde_rx_feed(w + i, k);
			i += k;
		}
		break;
	}
}

/* Encode one command and feed it; returns its wire size. */
static inline size_t rx_send(enum rx_how how, uint8_t seq, uint8_t cmd, const uint8_t *d, size_t n)
{
	uint8_t w[2 * (300 + 3) + 1];

	assert_true(n <= 300);
	n = hdlc_encode(seq, cmd, d, n, w);
	rx_feed_how(how, w, n);
	return n;
}

/* Drain everything; every frame must be whole and good. */
static inline void rx_drain(struct tgt_frames *fr)
{
	static uint8_t wire[65536];

	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), fr);
	assert_int_equal(fr->bad, 0);
	assert_int_equal(fr->partial, 0);
}

/* f is CMD_STATUS answering command cmd with host SEQ seq, status st,
 * written at RX_CLOCK. */
static inline void rx_expect_status(const struct tgt_frame *f, uint8_t seq, uint8_t cmd, uint8_t st)
{
	assert_true(f->ok);
	assert_int_equal(f->id, SONDE_REC_CMD_STATUS);
	assert_int_equal(f->len, 4);
	assert_int_equal(f->data[0], seq);
	assert_int_equal(f->data[1], cmd);
	assert_int_equal(f->data[2], st);
	assert_int_equal(f->data[3], RX_TS);
}

/* Drain; exactly one frame, that CMD_STATUS. */
static inline void rx_expect_only_status(uint8_t seq, uint8_t cmd, uint8_t st)
{
	struct tgt_frames fr;

	rx_drain(&fr);
	assert_int_equal(fr.n, 1);
	rx_expect_status(&fr.f[0], seq, cmd, st);
	tgt_frames_free(&fr);
}

/* ---- snapshots ----------------------------------------------------------- */

struct rx_snap {
	struct sonde_state g;
	struct sonde_filters flt;
	uint8_t ring[4096];
	size_t ring_n;
};

static inline void rx_snap_take(struct rx_snap *s, const uint8_t *ring, size_t n)
{
	assert_true(n <= sizeof s->ring);
	memcpy(&s->g, &sonde_g, sizeof s->g);
	memcpy(&s->flt, &sonde_filters_, sizeof s->flt);
	memcpy(s->ring, ring, n);
	s->ring_n = n;
}

/*
 * The library state now is the snapshot's plus exactly one frame of `len`
 * wire bytes written at the snapshot's write position (the reply): the
 * state struct is byte-identical once the writer's own bookkeeping of that
 * one frame (write position, SEQ, its checksum scratch) is put back, and
 * the ring is byte-identical outside the frame.  Filters, counters, flags,
 * mode, time, read position: all unchanged.  The ring must not have
 * wrapped during the frame (the tests keep it short of the end).
 */
static inline void rx_snap_expect_one_frame(const struct rx_snap *s, const uint8_t *ring, size_t len)
{
	struct sonde_state now;
	size_t at = (size_t)(s->g.wp - s->g.buf);

	memcpy(&now, &sonde_g, sizeof now);
	assert_ptr_equal(now.wp, s->g.wp + len);
	assert_int_equal(now.seq, (uint8_t)(s->g.seq + 1u));
	now.wp = s->g.wp;
	now.seq = s->g.seq;
	now.fsum = s->g.fsum;
	assert_memory_equal(&now, &s->g, sizeof now);
	assert_memory_equal(&sonde_filters_, &s->flt, sizeof s->flt);
	assert_true(at + len <= s->ring_n);
	assert_memory_equal(ring, s->ring, at);
	assert_memory_equal(ring + at + len, s->ring + at + len, s->ring_n - at - len);
}

#endif /* TEST_TARGET_RX_H */
