/*
 * source.c -- reading a source (source.h) until a buffer is full: the
 * pipe's probe head and the merge's, whatever kind of source it is.
 */
#include "source.h"

ssize_t sonde_source_read_full(struct sonde_source *src, void *buf, size_t n, size_t *got)
{
	size_t k = 0;
	while (k < n) {
		ssize_t r = src->read(src, (char *)buf + k, n - k);
		if (r < 0) {
			*got = k;
			return -1;
		}
		if (r == 0)
			break;
		k += (size_t)r;
	}
	*got = k;
	return (ssize_t)k;
}
