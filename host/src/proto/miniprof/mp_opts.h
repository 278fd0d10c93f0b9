/*
 * mp_opts.h -- the -o miniprof.* options, read the same way by the decoder
 * and by `sonde miniprof` (whose exchanges parse responses too).
 */
#ifndef MP_OPTS_H
#define MP_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "mp_wire.h"
#include "pipeline.h"

#define MP_DEFAULT_TS_FREQ 1000000u

struct mp_opts {
	struct mp_wire_cfg wire; /* miniprof.header=aa55|55aa, miniprof.crc=le|be */
	size_t window;           /* miniprof.window=N: reorder window, calls */
	uint64_t ts_freq;        /* miniprof.ts_freq=HZ: unit of the record times */
};

/* Defaults, then what opts says.  0, or -1 when an option is bad (said:
 * core/opts.h). */
int mp_opts_read(struct mp_opts *o, sonde_opts opts);

#endif /* MP_OPTS_H */
