/*
 * qs_render.c -- QSPY's renderings of values and the compiled line
 * templates (qs_render.h).
 *
 * A template is parsed once into steps, each "copy this literal, then
 * convert field N": rendering a record is then a few copies and lookups,
 * without scanning the template's text for braces on every record.  Every
 * piece is written at a cursor into a line with room to spare, so that no
 * piece checks the room, counts a length again or writes a NUL: a QSPY
 * line costs a few copies and table lookups, several million times a
 * second.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qs_render.h"

static const char *const rx_names[17] = {
	"INFO", "COMMAND", "RESET", "TICK", "PEEK", "POKE", "FILL", "TEST_SETUP",
	"TEST_TEARDOWN", "TEST_PROBE", "GLB_FILTER", "LOC_FILTER", "AO_FILTER",
	"CURR_OBJ", "TEST_CONTINUE", "QUERY_CURR", "EVENT",
};

/* ---- values ------------------------------------------------------------ */

static inline char *put_hex(char *o, uint64_t v, unsigned size)
{
	o[0] = '0';
	o[1] = 'x';
	return o + 2 + (size <= 4 ? numfmt_hex(o + 2, v & 0xFFFFFFFFu, 8, 1) : numfmt_hex(o + 2, v, 16, 1));
}

char *qs_put_hex(char *o, uint64_t v, unsigned size)
{
	return put_hex(o, v, size);
}

/* A dictionary name, in blocks of QS_NAME_PAD bytes (qs_dict.h): most
 * names take one block, copied whatever their length (no loop whose
 * count changes from name to name). */
static inline char *put_name(char *o, const struct qs_map_ent *e)
{
	memcpy(o, e->name, QS_NAME_PAD);
	for (size_t k = QS_NAME_PAD; k < e->len; k += QS_NAME_PAD)
		memcpy(o + k, e->name + k, QS_NAME_PAD);
	return o + e->len;
}

/* Unsigned decimal: the small numbers of most fields (a pool, a reference
 * count, a queue level) as one or two digits of the pair table without
 * a branch on their length. */
static inline char *put_u(char *o, uint64_t v)
{
	if (v >= 100)
		return o + numfmt_u64(o, v);
	unsigned one = v < 10; /* "07" -> "7": the pair's second digit */
	memcpy(o, numfmt_pairs + 2 * v + one, 2);
	return o + 2 - one;
}

/* A pointer as QSPY's dictionaries print it (key size ksize): the name,
 * NULL for 0 (keys of 4 bytes or more), %03u for 1-byte keys, else hex of
 * 8 or 16 digits. */
static inline char *put_ptr(char *o, const struct qs_map_ent *e, uint64_t v, unsigned ksize,
			    const char **name)
{
	*name = e ? e->name : NULL;
	if (e)
		return put_name(o, e);
	if (v == 0 && ksize >= 4) {
		memcpy(o, "NULL", 4);
		return o + 4;
	}
	if (ksize <= 1)
		return qs_put_zpad(o, v & 0xFFFFFFFFu, 3);
	return put_hex(o, v, ksize);
}

static inline char *put_obj(struct qs_dec *d, char *o, uint64_t obj, const char **name)
{
	return put_ptr(o, qs_map_find(&d->dict.obj, obj, 0), obj, d->key_obj, name);
}

static inline char *put_fun(struct qs_dec *d, char *o, uint64_t fun, const char **name)
{
	return put_ptr(o, qs_map_find(&d->dict.fun, fun, 0), fun, d->key_fun, name);
}

static inline char *put_sig(struct qs_dec *d, char *o, uint64_t sig, uint64_t obj, const char **name)
{
	*name = NULL;
	if (sig == 0) { /* QSPY's signal dictionary shows signal 0 as NULL */
		memcpy(o, "NULL", 4);
		return o + 4;
	}
	const struct qs_map_ent *e = qs_dict_sig_find(&d->dict, sig, obj);
	if (e) {
		*name = e->name;
		return put_name(o, e);
	}
	o = qs_put_zpad(o, sig, 8);
	memcpy(o, ",Obj=", 5);
	return put_hex(o + 5, obj, d->key_sig);
}

char *qs_put_obj(struct qs_dec *d, char *o, uint64_t obj, const char **name)
{
	return put_obj(d, o, obj, name);
}

char *qs_put_fun(struct qs_dec *d, char *o, uint64_t fun, const char **name)
{
	return put_fun(d, o, fun, name);
}

char *qs_put_sig(struct qs_dec *d, char *o, uint64_t sig, uint64_t obj, const char **name)
{
	return put_sig(d, o, sig, obj, name);
}

static char *put_rx(char *o, uint64_t v)
{
	unsigned code = (unsigned)v & 0x7Fu;
	if (code < 17) {
		size_t n = strlen(rx_names[code]);
		memcpy(o, "QS_RX_", 6);
		memcpy(o + 6, rx_names[code], n);
		return o + 6 + n;
	}
	memcpy(o, "0x", 2);
	return o + 2 + numfmt_hex(o + 2, code, 2, 1);
}

/* ---- %e ------------------------------------------------------------------ */

#if LDBL_MANT_DIG >= 64
/* Powers of ten that long double holds exactly (5^27 < 2^63). */
static const long double pow10l_exact[28] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
	1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

/* a * 10^k with at most three roundings (|k| <= 81), each off by at most
 * half an ulp. */
static long double scale10(long double a, int k)
{
	for (; k > 27; k -= 27)
		a *= pow10l_exact[27];
	for (; k < -27; k += 27)
		a /= pow10l_exact[27];
	return k >= 0 ? a * pow10l_exact[k] : a / pow10l_exact[-k];
}

/* The p significant digits of v != 0 rounded to nearest, ties to even, as
 * printf rounds the exact binary value: *digits in [10^(p-1), 10^p), *e10
 * the decimal exponent of the first.  0 when it cannot be sure: v is
 * within the error of the long double arithmetic of a tie (or a decimal
 * exponent is beyond +-81 from p, or v is subnormal). */
static int e_digits(double v, unsigned p, uint64_t *digits, int *e10)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	int e2 = (int)(bits >> 52 & 0x7FF) - 1023; /* |v| in [2^e2, 2^(e2+1)) */
	int e = (int)(e2 * 30103L / 100000L) - (e2 < 0); /* ~floor(log10 |v|), +-1 */
	long double a = fabsl((long double)v);
	for (int tries = 0; tries < 3; tries++) {
		int k = (int)p - 1 - e;
		if (k > 81 || k < -81)
			return 0;
		long double sc = scale10(a, k);
		if (sc < pow10l_exact[p - 1]) {
			e--;
			continue;
		}
		if (sc >= pow10l_exact[p]) {
			e++;
			continue;
		}
		/* sc < 10^16 < 2^54: the nearest integer and the difference
		 * are exact; sc is within 1.5 LDBL_EPSILON of the true value,
		 * relatively.  llrintl, not a cast: a cast to an integer
		 * switches the x87 rounding mode twice, which cost more than
		 * the rest together. */
		long long ip = llrintl(sc);
		long double frac = sc - (long double)ip; /* in [-0.5, 0.5] unless the mode is not "nearest" */
		if (frac > 0.5L) {
			ip++;
			frac -= 1;
		} else if (frac < -0.5L) {
			ip--;
			frac += 1;
		}
		long double err = sc * (4 * LDBL_EPSILON);
		if (fabsl(frac) > 0.5L - err)
			return 0;
		if (ip == (long long)pow10l_exact[p]) { /* 9.99..95 -> 10.0 */
			ip /= 10;
			e++;
		}
		*digits = (uint64_t)ip;
		*e10 = e;
		return 1;
	}
	return 0;
}
#endif

char *qs_put_e(char *o, size_t room, double v, unsigned prec, unsigned width)
{
#if LDBL_MANT_DIG >= 64
	/* printf's %e goes through multi-precision arithmetic for every
	 * number; long double has the 11 bits more than double that make
	 * all but near-ties exact, and near-ties go to printf below */
	uint64_t digits = 0;
	int e10 = 0;
	if (prec <= 15 && isfinite(v) && (v == 0 || e_digits(v, prec + 1, &digits, &e10))) {
		char tmp[48];
		char *t = tmp;
		if (signbit(v))
			*t++ = '-';
		numfmt_put_digits(t + 1, digits, prec + 1); /* d ddd.. */
		t[0] = t[1];
		if (prec) {
			t[1] = '.';
			t += prec + 2;
		} else {
			t += 1;
		}
		*t++ = 'e';
		*t++ = e10 < 0 ? '-' : '+';
		unsigned ue = (unsigned)(e10 < 0 ? -e10 : e10);
		t = qs_put_zpad(t, ue, 2);
		size_t n = (size_t)(t - tmp);
		size_t pad = n < width ? width - n : 0;
		if (pad + n < room) {
			memset(o, ' ', pad);
			memcpy(o + pad, tmp, n);
			return o + pad + n;
		}
	}
#endif
	int n = snprintf(o, room, "%*.*e", (int)width, (int)prec, v);
	return o + (n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1);
}

/* ---- templates ------------------------------------------------------------ */

static struct qs_step *add_literal(struct qs_tmpl *t, const char *s, size_t n)
{
	struct qs_step *st = NULL;
	do {
		if (t->nsteps == QS_STEPS)
			return NULL;
		st = &t->step[t->nsteps++];
		size_t k = n < QS_LIT ? n : QS_LIT;
		memset(st, 0, sizeof(*st));
		memcpy(st->lit, s, k);
		st->lit_n = (uint8_t)k;
		s += k;
		n -= k;
	} while (n);
	return st;
}

int qs_tmpl_compile(struct qs_tmpl *t, const char *text)
{
	const char *p = text;
	t->nsteps = 0;
	t->plain = strchr(text, '{') == NULL;
	while (*p) {
		const char *brace = strchr(p, '{');
		size_t n = brace ? (size_t)(brace - p) : strlen(p);
		struct qs_step *st = add_literal(t, p, n);
		if (!st)
			return -1;
		if (!brace)
			return 0;
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
	return 0;
}

char *qs_render(struct qs_dec *d, char *o, const struct qs_tmpl *t, struct qs_fields *fl)
{
	const char *name;
	for (unsigned k = 0; k < t->nsteps; k++) {
		const struct qs_step *st = &t->step[k];
		memcpy(o, st->lit, sizeof(st->lit));
		o += st->lit_n;
		unsigned i = st->field;
		uint64_t v = fl->v[i];
		switch (st->conv) {
		case 0: break;
		case 'P':
			fl->tag_end = o;
			if (i) {
				char *col = fl->line + QS_TAG_AT + 8;
				memset(o, ' ', 8);
				o = (o > col ? o : col) + 1;
			}
			fl->text_at = o;
			break;
		case 'o':
			o = put_obj(d, o, v, &name);
			fl->nm[i] = name;
			break;
		case 'f':
			o = put_fun(d, o, v, &name);
			fl->nm[i] = name;
			break;
		case 's': {
			uint64_t ctx = st->ctx ? fl->v[st->ctx - 1] : 0;
			o = put_sig(d, o, v, ctx, &name);
			fl->nm[i] = name;
			break;
		}
		case 'u': o = put_u(o, v); break;
		case 'c': o = qs_put_zpad(o, v, 10); break;
		case 'l': o = put_u(o, v & 0x0Fu); break;
		case 'h':
			memcpy(o, "0x", 2);
			o += 2 + numfmt_hex(o + 2, v & 0xF0u, 2, 1);
			break;
		case 'r': o = put_rx(o, v); break;
		case 'k': o = put_hex(o, v, d->sz.obj); break;
		case 'K': o = put_hex(o, v, d->sz.fun); break;
		case 'n': o = qs_put_zpad(o, v, 8); break;
		case 'd': o = qs_put_zpad(o, v, 3); break;
		case 'z': /* QSPY shows an empty string as '' */
			if (fl->sn[i]) {
				memcpy(o, fl->s[i], fl->sn[i]);
				o += fl->sn[i];
			} else {
				memcpy(o, "''", 2);
				o += 2;
			}
			break;
		default: break;
		}
	}
	return o;
}
