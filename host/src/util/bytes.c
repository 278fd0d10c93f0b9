/*
 * bytes.c -- the out-of-line half of bytes.h: the long copy.
 */
#include "bytes.h"

void bytes_copy_long(void *d, const void *s, size_t n)
{
	memcpy(d, s, n);
}
