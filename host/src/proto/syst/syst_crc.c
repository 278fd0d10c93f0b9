/*
 * syst_crc.c -- CRC-32C for SyS-T message checksums.
 *
 * Written by hand because no Debian package offers CRC-32C to C programs:
 * zlib only has CRC-32/IEEE, the kernel's crc32c is not a userland library
 * and Google's crc32c is not packaged for Debian as a C library.  The CRC is
 * the standard reflected one: polynomial 0x1EDC6F41 (reflected 0x82F63B78),
 * init and final XOR 0xFFFFFFFF.
 *
 * Every message with the CHK bit is checked, and a message without a LEN
 * field has its end searched by the CRC (syst_crc_find_end), so this is on
 * the decoder's hot path.  x86-64 CPUs since 2008 (SSE4.2) compute exactly
 * this CRC in one instruction, 8 bytes at a time: that path is taken when
 * the CPU says it has it (checked at run time, so the binary still runs
 * on any x86-64).  Elsewhere the CRC takes tables, eight bytes per step
 * (slicing-by-8), built from the polynomial when the program starts.
 */
#include "syst_crc.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#include "util/bytes.h"
#define CRC_X86 1
#else
#define CRC_X86 0
#endif

#define POLY 0x82F63B78u /* reflected */

/* tab[0][b]: the CRC register after the byte b from a zero register;
 * tab[k][b]: the same byte followed by k zero bytes. */
static uint32_t tab[8][256];

__attribute__((constructor)) static void build_tables(void)
{
	for (unsigned b = 0; b < 256; b++) {
		uint32_t c = b;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (POLY & (0u - (c & 1u)));
		tab[0][b] = c;
	}
	for (unsigned b = 0; b < 256; b++)
		for (int k = 1; k < 8; k++)
			tab[k][b] = (tab[k - 1][b] >> 8) ^ tab[0][tab[k - 1][b] & 0xFFu];
}

static inline uint32_t sw_byte(uint32_t crc, uint8_t b)
{
	return tab[0][(crc ^ b) & 0xFFu] ^ (crc >> 8);
}

uint32_t syst_crc_update_sw(uint32_t crc, const uint8_t *p, size_t n)
{
	for (; n >= 8; n -= 8, p += 8) {
		uint32_t lo = crc ^ bytes_le32(p), hi = bytes_le32(p + 4);
		crc = tab[7][lo & 0xFFu] ^ tab[6][(lo >> 8) & 0xFFu] ^ tab[5][(lo >> 16) & 0xFFu] ^
		      tab[4][lo >> 24] ^ tab[3][hi & 0xFFu] ^ tab[2][(hi >> 8) & 0xFFu] ^
		      tab[1][(hi >> 16) & 0xFFu] ^ tab[0][hi >> 24];
	}
	for (; n; n--, p++)
		crc = sw_byte(crc, *p);
	return crc;
}

size_t syst_crc_find_end_sw(const uint8_t *p, size_t from, size_t n)
{
	if (from > n)
		return 0;
	uint32_t crc = syst_crc_update_sw(SYST_CRC_INIT, p, from);
	for (size_t e = from; e + 4 <= n; e++) {
		if (syst_crc_final(crc) == bytes_le32(p + e))
			return e + 4;
		crc = sw_byte(crc, p[e]);
	}
	return 0;
}

#if CRC_X86
__attribute__((target("sse4.2"))) static uint32_t hw_update(uint32_t crc, const uint8_t *p, size_t n)
{
	uint64_t c = crc;
	for (; n >= 8; n -= 8, p += 8) {
		c = _mm_crc32_u64(c, bytes_word(p));
	}
	crc = (uint32_t)c;
	if (n >= 4) {
		crc = _mm_crc32_u32(crc, bytes_le32(p));
		p += 4;
		n -= 4;
	}
	for (; n; n--, p++)
		crc = _mm_crc32_u8(crc, *p);
	return crc;
}

/* The register must be known after every byte (each is a possible end),
 * but one chain of byte steps waits 3 cycles per byte.  So the register at
 * every 8th byte comes from an 8-byte step, and the byte steps within each
 * 8 bytes start from there: the chains of successive 8-byte blocks do not
 * wait for each other and the CPU runs them side by side. */
__attribute__((target("sse4.2"))) static size_t hw_find_end(const uint8_t *p, size_t from, size_t n)
{
	if (from > n)
		return 0;
	uint32_t crc = hw_update(SYST_CRC_INIT, p, from);
	size_t e = from;
	for (; e + 8 + 4 <= n; e += 8) {
		uint32_t next = (uint32_t)_mm_crc32_u64(crc, bytes_word(p + e));
		for (int k = 0; k < 8; k++) {
			if (syst_crc_final(crc) == bytes_le32(p + e + k))
				return e + (size_t)k + 4;
			crc = _mm_crc32_u8(crc, p[e + k]);
		}
		crc = next;
	}
	for (; e + 4 <= n; e++) {
		if (syst_crc_final(crc) == bytes_le32(p + e))
			return e + 4;
		crc = _mm_crc32_u8(crc, p[e]);
	}
	return 0;
}
#endif

int syst_crc_hw(void)
{
#if CRC_X86
	return __builtin_cpu_supports("sse4.2");
#else
	return 0;
#endif
}

uint32_t syst_crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
#if CRC_X86
	if (syst_crc_hw())
		return hw_update(crc, p, n);
#endif
	return syst_crc_update_sw(crc, p, n);
}

size_t syst_crc_find_end(const uint8_t *p, size_t from, size_t n)
{
#if CRC_X86
	if (syst_crc_hw())
		return hw_find_end(p, from, n);
#endif
	return syst_crc_find_end_sw(p, from, n);
}

uint32_t syst_crc32c(const uint8_t *p, size_t n)
{
	return syst_crc_final(syst_crc_update(SYST_CRC_INIT, p, n));
}
