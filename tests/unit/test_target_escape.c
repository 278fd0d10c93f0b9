/*
 * test_target_escape.c -- transparency (docs/protocol.md section 1): 0x7D
 * and 0x7E in every position of a frame -- SEQ, record id, each timestamp
 * byte, argument bytes, string characters, the checksum -- and the seed's
 * worked example through the library's own frame writer.  Also seeded
 * random runs: every value written comes back, whichever path wrote it.
 * Whole frames are written out by hand here (the other target tests let
 * tgt_frame_wire add CHK and escapes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"
#include "../../target/src/sonde_internal.h"

#define CLOCK 0x12345678u

static uint8_t buf[1024];

static void setup(void)
{
	tgt_setup(buf, sizeof buf, SONDE_MODE_OVERWRITE, CLOCK);
}

#define EXPECT(...)                                              \
	do {                                                     \
		static const uint8_t want_[] = { __VA_ARGS__ };  \
		tgt_expect_wire(want_, sizeof want_);            \
	} while (0)

/* Write marks until the next frame takes SEQ seq. */
static void advance_to(uint8_t seq)
{
	uint8_t junk[1024];

	while ((uint8_t)(sonde_g.seq + 1u) != seq) {
		sonde_mark(1);
		tgt_drain_all(junk, sizeof junk);
	}
}

/* SEQ 7D, 7E; delta 0 (one byte, 00) */
static void test_seq(void **state)
{
	(void)state;
	setup();
	advance_to(0x7D);
	sonde_isr_enter(1);
	EXPECT(0x7D, 0x5D, 0x05, 0x01, 0x00, 0x7C, 0x7E);
	sonde_isr_enter(1);
	EXPECT(0x7D, 0x5E, 0x05, 0x01, 0x00, 0x7B, 0x7E);
}

static void test_record_id(void **state)
{
	(void)state;
	setup();
	sonde_user_u32(0x7D, 1);
	EXPECT(0x03, 0x7D, 0x5D, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x7B, 0x7E);
	setup();
	sonde_user_u32(0x7E, 1);
	EXPECT(0x03, 0x7D, 0x5E, 0x03, 0x01, 0x00, 0x00, 0x00, 0x00, 0x7A, 0x7E);
}

/* Every timestamp byte that can be 7D or 7E: the low bytes of a field (the
 * last byte holds the width tag and never can). */
static void test_timestamp(void **state)
{
	(void)state;
	setup();
	tgt_now += 0x7D;    /* 2 bytes: 7D 80 */
	sonde_isr_enter(1);
	EXPECT(0x03, 0x05, 0x01, 0x7D, 0x5D, 0x80, 0xF9, 0x7E);
	setup();
	tgt_now += 0x3E7E;  /* 2 bytes: 7E BE */
	sonde_isr_enter(1);
	EXPECT(0x03, 0x05, 0x01, 0x7D, 0x5E, 0xBE, 0xBA, 0x7E);
	setup();
	tgt_now += 0x07E7D7Eu; /* 4 bytes: 7E 7D 7E E0 */
	sonde_isr_enter(1);
	EXPECT(0x03, 0x05, 0x01, 0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5E, 0xE0, 0x9D, 0x7E);
}

static void test_arguments(void **state)
{
	(void)state;
	setup();
	sonde_user_u32x2(0x41, 0x7E7D7E7Du, 0x7D7E7D7Eu);
	EXPECT(0x03, 0x41, 0x03, 0x7D, 0x5D, 0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5E, 0x03, 0x7D, 0x5E, 0x7D, 0x5D,
	       0x7D, 0x5E, 0x7D, 0x5D, 0x00, 0xC9, 0x7E);
}

/* CHK = ~(03 + 05 + obj + 00): 7E for obj 0x79, 7D for 0x7A */
static void test_checksum(void **state)
{
	(void)state;
	setup();
	sonde_isr_enter(0x79);
	EXPECT(0x03, 0x05, 0x79, 0x00, 0x7D, 0x5E, 0x7E);
	setup();
	sonde_isr_enter(0x7A);
	EXPECT(0x03, 0x05, 0x7A, 0x00, 0x7D, 0x5D, 0x7E);
}

/* Unlike the reference QS target, string characters are escaped too. */
static void test_strings(void **state)
{
	(void)state;
	setup();
	sonde_dict(SONDE_DICT_OBJECT, 0x7E, "a~}b");
	EXPECT(0x03, 0x04, 0x01, 0x7D, 0x5E, 0x00, 0x00, 0x00, 0x61, 0x7D, 0x5E, 0x7D, 0x5D, 0x62, 0x00, 0xBB,
	       0x7E);
	setup();
	assert_true(sonde_user_begin(0x40));
	sonde_arg_str("~}");
	sonde_user_end();
	EXPECT(0x03, 0x40, 0x0B, 0x7D, 0x5E, 0x7D, 0x5D, 0x00, 0x00, 0xB6, 0x7E);
}

/* docs/protocol.md section 1: SEQ 0x7E, ID 0x7D, DATA 7D 08 01.  No public
 * call makes a record whose whole DATA is 7D 08 01 (timed records end with
 * a timestamp whose last byte is never 01 after 08... and typed arguments
 * have type codes), so this goes through
 * the internal writer, untimed, with the sequence counter set. */
static void test_seed_example(void **state)
{
	static const uint8_t data[] = { 0x7D, 0x08, 0x01 };

	(void)state;
	setup();
	sonde_g.seq = 0x7D;
	sonde_write(0x7D, 0u, 0u, data, sizeof data, NULL, 0u);
	EXPECT(0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5D, 0x08, 0x01, 0x7D, 0x5E, 0x7E);
}

/* Random values through the one-call forms, whatever path takes them: all
 * come back exactly, every frame is good, and 7D is never followed by 7E. */
static void test_random_roundtrip(void **state)
{
	static uint8_t wire[1 << 20];
	static uint32_t va[4000], vb[4000], vt[4000];
	struct tgt_frames fr;
	size_t n = 0, i, k = 0;
	uint64_t t = CLOCK;
	uint32_t delta = 0;

	(void)state;
	srand(12345);
	setup();
	for (i = 0; i < 4000; i++) {
		va[i] = (uint32_t)rand() ^ (uint32_t)rand() << 16;
		vb[i] = (uint32_t)rand() ^ (uint32_t)rand() << 16;
		/* every width, the 0x7D..0x7F deltas often */
		tgt_now += i % 5 == 0 ? 0x7Du + (uint32_t)rand() % 3u : (uint32_t)rand() >> (uint32_t)(rand() % 31);
		vt[i] = tgt_now;
		sonde_user_u32x2((uint8_t)(0x40 + i % 64), va[i], vb[i]);
		if (i % 8 == 7)
			n += tgt_drain_all(wire + n, sizeof wire - n);
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	for (i = 0; i + 1 < n; i++)
		assert_false(wire[i] == 0x7D && wire[i + 1] == 0x7E);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		const struct tgt_frame *f = &fr.f[i];

		if (f->id == SONDE_REC_TIME_SYNC) {
			t = tgt_le64(f->data);
			continue;
		}
		assert_int_equal(f->id, 0x40 + k % 64);
		assert_int_equal(f->len, 10 + tgt_ts(f, &delta));
		t += delta;
		assert_int_equal((uint32_t)t, vt[k]);
		assert_int_equal(tgt_le32(f->data + 1), va[k]);
		assert_int_equal(tgt_le32(f->data + 6), vb[k]);
		k++;
	}
	assert_int_equal(k, 4000);
	tgt_frames_free(&fr);
}

/* Frames full of escapes in a small ring, drained in random chunks, so that
 * they are written at every distance from the end of the ring and from the
 * unread data: the fast path writes them unescaped and escapes them in
 * place (where its room test let it), the slow path wraps them.  The
 * records are the fast path's largest (LOG with two U32) and one more,
 * every byte that can be escaped escaped (the timestamp's too: every gap
 * is 0x07E7D7E ticks, the 4-byte field 7E 7D 7E E0), so a room test a few
 * bytes short overwrites unread data or runs past the ring.  Every frame arrives whole with its values,
 * every record is either received or counted as refused, and nothing is
 * written outside the ring (the sanitizer build would see it: the ring is
 * an array of its own). */
static void test_escape_everywhere(void **state)
{
	static uint8_t small[128], wire[1 << 18];
	struct tgt_frames fr;
	sonde_stats_t st;
	size_t n = 0, i, got = 0;
	int k;

	(void)state;
	srand(7);
	tgt_setup(small, sizeof small, SONDE_MODE_DROP_NEW, 0x12347D7Eu);
	for (k = 0; k < 5000; k++) {
		tgt_now += 0x07E7D7Eu;
		if (k % 2)
			sonde_log_u32x2(0x7E, 0x7D7E, 0x7E7D7E7Du, 0x7D7E7D7Eu);
		else
			sonde_user_u32x2(0x7E, 0x7E7D7E7Du, 0x7D7E7D7Eu);
		n += sonde_drain(wire + n, (size_t)(rand() % 40));
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		const uint8_t *d = fr.f[i].data;

		if (fr.f[i].id == SONDE_REC_TIME_SYNC || fr.f[i].id == SONDE_REC_DROPS)
			continue;
		if (fr.f[i].id == SONDE_REC_LOG) {
			assert_int_equal(d[0], 0x7E);
			assert_int_equal(tgt_le16(d + 1), 0x7D7E);
			d += 3;
		} else {
			assert_int_equal(fr.f[i].id, 0x7E);
		}
		assert_int_equal(tgt_le32(d + 1), 0x7E7D7E7Du);
		assert_int_equal(tgt_le32(d + 6), 0x7D7E7D7Eu);
		/* the gap, or 0 right after a TIME_SYNC (rule 4, or a DROPS) */
		if (i > 0 && fr.f[i - 1].id != SONDE_REC_TIME_SYNC && fr.f[i - 1].id != SONDE_REC_DROPS) {
			assert_int_equal(tgt_le32(d + 10), 0xE07E7D7Eu);
			assert_int_equal(fr.f[i].len, (fr.f[i].id == SONDE_REC_LOG ? 13u : 10u) + 4u);
		}
		got++;
	}
	sonde_get_stats(&st);
	assert_true(got > 1000 && st.refused > 100);
	assert_int_equal(got + st.refused, 5000);
	tgt_frames_free(&fr);
}

/* Builder records of random shapes and values, bytes 0x7D/0x7E frequent,
 * through whatever path takes them: DATA comes back exactly as encoded
 * here independently (docs/protocol.md section 6). */
static void test_random_builder(void **state)
{
	static uint8_t ring2[300], wire[1 << 18];
	static uint8_t want[2000][64];
	static size_t want_n[2000];
	struct tgt_frames fr;
	size_t n = 0, i, k = 0;

	(void)state;
	srand(99);
	tgt_setup(ring2, sizeof ring2, SONDE_MODE_DROP_NEW, 0x10000u);
	for (i = 0; i < 2000; i++) {
		uint8_t *d = want[i];
		size_t m = 0;
		int a, nargs = rand() % 5;

		tgt_now += (uint32_t)(rand() % 50);
		assert_true(sonde_user_begin(0x40));
		for (a = 0; a < nargs; a++) {
			uint32_t v = (uint32_t)rand() ^ (uint32_t)rand() << 16;
			unsigned j;

			if (rand() % 2)
				v = (v & 0x01010101u) * 0x7E ^ (v & 0x02020202u) * 0x3F; /* 7C..7F-ish bytes */
			switch (rand() % 4) {
			case 0:
				sonde_arg_u8((uint8_t)v);
				d[m++] = SONDE_ARG_U8;
				d[m++] = (uint8_t)v;
				break;
			case 1:
				sonde_arg_u16((uint16_t)v);
				d[m++] = SONDE_ARG_U16;
				for (j = 0; j < 2; j++)
					d[m++] = (uint8_t)(v >> 8 * j);
				break;
			case 2:
				sonde_arg_u32(v);
				d[m++] = SONDE_ARG_U32;
				for (j = 0; j < 4; j++)
					d[m++] = (uint8_t)(v >> 8 * j);
				break;
			default:
				sonde_arg_u64((uint64_t)v << 32 | ~v);
				d[m++] = SONDE_ARG_U64;
				for (j = 0; j < 4; j++)
					d[m++] = (uint8_t)(~v >> 8 * j);
				for (j = 0; j < 4; j++)
					d[m++] = (uint8_t)(v >> 8 * j);
				break;
			}
		}
		sonde_user_end();
		want_n[i] = m;
		if (rand() % 3 == 0)
			n += sonde_drain(wire + n, (size_t)(rand() % 80));
		if (sonde_pending() > 200)
			n += tgt_drain_all(wire + n, sizeof wire - n);
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		if (fr.f[i].id == SONDE_REC_TIME_SYNC || fr.f[i].id == SONDE_REC_DROPS)
			continue;
		assert_int_equal(fr.f[i].id, 0x40);
		assert_int_equal(fr.f[i].len, want_n[k] + tgt_ts(&fr.f[i], &(uint32_t){ 0 }));
		assert_memory_equal(fr.f[i].data, want[k], want_n[k]);
		k++;
	}
	assert_int_equal(k, 2000);
	tgt_frames_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_record_id),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_seed_example),
		cmocka_unit_test(test_random_roundtrip),
		cmocka_unit_test(test_escape_everywhere),
		cmocka_unit_test(test_random_builder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
