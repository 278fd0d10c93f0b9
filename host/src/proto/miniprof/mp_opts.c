/*
 * mp_opts.c -- the -o miniprof.* options (mp_opts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_calls.h"
#include "mp_opts.h"

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

/* "a" -> 0, "b" -> 1, anything else -1. */
static int either(const char *s, const char *a, const char *b)
{
	return !strcmp(s, a) ? 0 : !strcmp(s, b) ? 1 : -1;
}

int mp_opts_read(struct mp_opts *o, sonde_opts opts, char *err, size_t errlen)
{
	const char *hdr = sonde_opt_get(opts, "miniprof.header");
	const char *crc = sonde_opt_get(opts, "miniprof.crc");
	const char *win = sonde_opt_get(opts, "miniprof.window");
	const char *freq = sonde_opt_get(opts, "miniprof.ts_freq");
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->window = MP_CALLS_DEFAULT_WINDOW;
	o->ts_freq = MP_DEFAULT_TS_FREQ;
	if (hdr && (o->wire.header_55aa = either(hdr, "aa55", "55aa")) < 0) {
		snprintf(err, errlen, "miniprof.header=%s: expected aa55 or 55aa (the header's bytes in wire order)",
			 hdr);
		return -1;
	}
	if (crc && (o->wire.crc_be = either(crc, "le", "be")) < 0) {
		snprintf(err, errlen, "miniprof.crc=%s: expected le or be (the CRC field's byte order)", crc);
		return -1;
	}
	if (win) {
		if (parse_u64(win, &v) || v < 1 || v > MP_CALLS_MAX_WINDOW) {
			snprintf(err, errlen, "miniprof.window=%s: expected 1 to %u calls", win, MP_CALLS_MAX_WINDOW);
			return -1;
		}
		o->window = (size_t)v;
	}
	if (freq) {
		if (parse_u64(freq, &v) || v < 1 || v > UINT32_MAX) {
			snprintf(err, errlen, "miniprof.ts_freq=%s: expected a frequency in Hz (1 to 4294967295)", freq);
			return -1;
		}
		o->ts_freq = v;
	}
	return 0;
}
