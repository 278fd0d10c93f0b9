/*
 * qs_render.c -- QSPY's renderings of values and the compiled line
 * templates (qs_render.h).
 *
 * A template is parsed once into steps, each "copy this literal, then
 * convert field N": rendering a record is then a few copies and lookups,
 * without scanning the template's text for braces on every record.  The
 * compiled forms live in a small table keyed by the template's address
 * (the templates are string literals); the tool decodes on one thread.
 */
#include <stdio.h>
#include <string.h>

#include "qs_render.h"

static const char *const rx_names[17] = {
	"INFO", "COMMAND", "RESET", "TICK", "PEEK", "POKE", "FILL", "TEST_SETUP",
	"TEST_TEARDOWN", "TEST_PROBE", "GLB_FILTER", "LOC_FILTER", "AO_FILTER",
	"CURR_OBJ", "TEST_CONTINUE", "QUERY_CURR", "EVENT",
};

/* ---- values ------------------------------------------------------------ */

void qs_put_prefix(struct qs_line *l, int has_ts, uint64_t raw_ts)
{
	qs_line_reset(l);
	if (has_ts) {
		qs_line_uint(l, raw_ts, 10, '0');
		qs_line_putn(l, " ", 1);
	} else {
		qs_line_putn(l, "           ", 11);
	}
}

void qs_put_hex(struct qs_line *l, uint64_t v, unsigned size)
{
	char tmp[20] = { '0', 'x' };
	size_t n = size <= 4 ? numfmt_hex(tmp + 2, v & 0xFFFFFFFFu, 8, 1) : numfmt_hex(tmp + 2, v, 16, 1);
	qs_line_putn(l, tmp, 2 + n);
}

/* A pointer as QSPY's dictionaries print it (key size ksize): the name,
 * NULL for 0 (keys of 4 bytes or more), %03u for 1-byte keys, else hex of
 * 8 or 16 digits. */
static const char *put_ptr(struct qs_line *l, const char *name, uint64_t v, unsigned ksize)
{
	if (name)
		qs_line_puts(l, name);
	else if (v == 0 && ksize >= 4)
		qs_line_putn(l, "NULL", 4);
	else if (ksize <= 1)
		qs_line_uint(l, v & 0xFFFFFFFFu, 3, '0');
	else
		qs_put_hex(l, v, ksize);
	return name;
}

const char *qs_put_obj(struct qs_dec *d, struct qs_line *l, uint64_t obj)
{
	return put_ptr(l, qs_map_get(&d->dict.obj, obj, 0), obj, d->key_obj);
}

const char *qs_put_fun(struct qs_dec *d, struct qs_line *l, uint64_t fun)
{
	return put_ptr(l, qs_map_get(&d->dict.fun, fun, 0), fun, d->key_fun);
}

const char *qs_put_sig(struct qs_dec *d, struct qs_line *l, uint64_t sig, uint64_t obj)
{
	if (sig == 0) { /* QSPY's signal dictionary shows signal 0 as NULL */
		qs_line_putn(l, "NULL", 4);
		return NULL;
	}
	const char *name = qs_dict_sig(&d->dict, sig, obj);
	if (name) {
		qs_line_puts(l, name);
		return name;
	}
	qs_line_uint(l, sig, 8, '0');
	qs_line_putn(l, ",Obj=", 5);
	qs_put_hex(l, obj, d->key_sig);
	return NULL;
}

static void put_rx(struct qs_line *l, uint64_t v)
{
	unsigned code = (unsigned)v & 0x7Fu;
	if (code < 17) {
		qs_line_putn(l, "QS_RX_", 6);
		qs_line_puts(l, rx_names[code]);
	} else {
		qs_line_putn(l, "0x", 2);
		qs_line_hex(l, code, 2);
	}
}

/* ---- templates ------------------------------------------------------------ */

#define QS_LIT 27      /* literal bytes per step (longer literals take several) */
#define QS_STEPS 16    /* steps per template (the longest needs 8) */
#define QS_TMPLS 256   /* slots of the table (about 130 templates exist) */

struct qs_step {
	char lit[QS_LIT];  /* copied as a whole: the line has room to spare */
	uint8_t lit_n;
	char conv;         /* 0: the literal only */
	uint8_t field;
	uint8_t ctx;       /* signal context: field + 1, 0 = none */
	uint8_t pad;
};

struct qs_tmpl {
	const char *text;  /* NULL: free slot */
	uint8_t nsteps;
	uint8_t plain;
	struct qs_step step[QS_STEPS];
};

static struct qs_tmpl qs_tmpls[QS_TMPLS];

static struct qs_step *add_literal(struct qs_tmpl *t, const char *s, size_t n)
{
	struct qs_step *st = NULL;
	do {
		if (t->nsteps == QS_STEPS)
			return NULL;
		st = &t->step[t->nsteps++];
		size_t k = n < QS_LIT ? n : QS_LIT;
		memcpy(st->lit, s, k);
		st->lit_n = (uint8_t)k;
		s += k;
		n -= k;
	} while (n);
	return st;
}

static void compile(struct qs_tmpl *t, const char *text)
{
	const char *p = text;
	t->text = text;
	t->nsteps = 0;
	t->plain = strchr(text, '{') == NULL;
	while (*p) {
		const char *brace = strchr(p, '{');
		size_t n = brace ? (size_t)(brace - p) : strlen(p);
		struct qs_step *st = add_literal(t, p, n);
		if (!brace || !st)
			return;
		st->conv = brace[1];
		st->field = (uint8_t)((unsigned)(brace[2] - '0') % QS_MAX_FIELDS);
		p = brace + 3;
		if (*p == ':') {
			st->ctx = (uint8_t)(1 + (unsigned)(p[1] - '0') % QS_MAX_FIELDS);
			p += 2;
		}
		if (*p == '}')
			p++;
	}
}

const struct qs_tmpl *qs_tmpl_of(const char *text)
{
	size_t i = ((uintptr_t)text >> 3) * 0x9E3779B97F4A7C15ull >> 56;
	for (size_t k = 0; k < QS_TMPLS; k++, i = (i + 1) % QS_TMPLS) {
		struct qs_tmpl *t = &qs_tmpls[i];
		if (t->text == text)
			return t;
		if (!t->text) {
			compile(t, text);
			return t;
		}
	}
	return NULL; /* not reached: there are fewer templates than slots */
}

int qs_tmpl_is_plain(const struct qs_tmpl *t)
{
	return t->plain;
}

static void note(struct qs_fields *fl, unsigned i, char conv, const char *name, uint64_t ctx)
{
	fl->nm[i] = name;
	fl->nm_conv[i] = conv;
	fl->nm_ctx[i] = ctx;
	fl->named |= 1u << i;
}

void qs_render(struct qs_dec *d, struct qs_line *l, const struct qs_tmpl *t, struct qs_fields *fl)
{
	for (unsigned k = 0; k < t->nsteps; k++) {
		const struct qs_step *st = &t->step[k];
		if (l->len + sizeof(st->lit) < l->cap) {
			memcpy(l->buf + l->len, st->lit, sizeof(st->lit));
			l->len += st->lit_n;
			l->buf[l->len] = '\0';
		} else {
			qs_line_putn(l, st->lit, st->lit_n);
		}
		unsigned i = st->field;
		uint64_t v = fl->v[i];
		uint64_t ctx = st->ctx ? fl->v[st->ctx - 1] : 0;
		switch (st->conv) {
		case 0: break;
		case 'o': note(fl, i, 'o', qs_put_obj(d, l, v), 0); break;
		case 'f': note(fl, i, 'f', qs_put_fun(d, l, v), 0); break;
		case 's': note(fl, i, 's', qs_put_sig(d, l, v, ctx), ctx); break;
		case 'u': qs_line_uint(l, v, 0, ' '); break;
		case 'c': qs_line_uint(l, v, 10, '0'); break;
		case 'l': qs_line_uint(l, v & 0x0Fu, 0, ' '); break;
		case 'h':
			qs_line_putn(l, "0x", 2);
			qs_line_hex(l, v & 0xF0u, 2);
			break;
		case 'r': put_rx(l, v); break;
		case 'k': qs_put_hex(l, v, d->sz.obj); break;
		case 'K': qs_put_hex(l, v, d->sz.fun); break;
		case 'n': qs_line_uint(l, v, 8, '0'); break;
		case 'd': qs_line_uint(l, v, 3, '0'); break;
		case 'z': /* QSPY shows an empty string as '' */
			if (fl->sn[i])
				qs_line_putn(l, (const char *)fl->s[i], fl->sn[i]);
			else
				qs_line_putn(l, "''", 2);
			break;
		default: break;
		}
	}
}
