/*
 * tband_cobs.c -- COBS frame decoding (see tband_cobs.h).
 *
 * Hand-written: COBS is a dozen lines and no Debian library provides it.
 */
#include <string.h>

#include "tband_cobs.h"
#include "util/bytes.h"

long tband_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t *bad)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t code = in[i];

		if (code == 0 || i + code > n) {
			if (bad)
				*bad = i;
			return -1;
		}
		/* Blocks are short (a tband frame is a dozen bytes): one loop
		 * copies and checks.  The caller splits on 0x00, but a buffer
		 * handed in directly may hold one; it cannot be data in a COBS
		 * frame. */
		for (size_t k = i + 1; k < i + code; k++) {
			if (in[k] == 0) {
				if (bad)
					*bad = k;
				return -1;
			}
			out[o++] = in[k];
		}
		i += code;
		/* Every block but a full one (0xFF) stands for data followed
		 * by a zero, except the last block, whose zero is the
		 * delimiter itself. */
		if (code != 0xFF && i < n)
			out[o++] = 0;
	}
	return (long)o;
}

long tband_cobs_decode_nz(const uint8_t *in, size_t n, uint8_t *out, size_t *bad)
{
	size_t i = 0;

	if (n == 0)
		return 0;
	bytes_copy_short(out, in + 1, n - 1);
	while (i < n) {
		size_t code = in[i];

		if (code == 0xFF)
			return tband_cobs_decode(in, n, out, bad);
		if (i + code > n) {
			if (bad)
				*bad = i;
			return -1;
		}
		i += code;
		/* the next code byte's place, in the decoded frame one lower */
		if (i < n)
			out[i - 1] = 0;
	}
	return (long)n - 1;
}

size_t tband_cobs_raw_index(const uint8_t *in, size_t n, size_t pos)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t code = in[i];

		if (code == 0 || i + code > n)
			return i;
		if (pos < o + code - 1)
			return i + 1 + (pos - o);
		o += code - 1;
		i += code;
		if (code != 0xFF && i < n) {
			/* the implied zero is carried by the next code byte */
			if (pos == o)
				return i;
			o++;
		}
	}
	return n;
}
