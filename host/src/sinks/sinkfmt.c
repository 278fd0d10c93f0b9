/*
 * sinkfmt.c -- renderings shared by the text, JSONL and CSV sinks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinkfmt.h"

void sbuf_init(struct sbuf *b)
{
	b->p = NULL;
	b->n = b->cap = 0;
	b->oom = 0;
}

void sbuf_free(struct sbuf *b)
{
	free(b->p);
	sbuf_init(b);
}

int sbuf_grow(struct sbuf *b, size_t more)
{
	if (b->n + more <= b->cap)
		return 0;
	size_t ncap = b->cap ? b->cap : 256;
	while (ncap < b->n + more)
		ncap *= 2;
	char *np = realloc(b->p, ncap);
	if (!np) {
		b->oom = 1;
		return -1;
	}
	b->p = np;
	b->cap = ncap;
	return 0;
}

void sbuf_double(struct sbuf *b, double v, int is_f32)
{
	char tmp[NUMFMT_FLOAT_MAX];
	sbuf_put(b, tmp, numfmt_float(tmp, v, is_f32));
}

/* The nanoseconds of r ticks (r < freq): r * 1e9 / freq, in 64 bits when
 * it fits (any clock below 18 GHz), else in 128. */
static uint32_t frac_ns(uint64_t r, uint64_t freq)
{
	if (r < UINT64_MAX / 1000000000u)
		return (uint32_t)(r * 1000000000u / freq);
	return (uint32_t)((unsigned __int128)r * 1000000000u / freq);
}

/* ticks in whole seconds (c->sec, from the clock) and nanoseconds (freq
 * not 0). */
static uint32_t seconds_of(struct sbuf_clock *c, uint64_t ticks, uint64_t freq)
{
	if (c->freq != freq) {
		c->freq = freq;
		c->mul = 1000000000u % freq == 0 ? (uint32_t)(1000000000u / freq) : 0;
		c->sec = ticks / freq;
		c->start = c->sec * freq;
	}
	uint64_t r = ticks - c->start;
	if (ticks < c->start || r >= freq) { /* another second */
		c->sec = ticks / freq;
		c->start = c->sec * freq;
		r = ticks - c->start;
	}
	return c->mul ? (uint32_t)(r * c->mul) : frac_ns(r, freq);
}

size_t sbuf_seconds_text(struct sbuf_clock *c, char *out, uint64_t ticks, uint64_t freq)
{
	if (!freq)
		return 0;
	uint32_t ns = seconds_of(c, ticks, freq);
	size_t k = numfmt_u64(out, c->sec);
	out[k] = '.';
	numfmt_u64_pad(out + k + 1, ns, 9, '0');
	return k + 10;
}

char *sbuf_seconds_right(char *o, struct sbuf_clock *c, uint64_t ticks, uint64_t freq, int est, unsigned width)
{
	uint32_t ns = seconds_of(c, ticks, freq);
	unsigned nd = numfmt_ndigits(c->sec), len = (unsigned)(est != 0) + nd + 10;
	if (len < width) {
		memset(o, ' ', width - len);
		o += width - len;
	}
	if (est)
		*o++ = '~';
	numfmt_put_digits(o, c->sec, nd);
	o[nd] = '.';
	numfmt_put_digits(o + nd + 1, ns, 9);
	return o + nd + 10;
}

void sbuf_seconds(struct sbuf *b, struct sbuf_clock *c, uint64_t ticks, uint64_t freq)
{
	if (b->n + 32 > b->cap && sbuf_grow(b, 32) != 0)
		return;
	b->n += sbuf_seconds_text(c, b->p + b->n, ticks, freq);
}

/* 1 if none of the n bytes at s is a control byte (below 0x20, or 0x7F):
 * eight at a time, since most names are clean.  A lane flagged wrongly
 * (the borrow of a lower lane) only sends the name to the exact loop. */
static int clean_name(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w = bytes_word(s + i);
		if (bytes_word_below(w, 0x20) | bytes_word_has(w, 0x7F))
			return 0;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
			return 0;
	return 1;
}

void sbuf_name(struct sbuf *b, const char *s)
{
	static const char hx[] = "0123456789abcdef";
	size_t n = strlen(s);
	if (clean_name(s, n)) {
		sbuf_put(b, s, n);
		return;
	}
	const char *run = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != 0x7F)
			continue; /* most names: copied in one piece below */
		sbuf_put(b, run, (size_t)(s - run));
		char e[4] = { '\\', 'x', hx[c >> 4], hx[c & 15] };
		sbuf_put(b, e, 4);
		run = s + 1;
	}
	sbuf_put(b, run, (size_t)(s - run));
}

/* A byte that sbuf_cquote and sbuf_json_str copy as it is. */
static inline int plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

/* How many bytes from s on are plain_ascii: eight at a time while they all
 * are (most strings are plain throughout). */
static size_t plain_prefix(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w = bytes_word(s + i);
		if (bytes_word_high(w) | bytes_word_below(w, 0x20) | bytes_word_has(w, 0x7F) | bytes_word_has(w, '"') |
		    bytes_word_has(w, '\\'))
			break;
	}
	while (i < n && plain_ascii((unsigned char)s[i]))
		i++;
	return i;
}

/* c escaped: \" \\ \n \r \t, else prefix ("\\x" or "\\u00") and two
 * hex digits. */
static void put_escape(struct sbuf *b, unsigned char c, const char *prefix)
{
	static const char hx[] = "0123456789abcdef";
	switch (c) {
	case '"': sbuf_put(b, "\\\"", 2); return;
	case '\\': sbuf_put(b, "\\\\", 2); return;
	case '\n': sbuf_put(b, "\\n", 2); return;
	case '\r': sbuf_put(b, "\\r", 2); return;
	case '\t': sbuf_put(b, "\\t", 2); return;
	default:
		sbuf_str(b, prefix);
		sbuf_char(b, hx[c >> 4]);
		sbuf_char(b, hx[c & 15]);
	}
}

void sbuf_cquote(struct sbuf *b, const char *s, size_t n)
{
	size_t run = 0;
	sbuf_char(b, '"');
	for (size_t i = 0; i < n; i++) {
		i += plain_prefix(s + i, n - i);
		if (i == n)
			break;
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x80)
			continue; /* copied with its run */
		sbuf_put(b, s + run, i - run);
		run = i + 1;
		put_escape(b, c, "\\x");
	}
	sbuf_put(b, s + run, n - run);
	sbuf_char(b, '"');
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t min, cp;
	if (c >= 0xC2 && c <= 0xDF) { len = 2; min = 0x80; cp = c & 0x1F; }
	else if (c >= 0xE0 && c <= 0xEF) { len = 3; min = 0x800; cp = c & 0x0F; }
	else if (c >= 0xF0 && c <= 0xF4) { len = 4; min = 0x10000; cp = c & 0x07; }
	else return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

void sbuf_json_str(struct sbuf *b, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0;
	sbuf_char(b, '"');
	for (size_t i = 0; i < n;) {
		i += plain_prefix(s + i, n - i); /* copied with its run */
		if (i == n)
			break;
		unsigned char c = u[i];
		if (c >= 0x80) {
			size_t l = utf8_len(u + i, n - i);
			if (l) {
				i += l;
				continue;
			}
		}
		sbuf_put(b, s + run, i - run);
		run = i + 1;
		put_escape(b, c, "\\u00");
		i++;
	}
	sbuf_put(b, s + run, n - run);
	sbuf_char(b, '"');
}

static void with_name(struct sbuf *b, const char *name)
{
	if (name) {
		sbuf_char(b, '(');
		sbuf_name(b, name);
		sbuf_char(b, ')');
	}
}

void sbuf_arg_text(struct sbuf *b, const struct sonde_arg *a)
{
	static const char hx[] = "0123456789abcdef";
	switch (a->type) {
	case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64:
		sbuf_u64(b, a->v.u);
		break;
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		sbuf_i64(b, a->v.i);
		break;
	case SONDE_A_F32: case SONDE_A_F64:
		sbuf_double(b, a->v.f, a->type == SONDE_A_F32);
		break;
	case SONDE_A_STR:
		sbuf_cquote(b, (const char *)a->v.mem.p, a->v.mem.n);
		break;
	case SONDE_A_MEM:
		sbuf_char(b, '<');
		for (size_t i = 0; i < a->v.mem.n; i++) {
			char h[3] = { ' ', hx[a->v.mem.p[i] >> 4], hx[a->v.mem.p[i] & 15] };
			sbuf_put(b, i ? h : h + 1, i ? 3 : 2);
		}
		sbuf_char(b, '>');
		break;
	case SONDE_A_OBJ:
		sbuf_u64(b, a->v.u);
		with_name(b, a->resolved);
		break;
	case SONDE_A_FUNC:
		sbuf_hex(b, a->v.u);
		with_name(b, a->resolved);
		break;
	case SONDE_A_ENUM:
		sbuf_u64(b, a->group);
		sbuf_char(b, ':');
		sbuf_u64(b, a->v.u);
		with_name(b, a->resolved);
		break;
	case SONDE_A_HEX:
		sbuf_hex(b, a->v.u);
		break;
	case SONDE_A_BOOL:
		sbuf_str(b, a->v.u ? "true" : "false");
		break;
	default:
		sbuf_char(b, '?');
		break;
	}
}

int sbuf_write(struct sbuf *b, FILE *f)
{
	int rc = 0;
	if (b->n && fwrite(b->p, 1, b->n, f) != b->n)
		rc = -1;
	if (b->oom)
		rc = -1;
	b->n = 0;
	return rc;
}
