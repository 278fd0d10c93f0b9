/*
 * sonde_args.h -- typed arguments of user records and LOG (protocol §6).
 */
#ifndef SONDE_ARGS_H
#define SONDE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* More than a 1024-byte frame can hold (each argument takes >= 2 bytes). */
#define SARGS_MAX 512

/* Decode the arguments in p[0..n).  Strings and memory point into p.
 * Returns the number of arguments stored in out.  When the list is
 * malformed, *bad is set to the index in p of the offending argument's type
 * byte and a reason is written to why; otherwise *bad = SIZE_MAX.  The
 * arguments before the bad one are kept. */
size_t sargs_decode(const uint8_t *p, size_t n, unsigned addr_size, struct sonde_arg *out, size_t max,
		    size_t *bad, char *why, size_t whylen);

#endif /* SONDE_ARGS_H */
