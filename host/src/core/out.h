/*
 * out.h -- the streams the tool writes its outputs to (standard output,
 * --output FILE): stdio FILEs over a descriptor, through fopencookie(3),
 * that
 *   - remember the errno of their first failed write, so that a full disk
 *     is reported as "No space left on device" however late it is noticed
 *     (stdio keeps only a flag);
 *   - keep writing through the interruptions of a stop (core/stop.h) and
 *     give up on a reader that does not take the rest within the grace
 *     time, so that a slow or stalled reader (of a pipe, socket or
 *     terminal) cannot hold the tool after Ctrl-C -- the data not taken is
 *     counted; a file on a disk is always written to its end;
 *   - write everything or fail, so stdio never drops part of a buffer
 *     silently.
 */
#ifndef SONDE_OUT_H
#define SONDE_OUT_H

#include <stdint.h>
#include <stdio.h>

/* A stream over fd (not closed by sonde_out_close when it is 0..2), line
 * buffered when fd is a terminal.  name is kept for messages.  NULL on
 * failure (errno set). */
FILE *sonde_out_fdopen(int fd, const char *name);
/* Create (truncate) path and open a stream on it; NULL with errno set. */
FILE *sonde_out_create(const char *path);

/* For a stream of this module (0 / NULL for any other FILE): */
int sonde_out_errno(FILE *f);          /* errno of the first failed write, 0 none */
uint64_t sonde_out_lost(FILE *f);      /* bytes dropped after giving up on the reader */
const char *sonde_out_name(FILE *f);
/* The reason of a failed write, for messages: strerror of the first
 * failure, "the reader did not take N bytes within 0.4 s of the stop",
 * or "write failed" when nothing more is known. */
const char *sonde_out_why(FILE *f);

/* Hold back what is written (on: counted, not written; off: written
 * again), e.g. records not shown while a live display is paused. */
void sonde_out_hold(FILE *f, int on);
uint64_t sonde_out_held_lines(FILE *f); /* lines held back since the last hold */

/* Flush; close unless it writes to fd 0..2 (then it is only flushed, and
 * stays usable).  Returns 0, or -1 if any write failed, with the reason
 * (sonde_out_why) in why.  For a FILE not of this module: fflush/fclose
 * as usual (stdout and stderr only flushed). */
int sonde_out_close(FILE *f, char *why, size_t whylen);

#endif /* SONDE_OUT_H */
