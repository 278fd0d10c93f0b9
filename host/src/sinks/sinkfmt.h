/*
 * sinkfmt.h -- building blocks shared by the text, JSONL and CSV sinks: a
 * growable line buffer and the renderings of timestamps, numbers, strings
 * and arguments, so that the three formats show every value the same way.
 */
#ifndef SONDE_SINKFMT_H
#define SONDE_SINKFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"
#include "event.h"
#include "util/bytes.h"
#include "util/check.h"

struct sbuf {
	char *p;
	size_t n, cap;
	int oom;  /* an allocation failed: output is incomplete */
};

void sbuf_init(struct sbuf *b);
void sbuf_free(struct sbuf *b);
static inline void sbuf_reset(struct sbuf *b) { b->n = 0; }
/* Make room for more bytes (the slow path of the inline writers); -1 when
 * out of memory (b->oom set, the output is cut). */
int sbuf_grow(struct sbuf *b, size_t more);

/* The writers are inline: sinks call them several times per field, and
 * strlen of a literal folds away. */
static inline void sbuf_put(struct sbuf *b, const char *s, size_t n)
{
	if (n == 0 || (b->n + n > b->cap && sbuf_grow(b, n) != 0))
		return;
	bytes_copy_short(b->p + b->n, s, n);
	b->n += n;
}

static inline void sbuf_str(struct sbuf *b, const char *s)
{
	sbuf_put(b, s, strlen(s));
}

static inline void sbuf_char(struct sbuf *b, char c)
{
	if (b->n + 1 > b->cap && sbuf_grow(b, 1) != 0)
		return;
	b->p[b->n++] = c;
}

/* A run of writes whose total is bounded (the numbers and keys that begin
 * every line): room for 'more' bytes is made once, the pieces are written
 * through a cursor, and sbuf_commit ends the run at the cursor.  Besides
 * the one check instead of one per piece, the cursor stays in a register:
 * after a store through b->p the compiler must assume b->n changed and
 * load it again.  NULL when out of memory (b->oom set, the output is cut). */
static inline char *sbuf_reserve(struct sbuf *b, size_t more)
{
	if (b->n + more > b->cap && sbuf_grow(b, more) != 0)
		return NULL;
	return b->p + b->n;
}

static inline void sbuf_commit(struct sbuf *b, const char *end)
{
	SONDE_ASSERT(end >= b->p + b->n && end <= b->p + b->cap); /* within what was reserved */
	b->n = (size_t)(end - b->p);
}

/* s (a literal: its strlen folds away) at the cursor o; returns the new
 * cursor. */
static inline char *sbuf_cat(char *o, const char *s)
{
	size_t n = strlen(s);
	memcpy(o, s, n);
	return o + n;
}
/* Numbers are written straight into the buffer (core/numfmt.h): every
 * event has several. */
static inline void sbuf_u64(struct sbuf *b, uint64_t v)
{
	if (b->n + 24 > b->cap && sbuf_grow(b, 24) != 0)
		return;
	b->n += numfmt_u64(b->p + b->n, v);
}

static inline void sbuf_i64(struct sbuf *b, int64_t v)
{
	if (b->n + 24 > b->cap && sbuf_grow(b, 24) != 0)
		return;
	b->n += numfmt_i64(b->p + b->n, v);
}

/* Unsigned decimal right-aligned in width characters (blanks). */
static inline void sbuf_u64_pad(struct sbuf *b, uint64_t v, unsigned width)
{
	if (b->n + 24 + width > b->cap && sbuf_grow(b, 24 + width) != 0)
		return;
	b->n += numfmt_u64_pad(b->p + b->n, v, width, ' ');
}

static inline void sbuf_hex(struct sbuf *b, uint64_t v) /* 0x... */
{
	if (b->n + 20 > b->cap && sbuf_grow(b, 20) != 0)
		return;
	b->p[b->n++] = '0';
	b->p[b->n++] = 'x';
	b->n += numfmt_hex(b->p + b->n, v, 1, 0);
}
/* Shortest decimal that reads back as the same float/double; "nan",
 * "inf", "-inf" for the non-finite ones. */
void sbuf_double(struct sbuf *b, double v, int is_f32);
/* What sbuf_seconds remembers between calls (a sink keeps one, zeroed):
 * the second the last time fell in, so that the times of a trace, which
 * mostly move forwards by less than a second, cost no 64-bit division. */
struct sbuf_clock {
	uint64_t freq;  /* the clock these are for, 0 = none yet */
	uint64_t start; /* first tick of second 'sec' */
	uint64_t sec;
	uint32_t mul;   /* 1e9 / freq when freq divides 1e9, else 0 */
};
/* ticks / freq with nine decimals, exact ("12.000034500"), into out (room
 * for 32); returns the characters written. */
size_t sbuf_seconds_text(struct sbuf_clock *c, char *out, uint64_t ticks, uint64_t freq);
/* The same into b. */
void sbuf_seconds(struct sbuf *b, struct sbuf_clock *c, uint64_t ticks, uint64_t freq);
/* The same (freq not 0), after a '~' when est, right-aligned in width
 * characters with blanks, at the cursor o (sbuf_reserve; room for width
 * or 31, whichever is more) of a text column; returns the new cursor. */
char *sbuf_seconds_right(char *o, struct sbuf_clock *c, uint64_t ticks, uint64_t freq, int est, unsigned width);
/* A name as it is, but with control bytes as \xHH, so that a name from
 * the wire cannot break a line. */
void sbuf_name(struct sbuf *b, const char *s);
/* "..." with C escapes for quotes, backslashes and control bytes. */
void sbuf_cquote(struct sbuf *b, const char *s, size_t n);
/* A JSON string: valid UTF-8 passes, other bytes become \u00XX. */
void sbuf_json_str(struct sbuf *b, const char *s, size_t n);
/* An argument's value as text: 42, -1, 2.5, "str", <de ad>, 3(Idle),
 * 0x8000124(main), 1:2(RED), true. */
void sbuf_arg_text(struct sbuf *b, const struct sonde_arg *a);
/* Write the buffer to f and empty it; -1 on a write error. */
int sbuf_write(struct sbuf *b, FILE *f);

/* Sinks collect many lines in their buffer and hand them to stdio in
 * pieces of this size: one write(2) per piece instead of one per 4 KiB
 * stdio buffer, and no stdio call per line.  A sink's flush op (pipeline.h)
 * writes out the rest for live views. */
#define SBUF_SPILL (128u * 1024u)

/* sbuf_write once the buffer holds SBUF_SPILL bytes; 0 otherwise. */
static inline int sbuf_spill(struct sbuf *b, FILE *f)
{
	return b->n < SBUF_SPILL ? 0 : sbuf_write(b, f);
}

#endif /* SONDE_SINKFMT_H */
