/*
 * mp_wire.h -- the MiniProfiler wire format (docs/proto-miniprof.md): its
 * numbers, the CRC, command packets (host -> device), response framing
 * (device -> host) and the payload layouts.  Pure functions on byte
 * buffers, shared by the response parser, the decoder, the `sonde
 * miniprof` command and the tests.
 */
#ifndef MP_WIRE_H
#define MP_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* ---- command packets: 12 bytes, fixed ------------------------------------ */

#define MP_CMD_LEN         12
#define MP_CMD_HEADER      0x55
#define MP_CMD_MAX_PAYLOAD 8

enum mp_cmd {
	MP_CMD_START    = 0x01, /* START_PROFILING */
	MP_CMD_STOP     = 0x02, /* STOP_PROFILING */
	MP_CMD_STATUS   = 0x03, /* GET_STATUS */
	MP_CMD_RESET    = 0x04, /* RESET_BUFFERS */
	MP_CMD_METADATA = 0x05, /* GET_METADATA */
	MP_CMD_CONFIG   = 0x06  /* SET_CONFIG (payload reserved) */
};

/* What is wrong with a command packet (mp_cmd_check). */
enum mp_cmd_err {
	MP_CMD_OK,
	MP_CMD_BAD_HEADER,   /* first byte is not 0x55 */
	MP_CMD_BAD_CODE,     /* command code not in the table */
	MP_CMD_BAD_LENGTH,   /* payload length above 8 */
	MP_CMD_BAD_PADDING,  /* payload bytes past the length are not 0x00 */
	MP_CMD_BAD_CHECKSUM  /* byte 11 is not the sum of bytes 0..10 */
};

/* The sum checksum of a command packet: bytes 0..10 summed, & 0xFF. */
uint8_t mp_cmd_sum(const uint8_t *p);
/* Build a command packet into out[MP_CMD_LEN].  Returns 0, or -1 when the
 * payload is longer than 8 bytes (payload may be NULL when n is 0). */
int mp_cmd_encode(uint8_t *out, unsigned cmd, const uint8_t *payload, size_t n);
/* Check a received command packet (a device's view; the simulator and the
 * tests use it). */
enum mp_cmd_err mp_cmd_check(const uint8_t *p);
/* "START_PROFILING", ... or NULL for an unknown code. */
const char *mp_cmd_name(unsigned cmd);

/* ---- response packets: 8 + N bytes ---------------------------------------- */

#define MP_RSP_HDR_LEN     5     /* header (2) + type (1) + length (2) */
#define MP_RSP_OVERHEAD    8     /* ... + CRC (2) + end marker (1) */
#define MP_RSP_END         0x0A
#define MP_RSP_MAX_PAYLOAD 65535u
#define MP_RSP_MAX_LEN     (MP_RSP_OVERHEAD + MP_RSP_MAX_PAYLOAD)

enum mp_rsp {
	MP_RSP_ACK          = 0x01,
	MP_RSP_NACK         = 0x02,
	MP_RSP_METADATA     = 0x03,
	MP_RSP_STATUS       = 0x04,
	MP_RSP_PROFILE_DATA = 0x05
};

/* The byte orders the protocol document leaves open (notes §3, §7).  The
 * defaults (all zero) are the document's examples: header bytes AA 55,
 * CRC little-endian like every other multi-byte field. */
struct mp_wire_cfg {
	int header_55aa; /* header on the wire is 55 AA ("0xAA55 little-endian") */
	int crc_be;      /* CRC field is big-endian */
};

/* The two header bytes in wire order. */
void mp_rsp_header(const struct mp_wire_cfg *cfg, uint8_t *h0, uint8_t *h1);

/* "ACK", "NACK", "METADATA", "STATUS", "PROFILE_DATA", or NULL. */
const char *mp_rsp_name(unsigned type);

/* CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no
 * reflection, no final XOR (check value of "123456789": 0x29B1).  Chain
 * calls by passing the previous result as crc; start with MP_CRC_INIT. */
#define MP_CRC_INIT 0xFFFFu
uint16_t mp_crc16(uint16_t crc, const uint8_t *p, size_t n);

/* Is len a possible payload length for type?  MP_LEN_OK, or why not; *want
 * gets the length the type has (for PROFILE_DATA: the minimum, 3). */
enum mp_len_check {
	MP_LEN_OK,
	MP_LEN_SHORT,    /* shorter than the type's payload */
	MP_LEN_LONG,     /* longer than the type's payload */
	MP_LEN_LAYOUT,   /* PROFILE_DATA: not 3 + 14 per record */
	MP_LEN_UNKNOWN   /* the type is not known */
};
enum mp_len_check mp_rsp_len_check(unsigned type, size_t len, size_t *want);

/* Build a response packet (header, type, length, payload, CRC, end) into
 * out.  Returns its length, or 0 if it does not fit in cap or n exceeds
 * MP_RSP_MAX_PAYLOAD. */
size_t mp_rsp_encode(uint8_t *out, size_t cap, const struct mp_wire_cfg *cfg, unsigned type,
		     const uint8_t *payload, size_t n);

/* Read/write the CRC field at p in the configured byte order. */
uint16_t mp_crc_get(const struct mp_wire_cfg *cfg, const uint8_t *p);
void mp_crc_put(const struct mp_wire_cfg *cfg, uint8_t *p, uint16_t crc);

/* ---- payloads (little-endian, packed) ---------------------------------------- */

#define MP_METADATA_LEN    28
#define MP_FW_VERSION_LEN  16
#define MP_STATUS_LEN      10
#define MP_PROFILE_HDR_LEN 3
#define MP_RECORD_LEN      14
#define MP_PROFILE_VERSION 1

struct mp_metadata {
	uint32_t mcu_clock_hz;
	uint32_t timer_freq;
	uint32_t elf_build_id;
	char fw_version[MP_FW_VERSION_LEN + 1]; /* NUL-terminated copy */
	size_t fw_len;                          /* characters before the first NUL (or 16) */
	int fw_terminated;                      /* the field had a NUL */
};

struct mp_status {
	uint8_t is_profiling;
	uint32_t buffer_overflows;
	uint32_t records_captured;
	uint8_t buffer_usage_percent;
};

struct mp_record {
	uint32_t func_addr;
	uint32_t entry_time;  /* microseconds, wraps at 2^32 */
	uint32_t duration_us; /* inclusive of children */
	uint16_t depth;       /* 0 = root */
};

/* Decode a payload of exactly the type's length; -1 if n is wrong. */
int mp_metadata_decode(const uint8_t *p, size_t n, struct mp_metadata *m);
int mp_status_decode(const uint8_t *p, size_t n, struct mp_status *s);
/* One 14-byte ProfileRecord at rec (the caller checked the length). */
void mp_record_decode(const uint8_t *rec, struct mp_record *r);
/* Payload encoders (the inverse; tests and tools). */
void mp_metadata_encode(uint8_t *out, const struct mp_metadata *m);
void mp_status_encode(uint8_t *out, const struct mp_status *s);
void mp_record_encode(uint8_t *out, const struct mp_record *r);

uint16_t mp_le16(const uint8_t *p);
uint32_t mp_le32(const uint8_t *p);

#endif /* MP_WIRE_H */
