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

struct syst_sb {
	char *buf;
	size_t len;  /* characters, without the NUL */
	size_t cap;  /* bytes in buf, NUL included */
	int full;    /* something was dropped */
};

void syst_sb_init(struct syst_sb *sb, char *buf, size_t cap);
void syst_sb_reset(struct syst_sb *sb);
/* Free characters left before the buffer is full. */
size_t syst_sb_room(const struct syst_sb *sb);
void syst_sb_put(struct syst_sb *sb, const char *s, size_t n);
void syst_sb_puts(struct syst_sb *sb, const char *s);
void syst_sb_putc(struct syst_sb *sb, char c);
void syst_sb_printf(struct syst_sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Two hex digits per byte. */
void syst_sb_hex(struct syst_sb *sb, const uint8_t *p, size_t n, int upper);
/* "0x" + digits hex digits, upper case (the printer's 0x%08X / 0x%016X). */
void syst_sb_hexnum(struct syst_sb *sb, uint64_t v, int digits);
void syst_sb_uint(struct syst_sb *sb, uint64_t v);

#endif /* SYST_SB_H */
