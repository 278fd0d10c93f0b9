/*
 * source.h -- the byte sources of a file, a pipe or stdin.  The interface
 * every source fills in (struct sonde_source) is the core's (core/source.h),
 * so that the pipe reads any source without calling up into this layer; a
 * new kind of source is a new file here that fills in that struct.
 */
#ifndef SONDE_SOURCE_H
#define SONDE_SOURCE_H

#include "core/source.h"

/* Open path for reading; "-" is stdin.  Returns 0, or -1 with errno set. */
int sonde_source_open_file(struct sonde_source *src, const char *path);

#endif /* SONDE_SOURCE_H */
