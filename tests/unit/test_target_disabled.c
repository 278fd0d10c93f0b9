/*
 * test_target_disabled.c -- the target library built with SONDE_ENABLED 0,
 * the release build that traces nothing (sonde_config.h).  Its sources must
 * compile (tests/CMakeLists.txt builds them as sonde_target_off, -pedantic,
 * warnings as errors: a firmware built this way once failed on an
 * undeclared sonde_filters_), and every call of sonde.h, sonde_rtos.h and
 * sonde_rtt.h must be the no-op the headers promise: nothing written to the
 * caller's buffers, nothing to drain, every query answering "off".
 *
 * sonde-test-target: sonde_target_off
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "sonde_rtos.h"
#include "sonde_rtt.h"

#if SONDE_ENABLED
#error "this test is built against sonde_target_off (SONDE_ENABLED 0)"
#endif

static uint8_t ring[256];

/* Every record call of the public headers, with arguments a tracing build
 * would write. */
static void record_everything(void)
{
	static const uint8_t blob[4] = { 0x7E, 0x7D, 1, 2 };

	sonde_set_dict_callback(NULL);
	sonde_send_info();
	sonde_dict(1, 2, "name");
	sonde_time_sync();
	sonde_tick();
	sonde_filter_record(10, 1);
	sonde_filter_all_records(1);
	sonde_filter_object(3, 1);
	sonde_filter_all_objects(1);
	sonde_isr_enter(1);
	sonde_isr_exit(1);
	sonde_task_create(2, 5);
	sonde_task_in(2);
	sonde_task_out(2, 1);
	sonde_task_ready(2);
	sonde_idle();
	sonde_mark(4);
	sonde_mark_begin(4);
	sonde_mark_end(4);
	sonde_counter(5, -7);
	sonde_counter64(5, -7);
	sonde_func_enter(9);
	sonde_func_enter_addr((const void *)record_everything);
	sonde_func_exit();
	assert_int_equal(sonde_user_begin(100), 0);
	sonde_arg_u8(1);
	sonde_arg_u16(2);
	sonde_arg_u32(3);
	sonde_arg_u64(4);
	sonde_arg_i8(-1);
	sonde_arg_i16(-2);
	sonde_arg_i32(-3);
	sonde_arg_i64(-4);
	sonde_arg_f32(1.5f);
	sonde_arg_f64(2.5);
	sonde_arg_str("text");
	sonde_arg_mem(blob, sizeof blob);
	sonde_arg_obj(3);
	sonde_arg_func((const void *)record_everything);
	sonde_arg_enum(1, 2);
	sonde_user_end();
	assert_int_equal(sonde_log_begin(2, 0x1234), 0);
	sonde_log_end();
	sonde_user_u32(100, 1);
	sonde_user_u32x2(100, 1, 2);
	sonde_log_u32(2, 0x1234, 1);
	sonde_log_u32x2(2, 0x1234, 1, 2);

	sonde_task_switch(1, 2, 0, 0);
	sonde_task_switch_w(0x01020304u);
	sonde_obj_create(3, 1, 8);
	sonde_obj_op(1, 3);
	sonde_obj_op8(1, 3, 7);
	sonde_obj_op16(1, 3, 7);
	sonde_obj_op32(1, 3, 7);
	sonde_heap_alloc(ring, 16);
	sonde_heap_free(ring, 16);
}

static void test_records_write_nothing(void **state)
{
	uint8_t dst[64];
	sonde_stats_t st;
	size_t i;

	(void)state;
	memset(ring, 0xA5, sizeof ring);
	memset(dst, 0x5A, sizeof dst);
	sonde_init(ring, sizeof ring, 0);
	sonde_start();
	record_everything();
	sonde_trigger();
	sonde_stop();

	for (i = 0; i < sizeof ring; i++)
		assert_int_equal(ring[i], 0xA5);
	assert_int_equal(sonde_is_running(), 0);
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(sonde_drain(dst, sizeof dst), 0);
	for (i = 0; i < sizeof dst; i++)
		assert_int_equal(dst[i], 0x5A);
	assert_int_equal(sonde_drain_byte(), -1);

	memset(&st, 0xFF, sizeof st);
	sonde_get_stats(&st);
	assert_int_equal(st.records, 0);
	assert_int_equal(st.overwritten, 0);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.bytes, 0);
	assert_int_equal(st.stopped, 0);
	assert_int_equal(sonde_record_enabled(10), 0);
	assert_int_equal(sonde_object_enabled(3), 0);
}

static int app_cb(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
	(void)cmd;
	(void)a;
	(void)b;
	(void)c;
	return 0;
}

/* The receive channel and RTT compile out with the library: a command fed in
 * runs nothing, no region can be registered, RTT moves no byte. */
static void test_rx_and_rtt_off(void **state)
{
	/* STOP (0x0B), framed: SEQ, ID, checksum, flag. */
	static const uint8_t cmd[] = { 0x00, 0x0B, 0xF4, 0x7E };
	uint8_t dst[16];

	(void)state;
	sonde_rx_set_app_callback(app_cb);
	sonde_rx_feed(cmd, sizeof cmd);
	sonde_rx_byte(0x7E);
	assert_int_equal(sonde_rx_region(ring, sizeof ring, SONDE_RX_READ), -1);
	assert_int_equal(sonde_pending(), 0);

	sonde_rtt_init();
	assert_int_equal(sonde_rtt_drain(), 0);
	assert_int_equal(sonde_rtt_fill(sonde_drain), 0);
	assert_int_equal(sonde_rtt_unread(), 0);
	assert_int_equal(sonde_rtt_read(dst, sizeof dst), 0);
	assert_int_equal(sonde_rtt_rx(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_write_nothing),
		cmocka_unit_test(test_rx_and_rtt_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
