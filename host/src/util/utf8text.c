/*
 * utf8text.c -- UTF-8 validation, cleaning and JSON string escaping for the
 * trace exporters.  Hand-written because it is a few lines and the exporters
 * need exactly this replacement policy in both formats.
 */
#include "utf8text.h"

#include <string.h>

static const char utf8text_fffd[3] = { (char)0xEF, (char)0xBF, (char)0xBD };

size_t utf8text_seqlen(const uint8_t *p, size_t n)
{
	uint8_t c = p[0];
	size_t len;
	uint32_t cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2; cp = c & 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3; cp = c & 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4; cp = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

size_t utf8text_clean(char *dst, const uint8_t *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		if ((uint8_t)(s[i] - 1u) < 0x7F) { /* ASCII but NUL: most of it */
			dst[o++] = (char)s[i++];
			continue;
		}
		size_t k = s[i] ? utf8text_seqlen(s + i, n - i) : 0;

		if (k == 0) {
			memcpy(dst + o, utf8text_fffd, 3);
			o += 3;
			i++;
		} else {
			memcpy(dst + o, s + i, k);
			o += k;
			i += k;
		}
	}
	dst[o] = '\0';
	return o;
}

int utf8text_json(FILE *f, const uint8_t *s, size_t n)
{
	size_t run = 0; /* start of the pending run of bytes that need no escape */
	int err = putc('"', f) == EOF;

	for (size_t i = 0; i < n;) {
		uint8_t c = s[i];
		size_t k = c ? utf8text_seqlen(s + i, n - i) : 0;
		char esc[8];
		const char *rep = NULL;
		size_t replen = 0;

		if (k == 1 && c >= 0x20 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (k > 1) {
			i += k;
			continue;
		}
		/* c needs an escape or a replacement: flush the run first */
		if (i > run && fwrite(s + run, 1, i - run, f) != i - run)
			err = 1;
		if (k == 0) {
			rep = utf8text_fffd;
			replen = 3;
		} else {
			switch (c) {
			case '"':  rep = "\\\""; break;
			case '\\': rep = "\\\\"; break;
			case '\n': rep = "\\n"; break;
			case '\r': rep = "\\r"; break;
			case '\t': rep = "\\t"; break;
			case '\b': rep = "\\b"; break;
			case '\f': rep = "\\f"; break;
			default:
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				rep = esc;
			}
			replen = strlen(rep);
		}
		if (fwrite(rep, 1, replen, f) != replen)
			err = 1;
		i++;
		run = i;
	}
	if (n > run && fwrite(s + run, 1, n - run, f) != n - run)
		err = 1;
	if (putc('"', f) == EOF)
		err = 1;
	return err ? -1 : 0;
}
