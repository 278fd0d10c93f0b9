/*
 * tband_json.h -- render a parsed tband frame the way the reference decoder's
 * `tband-cli dump` prints it: one JSON object per frame, serde's externally
 * tagged enums, e.g. {"Base":{"ts":10,"kind":{"IsrEnter":{"isr_id":0}}}}.
 * The decoder puts this text into each event's `native` field.
 */
#ifndef TBAND_JSON_H
#define TBAND_JSON_H

#include <stddef.h>

#include "tband_wire.h"

/* Bytes needed (including the NUL) to render any frame of 'frame_len'
 * decoded bytes. */
size_t tband_json_size(size_t frame_len);

/*
 * Render rec (a record parsed without error or with a soft error) into
 * buf[0..cap), NUL-terminated; returns the length.  The string field is
 * copied as it is: a caller with a string that is not valid UTF-8 replaces
 * it first (tband_utf8_lossy).  An undefined enumerator is rendered as its
 * number.
 */
size_t tband_json_render(const struct tband_rec *rec, char *buf, size_t cap);

/* Append s[0..n) as valid UTF-8 (U+FFFD for each invalid byte) to buf
 * (room for 3 * n bytes needed); returns the number of bytes written. */
size_t tband_utf8_lossy(const unsigned char *s, size_t n, char *buf);

#endif /* TBAND_JSON_H */
