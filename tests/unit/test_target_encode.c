/*
 * test_target_encode.c -- every record kind and argument type, byte for byte
 * against hand-written DATA (docs/protocol.md sections 1, 4, 5 and 6); the
 * test's own encoder (tgt_frame_wire) adds SEQ, ID, CHK, escapes and the
 * flag, and a few frames are written out whole.
 *
 * Every test starts from tgt_setup(): clock 0x12345678, EMPTY, TARGET_INFO
 * and a TIME_SYNC drained, so the record under test is the frame with SEQ
 * 3 and nothing else.  Most tests then move the clock on by 908 ticks, so
 * the record ends with the 2-byte timestamp field 8C 83 (delta 908 = 0x38C,
 * tag 10); test_ts_widths covers every width and its limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"

#define CLOCK 0x12345678u

static uint8_t buf[1024];

static void setup(void)
{
	tgt_setup(buf, sizeof buf, SONDE_MODE_OVERWRITE, CLOCK);
}

/* The record under test: SEQ 3, this id, this DATA (timestamp included). */
#define EXPECT(id, ...)                                          \
	do {                                                     \
		static const uint8_t want_[] = { __VA_ARGS__ };  \
		tgt_expect_frame(3u, (id), want_, sizeof want_); \
	} while (0)

/* setup() and 908 ticks: the record's timestamp field is 8C 83. */
static void setup908(void)
{
	setup();
	tgt_now += 908u;
}

#define TS908 0x8C, 0x83

static void test_init_frames(void **state)
{
	uint8_t got[256];
	size_t n;
	/* version 2, reset flag, timestamp size 0 (variable), 1 MHz, 1024 bytes */
	static const uint8_t empty_info[] = {
		0x00, 0x00, 0xFF, 0x7E,
		0x01, 0x01, SONDE_PROTO_VERSION, 0x02, SONDE_ADDR_SIZE, 0x00, 0x00, 0x00, 0x40, 0x42, 0x0F, 0x00,
		0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, SONDE_ADDR_SIZE == 8 ? 0x5B : 0x5F, 0x7E,
	};
	/* since_prev unknown: no timed record since sonde_init() */
	static const uint8_t sync[] = { 0x02, 0x02, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00,
					0xFF, 0xFF, 0xFF, 0xFF, 0xEB, 0x7E };

	(void)state;
	tgt_fake_clock(CLOCK);
	sonde_init(buf, sizeof buf, SONDE_MODE_OVERWRITE);
	n = tgt_drain_all(got, sizeof got);
	assert_int_equal(n, sizeof empty_info);
	assert_memory_equal(got, empty_info, sizeof empty_info);
	sonde_time_sync();
	tgt_expect_wire(sync, sizeof sync);
}

/* TARGET_INFO on request: no reset flag, mode and buffer size as given. */
static void test_send_info(void **state)
{
	static uint8_t big[0x10203];
	uint8_t got[64];
	struct tgt_frames fr;

	(void)state;
	tgt_setup(big, sizeof big, SONDE_MODE_POSTMORTEM, CLOCK);
	sonde_send_info();
	sonde_trigger(); /* a post-mortem buffer is read out once frozen */
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 1);
	assert_true(fr.f[0].ok);
	assert_int_equal(fr.f[0].id, SONDE_REC_TARGET_INFO);
	assert_int_equal(fr.f[0].len, 18);
	assert_int_equal(fr.f[0].data[1], 0);          /* flags: little-endian, no reset */
	assert_int_equal(fr.f[0].data[3], SONDE_MODE_POSTMORTEM);
	assert_int_equal(tgt_le32(fr.f[0].data + 10), sizeof big);
	tgt_frames_free(&fr);
}

/* The seed's kind of check, whole frames written out: ISR enter and exit
 * back to back (1-byte timestamps) and 908 ticks later. */
static void test_isr(void **state)
{
	(void)state;
	setup();
	sonde_isr_enter(7);
	{
		static const uint8_t w[] = { 0x03, 0x05, 0x07, 0x00, 0xF0, 0x7E };
		tgt_expect_wire(w, sizeof w);
	}
	setup908();
	sonde_isr_enter(7);
	EXPECT(SONDE_REC_ISR_ENTER, 0x07, TS908);
	setup908();
	sonde_isr_exit(7);
	{
		/* CHK = ~(03 + 06 + 8C + 83) = ~0x118 = 0xE7 */
		static const uint8_t w[] = { 0x03, 0x06, 0x8C, 0x83, 0xE7, 0x7E };
		tgt_expect_wire(w, sizeof w);
	}
}

/* Every width of the timestamp field at its limits (docs/protocol.md
 * section 5), and the escaping of a timestamp byte. */
static void test_ts_widths(void **state)
{
	static const struct {
		uint32_t delta;
		uint8_t n, field[4];
	} c[] = {
		{ 0x00u, 1, { 0x00 } },
		{ 0x7Cu, 1, { 0x7C } },
		{ 0x7Du, 2, { 0x7D, 0x80 } },       /* 0x7D: never in a 1-byte field */
		{ 0x7Fu, 2, { 0x7F, 0x80 } },
		{ 0x80u, 2, { 0x80, 0x80 } },
		{ 908u, 2, { 0x8C, 0x83 } },
		{ 0x3FFFu, 2, { 0xFF, 0xBF } },
		{ 0x4000u, 3, { 0x00, 0x40, 0xC0 } },
		{ 70000u, 3, { 0x70, 0x11, 0xC1 } },
		{ 0x1FFFFFu, 3, { 0xFF, 0xFF, 0xDF } },
		{ 0x200000u, 4, { 0x00, 0x00, 0x20, 0xE0 } },
		{ 10000000u, 4, { 0x80, 0x96, 0x98, 0xE0 } },
		{ 0xFFFFFFFu, 4, { 0xFF, 0xFF, 0xFF, 0xEF } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint8_t d[5];

		setup();
		tgt_now += c[i].delta;
		sonde_task_in(9);
		d[0] = 9;
		memcpy(d + 1, c[i].field, c[i].n);
		tgt_expect_frame(3u, SONDE_REC_TASK_IN, d, 1u + c[i].n);
	}
}

/* 2^28 ticks or more: a TIME_SYNC (since_prev = the gap) and the record
 * with delta 0. */
static void test_ts_too_long(void **state)
{
	uint8_t got[64];
	struct tgt_frames fr;
	uint32_t delta;

	(void)state;
	setup();
	tgt_now += 0x10000000u;
	sonde_task_in(9);
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(tgt_le64(fr.f[0].data), (uint64_t)(uint32_t)(CLOCK + 0x10000000u));
	assert_int_equal(tgt_le32(fr.f[0].data + 8), 0x10000000u);
	assert_int_equal(fr.f[1].id, SONDE_REC_TASK_IN);
	assert_int_equal(tgt_ts(&fr.f[1], &delta), 1);
	assert_int_equal(delta, 0);
	tgt_frames_free(&fr);
}

static void test_tasks(void **state)
{
	(void)state;
	setup908();
	sonde_task_create(3, 9);
	EXPECT(SONDE_REC_TASK_CREATE, 0x03, 0x09, TS908);
	setup908();
	sonde_task_in(3);
	EXPECT(SONDE_REC_TASK_IN, 0x03, TS908);
	setup908();
	sonde_task_out(3, SONDE_TASK_BLOCKED);
	EXPECT(SONDE_REC_TASK_OUT, 0x03, 0x01, TS908);
	setup908();
	sonde_task_ready(3);
	EXPECT(SONDE_REC_TASK_READY, 0x03, TS908);
	setup908();
	sonde_idle();
	EXPECT(SONDE_REC_IDLE, TS908);
}

static void test_marks(void **state)
{
	(void)state;
	setup908();
	sonde_mark(4);
	EXPECT(SONDE_REC_MARK, 0x04, TS908);
	setup908();
	sonde_mark_begin(4);
	EXPECT(SONDE_REC_MARK_BEGIN, 0x04, TS908);
	setup908();
	sonde_mark_end(4);
	EXPECT(SONDE_REC_MARK_END, 0x04, TS908);
}

/* 4 value bytes for 32 bits, 8 for 64; -2's 0xFF bytes trip the escape
 * pre-test (a false alarm), which must give the same bytes. */
static void test_counters(void **state)
{
	(void)state;
	setup908();
	sonde_counter(5, 1000);
	EXPECT(SONDE_REC_COUNTER, 0x05, 0xE8, 0x03, 0x00, 0x00, TS908);
	setup908();
	sonde_counter(5, -2);
	EXPECT(SONDE_REC_COUNTER, 0x05, 0xFE, 0xFF, 0xFF, 0xFF, TS908);
	setup908();
	sonde_counter64(6, 0x0123456789ABCDEFll);
	EXPECT(SONDE_REC_COUNTER, 0x06, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01, TS908);
	setup908();
	sonde_counter(0x7E, 0x7D7E7D7E);
	EXPECT(SONDE_REC_COUNTER, 0x7E, 0x7E, 0x7D, 0x7E, 0x7D, TS908);
}

static void test_functions(void **state)
{
	(void)state;
	setup908();
	sonde_func_enter(0x1234);
	EXPECT(SONDE_REC_FUNC_ENTER, 0x34, 0x12, TS908);
	setup908();
	sonde_func_enter_addr((const void *)(uintptr_t)0x08001235u);
#if SONDE_ADDR_SIZE == 8
	EXPECT(SONDE_REC_FUNC_ENTER_A, 0x35, 0x12, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, TS908);
#else
	EXPECT(SONDE_REC_FUNC_ENTER_A, 0x35, 0x12, 0x00, 0x08, TS908);
#endif
	setup908();
	sonde_func_exit();
	EXPECT(SONDE_REC_FUNC_EXIT, TS908);
}

static void test_one_call_forms(void **state)
{
	(void)state;
	setup908();
	sonde_user_u32(0x40, 0xDEADBEEFu);
	EXPECT(0x40, 0x03, 0xEF, 0xBE, 0xAD, 0xDE, TS908);
	setup908();
	sonde_user_u32x2(0x41, 1, 2);
	EXPECT(0x41, 0x03, 0x01, 0x00, 0x00, 0x00, 0x03, 0x02, 0x00, 0x00, 0x00, TS908);
	setup908();
	sonde_user_u32x2(0x7E, 0x7D7E7D7Eu, 0x7E7D7E7Du); /* every variable byte escaped */
	EXPECT(0x7E, 0x03, 0x7E, 0x7D, 0x7E, 0x7D, 0x03, 0x7D, 0x7E, 0x7D, 0x7E, TS908);
	setup908();
	sonde_log_u32(SONDE_LVL_INFO, 0x0102, 42);
	EXPECT(SONDE_REC_LOG, 0x03, 0x02, 0x01, 0x03, 0x2A, 0x00, 0x00, 0x00, TS908);
	setup908();
	sonde_log_u32x2(SONDE_LVL_WARN, 0x0203, 1, 0xFFFFFFFFu);
	EXPECT(SONDE_REC_LOG, 0x02, 0x03, 0x02, 0x03, 0x01, 0x00, 0x00, 0x00, 0x03, 0xFF, 0xFF, 0xFF, 0xFF,
	       TS908);
}

/* Every argument type through the builder, in one record. */
static void test_builder_all_types(void **state)
{
	static const uint8_t mem[3] = { 1, 2, 3 };

	(void)state;
	setup908();
	assert_true(sonde_user_begin(0x42));
	sonde_arg_u8(0x11);
	sonde_arg_u16(0x2233);
	sonde_arg_u32(0x44556677u);
	sonde_arg_u64(0x8899AABBCCDDEEFFull);
	sonde_arg_i8(-1);
	sonde_arg_i16(-2);
	sonde_arg_i32(-3);
	sonde_arg_i64(-4);
	sonde_arg_f32(1.5f);
	sonde_arg_f64(-2.25);
	sonde_arg_str("hi");
	sonde_arg_mem(mem, 3);
	sonde_arg_obj(9);
	sonde_arg_func((const void *)(uintptr_t)0x08001235u);
	sonde_arg_enum(2, 5);
	sonde_user_end();
	EXPECT(0x42, 0x01, 0x11, 0x02, 0x33, 0x22, 0x03, 0x77, 0x66, 0x55, 0x44, 0x04,
	       0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88, 0x05, 0xFF, 0x06, 0xFE, 0xFF, 0x07, 0xFD,
	       0xFF, 0xFF, 0xFF, 0x08, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x09, 0x00, 0x00,
	       0xC0, 0x3F, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xC0, 0x0B, 0x68, 0x69, 0x00,
	       0x0C, 0x03, 0x01, 0x02, 0x03, 0x0D, 0x09, 0x0E, 0x35, 0x12, 0x00, 0x08,
#if SONDE_ADDR_SIZE == 8
	       0x00, 0x00, 0x00, 0x00,
#endif
	       0x0F, 0x02, 0x05, TS908);
}

static void test_builder_log(void **state)
{
	(void)state;
	setup908();
	assert_true(sonde_log_begin(SONDE_LVL_DEBUG, 0x0010));
	sonde_arg_str("x");
	sonde_log_end();
	EXPECT(SONDE_REC_LOG, 0x04, 0x10, 0x00, 0x0B, 0x78, 0x00, TS908);
}

/* An empty user record is just the timestamp. */
static void test_builder_no_args(void **state)
{
	(void)state;
	setup908();
	assert_true(sonde_user_begin(0x40));
	sonde_user_end();
	EXPECT(0x40, TS908);
}

/* Arguments past SONDE_RECORD_MAX: the record is refused whole and counted;
 * a string is cut to fit instead. */
static void test_builder_overflow(void **state)
{
	static uint8_t mem[255];
	static char longstr[400];
	uint8_t got[512];
	struct tgt_frames fr;
	sonde_stats_t st;

	(void)state;
	setup();
	assert_true(sonde_user_begin(0x43));
	sonde_arg_mem(mem, 100);
	sonde_arg_mem(mem, 100); /* 2 + 100 + 2 + 100 > 128 */
	sonde_user_end();
	sonde_get_stats(&st);
	assert_int_equal(st.refused, 1);
	assert_int_equal(sonde_pending(), 0);

	memset(longstr, 'a', sizeof longstr - 1);
	assert_true(sonde_user_begin(0x43));
	sonde_arg_u32(7);
	sonde_arg_str(longstr);
	sonde_user_end();
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	/* TIME_SYNC + DROPS for the refused record, then the record */
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr.f[1].id, SONDE_REC_DROPS);
	assert_int_equal(fr.f[2].id, 0x43);
	assert_true(fr.f[2].ok);
	assert_int_equal(fr.f[2].len, SONDE_RECORD_MAX + 1); /* delta 0 after the TIME_SYNC: 1 byte */
	assert_int_equal(fr.f[2].data[5], SONDE_ARG_STR);
	assert_int_equal(fr.f[2].data[SONDE_RECORD_MAX - 1], 0);
	assert_int_equal(fr.f[2].data[SONDE_RECORD_MAX - 2], 'a');
	tgt_frames_free(&fr);
}

static void test_dict(void **state)
{
	static char longname[300];
	uint8_t got[1024];
	struct tgt_frames fr;

	(void)state;
	setup();
	sonde_dict(SONDE_DICT_ISR, 7, "uart");
	EXPECT(SONDE_REC_DICT, 0x03, 0x07, 0x00, 0x00, 0x00, 0x75, 0x61, 0x72, 0x74, 0x00);
	/* names are cut at SONDE_STR_MAX characters */
	memset(longname, 'n', sizeof longname - 1);
	sonde_dict(SONDE_DICT_FUNCTION, 0x08001235u, longname);
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 1);
	assert_true(fr.f[0].ok);
	assert_int_equal(fr.f[0].len, 5 + SONDE_STR_MAX + 1);
	assert_int_equal(tgt_le32(fr.f[0].data + 1), 0x08001235u);
	assert_int_equal(fr.f[0].data[5 + SONDE_STR_MAX], 0);
	tgt_frames_free(&fr);
}

/* The dictionary callback runs after TARGET_INFO, at init and on request. */
static int dict_calls;

static void dict_cb(void)
{
	dict_calls++;
	sonde_dict(SONDE_DICT_TASK, 1, "idle");
}

static void test_dict_callback(void **state)
{
	uint8_t got[256];
	struct tgt_frames fr;

	(void)state;
	dict_calls = 0;
	sonde_set_dict_callback(dict_cb);
	tgt_fake_clock(CLOCK);
	sonde_init(buf, sizeof buf, SONDE_MODE_OVERWRITE);
	sonde_send_info();
	sonde_set_dict_callback(NULL);
	assert_int_equal(dict_calls, 2);
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 5);
	assert_int_equal(fr.f[0].id, SONDE_REC_EMPTY);
	assert_int_equal(fr.f[1].id, SONDE_REC_TARGET_INFO);
	assert_int_equal(fr.f[1].data[1], SONDE_INFO_F_RESET);
	assert_int_equal(fr.f[2].id, SONDE_REC_DICT);
	assert_int_equal(fr.f[3].id, SONDE_REC_TARGET_INFO);
	assert_int_equal(fr.f[3].data[1], 0);
	assert_int_equal(fr.f[4].id, SONDE_REC_DICT);
	tgt_frames_free(&fr);
}

/* User ids outside 0x40..0x7F write nothing and count nothing. */
static void test_bad_user_id(void **state)
{
	sonde_stats_t st;

	(void)state;
	setup();
	sonde_user_u32(0x05, 1);
	sonde_user_u32x2(0x80, 1, 2);
	assert_false(sonde_user_begin(0x3F));
	sonde_get_stats(&st);
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.records, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_frames),
		cmocka_unit_test(test_send_info),
		cmocka_unit_test(test_isr),
		cmocka_unit_test(test_ts_widths),
		cmocka_unit_test(test_ts_too_long),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_one_call_forms),
		cmocka_unit_test(test_builder_all_types),
		cmocka_unit_test(test_builder_log),
		cmocka_unit_test(test_builder_no_args),
		cmocka_unit_test(test_builder_overflow),
		cmocka_unit_test(test_dict),
		cmocka_unit_test(test_dict_callback),
		cmocka_unit_test(test_bad_user_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
