/*
 * sink_run.h -- drive one sink in a unit test: open it on a temporary file,
 * feed it hand-built events, finish it, read the file back.  Shared by the
 * export sinks' tests (Perfetto, Chrome JSON, speedscope, CTF).
 */
#ifndef SONDE_TEST_SINK_RUN_H
#define SONDE_TEST_SINK_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "pipeline.h"

struct sink_run {
	const struct sonde_sink_ops *ops;
	char path[64];   /* the temporary output file (the test unlinks it) */
	FILE *f;
	void *sink;
	struct sonde_session ss;
};

/* Opens ops on a new temporary file with the given options; the session
 * says protocol "sonde" and ts_freq ticks per second. */
void sink_run_open(struct sink_run *r, const struct sonde_sink_ops *ops, const char *const *opts,
		   uint64_t ts_freq);
void sink_run_put(struct sink_run *r, struct sonde_event e);
/* Finishes and destroys the sink, closes the file; returns finish's result. */
int sink_run_close(struct sink_run *r);

/* The whole file at path, NUL-terminated (free it), its length in *len
 * (len may be NULL); NULL if there is no such file. */
char *sink_run_read(const char *path, size_t *len);

/* A timed event of kind k on object obj (named name, may be NULL). */
struct sonde_event sink_ev(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name);

#endif /* SONDE_TEST_SINK_RUN_H */
