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

#endif /* SYST_CRC_H */
