/*
 * test_syst_msg.c -- the SyS-T message parser on the byte vectors of the
 * notes (shared/notes/syst.md §1-§10): every field, short messages, the
 * self-delimiting size, and every way a message can be broken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/syst_crc.h"
#include "proto/syst/syst_msg.h"
#include "util/bytes.h"

/* §1: CATALOG ID32P32, INFO, GUID, LOC16, LEN, TS, CHK */
static const uint8_t annotated[] = {
	0x43, 0x1F, 0x80, 0x01, 0x49, 0x4E, 0x54, 0x43, 0x8A, 0x9C, 0x40, 0x14, 0xA6, 0x5A,
	0x2F, 0x36, 0xA3, 0x6D, 0x96, 0xE4, 0x00, 0x07, 0x00, 0x9D, 0x00, 0x0C, 0x00, 0x60,
	0x5B, 0x03, 0x3C, 0x5A, 0x0D, 0x06, 0x00, 0x01, 0x10, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x3D, 0xB8, 0x31
};

static void test_annotated(void **state)
{
	(void)state;
	struct syst_msg m;
	syst_msg_parse(&m, annotated, sizeof(annotated));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.hdr, 0x01801F43u);
	assert_int_equal(m.type, SYST_T_CATALOG);
	assert_int_equal(m.subtype, SYST_CAT_ID32P32);
	assert_int_equal(m.severity, 4);
	assert_false(m.is_short);
	assert_true(m.has_guid);
	assert_memory_equal(m.guid, annotated + 4, 16);
	assert_int_equal(m.unit, 1);
	assert_true(m.has_loc);
	assert_int_equal(m.loc_fmt, SYST_LOC_FILE16);
	assert_int_equal(m.loc_file, 7);
	assert_int_equal(m.loc_line, 157);
	assert_true(m.has_len);
	assert_int_equal(m.len, 12);
	assert_true(m.has_ts);
	assert_int_equal(m.ts, 0x00060D5A3C035B60ull);
	assert_int_equal(m.plen, 12);
	assert_ptr_equal(m.payload, annotated + 35);
	assert_true(m.has_crc);
	assert_int_equal(m.crc, 0x31B83D04u);
	size_t need = 0;
	assert_int_equal(syst_msg_size(annotated, sizeof(annotated), &need), 51);
	assert_string_equal(syst_severity_name(m.severity), "INFO");
}

/* Cut anywhere, the message is TOO_SHORT (and nothing is read past the
 * cut: the sanitizer build checks); one byte more is TOO_LONG; any flipped
 * bit is caught. */
static void test_annotated_broken(void **state)
{
	(void)state;
	struct syst_msg m;
	for (size_t k = 0; k < sizeof(annotated); k++) {
		uint8_t *cut = malloc(k ? k : 1);
		memcpy(cut, annotated, k);
		syst_msg_parse(&m, cut, k);
		assert_int_equal(m.status, SYST_TOO_SHORT);
		assert_non_null(m.why);
		size_t need = 0;
		long sz = syst_msg_size(cut, k, &need);
		assert_true(sz == 0 || sz == 51);
		if (sz == 0)
			assert_true(need > k && need <= 51);
		free(cut);
	}
	uint8_t more[sizeof(annotated) + 1];
	memcpy(more, annotated, sizeof(annotated));
	more[sizeof(annotated)] = 0;
	syst_msg_parse(&m, more, sizeof(more));
	assert_int_equal(m.status, SYST_TOO_LONG);

	uint8_t flip[sizeof(annotated)];
	for (size_t bit = 0; bit < 8 * 47; bit++) {
		memcpy(flip, annotated, sizeof(flip));
		flip[bit / 8] ^= (uint8_t)(1u << bit % 8);
		syst_msg_parse(&m, flip, sizeof(flip));
		assert_int_not_equal(m.status, SYST_OK);
	}
	memcpy(flip, annotated, sizeof(flip));
	flip[40] ^= 1;
	syst_msg_parse(&m, flip, sizeof(flip));
	assert_int_equal(m.status, SYST_CHECKSUM_ERROR);
	assert_int_equal(m.crc, 0x31B83D04u);
	assert_int_equal(m.crc_calc, syst_crc32c(flip, 47));
}

/* Byte vectors of the reference library's unit tests (module 1, unit 2). */
static void test_library_vectors(void **state)
{
	(void)state;
	struct syst_msg m;
	size_t need;
	static const uint8_t hello[] = { 0x32, 0x22, 0x01, 0x01, 0x0C, 0x00, 'H', 'e', 'l', 'l',
					 'o', ' ', 'w', 'o', 'r', 'l', 'd', '!' };
	syst_msg_parse(&m, hello, sizeof(hello));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.type, SYST_T_STRING);
	assert_int_equal(m.subtype, SYST_STR_GENERIC);
	assert_int_equal(m.severity, 3);
	assert_false(m.has_guid);
	assert_int_equal(m.module, 1);
	assert_int_equal(m.unit, 2);
	assert_int_equal(m.guid[7], 1); /* the printer's pseudo GUID */
	assert_int_equal(m.plen, 12);
	assert_int_equal(syst_msg_size(hello, sizeof(hello), &need), sizeof(hello));

	static const uint8_t build[] = { 0x00, 0x22, 0x01, 0x02, 0x12, 0x00, 0x88, 0x77, 0x66, 0x55,
					 0x44, 0x33, 0x22, 0x11, 's', 'o', 'm', 'e', ' ', 't',
					 'e', 'x', 't', 0 };
	syst_msg_parse(&m, build, sizeof(build));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.type, SYST_T_BUILD);
	assert_int_equal(m.subtype, SYST_BUILD_LONG);
	assert_int_equal(bytes_le64(m.payload), 0x1122334455667788ull);
	assert_int_equal(syst_msg_size(build, sizeof(build), &need), sizeof(build));

	static const uint8_t raw[] = { 0x46, 0x22, 0x01, 0x3F, 0x01, 0x00, 0xAB };
	syst_msg_parse(&m, raw, sizeof(raw));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.type, SYST_T_RAW);
	assert_int_equal(m.subtype, 0x3F);
	assert_int_equal(m.plen, 1);
	assert_int_equal(m.payload[0], 0xAB);

	static const uint8_t clock[] = { 0x08, 0x22, 0x01, 0x01, 0x10, 0x00, 0xDD, 0xCC, 0xBB, 0xAA, 0x78,
					 0x56, 0x34, 0x12, 0x40, 0x42, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00 };
	syst_msg_parse(&m, clock, sizeof(clock));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.type, SYST_T_CLOCK);
	assert_int_equal(bytes_le64(m.payload), 0x12345678AABBCCDDull);
	assert_int_equal(bytes_le64(m.payload + 8), 1000000);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_short(void **state)
{
	(void)state;
	static const struct { uint64_t bits; size_t size; unsigned type; } v[] = {
		{ 0x23456781u, 4, SYST_T_SHORT32 },          /* SHORT32(0x02345678) */
		{ 0x1223344556677887ull, 8, SYST_T_SHORT64 }, /* SHORT64(0x0122334455667788) */
		{ 0xC0FFFFF0u, 4, SYST_T_BUILD },             /* COMPACT32(0x3FFFFF) */
		{ 0xFFFFFFFFC1FFFFF0ull, 8, SYST_T_BUILD },   /* COMPACT64(0x3FFFFFFFFFFFFF) */
		{ 0x0000000001000000ull, 8, SYST_T_BUILD },   /* COMPACT64(0) */
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t b[9];
		put32(b, (uint32_t)v[i].bits);
		put32(b + 4, (uint32_t)(v[i].bits >> 32));
		struct syst_msg m;
		syst_msg_parse(&m, b, v[i].size);
		assert_int_equal(m.status, SYST_OK);
		assert_true(m.is_short);
		assert_int_equal(m.type, v[i].type);
		assert_int_equal(m.short_bits, v[i].bits);
		assert_int_equal(syst_short_size((uint32_t)v[i].bits), v[i].size);
		size_t need;
		assert_int_equal(syst_msg_size(b, 4, &need), (long)v[i].size);
		assert_true(syst_hdr_plausible((uint32_t)v[i].bits));
		syst_msg_parse(&m, b, v[i].size - 1);
		assert_int_equal(m.status, SYST_TOO_SHORT);
		syst_msg_parse(&m, b, v[i].size + 1);
		assert_int_equal(m.status, SYST_TOO_LONG);
	}
}

/* A message of type/subtype with LEN and the given payload. */
static size_t msg(uint8_t *out, unsigned type, unsigned subtype, const void *pl, size_t n)
{
	put32(out, type | 4u << 4 | 1u << 9 | (subtype & 0x3Fu) << 24);
	out[4] = (uint8_t)n;
	out[5] = (uint8_t)(n >> 8);
	memcpy(out + 6, pl, n);
	return n + 6;
}

static void test_location_formats(void **state)
{
	(void)state;
	struct syst_msg m;
	static const uint8_t loc16[] = { 0x42, 0x03, 0x00, 0x01, 0x00, 0xCD, 0xAB, 0x78, 0x56,
					 0x02, 0x00, 'x', 0 };
	syst_msg_parse(&m, loc16, sizeof(loc16));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.loc_fmt, SYST_LOC_FILE16);
	assert_int_equal(m.loc_file, 0xABCD);
	assert_int_equal(m.loc_line, 0x5678);
	static const uint8_t loc32[] = { 0x42, 0x03, 0x00, 0x01, 0x01, 0xCD, 0xAB, 0x00, 0x00, 0x78,
					 0x56, 0x34, 0x12, 0x02, 0x00, 'x', 0 };
	syst_msg_parse(&m, loc32, sizeof(loc32));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.loc_fmt, SYST_LOC_FILE32);
	assert_int_equal(m.loc_file, 0xABCD);
	assert_int_equal(m.loc_line, 0x12345678);
	static const uint8_t addr64[] = { 0x42, 0x03, 0x00, 0x01, 0x03, 0x95, 0x21, 0x40, 0, 0, 0,
					  0, 0x80, 0x02, 0x00, 'x', 0 };
	syst_msg_parse(&m, addr64, sizeof(addr64));
	assert_int_equal(m.status, SYST_OK);
	assert_int_equal(m.loc_fmt, SYST_LOC_ADDR64);
	assert_int_equal(m.loc_addr, 0x8000000000402195ull);
	size_t need;
	assert_int_equal(syst_msg_size(addr64, sizeof(addr64), &need), sizeof(addr64));
	assert_int_equal(syst_msg_size(addr64, 4, &need), 0);
	assert_int_equal(need, 5);
	assert_int_equal(syst_msg_size(addr64, 5, &need), 0);
	assert_int_equal(need, 15);
}

static void test_types(void **state)
{
	(void)state;
	uint8_t b[128];
	struct syst_msg m;
	size_t n;
	/* SBD: 64-bit id, name, 32-bit address, blob */
	static const uint8_t sbd[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 'n', 'm', 0, 0xA0, 0xA1 };
	n = msg(b, SYST_T_SBD, SYST_SBD_ID64 | SYST_SBD_NAME | 2u << SYST_SBD_ADDR_SHIFT, sbd, sizeof(sbd));
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_OK);
	assert_true(syst_hdr_plausible(m.hdr));
	n = msg(b, SYST_T_SBD, SYST_SBD_ID64 | SYST_SBD_NAME | 2u << SYST_SBD_ADDR_SHIFT, sbd, 14);
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_TOO_SHORT); /* name without NUL */
	n = msg(b, SYST_T_SBD, SYST_SBD_ID64 | 3u << SYST_SBD_ADDR_SHIFT, sbd, 16);
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_OK); /* 8 id + 8 address, empty blob */
	n = msg(b, SYST_T_SBD, SYST_SBD_ID64 | 3u << SYST_SBD_ADDR_SHIFT, sbd, 15);
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_TOO_SHORT);
	n = msg(b, SYST_T_SBD, 0x10, sbd, 4);
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_UNKNOWN_TYPE);

	/* reserved types and subtypes */
	static const unsigned reserved[][2] = {
		{ 4, 0 }, { 5, 0 }, { 10, 0 }, { 15, 0 }, { SYST_T_STRING, 4 }, { SYST_T_STRING, 13 },
		{ SYST_T_CATALOG, 3 }, { SYST_T_BUILD, 3 }, { SYST_T_CLOCK, 2 },
	};
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		n = msg(b, reserved[i][0], reserved[i][1], "0123456789abcdef!", 17);
		syst_msg_parse(&m, b, n);
		assert_int_equal(m.status, SYST_UNKNOWN_TYPE);
		assert_false(syst_hdr_plausible(m.hdr));
	}
	/* payloads too short for their fixed parts */
	static const unsigned shortp[][3] = {
		{ SYST_T_BUILD, SYST_BUILD_LONG, 7 }, { SYST_T_CATALOG, SYST_CAT_ID32P32, 3 },
		{ SYST_T_CATALOG, SYST_CAT_ID64P64, 7 }, { SYST_T_CLOCK, SYST_CLOCK_SYNC, 15 },
	};
	for (size_t i = 0; i < sizeof(shortp) / sizeof(shortp[0]); i++) {
		n = msg(b, shortp[i][0], shortp[i][1], "0123456789abcdef", shortp[i][2]);
		syst_msg_parse(&m, b, n);
		assert_int_equal(m.status, SYST_TOO_SHORT);
		n = msg(b, shortp[i][0], shortp[i][1], "0123456789abcdef", shortp[i][2] + 1);
		syst_msg_parse(&m, b, n);
		assert_int_equal(m.status, SYST_OK);
	}
	/* reserved header bits make a header implausible, not unparseable */
	n = msg(b, SYST_T_STRING, SYST_STR_GENERIC, "x", 2);
	b[3] |= 0x80;
	syst_msg_parse(&m, b, n);
	assert_int_equal(m.status, SYST_OK);
	assert_false(syst_hdr_plausible(m.hdr));
	/* no LEN: a raw stream cannot delimit it */
	put32(b, 0x01801042u);
	size_t need;
	assert_int_equal(syst_msg_size(b, 4, &need), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_annotated),
		cmocka_unit_test(test_annotated_broken),
		cmocka_unit_test(test_library_vectors),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_location_formats),
		cmocka_unit_test(test_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
