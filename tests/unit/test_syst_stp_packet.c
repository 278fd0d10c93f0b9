/*
 * test_syst_stp_packet.c -- the MIPI STPv2 packet decoder
 * (host/src/proto/syst/stp_packet.c).
 *
 * The reference sample (testdata/syst/stp/pub_64.stp) must give the
 * packets its independent listing (pub_64.packets.txt) names, at the same
 * nibble offsets with the same values and timestamps.  Streams made by the
 * tests' encoder (tests/unit/support/stp_enc.c) cover what the sample
 * lacks: every data size and variant, M8/C8, FLAG_TS, TRIG, errors, USER,
 * TIME, XSYNC, FREQ_40, every timestamp size, Gray timestamps, both nibble orders, and damage: garbage,
 * reserved opcodes, packets cut by ASYNC or by the end of the input.  Every
 * stream is decoded whole, a byte at a time and in uneven chunks, with the
 * same packets and errors each time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/stp_packet.h"
#include "stp_enc.h"
#include "test_file.h"

#define MAXP 4096
#define MAXE 64

struct err {
	enum stp_err code;
	uint64_t nib, nibs;
	char msg[300];
};

struct got {
	size_t np, ne;
	struct stp_packet p[MAXP];
	struct err e[MAXE];
};

static void on_packet(void *ctx, const struct stp_packet *p)
{
	struct got *g = ctx;
	if (g->np < MAXP)
		g->p[g->np] = *p;
	g->np++;
}

static void on_error(void *ctx, enum stp_err code, uint64_t nib, uint64_t nibs, const char *msg)
{
	struct got *g = ctx;
	if (g->ne < MAXE) {
		g->e[g->ne].code = code;
		g->e[g->ne].nib = nib;
		g->e[g->ne].nibs = nibs;
		snprintf(g->e[g->ne].msg, sizeof(g->e[0].msg), "%s", msg);
	}
	g->ne++;
}

/* chunk 0: whole; SIZE_MAX: uneven sizes 1..37 */
static struct got *run(const uint8_t *p, size_t n, int msn, size_t chunk)
{
	struct got *g = calloc(1, sizeof(*g));
	struct stp_dec d;
	assert_non_null(g);
	stp_init(&d, msn, on_packet, on_error, g);
	uint32_t rnd = 7;
	for (size_t pos = 0; pos < n;) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			rnd = rnd * 1103515245u + 12345u;
			k = 1 + (rnd >> 16) % 37;
		}
		if (k > n - pos)
			k = n - pos;
		stp_feed(&d, p + pos, k);
		pos += k;
	}
	stp_finish(&d);
	return g;
}

static void same(const struct got *a, const struct got *b)
{
	assert_int_equal(a->np, b->np);
	assert_int_equal(a->ne, b->ne);
	for (size_t i = 0; i < a->np && i < MAXP; i++) {
		assert_string_equal(a->p[i].name, b->p[i].name);
		assert_true(a->p[i].value == b->p[i].value && a->p[i].ts == b->p[i].ts);
		assert_true(a->p[i].nib == b->p[i].nib && a->p[i].nibs == b->p[i].nibs);
		assert_true(a->p[i].master == b->p[i].master && a->p[i].channel == b->p[i].channel);
	}
	for (size_t i = 0; i < a->ne && i < MAXE; i++) {
		assert_int_equal(a->e[i].code, b->e[i].code);
		assert_true(a->e[i].nib == b->e[i].nib && a->e[i].nibs == b->e[i].nibs);
		assert_string_equal(a->e[i].msg, b->e[i].msg);
	}
}

/* Decode whole, byte by byte and in uneven chunks: all the same. */
static struct got *decode(const uint8_t *p, size_t n, int msn)
{
	struct got *whole = run(p, n, msn, 0);
	size_t chunks[] = { 1, 2, 3, SIZE_MAX };
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct got *g = run(p, n, msn, chunks[i]);
		same(whole, g);
		free(g);
	}
	return whole;
}

/* ------------------------------------------------------------- sample */

static void test_sample_listing(void **state)
{
	(void)state;
	size_t n;
	uint8_t *stp = test_slurp(SONDE_TESTDATA "/syst/stp/pub_64.stp", &n);
	struct got *g = decode(stp, n, 0);
	/* the one nibble before the first ASYNC is a NULL: no loss, no report */
	assert_int_equal(g->ne, 0);

	FILE *f = fopen(SONDE_TESTDATA "/syst/stp/pub_64.packets.txt", "r");
	assert_non_null(f);
	char line[256];
	size_t i = 0, lines = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long nib, v = 0, ts = 0;
		char name[32];
		if (sscanf(line, "%llu %31s", &nib, name) != 2)
			continue;
		lines++;
		if (nib == 0)
			continue; /* the NULL before the first ASYNC is not a packet to a decoder out of sync */
		const char *s = strstr(line, " v=");
		if (s)
			v = strtoull(s + 3, NULL, 16);
		s = strstr(line, " ts=");
		int has_ts = s != NULL;
		if (s)
			ts = strtoull(s + 4, NULL, 10);
		assert_true(i < g->np);
		const struct stp_packet *p = &g->p[i++];
		assert_string_equal(p->name, name);
		assert_int_equal(p->nib, nib);
		if (p->kind != STP_K_ASYNC && p->kind != STP_K_NULL && p->kind != STP_K_FLAG)
			assert_int_equal(p->value, v);
		assert_int_equal(p->has_ts, has_ts);
		if (has_ts)
			assert_int_equal(p->ts, ts);
	}
	fclose(f);
	assert_int_equal(lines, 746);
	assert_int_equal(i, g->np);
	/* the masters and channels the message listing names */
	size_t starts = 0;
	for (size_t k = 0; k < g->np; k++) {
		if (g->p[k].kind != STP_K_DATA || !g->p[k].has_ts)
			continue;
		starts++;
		assert_true(g->p[k].master == 128 || g->p[k].master == 129);
		assert_true(g->p[k].channel >= 1 && g->p[k].channel <= 3);
	}
	assert_int_equal(starts, 84);
	free(g);
	free(stp);
}

/* ------------------------------------------------------ encoder-made */

static void head(struct stp_enc *e)
{
	stp_enc_async(e);
	stp_enc_version(e, 3);
	stp_enc_freq(e, 32, 1000000);
}

static void test_every_packet(void **state)
{
	(void)state;
	for (int msn = 0; msn < 2; msn++) {
		struct stp_enc e;
		stp_enc_init(&e, msn);
		head(&e);
		stp_enc_master(&e, 16, 0x1234);
		stp_enc_channel(&e, 16, 0xABCD);
		stp_enc_data(&e, 8, STP_ENC_PLAIN, 0x5A, 0, 0);
		stp_enc_data(&e, 16, STP_ENC_M, 0xBEEF, 0, 0);
		stp_enc_data(&e, 32, STP_ENC_TS, 0x01234567, 16, 0x1122334455667788ull);
		stp_enc_data(&e, 64, STP_ENC_MTS, 0x0123456789ABCDEFull, 4, 0xA5A5);
		stp_enc_data(&e, 4, STP_ENC_PLAIN, 0x9, 0, 0);
		stp_enc_channel(&e, 8, 0x42);  /* low byte only: 0xAB42 */
		stp_enc_master(&e, 8, 0x77);   /* low byte: 0x1277, channel 0 */
		stp_enc_data(&e, 64, STP_ENC_PLAIN, 0xFFFFFFFFFFFFFFFFull, 0, 0);
		stp_enc_flag(&e, 1, 14, 0x00ABCDEF01234567ull);
		stp_enc_op(&e, "F06"); /* TRIG */
		stp_enc_field(&e, 0x3C, 2);
		stp_enc_op(&e, "2"); /* MERR: channel 0 */
		stp_enc_field(&e, 0x11, 2);
		stp_enc_op(&e, "F2"); /* GERR: master and channel 0 */
		stp_enc_field(&e, 0x22, 2);
		stp_enc_op(&e, "F01"); /* NULL_TS, 1 nibble */
		stp_enc_ts(&e, 1, 0x9);
		stp_enc_flag(&e, 0, 0, 0);
		stp_enc_nibble(&e, 0);
		stp_enc_pad(&e);
		struct got *g = decode(e.buf, stp_enc_len(&e), msn);
		assert_int_equal(g->ne, 0);
		static const char *const names[] = { "ASYNC", "VERSION", "FREQ", "M16", "C16", "D8", "D16M",
						     "D32TS", "D64MTS", "D4", "C8", "M8", "D64", "FLAG_TS",
						     "TRIG", "MERR", "GERR", "NULL_TS", "FLAG", "NULL" };
		assert_int_equal(g->np, sizeof(names) / sizeof(names[0]));
		for (size_t i = 0; i < g->np; i++)
			assert_string_equal(g->p[i].name, names[i]);
		assert_int_equal(g->p[2].value, 1000000);
		assert_int_equal(g->p[5].master, 0x1234);
		assert_int_equal(g->p[5].channel, 0xABCD);
		assert_int_equal(g->p[5].value, 0x5A);
		assert_int_equal(g->p[6].value, 0xBEEF);
		assert_true(g->p[6].marked && !g->p[6].has_ts);
		assert_int_equal(g->p[7].value, 0x01234567);
		assert_true(g->p[7].ts == 0x1122334455667788ull && g->p[7].has_ts && !g->p[7].marked);
		/* a 4-nibble timestamp replaces the low 16 bits */
		assert_true(g->p[8].value == 0x0123456789ABCDEFull && g->p[8].ts == 0x112233445566A5A5ull);
		assert_true(g->p[8].marked && g->p[8].bits == 64);
		assert_true(g->p[9].bits == 4 && g->p[9].value == 9);
		assert_int_equal(g->p[10].channel, 0xAB42);
		assert_int_equal(g->p[11].master, 0x1277);
		assert_int_equal(g->p[11].channel, 0);
		assert_true(g->p[12].value == 0xFFFFFFFFFFFFFFFFull);
		/* 14 nibbles (size D) keep the top byte */
		assert_true(g->p[13].ts == 0x11ABCDEF01234567ull && g->p[13].has_ts);
		assert_int_equal(g->p[14].value, 0x3C);
		assert_true(g->p[15].value == 0x11 && g->p[15].master == 0x1277 && g->p[15].channel == 0);
		assert_true(g->p[16].value == 0x22 && g->p[16].master == 0 && g->p[16].channel == 0);
		assert_true(g->p[17].ts == 0x11ABCDEF01234569ull);
		/* lengths in nibbles: D32TS = 2 + 8 + 1 + 16 */
		assert_int_equal(g->p[7].nibs, 27);
		assert_int_equal(g->p[0].nib, 0);
		assert_int_equal(g->p[0].nibs, 22);
		free(g);
		stp_enc_free(&e);
	}
}

static void test_gray_timestamps(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	stp_enc_async(&e);
	stp_enc_version(&e, 4);
	uint64_t t1 = 0x0000000012345678ull, t2 = 0x00000000123456F0ull;
	stp_enc_data(&e, 8, STP_ENC_MTS, 1, 16, t1 ^ (t1 >> 1));
	/* two nibbles of Gray code: the low byte of gray(t2) */
	stp_enc_data(&e, 8, STP_ENC_MTS, 2, 2, (t2 ^ (t2 >> 1)) & 0xFF);
	stp_enc_pad(&e);
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 0);
	assert_int_equal(g->np, 4);
	assert_true(g->p[2].ts == t1);
	assert_true(g->p[3].ts == t2);
	free(g);
	stp_enc_free(&e);
}

static void test_every_ts_size(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	head(&e);
	uint64_t ts = 0xFEDCBA9876543210ull;
	stp_enc_data(&e, 32, STP_ENC_TS, 0, 16, ts);
	static const unsigned sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16 };
	uint64_t want[16];
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned n = sizes[i];
		uint64_t v = 0x0123456789ABCDEFull;
		uint64_t mask = n >= 16 ? ~0ull : ((1ull << (4 * n)) - 1);
		ts = (ts & ~mask) | (v & mask);
		want[i] = ts;
		stp_enc_data(&e, 16, STP_ENC_TS, i, n, v);
	}
	size_t pad = e.nib & 1; /* a NULL packet */
	stp_enc_pad(&e);
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 0);
	assert_int_equal(g->np, 4 + 15 + pad);
	for (size_t i = 0; i < 15; i++) {
		assert_int_equal(g->p[4 + i].value, i);
		assert_true(g->p[4 + i].ts == want[i]);
	}
	free(g);
	stp_enc_free(&e);
}

/* USER, TIME, XSYNC (and their TS forms) and FREQ_40, with the sizes of
 * the public decoders' tables: USER, TIME and XSYNC have no payload in
 * Zephyr's (OpenCSD and stm-rs reject them); FREQ_40 has 10 nibbles in
 * Zephyr's and stm-rs.  Where the tables disagree -- TRIG: a byte in
 * OpenCSD, nothing in Zephyr's -- the byte is read: the packet after a
 * TRIG decodes only that way. */
static void test_user_time_xsync(void **state)
{
	(void)state;
	for (int msn = 0; msn < 2; msn++) {
		struct stp_enc e;
		stp_enc_init(&e, msn);
		head(&e);
		stp_enc_master(&e, 16, 0x1234);
		stp_enc_channel(&e, 16, 0x0055);
		uint64_t user = e.nib;
		stp_enc_bare(&e, STP_ENC_USER, 0, 0, 0);
		stp_enc_bare(&e, STP_ENC_USER, 1, 16, 0x0000001122334400ull);
		stp_enc_data(&e, 8, STP_ENC_PLAIN, 0x5A, 0, 0);
		/* TIME_TS gives the time a short timestamp builds on */
		stp_enc_bare(&e, STP_ENC_TIME, 1, 16, 0x00000ABCDEF00000ull);
		stp_enc_data(&e, 16, STP_ENC_TS, 0xBEEF, 4, 0x1234);
		stp_enc_bare(&e, STP_ENC_XSYNC, 0, 0, 0);
		stp_enc_bare(&e, STP_ENC_XSYNC, 1, 2, 0x77);
		stp_enc_bare(&e, STP_ENC_TIME, 0, 0, 0);
		uint64_t freq40 = e.nib;
		stp_enc_freq(&e, 40, 0x123456789Aull); /* more than 32 bits */
		stp_enc_op(&e, "F06"); /* TRIG and its byte */
		stp_enc_field(&e, 0xC3, 2);
		stp_enc_data(&e, 8, STP_ENC_MTS, 0x66, 1, 0x8);
		stp_enc_pad(&e);
		struct got *g = decode(e.buf, stp_enc_len(&e), msn);
		assert_int_equal(g->ne, 0);
		static const char *const names[] = { "ASYNC", "VERSION", "FREQ", "M16", "C16", "USER", "USER_TS",
						     "D8", "TIME_TS", "D16TS", "XSYNC", "XSYNC_TS", "TIME", "FREQ_40",
						     "TRIG", "D8MTS" };
		size_t want = sizeof(names) / sizeof(names[0]);
		assert_true(g->np == want || (g->np == want + 1 && !strcmp(g->p[want].name, "NULL")));
		for (size_t i = 0; i < want; i++)
			assert_string_equal(g->p[i].name, names[i]);
		assert_true(g->p[5].kind == STP_K_USER && !g->p[5].has_ts && g->p[5].nib == user);
		assert_true(g->p[5].master == 0x1234 && g->p[5].channel == 0x55 && g->p[5].nibs == 3);
		assert_true(g->p[6].kind == STP_K_USER && g->p[6].has_ts && g->p[6].nibs == 3 + 1 + 16);
		assert_true(g->p[6].ts == 0x0000001122334400ull && g->p[6].master == 0x1234);
		assert_true(g->p[8].kind == STP_K_TIME && g->p[8].ts == 0x00000ABCDEF00000ull);
		assert_true(g->p[9].value == 0xBEEF && g->p[9].ts == 0x00000ABCDEF01234ull);
		assert_true(g->p[10].kind == STP_K_XSYNC && !g->p[10].has_ts && g->p[10].nibs == 3);
		assert_true(g->p[11].kind == STP_K_XSYNC && g->p[11].ts == 0x00000ABCDEF01277ull);
		assert_true(g->p[12].kind == STP_K_TIME && !g->p[12].has_ts && g->p[12].ts == g->p[11].ts);
		assert_true(g->p[13].kind == STP_K_FREQ && g->p[13].value == 0x123456789Aull);
		assert_true(g->p[13].bits == 40 && g->p[13].nib == freq40 && g->p[13].nibs == 4 + 10);
		assert_true(g->p[14].value == 0xC3 && g->p[14].nibs == 3 + 2);
		assert_true(g->p[15].value == 0x66 && g->p[15].ts == 0x00000ABCDEF01278ull);
		free(g);
		stp_enc_free(&e);
	}
}

/* ---------------------------------------------------------- damage */

static void test_garbage_before_async(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	for (int i = 0; i < 7; i++) /* three and a half bytes of junk */
		stp_enc_nibble(&e, (unsigned)(0x5 + i));
	head(&e);
	stp_enc_data(&e, 32, STP_ENC_MTS, 0xCAFE, 2, 0x12);
	stp_enc_pad(&e);
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 1);
	assert_int_equal(g->e[0].code, STP_E_GARBAGE);
	assert_int_equal(g->e[0].nib, 0);
	assert_int_equal(g->e[0].nibs, 7);
	assert_int_equal(g->np, 4);
	assert_int_equal(g->p[0].nib, 7);
	assert_non_null(strstr(g->p[3].name, "D32MTS"));
	free(g);

	/* NULL nibbles (idle) before the ASYNC are no loss */
	stp_enc_free(&e);
	stp_enc_init(&e, 0);
	for (int i = 0; i < 5; i++)
		stp_enc_nibble(&e, 0);
	head(&e);
	stp_enc_pad(&e);
	g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 0);
	assert_int_equal(g->np, 3);
	free(g);
	stp_enc_free(&e);
}

/* Opcodes no public decoder reads (or whose payload they disagree on):
 * reported with their nibbles and offset, then nothing until the next
 * ASYNC, and nothing lost after it. */
static void test_reserved_opcode_resync(void **state)
{
	(void)state;
	static const struct {
		const char *op, *text;
	} cases[] = {
		{ "F0C", "opcode F0C (reserved) not supported" },
		{ "F0F1", "opcode F0F1 FREQ_40_TS (its payload: 10 nibbles in stm-rs, none in Zephyr's decoder)" },
		{ "F0F2", "opcode F0F2 DIP (no public decoder reads it) not supported" },
		{ "F0F9", "opcode F0F9 (reserved) not supported" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct stp_enc e;
		stp_enc_init(&e, 1);
		head(&e);
		stp_enc_master(&e, 16, 5);
		stp_enc_data(&e, 16, STP_ENC_PLAIN, 0x1111, 0, 0);
		uint64_t bad = e.nib;
		stp_enc_op(&e, cases[k].op);
		for (int i = 0; i < 9; i++)
			stp_enc_nibble(&e, 3);
		uint64_t resync = e.nib;
		head(&e);
		stp_enc_data(&e, 16, STP_ENC_PLAIN, 0x2222, 0, 0);
		size_t pad = e.nib & 1; /* a NULL packet */
		stp_enc_pad(&e);
		struct got *g = decode(e.buf, stp_enc_len(&e), 1);
		assert_int_equal(g->ne, 2);
		assert_int_equal(g->e[0].code, STP_E_RESERVED);
		assert_int_equal(g->e[0].nib, bad);
		assert_non_null(strstr(g->e[0].msg, cases[k].text));
		char where[STP_WHERE_CAP];
		assert_non_null(strstr(g->e[0].msg, stp_where(bad, where)));
		size_t oplen = strlen(cases[k].op);
		assert_int_equal(g->e[1].code, STP_E_GARBAGE);
		assert_int_equal(g->e[1].nib, bad + oplen);
		assert_int_equal(g->e[1].nibs, resync - bad - oplen);
		/* everything before and after is there */
		assert_int_equal(g->np, 3 + 2 + 3 + 1 + pad);
		assert_int_equal(g->p[4].value, 0x1111);
		assert_int_equal(g->p[8].value, 0x2222);
		assert_int_equal(g->p[8].master, 0); /* VERSION starts over */
		free(g);
		stp_enc_free(&e);
	}
}

static void test_cut_by_async_and_end(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	head(&e);
	uint64_t cut = e.nib;
	stp_enc_op(&e, "7"); /* D64 with 5 of its 16 nibbles */
	stp_enc_field(&e, 0x12345, 5);
	uint64_t async = e.nib;
	head(&e);
	stp_enc_data(&e, 8, STP_ENC_PLAIN, 0x77, 0, 0);
	uint64_t last = e.nib;
	stp_enc_op(&e, "F6"); /* D32TS cut by the end of the input */
	stp_enc_field(&e, 0xABCD, 4);
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 2);
	assert_int_equal(g->e[0].code, STP_E_CUT);
	assert_int_equal(g->e[0].nib, cut);
	assert_int_equal(g->e[0].nibs, async - cut);
	assert_non_null(strstr(g->e[0].msg, "D64 packet cut short by an ASYNC"));
	assert_int_equal(g->e[1].code, STP_E_TRUNCATED);
	assert_int_equal(g->e[1].nib, last);
	assert_non_null(strstr(g->e[1].msg, "inside D32TS packet"));
	assert_int_equal(g->np, 3 + 3 + 1);
	assert_int_equal(g->p[6].value, 0x77);
	free(g);
	stp_enc_free(&e);
}

static void test_bad_async_and_ts_size(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	head(&e);
	stp_enc_op(&e, "FFFFF7"); /* FF, then not an ASYNC */
	head(&e);
	stp_enc_op(&e, "F4");
	stp_enc_field(&e, 0x12, 2);
	stp_enc_nibble(&e, 0xF); /* timestamp size F: reserved */
	head(&e);
	stp_enc_pad(&e);
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 2);
	assert_int_equal(g->e[0].code, STP_E_BAD);
	assert_int_equal(g->e[1].code, STP_E_BAD);
	assert_non_null(strstr(g->e[1].msg, "timestamp size"));
	assert_int_equal(g->np, 9);
	free(g);
	stp_enc_free(&e);
}

static void test_unknown_version(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	stp_enc_async(&e);
	stp_enc_version(&e, 9);
	stp_enc_data(&e, 8, STP_ENC_PLAIN, 1, 0, 0);
	stp_enc_nibble(&e, 0); /* 29 nibbles so far: a NULL fills the byte */
	struct got *g = decode(e.buf, stp_enc_len(&e), 0);
	assert_int_equal(g->ne, 1);
	assert_int_equal(g->e[0].code, STP_E_VERSION);
	assert_int_equal(g->np, 4); /* decoding goes on */
	assert_int_equal(g->p[2].value, 1);
	free(g);
	stp_enc_free(&e);
}

/* A break in the input (a live link reconnected): the packet in flight is
 * reported cut and nothing is decoded before the next ASYNC. */
static void test_rejoin(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	head(&e);
	uint64_t cut = e.nib;
	stp_enc_data(&e, 64, STP_ENC_PLAIN, 0x1111, 0, 0);
	size_t first = (size_t)(cut / 2) + 4; /* the bytes before the break */
	stp_enc_pad(&e);
	size_t resume = stp_enc_len(&e);
	stp_enc_data(&e, 32, STP_ENC_PLAIN, 0x2222, 0, 0); /* after the break, before an ASYNC */
	stp_enc_pad(&e);
	uint64_t async = e.nib;
	head(&e);
	stp_enc_data(&e, 32, STP_ENC_PLAIN, 0x3333, 0, 0);
	stp_enc_pad(&e);
	struct got *g = calloc(1, sizeof(*g));
	struct stp_dec d;
	stp_init(&d, 0, on_packet, on_error, g);
	stp_feed(&d, e.buf, first);
	stp_rejoin(&d);
	stp_feed(&d, e.buf + resume, stp_enc_len(&e) - resume);
	stp_finish(&d);
	assert_int_equal(g->ne, 2);
	assert_int_equal(g->e[0].code, STP_E_TRUNCATED);
	assert_int_equal(g->e[0].nib, cut);
	assert_non_null(strstr(g->e[0].msg, "D64 packet cut by a break in the input"));
	assert_int_equal(g->e[1].code, STP_E_GARBAGE); /* the D32 before the ASYNC */
	assert_int_equal(g->e[1].nib, 2 * first); /* nibbles count what was fed */
	assert_int_equal(g->e[1].nibs, async - 2 * resume);
	assert_int_equal(g->np, 3 + 3 + 1);
	assert_int_equal(g->p[6].value, 0x3333);
	free(g);
	stp_enc_free(&e);
}

static void test_scan(void **state)
{
	(void)state;
	size_t n;
	uint8_t *stp = test_slurp(SONDE_TESTDATA "/syst/stp/pub_64.stp", &n);
	struct stp_scan s;
	stp_scan(stp, n, 0, NULL, &s);
	assert_int_equal(s.asyncs, 5);
	assert_int_equal(s.errors, 0);
	assert_int_equal(s.starts, 84);
	assert_int_equal(s.first_async, 1);
	free(stp);
	static const uint8_t text[] = "just some text, not STP at all";
	stp_scan(text, sizeof(text), 0, NULL, &s);
	assert_int_equal(s.asyncs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_listing),   cmocka_unit_test(test_every_packet),
		cmocka_unit_test(test_gray_timestamps),  cmocka_unit_test(test_every_ts_size),
		cmocka_unit_test(test_garbage_before_async), cmocka_unit_test(test_reserved_opcode_resync),
		cmocka_unit_test(test_cut_by_async_and_end), cmocka_unit_test(test_bad_async_and_ts_size),
		cmocka_unit_test(test_unknown_version),  cmocka_unit_test(test_rejoin),
		cmocka_unit_test(test_scan),             cmocka_unit_test(test_user_time_xsync),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
