/*
 * utf8text.h -- text hygiene for the trace exporters (Perfetto, Chrome JSON).
 *
 * Names and strings come from the target and may hold anything: invalid
 * UTF-8, NULs, quotes, control characters.  Both output formats require
 * valid UTF-8 (protobuf `string`, JSON text), so every string goes through
 * one of these two functions on its way out.
 */
#ifndef SONDE_UTF8TEXT_H
#define SONDE_UTF8TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length (1..4) of the valid UTF-8 sequence at p, 0 if p[0] starts none.
 * Rejects overlong forms, surrogates and code points above U+10FFFF. */
size_t utf8text_seqlen(const uint8_t *p, size_t n);

/* Bytes utf8text_clean() may write for n input bytes, NUL included. */
#define UTF8TEXT_CLEAN_MAX(n) (3 * (n) + 1)

/* Copy s[0..n) to dst as valid UTF-8: invalid bytes and NULs become U+FFFD.
 * dst holds UTF8TEXT_CLEAN_MAX(n) bytes; the result is NUL-terminated.
 * Returns its length. */
size_t utf8text_clean(char *dst, const uint8_t *s, size_t n);

/* Write s[0..n) to f as a quoted JSON string (RFC 8259), replacing invalid
 * UTF-8 and NULs as utf8text_clean() does.  Returns 0, or -1 on a write
 * error. */
int utf8text_json(FILE *f, const uint8_t *s, size_t n);

#endif /* SONDE_UTF8TEXT_H */
