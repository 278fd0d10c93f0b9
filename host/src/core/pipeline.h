/*
 * pipeline.h -- the contracts between the stages of the host pipeline:
 *
 *     source -> framer -> decoder -> event model -> sinks / analyses
 *
 * A decoder is fed raw bytes in chunks of any size (so every parser can be
 * driven from a byte buffer, by a fuzzer or by a test) and reports events and
 * diagnostics through a struct sonde_out.  A sink receives events and
 * diagnostics and writes them somewhere.  Decoders live in
 * host/src/proto/<name>/ and export `const struct sonde_decoder_ops
 * sonde_decoder_<name>`; sinks live in host/src/sinks/sink_<name>.c (or, for a protocol's own
 * output such as QSPY's text, host/src/proto/<name>/sink_<format>.c) and export
 * `const struct sonde_sink_ops sonde_sink_<name>` (both are the sinks layer,
 * docs/hacking.md).  The build generates the registry of both from the file
 * tree, so adding one touches one folder.
 */
#ifndef SONDE_PIPELINE_H
#define SONDE_PIPELINE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"

/* Everything that can go wrong in a stream.  Each is counted in the stats
 * and printed with the byte offset where it happened. */
enum sonde_diag_code {
	SONDE_D_BAD_CHECKSUM,   /* frame checksum/CRC wrong: frame dropped */
	SONDE_D_SEQ_GAP,        /* sequence discontinuity: count = frames missing */
	SONDE_D_TOO_SHORT,      /* frame shorter than the minimum */
	SONDE_D_TOO_LONG,       /* frame longer than the maximum: discarded to the next flag */
	SONDE_D_ABORTED,        /* escape byte directly before a flag */
	SONDE_D_GARBAGE,        /* bytes discarded while resynchronising: count = bytes */
	SONDE_D_TRUNCATED,      /* input ended inside a frame: count = bytes */
	SONDE_D_UNKNOWN_RECORD, /* record id not known to the decoder */
	SONDE_D_MALFORMED,      /* record payload does not match its layout */
	SONDE_D_VERSION,        /* protocol version not supported */
	SONDE_D_TIME,           /* time could not be anchored exactly */
	SONDE_D_OTHER,
	SONDE_D_COUNT
};

struct sonde_diag {
	enum sonde_diag_code code;
	uint64_t offset;   /* byte offset in the input where the problem starts */
	uint64_t frame;    /* frame number (counting good and bad frames) */
	uint64_t count;    /* frames or bytes concerned (see the code) */
	const char *msg;   /* human-readable detail, no trailing newline */
};

/* Options given on the command line as -o key=value (and a few named ones).
 * NULL-terminated array of "key=value" strings; may be NULL. */
typedef const char *const *sonde_opts;
const char *sonde_opt_get(sonde_opts opts, const char *key);

/* What the readers of a run need of the decoder, worked out once for the
 * run by sonde_pipe_needs() (core/pipe.c) from its sinks, selection,
 * symbolizer and listeners.  Every field's zero -- the default of an
 * initialiser that leaves `needs` out -- means "everything": a decoder that
 * honours none of it is right, only slower.  Which decoder honours what
 * (docs/hacking.md keeps the same table):
 *
 *   decoder    OMIT_NATIVE  OMIT_TEXT  OMIT_DETAIL  tally
 *   sonde      -            yes        -            yes
 *   qs         yes          -          yes          -
 *   syst       yes          -          -            -
 *   tband      yes          -          yes          -
 *   stp        -            -          -            -
 *   miniprof   passed on to its call matcher (neither renders much)
 */
enum {
	/* Nobody prints the events' native lines (sonde_event.native): a
	 * decoder may leave them NULL and save rendering them. */
	SONDE_OMIT_NATIVE = 1u << 0,
	/* Nobody reads the events' text (a LOG record's formatted message,
	 * sonde_event.text): a decoder may leave it NULL and save formatting
	 * it; its arguments are still decoded and checked. */
	SONDE_OMIT_TEXT = 1u << 1,
	/* The native lines are all anyone reads (every sink prints only them;
	 * no selection, symbolizer or listener sees the events): a decoder may
	 * leave out of an event that has its native line whatever else it
	 * would cost to fill in (arguments, operand names).  Never set with
	 * SONDE_OMIT_NATIVE. */
	SONDE_OMIT_DETAIL = 1u << 2,
};

struct sonde_needs {
	unsigned omit; /* SONDE_OMIT_* */
	/* Kinds of events nobody needs delivered (sonde_kind_bit): a decoder
	 * may count such records in *tally instead of building their events,
	 * under the rules of struct sonde_tally; tally is NULL when
	 * tally_kinds is 0. */
	uint32_t tally_kinds;
	struct sonde_tally *tally;
};

/* Where a decoder delivers its output. */
struct sonde_out {
	void (*event)(void *ctx, const struct sonde_event *ev);
	void (*diag)(void *ctx, const struct sonde_diag *d);
	void *ctx;
	struct sonde_session *session; /* the decoder fills it in as it learns */
	struct sonde_needs needs; /* what the readers of this run need */
};

/* A decoder's diagnostic handed to its output (nothing when out->diag is
 * NULL): msg as it is, or formatted (cut at SONDE_DIAG_MSG_MAX - 1 bytes).
 * Every decoder reports through these, so a diagnostic is built one way
 * (core/diag.c). */
#define SONDE_DIAG_MSG_MAX 512
void sonde_diag_put(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		    uint64_t count, const char *msg);
void sonde_diagf(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		 uint64_t count, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void sonde_vdiagf(const struct sonde_out *out, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
		  uint64_t count, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

struct sonde_decoder_ops {
	const char *name;  /* --proto NAME */
	const char *desc;  /* one line for --help */
	/* How sure (0..100) the decoder is that buf (the first bytes of a
	 * stream) is its format; 0 = certainly not.  May be NULL. */
	int (*probe)(const uint8_t *buf, size_t n);
	void *(*create)(const struct sonde_out *out, sonde_opts opts);
	void (*feed)(void *dec, const uint8_t *buf, size_t n);
	void (*finish)(void *dec); /* end of input: flush, report truncation */
	void (*destroy)(void *dec);
	/* The input continues after a break: bytes were missed between the
	 * last chunk fed and the next (a live link that was reconnected joins
	 * the stream mid-way again).  May be NULL: then nothing is done. */
	void (*rejoin)(void *dec);
	/* A command to the decoder while it decodes (a key of `sonde live`, a
	 * front-end's request), e.g. the QS decoder's "dict" and "seq"
	 * (proto/qs/qs_ctl.c).  msg gets what it did or why not.  0 done,
	 * -1 failed, -2 a command the decoder does not know.  May be NULL. */
	int (*control)(void *dec, const char *cmd, char *msg, size_t cap);
};

struct sonde_sink_ops {
	const char *name;  /* --format NAME */
	const char *desc;
	int native;        /* 1: prints the events' native lines (decoders must render them) */
	void *(*create)(FILE *out, sonde_opts opts);
	/* A format that is not a byte stream (an SQLite database, a CTF
	 * directory) sets create_at instead of create: it writes the path
	 * given with --output itself, and standard output is refused.  On
	 * failure it returns NULL with errno EINVAL for a bad option, any
	 * other errno when the path cannot be written. */
	void *(*create_at)(const char *path, sonde_opts opts);
	void (*event)(void *sink, const struct sonde_event *ev, const struct sonde_session *s);
	void (*diag)(void *sink, const struct sonde_diag *d, const struct sonde_session *s); /* may be NULL */
	int (*finish)(void *sink, const struct sonde_session *s); /* flush; 0 ok, -1 write error */
	void (*destroy)(void *sink);
	/* Hand what the sink holds to its FILE (a live view shows what has
	 * been decoded); 0 ok, -1 write error.  May be NULL. */
	int (*flush)(void *sink);
};

/* The generated registry (cli/registry.c.in), in the cli library: it
 * lists every decoder and sink, so it sits above them all.  The core does
 * not use it (the pipe gets its decoders from the caller); the layer check
 * (scripts/layers.py) fails a call to it from below. */
extern const struct sonde_decoder_ops *const sonde_decoders[];
extern const struct sonde_sink_ops *const sonde_sinks[];
const struct sonde_decoder_ops *sonde_decoder_find(const char *name);
const struct sonde_sink_ops *sonde_sink_find(const char *name);

#endif /* SONDE_PIPELINE_H */
