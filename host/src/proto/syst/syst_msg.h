/*
 * syst_msg.h -- the MIPI SyS-T message layout: header fields, optional
 * fields, and the parser that splits one complete message (its length is
 * known from the framing) into them.  Facts: shared/notes/syst.md §1-§8.
 */
#ifndef SYST_MSG_H
#define SYST_MSG_H

#include <stddef.h>
#include <stdint.h>

/* Message types (header bits 0-3). */
enum syst_type {
	SYST_T_BUILD = 0,
	SYST_T_SHORT32 = 1,
	SYST_T_STRING = 2,
	SYST_T_CATALOG = 3,
	SYST_T_RAW = 6,
	SYST_T_SHORT64 = 7,
	SYST_T_CLOCK = 8,
	SYST_T_SBD = 9
};

/* Subtypes. */
#define SYST_BUILD_COMPACT32 0u
#define SYST_BUILD_COMPACT64 1u
#define SYST_BUILD_LONG      2u
#define SYST_STR_GENERIC       1u
#define SYST_STR_FUNCENTER     2u
#define SYST_STR_FUNCEXIT      3u
#define SYST_STR_INVALIDPARAM  5u
#define SYST_STR_ASSERT        7u
#define SYST_STR_PRINTF32      11u
#define SYST_STR_PRINTF64      12u
#define SYST_CAT_ID32P32 1u
#define SYST_CAT_ID64P32 2u
#define SYST_CAT_ID32P64 5u
#define SYST_CAT_ID64P64 6u
#define SYST_CLOCK_SYNC  1u
#define SYST_SBD_ID64    0x01u /* SBD subtype bits */
#define SYST_SBD_NAME    0x02u
#define SYST_SBD_ADDR_SHIFT 2u /* bits 2-3: 0 none, 1 16-bit, 2 32-bit, 3 64-bit */

/* Header flag bits. */
#define SYST_H_RES7  (1u << 7)
#define SYST_H_LOC   (1u << 8)
#define SYST_H_LEN   (1u << 9)
#define SYST_H_CHK   (1u << 10)
#define SYST_H_TS    (1u << 11)
#define SYST_H_GUID  (1u << 23)
#define SYST_H_RES30 (1u << 30)
#define SYST_H_RES31 (1u << 31)

static inline unsigned syst_h_type(uint32_t h) { return h & 0xFu; }
static inline unsigned syst_h_severity(uint32_t h) { return (h >> 4) & 7u; }
static inline unsigned syst_h_origin(uint32_t h) { return (h >> 12) & 0x7FFu; }
static inline unsigned syst_h_subtype(uint32_t h) { return (h >> 24) & 0x3Fu; }

/* Location record formats (first byte of the record, bits 0-1). */
#define SYST_LOC_FILE16 0u /* u16 file, u16 line */
#define SYST_LOC_FILE32 1u /* u32 file, u32 line */
#define SYST_LOC_ADDR32 2u
#define SYST_LOC_ADDR64 3u

/* The largest message: header, GUID, 64-bit location, length, timestamp,
 * 65535 payload bytes, CRC. */
#define SYST_MSG_MAX (4u + 16u + 9u + 2u + 8u + 65535u + 4u)

/* Outcome of parsing one message; the first five are the reference
 * printer's decode statuses. */
enum syst_status {
	SYST_OK,
	SYST_TOO_SHORT,      /* fields or payload end early */
	SYST_TOO_LONG,       /* more bytes than the LEN field says */
	SYST_CHECKSUM_ERROR, /* CRC-32C mismatch */
	SYST_UNKNOWN_TYPE,   /* reserved type or subtype */
	SYST_MISSING_COLLATERAL /* catalog message from a client without collateral */
};

/* One parsed message.  Pointers refer into the caller's buffer. */
struct syst_msg {
	const uint8_t *raw;  /* the whole message */
	size_t raw_len;
	uint32_t hdr;
	unsigned type, subtype, severity;
	int is_short;        /* SHORT32/64, BUILD COMPACT32/64: bits are payload */
	uint64_t short_bits; /* the whole 4- or 8-byte short message */
	int has_guid;
	uint8_t guid[16];    /* RFC 4122 byte order; pseudo GUID if !has_guid */
	unsigned unit;       /* 11-bit unit (GUID) or 4-bit unit (module) */
	unsigned module;     /* 7-bit module, module-origin messages only */
	int has_loc;
	unsigned loc_fmt;    /* SYST_LOC_* */
	uint32_t loc_file, loc_line;
	uint64_t loc_addr;
	int has_len;
	unsigned len;        /* LEN field value */
	int has_ts;
	uint64_t ts;
	int has_crc;
	uint32_t crc;        /* as transmitted */
	uint32_t crc_calc;   /* as computed */
	const uint8_t *payload;
	size_t plen;
	enum syst_status status;
	const char *why;     /* detail for a status other than OK, else NULL */
};

/* 4 or 8 for a short message header (TYPE 1/7, BUILD subtype 0/1), else 0. */
size_t syst_short_size(uint32_t hdr);

/* Split one complete message of n bytes into m.  Sets m->status: OK,
 * TOO_SHORT, TOO_LONG, CHECKSUM_ERROR or UNKNOWN_TYPE (reserved type,
 * reserved subtype or a payload that its type cannot hold); the fields read
 * before a failure stay valid.  Never reads outside p[0..n). */
void syst_msg_parse(struct syst_msg *m, const uint8_t *p, size_t n);

/* Self-delimiting size of the message starting at p (raw streams):
 *   > 0  the message has that many bytes;
 *   0    more bytes are needed: at least *need in total;
 *   -1   the message cannot be delimited (not short and no LEN bit). */
long syst_msg_size(const uint8_t *p, size_t n, size_t *need);

/* Where the message at p ends, when it says so itself, within n bytes (a
 * container's length): its size, or 0 when it does not say (it then ends
 * where its container says).  Short messages and those with a LEN field
 * say it; without LEN, a message with a CRC ends where the CRC of what
 * precedes it matches, and a string where its NUL is.  Used to find a
 * container length larger than the message it holds. */
size_t syst_msg_extent(const uint8_t *p, size_t n);

/* Could hdr start a message?  Reserved bits clear and a known type with a
 * known subtype.  Used to resynchronise and to recognise streams. */
int syst_hdr_plausible(uint32_t hdr);

/* Names used in the printer's CSV. */
const char *syst_severity_name(unsigned sev);
const char *syst_status_name(enum syst_status st);

#endif /* SYST_MSG_H */
