/*
 * mp_opts.c -- the -o miniprof.* options (mp_opts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_calls.h"
#include "mp_opts.h"
#include "core/opts.h"

int mp_opts_read(struct mp_opts *o, sonde_opts opts)
{
	static const char *const headers[] = { "aa55", "55aa", NULL }, *const crcs[] = { "le", "be", NULL };
	uint64_t window = MP_CALLS_DEFAULT_WINDOW;

	memset(o, 0, sizeof(*o));
	o->ts_freq = MP_DEFAULT_TS_FREQ;
	/* the header's bytes in wire order; the CRC field's byte order */
	o->wire.header_55aa = sonde_opt_word(opts, "miniprof.header", headers, 0);
	o->wire.crc_be = sonde_opt_word(opts, "miniprof.crc", crcs, 0);
	if (o->wire.header_55aa < 0 || o->wire.crc_be < 0 ||
	    sonde_opt_uint(opts, "miniprof.window", 1, MP_CALLS_MAX_WINDOW, &window) < 0 ||
	    sonde_opt_uint(opts, "miniprof.ts_freq", 1, UINT32_MAX, &o->ts_freq) < 0) /* Hz */
		return -1;
	o->window = (size_t)window;
	return 0;
}
