/*
 * sonde_ts.h -- the timestamp field of a timed Sonde record, per protocol
 * version (docs/protocol.md §5 and §10): where it sits in DATA, what it
 * holds, and how the 64-bit time moves by it, forwards and backwards.
 *
 * Version 1: 2 bytes at the start of DATA, the low 16 bits of the tick
 * counter.  Version 2: 1 to 4 bytes at the end of DATA, the ticks since the
 * previous timed frame, its width in the top bits of its last byte.  The
 * record parsers only ever see the fields around the timestamp (sts_split),
 * so one parser per record serves both versions.
 */
#ifndef SONDE_TS_H
#define SONDE_TS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sonde_proto.h"

/* A timed record's DATA, split. */
struct sts {
	size_t off;      /* its own fields are DATA[off .. off + n) */
	size_t n;
	size_t width;    /* bytes of the timestamp field */
	uint32_t v;      /* the field's value: v1 the counter's low 16 bits, v2 the delta */
};

enum sts_status {
	STS_OK,
	STS_NONE,    /* DATA too short to hold a timestamp (v1: < 2 bytes; v2: empty) */
	STS_BAD_TAG, /* v2: the last byte is 1111xxxx */
	STS_SHORT    /* v2: the tag announces more bytes than DATA has */
};

/* The width (1..4) a v2 timestamp field's last byte announces, 0 for the
 * invalid tag 1111xxxx. */
static inline size_t sts_width_v2(uint8_t last)
{
	return last < 0x80 ? 1 : last < 0xC0 ? 2 : last < 0xE0 ? 3 : last < 0xF0 ? 4 : 0;
}

/* Split the DATA (dlen bytes) of a timed record of the given version.
 * Inline: every timed record of a stream comes through here. */
static inline enum sts_status sts_split(unsigned version, const uint8_t *data, size_t dlen, struct sts *s)
{
	if (version == 1) {
		if (dlen < SONDE_TS_BYTES_V1)
			return STS_NONE;
		s->off = SONDE_TS_BYTES_V1;
		s->n = dlen - SONDE_TS_BYTES_V1;
		s->width = SONDE_TS_BYTES_V1;
		s->v = (uint32_t)(data[0] | data[1] << 8);
		return STS_OK;
	}
	if (dlen == 0)
		return STS_NONE;
	size_t w = sts_width_v2(data[dlen - 1]);
	if (!w)
		return STS_BAD_TAG;
	if (w > dlen)
		return STS_SHORT;
	const uint8_t *f = data + dlen - w; /* little-endian, the tag in the top bits */
	uint32_t v = f[0];
	if (w > 1)
		v |= (uint32_t)f[1] << 8;
	if (w > 2)
		v |= (uint32_t)f[2] << 16;
	if (w > 3)
		v |= (uint32_t)f[3] << 24;
	s->off = 0;
	s->n = dlen - w;
	s->width = w;
	s->v = v & ((1u << (7 * w)) - 1); /* the tag bits off */
	return STS_OK;
}

/* sts_split out of line, for the unusual cases of sts_split_frame: with
 * sts_split inlined there the compiler no longer inlines sts_split_frame
 * into the decoder's hot path. */
enum sts_status sts_split_cold(unsigned version, const uint8_t *data, size_t dlen, struct sts *s);

/* The same for a whole frame b[0..len) (SEQ, ID, DATA, CHK), for the
 * decoder's hot path: the version-2 field is read without a branch on its
 * width (which follows the size of the delta, so no branch predictor could
 * guess it), from the four bytes that end with it -- or, in a frame of four
 * bytes, the frame itself.  The unusual cases go to sts_split_cold. */
static inline enum sts_status sts_split_frame(unsigned version, const uint8_t *b, size_t len, struct sts *s)
{
	static const uint8_t width[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 0 }; /* by the top nibble */
	size_t dlen = len - 3, last = len - 2; /* the field's last byte: b[last] */
	size_t w = width[b[last] >> 4];
	if (version == 1 || dlen == 0 || !w || w > dlen)
		return sts_split_cold(version, b + 2, dlen, s);
	size_t from = len >= 5 ? len - 5 : 0;
	uint32_t x;
	memcpy(&x, b + from, 4); /* one load; the wire is little-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap32(x);
#endif
	s->off = 0;
	s->n = dlen - w;
	s->width = w;
	s->v = (x >> (8 * (last + 1 - w - from))) & ((1u << (7 * w)) - 1);
	return STS_OK;
}

/* Ticks from the previous timed frame, at 64-bit time T, to a record whose
 * field holds v. */
static inline uint64_t sts_forward(unsigned version, uint64_t T, uint32_t v)
{
	return version == 1 ? (uint16_t)(v - (uint16_t)T) : v;
}

/* Ticks from a record whose field holds prev to the next timed record,
 * whose field holds next (both written consecutively by the target). */
static inline uint64_t sts_back(unsigned version, uint32_t prev, uint32_t next)
{
	return version == 1 ? (uint16_t)(next - prev) : next;
}

/* The best guess of the ticks from the newest record held after a loss,
 * field v, to a TIME_SYNC at time abs whose since_prev cannot be used
 * (unknown, or counting from a frame that was lost): v1 the difference of
 * the compact times (right when less than 65536 ticks passed); v2 has no
 * such clue: since_prev when known (frames were lost after the record, so
 * at least that much), else 0. */
uint64_t sts_back_to_sync(unsigned version, uint32_t v, uint64_t abs, uint32_t since_prev);

/* The diagnostic for a status other than STS_OK, e.g. "timestamp field:
 * last byte 0xF3 has the invalid width tag 1111xxxx", and the DATA index
 * it is about. */
size_t sts_why(enum sts_status st, const uint8_t *data, size_t dlen, char *why, size_t whylen);

#endif /* SONDE_TS_H */
