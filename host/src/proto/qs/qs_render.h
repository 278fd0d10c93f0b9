/*
 * qs_render.h -- how QSPY 7.4 prints values (objects, functions, signals,
 * hex keys, timestamps) and the line templates of the predefined records
 * (qs_records.c), compiled once into a list of steps.
 *
 * Template conversions, {cN} with N the field index:
 *   {oN} object name   {fN} function name   {uN} decimal   {cN} %010u
 *   {sN} signal name, {sN:M} looked up for the object in field M
 *   {lN} low nibble    {hN} high nibble as 0x%02X          {rN} QS-RX record name
 *   {kN} object-sized hex key   {KN} function-sized hex key
 *   {nN} %08u          {dN} %03u            {zN} the string
 *   {P1} end of the tag: blanks up to column QS_TAG_AT + 8 of the line
 *        (the tag padded to 8 characters after the prefix), then one;
 *        {P0} marks the end of the tag without padding (no detail)
 *
 * The renderers write at a cursor and return the cursor after what they
 * wrote, without bounds checks and without a terminating NUL: the caller
 * makes sure of the room (QS_VALUE_MAX per value, QS_TMPL_MAX per template
 * plus the lengths of its strings) and ends the line.  They may write up
 * to QS_SLACK bytes beyond what they return (whole blocks of a copy).
 */
#ifndef SONDE_QS_RENDER_H
#define SONDE_QS_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/numfmt.h"
#include "qs.h"

#define QS_MAX_FIELDS 8

#define QS_LIT 27     /* literal bytes per step (longer literals take several) */
#define QS_STEPS 12   /* steps per template (the longest needs 10) */
#define QS_SLACK 32   /* bytes a renderer may write beyond its end (>= QS_LIT, QS_NAME_PAD, 2) */
/* The most one value renders: a name (QS_NAME_MAX), a number, an unnamed
 * signal with its object (%08u,Obj=0x + 16 digits). */
#define QS_VALUE_MAX (QS_NAME_MAX + 8)
/* The most a template renders, its strings ({zN}) not counted. */
#define QS_TMPL_MAX (QS_STEPS * (QS_LIT + QS_VALUE_MAX) + QS_SLACK)
/* Column of the tag: after the prefix (a timestamp and a blank, 11 blanks
 * or "===RTC===> "). */
#define QS_TAG_AT 11

/* The fields of one record, as read by qs_records.c. */
struct qs_fields {
	uint64_t v[QS_MAX_FIELDS];
	const uint8_t *s[QS_MAX_FIELDS]; /* strings ('Z') */
	size_t sn[QS_MAX_FIELDS];
	size_t n;                         /* fields read completely */
	/* names looked up while rendering, so that the event's arguments
	 * need not look them up again: nm[i] is the name the last {oN},
	 * {fN} or {sN} conversion of field N found (NULL: none); which of
	 * them the arguments can take is known from the template
	 * (qs_records.c) */
	const char *nm[QS_MAX_FIELDS];
	char *line;                       /* the start of the line ({P} pads from it) */
	/* set by {P}: where the tag ends and the detail starts */
	char *tag_end, *text_at;
};

/* v zero-padded to width digits (%0*llu; width <= 19): numfmt_put_digits
 * writes exactly that many, leading zeros included, when v has no more. */
static inline char *qs_put_zpad(char *o, uint64_t v, unsigned width)
{
	if (v < numfmt_pow10[width]) {
		numfmt_put_digits(o, v, width);
		return o + width;
	}
	return o + numfmt_u64(o, v);
}

/* Five digits of x < 100000, leading zeros included. */
static inline void qs_put5(char *o, uint32_t x)
{
	memcpy(o, numfmt_pairs + 2 * (x / 1000), 2);
	memcpy(o + 2, numfmt_pairs + 2 * (x / 10 % 100), 2);
	o[4] = (char)('0' + x % 10);
}

/* The prefix of a line: the 10-digit timestamp + blank, or 11 blanks.
 * Every line of a timed record starts with one: its two halves of five
 * digits are worked out side by side rather than two digits after two
 * (QS timestamps have at most 4 bytes: below 10^10). */
static inline char *qs_put_prefix(char *o, int has_ts, uint64_t raw_ts)
{
	if (has_ts && raw_ts <= UINT32_MAX) {
		uint32_t hi = (uint32_t)raw_ts / 100000u;
		qs_put5(o, hi);
		qs_put5(o + 5, (uint32_t)raw_ts - hi * 100000u);
		o[10] = ' ';
		return o + 11;
	}
	if (has_ts) {
		o = qs_put_zpad(o, raw_ts, 10);
		*o++ = ' ';
		return o;
	}
	memcpy(o, "           ", 11);
	return o + 11;
}
/* 0x + 8 or 16 upper-case hex digits (size = the field's bytes). */
char *qs_put_hex(char *o, uint64_t v, unsigned size);
/* Object / function / signal as QSPY prints them: the dictionary name,
 * else NULL or the hex value (signals: %08u,Obj=<hex>).  *name is the
 * name they found (NULL if none). */
char *qs_put_obj(struct qs_dec *d, char *o, uint64_t obj, const char **name);
char *qs_put_fun(struct qs_dec *d, char *o, uint64_t fun, const char **name);
char *qs_put_sig(struct qs_dec *d, char *o, uint64_t sig, uint64_t obj, const char **name);

/* printf's "%*.*e" (width, prec <= 15) of v, the same characters, into
 * the room bytes at o (NUL-terminated only where printf does it: when
 * it does the work). */
char *qs_put_e(char *o, size_t room, double v, unsigned prec, unsigned width);

struct qs_step {
	char lit[QS_LIT]; /* copied as a whole: the line has room to spare */
	uint8_t lit_n;
	char conv;        /* 0: the literal only */
	uint8_t field;
	uint8_t ctx;      /* signal context: field + 1, 0 = none */
};

struct qs_tmpl {
	uint8_t nsteps;
	uint8_t plain;    /* no conversion: prints as it is */
	struct qs_step step[QS_STEPS];
};

/* Compile a template; -1 if it needs more than QS_STEPS steps (a bug of
 * the table: the tests compile every row). */
int qs_tmpl_compile(struct qs_tmpl *t, const char *text);
/* Render the template with the fields' values at o; returns the end. */
char *qs_render(struct qs_dec *d, char *o, const struct qs_tmpl *t, struct qs_fields *fl);

#endif /* SONDE_QS_RENDER_H */
