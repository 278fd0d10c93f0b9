/*
 * test_target_rtos.c -- the RTOS records of sonde_rtos.h (docs/protocol.md
 * section 4.1, version 2) byte for byte: TASK_SWITCH, OBJ_CREATE with every
 * capacity width, OBJ_OP with every value width, each at every width of
 * the timestamp field (both blocks of the shared record functions), bytes
 * that need escaping, the slow path, and the filters.
 *
 * Every test starts from tgt_setup(): clock 0x12345678, EMPTY, TARGET_INFO
 * and a TIME_SYNC drained, so the record under test is the frame with SEQ
 * 3.  Its DATA is the record's fields, then the timestamp field (the ticks
 * since the TIME_SYNC); a few frames are written out whole (CHK = ~(sum of
 * SEQ, ID and DATA) & 0xFF), the rest through the test's own encoder
 * (tgt_expect_frame: CHK and escapes computed).
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

/* Gaps of every timestamp width, at the limits of the one-byte class (the
 * back-to-back block of sonde_w_small) and beyond. */
static const struct gap {
	uint32_t delta;
	uint8_t n, field[4];
} gaps[] = {
	{ 0x00u, 1, { 0x00 } },
	{ 0x7Cu, 1, { 0x7C } },
	{ 0x7Du, 2, { 0x7D, 0x80 } },
	{ 908u, 2, { 0x8C, 0x83 } },
	{ 70000u, 3, { 0x70, 0x11, 0xC1 } },
	{ 10000000u, 4, { 0x80, 0x96, 0x98, 0xE0 } },
};
#define NGAPS (sizeof gaps / sizeof gaps[0])

/* The record under test, after setup() and g's gap: SEQ 3, id, the fields
 * f[n], then g's timestamp field. */
static void expect_at(const struct gap *g, uint8_t id, const uint8_t *f, size_t n)
{
	uint8_t d[16];

	memcpy(d, f, n);
	memcpy(d + n, g->field, g->n);
	tgt_expect_frame(3u, id, d, n + g->n);
}

#define EXPECT_AT(g, id, ...)                                    \
	do {                                                     \
		static const uint8_t f_[] = { __VA_ARGS__ };     \
		expect_at((g), (id), f_, sizeof f_);             \
	} while (0)

/* TASK_SWITCH: out, state, obj, in, ts. */
static void test_task_switch(void **state)
{
	size_t i;

	(void)state;
	/* back to back, written out: 03+14+05+05+21+09+00 = 0x4B -> CHK 0xB4 */
	setup();
	sonde_task_switch(5, SONDE_TASK_WAIT_RECV, 0x21, 9);
	TGT_EXPECT(0x03, 0x14, 0x05, 0x05, 0x21, 0x09, 0x00, 0xB4, 0x7E);
	for (i = 0; i < NGAPS; i++) {
		setup();
		tgt_now += gaps[i].delta;
		sonde_task_switch(5, SONDE_TASK_WAIT_RECV, 0x21, 9);
		EXPECT_AT(&gaps[i], SONDE_REC_TASK_SWITCH, 0x05, 0x05, 0x21, 0x09);
		/* the packed form is the same record */
		setup();
		tgt_now += gaps[i].delta;
		sonde_task_switch_w(0x09210505u);
		EXPECT_AT(&gaps[i], SONDE_REC_TASK_SWITCH, 0x05, 0x05, 0x21, 0x09);
	}
	setup();
	sonde_task_switch(7, SONDE_TASK_PREEMPTED, 0, 8);
	EXPECT_AT(&gaps[0], SONDE_REC_TASK_SWITCH, 0x07, 0x00, 0x00, 0x08);
}

/* Bytes that must be escaped go through the fix-up: the frame is the same
 * with 7D 5E / 7D 5D in their place.  03+14+7E+04+7D+01+00 = 0x117 -> CHK
 * 0xE8. */
static void test_escaped(void **state)
{
	(void)state;
	setup();
	sonde_task_switch(0x7E, SONDE_TASK_DELAYED, 0x7D, 1);
	TGT_EXPECT(0x03, 0x14, 0x7D, 0x5E, 0x04, 0x7D, 0x5D, 0x01, 0x00, 0xE8, 0x7E);
	setup();
	tgt_now += 908u;
	sonde_obj_op16(SONDE_OP_SEND, 0x7E, 0x7D7Eu);
	EXPECT_AT(&gaps[3], SONDE_REC_OBJ_OP, 0x01, 0x7E, 0x7E, 0x7D);
	setup();
	sonde_obj_op32(SONDE_OP_SET_BITS, 0x31, 0x7E00007Du);
	EXPECT_AT(&gaps[0], SONDE_REC_OBJ_OP, 0x08, 0x31, 0x7D, 0x00, 0x00, 0x7E);
	setup();
	sonde_obj_op8(SONDE_OP_PRIO_SET, 0x31, 0x7E);
	EXPECT_AT(&gaps[0], SONDE_REC_OBJ_OP, 0x0E, 0x31, 0x7E);
}

/* OBJ_CREATE: obj, kind, capacity in 0, 1, 2 or 4 bytes, ts. */
static void test_obj_create_widths(void **state)
{
	const struct gap *g = &gaps[3];

	(void)state;
	/* written out: 03+15+20+0A+00 = 0x42 -> 0xBD */
	setup();
	sonde_obj_create(0x20, SONDE_OBJK_EVENT_GROUP, 0);
	TGT_EXPECT(0x03, 0x15, 0x20, 0x0A, 0x00, 0xBD, 0x7E);
	setup();
	tgt_now += g->delta;
	sonde_obj_create(0x20, SONDE_OBJK_QUEUE, 5);
	EXPECT_AT(g, SONDE_REC_OBJ_CREATE, 0x20, 0x04, 0x05);
	setup();
	tgt_now += g->delta;
	sonde_obj_create(0x20, SONDE_OBJK_COUNTING_SEM, 300);
	EXPECT_AT(g, SONDE_REC_OBJ_CREATE, 0x20, 0x05, 0x2C, 0x01);
	setup();
	tgt_now += g->delta;
	sonde_obj_create(0x20, SONDE_OBJK_STREAM_BUFFER, 0x12345u);
	EXPECT_AT(g, SONDE_REC_OBJ_CREATE, 0x20, 0x0B, 0x45, 0x23, 0x01, 0x00);
	setup();
	tgt_now += g->delta;
	sonde_obj_create(0x11, SONDE_OBJK_IDLE_TASK | SONDE_OBJK_ANNOUNCED, 0);
	EXPECT_AT(g, SONDE_REC_OBJ_CREATE, 0x11, 0x82);
}

/* OBJ_OP: op, obj, value in 0, 1, 2 or 4 bytes, ts -- each of the four
 * shapes at every gap. */
static void test_obj_op_widths(void **state)
{
	size_t i;

	(void)state;
	/* written out: 03+16+12+30+00 = 0x5B -> 0xA4 */
	setup();
	sonde_obj_op(SONDE_OP_TIMER_EXPIRED, 0x30);
	TGT_EXPECT(0x03, 0x16, 0x12, 0x30, 0x00, 0xA4, 0x7E);
	for (i = 0; i < NGAPS; i++) {
		const struct gap *g = &gaps[i];

		setup();
		tgt_now += g->delta;
		sonde_obj_op(SONDE_OP_TIMER_EXPIRED, 0x30);
		EXPECT_AT(g, SONDE_REC_OBJ_OP, 0x12, 0x30);
		setup();
		tgt_now += g->delta;
		sonde_obj_op8(SONDE_OP_PRIO_INHERIT, 0x30, 6);
		EXPECT_AT(g, SONDE_REC_OBJ_OP, 0x0F, 0x30, 0x06);
		setup();
		tgt_now += g->delta;
		sonde_obj_op16(SONDE_OP_SEND | SONDE_OP_F_ISR, 0x31, 0x0102);
		EXPECT_AT(g, SONDE_REC_OBJ_OP, 0x81, 0x31, 0x02, 0x01);
		setup();
		tgt_now += g->delta;
		sonde_obj_op16(SONDE_OP_RECEIVE | SONDE_OP_F_FAILED, 0x31, 0);
		EXPECT_AT(g, SONDE_REC_OBJ_OP, 0x42, 0x31, 0x00, 0x00);
		setup();
		tgt_now += g->delta;
		sonde_obj_op32(SONDE_OP_SET_BITS, 0x32, 0x00800001u);
		EXPECT_AT(g, SONDE_REC_OBJ_OP, 0x08, 0x32, 0x01, 0x00, 0x80, 0x00);
	}
}

/* The slow path writes the same DATA: after sonde_start() a TIME_SYNC goes
 * first (rule 1), so the records below do not take the fast path; their
 * delta from it is 0. */
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
	sonde_stop();
	sonde_start();
	sonde_obj_op8(SONDE_OP_PRIO_SET, 0x42, 9);
	sonde_stop();
	sonde_start();
	sonde_obj_op(SONDE_OP_RESUME, 0x43);
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.n, 10);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr.f[1].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[1].len, 5);
	assert_memory_equal(fr.f[1].data, "\x03\x40\x07\x03\x00", 5);
	assert_int_equal(fr.f[3].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[3].len, 7);
	assert_memory_equal(fr.f[3].data, "\x09\x41\xD4\xC3\xB2\xA1\x00", 7);
	assert_int_equal(fr.f[5].id, SONDE_REC_TASK_SWITCH);
	assert_int_equal(fr.f[5].len, 5);
	assert_memory_equal(fr.f[5].data, "\x01\x08\x02\x03\x00", 5);
	assert_int_equal(fr.f[7].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[7].len, 4);
	assert_memory_equal(fr.f[7].data, "\x0E\x42\x09\x00", 4);
	assert_int_equal(fr.f[9].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[9].len, 3);
	assert_memory_equal(fr.f[9].data, "\x11\x43\x00", 3);
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
	sonde_obj_op(SONDE_OP_RESET, 0x31);            /* out: object */
	sonde_obj_op8(SONDE_OP_PRIO_SET, 0x31, 1);     /* out: object */
	sonde_obj_op32(SONDE_OP_SET_BITS, 0x31, 1);    /* out: object */
	sonde_obj_create(0x31, SONDE_OBJK_QUEUE, 4);   /* out: object */
	sonde_obj_op16(SONDE_OP_SEND, 0x32, 1);        /* in */
	sonde_task_switch(0x31, 0, 0, 0x31);           /* in: no local filter */
	sonde_filter_record(SONDE_REC_OBJ_OP, 0);
	sonde_obj_op16(SONDE_OP_SEND, 0x32, 2);        /* out: record */
	sonde_obj_op(SONDE_OP_RESET, 0x32);            /* out: record */
	sonde_filter_record(SONDE_REC_TASK_SWITCH, 0);
	sonde_task_switch(1, 0, 0, 2);                 /* out: record */
	sonde_obj_create(0x33, SONDE_OBJK_QUEUE, 4);   /* in */
	sonde_filter_record(SONDE_REC_OBJ_CREATE, 0);
	sonde_obj_create(0x34, SONDE_OBJK_QUEUE, 4);   /* out: record */
	tgt_parse(got, tgt_drain_all(got, sizeof got), &fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].id, SONDE_REC_OBJ_OP);
	assert_int_equal(fr.f[0].data[1], 0x32);
	assert_int_equal(fr.f[1].id, SONDE_REC_TASK_SWITCH);
	assert_int_equal(fr.f[2].id, SONDE_REC_OBJ_CREATE);
	assert_int_equal(fr.f[2].data[0], 0x33);
	tgt_frames_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_switch),
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_obj_create_widths),
		cmocka_unit_test(test_obj_op_widths),
		cmocka_unit_test(test_slow_path_same_bytes),
		cmocka_unit_test(test_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
