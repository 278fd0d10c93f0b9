/*
 * fuzz_util.h -- what the libFuzzer harnesses (tests/fuzz/fuzz_*.c) share:
 * taking configuration bytes off the front of an input, running a decoder
 * and a sink through the public pipeline (core/pipe.h, the registry of
 * pipeline.h) into memory, and the chunking check: a decoder fed the same
 * bytes in other pieces must say exactly the same thing (pipeline.h: "fed
 * raw bytes in chunks of any size"; a live link delivers any split).
 */
#ifndef SONDE_FUZZ_UTIL_H
#define SONDE_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pipeline.h"

/* A fuzz input; configuration bytes are taken off its front. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

/* The next byte of the input (and drop it), 0 when the input is empty. */
uint8_t fuzz_take(struct fuzz_in *in);
/* The next bytes up to a NUL (dropped with it) as a string in buf, cut to
 * cap - 1 bytes. */
const char *fuzz_take_name(struct fuzz_in *in, char *buf, size_t cap);

/* One decode: decoder proto (a registered name, or "auto") with -o options
 * opts (NULL-terminated, may be NULL) into sink (a registered name, or NULL
 * for none; a sink that writes a path of its own, SQLite or CTF, gets one
 * in a scratch directory, emptied before and after).  The first `chunk` bytes go to sonde_pipe_begin and the rest in
 * pieces of `chunk` bytes (0: all at once).  select: the selection stage
 * (core/select.h) as option pairs "from", "1ms", ..., NULL-terminated (NULL:
 * none).  With stats set, the figures of `sonde stats` (analysis/stats.h)
 * and its timing analyses (analysis/an.h, windows of an_window ticks) are
 * gathered too: their text goes to the output after the sink's, and their
 * JSON lines must be valid JSON. */
struct fuzz_decode {
	const char *proto;
	const char *const *opts;
	const char *sink;
	size_t chunk;
	const char *const *select;
	int stats;
	uint64_t an_window;
	int no_text;   /* the event digest does not read sonde_event.text, so
			* without a sink that does the decoder may skip it */
};

/* What a decode said: the sink's output, a digest of every field of every
 * event, the diagnostics as printed, the exit status, and the session's
 * loss counters. */
struct fuzz_result {
	char *out;
	size_t out_len;
	uint64_t events_hash;
	size_t nevents;
	int no_text;
	char *diags;
	size_t diags_len;
	int rc;
	struct sonde_session session;
};

/* Run one decode into r (free with fuzz_result_free).  Aborts if the
 * decoder or sink is not registered. */
void fuzz_decode_run(const struct fuzz_decode *d, const uint8_t *data, size_t n, struct fuzz_result *r);
void fuzz_result_free(struct fuzz_result *r);

/* Decode data whole and again in pieces of `chunk` bytes; abort (a finding)
 * if the events, outputs, diagnostics, exit status or loss counters differ. */
void fuzz_decode_check_chunks(const struct fuzz_decode *d, const uint8_t *data, size_t n, size_t chunk);

/* Checks of a sink's output; abort (a finding) if it is not what its
 * format says.  JSON: strict RFC 8259 with valid UTF-8 (json-c's
 * tokener), one document, or one per line; Perfetto: a Trace message that
 * protobuf-c unpacks. */
void fuzz_check_json(const char *what, const char *text, size_t n);
void fuzz_check_json_lines(const char *what, const char *text, size_t n);
void fuzz_check_perfetto(const char *what, const uint8_t *buf, size_t n);

/* A chunk size from a configuration byte: 1..64, or 0 (whole) for b = 0. */
size_t fuzz_chunk_of(uint8_t b);

/* The path of a file under tests/fuzz/data/ (static buffer). */
const char *fuzz_data(const char *name);

/* A path naming an in-memory file holding data[0..n) (memfd, reused on each
 * call), for parsers that take a file name. */
const char *fuzz_memfile(const uint8_t *data, size_t n);

/* Abort with a message: the harness found a broken invariant. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif /* SONDE_FUZZ_UTIL_H */
