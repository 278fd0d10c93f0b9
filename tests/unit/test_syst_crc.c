/*
 * test_syst_crc.c -- CRC-32C of SyS-T messages against the check value of
 * CRC-32/ISCSI and the vectors of the reference library's unit tests
 * (shared/notes/syst.md §8).  The notes' "u16[] 1..0x20" vector is left
 * out: no reading of it (1..0x20 or 0..0x1F, LE or BE) gives 0xAA2741E5.
 * The CPU-instruction path (where there is one) and the portable table
 * path are both compared with a bit-at-a-time CRC on random data, and the
 * search for a message's end by its CRC with a plain search.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/syst_crc.h"

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(syst_crc32c((const uint8_t *)"123456789", 9), 0xE3069283u);
	assert_int_equal(syst_crc32c((const uint8_t *)"0123456789ABCDEF", 16), 0xB5D83007u);
	assert_int_equal(syst_crc32c(NULL, 0), 0);
	/* the portable path alone */
	assert_int_equal(syst_crc_final(syst_crc_update_sw(SYST_CRC_INIT, (const uint8_t *)"123456789", 9)),
			 0xE3069283u);
	assert_int_equal(syst_crc_final(syst_crc_update_sw(SYST_CRC_INIT, (const uint8_t *)"0123456789ABCDEF", 16)),
			 0xB5D83007u);
}

static void test_library_vectors(void **state)
{
	(void)state;
	/* header 0x01012632 + length 12 + "Hello world!" */
	static const uint8_t with_len[] = { 0x32, 0x26, 0x01, 0x01, 0x0C, 0x00, 'H', 'e', 'l', 'l',
					    'o', ' ', 'w', 'o', 'r', 'l', 'd', '!' };
	assert_int_equal(syst_crc32c(with_len, sizeof(with_len)), 0xEAB806D3u);
	static const uint8_t no_len[] = { 0x32, 0x24, 0x01, 0x01, 'H', 'e', 'l', 'l', 'o', ' ',
					  'w', 'o', 'r', 'l', 'd', '!' };
	assert_int_equal(syst_crc32c(no_len, sizeof(no_len)), 0xFF19FF90u);

	static const uint32_t w[] = { 0, 0xABCDEF12u, 0x12345678u, 0xFADEDBADu, 0xAA55AA55u };
	uint8_t u32s[20];
	for (int i = 0; i < 5; i++)
		for (int b = 0; b < 4; b++)
			u32s[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
	assert_int_equal(syst_crc32c(u32s, sizeof(u32s)), 0xCDBDE657u);
}

/* The annotated message of the notes (§1): its last four bytes are the CRC. */
static void test_annotated_message(void **state)
{
	(void)state;
	static const uint8_t m[] = {
		0x43, 0x1F, 0x80, 0x01, 0x49, 0x4E, 0x54, 0x43, 0x8A, 0x9C, 0x40, 0x14, 0xA6, 0x5A,
		0x2F, 0x36, 0xA3, 0x6D, 0x96, 0xE4, 0x00, 0x07, 0x00, 0x9D, 0x00, 0x0C, 0x00, 0x60,
		0x5B, 0x03, 0x3C, 0x5A, 0x0D, 0x06, 0x00, 0x01, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00,
		0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x3D, 0xB8, 0x31
	};
	assert_int_equal(sizeof(m), 51);
	assert_int_equal(syst_crc32c(m, 47), 0x31B83D04u);
	/* fed in pieces, the running CRC ends the same */
	uint32_t c = SYST_CRC_INIT;
	for (size_t i = 0; i < 47; i += 5)
		c = syst_crc_update(c, m + i, i + 5 <= 47 ? 5 : 47 - i);
	assert_int_equal(syst_crc_final(c), 0x31B83D04u);
}

/* The definition, one bit at a time: the oracle for both fast paths. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
	}
	return crc;
}

static void fill_random(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(rand() >> 7);
}

/* Every length 0..300 at every alignment 0..7, fed whole and in two
 * pieces: the dispatched path (the CPU instruction where there is one) and
 * the portable path against the bitwise CRC. */
static void test_paths_agree(void **state)
{
	(void)state;
	static uint8_t buf[300 + 8];
	srand(1234);
	fill_random(buf, sizeof(buf));
	printf("CRC-32C instruction used: %s\n", syst_crc_hw() ? "yes" : "no");
	for (size_t n = 0; n <= 300; n++) {
		for (size_t a = 0; a < 8; a++) {
			const uint8_t *p = buf + a;
			uint32_t want = crc_bitwise(SYST_CRC_INIT, p, n);
			assert_int_equal(syst_crc_update(SYST_CRC_INIT, p, n), want);
			assert_int_equal(syst_crc_update_sw(SYST_CRC_INIT, p, n), want);
			size_t cut = (n * 5 + a) % (n + 1);
			assert_int_equal(syst_crc_update(syst_crc_update(SYST_CRC_INIT, p, cut), p + cut, n - cut),
					 want);
			assert_int_equal(syst_crc_update_sw(syst_crc_update_sw(SYST_CRC_INIT, p, cut), p + cut,
							    n - cut),
					 want);
		}
	}
}

/* The first e >= from with p[e..e+4) = CRC-32C(p[0..e)), as e + 4, the
 * plain way. */
static size_t find_end_plain(const uint8_t *p, size_t from, size_t n)
{
	for (size_t e = from; e + 4 <= n; e++) {
		uint32_t c = crc_bitwise(SYST_CRC_INIT, p, e) ^ 0xFFFFFFFFu;
		if (p[e] == (uint8_t)c && p[e + 1] == (uint8_t)(c >> 8) && p[e + 2] == (uint8_t)(c >> 16) &&
		    p[e + 3] == (uint8_t)(c >> 24))
			return e + 4;
	}
	return 0;
}

static void put_crc(uint8_t *p, size_t e)
{
	uint32_t c = syst_crc32c(p, e);
	for (int b = 0; b < 4; b++)
		p[e + (size_t)b] = (uint8_t)(c >> (8 * b));
}

/* Messages ending in their CRC at every position, with a second (later)
 * CRC, with none, and with the search starting after the first one. */
static void test_find_end(void **state)
{
	(void)state;
	static uint8_t buf[200];
	srand(99);
	for (size_t n = 0; n <= 60; n++) {
		for (size_t e = 0; e + 4 <= n + 4; e++) {
			fill_random(buf, n + 4);
			int planted = e + 4 <= n;
			if (planted)
				put_crc(buf, e);
			if (n >= 12 && e + 8 <= n)
				put_crc(buf, n - 4); /* a later one too */
			for (size_t from = 0; from <= n + 1; from += 1 + from / 3) {
				size_t want = find_end_plain(buf, from, n);
				assert_int_equal(syst_crc_find_end(buf, from, n), want);
				assert_int_equal(syst_crc_find_end_sw(buf, from, n), want);
				if (planted && from <= e)
					assert_true(want != 0 && want <= e + 4);
			}
		}
	}
	/* a long message whose CRC comes last (the decoder's usual case) */
	static uint8_t big[4096];
	fill_random(big, sizeof(big));
	put_crc(big, sizeof(big) - 4);
	size_t want = find_end_plain(big, 24, sizeof(big));
	assert_int_equal(want, sizeof(big));
	assert_int_equal(syst_crc_find_end(big, 24, sizeof(big)), want);
	assert_int_equal(syst_crc_find_end_sw(big, 24, sizeof(big)), want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value),
		cmocka_unit_test(test_library_vectors),
		cmocka_unit_test(test_annotated_message),
		cmocka_unit_test(test_paths_agree),
		cmocka_unit_test(test_find_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
