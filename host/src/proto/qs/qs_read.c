/*
 * qs_read.c -- the little-endian field reader of the QS records (qs.h).
 * QS sends every multi-byte value least significant byte first, whatever
 * the CPU, with no alignment or padding.
 */
#include "qs.h"

const char *qs_uint_name(unsigned size)
{
	switch (size) {
	case 1: return "uint8_t";
	case 2: return "uint16_t";
	case 4: return "uint32_t";
	default: return "uint64_t";
	}
}

uint64_t qs_rd_fail(struct qs_rd *r, unsigned size, const char *what)
{
	if (r->missing)
		return 0;
	r->missing = size - (r->n - r->pos);
	r->what = what ? what : qs_uint_name(size);
	return 0;
}

const uint8_t *qs_rd_str(struct qs_rd *r, size_t *len)
{
	*len = 0;
	if (r->missing)
		return r->p + r->pos;
	const uint8_t *s = r->p + r->pos;
	size_t n = 0;
	while (r->pos + n < r->n && s[n] != 0)
		n++;
	if (r->pos + n == r->n) { /* no terminating NUL: at least one byte missing */
		r->missing = 1;
		r->what = "string";
		return s;
	}
	*len = n;
	r->pos += n + 1;
	return s;
}
