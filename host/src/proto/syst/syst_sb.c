/*
 * syst_sb.c -- bounded string builder (see syst_sb.h).  The number and hex
 * writers avoid snprintf: they run for every column of every CSV row.
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

size_t syst_sb_room(const struct syst_sb *sb)
{
	return sb->cap ? sb->cap - 1 - sb->len : 0;
}

void syst_sb_put(struct syst_sb *sb, const char *s, size_t n)
{
	size_t room = syst_sb_room(sb);
	if (n > room) {
		n = room;
		sb->full = 1;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	if (sb->cap)
		sb->buf[sb->len] = '\0';
}

void syst_sb_puts(struct syst_sb *sb, const char *s)
{
	syst_sb_put(sb, s, strlen(s));
}

void syst_sb_putc(struct syst_sb *sb, char c)
{
	syst_sb_put(sb, &c, 1);
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

void syst_sb_hex(struct syst_sb *sb, const uint8_t *p, size_t n, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[64];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		tmp[k++] = digits[p[i] >> 4];
		tmp[k++] = digits[p[i] & 15];
		if (k == sizeof(tmp)) {
			syst_sb_put(sb, tmp, k);
			k = 0;
		}
	}
	syst_sb_put(sb, tmp, k);
}

void syst_sb_hexnum(struct syst_sb *sb, uint64_t v, int digits)
{
	char tmp[18];
	tmp[0] = '0';
	tmp[1] = 'x';
	for (int i = digits - 1; i >= 0; i--) {
		tmp[2 + i] = "0123456789ABCDEF"[v & 15];
		v >>= 4;
	}
	syst_sb_put(sb, tmp, (size_t)digits + 2);
}

void syst_sb_uint(struct syst_sb *sb, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof(tmp);
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	syst_sb_put(sb, tmp + i, sizeof(tmp) - i);
}
