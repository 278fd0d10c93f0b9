/*
 * test_core_numfmt.c -- the integer renderings of core/numfmt.h against
 * snprintf: every digit-count boundary, the extremes, and pseudo-random
 * values of every bit length; right-aligned in every width, within the
 * room promised.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Right-aligned in every width from 1 to 40, into a buffer of exactly the
 * room the header promises (20, or width when more): AddressSanitizer
 * sees any byte written beyond it. */
static void check_pad(uint64_t v)
{
	for (unsigned width = 1; width <= 40; width++) {
		size_t room = width > 20 ? width : 20;
		char *got = malloc(room), want[64];
		assert_non_null(got);
		size_t n = numfmt_u64_pad(got, v, width, ' ');
		snprintf(want, sizeof(want), "%*llu", (int)width, (unsigned long long)v);
		assert_int_equal(n, strlen(want));
		assert_memory_equal(got, want, n);
		free(got);
	}
}

static void test_widths(void **state)
{
	(void)state;
	uint64_t p = 1;
	for (int i = 0; i < 20; i++) {
		check_pad(p - 1);
		check_pad(p);
		if (i < 19)
			p *= 10;
	}
	check_pad(UINT64_MAX);
	for (int i = 0; i < 2000; i++)
		check_pad(rng() >> (i % 64));
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
		cmocka_unit_test(test_widths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
