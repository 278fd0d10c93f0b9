/*
 * syst_sb.h -- a bounded string builder over a caller-owned buffer.
 *
 * The SyS-T decoder renders text (formatted messages, CSV rows) into
 * fixed buffers allocated once per decoder, so memory stays bounded however
 * hostile the input.  Appends past the capacity are dropped and remembered
 * in 'full'; the text is always NUL-terminated.
 */
#ifndef SYST_SB_H
#define SYST_SB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/numfmt.h"

struct syst_sb {
	char *buf;
	size_t len;  /* characters, without the NUL */
	size_t cap;  /* bytes in buf, NUL included */
	int full;    /* something was dropped */
};

void syst_sb_init(struct syst_sb *sb, char *buf, size_t cap);
void syst_sb_reset(struct syst_sb *sb);
void syst_sb_printf(struct syst_sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Two hex digits per byte. */
void syst_sb_hex(struct syst_sb *sb, const uint8_t *p, size_t n, int upper);

/* The writers below run for every column of every CSV row: inline, and
 * numbers without snprintf (core/numfmt.h). */

/* Free characters left before the buffer is full. */
static inline size_t syst_sb_room(const struct syst_sb *sb)
{
	return sb->cap ? sb->cap - 1 - sb->len : 0;
}

static inline void syst_sb_put(struct syst_sb *sb, const char *s, size_t n)
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

static inline void syst_sb_puts(struct syst_sb *sb, const char *s)
{
	syst_sb_put(sb, s, strlen(s));
}

static inline void syst_sb_putc(struct syst_sb *sb, char c)
{
	if (sb->len + 1 < sb->cap) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
	} else {
		sb->full = 1;
	}
}

/* "0x" + digits hex digits, upper case (the printer's 0x%08X / 0x%016X);
 * higher digits of v are dropped. */
static inline void syst_sb_hexnum(struct syst_sb *sb, uint64_t v, int digits)
{
	char tmp[20] = { '0', 'x' };
	size_t n = 0;
	if (digits > 0) {
		if (digits < 16)
			v &= (1ull << (4 * digits)) - 1;
		n = numfmt_hex(tmp + 2, v, digits < 16 ? (unsigned)digits : 16, 1);
	}
	syst_sb_put(sb, tmp, 2 + n);
}

static inline void syst_sb_uint(struct syst_sb *sb, uint64_t v)
{
	char tmp[24];
	syst_sb_put(sb, tmp, numfmt_u64(tmp, v));
}

#endif /* SYST_SB_H */
