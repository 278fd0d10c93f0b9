/*
 * syst_sb.c -- bounded string builder (see syst_sb.h).
 */
#include "syst_sb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void syst_sb_init(struct syst_sb *sb, char *buf, size_t cap)
{
	sb->buf = buf;
	sb->cap = cap;
	syst_sb_reset(sb);
}

void syst_sb_reset(struct syst_sb *sb)
{
	sb->len = 0;
	sb->full = 0;
	if (sb->cap)
		sb->buf[0] = '\0';
}

void syst_sb_printf(struct syst_sb *sb, const char *fmt, ...)
{
	size_t room = syst_sb_room(sb);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(sb->buf + sb->len, room + 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > room) {
		n = (int)room;
		sb->full = 1;
	}
	sb->len += (size_t)n;
}

/* Bytes p[0..n) as two hex digits each, into out (2n characters). */
static void hex_bytes(char *out, const uint8_t *p, size_t n, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
}

void syst_sb_hex(struct syst_sb *sb, const uint8_t *p, size_t n, int upper)
{
	char *out = n <= SIZE_MAX / 2 ? syst_sb_reserve(sb, 2 * n) : NULL;
	if (out) {
		hex_bytes(out, p, n, upper);
		syst_sb_commit(sb, 2 * n);
		return;
	}
	char tmp[64]; /* near the end of the buffer: in pieces, cut where it is full */
	while (n) {
		size_t k = n < sizeof(tmp) / 2 ? n : sizeof(tmp) / 2;
		hex_bytes(tmp, p, k, upper);
		syst_sb_put(sb, tmp, 2 * k);
		p += k;
		n -= k;
	}
}
