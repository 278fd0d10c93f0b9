/*
 * test_miniprof_wire.c -- the MiniProfiler codec (mp_wire.c) byte for byte:
 * the CRC's check values, the protocol document's command examples, every
 * command code, command validation errors, response packets of each type
 * (CRCs computed independently of this code, from the CRC-16/CCITT-FALSE
 * definition), the byte-order options, payload decoding including the
 * document's own example bytes, and the length rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proto/miniprof/mp_wire.h"

static void test_crc_check_values(void **state)
{
	(void)state;
	/* CRC-16/CCITT-FALSE catalogue check value */
	assert_int_equal(mp_crc16(MP_CRC_INIT, (const uint8_t *)"123456789", 9), 0x29B1);
	assert_int_equal(mp_crc16(MP_CRC_INIT, NULL, 0), 0xFFFF);
	assert_int_equal(mp_crc16(MP_CRC_INIT, (const uint8_t *)"\0", 1), 0xE1F0);
	assert_int_equal(mp_crc16(MP_CRC_INIT, (const uint8_t *)"A", 1), 0xB915);
	/* chaining gives the one-shot result */
	uint16_t c = mp_crc16(MP_CRC_INIT, (const uint8_t *)"1234", 4);
	assert_int_equal(mp_crc16(c, (const uint8_t *)"56789", 5), 0x29B1);
}

static void test_cmd_document_examples(void **state)
{
	static const uint8_t start[MP_CMD_LEN] = { 0x55, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x56 };
	static const uint8_t meta[MP_CMD_LEN] = { 0x55, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x5A };
	uint8_t b[MP_CMD_LEN];

	(void)state;
	assert_int_equal(mp_cmd_encode(b, MP_CMD_START, NULL, 0), 0);
	assert_memory_equal(b, start, MP_CMD_LEN);
	assert_int_equal(mp_cmd_encode(b, MP_CMD_METADATA, NULL, 0), 0);
	assert_memory_equal(b, meta, MP_CMD_LEN);
}

static void test_cmd_every_code(void **state)
{
	static const struct { unsigned code; const char *name; uint8_t sum; } t[] = {
		{ MP_CMD_START, "START_PROFILING", 0x56 }, { MP_CMD_STOP, "STOP_PROFILING", 0x57 },
		{ MP_CMD_STATUS, "GET_STATUS", 0x58 },     { MP_CMD_RESET, "RESET_BUFFERS", 0x59 },
		{ MP_CMD_METADATA, "GET_METADATA", 0x5A }, { MP_CMD_CONFIG, "SET_CONFIG", 0x5B },
	};
	uint8_t b[MP_CMD_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(mp_cmd_encode(b, t[i].code, NULL, 0), 0);
		assert_int_equal(b[0], 0x55);
		assert_int_equal(b[1], t[i].code);
		assert_int_equal(b[2], 0);
		for (int k = 3; k < 11; k++)
			assert_int_equal(b[k], 0);
		assert_int_equal(b[11], t[i].sum);
		assert_int_equal(mp_cmd_check(b), MP_CMD_OK);
		assert_string_equal(mp_cmd_name(t[i].code), t[i].name);
	}
	assert_null(mp_cmd_name(0));
	assert_null(mp_cmd_name(7));
	assert_null(mp_cmd_name(255));
}

static void test_cmd_payload(void **state)
{
	static const uint8_t cfg[MP_CMD_LEN] = { 0x55, 0x06, 0x03, 1, 2, 3, 0, 0, 0, 0, 0, 0x64 };
	static const uint8_t p3[3] = { 1, 2, 3 };
	static const uint8_t p9[9] = { 0 };
	uint8_t b[MP_CMD_LEN];

	(void)state;
	assert_int_equal(mp_cmd_encode(b, MP_CMD_CONFIG, p3, 3), 0);
	assert_memory_equal(b, cfg, MP_CMD_LEN);
	/* eight bytes fit, nine do not */
	assert_int_equal(mp_cmd_encode(b, MP_CMD_CONFIG, p9, 8), 0);
	assert_int_equal(b[2], 8);
	assert_int_equal(mp_cmd_encode(b, MP_CMD_CONFIG, p9, 9), -1);
}

static void test_cmd_check_errors(void **state)
{
	uint8_t b[MP_CMD_LEN];

	(void)state;
	mp_cmd_encode(b, MP_CMD_STATUS, NULL, 0);
	b[0] = 0x54;
	assert_int_equal(mp_cmd_check(b), MP_CMD_BAD_HEADER);

	mp_cmd_encode(b, MP_CMD_STATUS, NULL, 0);
	b[11] ^= 1;
	assert_int_equal(mp_cmd_check(b), MP_CMD_BAD_CHECKSUM);

	mp_cmd_encode(b, 0x07, NULL, 0); /* a code outside the table, correct sum */
	assert_int_equal(b[11], 0x5C);
	assert_int_equal(mp_cmd_check(b), MP_CMD_BAD_CODE);

	mp_cmd_encode(b, MP_CMD_CONFIG, NULL, 0);
	b[2] = 9;
	b[11] = mp_cmd_sum(b);
	assert_int_equal(mp_cmd_check(b), MP_CMD_BAD_LENGTH);

	mp_cmd_encode(b, MP_CMD_CONFIG, (const uint8_t *)"\1\2", 2);
	b[7] = 0xEE; /* beyond the 2 bytes announced */
	b[11] = mp_cmd_sum(b);
	assert_int_equal(mp_cmd_check(b), MP_CMD_BAD_PADDING);
}

static void test_rsp_ack_nack(void **state)
{
	static const uint8_t ack[] = { 0xAA, 0x55, 0x01, 0x00, 0x00, 0x88, 0x83, 0x0A };
	static const uint8_t nack[] = { 0xAA, 0x55, 0x02, 0x00, 0x00, 0xD8, 0xDA, 0x0A };
	static const uint8_t ack_55aa[] = { 0x55, 0xAA, 0x01, 0x00, 0x00, 0x84, 0x92, 0x0A };
	static const uint8_t ack_be[] = { 0xAA, 0x55, 0x01, 0x00, 0x00, 0x83, 0x88, 0x0A };
	struct mp_wire_cfg h55 = { 1, 0 }, be = { 0, 1 };
	uint8_t b[16];

	(void)state;
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_ACK, NULL, 0), 8);
	assert_memory_equal(b, ack, 8);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_NACK, NULL, 0), 8);
	assert_memory_equal(b, nack, 8);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), &h55, MP_RSP_ACK, NULL, 0), 8);
	assert_memory_equal(b, ack_55aa, 8);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), &be, MP_RSP_ACK, NULL, 0), 8);
	assert_memory_equal(b, ack_be, 8);
	assert_int_equal(mp_crc_get(&be, ack_be + 5), 0x8388);
	assert_int_equal(mp_crc_get(NULL, ack + 5), 0x8388);
	/* too small a buffer */
	assert_int_equal(mp_rsp_encode(b, 7, NULL, MP_RSP_ACK, NULL, 0), 0);
}

/* The document's METADATA example, byte for byte, and what it decodes to:
 * its first field is labelled 168000000 but the bytes 00 09 FB 0A are
 * 184224000 -- the inconsistency the notes list (§7); the bytes win. */
static const uint8_t doc_metadata[] = {
	0xAA, 0x55, 0x03, 0x1C, 0x00,
	0x00, 0x09, 0xFB, 0x0A, 0x40, 0x42, 0x0F, 0x00, 0xEF, 0xBE, 0xAD, 0xDE,
	0x76, 0x31, 0x2E, 0x30, 0x2E, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x15, 0x48, 0x0A
};

static void test_rsp_metadata(void **state)
{
	struct mp_metadata m;
	uint8_t b[64];

	(void)state;
	assert_int_equal(mp_metadata_decode(doc_metadata + 5, 28, &m), 0);
	assert_int_equal(m.mcu_clock_hz, 184224000u);
	assert_int_equal(m.timer_freq, 1000000u);
	assert_int_equal(m.elf_build_id, 0xDEADBEEFu);
	assert_string_equal(m.fw_version, "v1.0.0");
	assert_int_equal(m.fw_len, 6);
	assert_true(m.fw_terminated);
	/* encoding it again gives the same packet */
	uint8_t payload[MP_METADATA_LEN];
	mp_metadata_encode(payload, &m);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_METADATA, payload, sizeof(payload)),
			 sizeof(doc_metadata));
	assert_memory_equal(b, doc_metadata, sizeof(doc_metadata));
	/* wrong sizes are refused */
	assert_int_equal(mp_metadata_decode(doc_metadata + 5, 27, &m), -1);
	assert_int_equal(mp_metadata_decode(doc_metadata + 5, 29, &m), -1);
	/* a firmware string filling all 16 bytes */
	memcpy(payload + 12, "0123456789abcdef", 16);
	assert_int_equal(mp_metadata_decode(payload, 28, &m), 0);
	assert_false(m.fw_terminated);
	assert_int_equal(m.fw_len, 16);
	assert_string_equal(m.fw_version, "0123456789abcdef");
}

static void test_rsp_status(void **state)
{
	static const uint8_t pkt[] = { 0xAA, 0x55, 0x04, 0x0A, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00,
				       0xE8, 0x03, 0x00, 0x00, 0x2A, 0xEE, 0xFB, 0x0A };
	struct mp_status s = { 1, 3, 1000, 42 }, d;
	uint8_t payload[MP_STATUS_LEN], b[32];

	(void)state;
	mp_status_encode(payload, &s);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_STATUS, payload, sizeof(payload)), sizeof(pkt));
	assert_memory_equal(b, pkt, sizeof(pkt));
	assert_int_equal(mp_status_decode(pkt + 5, 10, &d), 0);
	assert_int_equal(d.is_profiling, 1);
	assert_int_equal(d.buffer_overflows, 3);
	assert_int_equal(d.records_captured, 1000);
	assert_int_equal(d.buffer_usage_percent, 42);
	assert_int_equal(mp_status_decode(pkt + 5, 9, &d), -1);
}

/* The document's two-record PROFILE_DATA example with its CRC. */
static const uint8_t doc_profile[] = {
	0xAA, 0x55, 0x05, 0x1F, 0x00, 0x01, 0x02, 0x00,
	0x00, 0x01, 0x00, 0x08, 0xE8, 0x03, 0x00, 0x00, 0xD0, 0x07, 0x00, 0x00, 0x00, 0x00,
	0x20, 0x02, 0x00, 0x08, 0xF4, 0x01, 0x00, 0x00, 0x2C, 0x01, 0x00, 0x00, 0x01, 0x00,
	0xDB, 0x43, 0x0A
};

static void test_rsp_profile_data(void **state)
{
	struct mp_record r[2] = { { 0x08000100, 1000, 2000, 0 }, { 0x08000220, 500, 300, 1 } }, d;
	uint8_t payload[3 + 2 * 14], b[64];

	(void)state;
	payload[0] = 1;
	payload[1] = 2;
	payload[2] = 0;
	mp_record_encode(payload + 3, &r[0]);
	mp_record_encode(payload + 17, &r[1]);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_PROFILE_DATA, payload, sizeof(payload)),
			 sizeof(doc_profile));
	assert_memory_equal(b, doc_profile, sizeof(doc_profile));
	mp_record_decode(doc_profile + 8 + 14, &d);
	assert_int_equal(d.func_addr, 0x08000220);
	assert_int_equal(d.entry_time, 500);
	assert_int_equal(d.duration_us, 300);
	assert_int_equal(d.depth, 1);
	assert_string_equal(mp_rsp_name(MP_RSP_PROFILE_DATA), "PROFILE_DATA");
	assert_null(mp_rsp_name(0));
	assert_null(mp_rsp_name(6));
}

static void test_len_rules(void **state)
{
	size_t want = 99;

	(void)state;
	assert_int_equal(mp_rsp_len_check(MP_RSP_ACK, 0, &want), MP_LEN_OK);
	assert_int_equal(mp_rsp_len_check(MP_RSP_NACK, 1, &want), MP_LEN_LONG);
	assert_int_equal(want, 0);
	assert_int_equal(mp_rsp_len_check(MP_RSP_METADATA, 27, &want), MP_LEN_SHORT);
	assert_int_equal(want, 28);
	assert_int_equal(mp_rsp_len_check(MP_RSP_METADATA, 28, &want), MP_LEN_OK);
	assert_int_equal(mp_rsp_len_check(MP_RSP_STATUS, 11, &want), MP_LEN_LONG);
	assert_int_equal(want, 10);
	assert_int_equal(mp_rsp_len_check(MP_RSP_PROFILE_DATA, 2, &want), MP_LEN_SHORT);
	assert_int_equal(want, 3);
	assert_int_equal(mp_rsp_len_check(MP_RSP_PROFILE_DATA, 3, &want), MP_LEN_OK);
	assert_int_equal(mp_rsp_len_check(MP_RSP_PROFILE_DATA, 17, &want), MP_LEN_OK);
	assert_int_equal(mp_rsp_len_check(MP_RSP_PROFILE_DATA, 16, &want), MP_LEN_LAYOUT);
	assert_int_equal(mp_rsp_len_check(MP_RSP_PROFILE_DATA, 3 + 14 * 4680, &want), MP_LEN_OK);
	assert_int_equal(mp_rsp_len_check(6, 0, &want), MP_LEN_UNKNOWN);
	assert_int_equal(mp_rsp_len_check(0, 0, &want), MP_LEN_UNKNOWN);
}

static void test_max_payload(void **state)
{
	static uint8_t payload[MP_RSP_MAX_PAYLOAD + 1];
	static uint8_t b[MP_RSP_MAX_LEN + 1];

	(void)state;
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_PROFILE_DATA, payload, MP_RSP_MAX_PAYLOAD),
			 MP_RSP_MAX_LEN);
	assert_int_equal(b[3], 0xFF);
	assert_int_equal(b[4], 0xFF);
	assert_int_equal(mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_PROFILE_DATA, payload, MP_RSP_MAX_PAYLOAD + 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_values),
		cmocka_unit_test(test_cmd_document_examples),
		cmocka_unit_test(test_cmd_every_code),
		cmocka_unit_test(test_cmd_payload),
		cmocka_unit_test(test_cmd_check_errors),
		cmocka_unit_test(test_rsp_ack_nack),
		cmocka_unit_test(test_rsp_metadata),
		cmocka_unit_test(test_rsp_status),
		cmocka_unit_test(test_rsp_profile_data),
		cmocka_unit_test(test_len_rules),
		cmocka_unit_test(test_max_payload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
