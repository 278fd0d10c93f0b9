/*
 * test_target_rtt.c -- the debug-probe transport (sonde_rtt.h), with this
 * test as the probe: it reads and writes the control block the way a probe
 * does, through the offsets only.
 *
 * The control block's layout, field by field; the trace through the up buffer equal to the trace
 * drained directly, whatever the probe's reading pattern and across the
 * buffer's end; a full buffer writing nothing (the rest waits in Sonde's
 * ring, whose overwrite accounting counts what a slow probe cost); a probe
 * offset out of range never used; commands through the down buffer run and
 * answer in the trace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "sonde.h"
#include "sonde_rtt.h"
#include "tgt_frames.h"

static uint8_t ring[4096];

/* The probe: read what the up buffer holds (at most max bytes), advance
 * its read offset. */
static size_t probe_read(uint8_t *dst, size_t max)
{
	struct sonde_rtt_buf *b = &sonde_rtt_cb.up;
	uint32_t rd = b->rd, wr = b->wr;
	size_t n = 0;

	while (n < max && rd != wr) {
		dst[n++] = b->buf[rd];
		rd = (rd + 1u) % b->size;
	}
	b->rd = rd;
	return n;
}

/* The probe writes what fits of src into the down buffer; returns that. */
static size_t probe_write(const uint8_t *src, size_t n)
{
	struct sonde_rtt_buf *b = &sonde_rtt_cb.down;
	uint32_t wr = b->wr, rd = b->rd;
	size_t k = 0;

	while (k < n && (wr + 1u) % b->size != rd) {
		b->buf[wr] = src[k++];
		wr = (wr + 1u) % b->size;
	}
	b->wr = wr;
	return k;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* The layout a probe expects (docs: SEGGER RTT control block): id at 0,
 * counts at 16 and 20, then 6-word descriptors -- with this CPU's pointer
 * size for the name and buffer fields. */
static void test_layout(void **state)
{
	const uint8_t *cb = (const uint8_t *)&sonde_rtt_cb;
	const size_t P = sizeof(void *), D = 2 * P + 16;
	char want_id[16] = "SEGGER RTT";

	(void)state;
	memset(&sonde_rtt_cb, 0x55, sizeof sonde_rtt_cb);
	sonde_rtt_init();
	assert_memory_equal(cb, want_id, 16);
	assert_int_equal(rd32(cb + 16), 1);
	assert_int_equal(rd32(cb + 20), 1);
	assert_int_equal(sizeof(struct sonde_rtt_buf), D);
	assert_int_equal(sizeof sonde_rtt_cb, 24 + 2 * D);
	for (int i = 0; i < 2; i++) {
		const uint8_t *d = cb + 24 + (size_t)i * D;
		const char *name;
		uint8_t *buf;

		memcpy(&name, d, sizeof name);
		memcpy(&buf, d + P, sizeof buf);
		assert_string_equal(name, "Sonde");
		assert_non_null(buf);
		assert_int_equal(rd32(d + 2 * P), i == 0 ? SONDE_RTT_UP_SIZE : SONDE_RTT_DOWN_SIZE);
		assert_int_equal(rd32(d + 2 * P + 4), 0); /* write offset */
		assert_int_equal(rd32(d + 2 * P + 8), 0); /* read offset */
		assert_int_equal(rd32(d + 2 * P + 12), 0); /* flags: no blocking */
	}
}

/* Drain through the up buffer with a probe reading in steps of 1..150
 * bytes, the buffer wrapping many times: the bytes equal sonde_drain's. */
static void test_stream(void **state)
{
	static uint8_t ref[1 << 16], got[1 << 16];
	size_t nref = 0;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = 0;
		unsigned step = 1;

		tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, 0x1000);
		sonde_rtt_init();
		for (int k = 0; k < 3000; k++) {
			sonde_user_u32x2(0x41, (uint32_t)k, 0x7E7D7E7Du);
			if (k % 3 == 0) {
				if (pass == 0) {
					n += sonde_drain(ref + n, 64);
				} else {
					sonde_rtt_drain();
					assert_true(sonde_rtt_unread() < SONDE_RTT_UP_SIZE);
					n += probe_read(got + n, step);
					step = step % 150u + 1u;
				}
			}
		}
		if (pass == 0) {
			n += tgt_drain_all(ref + n, sizeof ref - n);
			nref = n;
		} else {
			while (sonde_pending() > 0 || sonde_rtt_unread() > 0) {
				sonde_rtt_drain();
				n += probe_read(got + n, 61);
			}
			assert_int_equal(n, nref);
			assert_memory_equal(got, ref, n);
		}
		sonde_stats_t st;
		sonde_get_stats(&st);
		assert_int_equal(st.refused, 0);
		assert_int_equal(st.overwritten, 0);
	}
}

/* A probe that does not read: the up buffer takes size - 1 bytes, then
 * nothing; Sonde's ring overwrites and counts; once the probe reads, the
 * trace goes on and the host sees the loss as DROPS. */
static void test_full(void **state)
{
	static uint8_t got[1 << 16];
	size_t n = 0;
	sonde_stats_t st0, st;

	(void)state;
	tgt_setup(ring, 512, SONDE_MODE_OVERWRITE, 0x1000);
	sonde_rtt_init();
	sonde_get_stats(&st0);
	for (int k = 0; k < 400; k++) {
		sonde_user_u32x2(0x42, (uint32_t)k, 1u);
		sonde_rtt_drain();
	}
	assert_int_equal(sonde_rtt_unread(), SONDE_RTT_UP_SIZE - 1u);
	assert_int_equal(sonde_rtt_drain(), 0);
	sonde_get_stats(&st);
	assert_true(st.overwritten > 0);
	while (sonde_pending() > 0 || sonde_rtt_unread() > 0) {
		sonde_rtt_drain();
		n += probe_read(got + n, 100);
	}
	sonde_user_u32x2(0x42, 400u, 1u); /* the next record carries the loss report */
	while (sonde_pending() > 0 || sonde_rtt_unread() > 0) {
		sonde_rtt_drain();
		n += probe_read(got + n, 100);
	}
	sonde_get_stats(&st);
	struct tgt_frames fr;
	tgt_parse(got, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	/* every frame written arrived or was counted overwritten */
	assert_int_equal(fr.n + st.overwritten, st.records - st0.records);
	size_t drops = 0, recs = 0;
	for (size_t i = 0; i < fr.n; i++) {
		drops += fr.f[i].id == SONDE_REC_DROPS;
		recs += fr.f[i].id == 0x42;
	}
	assert_true(drops >= 1);
	assert_true(recs < 401);
	tgt_frames_free(&fr);
}

/* The probe's read offset out of range: nothing is written, and nothing
 * read outside the buffer; a valid offset again and the drain goes on. */
static void test_bad_probe_offset(void **state)
{
	uint8_t junk[64];

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, 0x1000);
	sonde_rtt_init();
	sonde_user_u32x2(0x43, 1u, 2u);
	sonde_rtt_cb.up.rd = SONDE_RTT_UP_SIZE + 5u;
	assert_int_equal(sonde_rtt_drain(), 0);
	assert_int_equal(sonde_rtt_unread(), 0);
	assert_int_equal(sonde_rtt_cb.up.wr, 0);
	sonde_rtt_cb.up.rd = 0;
	assert_true(sonde_rtt_drain() > 0);
	/* the down buffer's write offset out of range: nothing read */
	sonde_rtt_cb.down.wr = 0xFFFFFFFFu;
	assert_int_equal(sonde_rtt_read(junk, sizeof junk), 0);
	assert_int_equal(sonde_rtt_cb.down.rd, 0);
	sonde_rtt_cb.down.wr = 0;
}

/* Commands through the down buffer, written in pieces as room frees up and
 * wrapping around its end: each runs once and its CMD_STATUS is in the
 * trace. */
static void test_commands(void **state)
{
	static uint8_t got[1 << 14];
	uint8_t w[64];
	size_t n = 0;
	int replies = 0;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, 0x1000);
	sonde_rtt_init();
	for (int k = 0; k < 20; k++) {
		size_t len = hdlc_encode((uint8_t)k, SONDE_CMD_STATS, NULL, 0, w), sent = 0;
		while (sent < len) {
			sent += probe_write(w + sent, len - sent);
			sonde_rtt_rx();
		}
	}
	while (sonde_pending() > 0 || sonde_rtt_unread() > 0) {
		sonde_rtt_drain();
		n += probe_read(got + n, sizeof got - n);
	}
	struct tgt_frames fr;
	tgt_parse(got, n, &fr);
	for (size_t i = 0; i < fr.n; i++)
		if (fr.f[i].id == SONDE_REC_CMD_STATUS) {
			assert_int_equal(fr.f[i].data[0], (uint8_t)replies);
			assert_int_equal(fr.f[i].data[1], SONDE_CMD_STATS);
			assert_int_equal(fr.f[i].data[2], SONDE_ST_OK);
			replies++;
		}
	assert_int_equal(replies, 20);
	tgt_frames_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_bad_probe_offset),
		cmocka_unit_test(test_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
