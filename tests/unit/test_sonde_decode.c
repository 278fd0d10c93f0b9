/*
 * test_sonde_decode.c -- every record of docs/protocol.md §4 and every
 * argument type of §6, from frames built by hand with hdlc_encode, with
 * 0x7D and 0x7E placed in every field (sequence numbers, compact times,
 * ids, values, strings, checksums), checked field by field; and the same
 * results whatever the chunking of the input.  Every test runs in protocol
 * version 2 and in version 1 (its timestamp field first, a 16-bit counter).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_sonde_helpers.h"

#define T0 0x123456787E7DULL /* TIME_SYNC value: its low bytes need escaping */

static const unsigned V1 = 1, V2 = 2;
#define VERSION (*(const unsigned *)*state)

/* A session that starts at sequence number 0x7A so that the frames of the
 * test get the sequence numbers 0x7D and 0x7E. */
static void start(struct tstream *s, unsigned version)
{
	ts_init_v(s, 0x7A, version);
	ts_session(s, 1000000, 4);
}

static const struct tev *only(const struct trec *r, size_t i, enum sonde_ev_kind k, const char *name)
{
	assert_true(i < r->nev);
	assert_int_equal(r->ev[i].ev.kind, k);
	assert_string_equal(r->ev[i].rec_name, name);
	return &r->ev[i];
}

static void test_session_records(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_dict(&s, SONDE_DICT_TASK, 0x7E, "ta~sk}");
	ts_sync(&s, T0, TS_UNKNOWN);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, 4);
	const struct tev *e = only(&r, 0, SONDE_EV_INFO, "EMPTY");
	assert_int_equal(e->ev.seq, 0x7A);
	assert_int_equal(e->ev.ts_flags, 0);
	e = only(&r, 1, SONDE_EV_INFO, "TARGET_INFO");
	assert_int_equal(e->ev.offset, s.starts[1]);
	assert_int_equal(e->ev.frame, 1);
	assert_int_equal(e->nargs, 10);
	assert_string_equal(e->args[0].name, "version");
	assert_int_equal(e->args[0].u, VERSION);
	assert_string_equal(e->args[2].name, "reset");
	assert_int_equal(e->args[2].u, 1);
	assert_string_equal(e->args[4].name, "mode");
	assert_int_equal(e->args[4].memn, 9);
	assert_memory_equal(e->args[4].mem, "overwrite", 9);
	assert_string_equal(e->args[6].name, "ts_size");
	assert_int_equal(e->args[6].u, VERSION == 1 ? 2 : 0);
	assert_string_equal(e->args[7].name, "ts_freq");
	assert_int_equal(e->args[7].u, 1000000);
	assert_string_equal(e->args[9].name, "build_id");
	assert_int_equal(e->args[9].u, 0xB01DFACE);
	assert_int_equal(r.session.ts_freq, 1000000);
	assert_int_equal(r.session.addr_size, 4);
	assert_int_equal(r.session.buffer_size, 4096);
	assert_int_equal(r.session.build_id, 0xB01DFACE);
	assert_int_equal(r.session.buffer_mode, SONDE_MODE_OVERWRITE);
	assert_int_equal(r.session.version, VERSION);
	assert_string_equal(r.session.variant, VERSION == 1 ? "v1" : "v2");
	e = only(&r, 2, SONDE_EV_DICT, "DICT");
	assert_int_equal(e->ev.seq, 0x7C);
	assert_int_equal(e->ev.obj, 0x7E);
	assert_int_equal(e->ev.obj2, SONDE_DICT_TASK);
	assert_string_equal(e->obj2_name, "TASK");
	assert_string_equal(e->text, "ta~sk}");
	e = only(&r, 3, SONDE_EV_TIME_SYNC, "TIME_SYNC");
	assert_int_equal(e->ev.seq, 0x7D);
	assert_int_equal(e->ev.ts, T0);
	assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
	assert_int_equal(e->nargs, 1); /* no timed record before it */
	assert_string_equal(e->args[0].name, "since_prev");
	assert_int_equal(e->args[0].type, SONDE_A_STR);
	assert_memory_equal(e->args[0].mem, "unknown", 7);
	assert_int_equal(e->args[0].memn, 7);
	trec_free(&r);
	tb_free(&s.wire);
}

/* All timed system records, names resolved, times exact. */
static void test_system_records(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_dict(&s, SONDE_DICT_ISR, 0x7D, "IRQ}");
	ts_dict(&s, SONDE_DICT_ISR, 0x7E, "IRQ~");
	ts_dict(&s, SONDE_DICT_TASK, 0x7E, "main");
	ts_dict(&s, SONDE_DICT_MARKER, 0x7D, "frame");
	ts_dict(&s, SONDE_DICT_COUNTER, 0x7E, "queue");
	ts_dict(&s, SONDE_DICT_FUNCTION, 0x7D7E, "parse");
	ts_dict(&s, SONDE_DICT_FUNCTION, 0x7E7D7E7D, "isr_fn");
	ts_dict(&s, SONDE_DICT_OBJECT, 0x7D, "generic"); /* shadowed by the MARKER entry */
	ts_dict(&s, SONDE_DICT_OBJECT, 0x10, "obj16");
	ts_sync(&s, T0, TS_UNKNOWN);
	uint64_t t = T0;
	const uint8_t o7e[] = { 0x7E }, o7d[] = { 0x7D }, o10[] = { 0x10 };
	const uint8_t create[] = { 0x7E, 0x7D }, out_blk[] = { 0x7E, SONDE_TASK_BLOCKED };
	const uint8_t cnt32[] = { 0x7E, 0x7E, 0x7D, 0xFF, 0xFF };         /* -0x8282 */
	const uint8_t cnt64[] = { 0x7E, 0x7D, 0x7E, 0x7D, 0x7E, 0x7D, 0x7E, 0x7D, 0x7E };
	const uint8_t cnt1[] = { 0x7D, 0xFE };                           /* -2 */
	const uint8_t fn16[] = { 0x7E, 0x7D };
	const uint8_t fnad[] = { 0x7D, 0x7E, 0x7D, 0x7E };
	ts_timed(&s, SONDE_REC_TASK_CREATE, t, create, 2);
	ts_timed(&s, SONDE_REC_TASK_READY, t += 0x7E, o7e, 1);
	ts_timed(&s, SONDE_REC_TASK_IN, t += 0x7D00, o7e, 1);
	ts_timed(&s, SONDE_REC_FUNC_ENTER, t += 1, fn16, 2);      /* main: parse */
	ts_timed(&s, SONDE_REC_ISR_ENTER, t += 2, o7d, 1);        /* depth 1 */
	ts_timed(&s, SONDE_REC_FUNC_ENTER_A, t += 3, fnad, 4);    /* in the ISR */
	ts_timed(&s, SONDE_REC_ISR_ENTER, t += 4, o7e, 1);        /* depth 2 */
	ts_timed(&s, SONDE_REC_ISR_EXIT, t += 5, NULL, 0);
	ts_timed(&s, SONDE_REC_FUNC_EXIT, t += 6, NULL, 0);       /* isr_fn */
	ts_timed(&s, SONDE_REC_ISR_EXIT, t += 7, NULL, 0);
	ts_timed(&s, SONDE_REC_FUNC_EXIT, t += 8, NULL, 0);       /* back in main: parse */
	ts_timed(&s, SONDE_REC_MARK, t += 9, o7d, 1);
	ts_timed(&s, SONDE_REC_MARK_BEGIN, t += 10, o10, 1);
	ts_timed(&s, SONDE_REC_MARK_END, t += 11, o10, 1);
	ts_timed(&s, SONDE_REC_COUNTER, t += 12, cnt32, sizeof(cnt32));
	ts_timed(&s, SONDE_REC_COUNTER, t += 13, cnt64, sizeof(cnt64));
	ts_timed(&s, SONDE_REC_COUNTER, t += 14, cnt1, sizeof(cnt1));
	ts_timed(&s, SONDE_REC_TASK_OUT, t += 0xFFFF, out_blk, 2); /* just under 2^16 ticks apart */
	ts_timed(&s, SONDE_REC_IDLE, t += 0x7E7D, NULL, 0);
	ts_timed(&s, SONDE_REC_FUNC_EXIT, t += 1, NULL, 0);        /* nothing entered in this context */

	for (int how = T_WHOLE; how <= T_RANDOM; how++) {
		struct trec r;
		t_decode(s.wire.p, s.wire.n, (enum tchunks)how, &r);
		assert_int_equal(r.ndg, 0);
		size_t i = 12; /* EMPTY, TARGET_INFO, 9 DICT, TIME_SYNC */
		uint64_t tt = T0;
		const struct tev *e = only(&r, i++, SONDE_EV_TASK_CREATE, "TASK_CREATE");
		assert_int_equal(e->ev.ts, tt);
		assert_int_equal(e->ev.obj, 0x7E);
		assert_string_equal(e->obj_name, "main");
		assert_int_equal(e->ev.obj2, 0x7D);
		e = only(&r, i++, SONDE_EV_TASK_READY, "TASK_READY");
		assert_int_equal(e->ev.ts, tt += 0x7E);
		e = only(&r, i++, SONDE_EV_TASK_IN, "TASK_IN");
		assert_int_equal(e->ev.ts, tt += 0x7D00);
		e = only(&r, i++, SONDE_EV_FUNC_ENTER, "FUNC_ENTER");
		assert_int_equal(e->ev.ts, tt += 1);
		assert_int_equal(e->ev.obj, 0x7D7E);
		assert_string_equal(e->obj_name, "parse");
		assert_int_equal(e->ev.value, 1);
		assert_int_equal(e->ev.flags, 0);
		e = only(&r, i++, SONDE_EV_ISR_ENTER, "ISR_ENTER");
		assert_int_equal(e->ev.ts, tt += 2);
		assert_int_equal(e->ev.obj, 0x7D);
		assert_string_equal(e->obj_name, "IRQ}");
		assert_int_equal(e->ev.value, 1);
		e = only(&r, i++, SONDE_EV_FUNC_ENTER, "FUNC_ENTER_A");
		assert_int_equal(e->ev.ts, tt += 3);
		assert_int_equal(e->ev.obj, 0x7E7D7E7D);
		assert_int_equal(e->ev.flags, SONDE_EVF_ADDR);
		assert_string_equal(e->obj_name, "isr_fn");
		assert_int_equal(e->ev.value, 1); /* the ISR's own stack */
		e = only(&r, i++, SONDE_EV_ISR_ENTER, "ISR_ENTER");
		assert_int_equal(e->ev.ts, tt += 4);
		assert_int_equal(e->ev.value, 2);
		e = only(&r, i++, SONDE_EV_ISR_EXIT, "ISR_EXIT");
		assert_int_equal(e->ev.ts, tt += 5);
		assert_int_equal(e->ev.obj, 0x7E);
		assert_string_equal(e->obj_name, "IRQ~");
		assert_int_equal(e->ev.value, 2);
		e = only(&r, i++, SONDE_EV_FUNC_EXIT, "FUNC_EXIT");
		assert_int_equal(e->ev.ts, tt += 6);
		assert_int_equal(e->ev.obj, 0x7E7D7E7D);
		assert_int_equal(e->ev.flags, SONDE_EVF_ADDR);
		assert_string_equal(e->obj_name, "isr_fn");
		e = only(&r, i++, SONDE_EV_ISR_EXIT, "ISR_EXIT");
		assert_int_equal(e->ev.obj, 0x7D);
		assert_int_equal(e->ev.value, 1);
		tt += 7;
		e = only(&r, i++, SONDE_EV_FUNC_EXIT, "FUNC_EXIT");
		assert_int_equal(e->ev.ts, tt += 8);
		assert_int_equal(e->ev.obj, 0x7D7E);
		assert_int_equal(e->ev.flags, 0);
		assert_string_equal(e->obj_name, "parse");
		assert_int_equal(e->ev.value, 1);
		e = only(&r, i++, SONDE_EV_MARK, "MARK");
		assert_int_equal(e->ev.ts, tt += 9);
		assert_string_equal(e->obj_name, "frame");
		e = only(&r, i++, SONDE_EV_MARK_BEGIN, "MARK_BEGIN");
		assert_string_equal(e->obj_name, "obj16"); /* generic OBJECT name */
		tt += 10;
		e = only(&r, i++, SONDE_EV_MARK_END, "MARK_END");
		assert_int_equal(e->ev.ts, tt += 11);
		e = only(&r, i++, SONDE_EV_COUNTER, "COUNTER");
		assert_int_equal(e->ev.ts, tt += 12);
		assert_int_equal(e->ev.obj, 0x7E);
		assert_string_equal(e->obj_name, "queue");
		assert_int_equal(e->ev.value, (int64_t)(int32_t)0xFFFF7D7E);
		e = only(&r, i++, SONDE_EV_COUNTER, "COUNTER");
		assert_int_equal(e->ev.value, (int64_t)0x7E7D7E7D7E7D7E7DULL);
		tt += 13;
		e = only(&r, i++, SONDE_EV_COUNTER, "COUNTER");
		assert_int_equal(e->ev.obj, 0x7D);
		assert_int_equal(e->ev.value, -2);
		tt += 14;
		e = only(&r, i++, SONDE_EV_TASK_OUT, "TASK_OUT");
		assert_int_equal(e->ev.ts, tt += 0xFFFF);
		assert_int_equal(e->ev.obj2, SONDE_TASK_BLOCKED);
		assert_string_equal(e->obj2_name, "blocked");
		e = only(&r, i++, SONDE_EV_IDLE, "IDLE");
		assert_int_equal(e->ev.ts, tt += 0x7E7D);
		e = only(&r, i++, SONDE_EV_FUNC_EXIT, "FUNC_EXIT");
		assert_int_equal(e->ev.flags, SONDE_EVF_NO_OBJ);
		assert_int_equal(e->ev.value, 0);
		assert_int_equal(r.nev, i);
		for (size_t k = 12; k < r.nev; k++) {
			assert_int_equal(r.ev[k].ev.ts_flags, SONDE_TS_VALID);
			assert_int_equal(r.ev[k].ev.offset, s.starts[k]);
			assert_int_equal(r.ev[k].ev.frame, k);
			assert_int_equal(r.ev[k].ev.seq, (uint8_t)(0x7A + k));
		}
		trec_free(&r);
	}
	tb_free(&s.wire);
}

/* Every argument type with 0x7D/0x7E in each of its bytes, in a user record
 * and in a LOG. */
static void put_all_args(struct tbuf *p)
{
	tb_u8(p, SONDE_ARG_U8);  tb_u8(p, 0x7E);
	tb_u8(p, SONDE_ARG_U16); tb_u16(p, 0x7D7E);
	tb_u8(p, SONDE_ARG_U32); tb_u32(p, 0x7E7D7E7D);
	tb_u8(p, SONDE_ARG_U64); tb_u64(p, 0xFE7D7E7D7E7D7E7DULL);
	tb_u8(p, SONDE_ARG_I8);  tb_u8(p, 0x7D);
	tb_u8(p, SONDE_ARG_I16); tb_u16(p, 0xFE7D);                 /* -387 */
	tb_u8(p, SONDE_ARG_I32); tb_u32(p, 0xFE7D7E7D);
	tb_u8(p, SONDE_ARG_I64); tb_u64(p, 0xFE7E7D7E7D7E7D7EULL);
	tb_u8(p, SONDE_ARG_F32); tb_u32(p, 0x427E7D7E);             /* 63.62255096435547 */
	tb_u8(p, SONDE_ARG_F64); tb_u64(p, 0x407E7D7E7D7E7D7EULL);
	tb_u8(p, SONDE_ARG_STR); tb_strz(p, "}~ok~}");
	tb_u8(p, SONDE_ARG_MEM); tb_u8(p, 0x03); tb_u8(p, 0x7E); tb_u8(p, 0x7D); tb_u8(p, 0x00);
	tb_u8(p, SONDE_ARG_OBJ); tb_u8(p, 0x7E);
	tb_u8(p, SONDE_ARG_FUNC); tb_u32(p, 0x7D7E7D7E);
	tb_u8(p, SONDE_ARG_ENUM); tb_u8(p, 0x7E); tb_u8(p, 0x7D);
	tb_u8(p, SONDE_ARG_STR); tb_strz(p, "");
	tb_u8(p, SONDE_ARG_MEM); tb_u8(p, 0x00);
}

static void check_all_args(const struct tev *e)
{
	assert_int_equal(e->nargs, 17);
	const struct targ *a = e->args;
	assert_int_equal(a[0].type, SONDE_A_U8);   assert_int_equal(a[0].u, 0x7E);
	assert_int_equal(a[1].type, SONDE_A_U16);  assert_int_equal(a[1].u, 0x7D7E);
	assert_int_equal(a[2].type, SONDE_A_U32);  assert_int_equal(a[2].u, 0x7E7D7E7D);
	assert_int_equal(a[3].type, SONDE_A_U64);  assert_true(a[3].u == 0xFE7D7E7D7E7D7E7DULL);
	assert_int_equal(a[4].type, SONDE_A_I8);   assert_int_equal(a[4].i, 0x7D);
	assert_int_equal(a[5].type, SONDE_A_I16);  assert_int_equal(a[5].i, -387);
	assert_int_equal(a[6].type, SONDE_A_I32);  assert_int_equal(a[6].i, (int32_t)0xFE7D7E7D);
	assert_int_equal(a[7].type, SONDE_A_I64);  assert_true(a[7].i == (int64_t)0xFE7E7D7E7D7E7D7EULL);
	assert_int_equal(a[8].type, SONDE_A_F32);  assert_true(a[8].f == 63.62255096435547);
	assert_int_equal(a[9].type, SONDE_A_F64);
	double f64;
	uint64_t bits = 0x407E7D7E7D7E7D7EULL;
	memcpy(&f64, &bits, 8);
	assert_true(a[9].f == f64);
	assert_int_equal(a[10].type, SONDE_A_STR);
	assert_int_equal(a[10].memn, 6);
	assert_memory_equal(a[10].mem, "}~ok~}", 6);
	assert_int_equal(a[11].type, SONDE_A_MEM);
	assert_int_equal(a[11].memn, 3);
	assert_memory_equal(a[11].mem, "\x7E\x7D\x00", 3);
	assert_int_equal(a[12].type, SONDE_A_OBJ); assert_int_equal(a[12].u, 0x7E);
	assert_string_equal(a[12].resolved, "task~"); /* the TASK entry: no OBJECT entry for 0x7E */
	assert_int_equal(a[13].type, SONDE_A_FUNC); assert_int_equal(a[13].u, 0x7D7E7D7E);
	assert_string_equal(a[13].resolved, "fn}~");
	assert_int_equal(a[14].type, SONDE_A_ENUM);
	assert_int_equal(a[14].group, 0x7E);
	assert_int_equal(a[14].u, 0x7D);
	assert_string_equal(a[14].resolved, "RED");
	assert_int_equal(a[15].type, SONDE_A_STR); assert_int_equal(a[15].memn, 0);
	assert_int_equal(a[16].type, SONDE_A_MEM); assert_int_equal(a[16].memn, 0);
	for (size_t i = 0; i < 17; i++)
		if (i != 12 && i != 13 && i != 14)
			assert_false(a[i].has_resolved);
}

static void test_user_record_and_log_all_arg_types(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_dict(&s, SONDE_DICT_TASK, 0x7E, "task~");
	ts_dict(&s, SONDE_DICT_FUNCTION, 0x7D7E7D7E, "fn}~");
	ts_dict(&s, SONDE_DICT_ENUM, 0x7E7D, "RED");
	ts_dict(&s, SONDE_DICT_RECORD, 0x7E, "rec~");
	ts_dict(&s, SONDE_DICT_FORMAT, 0x7D7E,
		"%u %u %u %llu %d %d %d %lld %.3f %g %s %s %s %s %s [%s] %s");
	ts_sync(&s, T0, TS_UNKNOWN);
	struct tbuf p = { 0 };
	put_all_args(&p);
	size_t user = ts_timed_b(&s, 0x7E, T0, &p); /* v1: compact time 0x7E7D */
	tb_free(&p);
	tb_u8(&p, SONDE_LVL_WARN);
	tb_u16(&p, 0x7D7E);
	put_all_args(&p);
	ts_timed_b(&s, SONDE_REC_LOG, T0 + 0xFF01, &p); /* v1: 0x7D7E; v2: a delta of 0xFF01 */
	tb_free(&p);
	/* a user record with no name and no arguments */
	ts_timed(&s, 0x7D, T0 + 0xFF02, NULL, 0);

	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	const struct tev *e = only(&r, user, SONDE_EV_RECORD, "rec~");
	assert_int_equal(e->ev.rec_id, 0x7E);
	assert_int_equal(e->ev.ts, T0); /* the same time as the TIME_SYNC */
	check_all_args(e);
	e = only(&r, user + 1, SONDE_EV_LOG, "LOG");
	assert_int_equal(e->ev.level, SONDE_LVL_WARN);
	assert_int_equal(e->ev.obj, 0x7D7E);
	assert_int_equal(e->ev.ts, T0 + 0xFF01);
	check_all_args(e);
	assert_string_equal(e->text, "126 32126 2122153597 18337952335180693117 125 -387 -25330051 "
				     "-108511358785520258 63.623 487.843 }~ok~} <7e 7d 00> task~ fn}~ RED [] <>");
	e = only(&r, user + 2, SONDE_EV_RECORD, "USER_0x7D");
	assert_int_equal(e->nargs, 0);
	assert_int_equal(e->ev.ts, T0 + 0xFF02);
	trec_free(&r);
	tb_free(&s.wire);
}

/* The checksum takes every value, 0x7D and 0x7E included. */
static void test_every_checksum_value(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_sync(&s, T0, TS_UNKNOWN);
	for (unsigned v = 0; v < 256; v++) {
		uint8_t d[] = { SONDE_ARG_U8, (uint8_t)v };
		ts_timed(&s, 0x40, T0, d, 2);
	}
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_RANDOM, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, 3 + 256);
	for (unsigned v = 0; v < 256; v++) {
		const struct tev *e = &r.ev[3 + v];
		assert_int_equal(e->nargs, 1);
		assert_int_equal(e->args[0].u, v);
		assert_int_equal(e->ev.ts, T0);
	}
	trec_free(&r);
	tb_free(&s.wire);
}

/* 8-byte addresses (from TARGET_INFO) in FUNC_ENTER_A and FUNC arguments;
 * DICT ids match their low 32 bits. */
static void test_addr_size_8(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_session(&s, 0, 8);
	ts_dict(&s, SONDE_DICT_FUNCTION, 0x7E7D1234, "far");
	ts_sync(&s, 100, TS_UNKNOWN);
	struct tbuf p = { 0 };
	tb_u64(&p, 0x00007FFF7E7D1234ULL);
	ts_timed(&s, SONDE_REC_FUNC_ENTER_A, 101, p.p, p.n);
	tb_free(&p);
	tb_u8(&p, SONDE_ARG_FUNC);
	tb_u64(&p, 0x00007FFF7E7D1234ULL);
	ts_timed_b(&s, 0x41, 102, &p);
	tb_free(&p);
	const uint8_t short4[] = { 1, 2, 3, 4 };
	size_t bad = ts_timed(&s, SONDE_REC_FUNC_ENTER_A, 103, short4, 4);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	const struct tev *e = only(&r, 4, SONDE_EV_FUNC_ENTER, "FUNC_ENTER_A");
	assert_true(e->ev.obj == 0x00007FFF7E7D1234ULL);
	assert_string_equal(e->obj_name, "far");
	e = only(&r, 5, SONDE_EV_RECORD, "USER_0x41");
	assert_true(e->args[0].u == 0x00007FFF7E7D1234ULL);
	assert_string_equal(e->args[0].resolved, "far");
	assert_int_equal(r.ndg, 1);
	assert_int_equal(r.dg[0].code, SONDE_D_MALFORMED);
	if (VERSION == 1) {
		assert_int_equal(r.dg[0].offset, s.starts[bad] + 2 + 6); /* where the missing bytes should be */
		assert_string_equal(r.dg[0].msg, "FUNC_ENTER_A: 6 data bytes, expected 10");
	} else {
		assert_int_equal(r.dg[0].offset, s.starts[bad] + 2 + 4); /* the timestamp field, too early */
		assert_string_equal(r.dg[0].msg, "FUNC_ENTER_A: 4 data bytes before its 1-byte timestamp, expected 8");
	}
	trec_free(&r);
	tb_free(&s.wire);
}

/* A dictionary entry replaces the earlier one; a reset forgets them all. */
static void test_dict_replace_and_reset(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_session(&s, 1000, 4);
	ts_dict(&s, SONDE_DICT_ISR, 3, "old");
	ts_dict(&s, SONDE_DICT_ISR, 3, "new");
	ts_sync(&s, 10, TS_UNKNOWN);
	const uint8_t isr3[] = { 3 };
	ts_timed(&s, SONDE_REC_ISR_ENTER, 11, isr3, 1);
	ts_session(&s, 1000, 4); /* target restarted: EMPTY resets the sequence silently */
	ts_sync(&s, 5, TS_UNKNOWN);
	ts_timed(&s, SONDE_REC_ISR_ENTER, 6, isr3, 1);
	ts_timed(&s, SONDE_REC_ISR_EXIT, 7, NULL, 0);
	ts_timed(&s, SONDE_REC_ISR_EXIT, 8, NULL, 0); /* one too many */
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	const struct tev *e = only(&r, 5, SONDE_EV_ISR_ENTER, "ISR_ENTER");
	assert_string_equal(e->obj_name, "new");
	assert_int_equal(e->ev.ts, 11);
	e = only(&r, 9, SONDE_EV_ISR_ENTER, "ISR_ENTER");
	assert_false(e->has_obj_name);
	assert_int_equal(e->ev.value, 1); /* the stack was reset too */
	assert_int_equal(e->ev.ts, 6);
	e = only(&r, 11, SONDE_EV_ISR_EXIT, "ISR_EXIT");
	assert_int_equal(e->ev.flags, SONDE_EVF_NO_OBJ);
	assert_int_equal(e->ev.value, 0);
	trec_free(&r);
	tb_free(&s.wire);
}

/* The command channel's replies (protocol §9.2) are timed records: named
 * events with their fields, and links in the time chain -- forwards (two
 * steps of 0xF000 ticks with a reply between are no 0x1E000 step) and
 * backwards after a loss (since_prev counts from a reply too). */
static void test_replies(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_session(&s, 1000, 4);
	ts_sync(&s, 1000, TS_UNKNOWN);
	const uint8_t o[] = { 1 };
	ts_timed(&s, SONDE_REC_MARK, 1000, o, 1);
	const uint8_t st[] = { 0x42, SONDE_CMD_STOP, SONDE_ST_OK };
	ts_timed(&s, SONDE_REC_CMD_STATUS, 1000 + 0xF000, st, 3);
	size_t m2 = ts_timed(&s, SONDE_REC_MARK, 1000 + 0x1E000, o, 1);
	const uint8_t peek[] = { 0x78, 0x56, 0x34, 0x12, 3, 0x7E, 0x00, 0xFF };
	ts_timed(&s, SONDE_REC_PEEK_DATA, 1000 + 0x1E001, peek, sizeof(peek));
	struct tbuf p = { 0 };
	tb_u32(&p, 10);
	tb_u32(&p, 2);
	tb_u32(&p, 1);
	tb_u32(&p, 300);
	ts_timed(&s, SONDE_REC_TARGET_STATS, 1000 + 0x1E002, p.p, p.n);
	tb_free(&p);
	const uint8_t peek_bad[] = { 0x78, 0x56, 0x34, 0x12, 4, 0x7E, 0x00, 0xFF }; /* n says 4, 3 follow */
	size_t bad = ts_timed(&s, SONDE_REC_PEEK_DATA, 1000 + 0x1E003, peek_bad, sizeof(peek_bad));
	ts_skip_seq(&s, 2); /* a loss, then a reply held until the TIME_SYNC */
	const uint8_t st2[] = { 0x43, SONDE_CMD_STATS, SONDE_ST_BAD_STATE };
	size_t held = ts_timed(&s, SONDE_REC_CMD_STATUS, 5000000, st2, 3);
	ts_sync(&s, 5000000 + 0x30000, 0x30000);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 2);
	assert_int_equal(r.dg[0].code, SONDE_D_MALFORMED);
	assert_int_equal(r.dg[0].offset, s.starts[bad] + 2 + ts_fields_at(&s) + 4);
	assert_string_equal(r.dg[0].msg, "PEEK_DATA: n is 4, 3 bytes follow");
	assert_int_equal(r.dg[1].code, SONDE_D_SEQ_GAP);
	const struct tev *e = only(&r, 4, SONDE_EV_RECORD, "CMD_STATUS");
	assert_int_equal(e->ev.ts, 1000 + 0xF000);
	assert_int_equal(e->nargs, 3);
	assert_string_equal(e->args[0].name, "seq");
	assert_int_equal(e->args[0].u, 0x42);
	assert_int_equal(e->args[1].u, SONDE_CMD_STOP);
	assert_int_equal(e->args[2].u, SONDE_ST_OK);
	assert_string_equal(e->text, "OK");
	e = only(&r, 5, SONDE_EV_MARK, "MARK");
	assert_int_equal(e->ev.frame, m2);
	assert_int_equal(e->ev.ts, 1000 + 0x1E000);
	assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
	e = only(&r, 6, SONDE_EV_RECORD, "PEEK_DATA");
	assert_int_equal(e->nargs, 3);
	assert_int_equal(e->args[0].u, 0x12345678);
	assert_int_equal(e->args[1].u, 3);
	assert_int_equal(e->args[2].type, SONDE_A_MEM);
	assert_int_equal(e->args[2].memn, 3);
	assert_memory_equal(e->args[2].mem, "\x7E\x00\xFF", 3);
	e = only(&r, 7, SONDE_EV_RECORD, "TARGET_STATS");
	assert_int_equal(e->nargs, 4);
	assert_string_equal(e->args[3].name, "bytes");
	assert_int_equal(e->args[3].u, 300);
	e = only(&r, 8, SONDE_EV_RECORD, "PEEK_DATA");
	assert_int_equal(e->ev.flags, SONDE_EVF_MALFORMED);
	e = only(&r, 9, SONDE_EV_RECORD, "CMD_STATUS");
	assert_int_equal(e->ev.frame, held);
	assert_int_equal(e->ev.ts, 5000000);
	assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
	assert_string_equal(e->text, "BAD_STATE");
	trec_free(&r);
	tb_free(&s.wire);
}

/* Version 2's timestamp field (protocol §5): the worked example byte for
 * byte, every width at the edges of its range, wider fields than needed
 * (a decoder accepts any width), tag bytes that need escaping, and T
 * advancing by each delta. */
static void test_v2_timestamp_fields(void **state)
{
	(void)state;
	struct tstream s;
	ts_init(&s, 0);
	ts_session(&s, 1000, 4);
	ts_sync(&s, 1000, TS_UNKNOWN);
	/* the worked example: ISR_ENTER DATA 05 8C 83 = object 5, 908 ticks */
	const uint8_t example[] = { 0x05, 0x8C, 0x83 };
	size_t ex = ts_frame(&s, SONDE_REC_ISR_ENTER, example, sizeof(example));
	s.last_t = 1000 + 908;
	static const struct {
		uint32_t delta;
		size_t width; /* 0: the narrowest */
	} steps[] = {
		{ 0, 0 },        { 0x7F, 0 },      { 0x80, 0 },     { 0x3FFF, 0 },   { 0x4000, 0 },
		{ 0x1FFFFF, 0 }, { 0x200000, 0 },  { 0xFFFFFFF, 0 }, { 0, 4 },        { 5, 2 },
		{ 0x7D, 3 },     { 0x3E7E, 2 },    { 0x1F7D7E, 3 }, { 0xE7D7E7D, 4 }, { 0x3D, 4 },
	};
	const size_t nsteps = sizeof(steps) / sizeof(steps[0]);
	uint64_t t = s.last_t, want[sizeof(steps) / sizeof(steps[0])];
	for (size_t i = 0; i < nsteps; i++) {
		uint8_t o = (uint8_t)i;
		t += steps[i].delta;
		want[i] = t;
		ts_timed_w(&s, SONDE_REC_MARK, t, steps[i].width, &o, 1);
	}
	/* the escaped tag: 0x7E is a 1-byte field of 126 ticks, 0x7D one of 125 */
	const uint8_t nine = 9;
	size_t e1 = ts_timed(&s, SONDE_REC_MARK, t + 126, &nine, 1);
	size_t e2 = ts_timed(&s, SONDE_REC_MARK, t + 126 + 125, &nine, 1);
	assert_true(s.wire.p[s.starts[e1]] < 0x7D && s.wire.p[s.starts[e2]] < 0x7D); /* SEQ not escaped */
	assert_memory_equal(s.wire.p + s.starts[e1] + 1, "\x0C\x09\x7D\x5E", 4);
	assert_memory_equal(s.wire.p + s.starts[e2] + 1, "\x0C\x09\x7D\x5D", 4);
	for (int how = T_WHOLE; how <= T_RANDOM; how++) {
		struct trec r;
		t_decode(s.wire.p, s.wire.n, (enum tchunks)how, &r);
		assert_int_equal(r.ndg, 0);
		const struct tev *e = only(&r, ex, SONDE_EV_ISR_ENTER, "ISR_ENTER");
		assert_int_equal(e->ev.obj, 5);
		assert_int_equal(e->ev.ts, 1000 + 908);
		for (size_t i = 0; i < nsteps; i++) {
			e = only(&r, ex + 1 + i, SONDE_EV_MARK, "MARK");
			assert_int_equal(e->ev.obj, i);
			assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
			if (e->ev.ts != want[i])
				fail_msg("step %zu: ts %llu, expected %llu", i, (unsigned long long)e->ev.ts,
					 (unsigned long long)want[i]);
		}
		e = only(&r, ex + 1 + nsteps, SONDE_EV_MARK, "MARK");
		assert_int_equal(e->ev.obj, 9);
		assert_int_equal(e->ev.ts, t + 126);
		e = only(&r, ex + 2 + nsteps, SONDE_EV_MARK, "MARK");
		assert_int_equal(e->ev.ts, t + 126 + 125);
		assert_int_equal(r.nev, ex + 3 + nsteps);
		trec_free(&r);
	}
	tb_free(&s.wire);
}

int main(void)
{
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&V2), cmocka_unit_test_prestate(t, (void *)&V1)
	const struct CMUnitTest tests[] = {
		BOTH(test_session_records),
		BOTH(test_replies),
		BOTH(test_system_records),
		BOTH(test_user_record_and_log_all_arg_types),
		BOTH(test_every_checksum_value),
		BOTH(test_addr_size_8),
		BOTH(test_dict_replace_and_reset),
		cmocka_unit_test(test_v2_timestamp_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
