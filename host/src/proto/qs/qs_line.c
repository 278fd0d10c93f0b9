/*
 * qs_line.c -- bounded text builder (see qs_line.h).
 */
#include "qs_line.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int qs_line_init(struct qs_line *l, size_t cap)
{
	l->buf = malloc(cap);
	l->cap = l->buf ? cap : 0;
	qs_line_reset(l);
	return l->buf ? 0 : -1;
}

void qs_line_free(struct qs_line *l)
{
	free(l->buf);
	l->buf = NULL;
	l->cap = 0;
	l->len = 0;
}

void qs_line_printf(struct qs_line *l, const char *fmt, ...)
{
	if (l->cap == 0)
		return;
	size_t room = l->cap - l->len;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		l->len = l->cap - 1;
		l->truncated = 1;
	} else {
		l->len += (size_t)n;
	}
}
