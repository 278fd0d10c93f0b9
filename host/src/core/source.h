/*
 * source.h -- where the bytes come from, as the pipeline sees it: a struct
 * of two operations that a file, stdin, a serial port or a socket fills in
 * (the kinds of source are in sources/, one layer up; the pipe reads them
 * through this struct alone, so the core never calls up into them).
 */
#ifndef SONDE_CORE_SOURCE_H
#define SONDE_CORE_SOURCE_H

#include <stddef.h>
#include <sys/types.h>

struct sonde_source {
	const char *name; /* for messages: the path, "<stdin>", "/dev/ttyUSB0" */
	/* Up to n bytes into buf: > 0 bytes read, 0 end of input, -1 error
	 * (errno set).  May return fewer bytes than asked at any time. */
	ssize_t (*read)(struct sonde_source *src, void *buf, size_t n);
	void (*close)(struct sonde_source *src);
	int fd;
	void *priv;
};

/* Read until buf is full or the input ends: returns the bytes read (short
 * only at the end of input), or -1 on error with *got set to the bytes read
 * before it. */
ssize_t sonde_source_read_full(struct sonde_source *src, void *buf, size_t n, size_t *got);

#endif /* SONDE_CORE_SOURCE_H */
