/*
 * test_sinkfmt.c -- renderings shared by the text, JSONL and CSV sinks
 * against plain reference computations: seconds with the remembered second
 * (times forwards, backwards, far jumps, clocks that do and do not divide
 * 1e9, a clock change), also right-aligned in a column after an optional
 * '~'; names with control bytes at every place, and C-quoted and JSON
 * strings made of pieces of every kind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sinks/sinkfmt.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ticks / freq with nine decimals, the obvious way. */
static void ref_seconds(char *out, size_t cap, uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)(ticks % freq) * 1000000000u / freq;
	snprintf(out, cap, "%llu.%09llu", (unsigned long long)(ticks / freq), (unsigned long long)ns);
}

/* The same seconds right-aligned in a text column after an optional '~'
 * (sbuf_seconds_right), with its own clock that sees the same times. */
static void check_right(uint64_t ticks, uint64_t freq, const char *want)
{
	static struct sbuf_clock c;
	char field[48], line[64];
	int est = (int)(ticks & 1);
	unsigned width = 15 + (unsigned)(ticks >> 1) % 16;
	struct sbuf b;
	sbuf_init(&b);
	sbuf_char(&b, '|');
	char *o = sbuf_reserve(&b, width > 31 ? width : 31);
	assert_non_null(o);
	sbuf_commit(&b, sbuf_seconds_right(o, &c, ticks, freq, est, width));
	snprintf(field, sizeof(field), "%s%s", est ? "~" : "", want);
	snprintf(line, sizeof(line), "|%*s", (int)width, field);
	if (b.n != strlen(line) || memcmp(b.p, line, b.n) != 0)
		fail_msg("ticks %llu at %llu Hz, width %u: '%.*s', expected '%s'", (unsigned long long)ticks,
			 (unsigned long long)freq, width, (int)b.n, b.p, line);
	sbuf_free(&b);
}

static void check_seconds(struct sbuf_clock *c, uint64_t ticks, uint64_t freq)
{
	char got[40], want[40];
	size_t n = sbuf_seconds_text(c, got, ticks, freq);
	got[n] = 0;
	ref_seconds(want, sizeof(want), ticks, freq);
	if (strcmp(got, want) != 0)
		fail_msg("ticks %llu at %llu Hz: %s, expected %s", (unsigned long long)ticks,
			 (unsigned long long)freq, got, want);
	check_right(ticks, freq, want);
}

static void test_seconds(void **state)
{
	(void)state;
	static const uint64_t freqs[] = { 1, 1000, 32768, 1000000, 3000000, 16000000, 1000000000u,
					  3000000000u, 1ull << 40, UINT64_MAX };
	struct sbuf_clock c = { 0 }; /* one cache across clock changes, as a merged stream may do */
	for (size_t f = 0; f < sizeof(freqs) / sizeof(freqs[0]); f++) {
		uint64_t hz = freqs[f], t = rng() % (hz * 4 + 1);
		for (int i = 0; i < 20000; i++) {
			check_seconds(&c, t, hz);
			switch (rng() % 8) {
			case 0: /* back */
				t -= t ? rng() % (t < hz ? t : hz) : 0;
				break;
			case 1: /* a jump of many seconds */
				t += rng() % (UINT64_MAX / 4 - t > hz ? hz * 1000 : 1);
				break;
			case 2: /* to the last tick of its second, then the first of the next */
				t = t - t % hz + (hz - 1);
				check_seconds(&c, t, hz);
				t += t < UINT64_MAX ? 1 : 0;
				break;
			default: /* a little forwards */
				t += rng() % (hz / 100 + 2);
				break;
			}
		}
		check_seconds(&c, UINT64_MAX, hz);
		check_seconds(&c, 0, hz);
	}
}

/* A name with control bytes (below 0x20, 0x7F) as \xHH, other bytes as
 * they are. */
static void ref_name(char *out, const char *s)
{
	*out = 0;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		out += ch < 0x20 || ch == 0x7F ? sprintf(out, "\\x%02x", ch) : sprintf(out, "%c", ch);
	}
}

static void test_names(void **state)
{
	(void)state;
	static const unsigned char specials[] = { 0x01, 0x0A, 0x1F, 0x7F, 0x20, 0x7E, 0x80, 0xFF, 0x9F };
	struct sbuf b;
	sbuf_init(&b);
	for (size_t len = 0; len <= 20; len++) {
		for (size_t at = 0; at <= len; at++) { /* at == len: a clean name */
			for (size_t k = 0; k < sizeof(specials); k++) {
				char name[32], want[128];
				for (size_t i = 0; i < len; i++)
					name[i] = (char)('A' + (i * 7 + len) % 26);
				if (at < len)
					name[at] = (char)specials[k];
				name[len] = 0;
				ref_name(want, name);
				sbuf_reset(&b);
				sbuf_name(&b, name);
				assert_int_equal(b.n, strlen(want));
				assert_memory_equal(b.p, want, b.n);
			}
		}
	}
	sbuf_free(&b);
}

/* Strings built from pieces whose C-quoted and JSON renderings are known,
 * in runs long and short enough for both the eight-byte and the byte-wise
 * paths, against sbuf_cquote and sbuf_json_str. */
static const struct piece {
	const char *in, *c, *json;
} pieces[] = {
	{ "a", "a", "a" }, { "Z", "Z", "Z" }, { " ", " ", " " }, { "~", "~", "~" },
	{ "\"", "\\\"", "\\\"" }, { "\\", "\\\\", "\\\\" }, { "\n", "\\n", "\\n" },
	{ "\t", "\\t", "\\t" }, { "\x01", "\\x01", "\\u0001" }, { "\x7f", "\\x7f", "\\u007f" },
	{ "\xc3\xa9", "\xc3\xa9", "\xc3\xa9" }, /* é: UTF-8, kept */
	{ "\xff", "\xff", "\\u00ff" },         /* not UTF-8: kept by C quoting, escaped in JSON */
};

static void test_quoting(void **state)
{
	(void)state;
	struct sbuf b;
	sbuf_init(&b);
	for (int round = 0; round < 20000; round++) {
		char in[256] = "", c[1024] = "\"", json[1024] = "\"";
		size_t len = rng() % 40, plain = rng() % 4 == 0; /* some strings plain throughout */
		for (size_t i = 0; i < len; i++) {
			const struct piece *p = &pieces[plain ? rng() % 4 : rng() % 12];
			if (!plain && rng() % 3) /* mostly letters, so that runs form */
				p = &pieces[rng() % 2];
			strcat(in, p->in);
			strcat(c, p->c);
			strcat(json, p->json);
		}
		strcat(c, "\"");
		strcat(json, "\"");
		sbuf_reset(&b);
		sbuf_cquote(&b, in, strlen(in));
		assert_int_equal(b.n, strlen(c));
		assert_memory_equal(b.p, c, b.n);
		sbuf_reset(&b);
		sbuf_json_str(&b, in, strlen(in));
		assert_int_equal(b.n, strlen(json));
		assert_memory_equal(b.p, json, b.n);
	}
	sbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_quoting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
