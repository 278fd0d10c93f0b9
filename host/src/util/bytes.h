/*
 * bytes.h -- the byte tricks more than one decoder or sink uses, each
 * written once: little-endian loads and stores, the eight-bytes-at-a-time
 * byte tests (SWAR) and the short overlapping copy.
 *
 * Every wire Sonde reads is little-endian.  The loads are written as
 * shifts of single bytes, which is right on any CPU and which GCC and
 * Clang turn into one load on a little-endian one.  The word loads used by
 * the SWAR tests (bytes_word) must put the first byte in the lowest lane
 * whatever the CPU, because the callers find the first flagged byte with a
 * count of trailing zeros: they take a plain memcpy only where the
 * compiler says the CPU is little-endian (both macros defined and equal),
 * else the shifts.  Defining SONDE_PLAIN_BYTES forces the plain versions
 * everywhere; tests/unit/test_util_bytes.c checks the two against each
 * other.
 */
#ifndef SONDE_UTIL_BYTES_H
#define SONDE_UTIL_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(SONDE_PLAIN_BYTES) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BYTES_NATIVE_LE 1
#else
#define BYTES_NATIVE_LE 0
#endif

/* ---- little-endian loads and stores ----------------------------------- */

static inline uint16_t bytes_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t bytes_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bytes_le64(const uint8_t *p)
{
	return (uint64_t)bytes_le32(p) | (uint64_t)bytes_le32(p + 4) << 32;
}

/* The n (0 to 8) bytes at p as an unsigned little-endian number. */
static inline uint64_t bytes_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The low n (0 to 8) bytes of v at p, little-endian. */
static inline void bytes_put_le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- eight bytes at a time -------------------------------------------- */

#define BYTES_ONES 0x0101010101010101ull
#define BYTES_HIGHS 0x8080808080808080ull

/* The eight bytes at p (any alignment) as a word whose lowest byte lane is
 * p[0]. */
static inline uint64_t bytes_word(const void *p)
{
#if BYTES_NATIVE_LE
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
#else
	return bytes_le64(p);
#endif
}

/* Bit 7 of each byte lane of the result flags a byte equal to c
 * (bytes_word_has), below c (bytes_word_below, c <= 0x80) or of 0x80 or
 * more (bytes_word_high).  The result is non-zero exactly when some byte
 * is flagged; the lowest flagged lane is exact, lanes above it may be
 * flagged by a borrow, so only the first flag may be trusted
 * (bytes_first_lane). */
static inline uint64_t bytes_word_has(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (c * BYTES_ONES);

	return (x - BYTES_ONES) & ~x & BYTES_HIGHS;
}

static inline uint64_t bytes_word_below(uint64_t w, unsigned char c)
{
	return (w - c * BYTES_ONES) & ~w & BYTES_HIGHS;
}

static inline uint64_t bytes_word_high(uint64_t w)
{
	return w & BYTES_HIGHS;
}

/* The index (0 to 7) of the first flagged lane of a non-zero result. */
static inline unsigned bytes_first_lane(uint64_t flags)
{
	return (unsigned)__builtin_ctzll(flags) >> 3;
}

/* ---- the short copy --------------------------------------------------- */

/* Copy n bytes that do not overlap.  Output is made of many short pieces
 * (a key, a name, a number: 1 to 20 bytes) and a call to memcpy with a
 * length unknown at compile time costs more than such a piece: up to 16
 * bytes move as two fixed-size copies that overlap in the middle, both
 * loaded before either is stored.  Longer pieces go to memcpy through
 * bytes_copy_long, out of line, where the compiler does not see it beside
 * the short string literals the inline copy is given (GCC would warn of a
 * copy of 17 bytes from them in a branch their length never takes). */
void bytes_copy_long(void *d, const void *s, size_t n);

static inline __attribute__((always_inline)) void bytes_copy_short(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n > 16) {
		bytes_copy_long(d, s, n);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		unsigned char a = s[0], b = s[n / 2], c = s[n - 1];
		d[0] = a;
		d[n / 2] = b;
		d[n - 1] = c;
	}
}

#endif /* SONDE_UTIL_BYTES_H */
