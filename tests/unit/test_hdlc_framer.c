/*
 * test_hdlc_framer.c -- the HDLC framer on its own: the seed's worked
 * example both ways, byte by byte; identical results for any chunking; each
 * kind of damage reported exactly once with its offset and wire length; and
 * the escape bookkeeping behind exact offsets inside frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "sonde_proto.h"

#define MAXF 4096

struct fr_rec {
	size_t n;
	struct {
		enum hdlc_status st;
		uint8_t bytes[1100];
		size_t len;
		uint64_t offset;
		size_t raw_len;
		uint64_t esc_off[8]; /* input offsets of the first escaped bytes */
		size_t nesc;
	} f[MAXF];
	struct hdlc_framer *fr;
};

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *frame, size_t len, uint64_t offset,
		     size_t raw_len)
{
	struct fr_rec *r = ctx;
	assert_true(r->n < MAXF);
	r->f[r->n].st = st;
	r->f[r->n].len = len;
	memcpy(r->f[r->n].bytes, frame, len);
	r->f[r->n].offset = offset;
	r->f[r->n].raw_len = raw_len;
	r->f[r->n].nesc = r->fr->esc_n;
	for (size_t i = 0; i < r->fr->esc_n && i < 8; i++)
		r->f[r->n].esc_off[i] = hdlc_offset_of(offset, r->fr->esc_pos, r->fr->esc_n, r->fr->esc_pos[i]);
	r->n++;
}

static struct fr_rec *run(const uint8_t *buf, size_t n, size_t chunk, uint64_t seed)
{
	static uint8_t fbuf[1024];
	static uint16_t esc[1024];
	struct fr_rec *r = calloc(1, sizeof(*r));
	struct hdlc_framer fr;
	hdlc_init(&fr, fbuf, sizeof(fbuf), on_frame, r);
	hdlc_track_escapes(&fr, esc, 1024);
	r->fr = &fr;
	size_t i = 0;
	while (i < n) {
		size_t k = chunk;
		if (chunk == 0) { /* random sizes 1..300 */
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			k = 1 + (size_t)(seed >> 33) % 300;
		}
		if (k > n - i)
			k = n - i;
		hdlc_feed(&fr, buf + i, k);
		i += k;
	}
	hdlc_finish(&fr);
	r->fr = NULL;
	return r;
}

static const uint8_t seed_wire[] = { 0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5D, 0x08, 0x01, 0x7D, 0x5E, 0x7E };

static void test_seed_example_encode(void **state)
{
	(void)state;
	const uint8_t data[] = { 0x7D, 0x08, 0x01 };
	uint8_t out[32];
	size_t k = hdlc_encode(0x7E, 0x7D, data, sizeof(data), out);
	assert_int_equal(k, sizeof(seed_wire));
	assert_memory_equal(out, seed_wire, sizeof(seed_wire));
}

static void test_seed_example_decode_byte_by_byte(void **state)
{
	(void)state;
	struct fr_rec *r = run(seed_wire, sizeof(seed_wire), 1, 0);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->f[0].st, HDLC_OK);
	const uint8_t expect[] = { 0x7E, 0x7D, 0x7D, 0x08, 0x01, 0x7E };
	assert_int_equal(r->f[0].len, sizeof(expect));
	assert_memory_equal(r->f[0].bytes, expect, sizeof(expect));
	assert_int_equal(r->f[0].offset, 0);
	assert_int_equal(r->f[0].raw_len, sizeof(seed_wire));
	/* escapes at un-escaped 0 (seq), 1 (id), 2 (data), 5 (chk) -> wire 0, 2, 4, 8 */
	assert_int_equal(r->f[0].nesc, 4);
	assert_int_equal(r->f[0].esc_off[0], 0);
	assert_int_equal(r->f[0].esc_off[1], 2);
	assert_int_equal(r->f[0].esc_off[2], 4);
	assert_int_equal(r->f[0].esc_off[3], 8);
	free(r);
}

static void test_offset_of(void **state)
{
	(void)state;
	const uint16_t esc[] = { 0, 1, 2, 5 };
	/* byte 3 (0x08) is at wire offset 6 and byte 4 at 7 in the seed frame */
	assert_int_equal(hdlc_offset_of(100, esc, 4, 3), 106);
	assert_int_equal(hdlc_offset_of(100, esc, 4, 4), 107);
	assert_int_equal(hdlc_offset_of(100, esc, 4, 5), 108);
	assert_int_equal(hdlc_offset_of(100, esc, 4, 6), 110);
	assert_int_equal(hdlc_offset_of(100, NULL, 0, 6), 106);
}

/* A pseudo-random stream of frames, with 0x7D/0x7E plentiful. */
static size_t make_stream(uint8_t *out, size_t frames, uint64_t seed)
{
	size_t k = 0;
	uint8_t data[300];
	for (size_t i = 0; i < frames; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		size_t n = (size_t)(seed >> 40) % 40;
		for (size_t j = 0; j < n; j++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			uint32_t r = (uint32_t)(seed >> 33);
			data[j] = (r & 3) == 0 ? 0x7E : (r & 3) == 1 ? 0x7D : (uint8_t)(r >> 8);
		}
		k += hdlc_encode((uint8_t)i, (uint8_t)(i * 7), data, n, out + k);
		if (i % 50 == 17) /* some damage: a flipped bit, a stray escape, idle flags */
			out[k - 3] ^= 0x01;
		if (i % 70 == 33) {
			out[k - 1] = SONDE_ESC;
			out[k++] = SONDE_FLAG;
		}
		if (i % 40 == 5)
			out[k++] = SONDE_FLAG;
	}
	out[k++] = 0x42; /* truncated tail */
	out[k++] = 0x43;
	return k;
}

static int same(const struct fr_rec *a, const struct fr_rec *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		if (a->f[i].st != b->f[i].st || a->f[i].len != b->f[i].len || a->f[i].offset != b->f[i].offset ||
		    a->f[i].raw_len != b->f[i].raw_len || a->f[i].nesc != b->f[i].nesc ||
		    memcmp(a->f[i].bytes, b->f[i].bytes, a->f[i].len) != 0 ||
		    memcmp(a->f[i].esc_off, b->f[i].esc_off, sizeof(a->f[i].esc_off)) != 0)
			return 0;
	}
	return 1;
}

static void test_chunking_gives_identical_results(void **state)
{
	(void)state;
	static uint8_t buf[400 * 100];
	size_t n = make_stream(buf, 400, 99);
	struct fr_rec *whole = run(buf, n, n, 0);
	assert_true(whole->n >= 400);
	size_t counts[6] = { 0 };
	for (size_t i = 0; i < whole->n; i++)
		counts[whole->f[i].st]++;
	assert_true(counts[HDLC_OK] > 350);
	assert_true(counts[HDLC_BAD_CHECKSUM] >= 7);
	assert_int_equal(counts[HDLC_ABORTED], 6);
	assert_int_equal(counts[HDLC_TRUNCATED], 1);
	struct fr_rec *bytes = run(buf, n, 1, 0);
	assert_true(same(whole, bytes));
	for (uint64_t seed = 1; seed < 6; seed++) {
		struct fr_rec *rnd = run(buf, n, 0, seed);
		assert_true(same(whole, rnd));
		free(rnd);
	}
	free(whole);
	free(bytes);
}

/* Three good frames A B C; damage is applied to B. */
struct three {
	uint8_t w[256];
	size_t n;
	size_t a, b, c; /* offsets */
	size_t la, lb, lc; /* wire lengths */
};

static void three_frames(struct three *t)
{
	const uint8_t da[] = { 1, 2, 3 }, db[] = { 0x10, 0x20, 0x30, 0x40 }, dc[] = { 5 };
	t->a = 0;
	t->la = hdlc_encode(0, 0x40, da, sizeof(da), t->w);
	t->b = t->la;
	t->lb = hdlc_encode(1, 0x41, db, sizeof(db), t->w + t->b);
	t->c = t->b + t->lb;
	t->lc = hdlc_encode(2, 0x42, dc, sizeof(dc), t->w + t->c);
	t->n = t->c + t->lc;
}

static void expect_frame(const struct fr_rec *r, size_t i, enum hdlc_status st, uint64_t off, size_t raw)
{
	assert_int_equal(r->f[i].st, st);
	assert_int_equal(r->f[i].offset, off);
	assert_int_equal(r->f[i].raw_len, raw);
}

static void test_bit_flip(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	t.w[t.b + 3] ^= 0x04; /* 0x20 -> 0x24 */
	struct fr_rec *r = run(t.w, t.n, 1, 0);
	assert_int_equal(r->n, 3);
	expect_frame(r, 0, HDLC_OK, t.a, t.la);
	expect_frame(r, 1, HDLC_BAD_CHECKSUM, t.b, t.lb);
	expect_frame(r, 2, HDLC_OK, t.c, t.lc);
	free(r);
}

static void test_dropped_byte(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	memmove(t.w + t.b + 2, t.w + t.b + 3, t.n - (t.b + 3));
	t.n--;
	struct fr_rec *r = run(t.w, t.n, 1, 0);
	assert_int_equal(r->n, 3);
	expect_frame(r, 1, HDLC_BAD_CHECKSUM, t.b, t.lb - 1);
	expect_frame(r, 2, HDLC_OK, t.c - 1, t.lc);
	free(r);
}

static void test_lost_flag_merges_two_frames(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	size_t flag = t.b + t.lb - 1;
	memmove(t.w + flag, t.w + flag + 1, t.n - flag - 1);
	t.n--;
	struct fr_rec *r = run(t.w, t.n, 1, 0);
	assert_int_equal(r->n, 2);
	expect_frame(r, 0, HDLC_OK, t.a, t.la);
	/* B and C became one frame: the sum of two good frames is 0xFE */
	expect_frame(r, 1, HDLC_BAD_CHECKSUM, t.b, t.lb - 1 + t.lc);
	free(r);
}

static void test_garbage_before_and_between(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	uint8_t w[300];
	const uint8_t g1[] = { 0x11, 0x22, 0x33 }, g2[] = { 0x7E, 0x55, 0x66 };
	size_t k = 0;
	memcpy(w + k, g1, 3), k += 3;          /* joined mid-way: glued to A */
	memcpy(w + k, t.w, t.la), k += t.la;
	memcpy(w + k, g2, 3), k += 3;          /* a flag then two bytes glued to B */
	memcpy(w + k, t.w + t.b, t.lb + t.lc), k += t.lb + t.lc;
	struct fr_rec *r = run(w, k, 1, 0);
	assert_int_equal(r->n, 3);
	expect_frame(r, 0, HDLC_BAD_CHECKSUM, 0, 3 + t.la);
	expect_frame(r, 1, HDLC_BAD_CHECKSUM, 3 + t.la + 1, 2 + t.lb);
	expect_frame(r, 2, HDLC_OK, 3 + t.la + 3 + t.lb, t.lc);
	free(r);
}

static void test_truncated_at_end(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	struct fr_rec *r = run(t.w, t.n - 2, 1, 0);
	assert_int_equal(r->n, 3);
	expect_frame(r, 2, HDLC_TRUNCATED, t.c, t.lc - 2);
	free(r);
}

static void test_escape_before_flag(void **state)
{
	(void)state;
	struct three t;
	three_frames(&t);
	t.w[t.b + t.lb - 2] = SONDE_ESC; /* B's checksum byte becomes an escape */
	struct fr_rec *r = run(t.w, t.n, 1, 0);
	assert_int_equal(r->n, 3);
	expect_frame(r, 1, HDLC_ABORTED, t.b, t.lb);
	expect_frame(r, 2, HDLC_OK, t.c, t.lc); /* the next frame is not lost */
	free(r);
}

static void test_overlong_frame(void **state)
{
	(void)state;
	static uint8_t w[4000];
	size_t k = 0;
	for (; k < 1500; k++)
		w[k] = (uint8_t)(k % 100);
	w[k++] = SONDE_FLAG;
	const uint8_t d[] = { 9 };
	size_t l = hdlc_encode(3, 0x40, d, 1, w + k);
	struct fr_rec *r = run(w, k + l, 7, 0);
	assert_int_equal(r->n, 2);
	expect_frame(r, 0, HDLC_TOO_LONG, 0, 1501);
	assert_int_equal(r->f[0].len, 1024);
	expect_frame(r, 1, HDLC_OK, 1501, l);
	free(r);
}

/* Frames of 1023, 1024 and 1025 un-escaped bytes (the buffer holds 1024),
 * and one of 40 (enough after the 1025 for a word-at-a-time look): the same verdicts fed whole (the word-at-a-time path for
 * frames without escapes) and byte by byte. */
static void test_lengths_at_the_limit(void **state)
{
	(void)state;
	static uint8_t w[4000], d[1100];
	size_t k = 0, sizes[] = { 1023, 1024, 1025, 40 };
	for (size_t i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)(i % 0x70); /* neither flag nor escape */
	for (size_t s = 0; s < 4; s++)
		k += hdlc_encode((uint8_t)s, 0x40, d, sizes[s] - 3, w + k);
	for (size_t chunk = 1; chunk <= k; chunk += k - 1) {
		struct fr_rec *r = run(w, k, chunk, 0);
		assert_int_equal(r->n, 4);
		expect_frame(r, 0, HDLC_OK, 0, 1024);
		expect_frame(r, 1, HDLC_OK, 1024, 1025);
		expect_frame(r, 2, HDLC_TOO_LONG, 2049, 1026);
		expect_frame(r, 3, HDLC_OK, 3075, 41);
		assert_memory_equal(r->f[1].bytes + 2, d, 1021);
		free(r);
	}
}

static void test_too_short_and_idle_flags(void **state)
{
	(void)state;
	const uint8_t w[] = { 0x7E, 0x7E, 0x01, 0x02, 0x7E, 0x7E, 0x7E, 0x00, 0x00, 0xFF, 0x7E };
	struct fr_rec *r = run(w, sizeof(w), 1, 0);
	assert_int_equal(r->n, 2);
	expect_frame(r, 0, HDLC_TOO_SHORT, 2, 3);
	expect_frame(r, 1, HDLC_OK, 7, 4);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_example_encode),
		cmocka_unit_test(test_seed_example_decode_byte_by_byte),
		cmocka_unit_test(test_offset_of),
		cmocka_unit_test(test_chunking_gives_identical_results),
		cmocka_unit_test(test_bit_flip),
		cmocka_unit_test(test_dropped_byte),
		cmocka_unit_test(test_lost_flag_merges_two_frames),
		cmocka_unit_test(test_garbage_before_and_between),
		cmocka_unit_test(test_truncated_at_end),
		cmocka_unit_test(test_escape_before_flag),
		cmocka_unit_test(test_overlong_frame),
		cmocka_unit_test(test_lengths_at_the_limit),
		cmocka_unit_test(test_too_short_and_idle_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
