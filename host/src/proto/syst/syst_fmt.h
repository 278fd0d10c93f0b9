/*
 * syst_fmt.h -- format catalog and printf messages: a C format string
 * applied to the SyS-T packed argument bytes (shared/notes/syst.md §9).
 *
 * Arguments are little-endian and unaligned; their sizes follow the
 * conversion and the client's word size: int-sized conversions 4 bytes,
 * long/size_t/ptrdiff_t/pointer 4 (32-bit client) or 8 (64-bit client),
 * long long/intmax 8, every floating conversion an 8-byte double, %s an
 * inline NUL-terminated string.  The text is what the host's snprintf
 * makes of each conversion, as in the reference printer: glibc printf's
 * (the common conversions are written without it, identically).
 */
#ifndef SYST_FMT_H
#define SYST_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "syst_sb.h"

/* Widths and precisions above this are clamped (bounded work per message). */
#define SYST_FMT_MAX_WIDTH 4096

struct syst_fmt_in {
	const char *fmt;       /* format string (need not be NUL-terminated) */
	size_t fmt_len;
	const uint8_t *args;   /* packed argument bytes */
	size_t nargs_bytes;
	unsigned long_size;    /* 4 (32-bit client) or 8 (64-bit client) */
	/* Short-message and RAW-protocol collateral: every conversion takes
	 * this one value instead of reading argument bytes. */
	int single;
	uint64_t value;
};

enum syst_fmt_result {
	SYST_FMT_OK,
	SYST_FMT_SHORT_ARGS,  /* argument bytes ran out */
	SYST_FMT_BAD_STRING   /* a %s argument has no terminating NUL */
};

/* Render into out.  Decoded arguments are stored in args[0..max_args) (the
 * count in *nargs; string arguments point into the argument bytes).  On a
 * failure the text so far is followed by the reference printer's
 * complaint. */
enum syst_fmt_result syst_fmt(struct syst_sb *out, const struct syst_fmt_in *in,
			      struct sonde_arg *args, size_t max_args, size_t *nargs);

/* The bytes of packed arguments fmt[0..n) takes from args[0..nbytes): its
 * conversions' sizes as syst_fmt reads them (a %s up to its NUL).
 * SIZE_MAX when the arguments run out.  For messages that end where their
 * arguments end (syst_msg_extent). */
size_t syst_fmt_arg_bytes(const char *fmt, size_t n, const uint8_t *args, size_t nbytes, unsigned long_size);

#endif /* SYST_FMT_H */
