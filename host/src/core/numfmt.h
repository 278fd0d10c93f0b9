/*
 * numfmt.h -- integers as text on the hot paths of the decoders and sinks.
 *
 * snprintf parses its format and goes through stdio's machinery for every
 * number; a trace prints several numbers per record, so the renderings that
 * run once per record use these instead: two digits per step from a table,
 * the length known before the first digit is written, no NUL written.
 * Each writes into out (room for 20 digits, or width, whichever is more)
 * and returns the number of characters written; bytes of that room past
 * them may be overwritten (numfmt_hex stores eight at a time).
 *
 * numfmt_float is the one rule for a floating-point argument in every
 * output format (docs/cli.md, "Numbers").
 */
#ifndef SONDE_NUMFMT_H
#define SONDE_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern const char numfmt_pairs[200]; /* "00" "01" ... "99" */

extern const uint64_t numfmt_pow10[20]; /* 1, 10, ..., 10^19 */

/* Number of decimal digits of v (1 for 0): from the bit length (log10(2)
 * ~ 1233/4096), corrected by one comparison. */
static inline unsigned numfmt_ndigits(uint64_t v)
{
	uint64_t w = v | 1;
	unsigned t = ((64u - (unsigned)__builtin_clzll(w)) * 1233u) >> 12;
	return t + 1 - (w < numfmt_pow10[t]);
}

/* The n lowest decimal digits of v, most significant first, into out.
 * Values below 2^32 take 32-bit divisions, which are cheaper. */
static inline void numfmt_put_digits(char *out, uint64_t v, unsigned n)
{
	char *p = out + n;
	while (v > UINT32_MAX) {
		p -= 2;
		memcpy(p, numfmt_pairs + 2 * (v % 100), 2);
		v /= 100;
		n -= 2;
	}
	uint32_t w = (uint32_t)v;
	while (n >= 2) {
		p -= 2;
		memcpy(p, numfmt_pairs + 2 * (w % 100), 2);
		w /= 100;
		n -= 2;
	}
	if (n)
		p[-1] = (char)('0' + w % 10);
}

/* Unsigned decimal. */
static inline size_t numfmt_u64(char *out, uint64_t v)
{
	unsigned n = numfmt_ndigits(v);
	numfmt_put_digits(out, v, n);
	return n;
}

/* Signed decimal. */
static inline size_t numfmt_i64(char *out, int64_t v)
{
	if (v >= 0)
		return numfmt_u64(out, (uint64_t)v);
	out[0] = '-';
	return 1 + numfmt_u64(out + 1, 0 - (uint64_t)v);
}

/* Unsigned decimal right-aligned in width characters, padded with pad
 * (' ' or '0') like printf's %*llu / %0*llu. */
static inline size_t numfmt_u64_pad(char *out, uint64_t v, unsigned width, char pad)
{
	unsigned n = numfmt_ndigits(v);
	unsigned k = n < width ? width - n : 0;
	for (unsigned i = 0; i < k; i++) /* a few bytes: no call to memset */
		out[i] = pad;
	numfmt_put_digits(out + k, v, n);
	return k + n;
}

/* Hexadecimal with at least 'digits' digits (zero-padded), upper or lower
 * case; no "0x". */
size_t numfmt_hex(char *out, uint64_t v, unsigned digits, int upper);

#define NUMFMT_FLOAT_MAX 32 /* room numfmt_float needs, NUL included */

/* A float argument as text: the shortest decimal that reads back as the
 * same value -- the same float32 when is_f32 (v holds a float32), the
 * same double otherwise -- in printf's %g style ("-0.562", "0.287",
 * "1e-07", "3.4028235e+38", "-0"); "nan", "inf" and "-inf" for the
 * others.  NUL-terminated; returns the length. */
size_t numfmt_float(char *out, double v, int is_f32);

/* The double nearest to that decimal, for the formats that store a binary
 * double (SQLite's REAL, Perfetto's double_value): they then hold the
 * number the text formats print -- 0.287 for 0.287f, not 0.287000000476837.
 * v itself for a double, NaN and infinities. */
double numfmt_float_value(double v, int is_f32);

#endif /* SONDE_NUMFMT_H */
