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
 * `const struct sonde_sink_ops sonde_sink_<name>`.  The build generates the
 * registry of both from the file tree, so adding one touches one folder.
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

/* Where a decoder delivers its output. */
struct sonde_out {
	void (*event)(void *ctx, const struct sonde_event *ev);
	void (*diag)(void *ctx, const struct sonde_diag *d);
	void *ctx;
	struct sonde_session *session; /* the decoder fills it in as it learns */
	/* 1: nobody prints the events' native lines (struct sonde_event), so
	 * a decoder may leave 'native' NULL and save rendering it.  0 (the
	 * default of an initialiser that omits it): render them. */
	int skip_native;
	/* 1: nobody reads the events' text (a LOG record's formatted message,
	 * sonde_event.text), so a decoder may leave it NULL and save formatting
	 * it; its arguments are still decoded and checked.  0 (the default of
	 * an initialiser that omits it): format it. */
	int skip_text;
	/* 1: the events' native lines are all that anyone reads (every sink
	 * prints only them; no selection, symbolizer or listener sees the
	 * events), so a decoder may leave out of an event that has its
	 * native line whatever else it would cost to fill in (arguments,
	 * operand names).  0 (the default of an initialiser that omits it):
	 * fill in everything. */
	int native_only;
	/* Kinds of events nobody needs delivered (sonde_kind_bit): a decoder
	 * may count such records in *tally instead of building their events,
	 * under the rules of struct sonde_tally.  0 (the default of an
	 * initialiser that omits it): deliver every event; tally is then
	 * NULL. */
	uint32_t tally_kinds;
	struct sonde_tally *tally;
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

/* The generated registry. */
extern const struct sonde_decoder_ops *const sonde_decoders[];
extern const struct sonde_sink_ops *const sonde_sinks[];
const struct sonde_decoder_ops *sonde_decoder_find(const char *name);
const struct sonde_sink_ops *sonde_sink_find(const char *name);

#endif /* SONDE_PIPELINE_H */
