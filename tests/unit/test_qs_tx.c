/*
 * test_qs_tx.c -- QS-RX frames (host -> target) from qs_tx.c, byte for byte
 * against the layouts in ../shared/notes/qs.md §10 and §14.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "proto/qs/qs_tx.h"

static void assert_bytes(const uint8_t *got, size_t n, const uint8_t *want, size_t wn)
{
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, wn);
}

#define WANT(got, n, ...) \
	assert_bytes((got), (n), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

/* Every frame is one good HDLC frame to the shared framer. */
static int frame_status;
static uint8_t frame_rec;
static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *f, size_t len, uint64_t off, size_t raw)
{
	(void)ctx;
	(void)len;
	(void)off;
	(void)raw;
	frame_status = st;
	frame_rec = f[1];
}

static void assert_good_frame(const uint8_t *b, size_t n, uint8_t rec)
{
	uint8_t buf[QS_TX_FRAME_MAX];
	struct hdlc_framer f;
	hdlc_init(&f, buf, sizeof(buf), on_frame, NULL);
	frame_status = -1;
	hdlc_feed(&f, b, n);
	assert_int_equal(frame_status, HDLC_OK);
	assert_int_equal(frame_rec, rec);
}

/* The notes' example: COMMAND 5 with p1 = 0x7E, p2 = 0x7D, p3 = 3 as the
 * third frame: the target receives 03 01 05 7d5e000000 7d5d000000 03000000 f8 7e. */
static void test_command(void **state)
{
	(void)state;
	struct qs_tx tx;
	uint8_t out[QS_TX_FRAME_MAX];
	qs_tx_init(&tx, 4);
	WANT(out, qs_tx_info(&tx, out), 0x01, 0x00, 0xfe, 0x7e);
	WANT(out, qs_tx_reset(&tx, out), 0x02, 0x02, 0xfb, 0x7e);
	size_t n = qs_tx_command(&tx, 5, 0x7e, 0x7d, 3, out);
	WANT(out, n, 0x03, 0x01, 0x05, 0x7d, 0x5e, 0x00, 0x00, 0x00, 0x7d, 0x5d, 0x00, 0x00, 0x00,
	     0x03, 0x00, 0x00, 0x00, 0xf8, 0x7e);
	assert_good_frame(out, n, QS_RX_COMMAND);
}

static void test_tick_peek_objects(void **state)
{
	(void)state;
	struct qs_tx tx;
	uint8_t out[QS_TX_FRAME_MAX];
	qs_tx_init(&tx, 4);
	/* TICK: u8 rate; checksum ~(1 + 3 + 1) = 0xFA */
	WANT(out, qs_tx_tick(&tx, 1, out), 0x01, 0x03, 0x01, 0xfa, 0x7e);
	/* PEEK: u16 offs, u8 size, u8 num */
	size_t n = qs_tx_peek(&tx, 0x0102, 4, 8, out);
	WANT(out, n, 0x02, 0x04, 0x02, 0x01, 0x04, 0x08, (uint8_t) ~(2 + 4 + 2 + 1 + 4 + 8), 0x7e);
	/* CURR_OBJ: u8 kind, object address of the target's size */
	n = qs_tx_curr_obj(&tx, QS_AP_OBJ, 0x20001000, out);
	WANT(out, n, 0x03, 0x0d, 0x05, 0x00, 0x10, 0x00, 0x20, (uint8_t) ~(3 + 0x0d + 5 + 0x10 + 0x20), 0x7e);
	/* QUERY_CURR: u8 kind */
	WANT(out, qs_tx_query_curr(&tx, QS_SM_OBJ, out), 0x04, 0x0f, 0x00, (uint8_t) ~(4 + 0x0f), 0x7e);
	/* AO_FILTER: kind 0 adds, 1 removes; 8-byte addresses on a 64-bit target */
	qs_tx_init(&tx, 8);
	n = qs_tx_ao_filter(&tx, 0, 0x40E1A0, out);
	WANT(out, n, 0x01, 0x0c, 0x01, 0xa0, 0xe1, 0x40, 0, 0, 0, 0, 0,
	     (uint8_t) ~(1 + 0x0c + 1 + 0xa0 + 0xe1 + 0x40), 0x7e);
	assert_good_frame(out, n, QS_RX_AO_FILTER);
}

/* SEQ counts 1, 2, ... 255, 0 and is escaped like data. */
static void test_sequence(void **state)
{
	(void)state;
	struct qs_tx tx;
	uint8_t out[QS_TX_FRAME_MAX];
	qs_tx_init(&tx, 4);
	for (int i = 1; i < 0x7e; i++)
		qs_tx_info(&tx, out);
	WANT(out, qs_tx_info(&tx, out), 0x7d, 0x5e, 0x00, 0x81, 0x7e);
	for (int i = 0x7f; i < 0x100; i++)
		qs_tx_info(&tx, out);
	WANT(out, qs_tx_info(&tx, out), 0x00, 0x00, 0xff, 0x7e);
}

static void test_global_filter(void **state)
{
	(void)state;
	uint8_t glb[16] = { 0 };
	/* removing everything leaves the non-maskable records (notes §14.1) */
	assert_int_equal(qs_glb_filter_set(glb, QS_ALL_RECORDS, 0), 0);
	const uint8_t none[16] = { 0x01, 0, 0, 0, 0, 0, 0x40, 0xfc, 0x7f, 0, 0, 0, 0, 0, 0, 0 };
	assert_memory_equal(glb, none, 16);
	/* all on: 125..127 stay off */
	assert_int_equal(qs_glb_filter_set(glb, QS_ALL_RECORDS, 1), 0);
	for (int i = 0; i < 15; i++)
		assert_int_equal(glb[i], 0xff);
	assert_int_equal(glb[15], 0x1f);
	/* the state-machine group: 1..9 and 55..57 */
	memcpy(glb, none, 16);
	assert_int_equal(qs_glb_filter_set(glb, QS_SM_RECORDS, 1), 0);
	const uint8_t sm[16] = { 0xff, 0x03, 0, 0, 0, 0, 0xc0, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0 };
	assert_memory_equal(glb, sm, 16);
	/* single records; user record 124 in the last byte */
	assert_int_equal(qs_glb_filter_set(glb, 124, 1), 0);
	assert_int_equal(glb[15], 0x10);
	assert_int_equal(qs_glb_filter_set(glb, 6, 0), 0);
	assert_int_equal(glb[0], 0xbf);
	assert_int_equal(qs_glb_filter_set(glb, 125, 1), -1);
	assert_int_equal(qs_glb_filter_set(glb, 0xF0 + 16, 1), -1);

	struct qs_tx tx;
	uint8_t out[QS_TX_FRAME_MAX];
	qs_tx_init(&tx, 4);
	size_t n = qs_tx_glb_filter(&tx, none, out);
	uint8_t sum = (uint8_t)(1 + 0x0a + 16 + 0x01 + 0x40 + 0xfc + 0x7f);
	WANT(out, n, 0x01, 0x0a, 0x10, 0x01, 0, 0, 0, 0, 0, 0x40, 0xfc, 0x7f, 0, 0, 0, 0, 0, 0, 0,
	     (uint8_t)~sum, 0x7e);
	assert_good_frame(out, n, QS_RX_GLB_FILTER);
}

static void test_local_filter(void **state)
{
	(void)state;
	uint8_t loc[16] = { 0 };
	assert_int_equal(qs_loc_filter_set(loc, QS_AO_IDS, 1), 0); /* 1..63 */
	for (int i = 0; i < 8; i++)
		assert_int_equal(loc[i], 0xff);
	for (int i = 8; i < 16; i++)
		assert_int_equal(loc[i], 0);
	memset(loc, 0, sizeof(loc));
	/* event queues 80..95 (the 7.4 target has no case for this group) */
	assert_int_equal(qs_loc_filter_set(loc, QS_EQ_IDS, 1), 0);
	const uint8_t eq[16] = { 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0 };
	assert_memory_equal(loc, eq, 16);
	/* QS-ID 0 cannot be switched off */
	assert_int_equal(qs_loc_filter_set(loc, QS_ALL_IDS, 0), 0);
	const uint8_t zero[16] = { 0x01 };
	assert_memory_equal(loc, zero, 16);
	assert_int_equal(qs_loc_filter_set(loc, 100, 1), 0);
	assert_int_equal(loc[12], 0x10);
	assert_int_equal(qs_loc_filter_set(loc, 129, 1), -1); /* 128 is QS_AO_IDS */

	struct qs_tx tx;
	uint8_t out[QS_TX_FRAME_MAX];
	qs_tx_init(&tx, 4);
	size_t n = qs_tx_loc_filter(&tx, loc, out);
	assert_int_equal(out[1], QS_RX_LOC_FILTER);
	assert_int_equal(out[2], 16);
	assert_good_frame(out, n, QS_RX_LOC_FILTER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_tick_peek_objects),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_global_filter),
		cmocka_unit_test(test_local_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
