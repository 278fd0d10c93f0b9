/*
 * tband_json.c -- the reference dump's JSON rendering of a frame
 * (tband_json.h).
 *
 * Hand-written rather than built on a JSON library: the output must match
 * serde_json's byte for byte (field order, escapes, number forms), and the
 * objects are flat and tiny.
 */
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"
#include "tband_json.h"
#include "util/check.h"

/* The line is written through a cursor with no check per piece: the
 * caller's buffer holds tband_json_size(str_len) bytes, which covers the
 * longest line of any event with a string of that length plus the slack
 * the fixed-size copies below write past its end (checked once per line).
 *
 * A JSON string as serde_json writes it: '"' and '\\' escaped, control
 * characters as \b \t \n \f \r or \u00xx (lower-case hex), everything else
 * (DEL and non-ASCII included) verbatim. */
static char *jc_string(char *o, const uint8_t *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	*o++ = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c != '"' && c != '\\') {
			*o++ = (char)c;
			continue;
		}
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\b': *o++ = 'b'; break;
		case '\t': *o++ = 't'; break;
		case '\n': *o++ = 'n'; break;
		case '\f': *o++ = 'f'; break;
		case '\r': *o++ = 'r'; break;
		default:
			memcpy(o, "u00", 3);
			o[3] = hex[c >> 4];
			o[4] = hex[c & 15];
			o += 5;
			break;
		}
	}
	*o++ = '"';
	return o;
}

/* The constant text of one event's line, in the pieces between its values
 * (the timestamp, then each field):
 *   timed:    piece[0] ts piece[1] v0 piece[2] v1 ... piece[nvals]
 *             {"Base":{"ts":  10  ,"kind":{"IsrEnter":{"isr_id":  0  }}}}
 *   metadata: piece[0] v0 piece[1] v1 ... piece[nvals]
 *             {"BaseMetadata":{"IsrName":{"isr_id":  0  ,"name":  "ISR0"  }}}
 * Built once per event id on first use (the tool decodes on one thread).
 * Each piece is copied as TBAND_JPIECE bytes, whatever its length: a copy
 * of a constant size is a few vector moves where one of a variable size is
 * a call to memcpy, and a line has up to five pieces. */
#define TBAND_JPIECE 64
#define TBAND_JVALS (TBAND_MAX_FIELDS + 1)

struct tband_jfrag {
	uint8_t built;
	uint8_t len[TBAND_JVALS + 1];
	char piece[TBAND_JVALS + 1][TBAND_JPIECE];
};

static struct tband_jfrag tband_jfrags[256];

/* Append a, b, c to piece k (cut to TBAND_JPIECE bytes: the longest piece
 * of the table is 56). */
static void jf_add(struct tband_jfrag *f, unsigned k, const char *a, const char *b, const char *c)
{
	const char *s[3] = { a, b, c };

	for (unsigned i = 0; i < 3; i++) {
		size_t n = strlen(s[i]);

		if (n > (size_t)(TBAND_JPIECE - f->len[k]))
			n = TBAND_JPIECE - f->len[k];
		memcpy(f->piece[k] + f->len[k], s[i], n);
		f->len[k] = (uint8_t)(f->len[k] + n);
	}
}

static const struct tband_jfrag *tband_jfrag_of(const struct tband_evdesc *d)
{
	struct tband_jfrag *f = &tband_jfrags[d->id];
	const char *group = d->group == TBAND_G_BASE ? "Base" : "FreeRTOS";
	unsigned k = 0;

	if (f->built)
		return f;
	if (d->meta) {
		jf_add(f, 0, "{\"", group, "Metadata\":{\"");
		jf_add(f, 0, d->json, "\":{", "");
	} else {
		jf_add(f, 0, "{\"", group, "\":{\"ts\":");
		jf_add(f, ++k, ",\"kind\":{\"", d->json, "\":{");
	}
	for (unsigned i = 0; i < d->nfields; i++) {
		if (i)
			k++;
		jf_add(f, k, i ? ",\"" : "\"", d->f[i].name, "\":");
	}
	jf_add(f, k + 1, d->meta ? "}}}" : "}}}}", "", "");
	f->built = 1;
	return f;
}

/* The timestamp.  From one frame to the next it grows by some hundreds or
 * thousands of ticks, so its digits above the last six are nearly always
 * the previous frame's: those are kept, and a line makes only six digits,
 * three pairs by 32-bit arithmetic, where a 12-digit number would take six
 * 64-bit steps. */
static struct {
	uint64_t hi;  /* ts / 10^6 that 'text' holds; 0: none */
	size_t n;     /* its digits */
	char text[24];
} tband_jts;

static char *jc_ts(char *o, uint64_t ts)
{
	uint64_t hi = ts / 1000000u;
	uint32_t lo = (uint32_t)(ts - hi * 1000000u);

	if (hi == 0)
		return o + numfmt_u64(o, ts);
	if (hi != tband_jts.hi) {
		tband_jts.hi = hi;
		tband_jts.n = numfmt_u64(tband_jts.text, hi);
	}
	memcpy(o, tband_jts.text, sizeof(tband_jts.text)); /* within the number's 24 bytes */
	o += tband_jts.n;
	memcpy(o, numfmt_pairs + 2 * (lo / 10000u), 2);
	memcpy(o + 2, numfmt_pairs + 2 * (lo / 100u % 100u), 2);
	memcpy(o + 4, numfmt_pairs + 2 * (lo % 100u), 2);
	return o + 6;
}

size_t tband_utf8_lossy(const unsigned char *s, size_t n, char *buf)
{
	size_t i = 0, o = 0;

	while (i < n) {
		size_t k = tband_utf8_seq(s + i, n - i);

		if (k) {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(buf + o, "\xEF\xBF\xBD", 3); /* U+FFFD */
			o += 3;
			i++;
		}
	}
	return o;
}

size_t tband_json_size(size_t str_len)
{
	/* The pieces of constant text (TBAND_JVALS + 1 of at most
	 * TBAND_JPIECE bytes, the last copy included), four numbers or
	 * enumerator names of at most 24 bytes, the string's quotes and its
	 * bytes at up to 6 each (\u00xx), the NUL. */
	return (TBAND_JVALS + 1) * TBAND_JPIECE + TBAND_JVALS * 24 + 2 + 6 * str_len + 1;
}

size_t tband_json_render(const struct tband_rec *rec, char *buf, size_t cap)
{
	const struct tband_evdesc *d = rec->desc;
	const struct tband_jfrag *f = tband_jfrag_of(d);
	char *o = buf;
	unsigned k = 0;

	if (cap < tband_json_size(rec->str_len)) {
		if (cap)
			buf[0] = 0;
		return 0;
	}
	memcpy(o, f->piece[0], TBAND_JPIECE);
	o += f->len[0];
	if (!d->meta) {
		o = jc_ts(o, rec->ts);
		k++;
		memcpy(o, f->piece[k], TBAND_JPIECE);
		o += f->len[k];
	}
	for (unsigned i = 0; i < d->nfields; i++) {
		const char *kind;

		if (i) {
			k++;
			memcpy(o, f->piece[k], TBAND_JPIECE);
			o += f->len[k];
		}
		switch (d->f[i].type) {
		case TBAND_F_U8ENUM:
			kind = tband_queue_kind_json(rec->v[i].u);
			if (kind) {
				size_t n = strlen(kind);

				*o++ = '"';
				memcpy(o, kind, n);
				o += n;
				*o++ = '"';
			} else {
				o += numfmt_u64(o, rec->v[i].u);
			}
			break;
		case TBAND_F_U32:
		case TBAND_F_U64:
			/* ids and counts: mostly one digit */
			if (rec->v[i].u < 10)
				*o++ = (char)('0' + rec->v[i].u);
			else
				o += numfmt_u64(o, rec->v[i].u);
			break;
		case TBAND_F_S64:
			o += numfmt_i64(o, rec->v[i].i);
			break;
		case TBAND_F_STR:
			o = jc_string(o, rec->str, rec->str_len);
			break;
		}
	}
	k++;
	memcpy(o, f->piece[k], TBAND_JPIECE);
	o += f->len[k];
	/* written without a room check: tband_json_size() is the room */
	SONDE_ASSERT((size_t)(o - buf) < tband_json_size(rec->str_len));
	*o = 0;
	return (size_t)(o - buf);
}
