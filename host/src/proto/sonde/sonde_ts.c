/*
 * sonde_ts.c -- the timestamp field of timed records in protocol versions
 * 1 and 2 (sonde_ts.h).
 */
#include <stdio.h>

#include "sonde_proto.h"
#include "sonde_ts.h"

enum sts_status sts_split(unsigned version, const uint8_t *data, size_t dlen, struct sts *s)
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
	uint32_t v = 0;
	for (size_t i = w; i-- > 0;)
		v = v << 8 | data[dlen - w + i];
	s->off = 0;
	s->n = dlen - w;
	s->width = w;
	s->v = v & ((1u << (7 * w)) - 1); /* the tag bits off */
	return STS_OK;
}

uint64_t sts_back_to_sync(unsigned version, uint32_t v, uint64_t abs, uint32_t since_prev)
{
	if (version == 1)
		return sts_back(1, v, (uint16_t)abs);
	return since_prev == SONDE_SYNC_SINCE_UNKNOWN ? 0 : since_prev;
}

size_t sts_why(enum sts_status st, const uint8_t *data, size_t dlen, char *why, size_t whylen)
{
	switch (st) {
	case STS_NONE:
		snprintf(why, whylen, "no timestamp field (%zu data bytes)", dlen);
		return dlen;
	case STS_BAD_TAG:
		snprintf(why, whylen, "timestamp field: last byte 0x%02X has the invalid width tag 1111xxxx",
			 data[dlen - 1]);
		return dlen - 1;
	case STS_SHORT:
		snprintf(why, whylen, "timestamp field: last byte 0x%02X announces %zu bytes, the record has %zu",
			 data[dlen - 1], sts_width_v2(data[dlen - 1]), dlen);
		return dlen - 1;
	default:
		snprintf(why, whylen, "timestamp field ok");
		return 0;
	}
}
