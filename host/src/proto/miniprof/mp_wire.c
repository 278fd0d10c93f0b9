/*
 * mp_wire.c -- the MiniProfiler wire format: command packets, response
 * framing, the CRC and the payload layouts (mp_wire.h).
 *
 * The CRC is hand-written: no Debian library exports CRC-16/CCITT-FALSE as a
 * plain function (zlib only has CRC-32).  It is the usual MSB-first table
 * form: one lookup per byte, so that resynchronising on a damaged stream
 * (which checks candidate packets) stays cheap.
 */
#include <string.h>

#include "mp_wire.h"

uint16_t mp_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t mp_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

/* ---- commands ------------------------------------------------------------- */

uint8_t mp_cmd_sum(const uint8_t *p)
{
	unsigned sum = 0;

	for (size_t i = 0; i < MP_CMD_LEN - 1; i++)
		sum += p[i];
	return (uint8_t)sum;
}

int mp_cmd_encode(uint8_t *out, unsigned cmd, const uint8_t *payload, size_t n)
{
	if (n > MP_CMD_MAX_PAYLOAD)
		return -1;
	memset(out, 0, MP_CMD_LEN);
	out[0] = MP_CMD_HEADER;
	out[1] = (uint8_t)cmd;
	out[2] = (uint8_t)n;
	if (n)
		memcpy(out + 3, payload, n);
	out[MP_CMD_LEN - 1] = mp_cmd_sum(out);
	return 0;
}

enum mp_cmd_err mp_cmd_check(const uint8_t *p)
{
	if (p[0] != MP_CMD_HEADER)
		return MP_CMD_BAD_HEADER;
	if (p[MP_CMD_LEN - 1] != mp_cmd_sum(p))
		return MP_CMD_BAD_CHECKSUM;
	if (!mp_cmd_name(p[1]))
		return MP_CMD_BAD_CODE;
	if (p[2] > MP_CMD_MAX_PAYLOAD)
		return MP_CMD_BAD_LENGTH;
	for (size_t i = 3u + p[2]; i < 3u + MP_CMD_MAX_PAYLOAD; i++)
		if (p[i])
			return MP_CMD_BAD_PADDING;
	return MP_CMD_OK;
}

const char *mp_cmd_name(unsigned cmd)
{
	static const char *const names[] = {
		[MP_CMD_START] = "START_PROFILING", [MP_CMD_STOP] = "STOP_PROFILING",
		[MP_CMD_STATUS] = "GET_STATUS",     [MP_CMD_RESET] = "RESET_BUFFERS",
		[MP_CMD_METADATA] = "GET_METADATA", [MP_CMD_CONFIG] = "SET_CONFIG",
	};

	return cmd < sizeof(names) / sizeof(names[0]) ? names[cmd] : NULL;
}

/* ---- responses ------------------------------------------------------------ */

void mp_rsp_header(const struct mp_wire_cfg *cfg, uint8_t *h0, uint8_t *h1)
{
	*h0 = cfg && cfg->header_55aa ? 0x55 : 0xAA;
	*h1 = cfg && cfg->header_55aa ? 0xAA : 0x55;
}

const char *mp_rsp_name(unsigned type)
{
	static const char *const names[] = {
		[MP_RSP_ACK] = "ACK",           [MP_RSP_NACK] = "NACK",
		[MP_RSP_METADATA] = "METADATA", [MP_RSP_STATUS] = "STATUS",
		[MP_RSP_PROFILE_DATA] = "PROFILE_DATA",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

/* crc_table[i]: the CRC register after shifting the byte i through it
 * (polynomial 0x1021, MSB first). */
static const uint16_t crc_table[256] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
	0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
	0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
	0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
	0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
	0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
	0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
	0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
	0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
	0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
	0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
	0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
	0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
	0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
	0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
	0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
	0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
	0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
	0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
	0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
	0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
	0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
	0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
	0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
	0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
	0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
	0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
	0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
	0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
	0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
	0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
};

uint16_t mp_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--)
		crc = (uint16_t)((crc << 8) ^ crc_table[(crc >> 8) ^ *p++]);
	return crc;
}

enum mp_len_check mp_rsp_len_check(unsigned type, size_t len, size_t *want)
{
	size_t need;

	switch (type) {
	case MP_RSP_ACK:
	case MP_RSP_NACK:
		need = 0;
		break;
	case MP_RSP_METADATA:
		need = MP_METADATA_LEN;
		break;
	case MP_RSP_STATUS:
		need = MP_STATUS_LEN;
		break;
	case MP_RSP_PROFILE_DATA:
		*want = MP_PROFILE_HDR_LEN;
		if (len < MP_PROFILE_HDR_LEN)
			return MP_LEN_SHORT;
		return (len - MP_PROFILE_HDR_LEN) % MP_RECORD_LEN ? MP_LEN_LAYOUT : MP_LEN_OK;
	default:
		*want = 0;
		return MP_LEN_UNKNOWN;
	}
	*want = need;
	return len < need ? MP_LEN_SHORT : len > need ? MP_LEN_LONG : MP_LEN_OK;
}

uint16_t mp_crc_get(const struct mp_wire_cfg *cfg, const uint8_t *p)
{
	return cfg && cfg->crc_be ? (uint16_t)((p[0] << 8) | p[1]) : mp_le16(p);
}

void mp_crc_put(const struct mp_wire_cfg *cfg, uint8_t *p, uint16_t crc)
{
	if (cfg && cfg->crc_be) {
		p[0] = (uint8_t)(crc >> 8);
		p[1] = (uint8_t)crc;
	} else {
		put16(p, crc);
	}
}

size_t mp_rsp_encode(uint8_t *out, size_t cap, const struct mp_wire_cfg *cfg, unsigned type,
		     const uint8_t *payload, size_t n)
{
	size_t total = MP_RSP_OVERHEAD + n;

	if (n > MP_RSP_MAX_PAYLOAD || cap < total)
		return 0;
	mp_rsp_header(cfg, &out[0], &out[1]);
	out[2] = (uint8_t)type;
	put16(out + 3, (uint16_t)n);
	if (n)
		memcpy(out + MP_RSP_HDR_LEN, payload, n);
	mp_crc_put(cfg, out + MP_RSP_HDR_LEN + n, mp_crc16(MP_CRC_INIT, out, MP_RSP_HDR_LEN + n));
	out[total - 1] = MP_RSP_END;
	return total;
}

/* ---- payloads ------------------------------------------------------------- */

int mp_metadata_decode(const uint8_t *p, size_t n, struct mp_metadata *m)
{
	const uint8_t *fw = p + 12;
	const uint8_t *nul;

	if (n != MP_METADATA_LEN)
		return -1;
	m->mcu_clock_hz = mp_le32(p);
	m->timer_freq = mp_le32(p + 4);
	m->elf_build_id = mp_le32(p + 8);
	nul = memchr(fw, 0, MP_FW_VERSION_LEN);
	m->fw_terminated = nul != NULL;
	m->fw_len = nul ? (size_t)(nul - fw) : MP_FW_VERSION_LEN;
	memcpy(m->fw_version, fw, m->fw_len);
	m->fw_version[m->fw_len] = '\0';
	return 0;
}

int mp_status_decode(const uint8_t *p, size_t n, struct mp_status *s)
{
	if (n != MP_STATUS_LEN)
		return -1;
	s->is_profiling = p[0];
	s->buffer_overflows = mp_le32(p + 1);
	s->records_captured = mp_le32(p + 5);
	s->buffer_usage_percent = p[9];
	return 0;
}

void mp_record_decode(const uint8_t *rec, struct mp_record *r)
{
	r->func_addr = mp_le32(rec);
	r->entry_time = mp_le32(rec + 4);
	r->duration_us = mp_le32(rec + 8);
	r->depth = mp_le16(rec + 12);
}

void mp_metadata_encode(uint8_t *out, const struct mp_metadata *m)
{
	size_t len = strnlen(m->fw_version, MP_FW_VERSION_LEN);

	put32(out, m->mcu_clock_hz);
	put32(out + 4, m->timer_freq);
	put32(out + 8, m->elf_build_id);
	memset(out + 12, 0, MP_FW_VERSION_LEN);
	memcpy(out + 12, m->fw_version, len);
}

void mp_status_encode(uint8_t *out, const struct mp_status *s)
{
	out[0] = s->is_profiling;
	put32(out + 1, s->buffer_overflows);
	put32(out + 5, s->records_captured);
	out[9] = s->buffer_usage_percent;
}

void mp_record_encode(uint8_t *out, const struct mp_record *r)
{
	put32(out, r->func_addr);
	put32(out + 4, r->entry_time);
	put32(out + 8, r->duration_us);
	put16(out + 12, r->depth);
}
