/*
 * sonde_ts.c -- the timestamp field of timed records in protocol versions
 * 1 and 2 (sonde_ts.h).
 */
#include <stdio.h>

#include "sonde_proto.h"
#include "sonde_ts.h"

enum sts_status sts_split_cold(unsigned version, const uint8_t *data, size_t dlen, struct sts *s)
{
	return sts_split(version, data, dlen, s);
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
