/*
 * qs_line.h -- a bounded text builder for the QSPY lines.  Appending never
 * overflows: text beyond the capacity is dropped and 'truncated' set.
 *
 * The writers run several times per record, so they are inline and format
 * numbers with core/numfmt.h: a QSPY line costs a few copies, not a
 * printf per field.  The text is NUL-terminated after every append.
 */
#ifndef SONDE_QS_LINE_H
#define SONDE_QS_LINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/numfmt.h"

struct qs_line {
	char *buf;    /* cap bytes, always NUL-terminated */
	size_t cap;
	size_t len;
	int truncated;
};

int qs_line_init(struct qs_line *l, size_t cap); /* 0 ok, -1 out of memory */
void qs_line_free(struct qs_line *l);
void qs_line_printf(struct qs_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Pad with blanks up to column col (nothing if already there). */
void qs_line_pad(struct qs_line *l, size_t col);

static inline void qs_line_reset(struct qs_line *l)
{
	l->len = 0;
	l->truncated = 0;
	if (l->cap)
		l->buf[0] = '\0';
}

static inline void qs_line_putn(struct qs_line *l, const char *s, size_t n)
{
	if (l->len + n >= l->cap) {
		if (l->cap == 0)
			return;
		n = l->cap - 1 - l->len;
		l->truncated = 1;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static inline void qs_line_puts(struct qs_line *l, const char *s)
{
	qs_line_putn(l, s, strlen(s));
}

/* Unsigned decimal, right-aligned in width characters padded with pad
 * (' ' or '0'); like printf's %*llu / %0*llu. */
static inline void qs_line_uint(struct qs_line *l, uint64_t v, unsigned width, char pad)
{
	char tmp[64];
	qs_line_putn(l, tmp, numfmt_u64_pad(tmp, v, width < 40 ? width : 40, pad));
}

/* Signed decimal, right-aligned in width characters padded with blanks. */
static inline void qs_line_int(struct qs_line *l, int64_t v, unsigned width)
{
	char tmp[64];
	size_t n = numfmt_i64(tmp + 40, v);
	size_t k = n < width && width <= 40 ? width - n : 0;
	memset(tmp + 40 - k, ' ', k);
	qs_line_putn(l, tmp + 40 - k, n + k);
}

/* Upper-case hexadecimal with at least digits digits, zero-padded. */
static inline void qs_line_hex(struct qs_line *l, uint64_t v, unsigned digits)
{
	char tmp[32];
	qs_line_putn(l, tmp, numfmt_hex(tmp, v, digits < 16 ? digits : 16, 1));
}

#endif /* SONDE_QS_LINE_H */
