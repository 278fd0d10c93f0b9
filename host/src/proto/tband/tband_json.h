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

/* Bytes of buffer tband_json_render needs for a frame whose string field
 * has str_len bytes (as rendered: after tband_utf8_lossy), 0 if it has
 * none.  More than the longest line: the renderer copies its constant
 * text in blocks of a fixed size and may write up to one block past the
 * line's end. */
size_t tband_json_size(size_t str_len);

/*
 * Render rec (a record parsed without error or with a soft error) into
 * buf[0..cap), NUL-terminated; returns the length.  cap must be at least
 * tband_json_size(rec->str_len): a smaller buffer (a bug) gets an empty
 * line.  The string field is copied as it is: a caller with a string that
 * is not valid UTF-8 replaces it first (tband_utf8_lossy).  An undefined
 * enumerator is rendered as its number.
 */
size_t tband_json_render(const struct tband_rec *rec, char *buf, size_t cap);

/* Append s[0..n) as valid UTF-8 (U+FFFD for each invalid byte) to buf
 * (room for 3 * n bytes needed); returns the number of bytes written. */
size_t tband_utf8_lossy(const unsigned char *s, size_t n, char *buf);

#endif /* TBAND_JSON_H */
