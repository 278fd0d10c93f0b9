/*
 * tband_json.c -- the reference dump's JSON rendering of a frame
 * (tband_json.h).
 *
 * Hand-written rather than built on a JSON library: the output must match
 * serde_json's byte for byte (field order, escapes, number forms), and the
 * objects are flat and tiny.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
	b->p[b->n] = 0;
}

static void jb_str(struct tband_jbuf *b, const char *s)
{
	jb_mem(b, s, strlen(s));
}

static void jb_fmt_u(struct tband_jbuf *b, uint64_t v)
{
	char t[24];
	int k = snprintf(t, sizeof(t), "%" PRIu64, v);

	jb_mem(b, t, (size_t)k);
}

static void jb_fmt_i(struct tband_jbuf *b, int64_t v)
{
	char t[24];
	int k = snprintf(t, sizeof(t), "%" PRId64, v);

	jb_mem(b, t, (size_t)k);
}

/* A JSON string as serde_json writes it: '"' and '\\' escaped, control
 * characters as \b \t \n \f \r or \u00xx (lower-case hex), everything else
 * (DEL and non-ASCII included) verbatim. */
static void jb_json_string(struct tband_jbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	jb_mem(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[6] = { '\\', 0, '0', '0', 0, 0 };

		if (c == '"' || c == '\\') {
			e[1] = (char)c;
			jb_mem(b, e, 2);
		} else if (c < 0x20) {
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
		} else {
			jb_mem(b, (const char *)&s[i], 1);
		}
	}
	jb_mem(b, "\"", 1);
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
	const char *group = d->group == TBAND_G_BASE ? "Base" : "FreeRTOS";
	struct tband_jbuf b = { buf, 0, cap };

	buf[0] = 0;
	jb_str(&b, "{\"");
	jb_str(&b, group);
	if (d->meta) {
		jb_str(&b, "Metadata\":{\"");
	} else {
		jb_str(&b, "\":{\"ts\":");
		jb_fmt_u(&b, rec->ts);
		jb_str(&b, ",\"kind\":{\"");
	}
	jb_str(&b, d->json);
	jb_str(&b, "\":{");
	for (unsigned i = 0; i < d->nfields; i++) {
		const struct tband_field *f = &d->f[i];
		const char *kind;

		if (i)
			jb_str(&b, ",");
		jb_str(&b, "\"");
		jb_str(&b, f->name);
		jb_str(&b, "\":");
		switch (f->type) {
		case TBAND_F_U8ENUM:
			kind = tband_queue_kind_json(rec->v[i].u);
			if (kind) {
				jb_str(&b, "\"");
				jb_str(&b, kind);
				jb_str(&b, "\"");
			} else {
				jb_fmt_u(&b, rec->v[i].u);
			}
			break;
		case TBAND_F_U32:
		case TBAND_F_U64:
			jb_fmt_u(&b, rec->v[i].u);
			break;
		case TBAND_F_S64:
			jb_fmt_i(&b, rec->v[i].i);
			break;
		case TBAND_F_STR:
			jb_json_string(&b, (const char *)rec->str, rec->str_len);
			break;
		}
	}
	jb_str(&b, d->meta ? "}}}" : "}}}}");
	return b.n;
}
