/*
 * test_syst_crc.c -- CRC-32C of SyS-T messages against the check value of
 * CRC-32/ISCSI and the vectors of the reference library's unit tests
 * (shared/notes/syst.md §8).  The notes' "u16[] 1..0x20" vector is left
 * out: no reading of it (1..0x20 or 0..0x1F, LE or BE) gives 0xAA2741E5.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/syst_crc.h"

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(syst_crc32c((const uint8_t *)"123456789", 9), 0xE3069283u);
	assert_int_equal(syst_crc32c((const uint8_t *)"0123456789ABCDEF", 16), 0xB5D83007u);
	assert_int_equal(syst_crc32c(NULL, 0), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value),
		cmocka_unit_test(test_library_vectors),
		cmocka_unit_test(test_annotated_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
