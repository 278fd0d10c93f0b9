/*
 * check.c -- what a failed SONDE_ASSERT does (check.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

void sonde_assert_failed(const char *cond, const char *file, int line)
{
	fprintf(stderr, "sonde: internal error: %s:%d: SONDE_ASSERT(%s) failed\n", file, line, cond);
	abort();
}
