/*
 * qs_user.c -- application records (ids 100..124, and 125..127 should a
 * target send them): a timestamp, then arguments each led by a format byte
 * whose low nibble is the type and high nibble a width (0xF = hexadecimal).
 *
 * The renderings follow QSPY 7.4 exactly, quirks included, because the
 * qspy output must match it: I8 widths are lost on the target (the format
 * byte of an I8 always has width 0), F32/F64 use %e with width w+8 and
 * precision w (w = 0: %7.0e), I64/U64 use a width of 2w+2 (none for w = 9),
 * a U64 in hex is padded with blanks ("0x 123456789ABCDEF"), an empty string
 * prints as '', a memory dump as " %02X" per byte, an unknown enum as %03u.
 */
#include <stdio.h>
#include <string.h>

#include "qs.h"
#include "qs_render.h"

enum {
	QS_I8_ENUM_T = 0, QS_U8_T, QS_I16_T, QS_U16_T, QS_I32_T, QS_U32_T, QS_F32_T, QS_F64_T,
	QS_STR_T, QS_MEM_T, QS_SIG_T, QS_OBJ_T, QS_FUN_T, QS_I64_T, QS_U64_T, QS_HEX_T
};

#define QS_HEX_FMT 0x0Fu /* width nibble meaning "hexadecimal" */
/* The most one argument prints, strings and memory dumps aside (which
 * print at most three characters per payload byte): a signal's name and
 * its object's (QS_VALUE_MAX each), a float or a 64-bit integer (~40). */
#define QS_USER_ARG_ROOM (2 * QS_VALUE_MAX + 64)

static int64_t sign_extend(uint64_t v, unsigned size)
{
	unsigned shift = 64 - 8 * size;
	return (int64_t)(v << shift) >> shift;
}

/* v right-aligned in width characters, padded with blanks (%*lld). */
static char *put_int(char *o, int64_t v, unsigned width)
{
	char tmp[24];
	size_t n = numfmt_i64(tmp, v);
	if (n < width) {
		memset(o, ' ', width - n);
		o += width - n;
	}
	memcpy(o, tmp, n);
	return o + n;
}

/* The width QSPY gives an integer of size bytes with width nibble w:
 * w, and for 64-bit values 2w+2, none for w = 9. */
static unsigned int_width(unsigned size, unsigned w)
{
	return size < 8 ? w : w == 9 ? 0 : 2 * w + 2;
}

static char *put_signed(struct qs_dec *d, struct qs_rd *r, char *o, unsigned size, unsigned w)
{
	enum sonde_arg_type t;
	const char *what;
	switch (size) {
	case 1: t = SONDE_A_I8; what = "int8_t"; break;
	case 2: t = SONDE_A_I16; what = "int16_t"; break;
	case 4: t = SONDE_A_I32; what = "int32_t"; break;
	default: t = SONDE_A_I64; what = "int64_t"; break;
	}
	int64_t v = sign_extend(qs_rd_uint(r, size, what), size);
	if (r->missing)
		return o;
	struct sonde_arg *a = qs_arg(d, t, NULL);
	if (a)
		a->v.i = v;
	return put_int(o, v, int_width(size, w));
}

static char *put_unsigned(struct qs_dec *d, struct qs_rd *r, char *o, unsigned size, unsigned w)
{
	uint64_t v = qs_rd_uint(r, size, NULL);
	if (r->missing)
		return o;
	enum sonde_arg_type t = size == 1 ? SONDE_A_U8 : size == 2 ? SONDE_A_U16 :
				size == 4 ? SONDE_A_U32 : SONDE_A_U64;
	if (w == QS_HEX_FMT)
		t = SONDE_A_HEX;
	struct sonde_arg *a = qs_arg(d, t, NULL);
	if (a)
		a->v.u = v;
	if (w != QS_HEX_FMT)
		return o + numfmt_u64_pad(o, v, int_width(size, w), ' ');
	memcpy(o, "0x", 2);
	o += 2;
	if (size < 8)
		return o + numfmt_hex(o, v, 2 * size, 1);
	/* QSPY's 0x%16llX: blank-padded */
	char tmp[16];
	size_t n = numfmt_hex(tmp, v, 1, 1);
	memset(o, ' ', 16 - n);
	memcpy(o + 16 - n, tmp, n);
	return o + 16;
}

static char *put_float(struct qs_dec *d, struct qs_rd *r, char *o, size_t room, unsigned size, unsigned w)
{
	uint64_t bits = qs_rd_uint(r, size, size == 4 ? "float" : "double");
	if (r->missing)
		return o;
	double v;
	if (size == 4) {
		uint32_t b32 = (uint32_t)bits;
		float f;
		memcpy(&f, &b32, sizeof(f));
		v = f;
	} else {
		memcpy(&v, &bits, sizeof(v));
	}
	struct sonde_arg *a = qs_arg(d, size == 4 ? SONDE_A_F32 : SONDE_A_F64, NULL);
	if (a)
		a->v.f = v;
	return qs_put_e(o, room, v, w, w == 0 ? 7 : w + 8); /* QSPY: %7.0e, or %*.*e with w + 8, w */
}

static char *put_enum(struct qs_dec *d, struct qs_rd *r, char *o, unsigned group)
{
	uint64_t v = qs_rd_uint(r, 1, "enum");
	if (r->missing)
		return o;
	const struct qs_map_ent *e = qs_map_find(&d->dict.enm, v, group);
	struct sonde_arg *a = qs_arg(d, SONDE_A_ENUM, NULL);
	if (a) {
		a->v.u = v;
		a->group = group;
		a->resolved = e ? e->name : NULL;
	}
	if (!e)
		return o + numfmt_u64_pad(o, v, 3, '0');
	memcpy(o, e->name, e->len);
	return o + e->len;
}

static char *put_str(struct qs_dec *d, struct qs_rd *r, char *o)
{
	size_t n;
	const uint8_t *s = qs_rd_str(r, &n);
	if (r->missing)
		return o;
	struct sonde_arg *a = qs_arg(d, SONDE_A_STR, NULL);
	if (a) {
		a->v.mem.p = s;
		a->v.mem.n = n;
	}
	if (n == 0) {
		memcpy(o, "''", 2);
		return o + 2;
	}
	memcpy(o, s, n);
	return o + n;
}

static char *put_mem(struct qs_dec *d, struct qs_rd *r, char *o)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = (size_t)qs_rd_uint(r, 1, "uint8_t");
	if (r->missing)
		return o;
	if (n > r->n - r->pos) {
		r->missing = n - (r->n - r->pos);
		r->what = "memory-dump";
		return o;
	}
	const uint8_t *p = r->p + r->pos;
	r->pos += n;
	struct sonde_arg *a = qs_arg(d, SONDE_A_MEM, NULL);
	if (a) {
		a->v.mem.p = p;
		a->v.mem.n = n;
	}
	for (size_t i = 0; i < n; i++, o += 3) { /* " %02X" each */
		o[0] = ' ';
		o[1] = hex[p[i] >> 4];
		o[2] = hex[p[i] & 0x0Fu];
	}
	return o;
}

/* SIG: the signal, then (without a format byte) the object it belongs to. */
static char *put_sig(struct qs_dec *d, struct qs_rd *r, char *o)
{
	uint64_t sig = qs_rd_uint(r, d->sz.sig, "signal");
	uint64_t obj = qs_rd_uint(r, d->sz.obj, "object pointer");
	if (r->missing)
		return o;
	/* QSPY: the signal as its dictionary shows it, then the object
	 * whenever it is not 0 (an unknown signal names it twice) */
	const char *name, *obj_name = NULL;
	o = qs_put_sig(d, o, sig, obj, &name);
	if (obj != 0) {
		memcpy(o, ",Obj=", 5);
		o = qs_put_obj(d, o + 5, obj, &obj_name);
	} else {
		obj_name = qs_map_get(&d->dict.obj, obj, 0);
	}
	struct sonde_arg *a = qs_arg(d, SONDE_A_ENUM, "sig");
	if (a) {
		a->v.u = sig;
		a->group = QS_SIG_GROUP;
		a->resolved = name;
	}
	if ((a = qs_arg(d, SONDE_A_OBJ, "sig_obj"))) {
		a->v.u = obj;
		a->resolved = obj_name;
	}
	return o;
}

static char *put_ptr(struct qs_dec *d, struct qs_rd *r, char *o, int fun)
{
	unsigned size = fun ? d->sz.fun : d->sz.obj;
	uint64_t v = qs_rd_uint(r, size, fun ? "function pointer" : "object pointer");
	if (r->missing)
		return o;
	const char *name;
	o = fun ? qs_put_fun(d, o, v, &name) : qs_put_obj(d, o, v, &name);
	struct sonde_arg *a = qs_arg(d, fun ? SONDE_A_FUNC : SONDE_A_OBJ, NULL);
	if (a) {
		a->v.u = v;
		a->resolved = name;
	}
	return o;
}

/* One argument, its blank first; room: the bytes at o (QS_USER_ARG_ROOM,
 * and three per payload byte left). */
static char *put_arg(struct qs_dec *d, struct qs_rd *r, char *o, size_t room, uint8_t fmt)
{
	unsigned w = fmt >> 4;
	*o++ = ' ';
	room--;
	switch (fmt & 0x0Fu) {
	case QS_I8_ENUM_T:
		if (fmt & 0x80u)
			return put_enum(d, r, o, (fmt >> 4) & 0x07u);
		return put_signed(d, r, o, 1, w);
	case QS_U8_T: return put_unsigned(d, r, o, 1, w);
	case QS_I16_T: return put_signed(d, r, o, 2, w);
	case QS_U16_T: return put_unsigned(d, r, o, 2, w);
	case QS_I32_T: return put_signed(d, r, o, 4, w);
	case QS_U32_T: return put_unsigned(d, r, o, 4, w);
	case QS_F32_T: return put_float(d, r, o, room, 4, w);
	case QS_F64_T: return put_float(d, r, o, room, 8, w);
	case QS_STR_T: return put_str(d, r, o);
	case QS_MEM_T: return put_mem(d, r, o);
	case QS_SIG_T: return put_sig(d, r, o);
	case QS_OBJ_T: return put_ptr(d, r, o, 0);
	case QS_FUN_T: return put_ptr(d, r, o, 1);
	case QS_I64_T: return put_signed(d, r, o, 8, w);
	case QS_U64_T: return put_unsigned(d, r, o, 8, w);
	default: /* QS_HEX_T: the legacy 32-bit hex format */
		return put_unsigned(d, r, o, 4, QS_HEX_FMT);
	}
}

void qs_decode_user(struct qs_dec *d, const struct qs_frame *f)
{
	/* the record's name in its line: the user dictionary's, else
	 * USER+NNN, kept in name_buf for the event */
	const struct qs_map_ent *e = qs_map_find(&d->dict.usr, f->rec, 0);
	const char *name = e ? e->name : d->name_buf;
	size_t name_len = e ? e->len : 8;
	if (!e) {
		memcpy(d->name_buf, "USER+", 5); /* "USER+%03u" */
		numfmt_u64_pad(d->name_buf + 5, (f->rec - QS_USER) & 0xFFu, 3, '0');
		d->name_buf[8] = '\0';
	}
	struct qs_rd r;
	qs_rd_init(&r, f->data, f->len);
	uint64_t raw_ts = qs_rd_uint(&r, d->sz.ts, NULL);
	struct sonde_event ev;
	sonde_event_clear(&ev);
	ev.kind = SONDE_EV_RECORD;
	ev.rec_name = name;
	qs_set_ts(d, &ev, !r.missing, raw_ts);

	/* The line, written at a cursor: it has room for any record of
	 * max_rec bytes (qs_create: no argument prints more than 88
	 * characters per payload byte), checked once per argument all the
	 * same; if it ever ran out, the line would end there, flagged. */
	struct qs_line *l = &d->line;
	char *o = qs_put_prefix(l->buf, 1, raw_ts);
	memcpy(o, name, name_len);
	o += name_len;
	char *text_at = o;
	const char *end = l->buf + l->cap - QS_SLACK;
	while (!r.missing && r.pos < r.n) {
		size_t room = (size_t)(end - o);
		if (room < QS_USER_ARG_ROOM + 3 * (r.n - r.pos)) {
			l->truncated = 1;
			ev.flags |= SONDE_EVF_MALFORMED;
			break;
		}
		o = put_arg(d, &r, o, room, r.p[r.pos++]);
	}
	qs_line_end(l, o);

	ev.args = d->args;
	ev.nargs = d->nargs;
	if (r.missing) {
		/* QSPY prints the error instead of the record */
		qs_diag(d, SONDE_D_MALFORMED, 2 + r.n, r.missing, "%zu more bytes needed for %s in Rec=%s",
			r.missing, r.what, name);
		ev.flags |= SONDE_EVF_MALFORMED;
		qs_emit(d, &ev);
		return;
	}
	ev.text = text_at + (o > text_at); /* the arguments, without the leading blank */
	ev.native = l->buf;
	ev.native_len = l->len;
	qs_emit(d, &ev);
}
