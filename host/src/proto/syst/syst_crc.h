/*
 * syst_crc.h -- CRC-32C (Castagnoli, CRC-32/ISCSI), the checksum of SyS-T
 * messages with the CHK header bit.
 */
#ifndef SYST_CRC_H
#define SYST_CRC_H

#include <stddef.h>
#include <stdint.h>

/* Initial value of a running CRC. */
#define SYST_CRC_INIT 0xFFFFFFFFu

/* Feed n bytes into a running CRC (start with SYST_CRC_INIT). */
uint32_t syst_crc_update(uint32_t crc, const uint8_t *p, size_t n);

/* The finished CRC-32C of a running value (final XOR). */
static inline uint32_t syst_crc_final(uint32_t crc)
{
	return crc ^ 0xFFFFFFFFu;
}

/* CRC-32C of one buffer: check("123456789") = 0xE3069283. */
uint32_t syst_crc32c(const uint8_t *p, size_t n);

/* Where a message of p[0..n) ends if it ends in its own CRC: the first e
 * with from <= e and e + 4 <= n at which the four bytes p[e..e+4) (little
 * endian) are the CRC-32C of p[0..e), as e + 4; 0 when there is none. */
size_t syst_crc_find_end(const uint8_t *p, size_t from, size_t n);

/* The portable implementations (tables, slicing-by-8), which the two
 * functions above use where the CPU has no CRC-32C instruction; exported
 * so that a test can compare both paths. */
uint32_t syst_crc_update_sw(uint32_t crc, const uint8_t *p, size_t n);
size_t syst_crc_find_end_sw(const uint8_t *p, size_t from, size_t n);

/* 1 when syst_crc_update uses the CPU's CRC-32C instruction. */
int syst_crc_hw(void);

#endif /* SYST_CRC_H */
