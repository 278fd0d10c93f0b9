/*
 * test_miniprof_parser.c -- the MiniProfiler response parser (mp_parser.c):
 * clean streams, every kind of report with its exact offset, frame number,
 * count and message (garbage, bad CRC, cut short, missing end marker, bad
 * length per type, unknown type, other PROFILE_DATA version, truncation at
 * the end), the cases the resynchronisation has to tell apart, the byte
 * orders, the largest packet, and that feeding 1 byte at a time or in any
 * chunks gives exactly what feeding everything at once gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/miniprof/mp_parser.h"

/* ---- recording what the parser says ------------------------------------------------ */

struct item {
	int is_diag;
	unsigned type;           /* packet */
	size_t len;
	int code;                /* diag */
	uint64_t offset, frame, count;
	char msg[240];
};

struct rec {
	struct item *it;
	size_t n, cap;
	uint64_t bytes_accounted; /* packet bytes + diag counts */
};

static struct item *rec_add(struct rec *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->it = realloc(r->it, r->cap * sizeof(*r->it));
		assert_non_null(r->it);
	}
	memset(&r->it[r->n], 0, sizeof(r->it[0]));
	return &r->it[r->n++];
}

static void on_packet(void *ctx, const struct mp_packet *pk)
{
	struct rec *r = ctx;
	struct item *i = rec_add(r);

	i->type = pk->type;
	i->len = pk->len;
	i->offset = pk->offset;
	i->frame = pk->frame;
	r->bytes_accounted += MP_RSP_OVERHEAD + pk->len;
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct rec *r = ctx;
	struct item *i = rec_add(r);

	i->is_diag = 1;
	i->code = d->code;
	i->offset = d->offset;
	i->frame = d->frame;
	i->count = d->count;
	snprintf(i->msg, sizeof(i->msg), "%s", d->msg);
	r->bytes_accounted += d->count;
}

/* Parse buf fed in chunks of the given sizes (cycled; NULL = all at once). */
static void parse(struct rec *r, const struct mp_wire_cfg *cfg, const uint8_t *buf, size_t n,
		  const size_t *chunks, size_t nchunks)
{
	struct mp_parser_cb cb = { on_packet, on_diag, r };
	struct mp_parser *p = mp_parser_new(cfg, &cb);
	size_t at = 0, k = 0;

	assert_non_null(p);
	memset(r, 0, sizeof(*r));
	while (at < n) {
		size_t c = chunks ? chunks[k++ % nchunks] : n;

		if (c > n - at)
			c = n - at;
		mp_parser_feed(p, buf + at, c);
		at += c;
	}
	mp_parser_finish(p);
	/* every packet and every report but garbage is one frame */
	uint64_t frames = 0;
	for (size_t i = 0; i < r->n; i++)
		frames += !r->it[i].is_diag || r->it[i].code != SONDE_D_GARBAGE;
	assert_int_equal(mp_parser_frames(p), frames);
	mp_parser_free(p);
}

static void rec_free(struct rec *r)
{
	free(r->it);
	r->it = NULL;
}

static void expect_packet(const struct rec *r, size_t i, unsigned type, uint64_t off, uint64_t frame, size_t len)
{
	assert_true(i < r->n);
	assert_false(r->it[i].is_diag);
	assert_int_equal(r->it[i].type, type);
	assert_int_equal(r->it[i].offset, off);
	assert_int_equal(r->it[i].frame, frame);
	assert_int_equal(r->it[i].len, len);
}

static void expect_diag(const struct rec *r, size_t i, int code, uint64_t off, uint64_t frame, uint64_t count,
			const char *msg)
{
	assert_true(i < r->n);
	assert_true(r->it[i].is_diag);
	assert_int_equal(r->it[i].code, code);
	assert_int_equal(r->it[i].offset, off);
	assert_int_equal(r->it[i].frame, frame);
	assert_int_equal(r->it[i].count, count);
	assert_string_equal(r->it[i].msg, msg);
}

/* ---- building streams ------------------------------------------------------------- */

struct stream {
	uint8_t b[1 << 18];
	size_t n;
};

static size_t put(struct stream *s, const void *p, size_t n)
{
	size_t at = s->n;

	memcpy(s->b + s->n, p, n);
	s->n += n;
	return at;
}

static size_t put_rsp(struct stream *s, const struct mp_wire_cfg *cfg, unsigned type, const uint8_t *p, size_t n)
{
	size_t at = s->n, k = mp_rsp_encode(s->b + s->n, sizeof(s->b) - s->n, cfg, type, p, n);

	assert_int_not_equal(k, 0);
	s->n += k;
	return at;
}

static const uint8_t status_payload[MP_STATUS_LEN] = { 1, 3, 0, 0, 0, 0xE8, 3, 0, 0, 42 };
static uint8_t meta_payload[MP_METADATA_LEN] = { 0x00, 0x7A, 0x03, 0x0A, 0x40, 0x42, 0x0F, 0x00,
						 0xEF, 0xBE, 0xAD, 0xDE, 'v', '1' };

static size_t put_ack(struct stream *s)
{
	return put_rsp(s, NULL, MP_RSP_ACK, NULL, 0);
}

static size_t put_status(struct stream *s)
{
	return put_rsp(s, NULL, MP_RSP_STATUS, status_payload, sizeof(status_payload));
}

/* A PROFILE_DATA payload of n records (deterministic contents). */
static size_t profile_payload(uint8_t *p, size_t n)
{
	p[0] = 1;
	p[1] = (uint8_t)n;
	p[2] = (uint8_t)(n >> 8);
	for (size_t i = 0; i < n; i++) {
		struct mp_record r = { 0x08000100u + 0x20u * (uint32_t)(i % 7), 1000u + 10u * (uint32_t)i, 5, 1 };

		mp_record_encode(p + 3 + i * MP_RECORD_LEN, &r);
	}
	return 3 + n * MP_RECORD_LEN;
}

static size_t put_profile(struct stream *s, size_t nrec)
{
	static uint8_t p[MP_RSP_MAX_PAYLOAD];

	return put_rsp(s, NULL, MP_RSP_PROFILE_DATA, p, profile_payload(p, nrec));
}

static struct stream S;

/* ---- the tests ----------------------------------------------------------------------- */

static void test_clean(void **state)
{
	struct rec r;

	(void)state;
	S.n = 0;
	put_ack(&S);
	put_rsp(&S, NULL, MP_RSP_METADATA, meta_payload, sizeof(meta_payload));
	put_status(&S);
	put_profile(&S, 2);
	put_rsp(&S, NULL, MP_RSP_NACK, NULL, 0);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 5);
	expect_packet(&r, 0, MP_RSP_ACK, 0, 0, 0);
	expect_packet(&r, 1, MP_RSP_METADATA, 8, 1, 28);
	expect_packet(&r, 2, MP_RSP_STATUS, 44, 2, 10);
	expect_packet(&r, 3, MP_RSP_PROFILE_DATA, 62, 3, 31);
	expect_packet(&r, 4, MP_RSP_NACK, 101, 4, 0);
	assert_int_equal(r.bytes_accounted, S.n);
	rec_free(&r);
}

static void test_garbage(void **state)
{
	static const uint8_t g3[] = { 'x', 0x55, 0x0A }, g5[] = { 0, 0xFF, 0x55, 0x55, 0x0A }, g2[] = { 1, 2 };
	struct rec r;

	(void)state;
	S.n = 0;
	put(&S, g3, 3);
	put_ack(&S);
	put(&S, g5, 5);
	put_status(&S);
	put(&S, g2, 2);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 5);
	expect_diag(&r, 0, SONDE_D_GARBAGE, 0, 0, 3, "3 bytes skipped: not part of any packet");
	expect_packet(&r, 1, MP_RSP_ACK, 3, 0, 0);
	expect_diag(&r, 2, SONDE_D_GARBAGE, 11, 1, 5, "5 bytes skipped: not part of any packet");
	expect_packet(&r, 3, MP_RSP_STATUS, 16, 1, 10);
	expect_diag(&r, 4, SONDE_D_GARBAGE, 34, 2, 2, "2 bytes skipped: not part of any packet");
	rec_free(&r);
}

static void test_bad_crc(void **state)
{
	struct rec r;
	size_t st;

	(void)state;
	S.n = 0;
	put_ack(&S);
	st = put_status(&S);
	S.b[st + 15] ^= 0xFF; /* CRC 0xFBEE (EE FB) becomes 0xFB11 */
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 3);
	expect_packet(&r, 0, MP_RSP_ACK, 0, 0, 0);
	expect_diag(&r, 1, SONDE_D_BAD_CHECKSUM, 8, 1, 18,
		    "STATUS packet: CRC 0xfb11 received, 0xfbee computed: packet discarded (18 bytes)");
	expect_packet(&r, 2, MP_RSP_ACK, 26, 2, 0);
	assert_int_equal(r.bytes_accounted, S.n);
	rec_free(&r);

	/* a damaged payload byte is found the same way */
	S.n = 0;
	st = put_status(&S);
	S.b[st + 7] ^= 0x01;
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.it[0].code, SONDE_D_BAD_CHECKSUM);
	assert_int_equal(r.it[0].offset, 0);
	expect_packet(&r, 1, MP_RSP_ACK, 18, 1, 0);
	rec_free(&r);
}

static void test_cut_short(void **state)
{
	struct rec r;
	struct stream full;

	(void)state;
	full.n = 0;
	put_profile(&full, 2); /* 39 bytes */
	/* the first 20 bytes, then a STATUS and an ACK */
	S.n = 0;
	put(&S, full.b, 20);
	put_status(&S);
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 3);
	expect_diag(&r, 0, SONDE_D_TRUNCATED, 0, 0, 20,
		    "PROFILE_DATA packet cut short after 20 of 39 bytes: a new packet starts at offset 20");
	expect_packet(&r, 1, MP_RSP_STATUS, 20, 1, 10);
	expect_packet(&r, 2, MP_RSP_ACK, 38, 2, 0);
	assert_int_equal(r.bytes_accounted, S.n);
	rec_free(&r);
}

/* A cut-short packet whose announced end falls exactly on the end marker of
 * the packet after it: its own end marker looks right, only its CRC is
 * wrong.  It is still recognised as cut short because a whole good packet
 * starts inside it. */
static void test_cut_short_end_marker_coincides(void **state)
{
	struct rec r;
	struct stream full;

	(void)state;
	full.n = 0;
	put_profile(&full, 2); /* 39 bytes: its end at offset 38 */
	S.n = 0;
	put(&S, full.b, 31);
	put_ack(&S); /* offsets 31..38: its 0x0A at 38 */
	put_status(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 3);
	expect_diag(&r, 0, SONDE_D_TRUNCATED, 0, 0, 31,
		    "PROFILE_DATA packet cut short after 31 of 39 bytes: a new packet starts at offset 31");
	expect_packet(&r, 1, MP_RSP_ACK, 31, 1, 0);
	expect_packet(&r, 2, MP_RSP_STATUS, 39, 2, 10);
	rec_free(&r);
}

/* A damaged packet holding a header-like pattern (AA 55 01 00 00, an ACK
 * header, with a 0x0A where its end marker would be but a wrong CRC) is a
 * bad CRC, not a cut-short packet. */
static void test_false_header_inside(void **state)
{
	uint8_t p[3 + MP_RECORD_LEN];
	struct mp_record rec = { 0x000155AAu, 0, 0x0A, 0 };
	struct rec r;
	size_t at;

	(void)state;
	p[0] = 1;
	p[1] = 1;
	p[2] = 0;
	mp_record_encode(p + 3, &rec);
	S.n = 0;
	at = put_rsp(&S, NULL, MP_RSP_PROFILE_DATA, p, sizeof(p));
	S.b[at + 5 + 3 + 13] ^= 0x40; /* damage the depth: CRC now wrong */
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	assert_true(r.it[0].is_diag);
	assert_int_equal(r.it[0].code, SONDE_D_BAD_CHECKSUM);
	assert_int_equal(r.it[0].offset, 0);
	assert_int_equal(r.it[0].count, 25);
	expect_packet(&r, 1, MP_RSP_ACK, 25, 1, 0);
	rec_free(&r);
}

static void test_no_end_marker(void **state)
{
	struct rec r;
	size_t st;

	(void)state;
	S.n = 0;
	st = put_status(&S);
	S.b[st + 17] = 0x0B;
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_diag(&r, 0, SONDE_D_MALFORMED, 0, 0, 18,
		    "STATUS packet: 0x0b instead of the end marker 0x0a at offset 17: packet discarded (18 bytes)");
	expect_packet(&r, 1, MP_RSP_ACK, 18, 1, 0);
	rec_free(&r);
}

/* A header of type t announcing len payload bytes, then zeros up to a
 * packet's worth, then an ACK: the header is rejected, the rest skipped. */
static void check_bad_header(unsigned t, unsigned len, uint8_t version, int code, const char *msg)
{
	uint8_t h[6] = { 0xAA, 0x55, (uint8_t)t, (uint8_t)len, (uint8_t)(len >> 8), version };
	static const uint8_t zeros[32];
	struct rec r;

	S.n = 0;
	put(&S, h, 6);
	put(&S, zeros, 20);
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 3);
	expect_diag(&r, 0, code, 0, 0, 2, msg);
	expect_diag(&r, 1, SONDE_D_GARBAGE, 2, 1, 24, "24 bytes skipped: not part of any packet");
	expect_packet(&r, 2, MP_RSP_ACK, 26, 1, 0);
	assert_int_equal(r.bytes_accounted, S.n);
	rec_free(&r);
}

static void test_bad_lengths(void **state)
{
	(void)state;
	check_bad_header(MP_RSP_STATUS, 12, 0, SONDE_D_TOO_LONG,
			 "STATUS packet with a 12-byte payload (a STATUS payload has 10 bytes): header skipped");
	check_bad_header(MP_RSP_METADATA, 20, 0, SONDE_D_TOO_SHORT,
			 "METADATA packet with a 20-byte payload (a METADATA payload has 28 bytes): header skipped");
	check_bad_header(MP_RSP_ACK, 1, 0, SONDE_D_TOO_LONG,
			 "ACK packet with a 1-byte payload (a ACK payload has 0 bytes): header skipped");
	check_bad_header(MP_RSP_NACK, 256, 0, SONDE_D_TOO_LONG,
			 "NACK packet with a 256-byte payload (a NACK payload has 0 bytes): header skipped");
	check_bad_header(MP_RSP_PROFILE_DATA, 2, 1, SONDE_D_TOO_SHORT,
			 "PROFILE_DATA packet with a 2-byte payload (a PROFILE_DATA payload has at least 3 bytes): "
			 "header skipped");
	check_bad_header(MP_RSP_PROFILE_DATA, 16, 1, SONDE_D_MALFORMED,
			 "PROFILE_DATA packet with a 16-byte payload (must be 3 + 14 per record): header skipped");
}

static void test_unknown_type_and_version(void **state)
{
	(void)state;
	check_bad_header(0x06, 0, 0, SONDE_D_UNKNOWN_RECORD,
			 "unknown response type 0x06 after a packet header: header skipped");
	check_bad_header(0x00, 0, 0, SONDE_D_UNKNOWN_RECORD,
			 "unknown response type 0x00 after a packet header: header skipped");
	check_bad_header(MP_RSP_PROFILE_DATA, 17, 2, SONDE_D_VERSION,
			 "PROFILE_DATA version 2 is not supported (only version 1): header skipped");
	/* the version is judged before the record layout */
	check_bad_header(MP_RSP_PROFILE_DATA, 20, 0, SONDE_D_VERSION,
			 "PROFILE_DATA version 0 is not supported (only version 1): header skipped");
}

static void test_truncated_at_end(void **state)
{
	static const uint8_t hdr3[] = { 0xAA, 0x55, 0x04 }, aa[] = { 0xAA };
	struct rec r;
	struct stream full;

	(void)state;
	full.n = 0;
	put_status(&full);
	S.n = 0;
	put_ack(&S);
	put(&S, full.b, 7);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_packet(&r, 0, MP_RSP_ACK, 0, 0, 0);
	expect_diag(&r, 1, SONDE_D_TRUNCATED, 8, 1, 7, "input ends inside a STATUS packet after 7 of 18 bytes");
	rec_free(&r);

	S.n = 0;
	put_ack(&S);
	put(&S, hdr3, 3);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_diag(&r, 1, SONDE_D_TRUNCATED, 8, 1, 3, "input ends inside a packet header after 3 bytes");
	rec_free(&r);

	S.n = 0;
	put_ack(&S);
	put(&S, aa, 1);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_diag(&r, 1, SONDE_D_TRUNCATED, 8, 1, 1, "input ends inside a packet header after 1 byte");
	rec_free(&r);

	/* cut short, then a whole packet, then the end: both are told */
	full.n = 0;
	put_profile(&full, 2);
	S.n = 0;
	put(&S, full.b, 10);
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_diag(&r, 0, SONDE_D_TRUNCATED, 0, 0, 10,
		    "PROFILE_DATA packet cut short after 10 of 39 bytes: a new packet starts at offset 10");
	expect_packet(&r, 1, MP_RSP_ACK, 10, 1, 0);
	rec_free(&r);
}

static void test_byte_orders(void **state)
{
	struct mp_wire_cfg h55 = { 1, 0 }, be = { 0, 1 };
	struct rec r;

	(void)state;
	S.n = 0;
	put_rsp(&S, &h55, MP_RSP_ACK, NULL, 0);
	put_rsp(&S, &h55, MP_RSP_STATUS, status_payload, sizeof(status_payload));
	parse(&r, &h55, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_packet(&r, 0, MP_RSP_ACK, 0, 0, 0);
	expect_packet(&r, 1, MP_RSP_STATUS, 8, 1, 10);
	rec_free(&r);
	/* read with the default order, nothing is a packet */
	parse(&r, NULL, S.b, S.n, NULL, 0);
	for (size_t i = 0; i < r.n; i++)
		assert_true(r.it[i].is_diag);
	assert_int_equal(r.bytes_accounted, S.n);
	rec_free(&r);

	S.n = 0;
	put_rsp(&S, &be, MP_RSP_STATUS, status_payload, sizeof(status_payload));
	parse(&r, &be, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 1);
	expect_packet(&r, 0, MP_RSP_STATUS, 0, 0, 10);
	rec_free(&r);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.it[0].code, SONDE_D_BAD_CHECKSUM);
	rec_free(&r);
}

static void test_largest_packet(void **state)
{
	static const size_t one[] = { 1 };
	struct rec r;

	(void)state;
	S.n = 0;
	put_profile(&S, 4680); /* 3 + 14 * 4680 = 65523 bytes of payload */
	put_ack(&S);
	parse(&r, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(r.n, 2);
	expect_packet(&r, 0, MP_RSP_PROFILE_DATA, 0, 0, 65523);
	expect_packet(&r, 1, MP_RSP_ACK, 65531, 1, 0);
	rec_free(&r);
	parse(&r, NULL, S.b, S.n, one, 1);
	assert_int_equal(r.n, 2);
	expect_packet(&r, 0, MP_RSP_PROFILE_DATA, 0, 0, 65523);
	rec_free(&r);
}

/* Every fault in one stream. */
static void build_faulty(struct stream *s)
{
	static const uint8_t g[] = { 0x13, 0x55, 0x37 }, bad_hdr[] = { 0xAA, 0x55, 0x04, 0x0C, 0x00 };
	struct stream full;
	size_t at;

	s->n = 0;
	put(s, g, sizeof(g));
	put_rsp(s, NULL, MP_RSP_METADATA, meta_payload, sizeof(meta_payload));
	put_ack(s);
	put_profile(s, 20);
	at = put_profile(s, 20);
	s->b[at + 100] ^= 0x10;                 /* bad CRC */
	full.n = 0;
	put_profile(&full, 20);
	put(s, full.b, 150);                    /* cut short */
	put_profile(s, 3);
	put(s, bad_hdr, sizeof(bad_hdr));       /* bad length */
	put(s, g, sizeof(g));
	at = put_status(s);
	s->b[at + 17] = 0;                      /* no end marker */
	put_profile(s, 1);
	put(s, full.b, 40);                     /* cut short, then a 2nd one */
	put(s, full.b, 200);
	put_ack(s);
	put(s, full.b, 33);                     /* truncated by the end */
}

static void test_chunking(void **state)
{
	static const size_t one[] = { 1 }, odd[] = { 1, 2, 3, 5, 7, 11, 13, 17, 64, 1000 }, big[] = { 4096 };
	struct rec whole, r;

	(void)state;
	build_faulty(&S);
	parse(&whole, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(whole.bytes_accounted, S.n);
	/* the stream, as built: 3 garbage bytes, METADATA (36 bytes), ACK,
	 * PROFILE_DATA (291), the same with a bad CRC, 150 bytes of one cut
	 * short by a 3-record PROFILE_DATA (53), a STATUS header with a bad
	 * length (5) and 3 garbage bytes, a STATUS without its end marker, a
	 * 1-record PROFILE_DATA (25), 40 and 200 bytes of two cut short, an ACK,
	 * 33 bytes of one cut by the end */
	assert_int_equal(whole.n, 15);
	expect_diag(&whole, 0, SONDE_D_GARBAGE, 0, 0, 3, "3 bytes skipped: not part of any packet");
	expect_packet(&whole, 1, MP_RSP_METADATA, 3, 0, 28);
	expect_packet(&whole, 2, MP_RSP_ACK, 39, 1, 0);
	expect_packet(&whole, 3, MP_RSP_PROFILE_DATA, 47, 2, 283);
	assert_int_equal(whole.it[4].code, SONDE_D_BAD_CHECKSUM);
	assert_int_equal(whole.it[4].offset, 338);
	assert_int_equal(whole.it[4].count, 291);
	expect_diag(&whole, 5, SONDE_D_TRUNCATED, 629, 4, 150,
		    "PROFILE_DATA packet cut short after 150 of 291 bytes: a new packet starts at offset 779");
	expect_packet(&whole, 6, MP_RSP_PROFILE_DATA, 779, 5, 45);
	expect_diag(&whole, 7, SONDE_D_TOO_LONG, 832, 6, 2,
		    "STATUS packet with a 12-byte payload (a STATUS payload has 10 bytes): header skipped");
	expect_diag(&whole, 8, SONDE_D_GARBAGE, 834, 7, 6, "6 bytes skipped: not part of any packet");
	expect_diag(&whole, 9, SONDE_D_MALFORMED, 840, 7, 18,
		    "STATUS packet: 0x00 instead of the end marker 0x0a at offset 857: packet discarded (18 bytes)");
	expect_packet(&whole, 10, MP_RSP_PROFILE_DATA, 858, 8, 17);
	expect_diag(&whole, 11, SONDE_D_TRUNCATED, 883, 9, 40,
		    "PROFILE_DATA packet cut short after 40 of 291 bytes: a new packet starts at offset 923");
	expect_diag(&whole, 12, SONDE_D_TRUNCATED, 923, 10, 200,
		    "PROFILE_DATA packet cut short after 200 of 291 bytes: a new packet starts at offset 1123");
	expect_packet(&whole, 13, MP_RSP_ACK, 1123, 11, 0);
	expect_diag(&whole, 14, SONDE_D_TRUNCATED, 1131, 12, 33,
		    "input ends inside a PROFILE_DATA packet after 33 of 291 bytes");
	const size_t *modes[] = { one, odd, big };
	const size_t nmodes[] = { 1, 10, 1 };
	for (int m = 0; m < 3; m++) {
		parse(&r, NULL, S.b, S.n, modes[m], nmodes[m]);
		assert_int_equal(r.n, whole.n);
		for (size_t i = 0; i < r.n; i++) {
			assert_int_equal(r.it[i].is_diag, whole.it[i].is_diag);
			assert_int_equal(r.it[i].type, whole.it[i].type);
			assert_int_equal(r.it[i].len, whole.it[i].len);
			assert_int_equal(r.it[i].code, whole.it[i].code);
			assert_int_equal(r.it[i].offset, whole.it[i].offset);
			assert_int_equal(r.it[i].frame, whole.it[i].frame);
			assert_int_equal(r.it[i].count, whole.it[i].count);
			assert_string_equal(r.it[i].msg, whole.it[i].msg);
		}
		rec_free(&r);
	}
	rec_free(&whole);
}

/* Pseudo-random bytes, with many header bytes: nothing crashes, every byte
 * is accounted for, chunking changes nothing. */
static void test_random_input(void **state)
{
	static const size_t odd[] = { 1, 3, 7, 100, 4096, 2 };
	uint64_t x = 0x12345678;
	struct rec a, b;

	(void)state;
	S.n = 0;
	while (S.n < sizeof(S.b)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint8_t c = (uint8_t)x;
		/* make header starts and plausible types frequent */
		S.b[S.n++] = (x >> 8) % 4 == 0 ? 0xAA : (x >> 8) % 4 == 1 ? 0x55 : (x >> 8) % 4 == 2 ? (uint8_t)(c % 6) : c;
	}
	parse(&a, NULL, S.b, S.n, NULL, 0);
	assert_int_equal(a.bytes_accounted, S.n);
	parse(&b, NULL, S.b, S.n, odd, 6);
	assert_int_equal(b.n, a.n);
	assert_int_equal(b.bytes_accounted, S.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_int_equal(b.it[i].offset, a.it[i].offset);
		assert_int_equal(b.it[i].count, a.it[i].count);
	}
	rec_free(&a);
	rec_free(&b);
}

static void test_parse_buffer(void **state)
{
	struct mp_parser_cb cb = { on_packet, on_diag, NULL };
	struct rec r;

	(void)state;
	memset(&r, 0, sizeof(r));
	cb.ctx = &r;
	S.n = 0;
	put_ack(&S);
	put_status(&S);
	assert_int_equal(mp_parse_buffer(NULL, S.b, S.n, &cb), 0);
	assert_int_equal(r.n, 2);
	expect_packet(&r, 1, MP_RSP_STATUS, 8, 1, 10);
	rec_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_bad_crc),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_cut_short_end_marker_coincides),
		cmocka_unit_test(test_false_header_inside),
		cmocka_unit_test(test_no_end_marker),
		cmocka_unit_test(test_bad_lengths),
		cmocka_unit_test(test_unknown_type_and_version),
		cmocka_unit_test(test_truncated_at_end),
		cmocka_unit_test(test_byte_orders),
		cmocka_unit_test(test_largest_packet),
		cmocka_unit_test(test_chunking),
		cmocka_unit_test(test_random_input),
		cmocka_unit_test(test_parse_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
