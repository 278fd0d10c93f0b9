/*
 * test_qs_render.c -- the QS decoder's own %e (qs_put_e): the same
 * characters as printf's "%*.*e" for every precision QSPY uses (0..15),
 * on values of every kind: random float and double bit patterns, exact
 * ties (which round to even), values a hair either side of a tie, powers
 * of ten and their neighbours, zeros, subnormals, infinities, NaNs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/qs/qs_render.h"

static unsigned long checked;

static void check(double v, unsigned prec)
{
	unsigned width = prec == 0 ? 7 : prec + 8; /* QSPY's widths */
	char want[512], got[512];
	snprintf(want, sizeof(want), "%*.*e", (int)width, (int)prec, v);
	memset(got, 'x', sizeof(got));
	char *end = qs_put_e(got, sizeof(got), v, prec, width);
	*end = '\0';
	if (strcmp(want, got) != 0)
		fail_msg("%%%u.%ue of %a: printf \"%s\", qs_put_e \"%s\"", width, prec, v, want, got);
	checked++;
}

static void check_all(double v)
{
	for (unsigned prec = 0; prec <= 15; prec++) {
		check(v, prec);
		check(-v, prec);
	}
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_random_bits(void **state)
{
	(void)state;
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 5000; i++) {
		uint32_t b32 = (uint32_t)next(&x);
		float f;
		memcpy(&f, &b32, sizeof(f));
		check(f, (unsigned)(next(&x) % 16));
		uint64_t b64 = next(&x);
		double d;
		memcpy(&d, &b64, sizeof(d));
		check(d, (unsigned)(next(&x) % 16));
	}
}

/* Decimal numbers as a float holds them (the usual arguments): 3.14159,
 * 1e-3, 0.1 * k ... */
static void test_decimal_values(void **state)
{
	(void)state;
	uint64_t x = 12345;
	for (int i = 0; i < 1000; i++) {
		double m = (double)(next(&x) % 2000001) / 1000.0;
		int e = (int)(next(&x) % 61) - 30;
		check_all((float)(m * pow(10, e)));
		check_all(m * pow(10, e));
	}
}

/* Exact ties at every precision round to even; their neighbours round
 * away from the tie. */
static void test_ties(void **state)
{
	(void)state;
	for (int k = 0; k < 300; k++) {
		double tie = (double)k + 0.5; /* exact */
		for (int s = -10; s <= 10; s++) {
			double v = ldexp(tie, s); /* still exact: a binary fraction */
			check_all(v);
			check_all(nextafter(v, 0));
			check_all(nextafter(v, INFINITY));
		}
	}
	static const double more[] = { 0.125, 0.375, 2.5, 1.25, 1.5e-3, 9.5, 99.5, 999.5, 0.9999995, 9.9999995,
				       0.95, 0.995, 9.995, 1e15 + 0.5, 123456789012345.5 };
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		check_all(more[i]);
}

static void test_edges(void **state)
{
	(void)state;
	for (int e = -330; e <= 310; e++) {
		double p = pow(10, e);
		check_all(p);
		check_all(nextafter(p, 0));
		check_all(nextafter(p, INFINITY));
	}
	static const double edge[] = { 0.0, 1.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
				       1.401298464324817e-45, 1.1754943508222875e-38, 3.4028234663852886e38,
				       INFINITY, NAN };
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		check_all(edge[i]);
	assert_true(checked > 50000); /* every test ran its checks */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_decimal_values),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
