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

/* A bounded append buffer; the caller sizes it with tband_json_size(), so
 * running out of room means a bug, and we cut rather than overflow. */
struct tband_jbuf {
	char *p;
	size_t n, cap;
};

static void jb_mem(struct tband_jbuf *b, const char *s, size_t n)
{
	if (b->n + n >= b->cap)
		n = b->cap - 1 - b->n;
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void jb_u64(struct tband_jbuf *b, uint64_t v)
{
	char t[24];
	jb_mem(b, t, numfmt_u64(t, v));
}

static void jb_i64(struct tband_jbuf *b, int64_t v)
{
	char t[24];
	jb_mem(b, t, numfmt_i64(t, v));
}

/* A JSON string as serde_json writes it: '"' and '\\' escaped, control
 * characters as \b \t \n \f \r or \u00xx (lower-case hex), everything else
 * (DEL and non-ASCII included) verbatim.  Runs of plain bytes are copied
 * at once. */
static void jb_json_string(struct tband_jbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	jb_mem(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[6] = { '\\', 0, '0', '0', 0, 0 };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		jb_mem(b, s + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\') {
			e[1] = (char)c;
			jb_mem(b, e, 2);
			continue;
		}
		switch (c) {
		case '\b': e[1] = 'b'; break;
		case '\t': e[1] = 't'; break;
		case '\n': e[1] = 'n'; break;
		case '\f': e[1] = 'f'; break;
		case '\r': e[1] = 'r'; break;
		default: break;
		}
		if (e[1]) {
			jb_mem(b, e, 2);
		} else {
			e[1] = 'u';
			e[4] = hex[c >> 4];
			e[5] = hex[c & 15];
			jb_mem(b, e, 6);
		}
	}
	jb_mem(b, s + run, n - run);
	jb_mem(b, "\"", 1);
}

/* The constant text of one event's line, around its values:
 *   timed:    head ts kind field[0] v0 field[1] v1 ... tail
 *             {"Base":{"ts":  10  ,"kind":{"IsrEnter":{  "isr_id":  0  }}}}
 *   metadata: head field[0] v0 ... tail   ('kind' empty)
 *             {"BaseMetadata":{"IsrName":{  "isr_id":  0  ,"name":  "ISR0"  }}}
 * Built once per event id on first use (the tool decodes on one thread),
 * so a line is a handful of copies and numbers. */
struct tband_jfrag {
	uint8_t built;
	uint8_t head_n, kind_n, tail_n;
	uint8_t field_n[TBAND_MAX_FIELDS];
	char head[64];
	char kind[64];
	char field[TBAND_MAX_FIELDS][40];
	char tail[8];
};

static struct tband_jfrag tband_jfrags[256];

static uint8_t jf_set(char *dst, size_t cap, const char *a, const char *b, const char *c)
{
	int k = snprintf(dst, cap, "%s%s%s", a, b, c);
	return (uint8_t)(k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1);
}

static const struct tband_jfrag *tband_jfrag_of(const struct tband_evdesc *d)
{
	struct tband_jfrag *f = &tband_jfrags[d->id];
	const char *group = d->group == TBAND_G_BASE ? "Base" : "FreeRTOS";

	if (f->built)
		return f;
	if (d->meta) {
		char g[24];

		snprintf(g, sizeof(g), "%sMetadata", group);
		f->head_n = jf_set(f->head, sizeof(f->head), "{\"", g, "\":{\"");
		f->head_n = (uint8_t)(f->head_n +
			jf_set(f->head + f->head_n, sizeof(f->head) - f->head_n, d->json, "\":{", ""));
		f->kind_n = 0;
		f->tail_n = jf_set(f->tail, sizeof(f->tail), "}}}", "", "");
	} else {
		f->head_n = jf_set(f->head, sizeof(f->head), "{\"", group, "\":{\"ts\":");
		f->kind_n = jf_set(f->kind, sizeof(f->kind), ",\"kind\":{\"", d->json, "\":{");
		f->tail_n = jf_set(f->tail, sizeof(f->tail), "}}}}", "", "");
	}
	for (unsigned i = 0; i < d->nfields; i++)
		f->field_n[i] = jf_set(f->field[i], sizeof(f->field[i]), i ? ",\"" : "\"",
				       d->f[i].name, "\":");
	f->built = 1;
	return f;
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

size_t tband_json_size(size_t frame_len)
{
	/* Fixed text (group, variant and field names, ts) is well under 256
	 * bytes; a string byte costs at most 6 (\u00xx) and an invalid one 3
	 * (U+FFFD); numbers are shorter than the bytes they were coded in
	 * plus 20. */
	return 256 + 3 * 20 + 6 * frame_len;
}

size_t tband_json_render(const struct tband_rec *rec, char *buf, size_t cap)
{
	const struct tband_evdesc *d = rec->desc;
	const struct tband_jfrag *f = tband_jfrag_of(d);
	struct tband_jbuf b = { buf, 0, cap };

	jb_mem(&b, f->head, f->head_n);
	if (!d->meta) {
		jb_u64(&b, rec->ts);
		jb_mem(&b, f->kind, f->kind_n);
	}
	for (unsigned i = 0; i < d->nfields; i++) {
		const char *kind;

		jb_mem(&b, f->field[i], f->field_n[i]);
		switch (d->f[i].type) {
		case TBAND_F_U8ENUM:
			kind = tband_queue_kind_json(rec->v[i].u);
			if (kind) {
				jb_mem(&b, "\"", 1);
				jb_mem(&b, kind, strlen(kind));
				jb_mem(&b, "\"", 1);
			} else {
				jb_u64(&b, rec->v[i].u);
			}
			break;
		case TBAND_F_U32:
		case TBAND_F_U64:
			jb_u64(&b, rec->v[i].u);
			break;
		case TBAND_F_S64:
			jb_i64(&b, rec->v[i].i);
			break;
		case TBAND_F_STR:
			jb_json_string(&b, (const char *)rec->str, rec->str_len);
			break;
		}
	}
	jb_mem(&b, f->tail, f->tail_n);
	buf[b.n] = 0;
	return b.n;
}
