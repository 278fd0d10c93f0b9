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
 */
#ifndef SONDE_QS_RENDER_H
#define SONDE_QS_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "qs.h"

#define QS_MAX_FIELDS 8

/* The fields of one record, as read by qs_records.c. */
struct qs_fields {
	uint64_t v[QS_MAX_FIELDS];
	const uint8_t *s[QS_MAX_FIELDS]; /* strings ('Z') */
	size_t sn[QS_MAX_FIELDS];
	size_t n;                         /* fields read completely */
	/* names looked up while rendering, so that the event's arguments
	 * need not look them up again: bit i of 'named' says nm[i] is the
	 * name conversion nm_conv[i] ('o', 'f' or 's' with signal context
	 * nm_ctx[i]) found for field i */
	const char *nm[QS_MAX_FIELDS];
	uint64_t nm_ctx[QS_MAX_FIELDS];
	char nm_conv[QS_MAX_FIELDS];
	unsigned named;
};

/* Start the line: the 10-digit timestamp + blank, or 11 blanks. */
void qs_put_prefix(struct qs_line *l, int has_ts, uint64_t raw_ts);
/* 0x + 8 or 16 upper-case hex digits (size = the field's bytes). */
void qs_put_hex(struct qs_line *l, uint64_t v, unsigned size);
/* Object / function / signal as QSPY prints them: the dictionary name,
 * else NULL or the hex value (signals: %08u,Obj=<hex>).  They return the
 * name they found (NULL if none). */
const char *qs_put_obj(struct qs_dec *d, struct qs_line *l, uint64_t obj);
const char *qs_put_fun(struct qs_dec *d, struct qs_line *l, uint64_t fun);
const char *qs_put_sig(struct qs_dec *d, struct qs_line *l, uint64_t sig, uint64_t obj);

struct qs_tmpl;
/* The compiled form of a template (a string literal of qs_records.c: the
 * compiled form is kept per address, built on first use). */
const struct qs_tmpl *qs_tmpl_of(const char *text);
/* Its text has no conversion: it prints as it is. */
int qs_tmpl_is_plain(const struct qs_tmpl *t);
/* Append the template with the fields' values. */
void qs_render(struct qs_dec *d, struct qs_line *l, const struct qs_tmpl *t, struct qs_fields *fl);

#endif /* SONDE_QS_RENDER_H */
