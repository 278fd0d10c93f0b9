/*
 * test_sonde_errors.c -- damaged and unexpected input through the Sonde
 * decoder: each case produces exactly the expected diagnostics (code, byte
 * offset, frame number, count) and the rest of the stream still decodes.
 * Every case also runs one byte at a time and in random chunks, and in
 * protocol versions 2 and 1 (where records are built by hand, each its
 * own; version 2's timestamp field has its own errors).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_sonde_helpers.h"

static const unsigned V1 = 1, V2 = 2;
#define VERSION (*(const unsigned *)*state)

struct want {
	enum sonde_diag_code code;
	uint64_t offset, frame, count;
};

/* Decode in three chunkings; all must give the same, and these diags. */
static void run(const uint8_t *w, size_t n, const struct want *want, size_t nwant, struct trec *out)
{
	struct trec a, b, c;
	t_decode(w, n, T_WHOLE, &a);
	t_decode(w, n, T_BYTES, &b);
	t_decode(w, n, T_RANDOM, &c);
	assert_true(trec_equal(&a, &b));
	assert_true(trec_equal(&a, &c));
	trec_free(&b);
	trec_free(&c);
	for (size_t i = 0; i < a.ndg && a.ndg != nwant; i++)
		printf("    diag %zu: %d offset %llu frame %llu count %llu: %s\n", i, a.dg[i].code,
		       (unsigned long long)a.dg[i].offset, (unsigned long long)a.dg[i].frame,
		       (unsigned long long)a.dg[i].count, a.dg[i].msg);
	assert_int_equal(a.ndg, nwant);
	for (size_t i = 0; i < nwant; i++) {
		assert_int_equal(a.dg[i].code, want[i].code);
		assert_int_equal(a.dg[i].offset, want[i].offset);
		assert_int_equal(a.dg[i].frame, want[i].frame);
		assert_int_equal(a.dg[i].count, want[i].count);
	}
	*out = a;
}

/* A clean stream: session, a dictionary entry, a sync, ten MARKs (frames
 * 4..13), a sync (14) and a last MARK (15): 11 MARKs.  The sync at the end
 * lets the decoder time what it held after a loss, so no estimate (and no
 * diagnostic about it) gets in the way. */
static void base(struct tstream *s, unsigned version)
{
	ts_init_v(s, 0, version);
	ts_session(s, 1000, 4);
	ts_dict(s, SONDE_DICT_MARKER, 1, "m1");
	ts_sync(s, 50, TS_UNKNOWN);
	for (uint8_t i = 0; i < 10; i++)
		ts_timed(s, SONDE_REC_MARK, 50 + i, &i, 1);
	ts_sync(s, 60, 1);
	uint8_t last = 10;
	ts_timed(s, SONDE_REC_MARK, 60, &last, 1);
}

static size_t marks(const struct trec *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nev; i++)
		n += r->ev[i].ev.kind == SONDE_EV_MARK;
	return n;
}

/* Copy s's frames, with frame k replaced by the given bytes (NULL: as is). */
static struct tbuf with_frame(const struct tstream *s, size_t k, const uint8_t *rep, size_t nrep)
{
	struct tbuf w = { 0 };
	for (size_t i = 0; i < s->nframes; i++) {
		if (i == k)
			tb_put(&w, rep, nrep);
		else
			tb_put(&w, s->wire.p + s->starts[i], s->lens[i]);
	}
	return w;
}

static void test_bit_flip(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	uint8_t f[16];
	memcpy(f, s.wire.p + s.starts[6], s.lens[6]);
	f[2] ^= 0x40; /* compact time */
	struct tbuf w = with_frame(&s, 6, f, s.lens[6]);
	const struct want want[] = {
		{ SONDE_D_BAD_CHECKSUM, s.starts[6], 6, s.lens[6] },
		{ SONDE_D_SEQ_GAP, s.starts[7], 7, 1 },
	};
	struct trec r;
	run(w.p, w.n, want, 2, &r);
	assert_int_equal(marks(&r), 10);
	assert_string_equal(r.dg[1].msg, "sequence gap: 1 frames lost (seq 7 after 5)");
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_dropped_byte(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	uint8_t f[16];
	memcpy(f, s.wire.p + s.starts[8], 2);
	memcpy(f + 2, s.wire.p + s.starts[8] + 3, s.lens[8] - 3);
	struct tbuf w = with_frame(&s, 8, f, s.lens[8] - 1);
	const struct want want[] = {
		{ SONDE_D_BAD_CHECKSUM, s.starts[8], 8, s.lens[8] - 1 },
		{ SONDE_D_SEQ_GAP, s.starts[9] - 1, 9, 1 },
	};
	struct trec r;
	run(w.p, w.n, want, 2, &r);
	assert_int_equal(marks(&r), 10);
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_lost_flag(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	struct tbuf w = { 0 };
	tb_put(&w, s.wire.p, s.starts[5] + s.lens[5] - 1); /* frame 5 without its flag */
	tb_put(&w, s.wire.p + s.starts[6], s.wire.n - s.starts[6]);
	const struct want want[] = {
		{ SONDE_D_BAD_CHECKSUM, s.starts[5], 5, s.lens[5] - 1 + s.lens[6] },
		{ SONDE_D_SEQ_GAP, s.starts[7] - 1, 6, 2 },
	};
	struct trec r;
	run(w.p, w.n, want, 2, &r);
	assert_int_equal(marks(&r), 9);
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_garbage_before_and_between(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	struct tbuf w = { 0 };
	const uint8_t g1[] = { 0x31, 0x32, 0x33, 0x34 }, g2[] = { 0x7E, 0x7E, 0x41, 0x42 };
	tb_put(&w, g1, 4); /* joined mid-way: swallows the EMPTY frame, as the protocol intends */
	tb_put(&w, s.wire.p, s.starts[9]);
	tb_put(&w, g2, 4); /* idle flags, then bytes that swallow frame 9 */
	tb_put(&w, s.wire.p + s.starts[9], s.wire.n - s.starts[9]);
	const struct want want[] = {
		{ SONDE_D_GARBAGE, 0, 0, 4 + s.lens[0] },
		{ SONDE_D_BAD_CHECKSUM, 4 + s.starts[9] + 2, 9, 2 + s.lens[9] },
		{ SONDE_D_SEQ_GAP, 4 + s.starts[10] + 4, 10, 1 },
	};
	struct trec r;
	run(w.p, w.n, want, 3, &r);
	assert_int_equal(marks(&r), 10);
	assert_int_equal(r.ev[0].ev.kind, SONDE_EV_INFO); /* TARGET_INFO: the EMPTY is gone */
	assert_int_equal(r.ev[0].ev.frame, 1);
	assert_int_equal(r.ev[0].ev.offset, 4 + s.starts[1]);
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_truncated_at_end(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	const struct want want[] = { { SONDE_D_TRUNCATED, s.starts[15], 15, s.lens[15] - 1 } };
	struct trec r;
	run(s.wire.p, s.wire.n - 1, want, 1, &r);
	assert_int_equal(marks(&r), 10);
	trec_free(&r);
	tb_free(&s.wire);
}

static void test_sequence_gap(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	ts_skip_seq(&s, 200);
	uint8_t o = 77;
	size_t k = ts_timed(&s, SONDE_REC_MARK, 70, &o, 1);
	ts_sync(&s, 80, 10);
	const struct want want[] = { { SONDE_D_SEQ_GAP, s.starts[k], k, 200 } };
	struct trec r;
	run(s.wire.p, s.wire.n, want, 1, &r);
	assert_int_equal(marks(&r), 12);
	assert_int_equal(r.session.lost_unexplained, 200); /* no DROPS after the gap */
	trec_free(&r);
	tb_free(&s.wire);
}

static void test_escape_before_flag(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	uint8_t f[16];
	memcpy(f, s.wire.p + s.starts[10], s.lens[10]);
	f[s.lens[10] - 2] = SONDE_ESC;
	struct tbuf w = with_frame(&s, 10, f, s.lens[10]);
	const struct want want[] = {
		{ SONDE_D_ABORTED, s.starts[10], 10, s.lens[10] },
		{ SONDE_D_SEQ_GAP, s.starts[11], 11, 1 },
	};
	struct trec r;
	run(w.p, w.n, want, 2, &r);
	assert_int_equal(marks(&r), 10); /* only the aborted one is lost */
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_overlong_frame(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	struct tbuf big = { 0 };
	for (int i = 0; i < 600; i++) {
		tb_u8(&big, SONDE_ARG_U8);
		tb_u8(&big, 0x7E); /* escaped: the frame is 2400 bytes on the wire */
	}
	size_t k = ts_timed_b(&s, 0x40, 60, &big);
	tb_free(&big);
	uint8_t o = 1;
	ts_timed(&s, SONDE_REC_MARK, 61, &o, 1);
	ts_sync(&s, 62, 1);
	const struct want want[] = {
		{ SONDE_D_TOO_LONG, s.starts[k], k, s.lens[k] },
		{ SONDE_D_SEQ_GAP, s.starts[k + 1], k + 1, 1 },
	};
	struct trec r;
	run(s.wire.p, s.wire.n, want, 2, &r);
	assert_int_equal(marks(&r), 12);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Unknown records are reported and skipped.  In version 2 one may have
 * been a timed record (of a later protocol, say) whose delta the next
 * record's counts from: the time is unknown after it, and the MARK is held
 * until the TIME_SYNC places it -- exactly, where stepping past the
 * unknown record would have put it 3 ticks early. */
static void test_unknown_record_ids(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	const uint8_t d[] = { 1, 2, 3 };
	size_t a = ts_frame(&s, 0x1F, d, 3); /* v2: perhaps a record with a delta of 3 */
	s.last_t = 63;
	size_t b = ts_frame(&s, 0x80, d, 0);
	size_t c = ts_frame(&s, 0x23, d, 2);
	uint8_t o = 5;
	size_t m = ts_timed(&s, SONDE_REC_MARK, 70, &o, 1);
	ts_sync(&s, 80, 10);
	const struct want want[] = {
		{ SONDE_D_UNKNOWN_RECORD, s.starts[a], a, 1 },
		{ SONDE_D_UNKNOWN_RECORD, s.starts[b], b, 1 },
		{ SONDE_D_UNKNOWN_RECORD, s.starts[c], c, 1 },
	};
	struct trec r;
	run(s.wire.p, s.wire.n, want, 3, &r);
	assert_string_equal(r.dg[0].msg, "unknown record id 0x1F (3 data bytes) skipped");
	assert_string_equal(r.dg[1].msg, "unknown record id 0x80 (0 data bytes) skipped");
	assert_int_equal(marks(&r), 12);
	const struct tev *e = &r.ev[r.nev - 2];
	assert_int_equal(e->ev.frame, m);
	assert_int_equal(e->ev.ts, 70);
	assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
	trec_free(&r);
	tb_free(&s.wire);
}

/* A version this decoder does not know (3): one clear error, then nothing
 * until a TARGET_INFO of a version it knows (the test's version). */
static void test_wrong_version(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_frame(&s, SONDE_REC_EMPTY, NULL, 0);
	const uint8_t v4[] = { 4, SONDE_INFO_F_RESET, 4, 0, 0, 0, 1, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0 };
	size_t k = ts_frame(&s, SONDE_REC_TARGET_INFO, v4, sizeof(v4));
	ts_dict(&s, SONDE_DICT_MARKER, 1, "ignored");
	ts_sync(&s, 10, TS_UNKNOWN);
	uint8_t o = 1;
	ts_timed(&s, SONDE_REC_MARK, 11, &o, 1);
	ts_session(&s, 1000, 4); /* a session of a known version: decoding resumes */
	ts_sync(&s, 20, TS_UNKNOWN);
	ts_timed(&s, SONDE_REC_MARK, 21, &o, 1);
	const struct want want[] = { { SONDE_D_VERSION, s.starts[k] + 2, k, 1 } };
	struct trec r;
	run(s.wire.p, s.wire.n, want, 1, &r);
	assert_string_equal(r.dg[0].msg, "TARGET_INFO: protocol version 4 is not supported (this decoder knows "
					 "versions 1 to 3); nothing is decoded until a TARGET_INFO of one of those");
	assert_int_equal(r.session.version, VERSION);
	assert_string_equal(r.session.variant, VERSION == 1 ? "v1" : VERSION == 2 ? "v2" : "v3");
	/* EMPTY, then nothing (not even the next EMPTY) until the TARGET_INFO
	 * of a known version */
	assert_int_equal(r.nev, 4);
	assert_int_equal(r.ev[1].ev.frame, k + 5);
	assert_string_equal(r.ev[1].rec_name, "TARGET_INFO");
	const struct tev *m = &r.ev[r.nev - 1];
	assert_int_equal(m->ev.kind, SONDE_EV_MARK);
	assert_false(m->has_obj_name); /* the DICT of the rejected session was not taken */
	assert_int_equal(m->ev.ts, 21);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Wrong lengths and bad argument lists: reported at the exact byte, also
 * when escapes come before it.  Version 1: the frames as version 1 wrote
 * them, timestamp first (the decoder's reports of them are unchanged). */
static void test_malformed_records_v1(void **state)
{
	(void)state;
	struct tstream s;
	base(&s, 1);
	const uint8_t isr_long[] = { 0x7E, 0, 3, 9 };            /* 4 bytes, ISR_ENTER has 3 */
	size_t a = ts_frame(&s, SONDE_REC_ISR_ENTER, isr_long, 4);
	const uint8_t cnt_short[] = { 0, 0, 3 };                 /* COUNTER needs 4 to 11 */
	size_t b = ts_frame(&s, SONDE_REC_COUNTER, cnt_short, 3);
	struct tbuf p = { 0 };
	tb_u16(&p, 0x7E7E);                                      /* two escaped bytes */
	tb_u8(&p, SONDE_ARG_U8); tb_u8(&p, 7);
	tb_u8(&p, SONDE_ARG_STR); tb_strz(&p, "}}");               /* two more */
	tb_u8(&p, 0x33);                                         /* not a type */
	tb_u8(&p, SONDE_ARG_U8); tb_u8(&p, 8);
	size_t c = ts_frame_b(&s, 0x41, &p);
	tb_free(&p);
	tb_u16(&p, 100);
	tb_u8(&p, SONDE_ARG_U32); tb_u16(&p, 1);                 /* runs past the end */
	size_t d = ts_frame_b(&s, 0x42, &p);
	tb_free(&p);
	tb_u16(&p, 101);
	tb_u8(&p, SONDE_ARG_STR); tb_put(&p, "abc", 3);          /* no NUL */
	size_t e = ts_frame_b(&s, 0x43, &p);
	tb_free(&p);
	tb_u16(&p, 102);
	tb_u8(&p, SONDE_ARG_MEM); tb_u8(&p, 5); tb_u8(&p, 1);    /* 5 announced, 1 there */
	size_t f = ts_frame_b(&s, 0x44, &p);
	tb_free(&p);
	tb_u8(&p, SONDE_DICT_TASK); tb_u32(&p, 1); tb_strz(&p, "x"); tb_u8(&p, 'y');
	size_t g = ts_frame_b(&s, SONDE_REC_DICT, &p);
	tb_free(&p);
	tb_u8(&p, 0x0B); tb_u32(&p, 1); tb_strz(&p, "x");
	size_t h = ts_frame_b(&s, SONDE_REC_DICT, &p);
	tb_free(&p);
	const struct want want[] = {
		{ SONDE_D_MALFORMED, s.starts[a] + 2 + 1 + 3, a, 1 },          /* the 4th byte; 0x7E escaped */
		{ SONDE_D_MALFORMED, s.starts[b] + 2 + 3, b, 1 },              /* where the 4th should be */
		{ SONDE_D_MALFORMED, s.starts[c] + 2 + 2 + 2 + 2 + 4 + 2, c, 1 }, /* the 0x33 */
		{ SONDE_D_MALFORMED, s.starts[d] + 4, d, 1 },
		{ SONDE_D_MALFORMED, s.starts[e] + 4, e, 1 },
		{ SONDE_D_MALFORMED, s.starts[f] + 4, f, 1 },
		{ SONDE_D_MALFORMED, s.starts[g] + 2 + 7, g, 1 },
		{ SONDE_D_MALFORMED, s.starts[g + 1] + 2, h, 1 },
	};
	struct trec r;
	run(s.wire.p, s.wire.n, want, 8, &r);
	assert_string_equal(r.dg[0].msg, "ISR_ENTER: 4 data bytes, expected 3");
	assert_string_equal(r.dg[1].msg, "COUNTER: 3 data bytes, expected 4 to 11");
	assert_string_equal(r.dg[2].msg, "USER_0x41: argument 3: unknown type 0x33");
	assert_string_equal(r.dg[3].msg, "USER_0x42: argument 1: needs 4 bytes, 2 left");
	assert_string_equal(r.dg[4].msg, "USER_0x43: argument 1 (str): no NUL before the end of the record");
	assert_string_equal(r.dg[5].msg, "USER_0x44: argument 1 (mem): 5 bytes announced, 1 left");
	assert_string_equal(r.dg[6].msg, "DICT: 1 bytes after the name");
	assert_string_equal(r.dg[7].msg, "DICT: unknown kind 11");
	/* the user records are still reported, with what could be read */
	const struct tev *u = t_find(&r, SONDE_EV_RECORD, 0);
	assert_non_null(u);
	assert_int_equal(u->ev.flags, SONDE_EVF_MALFORMED);
	assert_int_equal(u->nargs, 2);
	assert_int_equal(u->args[0].u, 7);
	assert_memory_equal(u->args[1].mem, "}}", 2);
	assert_int_equal(t_find(&r, SONDE_EV_ISR_ENTER, 0) == NULL, 1);
	trec_free(&r);
	tb_free(&s.wire);
}

/* The same errors in version 2, where a timed record's own fields come
 * first and its timestamp field last: reported at the exact byte (escapes
 * before it counted), the timestamp field never taken for a field (the
 * string of 0x43 is not ended by its 0x00 timestamp), and the time still
 * stepping through the malformed records (their timestamp fields are fine):
 * the MARK after them is exact, with nothing held. */
static void test_malformed_records_v2(void **state)
{
	(void)state;
	struct tstream s;
	base(&s, 2);
	const uint8_t isr_long[] = { 0x7E, 9 };                  /* ISR_ENTER has 1 */
	size_t a = ts_timed(&s, SONDE_REC_ISR_ENTER, 61, isr_long, 2);
	const uint8_t cnt_short[] = { 0 };                       /* COUNTER needs 2 to 9 */
	size_t b = ts_timed(&s, SONDE_REC_COUNTER, 62, cnt_short, 1);
	struct tbuf p = { 0 };
	tb_u8(&p, SONDE_ARG_U8); tb_u8(&p, 0x7E);                /* one escaped byte */
	tb_u8(&p, SONDE_ARG_STR); tb_strz(&p, "}}");               /* two more */
	tb_u8(&p, 0x33);                                         /* not a type */
	tb_u8(&p, SONDE_ARG_U8); tb_u8(&p, 8);
	size_t c = ts_timed_b(&s, 0x41, 63, &p);
	tb_free(&p);
	tb_u8(&p, SONDE_ARG_U32); tb_u16(&p, 1);                 /* runs past the end */
	size_t d = ts_timed_b(&s, 0x42, 64, &p);
	tb_free(&p);
	tb_u8(&p, SONDE_ARG_STR); tb_put(&p, "abc", 3);          /* no NUL; the timestamp is 0x00 */
	size_t e = ts_timed_b(&s, 0x43, 64, &p);
	tb_free(&p);
	tb_u8(&p, SONDE_ARG_MEM); tb_u8(&p, 5); tb_u8(&p, 1);    /* 5 announced, 1 there */
	size_t f = ts_timed_b(&s, 0x44, 66, &p);
	tb_free(&p);
	const uint8_t exit_long[] = { 5 };                       /* ISR_EXIT has none */
	size_t g = ts_timed(&s, SONDE_REC_ISR_EXIT, 67, exit_long, 1);
	const uint8_t o = 1;
	size_t m = ts_timed(&s, SONDE_REC_MARK, 70, &o, 1);
	assert_int_equal(s.wire.p[s.starts[e] + s.lens[e] - 3], 0x00); /* e's timestamp field */
	const struct want want[] = {
		{ SONDE_D_MALFORMED, s.starts[a] + 2 + 1 + 1, a, 1 },          /* the 2nd byte; 0x7E escaped */
		{ SONDE_D_MALFORMED, s.starts[b] + 2 + 1, b, 1 },              /* where the 2nd should be */
		{ SONDE_D_MALFORMED, s.starts[c] + 2 + 2 + 1 + 1 + 4 + 1, c, 1 }, /* the 0x33 */
		{ SONDE_D_MALFORMED, s.starts[d] + 2, d, 1 },
		{ SONDE_D_MALFORMED, s.starts[e] + 2, e, 1 },
		{ SONDE_D_MALFORMED, s.starts[f] + 2, f, 1 },
		{ SONDE_D_MALFORMED, s.starts[g] + 2, g, 1 },
	};
	struct trec r;
	run(s.wire.p, s.wire.n, want, 7, &r);
	assert_string_equal(r.dg[0].msg, "ISR_ENTER: 2 data bytes before its 1-byte timestamp, expected 1");
	assert_string_equal(r.dg[1].msg, "COUNTER: 1 data bytes before its 1-byte timestamp, expected 2 to 9");
	assert_string_equal(r.dg[2].msg, "USER_0x41: argument 3: unknown type 0x33");
	assert_string_equal(r.dg[3].msg, "USER_0x42: argument 1: needs 4 bytes, 2 left");
	assert_string_equal(r.dg[4].msg, "USER_0x43: argument 1 (str): no NUL before the end of the record");
	assert_string_equal(r.dg[5].msg, "USER_0x44: argument 1 (mem): 5 bytes announced, 1 left");
	assert_string_equal(r.dg[6].msg, "ISR_EXIT: 1 data bytes before its 1-byte timestamp, expected 0");
	const struct tev *u = t_find(&r, SONDE_EV_RECORD, 0);
	assert_non_null(u);
	assert_int_equal(u->ev.flags, SONDE_EVF_MALFORMED);
	assert_int_equal(u->ev.ts, 63);
	assert_int_equal(u->nargs, 2);
	assert_int_equal(u->args[0].u, 0x7E);
	assert_memory_equal(u->args[1].mem, "}}", 2);
	const struct tev *mk = &r.ev[r.nev - 1];
	assert_int_equal(mk->ev.frame, m);
	assert_int_equal(mk->ev.ts, 70);
	assert_int_equal(mk->ev.ts_flags, SONDE_TS_VALID);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Version 2: a timestamp field that cannot be read -- the invalid tag
 * 1111xxxx, a tag that announces more bytes than the record has, no bytes
 * at all -- makes the record malformed (exact message and byte), and breaks
 * the chain of deltas like a lost frame: the records after it are held and
 * timed backwards, exactly, by the next TIME_SYNC. */
static void test_bad_timestamp_fields(void **state)
{
	(void)state;
	struct tstream s;
	base(&s, 2);
	static const struct {
		uint8_t id;
		uint8_t data[2];
		size_t n;
		size_t at; /* DATA index of the diagnostic */
		const char *msg;
	} bad[] = {
		{ SONDE_REC_MARK, { 1, 0xF3 }, 2, 1,
		  "MARK: timestamp field: last byte 0xF3 has the invalid width tag 1111xxxx" },
		{ SONDE_REC_MARK, { 1, 0xC5 }, 2, 1,
		  "MARK: timestamp field: last byte 0xC5 announces 3 bytes, the record has 2" },
		{ SONDE_REC_ISR_EXIT, { 0 }, 0, 0, "ISR_EXIT: no timestamp field (0 data bytes)" },
		{ 0x40, { 0xFF }, 1, 0, "USER_0x40: timestamp field: last byte 0xFF has the invalid width tag 1111xxxx" },
	};
	const size_t nbad = sizeof(bad) / sizeof(bad[0]);
	struct want want[sizeof(bad) / sizeof(bad[0])];
	size_t held[sizeof(bad) / sizeof(bad[0])][2];
	uint64_t t = 60;
	const uint8_t o = 2;
	for (size_t i = 0; i < nbad; i++) {
		size_t k = ts_frame(&s, bad[i].id, bad[i].data, bad[i].n);
		s.last_t = t += 40; /* the target wrote it then */
		want[i] = (struct want){ SONDE_D_MALFORMED, s.starts[k] + 2 + bad[i].at, k, 1 };
		held[i][0] = ts_timed(&s, SONDE_REC_MARK, t += 0x3000, &o, 1);
		held[i][1] = ts_timed(&s, SONDE_REC_MARK, t += 5, &o, 1);
		ts_sync(&s, t += 0x200000, 0x200000);
	}
	struct trec r;
	run(s.wire.p, s.wire.n, want, nbad, &r);
	for (size_t i = 0; i < nbad; i++)
		assert_string_equal(r.dg[i].msg, bad[i].msg);
	/* every MARK exact: 11 of the base stream, 2 after each bad record */
	assert_int_equal(marks(&r), 11 + 2 * nbad);
	t = 60;
	for (size_t i = 0; i < nbad; i++) {
		t += 40;
		for (size_t j = 0; j < 2; j++) {
			t += j ? 5 : 0x3000;
			size_t e = 0;
			while (e < r.nev && r.ev[e].ev.frame != held[i][j])
				e++;
			assert_true(e < r.nev);
			assert_int_equal(r.ev[e].ev.ts_flags, SONDE_TS_VALID);
			assert_int_equal(r.ev[e].ev.ts, t);
		}
		t += 0x200000;
	}
	assert_int_equal(t_count_diags(&r, SONDE_D_TIME), 0);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Random damage anywhere never crashes, and chunking never matters. */
static void test_random_damage(void **state)
{
	struct tstream s;
	base(&s, VERSION);
	for (int i = 0; i < 40; i++)
		ts_dict(&s, SONDE_DICT_FORMAT, (uint32_t)i, "%s %d %x %f %*.*s %c %p %%");
	uint64_t rs = 42;
	for (int round = 0; round < 300; round++) {
		struct tbuf w = { 0 };
		tb_put(&w, s.wire.p, s.wire.n);
		for (int k = 0; k < 5; k++)
			w.p[t_rand(&rs) % w.n] = (uint8_t)t_rand(&rs);
		struct trec a, b;
		t_decode_opts(w.p, w.n, T_WHOLE, rs, &a, NULL);
		t_decode_opts(w.p, w.n, T_RANDOM, rs, &b, NULL);
		assert_true(trec_equal(&a, &b));
		trec_free(&a);
		trec_free(&b);
		tb_free(&w);
	}
	tb_free(&s.wire);
}

int main(void)
{
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&V2), cmocka_unit_test_prestate(t, (void *)&V1)
	const struct CMUnitTest tests[] = {
		BOTH(test_bit_flip),
		BOTH(test_dropped_byte),
		BOTH(test_lost_flag),
		BOTH(test_garbage_before_and_between),
		BOTH(test_truncated_at_end),
		BOTH(test_sequence_gap),
		BOTH(test_escape_before_flag),
		BOTH(test_overlong_frame),
		BOTH(test_unknown_record_ids),
		BOTH(test_wrong_version),
		cmocka_unit_test(test_malformed_records_v1),
		cmocka_unit_test(test_malformed_records_v2),
		cmocka_unit_test(test_bad_timestamp_fields),
		BOTH(test_random_damage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
