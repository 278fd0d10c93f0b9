/*
 * test_core_numfmt.c -- the integer renderings of core/numfmt.h against
 * snprintf: every digit-count boundary, the extremes, and pseudo-random
 * values of every bit length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/numfmt.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void check_u(uint64_t v)
{
	char got[64], want[64];
	size_t n = numfmt_u64(got, v);
	got[n] = 0;
	snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
	assert_string_equal(got, want);
	assert_int_equal(numfmt_ndigits(v), strlen(want));

	int64_t s = (int64_t)v;
	n = numfmt_i64(got, s);
	got[n] = 0;
	snprintf(want, sizeof(want), "%lld", (long long)s);
	assert_string_equal(got, want);

	n = numfmt_u64_pad(got, v, 10, '0');
	got[n] = 0;
	snprintf(want, sizeof(want), "%010llu", (unsigned long long)v);
	assert_string_equal(got, want);
	n = numfmt_u64_pad(got, v, 8, ' ');
	got[n] = 0;
	snprintf(want, sizeof(want), "%8llu", (unsigned long long)v);
	assert_string_equal(got, want);

	n = numfmt_hex(got, v, 8, 1);
	got[n] = 0;
	snprintf(want, sizeof(want), "%08llX", (unsigned long long)v);
	assert_string_equal(got, want);
	n = numfmt_hex(got, v, 1, 0);
	got[n] = 0;
	snprintf(want, sizeof(want), "%llx", (unsigned long long)v);
	assert_string_equal(got, want);
}

static void test_boundaries(void **state)
{
	(void)state;
	uint64_t p = 1;
	for (int i = 0; i < 20; i++) {
		check_u(p - 1);
		check_u(p);
		check_u(p + 1);
		if (i < 19)
			p *= 10;
	}
	for (int b = 0; b < 64; b++) {
		check_u(1ull << b);
		check_u((1ull << b) - 1);
	}
	check_u(UINT64_MAX);
	check_u((uint64_t)INT64_MAX);
	check_u((uint64_t)INT64_MIN);
}

static void test_random(void **state)
{
	(void)state;
	for (int i = 0; i < 200000; i++)
		check_u(rng() >> (i % 64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
