/*
 * sonde_logfmt.h -- renders a LOG record: a printf-style format string from
 * the target's dictionary applied to the record's typed arguments
 * (protocol §6).
 *
 * Both the format and the arguments come from the wire, so this is written
 * to be safe for any input: it never hands the format to the C library (only
 * floating-point numbers go through snprintf, with a format this code builds
 * from checked pieces), every width and precision is capped, and the output
 * is bounded, ending in "..." when it had to be cut.
 */
#ifndef SONDE_LOGFMT_H
#define SONDE_LOGFMT_H

#include <stddef.h>

#include "event.h"

#define SLOG_TEXT_MAX 1024 /* bytes of formatted text, NUL included */
#define SLOG_PAD_MAX 256   /* largest width / precision honoured */

/* Format fmt[0..fmtlen) with args into out[0..cap) (cap >= 8), always
 * NUL-terminated.  Conversions: d i u x X o c s f F e E g G p %% with flags
 * "-+ #0", width, precision ('*' takes an integer argument) and ignored
 * length modifiers.  An argument whose type does not suit its conversion is
 * printed in its natural form; a missing one prints "<?>"; a conversion the
 * table does not know is copied literally and takes no argument; extra
 * arguments are appended, each after a space.  Returns strlen(out). */
size_t slog_format(char *out, size_t cap, const char *fmt, size_t fmtlen, const struct sonde_arg *args,
		   size_t nargs);

/* An argument in its natural form (numbers in decimal, FUNC in hex,
 * OBJ/FUNC/ENUM by name when resolved, MEM as hex bytes); same bounds. */
size_t slog_natural(char *out, size_t cap, const struct sonde_arg *a);

#endif /* SONDE_LOGFMT_H */
