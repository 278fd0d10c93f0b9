/*
 * linesink.h -- the common part of the sinks that print the lines a
 * decoder rendered in its reference tool's format (the events' 'native'
 * field: qspy, syst-csv, tband-jsonl): a buffered writer of whole lines, so
 * that each of those sinks is only its header, its filter and its
 * diagnostic lines.
 */
#ifndef SONDE_LINESINK_H
#define SONDE_LINESINK_H

#include <stdio.h>

#include "pipeline.h"
#include "sinkfmt.h"

struct linesink {
	FILE *out;
	struct sbuf b;
	int error;
	int where; /* -o <name>.where=1: diagnostic lines end with " @offset#frame" */
};

/* A line sink writing to out; header (may be NULL) is its first text. */
struct linesink *linesink_new(FILE *out, const char *header);
/* Append s and a newline. */
void linesink_line(struct linesink *s, const char *s_text);
/* A diagnostic as one line: lead, the message, and where it is if asked. */
void linesink_diag(struct linesink *s, const char *lead, const struct sonde_diag *d);

/* Sink ops shared by those sinks ('sink' is a struct linesink). */
void linesink_native(void *sink, const struct sonde_event *ev, const struct sonde_session *ses);
int linesink_flush(void *sink);
int linesink_finish(void *sink, const struct sonde_session *ses);
void linesink_destroy(void *sink);

#endif /* SONDE_LINESINK_H */
