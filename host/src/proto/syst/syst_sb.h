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
#include "util/bytes.h"

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
/* Two hex digits per byte (hex dumps of payloads, of any length). */
void syst_sb_hex(struct syst_sb *sb, const uint8_t *p, size_t n, int upper);

/* The writers below run for every column of every CSV row: inline, and
 * numbers without snprintf (core/numfmt.h).  Always inline: a writer left
 * out of line is given the builder's address, and then the compiler must
 * assume that every character written may change its fields. */
#define SYST_SB_INLINE static inline __attribute__((always_inline))

/* Free characters left before the buffer is full. */
SYST_SB_INLINE size_t syst_sb_room(const struct syst_sb *sb)
{
	return sb->cap ? sb->cap - 1 - sb->len : 0;
}

SYST_SB_INLINE void syst_sb_put(struct syst_sb *sb, const char *s, size_t n)
{
	size_t room = syst_sb_room(sb);
	if (n > room) {
		n = room;
		sb->full = 1;
	}
	bytes_copy_short(sb->buf + sb->len, s, n);
	sb->len += n;
	if (sb->cap)
		sb->buf[sb->len] = '\0';
}

/* For string literals (the length is then known at compile time); strings
 * of varying length have their length kept beside them. */
SYST_SB_INLINE void syst_sb_puts(struct syst_sb *sb, const char *s)
{
	syst_sb_put(sb, s, strlen(s));
}

SYST_SB_INLINE void syst_sb_putc(struct syst_sb *sb, char c)
{
	if (sb->len + 1 < sb->cap) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
	} else {
		sb->full = 1;
	}
}

/* Where n more characters can be written, or NULL when fewer fit (then
 * the caller renders into a scratch buffer and syst_sb_put cuts it);
 * syst_sb_commit(sb, n) takes them. */
SYST_SB_INLINE char *syst_sb_reserve(struct syst_sb *sb, size_t n)
{
	return syst_sb_room(sb) >= n ? sb->buf + sb->len : NULL;
}

SYST_SB_INLINE void syst_sb_commit(struct syst_sb *sb, size_t n)
{
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* "0x" + digits (at most 16) hex digits, upper case (the printer's
 * 0x%08X / 0x%016X); higher digits of v are dropped. */
SYST_SB_INLINE void syst_sb_hexnum(struct syst_sb *sb, uint64_t v, unsigned digits)
{
	char tmp[2 + 16];
	char *out = syst_sb_reserve(sb, 2 + digits);
	char *w = out ? out : tmp;
	w[0] = '0';
	w[1] = 'x';
	for (unsigned i = 0; i < digits; i++)
		w[2 + i] = "0123456789ABCDEF"[(v >> (4 * (digits - 1 - i))) & 15];
	if (out)
		syst_sb_commit(sb, 2 + digits);
	else
		syst_sb_put(sb, tmp, 2 + digits);
}

SYST_SB_INLINE void syst_sb_uint(struct syst_sb *sb, uint64_t v)
{
	char tmp[24];
	syst_sb_put(sb, tmp, numfmt_u64(tmp, v));
}

#endif /* SYST_SB_H */
