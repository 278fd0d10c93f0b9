/*
 * test_target_miniprof.c -- the MiniProfiler device module (target/
 * miniprof/), on the POSIX port with a fake clock at 25 ticks per
 * microsecond (like the 25 MHz MPS2 board), its output read by the host's
 * parser (host/src/proto/miniprof: written separately, from the same
 * document, so each checks the other).
 *
 * Packets byte for byte (ACK, the CRC check value); every command and its
 * answer; bad packets (header, checksum with resynchronisation, length,
 * code) answered NACK and changing nothing; a command cut short by a host
 * that went away; the call tree recorded with exact microseconds, depth and
 * address, only inside a session; the answer to STOP after every record
 * before it; overflow, RESET_BUFFERS, depth, mismatch; the clock's 32-bit
 * wrap; any drain chunk size; random command bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/miniprof/mp_parser.h"
#include "proto/miniprof/mp_wire.h"
#include "tgt_frames.h"

/* The module compiled here with this test's settings: 25 ticks per us, a
 * small ring and a shallow stack to reach their limits. */
#define SONDE_MP_TICKS_PER_US 25u
#define SONDE_MP_RECORDS 16u
#define SONDE_MP_DEPTH 8u
#define SONDE_MP_PACKET_RECORDS 5u
#define SONDE_MP_CPU_HZ 25000000u
#include "../../target/miniprof/sonde_mp.c"
#include "../../target/miniprof/sonde_mp_rx.c"
#include "../../target/miniprof/sonde_mp_tx.c"

#define US 25u /* ticks */

/* ---- the host's view of the device's bytes ------------------------------ */

struct got {
	unsigned n, types[256];
	struct mp_metadata meta;
	struct mp_status status[16];
	unsigned nstatus;
	struct mp_record rec[512];
	unsigned nrec;
	unsigned diags;
	unsigned order[512]; /* type of each packet, PROFILE_DATA once per record */
	unsigned norder;
};

static void on_packet(void *ctx, const struct mp_packet *pk)
{
	struct got *g = ctx;
	if (g->n < 256)
		g->types[g->n] = pk->type;
	g->n++;
	if (pk->type == MP_RSP_METADATA)
		assert_int_equal(mp_metadata_decode(pk->payload, pk->len, &g->meta), 0);
	if (pk->type == MP_RSP_STATUS)
		assert_int_equal(mp_status_decode(pk->payload, pk->len, &g->status[g->nstatus++]), 0);
	if (pk->type == MP_RSP_PROFILE_DATA) {
		assert_int_equal(pk->payload[0], 1);
		unsigned count = mp_le16(pk->payload + 1);
		assert_int_equal(pk->len, 3 + 14 * count);
		assert_true(count >= 1 && count <= SONDE_MP_PACKET_RECORDS);
		for (unsigned i = 0; i < count; i++) {
			mp_record_decode(pk->payload + 3 + 14 * i, &g->rec[g->nrec++]);
			g->order[g->norder++] = MP_RSP_PROFILE_DATA;
		}
	} else {
		g->order[g->norder++] = pk->type;
	}
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct got *g = ctx;
	(void)d;
	g->diags++;
}

/* Drain everything (in chunks of step bytes, 0: byte by byte) and parse it. */
static size_t drain_parse(struct got *g, size_t step, uint8_t *raw, size_t cap)
{
	size_t n = 0, k;
	memset(g, 0, sizeof(*g));
	if (step == 0) {
		int b;
		while ((b = sonde_mp_drain_byte()) >= 0) {
			assert_true(n < cap);
			raw[n++] = (uint8_t)b;
		}
	} else {
		while ((k = sonde_mp_drain(raw + n, n + step <= cap ? step : cap - n)) > 0)
			n += k;
	}
	struct mp_parser_cb cb = { on_packet, on_diag, g };
	assert_int_equal(mp_parse_buffer(NULL, raw, n, &cb), 0);
	assert_int_equal(g->diags, 0);
	return n;
}

static struct got G;
static uint8_t RAW[1 << 16];

static void drain_all(void)
{
	drain_parse(&G, 64, RAW, sizeof(RAW));
}

static void send_cmd(unsigned cmd)
{
	uint8_t p[MP_CMD_LEN];
	mp_cmd_encode(p, cmd, NULL, 0);
	sonde_mp_rx_feed(p, sizeof(p));
}

static void setup(uint32_t clock)
{
	tgt_fake_clock(clock);
	memset(&sonde_mp_g, 0, sizeof(sonde_mp_g));
	sonde_mp_init(0xC0FFEE01u, "test 1.2");
	drain_all(); /* the start-up METADATA */
}

/* A call of fn lasting dur ticks, with body() between (nested calls). */
#define F(n) ((const void *)(uintptr_t)(0x1000u + 0x10u * (n)))

/* ---- packets byte for byte ------------------------------------------------ */

static void test_ack_bytes(void **state)
{
	(void)state;
	setup(1000);
	assert_int_equal(G.n, 1);
	assert_int_equal(G.types[0], MP_RSP_METADATA);
	assert_int_equal(G.meta.mcu_clock_hz, 25000000u);
	assert_int_equal(G.meta.timer_freq, 1000000u);
	assert_int_equal(G.meta.elf_build_id, 0xC0FFEE01u);
	assert_string_equal(G.meta.fw_version, "test 1.2");
	assert_true(G.meta.fw_terminated);
	/* CRC-16/CCITT-FALSE check value */
	assert_int_equal(sonde_mp_crc16(0xFFFF, (const uint8_t *)"123456789", 9), 0x29B1);
	assert_int_equal(sonde_mp_crc32("123456789", 9), 0xCBF43926u);
	send_cmd(MP_CMD_START);
	uint8_t b[16];
	size_t n = sonde_mp_drain(b, sizeof(b));
	assert_int_equal(n, 8);
	uint16_t crc = mp_crc16(MP_CRC_INIT, (const uint8_t *)"\xAA\x55\x01\x00\x00", 5);
	const uint8_t want[8] = { 0xAA, 0x55, 0x01, 0x00, 0x00, (uint8_t)crc, (uint8_t)(crc >> 8), 0x0A };
	assert_memory_equal(b, want, 8);
	assert_int_equal(sonde_mp_drain(b, sizeof(b)), 0);
}

/* Every command and its answer; SET_CONFIG through the callback. */
static int cb_calls, cb_last, cb_len, cb_refuse;
static int app_cb(uint8_t cmd, const uint8_t *payload, uint8_t len)
{
	cb_calls++;
	cb_last = cmd;
	cb_len = len;
	(void)payload;
	return cb_refuse;
}

static void test_commands(void **state)
{
	(void)state;
	setup(5000);
	cb_calls = 0;
	sonde_mp_set_command_callback(app_cb);
	send_cmd(MP_CMD_METADATA);
	send_cmd(MP_CMD_STATUS);
	send_cmd(MP_CMD_START);
	send_cmd(MP_CMD_STATUS);
	drain_all();
	assert_int_equal(G.n, 4);
	assert_int_equal(G.types[0], MP_RSP_METADATA);
	assert_int_equal(G.types[1], MP_RSP_STATUS);
	assert_int_equal(G.types[2], MP_RSP_ACK);
	assert_int_equal(G.types[3], MP_RSP_STATUS);
	assert_int_equal(G.status[0].is_profiling, 0);
	assert_int_equal(G.status[1].is_profiling, 1);
	assert_int_equal(cb_calls, 4);
	assert_int_equal(cb_last, MP_CMD_STATUS);
	send_cmd(MP_CMD_STOP);
	send_cmd(MP_CMD_RESET);
	uint8_t cfg[2] = { 7, 9 }, p[MP_CMD_LEN];
	mp_cmd_encode(p, MP_CMD_CONFIG, cfg, 2);
	sonde_mp_rx_feed(p, sizeof(p));
	cb_refuse = 1;
	sonde_mp_rx_feed(p, sizeof(p));
	cb_refuse = 0;
	drain_all();
	assert_int_equal(G.n, 4);
	assert_int_equal(G.types[0], MP_RSP_ACK);
	assert_int_equal(G.types[1], MP_RSP_ACK);
	assert_int_equal(G.types[2], MP_RSP_ACK);
	assert_int_equal(G.types[3], MP_RSP_NACK); /* the application refused it */
	assert_int_equal(cb_len, 2);
	sonde_mp_stats_t st;
	sonde_mp_get_stats(&st);
	assert_int_equal(st.profiling, 0);
	assert_int_equal(st.commands, 7);
	assert_int_equal(st.nacks, 1);
	sonde_mp_set_command_callback(NULL);
}

/* Bad packets: NACK, state unchanged, and the command after a damaged one
 * is still read. */
static void test_bad_packets(void **state)
{
	uint8_t p[MP_CMD_LEN], q[MP_CMD_LEN];
	unsigned types[16], n = 0;
	sonde_mp_stats_t st;
	(void)state;
	setup(5000);
#define ANSWERS()                                     \
	do {                                          \
		drain_all();                          \
		for (unsigned i_ = 0; i_ < G.n; i_++) \
			types[n++] = G.types[i_];     \
	} while (0)
	/* junk before a command: skipped, no answer for it */
	sonde_mp_rx_feed((const uint8_t *)"\x00\x13\xAA\xFF", 4);
	send_cmd(MP_CMD_STATUS);
	ANSWERS();
	/* a bad checksum: NACK */
	mp_cmd_encode(p, MP_CMD_START, NULL, 0);
	p[11] ^= 1;
	sonde_mp_rx_feed(p, sizeof(p));
	ANSWERS();
	/* length > 8 with a good checksum: NACK */
	mp_cmd_encode(p, MP_CMD_START, NULL, 0);
	p[2] = 9;
	p[11] = mp_cmd_sum(p);
	sonde_mp_rx_feed(p, sizeof(p));
	ANSWERS();
	/* unknown codes: NACK */
	mp_cmd_encode(p, MP_CMD_START, NULL, 0);
	p[1] = 0x07;
	p[11] = mp_cmd_sum(p);
	sonde_mp_rx_feed(p, sizeof(p));
	p[1] = 0x00;
	p[11] = mp_cmd_sum(p);
	sonde_mp_rx_feed(p, sizeof(p));
	ANSWERS();
	/* a byte lost: the packet runs into the next command, NACK, and that
	 * command is still answered (its header is found inside) */
	mp_cmd_encode(p, MP_CMD_RESET, NULL, 0);
	mp_cmd_encode(q, MP_CMD_STATUS, NULL, 0);
	sonde_mp_rx_feed(p, 5);
	sonde_mp_rx_feed(p + 6, 6);
	sonde_mp_rx_feed(q, sizeof(q));
	ANSWERS();
	unsigned want[] = { MP_RSP_STATUS, MP_RSP_NACK, MP_RSP_NACK, MP_RSP_NACK, MP_RSP_NACK, MP_RSP_NACK,
			    MP_RSP_STATUS };
	assert_int_equal(n, 7);
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(types[i], want[i]);
	sonde_mp_get_stats(&st);
	assert_int_equal(st.profiling, 0); /* no START was taken */
	assert_int_equal(st.nacks, 5);
	/* skipped: the junk; the bad-checksum packet's 11 bytes after its
	 * header (no other header in them); the 10 bytes of the cut packet
	 * before the next command's header */
	assert_int_equal(st.rx_garbage, 4 + 11 + 10);
	assert_int_equal(st.replies_lost, 0);
	/* more answers than the queue holds before the drain runs: the last
	 * ones are lost and counted (a host sends one command at a time) */
	for (unsigned i = 0; i < SONDE_MP_REPLIES + 2u; i++)
		send_cmd(MP_CMD_STATUS);
	drain_all();
	assert_int_equal(G.n, SONDE_MP_REPLIES);
	sonde_mp_get_stats(&st);
	assert_int_equal(st.replies_lost, 2);
#undef ANSWERS
}

/* A host that sends half a command and goes away: after the pause the
 * next host's command is read from its start. */
static void test_host_gone(void **state)
{
	uint8_t p[MP_CMD_LEN];
	sonde_mp_stats_t st;
	(void)state;
	setup(5000);
	mp_cmd_encode(p, MP_CMD_START, NULL, 0);
	sonde_mp_rx_feed(p, 7);
	tgt_now += 50000 * US; /* 50 ms: still the same command */
	sonde_mp_rx_feed(p + 7, 5);
	drain_all();
	assert_int_equal(G.n, 1);
	assert_int_equal(G.types[0], MP_RSP_ACK);
	sonde_mp_rx_feed(p, 7);
	tgt_now += 200000 * US; /* 200 ms: that host is gone */
	send_cmd(MP_CMD_STATUS);
	drain_all();
	assert_int_equal(G.n, 1);
	assert_int_equal(G.types[0], MP_RSP_STATUS);
	sonde_mp_get_stats(&st);
	assert_int_equal(st.rx_gaps, 1);
	assert_int_equal(st.nacks, 0);
}

/* ---- profiling --------------------------------------------------------------- */

static void call(unsigned fn, uint32_t before, void (*body)(void), uint32_t after)
{
	sonde_mp_enter(F(fn));
	tgt_now += before;
	if (body)
		body();
	tgt_now += after;
	sonde_mp_exit(F(fn));
}

static void leaf(void)
{
	call(3, 10 * US, NULL, 0);
}

static void mid(void)
{
	call(2, 5 * US, leaf, 7 * US);
}

/* main(1) -> mid(2) -> leaf(3): exact microseconds, depths, addresses,
 * callees first (completion order); calls outside the session are not
 * recorded; STOP's ACK after the records before it. */
static void test_tree(void **state)
{
	(void)state;
	setup(0x1000 * US + 3); /* not on a whole microsecond */
	call(1, 100, mid, 0);   /* before START: not recorded */
	send_cmd(MP_CMD_START);
	drain_all();
	uint32_t t0 = tgt_now;
	call(1, 20 * US, mid, 30 * US);
	call(4, 2 * US, NULL, 0);
	send_cmd(MP_CMD_STOP);
	call(1, 3, mid, 0); /* after STOP: not recorded */
	drain_all();
	assert_int_equal(G.nrec, 4);
	assert_int_equal(G.norder, 5);
	assert_int_equal(G.order[4], MP_RSP_ACK); /* after the four records */
	uint32_t us0 = t0 / US; /* the microsecond main began in */
	/* leaf: entered 20 + 5 us after main, 10 us long, depth 2 */
	assert_int_equal(G.rec[0].func_addr, 0x1030);
	assert_int_equal(G.rec[0].depth, 2);
	assert_int_equal(G.rec[0].entry_time, (t0 + 25 * US) / US);
	assert_int_equal(G.rec[0].duration_us, 10);
	assert_int_equal(G.rec[1].func_addr, 0x1020);
	assert_int_equal(G.rec[1].depth, 1);
	assert_int_equal(G.rec[1].entry_time, (t0 + 20 * US) / US);
	assert_int_equal(G.rec[1].duration_us, 22);
	assert_int_equal(G.rec[2].func_addr, 0x1010);
	assert_int_equal(G.rec[2].depth, 0);
	assert_int_equal(G.rec[2].entry_time, us0);
	assert_int_equal(G.rec[2].duration_us, 72);
	assert_int_equal(G.rec[3].func_addr, 0x1040);
	assert_int_equal(G.rec[3].entry_time, (t0 + 72 * US) / US);
	assert_int_equal(G.rec[3].duration_us, 2);
	sonde_mp_stats_t st;
	sonde_mp_get_stats(&st);
	assert_int_equal(st.captured, 4);
	assert_int_equal(st.pending, 0);
	/* a session begun while a call was open: that call is not recorded,
	 * its callees are */
	sonde_mp_enter(F(1));
	send_cmd(MP_CMD_START);
	mid();
	sonde_mp_exit(F(1));
	send_cmd(MP_CMD_STOP);
	drain_all();
	assert_int_equal(G.nrec, 2);
	assert_int_equal(G.rec[1].func_addr, 0x1020);
	assert_int_equal(G.rec[1].depth, 1);
}

/* Packets take what is there, at most SONDE_MP_PACKET_RECORDS; every chunk
 * size of the drain gives the same bytes. */
static void test_packets_and_chunks(void **state)
{
	static uint8_t ref[8192], raw[8192];
	size_t nref = 0;
	(void)state;
	for (size_t step = 0; step <= 40; step += (step < 3 ? 1 : 9)) {
		setup(777);
		send_cmd(MP_CMD_START);
		for (int i = 0; i < 13; i++)
			call(5, (uint32_t)(i * 7 + 1), NULL, 0);
		send_cmd(MP_CMD_STATUS);
		size_t n = drain_parse(&G, step, raw, sizeof(raw));
		assert_int_equal(G.nrec, 13);
		assert_int_equal(G.n, 1 + 3 + 1); /* ACK, 5 + 5 + 3 records, STATUS */
		assert_int_equal(G.status[0].records_captured, 13);
		if (step == 0) {
			memcpy(ref, raw, n);
			nref = n;
		} else {
			assert_int_equal(n, nref);
			assert_memory_equal(raw, ref, n);
		}
	}
}

/* A full ring: calls lost and counted; STATUS shows overflows and usage;
 * RESET_BUFFERS drops what waits and zeroes the counts. */
static void test_overflow_reset(void **state)
{
	(void)state;
	setup(100);
	send_cmd(MP_CMD_START);
	drain_all();
	for (int i = 0; i < 20; i++)
		call(6, 3, NULL, 0);
	send_cmd(MP_CMD_STATUS);
	drain_all();
	assert_int_equal(G.nrec, 16);
	assert_int_equal(G.status[0].buffer_overflows, 4);
	assert_int_equal(G.status[0].records_captured, 16);
	assert_int_equal(G.status[0].buffer_usage_percent, 100);
	assert_int_equal(G.status[0].is_profiling, 1);
	for (int i = 0; i < 8; i++)
		call(6, 3, NULL, 0);
	send_cmd(MP_CMD_RESET);
	send_cmd(MP_CMD_STATUS);
	call(7, 3, NULL, 0);
	drain_all();
	assert_int_equal(G.nrec, 1); /* the 8 before RESET are gone */
	assert_int_equal(G.rec[0].func_addr, 0x1070);
	assert_int_equal(G.status[0].buffer_overflows, 0);
	assert_int_equal(G.status[0].records_captured, 0);
	assert_int_equal(G.status[0].buffer_usage_percent, 0);
}

/* Deeper than SONDE_MP_DEPTH: those calls lost (counted), the others
 * recorded; an exit that does not match its entry; an exit without any. */
static void deep(int level)
{
	sonde_mp_enter(F(8));
	tgt_now += 1;
	if (level > 1)
		deep(level - 1);
	sonde_mp_exit(F(8));
}

static void test_depth_mismatch(void **state)
{
	sonde_mp_stats_t st;
	(void)state;
	setup(100);
	send_cmd(MP_CMD_START);
	deep(10);
	sonde_mp_enter(F(9));
	sonde_mp_exit(F(10)); /* not the function entered */
	sonde_mp_exit(F(11)); /* nothing open */
	drain_all();
	assert_int_equal(G.nrec, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(G.rec[i].depth, 7 - i);
	sonde_mp_get_stats(&st);
	assert_int_equal(st.too_deep, 2);
	assert_int_equal(st.overflows, 2);
	assert_int_equal(st.mismatched, 1);
	assert_int_equal(st.unmatched, 1);
}

/* The clock wraps at 2^32 ticks (171.8 s at 25 MHz): microseconds go on,
 * counted from the microsecond of the clock at start-up. */
static void test_clock_wrap(void **state)
{
	const uint32_t t0 = 0xFFFFFFFFu - 300 * US;
	const uint64_t base_tick = t0 - t0 % US, base_us = t0 / US;
	(void)state;
	setup(t0);
	send_cmd(MP_CMD_START);
	drain_all();
	tgt_now += 100 * US;
	call(1, 150 * US, mid, 150 * US); /* across the wrap: 322 us */
	drain_all();
	assert_int_equal(G.nrec, 3);
	assert_int_equal(G.rec[2].entry_time, (uint32_t)(base_us + ((uint64_t)t0 + 100 * US - base_tick) / US));
	assert_int_equal(G.rec[2].duration_us, 322);
	uint64_t t = (uint64_t)t0 + 422 * US;
	for (int i = 0; i < 3; i++) {
		tgt_now += 0x10000000u; /* long silences, the drain running in between */
		t += 0x10000000u;
		call(4, US, NULL, 0);
		drain_all();
		assert_int_equal(G.nrec, 1);
		assert_int_equal(G.rec[0].entry_time, (uint32_t)(base_us + (t - base_tick) / US));
		assert_int_equal(G.rec[0].duration_us, 1);
		t += US;
	}
}

/* Random bytes as commands: nothing breaks, every answer is a whole packet. */
static void test_random_commands(void **state)
{
	uint32_t lcg = 12345;
	(void)state;
	setup(100);
	for (int k = 0; k < 20000; k++) {
		lcg = lcg * 1103515245u + 12345u;
		uint8_t b = (uint8_t)(lcg >> 16);
		if ((lcg >> 8) % 5 == 0)
			b = 0x55;
		sonde_mp_rx_byte(b);
		if (k % 7 == 0)
			call(1, 3, mid, 2);
		if (k % 50 == 0)
			drain_all();
	}
	drain_all();
	send_cmd(MP_CMD_STATUS);
	drain_all();
	assert_int_equal(G.types[G.n - 1], MP_RSP_STATUS);
	assert_int_equal(sonde_mp_g.depth, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_bytes),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_bad_packets),
		cmocka_unit_test(test_host_gone),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_packets_and_chunks),
		cmocka_unit_test(test_overflow_reset),
		cmocka_unit_test(test_depth_mismatch),
		cmocka_unit_test(test_clock_wrap),
		cmocka_unit_test(test_random_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
