/*
 * test_util_bytes.c -- util/bytes.h against plain byte-by-byte versions:
 * the little-endian loads and stores, the word load's lane order, the
 * eight-bytes-at-a-time tests (first flagged lane exact, no miss) on
 * random and edge words, and the short copy at every length 0..40 (the
 * bytes around the copy untouched).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/bytes.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_loads(void **state)
{
	(void)state;
	const uint8_t b[9] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88, 0xFF };
	assert_int_equal(bytes_le16(b), 0x0201);
	assert_int_equal(bytes_le32(b), 0x04030201u);
	assert_true(bytes_le64(b) == 0x8807060504030201ull);
	assert_true(bytes_le(b, 0) == 0);
	assert_true(bytes_le(b, 3) == 0x030201u);
	assert_true(bytes_le(b + 1, 8) == 0xFF88070605040302ull);
	/* the word load: lane k is byte k, whatever the CPU */
	assert_true(bytes_word(b) == bytes_le64(b));
	assert_true(bytes_word(b + 1) == bytes_le64(b + 1));
}

static void test_stores(void **state)
{
	(void)state;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = next();
		for (size_t n = 0; n <= 8; n++) {
			uint8_t p[10];
			memset(p, 0xAA, sizeof(p));
			bytes_put_le(p + 1, v, n);
			assert_int_equal(p[0], 0xAA);
			assert_int_equal(p[1 + n], 0xAA);
			uint64_t mask = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
			assert_true(bytes_le(p + 1, n) == (v & mask));
		}
	}
}

/* The flags a SWAR test gives against the plain answer: some flag iff
 * some byte matches, and the first flagged lane is the first match. */
static void check_flags(uint64_t w, uint64_t flags, int (*is)(unsigned char b, unsigned char c), unsigned char c)
{
	int first = -1;
	for (int k = 0; k < 8; k++)
		if (is((unsigned char)(w >> (8 * k)), c)) {
			first = k;
			break;
		}
	if (first < 0) {
		assert_true(flags == 0);
	} else {
		assert_true(flags != 0);
		assert_int_equal(bytes_first_lane(flags), first);
	}
}

static int is_eq(unsigned char b, unsigned char c) { return b == c; }
static int is_below(unsigned char b, unsigned char c) { return b < c; }
static int is_high(unsigned char b, unsigned char c) { (void)c; return b >= 0x80; }

static void test_swar(void **state)
{
	(void)state;
	const unsigned char cs[] = { 0x00, 0x0A, 0x20, 0x22, 0x2C, 0x5C, 0x7D, 0x7E, 0x7F, 0x80 };
	for (int i = 0; i < 20000; i++) {
		uint64_t w = next();
		/* plant likely bytes so that matches are common, several per word */
		for (int k = 0; k < 8; k++)
			if ((next() & 3) == 0)
				w = (w & ~(0xFFull << (8 * k))) | (uint64_t)cs[next() % sizeof(cs)] << (8 * k);
		for (size_t j = 0; j < sizeof(cs); j++) {
			check_flags(w, bytes_word_has(w, cs[j]), is_eq, cs[j]);
			check_flags(w, bytes_word_below(w, cs[j]), is_below, cs[j]);
		}
		check_flags(w, bytes_word_high(w), is_high, 0);
	}
	/* edges: all zero, all 0xFF, a match in the last lane only */
	check_flags(0, bytes_word_has(0, 0), is_eq, 0);
	check_flags(~0ull, bytes_word_has(~0ull, 0xFF), is_eq, 0xFF);
	check_flags(0x7E00000000000000ull, bytes_word_has(0x7E00000000000000ull, 0x7E), is_eq, 0x7E);
	check_flags(0x0100000000000000ull, bytes_word_below(0x0100000000000000ull, 0x20), is_below, 0x20);
}

static void test_copy(void **state)
{
	(void)state;
	unsigned char src[64], dst[64];
	for (size_t k = 0; k < sizeof(src); k++)
		src[k] = (unsigned char)(k * 7 + 1);
	for (size_t n = 0; n <= 40; n++) {
		memset(dst, 0xEE, sizeof(dst));
		bytes_copy_short(dst + 8, src + 3, n);
		for (size_t k = 0; k < 8; k++)
			assert_int_equal(dst[k], 0xEE);
		assert_memory_equal(dst + 8, src + 3, n);
		for (size_t k = 8 + n; k < sizeof(dst); k++)
			assert_int_equal(dst[k], 0xEE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads),
		cmocka_unit_test(test_stores),
		cmocka_unit_test(test_swar),
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
