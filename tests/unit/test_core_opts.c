/*
 * test_core_opts.c -- sonde_opt_get (the -o key=value options of the
 * pipeline contract) and the tracking of unused options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/opts.h"

static void test_get(void **state)
{
	(void)state;
	const char *const kv[] = { "ts_freq=1000", "ts=raw", "empty=", "a=b=c", "ts_freq=2000", NULL };
	assert_string_equal(sonde_opt_get(kv, "ts_freq"), "2000"); /* the last one wins */
	assert_string_equal(sonde_opt_get(kv, "ts"), "raw");      /* not a prefix match */
	assert_string_equal(sonde_opt_get(kv, "empty"), "");
	assert_string_equal(sonde_opt_get(kv, "a"), "b=c");
	assert_null(sonde_opt_get(kv, "t"));
	assert_null(sonde_opt_get(kv, "missing"));
	assert_null(sonde_opt_get(NULL, "ts"));
	assert_null(sonde_opt_get(kv, NULL));
}

static void test_tracking(void **state)
{
	(void)state;
	const char *const kv[] = { "x=1", "y=2", "x=3", NULL };
	const char *const other[] = { "z=1", NULL };
	sonde_opt_track(kv);
	assert_false(sonde_opt_was_used(kv, 0));
	sonde_opt_get(kv, "x");
	sonde_opt_get(other, "z");
	assert_true(sonde_opt_was_used(kv, 0));
	assert_false(sonde_opt_was_used(kv, 1));
	assert_true(sonde_opt_was_used(kv, 2));
	assert_true(sonde_opt_was_used(other, 0)); /* untracked arrays never warn */
	sonde_opt_track(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_tracking),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
