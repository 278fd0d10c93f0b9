/*
 * test_target_rtos.c -- the RTOS records of sonde_rtos.h (docs/protocol.md
 * section 4.1) byte for byte against hand-computed frames: TASK_SWITCH,
 * OBJ_CREATE with every capacity width, OBJ_OP with every value width, the
 * escaped and slow paths, and the filters.
 *
 * Every test starts from tgt_setup(): clock 0x12345678 (compact timestamp
 * 78 56), EMPTY, TARGET_INFO and a TIME_SYNC drained, so the record under
 * test is the frame with SEQ 3.  CHK = ~(sum of SEQ, ID and DATA) & 0xFF.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "sonde_rtos.h"
#include "tgt_frames.h"

#define CLOCK 0x12345678u

static uint8_t buf[1024];

static void setup(void)
{
	tgt_setup(buf, sizeof buf, SONDE_MODE_OVERWRITE, CLOCK);
}

/* TASK_SWITCH: ts, out, state, obj, in.
 * 03+14+78+56+05+05+21+09 = 0x119 -> CHK 0xE6. */
static void test_task_switch(void **state)
{
	(void)state;
	setup();
	sonde_task_switch(5, SONDE_TASK_WAIT_RECV, 0x21, 9);
	TGT_EXPECT(0x03, 0x14, 0x78, 0x56, 0x05, 0x05, 0x21, 0x09, 0xE6, 0x7E);
	/* the packed form is the same record */
	setup();
	sonde_task_switch_w(0x09210505u);
	TGT_EXPECT(0x03, 0x14, 0x78, 0x56, 0x05, 0x05, 0x21, 0x09, 0xE6, 0x7E);
	/* preempted, no object: 03+14+78+56+07+00+00+08 = 0xF4 -> 0x0B */
	setup();
	sonde_task_switch(7, SONDE_TASK_PREEMPTED, 0, 8);
	TGT_EXPECT(0x03, 0x14, 0x78, 0x56, 0x07, 0x00, 0x00, 0x08, 0x0B, 0x7E);
}

/* A byte that must be escaped goes through the fix-up path: the frame is
 * the same with 7D 5E in place of 7E.  03+14+78+56+7E+04+00+01 = 0x168
 * -> CHK 0x97. */
static void test_task_switch_escaped(void **state)
{
	(void)state;
	setup();
	sonde_task_switch(0x7E, SONDE_TASK_DELAYED, 0, 1);
	TGT_EXPECT(0x03, 0x14, 0x78, 0x56, 0x7D, 0x5E, 0x04, 0x00, 0x01, 0x97, 0x7E);
}

/* OBJ_CREATE: ts, obj, kind, capacity in 0, 1, 2 or 4 bytes. */
static void test_obj_create_widths(void **state)
{
	(void)state;
	/* 03+15+78+56+20+0A = 0x110 -> 0xEF */
	setup();
	sonde_obj_create(0x20, SONDE_OBJK_EVENT_GROUP, 0);
	TGT_EXPECT(0x03, 0x15, 0x78, 0x56, 0x20, 0x0A, 0xEF, 0x7E);
	/* +04 kind, +05 cap: 03+15+78+56+20+04+05 = 0x10F -> 0xF0 */
	setup();
	sonde_obj_create(0x20, SONDE_OBJK_QUEUE, 5);
	TGT_EXPECT(0x03, 0x15, 0x78, 0x56, 0x20, 0x04, 0x05, 0xF0, 0x7E);
	/* 300 = 2C 01: 03+15+78+56+20+05+2C+01 = 0x138 -> 0xC7 */
	setup();
	sonde_obj_create(0x20, SONDE_OBJK_COUNTING_SEM, 300);
	TGT_EXPECT(0x03, 0x15, 0x78, 0x56, 0x20, 0x05, 0x2C, 0x01, 0xC7, 0x7E);
	/* 0x00012345: 03+15+78+56+20+0B+45+23+01+00 = 0x17A -> 0x85 */
	setup();
	sonde_obj_create(0x20, SONDE_OBJK_STREAM_BUFFER, 0x12345u);
	TGT_EXPECT(0x03, 0x15, 0x78, 0x56, 0x20, 0x0B, 0x45, 0x23, 0x01, 0x00, 0x85, 0x7E);
	/* announced idle task, priority 0: 03+15+78+56+11+82 = 0x179 -> 0x86 */
	setup();
	sonde_obj_create(0x11, SONDE_OBJK_IDLE_TASK | SONDE_OBJK_ANNOUNCED, 0);
	TGT_EXPECT(0x03, 0x15, 0x78, 0x56, 0x11, 0x82, 0x86, 0x7E);
}

/* OBJ_OP: ts, op, obj, value in 0, 1, 2 or 4 bytes. */
static void test_obj_op_widths(void **state)
{
	(void)state;
	/* 03+16+78+56+12+30 = 0x129 -> 0xD6 */
	setup();
	sonde_obj_op(SONDE_OP_TIMER_EXPIRED, 0x30);
	TGT_EXPECT(0x03, 0x16, 0x78, 0x56, 0x12, 0x30, 0xD6, 0x7E);
	/* 03+16+78+56+0F+30+06 = 0x12C -> 0xD3 */
	setup();
	sonde_obj_op8(SONDE_OP_PRIO_INHERIT, 0x30, 6);
	TGT_EXPECT(0x03, 0x16, 0x78, 0x56, 0x0F, 0x30, 0x06, 0xD3, 0x7E);
	/* send from an ISR, level 0x0102: 03+16+78+56+81+31+02+01 = 0x19C -> 0x63 */
	setup();
	sonde_obj_op16(SONDE_OP_SEND | SONDE_OP_F_ISR, 0x31, 0x0102);
	TGT_EXPECT(0x03, 0x16, 0x78, 0x56, 0x81, 0x31, 0x02, 0x01, 0x63, 0x7E);
	/* failed receive: 03+16+78+56+42+31+00+00 = 0x15A -> 0xA5 */
	setup();
	sonde_obj_op16(SONDE_OP_RECEIVE | SONDE_OP_F_FAILED, 0x31, 0);
	TGT_EXPECT(0x03, 0x16, 0x78, 0x56, 0x42, 0x31, 0x00, 0x00, 0xA5, 0x7E);
	/* bits 0x00800001: 03+16+78+56+08+32+01+00+80+00 = 0x1A2 -> 0x5D */
	setup();
	sonde_obj_op32(SONDE_OP_SET_BITS, 0x32, 0x00800001u);
	TGT_EXPECT(0x03, 0x16, 0x78, 0x56, 0x08, 0x32, 0x01, 0x00, 0x80, 0x00, 0x5D, 0x7E);
}

/* The slow path writes the same DATA: after sonde_start() a TIME_SYNC goes
 * first (rule 1), so the records below do not take the fast path. */
static void test_slow_path_same_bytes(void **state)
{
	uint8_t got[128];
	struct tgt_frames fr;
	(void)state;
	setup();
	sonde_stop();
	sonde_start();
	sonde_obj_op16(SONDE_OP_PEEK, 0x40, 0x0307);
	sonde_stop();
	sonde_start();
	sonde_obj_op32(SONDE_OP_CLEAR_BITS, 0x41, 0xA1B2C3D4u);
	sonde_stop();
	sonde_start();
	sonde_task_switch(1, SONDE_TASK_WAIT_NOTIFY, 2, 3);
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.n, 6);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr.f[1].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[1].len, 6);
	assert_memory_equal(fr.f[1].data + 2, "\x03\x40\x07\x03", 4);
	assert_int_equal(fr.f[3].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[3].len, 8);
	assert_memory_equal(fr.f[3].data + 2, "\x09\x41\xD4\xC3\xB2\xA1", 6);
	assert_int_equal(fr.f[5].id, SONDE_REC_TASK_SWITCH);
	assert_int_equal(fr.f[5].len, 6);
	assert_memory_equal(fr.f[5].data + 2, "\x01\x08\x02\x03", 4);
	tgt_frames_free(&fr);
}

/* OBJ_OP and OBJ_CREATE follow the global filter and their object's local
 * filter; TASK_SWITCH only the global one. */
static void test_filters(void **state)
{
	uint8_t got[128];
	struct tgt_frames fr;

	(void)state;
	setup();
	sonde_filter_object(0x31, 0);
	sonde_obj_op16(SONDE_OP_SEND, 0x31, 1);        /* out: object */
	sonde_obj_create(0x31, SONDE_OBJK_QUEUE, 4);   /* out: object */
	sonde_obj_op16(SONDE_OP_SEND, 0x32, 1);        /* in */
	sonde_task_switch(0x31, 0, 0, 0x31);           /* in: no local filter */
	sonde_filter_record(SONDE_REC_OBJ_OP, 0);
	sonde_obj_op16(SONDE_OP_SEND, 0x32, 2);        /* out: record */
	sonde_filter_record(SONDE_REC_TASK_SWITCH, 0);
	sonde_task_switch(1, 0, 0, 2);                 /* out: record */
	sonde_obj_create(0x33, SONDE_OBJK_QUEUE, 4);   /* in */
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[0].data[3], 0x32);
	assert_int_equal(fr.f[1].id, SONDE_REC_TASK_SWITCH);
	assert_int_equal(fr.f[2].id, SONDE_REC_OBJ_CREATE);
	assert_int_equal(fr.f[2].data[2], 0x33);
	tgt_frames_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_switch),
		cmocka_unit_test(test_task_switch_escaped),
		cmocka_unit_test(test_obj_create_widths),
		cmocka_unit_test(test_obj_op_widths),
		cmocka_unit_test(test_slow_path_same_bytes),
		cmocka_unit_test(test_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
