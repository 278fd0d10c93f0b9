/*
 * test_target_filter.c -- global (per record id) and local (per object id)
 * filters, docs/protocol.md section 7: what is written, what is never
 * filtered, ISR enter/exit filtered as a pair, and that filtered records
 * are not counted anywhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"

static uint8_t ring[4096];
static uint8_t wire[8192];

static void setup(void)
{
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 100);
}

/* The ids of the frames drained now, as a string of bytes. */
static size_t ids(uint8_t *out)
{
	struct tgt_frames fr;
	size_t i, n;

	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), &fr);
	assert_int_equal(fr.bad, 0);
	for (i = 0; i < fr.n; i++)
		out[i] = fr.f[i].id;
	n = fr.n;
	tgt_frames_free(&fr);
	return n;
}

static void all_object_records(uint8_t obj)
{
	sonde_isr_enter(obj);
	sonde_isr_exit(obj);
	sonde_task_create(obj, 1);
	sonde_task_in(obj);
	sonde_task_out(obj, 0);
	sonde_task_ready(obj);
	sonde_mark(obj);
	sonde_mark_begin(obj);
	sonde_mark_end(obj);
	sonde_counter(obj, 1);
	sonde_counter64(obj, 1);
}

static void test_local(void **state)
{
	uint8_t got[64];
	static const uint8_t all[] = { 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 15 };
	sonde_stats_t st;

	(void)state;
	setup();
	sonde_filter_object(3, 0);
	assert_false(sonde_object_enabled(3));
	assert_true(sonde_object_enabled(4));
	all_object_records(3);
	sonde_idle();           /* names no object */
	sonde_func_enter(3);
	assert_int_equal(ids(got), 2);
	assert_int_equal(got[0], SONDE_REC_IDLE);
	assert_int_equal(got[1], SONDE_REC_FUNC_ENTER);
	all_object_records(4);
	assert_int_equal(ids(got), sizeof all);
	assert_memory_equal(got, all, sizeof all);
	sonde_get_stats(&st);
	assert_int_equal(st.records, 3 + 2 + sizeof all);
	assert_int_equal(st.refused, 0);

	sonde_filter_all_objects(0);
	sonde_filter_object(200, 1);
	all_object_records(4);
	all_object_records(199);
	assert_int_equal(ids(got), 0);
	all_object_records(200);
	assert_int_equal(ids(got), sizeof all);
	sonde_filter_all_objects(1);
	all_object_records(4);
	assert_int_equal(ids(got), sizeof all);
}

static void test_global(void **state)
{
	uint8_t got[64];

	(void)state;
	setup();
	sonde_filter_record(SONDE_REC_MARK, 0);
	sonde_filter_record(0x45, 0);
	assert_false(sonde_record_enabled(SONDE_REC_MARK));
	assert_true(sonde_record_enabled(SONDE_REC_MARK_BEGIN));
	sonde_mark(1);
	sonde_mark_begin(1);
	sonde_user_u32(0x45, 1);
	sonde_user_u32(0x46, 1);
	assert_false(sonde_user_begin(0x45));
	assert_int_equal(ids(got), 2);
	assert_int_equal(got[0], SONDE_REC_MARK_BEGIN);
	assert_int_equal(got[1], 0x46);

	sonde_filter_record(SONDE_REC_LOG, 0);
	sonde_log_u32(1, 2, 3);
	sonde_log_u32x2(1, 2, 3, 4);
	assert_false(sonde_log_begin(1, 2));
	assert_int_equal(ids(got), 0);
}

/* Global off, then on again: objects keep their own bits. */
static void test_global_keeps_local(void **state)
{
	uint8_t got[64];

	(void)state;
	setup();
	sonde_filter_object(3, 0);
	sonde_filter_record(SONDE_REC_TASK_IN, 0);
	sonde_task_in(4);
	assert_int_equal(ids(got), 0);
	sonde_filter_record(SONDE_REC_TASK_IN, 1);
	sonde_task_in(3);
	sonde_task_in(4);
	assert_int_equal(ids(got), 1);
	assert_false(sonde_object_enabled(3));
}

/* sonde_isr_exit's id selects the filter bit only: a filtered ISR loses
 * both records; ISR_EXIT's global bit alone loses exits only. */
static void test_isr_pair(void **state)
{
	uint8_t got[64];

	(void)state;
	setup();
	sonde_filter_object(7, 0);
	sonde_isr_enter(7);
	sonde_isr_enter(8);
	sonde_isr_exit(8);
	sonde_isr_exit(7);
	assert_int_equal(ids(got), 2);
	assert_int_equal(got[0], SONDE_REC_ISR_ENTER);
	assert_int_equal(got[1], SONDE_REC_ISR_EXIT);
	sonde_filter_record(SONDE_REC_ISR_EXIT, 0);
	sonde_isr_enter(8);
	sonde_isr_exit(8);
	assert_int_equal(ids(got), 1);
	assert_int_equal(got[0], SONDE_REC_ISR_ENTER);
}

/* EMPTY, TARGET_INFO, TIME_SYNC, DROPS, DICT are never filtered. */
static void test_never_filtered(void **state)
{
	uint8_t got[64];
	unsigned r;

	(void)state;
	setup();
	sonde_filter_all_records(0);
	for (r = 0; r < SONDE_REC_COUNT; r++)
		assert_int_equal(sonde_record_enabled((uint8_t)r),
				 r <= SONDE_REC_DICT || (r >= 0x20 && r < 0x40));
	assert_false(sonde_record_enabled(0x80));
	sonde_filter_record(SONDE_REC_DICT, 0);
	sonde_filter_record(SONDE_REC_TIME_SYNC, 0);
	all_object_records(1);
	sonde_user_u32(0x40, 1);
	sonde_dict(SONDE_DICT_TASK, 1, "t");
	sonde_time_sync();
	sonde_send_info();
	assert_int_equal(ids(got), 3);
	assert_int_equal(got[0], SONDE_REC_DICT);
	assert_int_equal(got[1], SONDE_REC_TIME_SYNC);
	assert_int_equal(got[2], SONDE_REC_TARGET_INFO);
	sonde_filter_all_records(1);
	sonde_idle();
	assert_int_equal(ids(got), 1);
}

/* Before sonde_init() everything is filtered (and harmless). */
static void test_before_init(void **state)
{
	(void)state;
	sonde_init(NULL, 0, SONDE_MODE_OVERWRITE);
	sonde_isr_enter(1);
	sonde_user_u32x2(0x40, 1, 2);
	sonde_time_sync();
	sonde_dict(1, 1, "x");
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(sonde_drain_byte(), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_local),
		cmocka_unit_test(test_global),
		cmocka_unit_test(test_global_keeps_local),
		cmocka_unit_test(test_isr_pair),
		cmocka_unit_test(test_never_filtered),
		cmocka_unit_test(test_before_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
