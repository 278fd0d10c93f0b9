/*
 * test_core_floatfmt.c -- numfmt_float and numfmt_float_value, the one
 * rule for a float argument in every output format (core/numfmt.h): the
 * values of the report and the edges (exact text), then float32 bit
 * patterns and doubles of every exponent: the text reads back as the same
 * float32 / double, and no shorter %g precision does (printf as the oracle
 * of "shortest", so the search's start at 6 digits is checked too); the
 * stored double of a float32 is that of its text.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/numfmt.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void expect(double v, int is_f32, const char *want)
{
	char out[NUMFMT_FLOAT_MAX];
	memset(out, 'x', sizeof(out));
	size_t n = numfmt_float(out, v, is_f32);
	assert_int_equal(n, strlen(out));
	if (strcmp(out, want) != 0)
		fail_msg("%.17g as %s: got '%s', expected '%s'", v, is_f32 ? "f32" : "f64", out, want);
}

static void test_named_values(void **state)
{
	(void)state;
	/* the report: text said -0.562, the report page -0.561999977, SQLite
	 * 0.287000000476837 */
	expect((double)-0.562f, 1, "-0.562");
	expect((double)0.287f, 1, "0.287");
	expect((double)1e-7f, 1, "1e-07");
	expect((double)3.4028235e38f, 1, "3.4028235e+38");
	expect((double)FLT_MIN, 1, "1.1754944e-38");
	expect((double)1e-45f, 1, "1e-45"); /* the smallest subnormal */
	expect((double)0.1f, 1, "0.1");
	expect((double)16777216.0f, 1, "16777216");
	expect((double)1e6f, 1, "1e+06");
	expect(0.0, 1, "0");
	expect(-0.0, 1, "-0");
	expect(NAN, 1, "nan");
	expect(INFINITY, 1, "inf");
	expect(-INFINITY, 0, "-inf");
	/* a double is not taken for a float32 */
	expect((double)0.287f, 0, "0.28700000047683716");
	expect(0.1, 0, "0.1");
	expect(1.0 / 3.0, 0, "0.3333333333333333");
	expect(DBL_MAX, 0, "1.7976931348623157e+308");
	expect(5e-324, 0, "5e-324");
	expect(-2.5, 0, "-2.5");
}

/* The number of significant digits of a %g rendering: leading and
 * trailing zeros left out ("230440" has 5, as "2.3044e+05"). */
static int sig_digits(const char *s)
{
	int n = 0, zeros = 0, lead = 1;
	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = 0;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	return n - zeros > 0 ? n - zeros : 1;
}

static int reads_back(const char *s, double v, int is_f32)
{
	return is_f32 ? strtof(s, NULL) == (float)v : strtod(s, NULL) == v;
}

static void check_shortest(double v, int is_f32)
{
	char out[NUMFMT_FLOAT_MAX];
	numfmt_float(out, v, is_f32);
	if (!reads_back(out, v, is_f32))
		fail_msg("%.17g (%s): '%s' does not read back", v, is_f32 ? "f32" : "f64", out);
	int d = sig_digits(out);
	for (int p = 1; p < d; p++) {
		char shorter[400];
		snprintf(shorter, sizeof(shorter), "%.*g", p, v);
		if (reads_back(shorter, v, is_f32))
			fail_msg("%.17g (%s): '%s' is shorter than '%s'", v, is_f32 ? "f32" : "f64", shorter, out);
	}
	/* the double stored for it is the one its text reads as */
	double stored = numfmt_float_value(v, is_f32);
	assert_true(stored == strtod(out, NULL));
	assert_true((float)stored == (float)v || !is_f32);
}

static void test_float32_patterns(void **state)
{
	(void)state;
	for (int i = 0; i < 50000; i++) {
		uint32_t bits = (uint32_t)rng();
		if (i < 2000)
			bits &= 0x807FFFFFu; /* subnormals and zeros */
		float f;
		memcpy(&f, &bits, sizeof(f));
		if (isnan(f) || isinf(f))
			continue;
		check_shortest((double)f, 1);
	}
}

static void test_doubles(void **state)
{
	(void)state;
	for (int i = 0; i < 30000; i++) {
		uint64_t bits = rng();
		if (i < 1000)
			bits &= 0x800FFFFFFFFFFFFFull; /* subnormals */
		double v;
		memcpy(&v, &bits, sizeof(v));
		if (isnan(v) || isinf(v))
			continue;
		check_shortest(v, 0);
	}
	/* decimals typed by a person: the shortest is what was typed */
	for (int i = 0; i < 10000; i++) {
		char typed[32];
		snprintf(typed, sizeof(typed), "%d.%03de%d", (int)(rng() % 2000) - 1000, (int)(rng() % 1000),
			 (int)(rng() % 60) - 30);
		check_shortest(strtod(typed, NULL), 0);
		check_shortest((double)strtof(typed, NULL), 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_values),
		cmocka_unit_test(test_float32_patterns),
		cmocka_unit_test(test_doubles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
