/*
 * tband_probe.c -- is this a Tonbandgeraet stream?  (tband_probe.h)
 *
 * The stream has no magic, so the probe checks structure: every complete
 * frame (up to a 0x00) in the sample must be a COBS frame whose code bytes
 * land exactly on its end, whose id is a known event (either mode) and
 * whose fields use up exactly its bytes, with valid UTF-8 strings.  Any
 * failure means "not tband".  Sonde's and QS's HDLC streams fail at once:
 * their first frame is "00 ..." (an empty COBS frame) or "01 00" (a frame
 * with no event id), and a run of random bytes rarely chains COBS codes to
 * a frame's end, let alone several times in a row.
 */
#include <string.h>

#include "tband_cobs.h"
#include "tband_probe.h"
#include "tband_wire.h"

int tband_probe(const uint8_t *buf, size_t n)
{
	uint8_t frame[512];
	size_t at = 0;
	int good = 0;

	while (at < n && good < 16) {
		const uint8_t *z = memchr(buf + at, 0, n - at);
		size_t len;
		struct tband_rec rec;
		long k;

		if (!z)
			break; /* the sample ends inside a frame: ignore it */
		len = (size_t)(z - (buf + at));
		if (len == 0)
			return 0; /* tband never writes an empty frame */
		if (len > sizeof(frame))
			break; /* long string events are rare: judge what we saw */
		k = tband_cobs_decode(buf + at, len, frame, NULL);
		if (k < 0)
			return 0;
		if (tband_parse(frame, (size_t)k, TBAND_MODE_FREERTOS, &rec) != TBAND_OK)
			return 0;
		good++;
		at += len + 1;
	}
	/* One valid frame could be chance; four in a row are not. */
	switch (good) {
	case 0: return 0;
	case 1: return 20;
	case 2: return 40;
	case 3: return 60;
	default: return good >= 8 ? 90 : 75;
	}
}
