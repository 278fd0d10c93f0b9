/*
 * test_sonde_logfmt.c -- the LOG formatter (protocol §6): conversions with
 * flags, width and precision compared with the C library on the same
 * literal formats; %%; missing, extra and mismatched arguments; unknown
 * conversions; capped widths; safe truncation of long output; and random
 * formats with random arguments (run under ASan/UBSan in CI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "proto/sonde/sonde_logfmt.h"

static struct sonde_arg U(enum sonde_arg_type t, uint64_t v)
{
	struct sonde_arg a;
	memset(&a, 0, sizeof(a));
	a.type = t;
	a.v.u = v;
	return a;
}

static struct sonde_arg I(enum sonde_arg_type t, int64_t v)
{
	struct sonde_arg a = U(t, 0);
	a.v.i = v;
	return a;
}

static struct sonde_arg F(double v)
{
	struct sonde_arg a = U(SONDE_A_F64, 0);
	a.v.f = v;
	return a;
}

static struct sonde_arg S(const char *s)
{
	struct sonde_arg a = U(SONDE_A_STR, 0);
	a.v.mem.p = (const uint8_t *)s;
	a.v.mem.n = strlen(s);
	return a;
}

static char out[SLOG_TEXT_MAX];

static const char *fmt(const char *f, const struct sonde_arg *a, size_t n)
{
	size_t k = slog_format(out, sizeof(out), f, strlen(f), a, n);
	assert_int_equal(k, strlen(out));
	return out;
}

static void test_percent_missing_extra(void **state)
{
	(void)state;
	struct sonde_arg a[] = { I(SONDE_A_I32, 5), S("s"), F(2.5) };
	assert_string_equal(fmt("100%% done", NULL, 0), "100% done");
	assert_string_equal(fmt("%%%d%%", a, 1), "%5%");
	assert_string_equal(fmt("a=%d b=%d c=%s", a, 1), "a=5 b=<?> c=<?>");
	assert_string_equal(fmt("x=%d", a, 3), "x=5 s 2.5");
	assert_string_equal(fmt("", a, 2), " 5 s");
	assert_string_equal(fmt("plain", NULL, 0), "plain");
}

static void test_bad_conversions(void **state)
{
	(void)state;
	struct sonde_arg a[] = { I(SONDE_A_I32, 7) };
	assert_string_equal(fmt("%y and %d", a, 1), "%y and 7");
	assert_string_equal(fmt("%-5k|%d", a, 1), "%-5k|7");
	assert_string_equal(fmt("abc%", a, 1), "abc% 7");
	assert_string_equal(fmt("abc%5", NULL, 0), "abc%5");
	assert_string_equal(fmt("abc%ll", NULL, 0), "abc%ll");
	assert_string_equal(fmt("%n%a", a, 1), "%n%a 7"); /* %n is never honoured */
	const char with_nul[] = { 'a', 'b', '\0', 'c', '%', 'd' };
	size_t k = slog_format(out, sizeof(out), with_nul, sizeof(with_nul), a, 1);
	assert_string_equal(out, "ab 7");
	assert_int_equal(k, 4);
}

/* Integers and floats against the C library, with the same literal format. */
#define SAME_I(f, v)                                                            \
	do {                                                                    \
		struct sonde_arg x = I(SONDE_A_I64, (v));                       \
		char ref[256];                                                  \
		snprintf(ref, sizeof(ref), f, (long long)(v));                  \
		assert_string_equal(fmt(f, &x, 1), ref);                        \
	} while (0)
#define SAME_U(f, v)                                                            \
	do {                                                                    \
		struct sonde_arg x = U(SONDE_A_U64, (v));                       \
		char ref[256];                                                  \
		snprintf(ref, sizeof(ref), f, (unsigned long long)(v));         \
		assert_string_equal(fmt(f, &x, 1), ref);                        \
	} while (0)
#define SAME_F(f, v)                                                            \
	do {                                                                    \
		struct sonde_arg x = F(v);                                      \
		char ref[512];                                                  \
		snprintf(ref, sizeof(ref), f, (double)(v));                     \
		assert_string_equal(fmt(f, &x, 1), ref);                        \
	} while (0)

static void test_like_libc(void **state)
{
	(void)state;
	const long long iv[] = { 0, 1, -1, 42, -42, 123456789, INT64_MIN, INT64_MAX };
	for (size_t i = 0; i < sizeof(iv) / sizeof(iv[0]); i++) {
		SAME_I("%lld", iv[i]);
		SAME_I("[%5lld]", iv[i]);
		SAME_I("[%-5lld]", iv[i]);
		SAME_I("[%05lld]", iv[i]);
		SAME_I("[%+lld]", iv[i]);
		SAME_I("[% lld]", iv[i]);
		SAME_I("[%.3lld]", iv[i]);
		SAME_I("[%8.3lld]", iv[i]);
		SAME_I("[%-+8.3lld]", iv[i]);
		SAME_I("[%.0lld]", iv[i]);
		SAME_I("[%lli]", iv[i]);
	}
	const unsigned long long uv[] = { 0, 1, 0x7E, 0xDEADBEEF, UINT64_MAX };
	for (size_t i = 0; i < sizeof(uv) / sizeof(uv[0]); i++) {
		SAME_U("%llu", uv[i]);
		SAME_U("[%llx]", uv[i]);
		SAME_U("[%llX]", uv[i]);
		SAME_U("[%#llx]", uv[i]);
		SAME_U("[%#llo]", uv[i]);
		SAME_U("[%llo]", uv[i]);
		SAME_U("[%#10.4llx]", uv[i]);
		SAME_U("[%-#10llX]", uv[i]);
		SAME_U("[%010llu]", uv[i]);
		SAME_U("[%.0llu]", uv[i]);
		SAME_U("[%#.0llo]", uv[i]);
	}
	const double fv[] = { 0.0, -0.0, 1.5, -2.25, 3.14159265358979, 1e-10, 6.02e23, 1e300 };
	for (size_t i = 0; i < sizeof(fv) / sizeof(fv[0]); i++) {
		SAME_F("%f", fv[i]);
		SAME_F("[%.2f]", fv[i]);
		SAME_F("[%10.3f]", fv[i]);
		SAME_F("[%-10.1f]", fv[i]);
		SAME_F("[%+e]", fv[i]);
		SAME_F("[%E]", fv[i]);
		SAME_F("[%g]", fv[i]);
		SAME_F("[%#G]", fv[i]);
		SAME_F("[%012.4F]", fv[i]);
	}
}

static void test_types_and_sizes(void **state)
{
	(void)state;
	struct sonde_arg a[] = { I(SONDE_A_I8, -1), I(SONDE_A_I16, -2), I(SONDE_A_I32, -1), I(SONDE_A_I64, -1) };
	assert_string_equal(fmt("%u %x %x %u", a, 4), "255 fffe ffffffff 18446744073709551615");
	assert_string_equal(fmt("%d %d %d %d", a, 4), "-1 -2 -1 -1");
	assert_string_equal(fmt("%hhd %ld %lld %zu %jd %hu", a, 4), "-1 -2 -1 18446744073709551615 <?> <?>");
	struct sonde_arg c[] = { U(SONDE_A_U8, 'A'), U(SONDE_A_U8, 0), I(SONDE_A_I32, 0x142) };
	assert_string_equal(fmt("[%c][%c][%3c][%-3c]", c, 3), "[A][][  B][<?>]");
	struct sonde_arg p[] = { U(SONDE_A_FUNC, 0x8000), U(SONDE_A_U32, 0), I(SONDE_A_I32, -3) };
	assert_string_equal(fmt("%p %p %f", p, 3), "0x8000 0x0 -3.000000");
	struct sonde_arg f[] = { F(2.5), S("str") };
	assert_string_equal(fmt("%d|%x|%s", f, 2), "2.5|str|<?>");
	assert_string_equal(fmt("[%5d][%-5x][%.1d]", f, 2), "[  2.5][str  ][<?>]");
}

static void test_names_and_natural_forms(void **state)
{
	(void)state;
	struct sonde_arg obj = U(SONDE_A_OBJ, 5), objn = U(SONDE_A_OBJ, 6);
	objn.resolved = "Idle";
	struct sonde_arg fn = U(SONDE_A_FUNC, 0x1234), fnn = U(SONDE_A_FUNC, 0x2000);
	fnn.resolved = "main";
	struct sonde_arg en = U(SONDE_A_ENUM, 4), enn = U(SONDE_A_ENUM, 1);
	en.group = 3;
	enn.group = 3;
	enn.resolved = "RED";
	static const uint8_t bytes[] = { 0x01, 0xAB, 0x7E };
	struct sonde_arg mem = U(SONDE_A_MEM, 0);
	mem.v.mem.p = bytes;
	mem.v.mem.n = 3;
	struct sonde_arg a[] = { obj, objn, fn, fnn, en, enn, mem, U(SONDE_A_U32, 7) };
	assert_string_equal(fmt("%s %s %s %s %s %s %s %s", a, 8), "5 Idle 0x1234 main 3:4 RED <01 ab 7e> 7");
	assert_string_equal(fmt("%d %d %x", a, 3), "5 6 1234");
	assert_string_equal(fmt("[%6s][%-6s][%.2s]", a, 3), "[     5][Idle  ][0x]");
	assert_string_equal(fmt("x", a, 8), "x 5 Idle 0x1234 main 3:4 RED <01 ab 7e> 7");
}

static void test_star_and_caps(void **state)
{
	(void)state;
	struct sonde_arg a[] = { U(SONDE_A_U8, 5), I(SONDE_A_I32, 42), I(SONDE_A_I32, -4), I(SONDE_A_I32, 7),
				 U(SONDE_A_U8, 2), S("hello") };
	assert_string_equal(fmt("[%*d][%*d][%.*s]", a, 6), "[   42][7   ][he]");
	struct sonde_arg b[] = { I(SONDE_A_I32, 1) };
	fmt("%999999999999d", b, 1);
	assert_int_equal(strlen(out), SLOG_PAD_MAX);
	fmt("%.999999f", (struct sonde_arg[]){ F(1.0) }, 1);
	assert_int_equal(strlen(out), 2 + SLOG_PAD_MAX);
	struct sonde_arg huge[] = { U(SONDE_A_U64, UINT64_MAX), I(SONDE_A_I32, 1) };
	fmt("%*d", huge, 2);
	assert_int_equal(strlen(out), SLOG_PAD_MAX);
	fmt("%-*d|", huge, 2);
	assert_int_equal(strlen(out), SLOG_PAD_MAX + 1);
}

static void test_truncation(void **state)
{
	(void)state;
	char big[3000];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fmt(big, NULL, 0);
	assert_int_equal(strlen(out), SLOG_TEXT_MAX - 1);
	assert_string_equal(out + SLOG_TEXT_MAX - 4, "...");
	char s600[601];
	memset(s600, 'x', 600);
	s600[600] = '\0';
	struct sonde_arg a[] = { S(s600), S(s600), S(s600) };
	fmt("%s|%s|%s", a, 3);
	assert_int_equal(strlen(out), SLOG_TEXT_MAX - 1);
	assert_int_equal(out[600], '|');
	assert_string_equal(out + SLOG_TEXT_MAX - 4, "...");
	char small[8];
	size_t k = slog_format(small, sizeof(small), "%d-%d", 5, a, 0);
	assert_string_equal(small, "<?>-...");
	assert_int_equal(k, 7);
	k = slog_format(small, sizeof(small), "abc", 3, NULL, 0);
	assert_string_equal(small, "abc");
	k = slog_natural(small, sizeof(small), &a[0]);
	assert_string_equal(small, "xxxx...");
}

/* Random formats and arguments: never more than the cap, never a crash. */
static void test_random(void **state)
{
	(void)state;
	static const char alphabet[] = "%%%%-+ #0*.123456789hlLqjzt diuxXocsfFeEgGpny!";
	static const uint8_t memb[] = { 1, 2, 3 };
	uint64_t rs = 7;
	for (int round = 0; round < 20000; round++) {
		char f[64];
		rs = rs * 6364136223846793005ull + 1442695040888963407ull;
		size_t n = (size_t)(rs >> 58);
		for (size_t i = 0; i < n; i++) {
			rs = rs * 6364136223846793005ull + 1442695040888963407ull;
			f[i] = alphabet[(rs >> 33) % (sizeof(alphabet) - 1)];
		}
		struct sonde_arg a[6];
		for (int i = 0; i < 6; i++) {
			rs = rs * 6364136223846793005ull + 1442695040888963407ull;
			enum sonde_arg_type t = (enum sonde_arg_type)(1 + (rs >> 33) % 17);
			a[i] = U(t, rs);
			if (t == SONDE_A_F32 || t == SONDE_A_F64)
				a[i].v.f = (double)(int64_t)rs / 1e3;
			if (t == SONDE_A_STR || t == SONDE_A_MEM) {
				a[i].v.mem.p = memb;
				a[i].v.mem.n = (rs >> 40) % 4;
			}
		}
		char o[64];
		size_t k = slog_format(o, sizeof(o), f, n, a, (size_t)(rs >> 61) % 7);
		assert_true(k < sizeof(o));
		assert_int_equal(strlen(o), k);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percent_missing_extra),
		cmocka_unit_test(test_bad_conversions),
		cmocka_unit_test(test_like_libc),
		cmocka_unit_test(test_types_and_sizes),
		cmocka_unit_test(test_names_and_natural_forms),
		cmocka_unit_test(test_star_and_caps),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
