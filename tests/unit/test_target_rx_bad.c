/*
 * test_target_rx_bad.c -- malformed and refused commands (docs/protocol.md
 * §9.2): each is answered with the right status (or, for frames under 3
 * bytes, not at all), and the library state -- filters, counters, flags,
 * mode, time, the ring's contents and read position -- is byte-identical
 * before and after, apart from the one reply frame.  Fed whole, byte by byte
 * and in uneven chunks; after each, a good command still works.
 */
#include "test_target_rx.h"

static uint8_t ring[4096];
static uint8_t mem[128];
static const enum rx_how *how_now;

/* A library state with some history: filters changed, records written,
 * refused and reported, everything drained, no rare condition pending. */
static void setup(void **state)
{
	struct tgt_frames fr;
	unsigned i;

	how_now = *state;
	sonde_rx_byte(SONDE_FLAG);
	sonde_rx_set_app_callback(NULL);
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, RX_CLOCK);
	sonde_filter_record(SONDE_REC_MARK, 0);
	sonde_filter_object(7, 0);
	sonde_isr_enter(1);
	sonde_stop();
	sonde_isr_enter(1);
	sonde_start();
	sonde_isr_exit(1);
	rx_drain(&fr);
	tgt_frames_free(&fr);
	assert_int_equal(sonde_g.flags, 0);
	for (i = 0; i < sizeof mem; i++)
		mem[i] = (uint8_t)i;
	assert_int_equal(sonde_rx_region(mem, sizeof mem, SONDE_RX_READ | SONDE_RX_WRITE), 0);
}

static void teardown(void)
{
	assert_int_equal(sonde_rx_region(mem, 0, 0), 0);
	sonde_filter_all_records(1);
	sonde_filter_all_objects(1);
}

/* Feed wire[n]; expect exactly the reply (seq, cmd, st) -- or nothing when
 * frames is 0 -- and the state otherwise untouched.  Then a good command
 * (STATS) must be answered: the parser is in step again. */
static void expect_refused(const uint8_t *wire, size_t n, unsigned frames, uint8_t seq, uint8_t cmd, uint8_t st)
{
	static struct rx_snap before;
	uint8_t mem_before[sizeof mem];
	struct tgt_frames fr;

	assert_int_equal(sonde_pending(), 0);
	rx_snap_take(&before, ring, sizeof ring);
	memcpy(mem_before, mem, sizeof mem);
	rx_feed_how(*how_now, wire, n);
	if (frames == 0) {
		assert_int_equal(sonde_pending(), 0);
		assert_memory_equal(&sonde_g, &before.g, sizeof sonde_g);
		assert_memory_equal(ring, before.ring, sizeof ring);
	} else {
		rx_snap_expect_one_frame(&before, ring, sonde_pending());
		rx_expect_only_status(seq, cmd, st);
	}
	assert_memory_equal(mem, mem_before, sizeof mem);

	rx_send(*how_now, 0xEE, SONDE_CMD_STATS, NULL, 0);
	rx_drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TARGET_STATS);
	rx_expect_status(&fr.f[1], 0xEE, SONDE_CMD_STATS, SONDE_ST_OK);
	tgt_frames_free(&fr);
}

/* Encode (seq, cmd, d[n]) and expect it refused with st. */
static void expect_cmd_refused(uint8_t seq, uint8_t cmd, const uint8_t *d, size_t n, uint8_t st)
{
	uint8_t w[2 * (300 + 3) + 1];

	assert_true(n <= 300);
	expect_refused(w, hdlc_encode(seq, cmd, d, n, w), 1, seq, cmd, st);
}

static void test_bad_checksum(void **state)
{
	uint8_t d[32] = { 0 }, w[80];
	size_t n;

	setup(state);
	/* LOC_FILTER, all objects off -- but one DATA byte changed on the way. */
	n = hdlc_encode(0x21, SONDE_CMD_LOC_FILTER, d, sizeof d, w);
	w[10] = 0x01;
	expect_refused(w, n, 1, 0x21, SONDE_CMD_LOC_FILTER, SONDE_ST_BAD_CHECKSUM);
	/* The checksum byte itself wrong. */
	n = hdlc_encode(0x22, SONDE_CMD_STOP, NULL, 0, w);
	w[n - 2] ^= 0x01;
	expect_refused(w, n, 1, 0x22, SONDE_CMD_STOP, SONDE_ST_BAD_CHECKSUM);
	/* SEQ damaged: echoed as received. */
	n = hdlc_encode(0x23, SONDE_CMD_STOP, NULL, 0, w);
	w[0] = 0x63;
	expect_refused(w, n, 1, 0x63, SONDE_CMD_STOP, SONDE_ST_BAD_CHECKSUM);
	/* Aborted: an escape right before the flag, even with a good sum. */
	n = hdlc_encode(0x24, SONDE_CMD_STOP, NULL, 0, w);
	w[n - 1] = SONDE_ESC;
	w[n] = SONDE_FLAG;
	expect_refused(w, n + 1, 1, 0x24, SONDE_CMD_STOP, SONDE_ST_BAD_CHECKSUM);
	teardown();
}

/* Every command with one DATA byte too many, and one too few. */
static void test_bad_length(void **state)
{
	static const uint8_t len[] = { 0, 0, 16, 32, 0, 0, 0, 0, 0, 13, SONDE_ADDR_SIZE + 1, 0, 0 };
	uint8_t d[40] = { 0 };
	unsigned cmd;

	setup(state);
	d[SONDE_ADDR_SIZE] = 1; /* PEEK n */
	for (cmd = SONDE_CMD_INFO; cmd <= SONDE_CMD_STATS; cmd++) {
		if (cmd == SONDE_CMD_POKE)
			continue;
		expect_cmd_refused((uint8_t)cmd, (uint8_t)cmd, d, len[cmd] + 1u, SONDE_ST_BAD_LENGTH);
		if (len[cmd] > 0)
			expect_cmd_refused((uint8_t)cmd, (uint8_t)cmd, d, len[cmd] - 1u, SONDE_ST_BAD_LENGTH);
	}
	/* PEEK with the address of a good region but a byte short: no read. */
	expect_cmd_refused(0x30, SONDE_CMD_PEEK, d, 1, SONDE_ST_BAD_LENGTH);
	teardown();
}

static void test_unknown(void **state)
{
	static const uint8_t ids[] = { 0x00, 0x0D, 0x20, 0x21, 0x40, 0x7D, 0x7E, 0x80, 0xFF };
	uint8_t d[4] = { 1, 2, 3, 4 };
	size_t i;

	setup(state);
	for (i = 0; i < sizeof ids; i++) {
		expect_cmd_refused(0x40, ids[i], NULL, 0, SONDE_ST_UNKNOWN_CMD);
		expect_cmd_refused(0x41, ids[i], d, sizeof d, SONDE_ST_UNKNOWN_CMD);
	}
	teardown();
}

static void test_too_long(void **state)
{
	static uint8_t d[1200];
	uint8_t w[2 * (SONDE_CFG_RX_MAX + 3) + 1];
	size_t n, i;

	setup(state);
	/* SONDE_CFG_RX_MAX bytes in all is still taken (and too long for LOC_FILTER). */
	expect_cmd_refused(0x50, SONDE_CMD_LOC_FILTER, d, SONDE_CFG_RX_MAX - 3, SONDE_ST_BAD_LENGTH);
	/* One more, with a good checksum: TOO_LONG, nothing done. */
	expect_cmd_refused(0x51, SONDE_CMD_LOC_FILTER, d, SONDE_CFG_RX_MAX - 2, SONDE_ST_TOO_LONG);
	/* Far longer, escapes included: one reply. */
	for (i = 0; i < 300; i++)
		d[i] = (uint8_t)(0x7C + i % 3);
	expect_cmd_refused(0x52, SONDE_CMD_GLB_FILTER, d, 300, SONDE_ST_TOO_LONG);
	/* Too long and a bad checksum: too long wins (the checksum was not kept). */
	n = hdlc_encode(0x53, SONDE_CMD_STOP, d + 600, SONDE_CFG_RX_MAX - 2, w);
	w[n - 2] ^= 0x01;
	expect_refused(w, n, 1, 0x53, SONDE_CMD_STOP, SONDE_ST_TOO_LONG);
	teardown();
}

static void put_addr(uint8_t *p, uintptr_t a)
{
	uint64_t v = a;
	unsigned i;

	for (i = 0; i < SONDE_ADDR_SIZE; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void peek_refused(uintptr_t a, unsigned n)
{
	uint8_t d[SONDE_ADDR_SIZE + 1];

	put_addr(d, a);
	d[SONDE_ADDR_SIZE] = (uint8_t)n;
	expect_cmd_refused(0x60, SONDE_CMD_PEEK, d, sizeof d, SONDE_ST_OUT_OF_REGION);
}

static void test_out_of_region(void **state)
{
	uintptr_t m = (uintptr_t)mem, top = UINTPTR_MAX;

	setup(state);
	peek_refused(m, 0);                 /* n out of range */
	peek_refused(m, 65);
	peek_refused(m, 255);
	peek_refused(m - 1, 1);             /* just before */
	peek_refused(m - 1, 2);             /* straddles the start */
	peek_refused(m + sizeof mem, 1);    /* just after */
	peek_refused(m + sizeof mem - 1, 2); /* straddles the end */
	peek_refused(m + sizeof mem - 63, 64);
	peek_refused(0, 64);
	peek_refused(top, 1);
	peek_refused(top - 3, 64);

	/* Fake regions near the top of the address space (never read: the
	 * peeks are refused).  A check written as addr + n <= start + len
	 * would wrap round and let these through. */
	assert_int_equal(sonde_rx_region((const void *)(top - 255), 240, SONDE_RX_READ), 0);
	peek_refused(top - 1, 8);           /* addr + n wraps to 6 */
	peek_refused(top - 15, 16);         /* the 16 bytes above the region */
	peek_refused(top - 16, 2);          /* straddles its end */
	peek_refused(top - 256, 1);         /* just below */
	assert_int_equal(sonde_rx_region((const void *)(top - 255), 0, 0), 0);
	assert_int_equal(sonde_rx_region((const void *)(top - 15), 16, SONDE_RX_READ), 0); /* ends at the top */
	peek_refused(top - 3, 8);
	peek_refused(top, 2);
	peek_refused(top - 16, 1);
	assert_int_equal(sonde_rx_region((const void *)(top - 15), 0, 0), 0);
	/* A region low in memory, and a read from the top that wraps into it. */
	assert_int_equal(sonde_rx_region((const void *)16, 64, SONDE_RX_READ), 0);
	peek_refused(top - 7, 64);
	peek_refused(8, 16);
	assert_int_equal(sonde_rx_region((const void *)16, 0, 0), 0);

	/* Registered for writing only: no PEEK. */
	assert_int_equal(sonde_rx_region(mem, sizeof mem, SONDE_RX_WRITE), 0);
	peek_refused(m, 1);
	teardown();
}

static void test_not_supported(void **state)
{
	uint8_t d[SONDE_ADDR_SIZE + 1 + 4];
	uint8_t app[13] = { 1 };

	setup(state);
	/* POKE is compiled out by default: well-formed, into a writable
	 * region, still refused, memory unchanged (expect_refused checks). */
	put_addr(d, (uintptr_t)mem);
	d[SONDE_ADDR_SIZE] = 4;
	memset(d + SONDE_ADDR_SIZE + 1, 0xAA, 4);
	expect_cmd_refused(0x70, SONDE_CMD_POKE, d, sizeof d, SONDE_ST_NOT_SUPPORTED);
	/* APP without a callback. */
	expect_cmd_refused(0x71, SONDE_CMD_APP, app, sizeof app, SONDE_ST_NOT_SUPPORTED);
	teardown();
}

static void test_bad_state(void **state)
{
	setup(state);
	/* Streaming mode: nothing to freeze. */
	expect_cmd_refused(0x80, SONDE_CMD_TRIGGER, NULL, 0, SONDE_ST_BAD_STATE);
	expect_cmd_refused(0x81, SONDE_CMD_READOUT, NULL, 0, SONDE_ST_BAD_STATE);
	/* Stopped: INFO's records would be refused, so it does nothing. */
	sonde_stop();
	expect_cmd_refused(0x82, SONDE_CMD_INFO, NULL, 0, SONDE_ST_BAD_STATE);
	sonde_start();
	teardown();
}

/* Under 3 bytes, or empty: dropped without a reply, nothing changes. */
static void test_short(void **state)
{
	static const uint8_t cases[][4] = {
		{ 0x7E }, { 0x05, 0x7E }, { 0x05, 0x05, 0x7E }, { 0x7D, 0x7E }, { 0x05, 0x7D, 0x7E },
		{ 0x7D, 0x5E, 0x7E }, { 0x7D, 0x5E, 0x7D, 0x7E },
	};
	static const size_t len[] = { 1, 2, 3, 2, 3, 3, 4 };
	size_t i;

	setup(state);
	for (i = 0; i < sizeof len / sizeof len[0]; i++)
		expect_refused(cases[i], len[i], 0, 0, 0, 0);
	teardown();
}

#define RX_T(f)                                                              \
	{ #f " (whole)", f, NULL, NULL, (void *)&rx_how_whole },             \
	{ #f " (bytes)", f, NULL, NULL, (void *)&rx_how_bytes },             \
	{ #f " (chunks)", f, NULL, NULL, (void *)&rx_how_chunks }

int main(void)
{
	const struct CMUnitTest tests[] = {
		RX_T(test_bad_checksum),
		RX_T(test_bad_length),
		RX_T(test_unknown),
		RX_T(test_too_long),
		RX_T(test_out_of_region),
		RX_T(test_not_supported),
		RX_T(test_bad_state),
		RX_T(test_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
