/*
 * varint.h -- unsigned LEB128, the "varint" of protobuf and the "varlen" of
 * Tonbandgerät: seven bits per byte, lowest first, bit 7 set on every byte
 * but the last.  Written by the Perfetto writer and the Tonbandgerät bench
 * generator; the decoders read it where they check it (tband_wire.h).
 */
#ifndef SONDE_VARINT_H
#define SONDE_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX 10 /* bytes of a 64-bit value at most */

/* Write v at p (room for VARINT_MAX bytes); returns the bytes written. */
static inline size_t varint_put(uint8_t *p, uint64_t v)
{
	size_t k = 0;
	while (v >= 0x80) {
		p[k++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[k++] = (uint8_t)v;
	return k;
}

#endif /* SONDE_VARINT_H */
