/*
 * qs_line.h -- a bounded text builder for the QSPY lines.  Appending never
 * overflows: text beyond the capacity is dropped and 'truncated' set.
 */
#ifndef SONDE_QS_LINE_H
#define SONDE_QS_LINE_H

#include <stddef.h>
#include <stdint.h>

struct qs_line {
	char *buf;    /* cap bytes, always NUL-terminated */
	size_t cap;
	size_t len;
	int truncated;
};

int qs_line_init(struct qs_line *l, size_t cap); /* 0 ok, -1 out of memory */
void qs_line_free(struct qs_line *l);
void qs_line_reset(struct qs_line *l);
void qs_line_puts(struct qs_line *l, const char *s);
void qs_line_putn(struct qs_line *l, const char *s, size_t n);
void qs_line_printf(struct qs_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Unsigned decimal, right-aligned in width characters padded with pad
 * (' ' or '0'); like printf's %*llu / %0*llu, without its cost. */
void qs_line_uint(struct qs_line *l, uint64_t v, unsigned width, char pad);
/* Signed decimal, right-aligned in width characters padded with blanks. */
void qs_line_int(struct qs_line *l, int64_t v, unsigned width);
/* Upper-case hexadecimal with at least digits digits, zero-padded. */
void qs_line_hex(struct qs_line *l, uint64_t v, unsigned digits);
/* Pad with blanks up to column col (nothing if already there). */
void qs_line_pad(struct qs_line *l, size_t col);

#endif /* SONDE_QS_LINE_H */
