/*
 * sim_wire.c -- the device side of the MiniProfiler wire format
 * (sim_wire.h): little-endian fields, header bytes AA 55 as in the
 * document's examples, CRC little-endian.
 */
#include <string.h>

#include "sim_wire.h"

static uint8_t *le(uint8_t *p, uint32_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		*p++ = (uint8_t)(v >> (8 * i));
	return p;
}

int sim_cmd_valid(const uint8_t *p)
{
	uint8_t sum = 0;

	for (int i = 0; i < SIM_CMD_LEN - 1; i++)
		sum = (uint8_t)(sum + p[i]);
	return p[0] == 0x55 && sum == p[SIM_CMD_LEN - 1];
}

uint16_t sim_crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xFFFF;

	for (size_t i = 0; i < n; i++) {
		for (int bit = 7; bit >= 0; bit--) {
			int top = (crc >> 15) ^ ((p[i] >> bit) & 1);

			crc = (uint16_t)(crc << 1);
			if (top)
				crc ^= 0x1021;
		}
	}
	return crc;
}

size_t sim_packet(uint8_t *out, unsigned type, const uint8_t *p, size_t n)
{
	uint8_t *q = out;

	*q++ = 0xAA;
	*q++ = 0x55;
	*q++ = (uint8_t)type;
	q = le(q, (uint32_t)n, 2);
	if (n) /* p may be NULL for an empty payload */
		memcpy(q, p, n);
	q += n;
	q = le(q, sim_crc16(out, (size_t)(q - out)), 2);
	*q++ = 0x0A;
	return (size_t)(q - out);
}

size_t sim_metadata(uint8_t *out, uint32_t mcu_hz, uint32_t timer_hz, uint32_t build_id, const char *fw)
{
	uint8_t *q = le(le(le(out, mcu_hz, 4), timer_hz, 4), build_id, 4);

	memset(q, 0, 16);
	strncpy((char *)q, fw, 15);
	return 28;
}

size_t sim_status(uint8_t *out, int profiling, uint32_t overflows, uint32_t captured, unsigned usage)
{
	uint8_t *q = out;

	*q++ = (uint8_t)(profiling != 0);
	q = le(le(q, overflows, 4), captured, 4);
	*q++ = (uint8_t)usage;
	return (size_t)(q - out);
}

size_t sim_profile(uint8_t *out, unsigned version, const struct sim_rec *r, size_t n)
{
	uint8_t *q = out;

	*q++ = (uint8_t)version;
	q = le(q, (uint32_t)n, 2);
	for (size_t i = 0; i < n; i++)
		q = le(le(le(le(q, r[i].func, 4), r[i].entry, 4), r[i].dur, 4), r[i].depth, 2);
	return (size_t)(q - out);
}
