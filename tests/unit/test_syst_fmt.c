/*
 * test_syst_fmt.c -- catalog/printf formatting of SyS-T packed arguments.
 *
 * The expected text is what glibc's snprintf makes of the same format and
 * the native values (the reference printer renders through snprintf too);
 * the argument bytes are packed as a 32-bit and as a 64-bit client packs
 * them (shared/notes/syst.md §9).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "proto/syst/syst_fmt.h"

struct pack {
	uint8_t b[1024];
	size_t n;
};

static void put(struct pack *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

static void put_str(struct pack *p, const char *s)
{
	size_t l = strlen(s) + 1;
	memcpy(p->b + p->n, s, l);
	p->n += l;
}

static void put_dbl(struct pack *p, double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	put(p, v, 8);
}

struct result {
	char text[8192];
	enum syst_fmt_result res;
	struct sonde_arg args[16];
	size_t nargs;
	int full;
};

static void run(struct result *r, const char *fmt, const struct pack *p, unsigned long_size)
{
	struct syst_sb sb;
	syst_sb_init(&sb, r->text, sizeof(r->text));
	struct syst_fmt_in in = { fmt, strlen(fmt), p ? p->b : NULL, p ? p->n : 0, long_size, 0, 0 };
	r->res = syst_fmt(&sb, &in, r->args, 16, &r->nargs);
	r->full = sb.full;
}

#define FMT "%d %i %u %x %X %o %c %s %lld %llu %ld %lu %zu %p %% %f %e %g [%*d] [%.*s] %hhd " \
	    "%hd %#x [%-5d] %+d %05.1f %Lf %jd %a %.3f %'d"

static void test_against_glibc(void **state)
{
	(void)state;
	char exp[1024];
	snprintf(exp, sizeof(exp), FMT, -7, 42, 3000000000u, 0xdeadbeefu, 0xcafeu, 8u, 'Z', "text",
		 -1234567890123LL, 18446744073709551615ULL, -99L, 77UL, (size_t)4096, (void *)0x1234,
		 3.14159, 12345.678, 0.0001, 6, 42, 2, "abc", -3, -32768, 255, 3, 5, 2.25, 1.5L,
		 (intmax_t)-5, 1.0, 2.5, 1234567);
	for (unsigned ls = 4; ls <= 8; ls += 4) {
		struct pack p = { .n = 0 };
		put(&p, (uint64_t)-7, 4);
		put(&p, 42, 4);
		put(&p, 3000000000u, 4);
		put(&p, 0xdeadbeefu, 4);
		put(&p, 0xcafe, 4);
		put(&p, 8, 4);
		put(&p, 'Z', 4);
		put_str(&p, "text");
		put(&p, (uint64_t)-1234567890123LL, 8);
		put(&p, UINT64_MAX, 8);
		put(&p, (uint64_t)-99, ls); /* long: 4 bytes on a 32-bit client */
		put(&p, 77, ls);
		put(&p, 4096, ls);
		put(&p, 0x1234, ls);
		put_dbl(&p, 3.14159);
		put_dbl(&p, 12345.678);
		put_dbl(&p, 0.0001);
		put(&p, 6, 4);
		put(&p, 42, 4);
		put(&p, 2, 4);
		put_str(&p, "abc");
		put(&p, 0xFFFFFFFDu, 4); /* a char -3, promoted to int */
		put(&p, 0xFFFF8000u, 4);
		put(&p, 255, 4);
		put(&p, 3, 4);
		put(&p, 5, 4);
		put_dbl(&p, 2.25);
		put_dbl(&p, 1.5); /* long double travels as double */
		put(&p, (uint64_t)-5, 8);
		put_dbl(&p, 1.0);
		put_dbl(&p, 2.5);
		put(&p, 1234567, 4);
		struct result r;
		run(&r, FMT, &p, ls);
		assert_int_equal(r.res, SYST_FMT_OK);
		assert_string_equal(r.text, exp);
		assert_int_equal(r.nargs, 16); /* capped at the array size */
		assert_int_equal(r.args[0].type, SONDE_A_I32);
		assert_int_equal((int64_t)r.args[0].v.u, -7);
		assert_int_equal(r.args[7].type, SONDE_A_STR);
		assert_int_equal(r.args[7].v.mem.n, 4);
		assert_memory_equal(r.args[7].v.mem.p, "text", 4);
		assert_int_equal(r.args[8].type, SONDE_A_I64);
		assert_int_equal(r.args[10].type, ls == 8 ? SONDE_A_I64 : SONDE_A_I32);
		assert_int_equal((int64_t)r.args[10].v.u, -99);
	}
}

/* The fixed-arity catalog API sends u64 parameters on 64-bit clients: the
 * format decides how they are read (notes §9). */
/* The integer conversions syst_fmt renders without vsnprintf (widths, the
 * '0' flag, negative numbers, every length modifier, h/hh truncation),
 * value by value against glibc. */
static void test_integers_against_glibc(void **state)
{
	(void)state;
	static const int64_t vals[] = { 0, 1, -1, 9, 10, -10, 99999, -100000, INT32_MAX, INT32_MIN,
					 (int64_t)UINT32_MAX, INT64_MAX, INT64_MIN, 0x7E7D, -0x12345678 };
	static const char *const specs32[] = { "%d", "%i", "%7d", "%07d", "%1d", "%u", "%12u", "%012u",
					       "%x", "%X", "%8x", "%08X", "%2x", "%hd", "%hhd", "%6hd", "%05hhd",
					       "%hu", "%hhu", "%hx", "%04hhX", "%hi" };
	static const char *const specs64[] = { "%lld", "%22lld", "%022lld", "%llu", "%llx", "%016llX",
					       "%jd", "%zu", "%tx" };
	char exp[128];
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		for (size_t k = 0; k < sizeof(specs32) / sizeof(specs32[0]); k++) {
			struct pack p = { .n = 0 };
			struct result r;
			put(&p, (uint64_t)vals[i], 4);
			if (strchr("di", specs32[k][strlen(specs32[k]) - 1]))
				snprintf(exp, sizeof(exp), specs32[k], (int)vals[i]);
			else
				snprintf(exp, sizeof(exp), specs32[k], (unsigned)vals[i]);
			run(&r, specs32[k], &p, 4);
			assert_int_equal(r.res, SYST_FMT_OK);
			assert_string_equal(r.text, exp);
		}
		for (size_t k = 0; k < sizeof(specs64) / sizeof(specs64[0]); k++) {
			struct pack p = { .n = 0 };
			struct result r;
			put(&p, (uint64_t)vals[i], 8);
			if (strchr("di", specs64[k][strlen(specs64[k]) - 1]))
				snprintf(exp, sizeof(exp), specs64[k], (long long)vals[i]);
			else
				snprintf(exp, sizeof(exp), specs64[k], (unsigned long long)vals[i]);
			run(&r, specs64[k], &p, 8);
			assert_int_equal(r.res, SYST_FMT_OK);
			assert_string_equal(r.text, exp);
		}
	}
}

/* %c, %s and %p, which syst_fmt renders without vsnprintf when no flag
 * but '-' asks for more, against glibc. */
static void test_chars_strings_pointers_against_glibc(void **state)
{
	(void)state;
	static const char *const cspecs[] = { "%c", "%1c", "%-1c", "%.0c", "%3c", "%-3c", "%lc" };
	static const uint32_t chars[] = { 'Z', ' ', 0, 0x7F, 0xE4, 0x141 };
	static const char *const sspecs[] = { "%s", "%.0s", "%.2s", "%.9s", "%5s", "%-5s", "%1s",
					      "%-7.2s", "%3.5s", "%ls", "%S" };
	static const char *const strs[] = { "", "a", "abc", "quote\"d", "\xC3\xA4xyz" };
	static const char *const pspecs[] = { "%p", "%20p", "%-20p" };
	static const uint64_t ptrs[] = { 0, 1, 0x1234, 0xABCDEF01u, (uint64_t)UINTPTR_MAX };
	char exp[128];
	for (size_t k = 0; k < sizeof(cspecs) / sizeof(cspecs[0]); k++) {
		for (size_t i = 0; i < sizeof(chars) / sizeof(chars[0]); i++) {
			if (chars[i] >= 0x80 && strchr(cspecs[k], 'l'))
				continue; /* a wide character: UTF-8, test_wide_char */
			struct pack p = { .n = 0 };
			struct result r;
			put(&p, chars[i], 4);
			size_t n = (size_t)snprintf(exp, sizeof(exp), cspecs[k], (int)chars[i] & 0xFF);
			if (strchr(cspecs[k], 'l'))
				n = (size_t)snprintf(exp, sizeof(exp), "%c", (int)chars[i]);
			run(&r, cspecs[k], &p, 4);
			assert_int_equal(r.res, SYST_FMT_OK);
			assert_memory_equal(r.text, exp, n + 1);
		}
	}
	for (size_t k = 0; k < sizeof(sspecs) / sizeof(sspecs[0]); k++) {
		char narrow[8];
		/* %ls and %S are read as narrow strings (the client packs bytes) */
		snprintf(narrow, sizeof(narrow), "%%%s", strchr(sspecs[k], 'S') ? "s" : sspecs[k] + 2);
		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
			struct pack p = { .n = 0 };
			struct result r;
			put_str(&p, strs[i]);
			snprintf(exp, sizeof(exp), strchr(sspecs[k], 'l') || strchr(sspecs[k], 'S') ? narrow
												: sspecs[k],
				 strs[i]);
			run(&r, sspecs[k], &p, 4);
			assert_int_equal(r.res, SYST_FMT_OK);
			assert_string_equal(r.text, exp);
		}
	}
	for (size_t k = 0; k < sizeof(pspecs) / sizeof(pspecs[0]); k++) {
		for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++) {
			struct pack p = { .n = 0 };
			struct result r;
			put(&p, ptrs[i], 8);
			snprintf(exp, sizeof(exp), pspecs[k], (void *)(uintptr_t)ptrs[i]);
			run(&r, pspecs[k], &p, 8);
			assert_int_equal(r.res, SYST_FMT_OK);
			assert_string_equal(r.text, exp);
		}
	}
}

static void test_fixed_api(void **state)
{
	(void)state;
	struct pack p = { .n = 0 };
	put(&p, 7, 8);
	put(&p, 8, 8);
	struct result r;
	run(&r, "fixed-api %ld %ld", &p, 8);
	assert_string_equal(r.text, "fixed-api 7 8");
	run(&r, "read as int %d %d", &p, 8);
	assert_string_equal(r.text, "read as int 7 0");
	/* ptrdiff_t is pointer-sized (the printer reads 4 bytes: P8) */
	run(&r, "%td %td", &p, 8);
	assert_string_equal(r.text, "7 8");
	run(&r, "%td %td %td %td", &p, 4);
	assert_string_equal(r.text, "7 0 8 0");
}

static void test_failures(void **state)
{
	(void)state;
	struct pack p = { .n = 0 };
	struct result r;
	put(&p, 1, 4);
	run(&r, "a=%d b=%d", &p, 4);
	assert_int_equal(r.res, SYST_FMT_SHORT_ARGS);
	assert_string_equal(r.text, "a=1 b=- insufficient argument bytes for format 'a=%d b=%d'");

	p.n = 0;
	memcpy(p.b, "abc", 3);
	p.n = 3;
	run(&r, "s=%s!", &p, 4);
	assert_int_equal(r.res, SYST_FMT_BAD_STRING);
	/* the printer's text alone: what came before is dropped */
	assert_string_equal(r.text, " - corrupt printf payload, missing argument string termination");

	p.n = 0;
	put(&p, 0x1234, 8);
	run(&r, "x%ny", &p, 8); /* %n is consumed and never written */
	assert_int_equal(r.res, SYST_FMT_OK);
	assert_string_equal(r.text, "xy");
	run(&r, "x%lly%n%n", &p, 8);
	assert_string_equal(r.text, "x%lly- insufficient argument bytes for format 'x%lly%n%n'");

	p.n = 0;
	put(&p, 5, 4);
	run(&r, "%y %d 100%", &p, 4); /* unknown conversion and a trailing '%' stay */
	assert_string_equal(r.text, "%y 5 100%");
	run(&r, "%d%5", &p, 4);
	assert_string_equal(r.text, "5%5");
}

static void test_bounds(void **state)
{
	(void)state;
	struct pack p = { .n = 0 };
	struct result r;
	put(&p, 1, 4);
	run(&r, "%99999999999d", &p, 4);
	assert_int_equal(strlen(r.text), SYST_FMT_MAX_WIDTH);
	put(&p, (uint64_t)-4, 4);
	put(&p, 7, 4);
	p.n = 0;
	put(&p, (uint64_t)-4, 4);
	put(&p, 7, 4);
	run(&r, "%*d|", &p, 4); /* negative star width: left-justified */
	assert_string_equal(r.text, "7   |");

	char small[16];
	struct syst_sb sb;
	syst_sb_init(&sb, small, sizeof(small));
	p.n = 0;
	put(&p, 123456, 4);
	const char *fmt = "abcdefghijklmnopqrstuvwxyz %d %d %d";
	struct syst_fmt_in in = { fmt, strlen(fmt), p.b, p.n, 4, 0, 0 };
	size_t na;
	syst_fmt(&sb, &in, r.args, 16, &na);
	assert_true(sb.full);
	assert_int_equal(sb.len, 15);
	assert_string_equal(small, "abcdefghijklmno");
}

static void test_single_value(void **state)
{
	(void)state;
	static const struct { const char *fmt; uint64_t v; const char *want; } c[] = {
		{ "short32 error code %d", 5, "short32 error code 5" },
		{ "short64 masked low=%llu", 66, "short64 masked low=66" },
		{ "proto%d", 33, "proto33" },
		{ "console", 1, "console" },
		{ "%x/%X/%s", 255, "ff/FF/(null)" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[128];
		struct syst_sb sb;
		syst_sb_init(&sb, buf, sizeof(buf));
		struct syst_fmt_in in = { c[i].fmt, strlen(c[i].fmt), NULL, 0, 8, 1, c[i].v };
		struct sonde_arg a[4];
		size_t na;
		assert_int_equal(syst_fmt(&sb, &in, a, 4, &na), SYST_FMT_OK);
		assert_string_equal(buf, c[i].want);
	}
}

static void test_wide_char(void **state)
{
	(void)state;
	struct pack p = { .n = 0 };
	struct result r;
	put(&p, 0xE4, 4);
	put(&p, 0x2713, 4);
	put(&p, 'Q', 4);
	run(&r, "%lc %lc %lc", &p, 4);
	assert_string_equal(r.text, "\xC3\xA4 \xE2\x9C\x93 Q");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_glibc),
		cmocka_unit_test(test_integers_against_glibc),
		cmocka_unit_test(test_chars_strings_pointers_against_glibc),
		cmocka_unit_test(test_fixed_api),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_wide_char),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
