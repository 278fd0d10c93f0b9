/*
 * test_tband_wire.c -- the byte-level pieces of the tband decoder on their
 * own: COBS frame decoding (including the 254-byte full-block edge case),
 * unsigned varlen and sign-magnitude integers, strict UTF-8, the frame
 * parser's errors and the reference dump's JSON rendering.  Byte values come
 * from notes/tband.md §2-§4 (confirmed on real traces).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/tband/tband_cobs.h"
#include "proto/tband/tband_json.h"
#include "proto/tband/tband_wire.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- COBS ------------------------------------------------------------------ */

static void test_cobs_examples(void **state)
{
	/* notes §4: "03 02 01 | 00" is ts_resolution_ns(1); "02 03 05 49 53 52 30"
	 * is isr_name(0, "ISR0") with the zero restored */
	static const uint8_t f1[] = { 0x03, 0x02, 0x01 };
	static const uint8_t f2[] = { 0x02, 0x03, 0x05, 0x49, 0x53, 0x52, 0x30 };
	static const uint8_t p2[] = { 0x03, 0x00, 0x49, 0x53, 0x52, 0x30 };
	/* the seed's example: 01 02 00 04 00 05 */
	static const uint8_t f3[] = { 0x03, 0x01, 0x02, 0x02, 0x04, 0x02, 0x05 };
	static const uint8_t p3[] = { 0x01, 0x02, 0x00, 0x04, 0x00, 0x05 };
	uint8_t out[16];

	(void)state;
	assert_int_equal(tband_cobs_decode(f1, sizeof(f1), out, NULL), 2);
	assert_int_equal(out[0], 0x02);
	assert_int_equal(out[1], 0x01);
	assert_int_equal(tband_cobs_decode(f2, sizeof(f2), out, NULL), sizeof(p2));
	assert_memory_equal(out, p2, sizeof(p2));
	assert_int_equal(tband_cobs_decode(f3, sizeof(f3), out, NULL), sizeof(p3));
	assert_memory_equal(out, p3, sizeof(p3));
	/* a lone code byte 01 is an empty payload */
	assert_int_equal(tband_cobs_decode((const uint8_t *)"\x01", 1, out, NULL), 0);
}

/* Payloads of 253, 254 and 255 non-zero bytes (notes §3): 254 ends on a full
 * block "FF d1..d254" with no trailing code byte; a trailing 01 (other
 * encoders) gives the same payload. */
static void test_cobs_full_block_edge(void **state)
{
	uint8_t enc[300], out[300];
	size_t bad = 99;

	(void)state;
	for (size_t i = 0; i < sizeof(enc); i++)
		enc[i] = (uint8_t)(1 + i % 250);

	/* 253 bytes: FE d1..d253 */
	enc[0] = 0xFE;
	assert_int_equal(tband_cobs_decode(enc, 254, out, NULL), 253);
	assert_memory_equal(out, enc + 1, 253);
	/* 254 bytes: FF d1..d254 */
	enc[0] = 0xFF;
	assert_int_equal(tband_cobs_decode(enc, 255, out, NULL), 254);
	assert_memory_equal(out, enc + 1, 254);
	/* 254 bytes with a trailing 01 */
	enc[255] = 0x01;
	assert_int_equal(tband_cobs_decode(enc, 256, out, NULL), 254);
	/* 255 bytes: FF d1..d254 02 d255 */
	enc[255] = 0x02;
	assert_int_equal(tband_cobs_decode(enc, 257, out, NULL), 255);
	assert_memory_equal(out, enc + 1, 254);
	assert_int_equal(out[254], enc[256]);
	/* 254 + zero + 1: FF d1..d254 01 02 x -> the FF block implies no zero,
	 * the 01 block is an empty run followed by a zero */
	enc[255] = 0x01;
	enc[256] = 0x02;
	enc[257] = 0x33;
	assert_int_equal(tband_cobs_decode(enc, 258, out, &bad), 256);
	assert_int_equal(out[254], 0x00);
	assert_int_equal(out[255], 0x33);
}

static void test_cobs_errors(void **state)
{
	/* code 05 at index 2 points past the 4-byte frame */
	static const uint8_t f1[] = { 0x02, 0x11, 0x05, 0x22 };
	/* a zero inside a block (only possible when called on a buffer) */
	static const uint8_t f2[] = { 0x04, 0x11, 0x00, 0x22 };
	uint8_t out[8];
	size_t bad = 99;

	(void)state;
	assert_int_equal(tband_cobs_decode(f1, sizeof(f1), out, &bad), -1);
	assert_int_equal(bad, 2);
	assert_int_equal(tband_cobs_decode(f2, sizeof(f2), out, &bad), -1);
	assert_int_equal(bad, 2);
	assert_int_equal(tband_cobs_decode(f2, 0, out, &bad), 0);
}

/* COBS-encode p[0..n) into enc (no delimiter); returns the length. */
static size_t cobs_encode(const uint8_t *p, size_t n, uint8_t *enc)
{
	size_t code_at = 0, o = 1;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == 0) {
			enc[code_at] = (uint8_t)(o - code_at);
			code_at = o++;
			continue;
		}
		enc[o++] = p[i];
		if (o - code_at == 0xFF && i + 1 < n) {
			enc[code_at] = 0xFF;
			code_at = o++;
		}
	}
	enc[code_at] = (uint8_t)(o - code_at);
	return o;
}

/* The fast decoder of zero-free frames gives what the general one gives
 * (length, bytes, the index of a bad code byte): valid frames of payloads
 * with zeros, runs of 254 and more non-zero bytes, and frames whose code
 * bytes point past the end. */
static void test_cobs_nz_same(void **state)
{
	static uint8_t pay[700], enc[720], a[720], b[720];
	uint32_t x = 2463534242u;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		size_t n, en, bad_a = 7777, bad_b = 7777;
		long ra, rb;

		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		n = round < 10000 ? x % 40 : x % 700;
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			/* zeros often in short payloads, rarely in long ones */
			pay[i] = (uint8_t)(x % (round < 10000 ? 4 : 300) == 0 ? 0 : 1 + x % 255);
		}
		en = cobs_encode(pay, n, enc);
		if (round % 3 == 2 && en > 1) {
			/* corrupt one byte (never to 0x00: the frame has none) */
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			enc[x % en] = (uint8_t)(1 + (x >> 8) % 255);
		}
		ra = tband_cobs_decode(enc, en, a, &bad_a);
		rb = tband_cobs_decode_nz(enc, en, b, &bad_b);
		assert_int_equal(ra, rb);
		if (ra >= 0)
			assert_memory_equal(a, b, (size_t)ra);
		else
			assert_int_equal(bad_a, bad_b);
		if (round % 3 != 2) {
			assert_int_equal(ra, (long)n);
			assert_memory_equal(a, pay, n);
		}
	}
}

static void test_cobs_raw_index(void **state)
{
	/* payload 01 02 00 04 00 05 <- 03 01 02 02 04 02 05 */
	static const uint8_t f[] = { 0x03, 0x01, 0x02, 0x02, 0x04, 0x02, 0x05 };
	static const size_t want[] = { 1, 2, 3, 4, 5, 6, 7 };

	(void)state;
	for (size_t i = 0; i < LEN(want); i++)
		assert_int_equal(tband_cobs_raw_index(f, sizeof(f), i), want[i]);
}

/* ---- integers -------------------------------------------------------------- */

static uint64_t varlen_ok(const uint8_t *p, size_t n, unsigned bits)
{
	size_t pos = 0;
	uint64_t v = 0;

	assert_int_equal(tband_varlen(p, n, &pos, bits, &v), TBAND_OK);
	assert_int_equal(pos, n);
	return v;
}

static void test_varlen_unsigned(void **state)
{
	(void)state;
	assert_int_equal(varlen_ok((const uint8_t *)"\x05", 1, 32), 5);
	assert_int_equal(varlen_ok((const uint8_t *)"\xFF\x01", 2, 32), 0xFF);
	assert_int_equal(varlen_ok((const uint8_t *)"\xFF\xFF\xFF\xFF\x0F", 5, 32), 0xFFFFFFFFu);
	assert_int_equal(varlen_ok((const uint8_t *)"\xC0\x9A\x0C", 3, 32), 200000);
	assert_int_equal(varlen_ok((const uint8_t *)"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01",
				   10, 64), UINT64_MAX);
	/* a redundant zero group is accepted (value unchanged) */
	assert_int_equal(varlen_ok((const uint8_t *)"\x85\x00", 2, 32), 5);
}

static void test_varlen_errors(void **state)
{
	size_t pos;
	uint64_t v;

	(void)state;
	/* frame ends while the continuation bit is set */
	pos = 0;
	assert_int_equal(tband_varlen((const uint8_t *)"\x80\x80", 2, &pos, 32, &v),
			 TBAND_E_TRUNCATED);
	assert_int_equal(pos, 2);
	pos = 0;
	assert_int_equal(tband_varlen((const uint8_t *)"", 0, &pos, 64, &v), TBAND_E_TRUNCATED);
	/* u32: the 5th byte may carry 4 bits only (notes §2) */
	pos = 0;
	assert_int_equal(tband_varlen((const uint8_t *)"\xFF\xFF\xFF\xFF\x10", 5, &pos, 32, &v),
			 TBAND_E_OVERFLOW);
	assert_int_equal(pos, 4);
	pos = 0;
	assert_int_equal(tband_varlen((const uint8_t *)"\xFF\xFF\xFF\xFF\x8F\x01", 6, &pos, 32, &v),
			 TBAND_E_OVERFLOW);
	/* u64: the 10th byte may carry 1 bit only */
	pos = 0;
	assert_int_equal(tband_varlen((const uint8_t *)"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x02",
				      10, &pos, 64, &v), TBAND_E_OVERFLOW);
	assert_int_equal(pos, 9);
}

/* notes §2 table, confirmed on bm_snapshot_rich.bin. */
static void test_s64_sign_magnitude(void **state)
{
	static const struct {
		const char *bytes;
		size_t n;
		int64_t v;
	} t[] = {
		{ "\x00", 1, 0 }, { "\x02", 1, 1 }, { "\x03", 1, -1 },
		{ "\x7E", 1, 63 }, { "\x7F", 1, -63 },
		{ "\x80\x01", 2, 64 }, { "\x81\x01", 2, -64 }, { "\x83\x01", 2, -65 },
		{ "\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10, INT64_MAX },
		{ "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10, -INT64_MAX },
		{ "\x01", 1, INT64_MIN }, /* "negative zero" */
	};

	(void)state;
	for (size_t i = 0; i < LEN(t); i++) {
		uint64_t bin = varlen_ok((const uint8_t *)t[i].bytes, t[i].n, 64);

		assert_int_equal(tband_s64(bin), t[i].v);
	}
}

/* ---- UTF-8 ------------------------------------------------------------------- */

static void test_utf8_strict(void **state)
{
	static const struct {
		const char *s;
		size_t n, bad; /* index of the first invalid byte, n if valid */
	} t[] = {
		{ "Tonbandger\xC3\xA4t \xE2\x9C\x93", 17, 17 },
		{ "\xF0\x9F\x98\x80", 4, 4 },          /* U+1F600 */
		{ "\xF4\x8F\xBF\xBF", 4, 4 },          /* U+10FFFF */
		{ "ab\xC0\x80", 4, 2 },                /* overlong NUL */
		{ "\xE0\x80\x80", 3, 0 },              /* overlong */
		{ "x\xED\xA0\x80", 4, 1 },             /* surrogate U+D800 */
		{ "\xF4\x90\x80\x80", 4, 0 },          /* > U+10FFFF */
		{ "ok\xE2\x82", 4, 2 },                /* cut sequence */
		{ "\x80", 1, 0 },                      /* lone continuation */
		{ "\xFF", 1, 0 },
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < LEN(t); i++)
		assert_int_equal(tband_utf8_check((const uint8_t *)t[i].s, t[i].n), t[i].bad);
	/* lossy: each invalid byte becomes U+FFFD */
	assert_int_equal(tband_utf8_lossy((const unsigned char *)"a\xFF" "b\xE2\x82", 5, out), 11);
	assert_memory_equal(out, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD", 11);
}

/* ---- frame parser ------------------------------------------------------------ */

static enum tband_perr parse(const char *p, size_t n, enum tband_mode mode,
			     struct tband_rec *rec)
{
	return tband_parse((const uint8_t *)p, n, mode, rec);
}

static void test_parse_events(void **state)
{
	struct tband_rec r;

	(void)state;
	/* isr_enter(ts 10, isr 200000) */
	assert_int_equal(parse("\x04\x0A\xC0\x9A\x0C", 5, TBAND_MODE_BAREMETAL, &r), TBAND_OK);
	assert_string_equal(r.desc->name, "isr_enter");
	assert_int_equal(r.ts, 10);
	assert_int_equal(r.v[0].u, 200000);
	/* metadata has no timestamp: evtmarker_name(100, "my_fn1") */
	assert_int_equal(parse("\x06\x64my_fn1", 8, TBAND_MODE_BAREMETAL, &r), TBAND_OK);
	assert_int_equal(r.v[0].u, 100);
	assert_int_equal(r.str_len, 6);
	assert_memory_equal(r.str, "my_fn1", 6);
	/* an empty string */
	assert_int_equal(parse("\x07\x32\x65", 3, TBAND_MODE_BAREMETAL, &r), TBAND_OK);
	assert_int_equal(r.str_len, 0);
	/* valmarker(ts 1, id 2, -65) */
	assert_int_equal(parse("\x0B\x01\x02\x83\x01", 5, TBAND_MODE_BAREMETAL, &r), TBAND_OK);
	assert_int_equal(r.v[1].i, -65);
	/* task_evtmarker_name: three fields */
	assert_int_equal(parse("\x7A\x00\x03T1", 5, TBAND_MODE_FREERTOS, &r), TBAND_OK);
	assert_int_equal(r.v[1].u, 3);
	/* queue_kind: a raw enum byte */
	assert_int_equal(parse("\x65\x01\x03", 3, TBAND_MODE_FREERTOS, &r), TBAND_OK);
	assert_string_equal(tband_queue_kind_json(r.v[1].u), "FrqkMutex");
}

static void test_parse_errors(void **state)
{
	struct tband_rec r;

	(void)state;
	assert_int_equal(parse("", 0, TBAND_MODE_FREERTOS, &r), TBAND_E_EMPTY);
	/* FreeRTOS ids are unknown in bare-metal mode; 0x0C and 0x80 always */
	assert_int_equal(parse("\x54\x01\x01", 3, TBAND_MODE_BAREMETAL, &r), TBAND_E_UNKNOWN_ID);
	assert_int_equal(parse("\x54\x01\x01", 3, TBAND_MODE_FREERTOS, &r), TBAND_OK);
	assert_int_equal(parse("\x0C\x01", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_UNKNOWN_ID);
	assert_int_equal(parse("\x71\x01", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_UNKNOWN_ID);
	assert_int_equal(parse("\x80\x01", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_UNKNOWN_ID);
	assert_string_equal(r.err_field, "id");
	/* truncated: the field is missing, or its varlen is cut */
	assert_int_equal(parse("\x04\x0A", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_TRUNCATED);
	assert_string_equal(r.err_field, "isr_id");
	assert_int_equal(r.err_pos, 2);
	assert_int_equal(parse("\x04\x8A", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_TRUNCATED);
	assert_string_equal(r.err_field, "ts");
	assert_int_equal(r.err_pos, 1);
	assert_int_equal(parse("\x65\x01", 2, TBAND_MODE_FREERTOS, &r), TBAND_E_TRUNCATED);
	assert_string_equal(r.err_field, "kind");
	/* overflow of a u32 field */
	assert_int_equal(parse("\x05\x01\xFF\xFF\xFF\xFF\x1F", 7, TBAND_MODE_FREERTOS, &r),
			 TBAND_E_OVERFLOW);
	assert_int_equal(r.err_pos, 6);
	/* soft errors: all fields are there */
	assert_int_equal(parse("\x05\x01\x02\x03", 4, TBAND_MODE_FREERTOS, &r), TBAND_E_TRAILING);
	assert_true(TBAND_PERR_SOFT(r.err));
	assert_int_equal(r.err_pos, 3);
	assert_int_equal(r.v[0].u, 2);
	assert_int_equal(parse("\x03\x01" "A\xFFZ", 5, TBAND_MODE_FREERTOS, &r), TBAND_E_UTF8);
	assert_int_equal(r.err_pos, 3);
	assert_int_equal(r.str_len, 3);
	assert_int_equal(parse("\x65\x01\x06", 3, TBAND_MODE_FREERTOS, &r), TBAND_E_ENUM);
	assert_int_equal(r.v[1].u, 6);
}

/* Every id of the event table: 12 base events, 35 FreeRTOS events
 * (notes §4), each found in the right mode with the right metadata flag. */
/* tband_parse_padded (integers read eight bytes at a time) gives what
 * tband_parse gives, on frames of every id with random field bytes: varlens
 * of every length, cut short, too long for their type, garbage behind the
 * frame. */
static void test_parse_padded_same(void **state)
{
	static uint8_t buf[64 + TBAND_PAD];
	uint32_t x = 88172645u;

	(void)state;
	for (int round = 0; round < 200000; round++) {
		struct tband_rec a, b;
		size_t n;

		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		n = x % 24;
		for (size_t i = 0; i < sizeof(buf); i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			/* continuation bytes often, so that long varlens occur */
			buf[i] = (uint8_t)((x >> 7) % 3 ? (x | 0x80) : x);
		}
		buf[0] = (uint8_t)(round % 2 ? 0x54 + x % 44 : x % 12);
		assert_int_equal(tband_parse(buf, n, TBAND_MODE_FREERTOS, &a),
				 tband_parse_padded(buf, n, TBAND_MODE_FREERTOS, &b));
		assert_ptr_equal(a.desc, b.desc);
		assert_int_equal(a.err, b.err);
		assert_int_equal(a.err_pos, b.err_pos);
		assert_ptr_equal(a.err_field, b.err_field);
		assert_true(a.ts == b.ts);
		for (int i = 0; i < TBAND_MAX_FIELDS; i++)
			assert_true(a.v[i].u == b.v[i].u);
		assert_ptr_equal(a.str, b.str);
		assert_int_equal(a.str_len, b.str_len);
	}
}

static void test_event_table(void **state)
{
	unsigned base = 0, rtos = 0, meta = 0;

	(void)state;
	for (unsigned id = 0; id < 256; id++) {
		const struct tband_evdesc *bm = tband_event_find(id, TBAND_MODE_BAREMETAL);
		const struct tband_evdesc *fr = tband_event_find(id, TBAND_MODE_FREERTOS);

		if (bm) {
			assert_ptr_equal(bm, fr);
			assert_int_equal(bm->group, TBAND_G_BASE);
			base++;
		} else if (fr) {
			assert_int_equal(fr->group, TBAND_G_FREERTOS);
			rtos++;
		}
		if (fr) {
			assert_int_equal(fr->id, id);
			meta += fr->meta;
		}
	}
	assert_int_equal(base, 12);
	assert_int_equal(rtos, 35);
	assert_int_equal(meta, 4 + 7);
}

/* ---- JSON -------------------------------------------------------------------- */

static void render(const char *p, size_t n, const char *want)
{
	struct tband_rec r;
	char buf[1024];

	assert_true(tband_parse((const uint8_t *)p, n, TBAND_MODE_FREERTOS, &r) == TBAND_OK ||
		    r.err == TBAND_E_ENUM);
	assert_true(tband_json_size(n) <= sizeof(buf));
	assert_int_equal(tband_json_render(&r, buf, tband_json_size(n)), strlen(want));
	assert_string_equal(buf, want);
}

/* Timestamps as decimal, whatever the one before them was (the renderer
 * keeps the digits above the last six of the previous one): across powers
 * of ten, with zeros in the low six digits, up and down, the extremes. */
static void test_json_ts(void **state)
{
	static const uint64_t ts[] = {
		0, 7, 999999, 1000000, 1000001, 1000000, 5000007, 5999999, 6000000, 5000000,
		999999999999ull, 1000000000000ull, 1000000000000ull + 123, 42,
		18446744073709551615ull, 18446744073709000000ull, 1000000000000000000ull,
		123456789012345678ull, 123456789012999999ull, 123456789013000000ull,
	};
	struct tband_rec r;
	char buf[1024], want[128];

	(void)state;
	memset(&r, 0, sizeof(r));
	r.desc = tband_event_find(0x04, TBAND_MODE_FREERTOS); /* isr_enter */
	for (size_t i = 0; i < LEN(ts); i++) {
		int n;

		r.ts = ts[i];
		r.v[0].u = i;
		n = snprintf(want, sizeof(want),
			     "{\"Base\":{\"ts\":%llu,\"kind\":{\"IsrEnter\":{\"isr_id\":%zu}}}}",
			     (unsigned long long)ts[i], i);
		assert_int_equal(tband_json_render(&r, buf, sizeof(buf)), n);
		assert_string_equal(buf, want);
	}
}

static void test_json_render(void **state)
{
	(void)state;
	render("\x04\x0A\x00", 3, "{\"Base\":{\"ts\":10,\"kind\":{\"IsrEnter\":{\"isr_id\":0}}}}");
	render("\x03\x00ISR0", 6, "{\"BaseMetadata\":{\"IsrName\":{\"isr_id\":0,\"name\":\"ISR0\"}}}");
	render("\x65\x01\x03", 3,
	       "{\"FreeRTOSMetadata\":{\"QueueKind\":{\"queue_id\":1,\"kind\":\"FrqkMutex\"}}}");
	render("\x7F\x01\x00\x01", 4, "{\"FreeRTOS\":{\"ts\":1,\"kind\":{\"TaskValmarker\":"
	       "{\"valmarker_id\":0,\"val\":-9223372036854775808}}}}");
	/* serde_json escapes: quote, backslash, \b \t \n \f \r, other controls
	 * as \u00xx; DEL and non-ASCII verbatim */
	render("\x07\x00\x00q\"b\\\b\t\n\f\r\x01\x1F\x7F\xC3\xA4", 17,
	       "{\"Base\":{\"ts\":0,\"kind\":{\"Evtmarker\":{\"evtmarker_id\":0,\"msg\":"
	       "\"q\\\"b\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\x7F\xC3\xA4\"}}}}");
	/* an undefined enumerator is shown as its number */
	render("\x65\x02\x09", 3,
	       "{\"FreeRTOSMetadata\":{\"QueueKind\":{\"queue_id\":2,\"kind\":9}}}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cobs_examples),
		cmocka_unit_test(test_cobs_full_block_edge),
		cmocka_unit_test(test_cobs_errors),
		cmocka_unit_test(test_cobs_nz_same),
		cmocka_unit_test(test_cobs_raw_index),
		cmocka_unit_test(test_varlen_unsigned),
		cmocka_unit_test(test_varlen_errors),
		cmocka_unit_test(test_s64_sign_magnitude),
		cmocka_unit_test(test_utf8_strict),
		cmocka_unit_test(test_parse_events),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_padded_same),
		cmocka_unit_test(test_event_table),
		cmocka_unit_test(test_json_render),
		cmocka_unit_test(test_json_ts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
