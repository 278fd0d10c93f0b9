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

static int64_t sign_extend(uint64_t v, unsigned size)
{
	unsigned shift = 64 - 8 * size;
	return (int64_t)(v << shift) >> shift;
}

static void put_signed(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, unsigned size, unsigned w)
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
		return;
	/* I64: width 2w+2, none for w = 9 */
	qs_line_int(l, v, size < 8 ? w : w == 9 ? 0 : 2 * w + 2);
	struct sonde_arg *a = qs_arg(d, t, NULL);
	if (a)
		a->v.i = v;
}

static void put_unsigned(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, unsigned size, unsigned w)
{
	uint64_t v = qs_rd_uint(r, size, NULL);
	if (r->missing)
		return;
	enum sonde_arg_type t = size == 1 ? SONDE_A_U8 : size == 2 ? SONDE_A_U16 :
				size == 4 ? SONDE_A_U32 : SONDE_A_U64;
	if (w == QS_HEX_FMT) {
		t = SONDE_A_HEX;
		if (size == 8) { /* QSPY's 0x%16llX: blank-padded */
			qs_line_printf(l, "0x%16llX", (unsigned long long)v);
		} else {
			qs_line_putn(l, "0x", 2);
			qs_line_hex(l, v, 2 * size);
		}
	} else {
		qs_line_uint(l, v, size < 8 ? w : w == 9 ? 0 : 2 * w + 2, ' ');
	}
	struct sonde_arg *a = qs_arg(d, t, NULL);
	if (a)
		a->v.u = v;
}

static void put_float(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, unsigned size, unsigned w)
{
	uint64_t bits = qs_rd_uint(r, size, size == 4 ? "float" : "double");
	if (r->missing)
		return;
	double v;
	if (size == 4) {
		uint32_t b32 = (uint32_t)bits;
		float f;
		memcpy(&f, &b32, sizeof(f));
		v = f;
	} else {
		memcpy(&v, &bits, sizeof(v));
	}
	if (w == 0)
		qs_line_printf(l, "%7.0e", v);
	else
		qs_line_printf(l, "%*.*e", (int)(w + 8), (int)w, v);
	struct sonde_arg *a = qs_arg(d, size == 4 ? SONDE_A_F32 : SONDE_A_F64, NULL);
	if (a)
		a->v.f = v;
}

static void put_enum(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, unsigned group)
{
	uint64_t v = qs_rd_uint(r, 1, "enum");
	if (r->missing)
		return;
	const char *name = qs_map_get(&d->dict.enm, v, group);
	if (name)
		qs_line_puts(l, name);
	else
		qs_line_uint(l, v, 3, '0');
	struct sonde_arg *a = qs_arg(d, SONDE_A_ENUM, NULL);
	if (a) {
		a->v.u = v;
		a->group = group;
		a->resolved = name;
	}
}

static void put_str(struct qs_dec *d, struct qs_rd *r, struct qs_line *l)
{
	size_t n;
	const uint8_t *s = qs_rd_str(r, &n);
	if (r->missing)
		return;
	if (n == 0)
		qs_line_puts(l, "''");
	else
		qs_line_putn(l, (const char *)s, n);
	struct sonde_arg *a = qs_arg(d, SONDE_A_STR, NULL);
	if (a) {
		a->v.mem.p = s;
		a->v.mem.n = n;
	}
}

static void put_mem(struct qs_dec *d, struct qs_rd *r, struct qs_line *l)
{
	size_t n = (size_t)qs_rd_uint(r, 1, "uint8_t");
	if (r->missing)
		return;
	if (n > r->n - r->pos) {
		r->missing = n - (r->n - r->pos);
		r->what = "memory-dump";
		return;
	}
	const uint8_t *p = r->p + r->pos;
	r->pos += n;
	for (size_t i = 0; i < n; i++) {
		qs_line_putn(l, " ", 1);
		qs_line_hex(l, p[i], 2);
	}
	struct sonde_arg *a = qs_arg(d, SONDE_A_MEM, NULL);
	if (a) {
		a->v.mem.p = p;
		a->v.mem.n = n;
	}
}

/* SIG: the signal, then (without a format byte) the object it belongs to. */
static void put_sig(struct qs_dec *d, struct qs_rd *r, struct qs_line *l)
{
	uint64_t sig = qs_rd_uint(r, d->sz.sig, "signal");
	uint64_t obj = qs_rd_uint(r, d->sz.obj, "object pointer");
	if (r->missing)
		return;
	/* QSPY: the signal as its dictionary shows it, then the object
	 * whenever it is not 0 (an unknown signal names it twice) */
	const char *name = qs_put_sig(d, l, sig, obj);
	if (obj != 0) {
		qs_line_putn(l, ",Obj=", 5);
		qs_put_obj(d, l, obj);
	}
	struct sonde_arg *a = qs_arg(d, SONDE_A_ENUM, "sig");
	if (a) {
		a->v.u = sig;
		a->group = QS_SIG_GROUP;
		a->resolved = name;
	}
	if ((a = qs_arg(d, SONDE_A_OBJ, "sig_obj"))) {
		a->v.u = obj;
		a->resolved = qs_map_get(&d->dict.obj, obj, 0);
	}
}

static void put_ptr(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, int fun)
{
	unsigned size = fun ? d->sz.fun : d->sz.obj;
	uint64_t v = qs_rd_uint(r, size, fun ? "function pointer" : "object pointer");
	if (r->missing)
		return;
	if (fun)
		qs_put_fun(d, l, v);
	else
		qs_put_obj(d, l, v);
	struct sonde_arg *a = qs_arg(d, fun ? SONDE_A_FUNC : SONDE_A_OBJ, NULL);
	if (a) {
		a->v.u = v;
		a->resolved = qs_map_get(fun ? &d->dict.fun : &d->dict.obj, v, 0);
	}
}

static void put_arg(struct qs_dec *d, struct qs_rd *r, struct qs_line *l, uint8_t fmt)
{
	unsigned w = fmt >> 4;
	qs_line_puts(l, " ");
	switch (fmt & 0x0Fu) {
	case QS_I8_ENUM_T:
		if (fmt & 0x80u)
			put_enum(d, r, l, (fmt >> 4) & 0x07u);
		else
			put_signed(d, r, l, 1, w);
		break;
	case QS_U8_T: put_unsigned(d, r, l, 1, w); break;
	case QS_I16_T: put_signed(d, r, l, 2, w); break;
	case QS_U16_T: put_unsigned(d, r, l, 2, w); break;
	case QS_I32_T: put_signed(d, r, l, 4, w); break;
	case QS_U32_T: put_unsigned(d, r, l, 4, w); break;
	case QS_F32_T: put_float(d, r, l, 4, w); break;
	case QS_F64_T: put_float(d, r, l, 8, w); break;
	case QS_STR_T: put_str(d, r, l); break;
	case QS_MEM_T: put_mem(d, r, l); break;
	case QS_SIG_T: put_sig(d, r, l); break;
	case QS_OBJ_T: put_ptr(d, r, l, 0); break;
	case QS_FUN_T: put_ptr(d, r, l, 1); break;
	case QS_I64_T: put_signed(d, r, l, 8, w); break;
	case QS_U64_T: put_unsigned(d, r, l, 8, w); break;
	default: /* QS_HEX_T: the legacy 32-bit hex format */
		put_unsigned(d, r, l, 4, QS_HEX_FMT);
		break;
	}
}

/* A user record's name in its line: the user dictionary's, else USER+NNN
 * (buf: 16 bytes). */
static const char *user_rec_name(const struct qs_dec *d, unsigned rec, char *buf)
{
	const char *n = rec <= 255 ? qs_map_get(&d->dict.usr, rec, 0) : NULL;
	if (n)
		return n;
	memcpy(buf, "USER+", 5); /* "USER+%03u", once per record */
	buf[5 + numfmt_u64_pad(buf + 5, (rec - QS_USER) & 0xFFu, 3, '0')] = '\0';
	return buf;
}

void qs_decode_user(struct qs_dec *d, const struct qs_frame *f)
{
	char nb[16];
	const char *name = user_rec_name(d, f->rec, nb);
	if (name == nb) { /* USER+NNN: keep it for the event */
		memcpy(d->name_buf, nb, sizeof(nb));
		name = d->name_buf;
	}
	struct qs_rd r;
	qs_rd_init(&r, f->data, f->len);
	uint64_t raw_ts = qs_rd_uint(&r, d->sz.ts, NULL);
	struct sonde_event ev;
	sonde_event_clear(&ev);
	ev.kind = SONDE_EV_RECORD;
	ev.rec_name = name;
	qs_set_ts(d, &ev, !r.missing, raw_ts);

	struct qs_line *l = &d->line;
	qs_put_prefix(l, 1, raw_ts);
	qs_line_puts(l, name);
	size_t text_at = l->len;
	while (!r.missing && r.pos < r.n)
		put_arg(d, &r, l, r.p[r.pos++]);

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
	ev.text = l->buf + text_at + (l->len > text_at); /* the arguments, without the leading blank */
	ev.native = l->buf;
	qs_emit(d, &ev);
}
