/*
 * qs_line.h -- the line buffer of the QSPY lines, and a bounded text
 * builder for the rare lines (notices, target info, peeks).  Appending
 * never overflows: text beyond the capacity is dropped and 'truncated'
 * set; the text is NUL-terminated after every append.
 *
 * The lines of the records themselves are written at a cursor by the
 * renderers of qs_render.h, into a buffer with room for any of them
 * (qs_create), and ended with qs_line_end.
 */
#ifndef SONDE_QS_LINE_H
#define SONDE_QS_LINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "util/check.h"

struct qs_line {
	char *buf;    /* cap bytes, always NUL-terminated */
	size_t cap;
	size_t len;
	int truncated;
};

int qs_line_init(struct qs_line *l, size_t cap); /* 0 ok, -1 out of memory */
void qs_line_free(struct qs_line *l);
void qs_line_printf(struct qs_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void qs_line_reset(struct qs_line *l)
{
	l->len = 0;
	l->truncated = 0;
	if (l->cap)
		l->buf[0] = '\0';
}

/* The line ends at o (written past l->buf by a cursor writer, which the
 * caller gave room for). */
static inline void qs_line_end(struct qs_line *l, char *o)
{
	/* the renderers write without a room check: the room is qs_create's */
	SONDE_ASSERT(o >= l->buf && o < l->buf + l->cap);
	l->len = (size_t)(o - l->buf);
	*o = '\0';
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

#endif /* SONDE_QS_LINE_H */
