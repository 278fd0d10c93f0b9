/*
 * syst_msg.c -- parse one SyS-T message whose extent the framing gave.
 *
 * Field order: header, [GUID], [location], [length], [timestamp], payload,
 * [CRC-32C].  With CHK the last four bytes are the CRC (the record length
 * decides where the payload ends); with LEN the payload must have exactly
 * LEN bytes.  Checks run in the reference printer's order (structure, CRC,
 * type) so failed records get the same status it reports.
 */
#include "syst_msg.h"

#include <string.h>

#include "syst_crc.h"
#include "syst_fmt.h"
#include "util/bytes.h"

size_t syst_short_size(uint32_t hdr)
{
	switch (syst_h_type(hdr)) {
	case SYST_T_SHORT32:
		return 4;
	case SYST_T_SHORT64:
		return 8;
	case SYST_T_BUILD:
		if (syst_h_subtype(hdr) == SYST_BUILD_COMPACT32)
			return 4;
		if (syst_h_subtype(hdr) == SYST_BUILD_COMPACT64)
			return 8;
		return 0;
	default:
		return 0;
	}
}

static int fail(struct syst_msg *m, enum syst_status st, const char *why)
{
	m->status = st;
	m->why = why;
	return 0;
}

/* Bytes of a location record with format byte fmt, format byte included. */
static size_t loc_size(uint8_t fmt)
{
	return 1u + ((fmt & 1u) ? 8u : 4u);
}

static void parse_loc(struct syst_msg *m, const uint8_t *p)
{
	m->loc_fmt = p[0] & 3u;
	switch (m->loc_fmt) {
	case SYST_LOC_FILE16:
		m->loc_file = bytes_le16(p + 1);
		m->loc_line = bytes_le16(p + 3);
		break;
	case SYST_LOC_FILE32:
		m->loc_file = bytes_le32(p + 1);
		m->loc_line = bytes_le32(p + 5);
		break;
	case SYST_LOC_ADDR32:
		m->loc_addr = bytes_le32(p + 1);
		break;
	default:
		m->loc_addr = bytes_le64(p + 1);
		break;
	}
}

/* Does the payload fit its type and subtype?  Sets the status if not. */
static int check_payload(struct syst_msg *m)
{
	unsigned st = m->subtype;
	size_t need;
	switch (m->type) {
	case SYST_T_BUILD:
		if (st != SYST_BUILD_LONG)
			return fail(m, SYST_UNKNOWN_TYPE, "unknown BUILD subtype");
		if (m->plen < 8)
			return fail(m, SYST_TOO_SHORT, "BUILD payload shorter than its 8-byte id");
		return 1;
	case SYST_T_STRING:
		switch (st) {
		case SYST_STR_GENERIC: case SYST_STR_FUNCENTER: case SYST_STR_FUNCEXIT:
		case SYST_STR_INVALIDPARAM: case SYST_STR_ASSERT:
		case SYST_STR_PRINTF32: case SYST_STR_PRINTF64:
			return 1;
		default:
			return fail(m, SYST_UNKNOWN_TYPE, "unknown STRING subtype");
		}
	case SYST_T_CATALOG:
		if (st == SYST_CAT_ID32P32 || st == SYST_CAT_ID32P64)
			need = 4;
		else if (st == SYST_CAT_ID64P32 || st == SYST_CAT_ID64P64)
			need = 8;
		else
			return fail(m, SYST_UNKNOWN_TYPE, "unknown CATALOG subtype");
		if (m->plen < need)
			return fail(m, SYST_TOO_SHORT, "CATALOG payload shorter than its id");
		return 1;
	case SYST_T_RAW:
		return 1;
	case SYST_T_CLOCK:
		if (st != SYST_CLOCK_SYNC)
			return fail(m, SYST_UNKNOWN_TYPE, "unknown CLOCK subtype");
		if (m->plen < 16)
			return fail(m, SYST_TOO_SHORT, "CLOCK payload shorter than 16 bytes");
		return 1;
	case SYST_T_SBD: {
		static const size_t addr_bytes[4] = { 0, 2, 4, 8 };
		if (st & 0x30u)
			return fail(m, SYST_UNKNOWN_TYPE, "reserved SBD subtype bits");
		need = ((st & SYST_SBD_ID64) ? 8u : 4u) + addr_bytes[(st >> SYST_SBD_ADDR_SHIFT) & 3u];
		if (m->plen < need)
			return fail(m, SYST_TOO_SHORT, "SBD payload shorter than its id and address");
		if ((st & SYST_SBD_NAME) && !memchr(m->payload + need, 0, m->plen - need))
			return fail(m, SYST_TOO_SHORT, "SBD name without terminating NUL");
		return 1;
	}
	default:
		return fail(m, SYST_UNKNOWN_TYPE, "reserved message type");
	}
}

void syst_msg_parse(struct syst_msg *m, const uint8_t *p, size_t n)
{
	static const struct syst_msg blank; /* not memset: see sonde_event_clear() */

	*m = blank;
	m->raw = p;
	m->raw_len = n;
	if (n < 4) {
		fail(m, SYST_TOO_SHORT, "shorter than a message header");
		return;
	}
	uint32_t h = bytes_le32(p);
	m->hdr = h;
	m->type = syst_h_type(h);
	m->subtype = syst_h_subtype(h);

	size_t ssz = syst_short_size(h);
	if (ssz) {
		/* every bit above the type is payload: no flags, no origin */
		m->is_short = 1;
		m->subtype = 0;
		if (n < ssz) {
			fail(m, SYST_TOO_SHORT, "short message cut off");
			return;
		}
		m->short_bits = ssz == 4 ? bytes_le32(p) : bytes_le64(p);
		if (n > ssz)
			fail(m, SYST_TOO_LONG, "bytes after a short message");
		return;
	}

	m->severity = syst_h_severity(h);
	size_t pos = 4, end = n;
	if (h & SYST_H_CHK) {
		m->has_crc = 1;
		if (n < 8) {
			fail(m, SYST_TOO_SHORT, "no room for the CRC");
			return;
		}
		end = n - 4;
		m->crc = bytes_le32(p + end);
	}
	if (h & SYST_H_GUID) {
		if (end - pos < 16) {
			fail(m, SYST_TOO_SHORT, "GUID cut off");
			return;
		}
		m->has_guid = 1;
		memcpy(m->guid, p + pos, 16);
		m->unit = syst_h_origin(h);
		pos += 16;
	} else {
		/* the printer's pseudo GUID: the 7-bit module in byte 7 */
		m->module = syst_h_origin(h) >> 4;
		m->unit = syst_h_origin(h) & 0xFu;
		m->guid[7] = (uint8_t)m->module;
	}
	if (h & SYST_H_LOC) {
		if (end - pos < 1 || end - pos < loc_size(p[pos])) {
			fail(m, SYST_TOO_SHORT, "location record cut off");
			return;
		}
		m->has_loc = 1;
		parse_loc(m, p + pos);
		pos += loc_size(p[pos]);
	}
	if (h & SYST_H_LEN) {
		if (end - pos < 2) {
			fail(m, SYST_TOO_SHORT, "length field cut off");
			return;
		}
		m->has_len = 1;
		m->len = bytes_le16(p + pos);
		pos += 2;
	}
	if (h & SYST_H_TS) {
		if (end - pos < 8) {
			fail(m, SYST_TOO_SHORT, "timestamp cut off");
			return;
		}
		m->has_ts = 1;
		m->ts = bytes_le64(p + pos);
		pos += 8;
	}
	m->payload = p + pos;
	m->plen = end - pos;
	if (m->has_len && m->plen < m->len) {
		fail(m, SYST_TOO_SHORT, "payload shorter than the length field says");
		return;
	}
	if (m->has_len && m->plen > m->len) {
		fail(m, SYST_TOO_LONG, "payload longer than the length field says");
		return;
	}
	if (m->has_crc) {
		m->crc_calc = syst_crc32c(p, end);
		if (m->crc_calc != m->crc) {
			fail(m, SYST_CHECKSUM_ERROR, "CRC-32C mismatch");
			return;
		}
	}
	check_payload(m);
}

long syst_msg_size(const uint8_t *p, size_t n, size_t *need)
{
	if (n < 4) {
		*need = 4;
		return 0;
	}
	uint32_t h = bytes_le32(p);
	size_t ssz = syst_short_size(h);
	if (ssz)
		return (long)ssz;
	if (!(h & SYST_H_LEN))
		return -1;
	size_t pos = 4;
	if (h & SYST_H_GUID)
		pos += 16;
	if (h & SYST_H_LOC) {
		if (n < pos + 1) {
			*need = pos + 1;
			return 0;
		}
		pos += loc_size(p[pos]);
	}
	if (n < pos + 2) {
		*need = pos + 2;
		return 0;
	}
	size_t len = bytes_le16(p + pos);
	pos += 2 + len;
	if (h & SYST_H_TS)
		pos += 8;
	if (h & SYST_H_CHK)
		pos += 4;
	return (long)pos;
}

size_t syst_msg_extent(const uint8_t *p, size_t n)
{
	size_t need;
	long sz = syst_msg_size(p, n, &need);
	if (sz > 0)
		return (size_t)sz <= n ? (size_t)sz : 0;
	if (sz == 0)
		return 0;
	/* no LEN: where the fields before the payload end */
	uint32_t h = bytes_le32(p);
	size_t pos = 4 + ((h & SYST_H_GUID) ? 16 : 0);
	if (h & SYST_H_LOC) {
		if (n <= pos)
			return 0;
		pos += loc_size(p[pos]);
	}
	if (h & SYST_H_TS)
		pos += 8;
	if (pos > n)
		return 0;
	if (h & SYST_H_CHK) {
		/* the first end at which the CRC of what precedes it matches
		 * (a wrong match has odds of 2^-32 per byte) */
		return syst_crc_find_end(p, pos, n);
	}
	if (syst_h_type(h) != SYST_T_STRING)
		return 0;
	/* a string ends at its NUL; a printf's arguments follow it */
	const uint8_t *nul = memchr(p + pos, 0, n - pos);
	if (!nul)
		return 0;
	size_t end = (size_t)(nul - p) + 1;
	unsigned st = syst_h_subtype(h);
	if (st == SYST_STR_PRINTF32 || st == SYST_STR_PRINTF64) {
		size_t k = syst_fmt_arg_bytes((const char *)p + pos, end - 1 - pos, p + end, n - end,
					      st == SYST_STR_PRINTF32 ? 4 : 8);
		if (k == SIZE_MAX)
			return 0;
		end += k;
	}
	return end;
}

int syst_hdr_plausible(uint32_t h)
{
	if (syst_short_size(h))
		return 1;
	if (h & (SYST_H_RES7 | SYST_H_RES30 | SYST_H_RES31))
		return 0;
	unsigned st = syst_h_subtype(h);
	switch (syst_h_type(h)) {
	case SYST_T_BUILD:
		return st == SYST_BUILD_LONG;
	case SYST_T_STRING:
		return st == SYST_STR_GENERIC || st == SYST_STR_FUNCENTER || st == SYST_STR_FUNCEXIT ||
		       st == SYST_STR_INVALIDPARAM || st == SYST_STR_ASSERT ||
		       st == SYST_STR_PRINTF32 || st == SYST_STR_PRINTF64;
	case SYST_T_CATALOG:
		return st == SYST_CAT_ID32P32 || st == SYST_CAT_ID64P32 ||
		       st == SYST_CAT_ID32P64 || st == SYST_CAT_ID64P64;
	case SYST_T_RAW:
		return 1;
	case SYST_T_CLOCK:
		return st == SYST_CLOCK_SYNC && syst_h_severity(h) == 0;
	case SYST_T_SBD:
		return (st & 0x30u) == 0;
	default:
		return 0;
	}
}

const char *syst_severity_name(unsigned sev)
{
	static const char *const names[8] = {
		"MAX", "FATAL", "ERROR", "WARNING", "INFO", "USER1", "USER2", "DEBUG"
	};
	return names[sev & 7u];
}

const char *syst_status_name(enum syst_status st)
{
	switch (st) {
	case SYST_OK: return "OK";
	case SYST_TOO_SHORT: return "TOO_SHORT";
	case SYST_TOO_LONG: return "TOO_LONG";
	case SYST_CHECKSUM_ERROR: return "CHECKSUM_ERROR";
	case SYST_UNKNOWN_TYPE: return "UNKNOWN_TYPE";
	case SYST_MISSING_COLLATERAL: return "MISSING_COLLATERAL";
	}
	return "?";
}
