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

void qs_line_reset(struct qs_line *l)
{
	l->len = 0;
	l->truncated = 0;
	if (l->cap)
		l->buf[0] = '\0';
}

void qs_line_putn(struct qs_line *l, const char *s, size_t n)
{
	if (l->cap == 0)
		return;
	size_t room = l->cap - 1 - l->len;
	if (n > room) {
		n = room;
		l->truncated = 1;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

void qs_line_puts(struct qs_line *l, const char *s)
{
	qs_line_putn(l, s, strlen(s));
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

/* Digits of v, sign and padding, right-aligned at the end of tmp. */
static size_t format_dec(char *tmp, size_t n, uint64_t v, int neg, unsigned width, char pad)
{
	size_t i = n;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		tmp[--i] = '-';
	while (n - i < width && i > 0)
		tmp[--i] = pad;
	return i;
}

void qs_line_uint(struct qs_line *l, uint64_t v, unsigned width, char pad)
{
	char tmp[64];
	size_t i = format_dec(tmp, sizeof(tmp), v, 0, width, pad);
	qs_line_putn(l, tmp + i, sizeof(tmp) - i);
}

void qs_line_int(struct qs_line *l, int64_t v, unsigned width)
{
	char tmp[64];
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t i = format_dec(tmp, sizeof(tmp), mag, v < 0, width, ' ');
	qs_line_putn(l, tmp + i, sizeof(tmp) - i);
}

void qs_line_hex(struct qs_line *l, uint64_t v, unsigned digits)
{
	static const char hex[] = "0123456789ABCDEF";
	char tmp[32];
	size_t i = sizeof(tmp);
	do {
		tmp[--i] = hex[v & 0xF];
		v >>= 4;
	} while (v);
	while (sizeof(tmp) - i < digits && i > 0)
		tmp[--i] = '0';
	qs_line_putn(l, tmp + i, sizeof(tmp) - i);
}

void qs_line_pad(struct qs_line *l, size_t col)
{
	static const char blanks[] = "                ";
	while (l->len < col && !l->truncated) {
		size_t n = col - l->len;
		if (n > sizeof(blanks) - 1)
			n = sizeof(blanks) - 1;
		qs_line_putn(l, blanks, n);
	}
}
