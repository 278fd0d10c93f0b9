/*
 * test_sonde_rxcmd.c -- receive-channel commands on the host side
 * (host/src/proto/sonde/sonde_rxcmd.h, proto/qs/qs_rxcmd.h): words to DATA exactly as docs/protocol.md §9
 * lays them out, the filter lists, framing (also with a spoiled checksum),
 * the names of statuses, the QS-RX variants against qs_tx, and the reply
 * watcher fed one byte at a time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proto/qs/qs_rxcmd.h"
#include "proto/sonde/sonde_rxcmd.h"
#include "framers/framer_hdlc.h"
#include "proto/qs/qs_tx.h"
#include "sonde_proto.h"

static int parse(const char *line, unsigned addr_size, struct rxcmd *c, char *why)
{
	static char buf[256];
	char *words[16];
	int n = 0;
	strcpy(buf, line);
	for (char *t = strtok(buf, " "); t && n < 16; t = strtok(NULL, " "))
		words[n++] = t;
	return rxcmd_parse(words, n, addr_size, c, why, 256);
}

static struct rxcmd ok(const char *line, unsigned addr_size)
{
	struct rxcmd c;
	char why[256];
	if (parse(line, addr_size, &c, why) != 0)
		fail_msg("'%s': %s", line, why);
	return c;
}

static void bad(const char *line, const char *why_part)
{
	struct rxcmd c;
	char why[256] = "";
	assert_int_equal(parse(line, 4, &c, why), -1);
	if (!strstr(why, why_part))
		fail_msg("'%s': expected '%s' in '%s'", line, why_part, why);
}

static int bit(const uint8_t *bits, unsigned i)
{
	return bits[i / 8] >> (i % 8) & 1;
}

static void test_simple_commands(void **state)
{
	(void)state;
	static const struct { const char *w; uint8_t id; } t[] = {
		{ "info", SONDE_CMD_INFO },       { "start", SONDE_CMD_START },
		{ "stop", SONDE_CMD_STOP },       { "trigger", SONDE_CMD_TRIGGER },
		{ "readout", SONDE_CMD_READOUT }, { "reset", SONDE_CMD_RESET_CTRS },
		{ "stats", SONDE_CMD_STATS },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct rxcmd c = ok(t[i].w, 4);
		assert_int_equal(c.id, t[i].id);
		assert_int_equal(c.n, 0);
	}
	bad("stop now", "takes 0 arguments");
	bad("launch", "unknown command 'launch'");
	assert_string_equal(rxcmd_name(SONDE_CMD_GLB_FILTER), "GLB_FILTER");
	assert_string_equal(rxcmd_name(0x1F), "0x1F");
	assert_string_equal(rxcmd_status_name(SONDE_ST_OUT_OF_REGION), "OUT_OF_REGION");
	assert_string_equal(rxcmd_status_name(SONDE_ST_BAD_STATE), "BAD_STATE");
	assert_string_equal(rxcmd_status_name(0x81), "APP_0x81");
	assert_string_equal(rxcmd_status_name(0x20), "0x20");
}

static void test_glb_filter(void **state)
{
	(void)state;
	struct rxcmd c = ok("glb-filter -LOG", 4);
	assert_int_equal(c.id, SONDE_CMD_GLB_FILTER);
	assert_int_equal(c.n, 16);
	for (unsigned r = 0; r < 128; r++)
		assert_int_equal(bit(c.data, r), r != SONDE_REC_LOG);

	c = ok("glb-filter none +ISR +0x40-0x41 +task", 4);
	for (unsigned r = 0; r < 128; r++)
		assert_int_equal(bit(c.data, r), r == 5 || r == 6 || r == 0x40 || r == 0x41 || (r >= 7 && r <= 0x0B));

	c = ok("glb-filter all -USER +0x7F", 4);
	for (unsigned r = 0; r < 128; r++)
		assert_int_equal(bit(c.data, r), r < 0x40 || r == 0x7F);

	c = ok("glb-filter none", 4);
	for (unsigned i = 0; i < 16; i++)
		assert_int_equal(c.data[i], 0);
	bad("glb-filter", "needs a list");
	bad("glb-filter -NOPE", "'-NOPE' is not a record id");
	bad("glb-filter 128", "is not a record id");
	bad("glb-filter 0x50-0x40", "is not a record id");
}

static void test_loc_filter(void **state)
{
	(void)state;
	struct rxcmd c = ok("loc-filter none +1-3 +255", 4);
	assert_int_equal(c.id, SONDE_CMD_LOC_FILTER);
	assert_int_equal(c.n, 32);
	for (unsigned o = 0; o < 256; o++)
		assert_int_equal(bit(c.data, o), (o >= 1 && o <= 3) || o == 255);
	c = ok("loc-filter -5", 4);
	for (unsigned o = 0; o < 256; o++)
		assert_int_equal(bit(c.data, o), o != 5);
	bad("loc-filter 256", "is not an object id");
	bad("loc-filter ISR", "is not an object id");
}

static void test_app_peek_poke(void **state)
{
	(void)state;
	struct rxcmd c = ok("app 1 0x11223344 2", 4);
	static const uint8_t app[] = { 1, 0x44, 0x33, 0x22, 0x11, 2, 0, 0, 0, 0, 0, 0, 0 };
	assert_int_equal(c.n, sizeof(app));
	assert_memory_equal(c.data, app, sizeof(app));
	bad("app 256", "bad command");
	bad("app 1 0x100000000", "bad argument");
	bad("app", "takes 1 to 4 arguments");

	c = ok("peek 0x20000004 12", 4);
	static const uint8_t peek[] = { 0x04, 0x00, 0x00, 0x20, 12 };
	assert_int_equal(c.n, sizeof(peek));
	assert_memory_equal(c.data, peek, sizeof(peek));
	c = ok("peek 0x1122334455667788 64", 8);
	static const uint8_t peek8[] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 64 };
	assert_memory_equal(c.data, peek8, sizeof(peek8));
	bad("peek 0x100000000 4", "bad address"); /* does not fit 4 bytes */
	bad("peek 0x1000 65", "bad length");
	bad("peek 0x1000 0", "1 to 64");

	c = ok("poke 0x2000 de:ad BE ef", 4);
	static const uint8_t poke[] = { 0x00, 0x20, 0, 0, 4, 0xde, 0xad, 0xbe, 0xef };
	assert_int_equal(c.n, sizeof(poke));
	assert_memory_equal(c.data, poke, sizeof(poke));
	bad("poke 0x2000 abc", "odd number of hex digits");
	bad("poke 0x2000 xy", "bad hex bytes");
	bad("poke 0x2000", "takes an address and the bytes");
}

static void test_frames(void **state)
{
	(void)state;
	struct rxcmd c = ok("peek 0x7e7d 1", 4);
	uint8_t got[RXCMD_FRAME_MAX], want[RXCMD_FRAME_MAX];
	size_t n = rxcmd_frame(&c, 0x7E, 0, got);
	size_t wn = hdlc_encode(0x7E, SONDE_CMD_PEEK, c.data, c.n, want);
	assert_int_equal(n, wn);
	assert_memory_equal(got, want, n);
	/* escaped SEQ, escaped data, flag at the end only */
	assert_int_equal(got[0], 0x7D);
	assert_int_equal(got[1], 0x5E);
	assert_int_equal(got[n - 1], 0x7E);

	/* a spoiled checksum: same bytes up to the checksum, which no longer sums to 0xFF */
	for (unsigned seq = 0; seq < 256; seq += 51) {
		n = rxcmd_frame(&c, (uint8_t)seq, 1, got);
		uint8_t raw[64];
		size_t k = 0;
		for (size_t i = 0; i + 1 < n; i++)
			raw[k++] = got[i] == 0x7D ? (uint8_t)(got[++i] ^ 0x20) : got[i];
		assert_int_equal(got[n - 1], 0x7E);
		assert_int_equal(k, c.n + 3);
		assert_int_equal(raw[0], seq);
		assert_int_equal(raw[1], SONDE_CMD_PEEK);
		assert_memory_equal(raw + 2, c.data, c.n);
		uint8_t sum = 0;
		for (size_t i = 0; i < k; i++)
			sum = (uint8_t)(sum + raw[i]);
		assert_int_not_equal(sum, 0xFF);
	}
}

static void test_qs(void **state)
{
	(void)state;
	char *w[8];
	char why[256];
	struct rxcmd c;
	struct qs_tx tx;
	uint8_t want[QS_TX_FRAME_MAX];
	char tick[] = "tick", one[] = "1";
	w[0] = tick;
	w[1] = one;
	assert_int_equal(qs_rxcmd_parse(w, 2, 5, 4, &c, why, sizeof(why)), 0);
	qs_tx_init(&tx, 4);
	tx.seq = 4;
	size_t wn = qs_tx_tick(&tx, 1, want);
	assert_int_equal(c.qs_len, wn);
	assert_memory_equal(c.qs_frame, want, wn);
	assert_int_equal(c.qs_reply, 66);
	uint8_t out[RXCMD_FRAME_MAX];
	assert_int_equal(rxcmd_frame(&c, 99, 0, out), wn); /* QS frames carry their own SEQ */

	char glb[] = "glb-filter", none[] = "none", u0[] = "+U0";
	w[0] = glb;
	w[1] = none;
	w[2] = u0;
	assert_int_equal(qs_rxcmd_parse(w, 3, 1, 4, &c, why, sizeof(why)), 0);
	uint8_t bits[16] = { 0 };
	qs_glb_filter_set(bits, QS_ALL_RECORDS, 0);
	qs_glb_filter_set(bits, QS_U0_RECORDS, 1);
	qs_tx_init(&tx, 4);
	wn = qs_tx_glb_filter(&tx, bits, want);
	assert_int_equal(c.qs_len, wn);
	assert_memory_equal(c.qs_frame, want, wn);

	char reset[] = "reset";
	w[0] = reset;
	assert_int_equal(qs_rxcmd_parse(w, 1, 1, 4, &c, why, sizeof(why)), 0);
	assert_int_equal(c.qs_reply, -1);
	char peek[] = "peek", off[] = "2", size3[] = "3", cnt[] = "1";
	w[0] = peek;
	w[1] = off;
	w[2] = size3;
	w[3] = cnt;
	assert_int_equal(qs_rxcmd_parse(w, 4, 1, 4, &c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "size must be 1, 2 or 4"));
}

struct seen {
	const struct rxwatch *w;
	int n;
	uint8_t seq, cmd, st;
};

static void on_frame(void *ctx, uint8_t seq, uint8_t id, const uint8_t *d, size_t n)
{
	struct seen *s = ctx;
	(void)seq;
	if (rxwatch_fields(s->w, id, &d, &n) != 0)
		return;
	if (id == SONDE_REC_CMD_STATUS && rxcmd_status(d, n, &s->seq, &s->cmd, &s->st) == 0)
		s->n++;
}

/* The watcher finds CMD_STATUS in a stream joined mid-way, in the version
 * its TARGET_INFO says (version 1: timestamp first; version 2: last), or,
 * with none, in the version its owner set (2 by default); malformed replies
 * are ignored. */
static void test_watcher(void **state)
{
	(void)state;
	for (unsigned v = 1; v <= 2; v++) {
		for (int with_info = 0; with_info <= 1; with_info++) {
			uint8_t stream[256];
			size_t k = 0;
			const uint8_t info[18] = { (uint8_t)v, 0, 8, 0, 0, v == 1 ? 2 : 0 };
			static const uint8_t st1[5] = { 0x34, 0x12, 0x7E, SONDE_CMD_PEEK, SONDE_ST_OUT_OF_REGION };
			static const uint8_t st2[5] = { 0x7E, SONDE_CMD_PEEK, SONDE_ST_OUT_OF_REGION, 0x34, 0x92 };
			static const uint8_t short1[4] = { 0, 0, 1, 2 };
			static const uint8_t badtag2[4] = { 1, 2, 3, 0xF0 };
			stream[k++] = 0x55; /* joined mid-way: garbage first */
			stream[k++] = 0x7E;
			if (with_info)
				k += hdlc_encode(0, SONDE_REC_TARGET_INFO, info, sizeof(info), stream + k);
			/* malformed: ignored */
			k += hdlc_encode(1, SONDE_REC_CMD_STATUS, v == 1 ? short1 : badtag2, 4, stream + k);
			k += hdlc_encode(2, SONDE_REC_CMD_STATUS, v == 1 ? st1 : st2, 5, stream + k);
			struct rxwatch w;
			struct seen s = { &w, 0, 0, 0, 0 };
			rxwatch_init(&w, on_frame, &s);
			assert_int_equal(w.addr_size, 4);
			assert_int_equal(w.version, SONDE_PROTO_VERSION);
			if (!with_info)
				w.version = v; /* as -o version= or --proto-version would */
			for (size_t i = 0; i < k; i++)
				rxwatch_feed(&w, stream + i, 1);
			assert_int_equal(w.addr_size, with_info ? 8 : 4); /* from TARGET_INFO */
			assert_int_equal(w.version, v);
			assert_int_equal(w.info_seen, with_info);
			assert_int_equal(s.n, 1);
			assert_int_equal(s.seq, 0x7E);
			assert_int_equal(s.cmd, SONDE_CMD_PEEK);
			assert_int_equal(s.st, SONDE_ST_OUT_OF_REGION);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_commands), cmocka_unit_test(test_glb_filter),
		cmocka_unit_test(test_loc_filter),      cmocka_unit_test(test_app_peek_poke),
		cmocka_unit_test(test_frames),          cmocka_unit_test(test_qs),
		cmocka_unit_test(test_watcher),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
