/*
 * numfmt.c -- the digit table, hexadecimal and floating-point renderings
 * (numfmt.h).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "numfmt.h"

const char numfmt_pairs[200] = {
	'0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
	'1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
	'2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
	'3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
	'4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
	'5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
	'6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
	'7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
	'8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
	'9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
};

const uint64_t numfmt_pow10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
};

/* Eight hex digits of v as eight characters, most significant first:
 * each nibble is spread into a byte of its own, then turned into its digit
 * in all eight bytes at once. */
static uint64_t hex8(uint32_t v, int upper)
{
	uint64_t x = v;
	x = ((x & 0xFFFF0000ull) << 16) | (x & 0x0000FFFFull);
	x = ((x & 0x0000FF000000FF00ull) << 8) | (x & 0x000000FF000000FFull);
	x = ((x & 0x00F000F000F000F0ull) << 4) | (x & 0x000F000F000F000Full);
	uint64_t letter = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull; /* nibble > 9 */
	x += 0x3030303030303030ull + letter * (uint64_t)((upper ? 'A' : 'a') - '0' - 10);
	return x; /* byte 7 holds the first digit */
}

static void put8(char *out, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		out[i] = (char)(x >> (56 - 8 * i));
}

size_t numfmt_hex(char *out, uint64_t v, unsigned digits, int upper)
{
	unsigned n = (67u - (unsigned)__builtin_clzll(v | 1)) / 4; /* digits v needs */
	if (n < digits)
		n = digits;
	if (n <= 8) {
		/* v < 2^32: its eight digits with the leading ones shifted out,
		 * stored whole (out has room for 20; what follows the n digits
		 * is the next writer's) */
		put8(out, hex8((uint32_t)v, upper) << (8 * (8 - n)));
		return n;
	}
	if (n <= 16) {
		char tmp[16];
		put8(tmp, hex8((uint32_t)(v >> 32), upper));
		put8(tmp + 8, hex8((uint32_t)v, upper));
		memcpy(out, tmp + 16 - n, n);
		return n;
	}
	memset(out, '0', n - 16); /* more than 16 digits asked: leading zeros */
	return n - 16 + numfmt_hex(out + n - 16, v, 16, upper);
}

size_t numfmt_float(char *out, double v, int is_f32)
{
	if (isnan(v) || isinf(v)) {
		const char *t = isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
		size_t n = strlen(t);
		memcpy(out, t, n + 1);
		return n;
	}
	/* The search starts at 6 digits: when the shortest decimal D has k <= 6
	 * digits, %.6g prints D (without %g's trailing zeros), since a normal
	 * value lies within half an ulp of D -- 2^-24 of it for a float32 --
	 * and the next 6-digit numbers are at least 10^-6 of it away.
	 * Subnormals are coarser: they start at 1 digit. */
	double a = fabs(v);
	int prec = a != 0 && a < (is_f32 ? (double)FLT_MIN : DBL_MIN) ? 1 : 6;
	int last = is_f32 ? 9 : 17; /* enough for any float32 / double */
	int n = 0;
	for (; prec <= last; prec++) {
		n = snprintf(out, NUMFMT_FLOAT_MAX, "%.*g", prec, v);
		if (is_f32 ? strtof(out, NULL) == (float)v : strtod(out, NULL) == v)
			break;
	}
	return (size_t)n;
}

double numfmt_float_value(double v, int is_f32)
{
	if (!is_f32 || !isfinite(v))
		return v;
	char t[NUMFMT_FLOAT_MAX];
	numfmt_float(t, v, 1);
	return strtod(t, NULL);
}
