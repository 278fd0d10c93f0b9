/*
 * mp_host.h -- the host's side of a conversation with a MiniProfiler device
 * over its link (mp_link.h: a serial port, or tcp://, ...): send a command and wait for
 * its answer; or run a whole capture (GET_METADATA, START_PROFILING, the
 * profile stream for a while, STOP_PROFILING, GET_STATUS) as a byte source
 * for the decoding pipeline.  Every byte received can be copied to a raw
 * file before anything decodes it.
 */
#ifndef MP_HOST_H
#define MP_HOST_H

#include <stdint.h>
#include <stdio.h>

#include "core/pipe.h"
#include "mp_parser.h"
#include "mp_wire.h"
#include "sources/source.h"

struct mp_link;

/* How an exchange ended. */
enum mp_xchg {
	MP_XCHG_ANSWER,  /* the awaited response came */
	MP_XCHG_NACK,    /* the device answered NACK */
	MP_XCHG_TIMEOUT, /* nothing within the timeout */
	MP_XCHG_IO,      /* the link or the raw file failed (see mp_host_error) */
	MP_XCHG_STOPPED  /* a stop (Ctrl-C, core/stop.h) came first */
};

struct mp_host {
	struct mp_link *link;
	struct mp_wire_cfg wire;
	unsigned timeout_ms;     /* for each answer */
	FILE *raw;               /* copy of every byte received, or NULL */
	const char *raw_name;
	uint64_t received;       /* bytes received */
	char err[1024];          /* what went wrong (MP_XCHG_IO, capture errors) */
};

void mp_host_init(struct mp_host *h, struct mp_link *link, const struct mp_wire_cfg *wire,
		  unsigned timeout_ms, FILE *raw, const char *raw_name);

/* Send command cmd and read until a response of type want or a NACK (want
 * MP_RSP_ACK for the commands answered by ACK).  Every complete packet goes
 * to cb->packet and every stream error to cb->diag as they arrive,
 * including what comes before the answer -- except garbage at offset 0, the
 * end of a packet sent before we listened; bytes after the answer are left
 * unread.  The packet callback of the answer is the last one. */
enum mp_xchg mp_host_exchange(struct mp_host *h, unsigned cmd, unsigned want, const struct mp_parser_cb *cb);

/* ---- capture ------------------------------------------------------------------ */

struct mp_capture {
	struct mp_host *h;
	double duration_s;       /* < 0: until SIGINT */
	int step;                /* index into the plan */
	int waiting;             /* sent, awaiting the answer */
	uint64_t seen_at_send[6];
	uint64_t seen[6];        /* responses decoded, by type (from the listener) */
	uint64_t deadline_ms;
	uint64_t run_until_ms;
	int failed;              /* a step failed: */
	enum mp_xchg fail_how;   /* ... how */
	unsigned fail_cmd;       /* ... which command */
};

/* A capture over h: src reads the device's bytes while the plan runs and
 * ends when it is done; lst must be added to the same pipe (it tells the
 * source which answers were decoded).  duration_s < 0 captures until a
 * stop (Ctrl-C, SIGTERM: core/stop.h); a stop also ends a timed run
 * early.  STOP_PROFILING and GET_STATUS follow either way. */
void mp_capture_init(struct mp_capture *cap, struct mp_host *h, double duration_s, struct sonde_source *src,
		     struct sonde_listener *lst);

#endif /* MP_HOST_H */
