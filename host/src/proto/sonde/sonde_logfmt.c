/*
 * sonde_logfmt.c -- the LOG formatter (see sonde_logfmt.h for the rules).
 *
 * Hand-written rather than built on vsnprintf because the format string is
 * untrusted input and the argument types are only known at run time: the C
 * library would read the wrong varargs or run off the end of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/numfmt.h"
#include "sonde_logfmt.h"

/* A bounded output: once something does not fit, "..." ends the text and
 * everything after it is dropped. */
struct obuf {
	char *p;
	size_t cap; /* bytes including the NUL */
	size_t n;
	int full;
};

static void ob_init(struct obuf *o, char *p, size_t cap)
{
	o->p = p;
	o->cap = cap;
	o->n = 0;
	o->full = 0;
	p[0] = '\0';
}

static void ob_put(struct obuf *o, const char *s, size_t len)
{
	if (o->full)
		return;
	size_t limit = o->cap - 1 - 3; /* room for "..." */
	if (o->n + len > limit) {
		size_t fit = limit > o->n ? limit - o->n : 0;
		memcpy(o->p + o->n, s, fit);
		o->n += fit;
		memcpy(o->p + o->n, "...", 3);
		o->n += 3;
		o->full = 1;
	} else {
		memcpy(o->p + o->n, s, len);
		o->n += len;
	}
	o->p[o->n] = '\0';
}

static void ob_str(struct obuf *o, const char *s)
{
	ob_put(o, s, strlen(s));
}

static void ob_repeat(struct obuf *o, char c, size_t k)
{
	char run[32];
	memset(run, c, sizeof(run));
	while (k && !o->full) {
		size_t m = k < sizeof(run) ? k : sizeof(run);
		ob_put(o, run, m);
		k -= m;
	}
}

/* ---- one conversion specification ----------------------------------- */

struct spec {
	int minus, plus, space, hash, zero;
	int width;   /* 0 = none */
	int prec;    /* -1 = none */
	char conv;
};

static void pad_field(struct obuf *o, const struct spec *sp, const char *s, size_t len)
{
	size_t w = sp->width > 0 ? (size_t)sp->width : 0;
	size_t pad = w > len ? w - len : 0;
	if (!sp->minus)
		ob_repeat(o, ' ', pad);
	ob_put(o, s, len);
	if (sp->minus)
		ob_repeat(o, ' ', pad);
}

/* An integer of the given magnitude in base 8, 10 or 16, printf-style. */
static void put_int(struct obuf *o, const struct spec *sp, uint64_t mag, int neg, int is_signed_conv)
{
	int base = sp->conv == 'o' ? 8 : (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p') ? 16 : 10;
	const char *dig = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[72];
	size_t nd = 0;
	int zero_value = mag == 0;
	if (!(mag == 0 && sp->prec == 0)) {
		do {
			digits[nd++] = dig[mag % (unsigned)base];
			mag /= (unsigned)base;
		} while (mag);
	}
	char prefix[3];
	size_t np = 0;
	if (neg)
		prefix[np++] = '-';
	else if (is_signed_conv && sp->plus)
		prefix[np++] = '+';
	else if (is_signed_conv && sp->space)
		prefix[np++] = ' ';
	if (sp->conv == 'p' || (sp->hash && base == 16 && !zero_value)) {
		prefix[np++] = '0';
		prefix[np++] = sp->conv == 'X' ? 'X' : 'x';
	}
	size_t prec = sp->prec < 0 ? 1 : (size_t)sp->prec;
	size_t zeros = prec > nd ? prec - nd : 0;
	if (sp->hash && base == 8 && zeros == 0 && (nd == 0 || digits[nd - 1] != '0'))
		zeros = 1;
	size_t len = np + zeros + nd;
	size_t w = sp->width > 0 ? (size_t)sp->width : 0;
	size_t pad = w > len ? w - len : 0;
	if (!sp->minus && sp->zero && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!sp->minus)
		ob_repeat(o, ' ', pad);
	ob_put(o, prefix, np);
	ob_repeat(o, '0', zeros);
	char rev[72];
	for (size_t i = 0; i < nd; i++)
		rev[i] = digits[nd - 1 - i];
	ob_put(o, rev, nd);
	if (sp->minus)
		ob_repeat(o, ' ', pad);
}

/* The integer view of an argument: 0 if it has none. */
static int arg_int(const struct sonde_arg *a, uint64_t *u, int64_t *i, int *is_signed, unsigned *bits)
{
	*is_signed = 0;
	*bits = 64;
	switch (a->type) {
	case SONDE_A_U8: *bits = 8; break;
	case SONDE_A_U16: *bits = 16; break;
	case SONDE_A_U32: *bits = 32; break;
	case SONDE_A_U64: case SONDE_A_HEX: case SONDE_A_FUNC: break;
	case SONDE_A_OBJ: case SONDE_A_ENUM: case SONDE_A_BOOL: break;
	case SONDE_A_I8: *bits = 8; *is_signed = 1; break;
	case SONDE_A_I16: *bits = 16; *is_signed = 1; break;
	case SONDE_A_I32: *bits = 32; *is_signed = 1; break;
	case SONDE_A_I64: *is_signed = 1; break;
	default: return 0;
	}
	if (*is_signed) {
		*i = a->v.i;
		*u = *bits == 64 ? (uint64_t)a->v.i : (uint64_t)a->v.i & ((1ull << *bits) - 1);
	} else {
		*u = a->v.u;
		*i = (int64_t)a->v.u;
	}
	return 1;
}

static int arg_float(const struct sonde_arg *a, double *f)
{
	uint64_t u;
	int64_t i;
	int sg;
	unsigned bits;
	if (a->type == SONDE_A_F32 || a->type == SONDE_A_F64) {
		*f = a->v.f;
		return 1;
	}
	if (!arg_int(a, &u, &i, &sg, &bits))
		return 0;
	*f = sg ? (double)i : (double)u;
	return 1;
}

static void put_hex_u64(struct obuf *o, uint64_t v)
{
	struct spec sp = { 0, 0, 0, 0, 0, 0, -1, 'p' };
	put_int(o, &sp, v, 0, 0);
}

static void natural(struct obuf *o, const struct sonde_arg *a)
{
	char tmp[64];
	switch (a->type) {
	case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64: {
		struct spec sp = { 0, 0, 0, 0, 0, 0, -1, 'u' };
		put_int(o, &sp, a->v.u, 0, 0);
		break;
	}
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64: {
		struct spec sp = { 0, 0, 0, 0, 0, 0, -1, 'd' };
		int neg = a->v.i < 0;
		put_int(o, &sp, neg ? 0 - (uint64_t)a->v.i : (uint64_t)a->v.i, neg, 1);
		break;
	}
	case SONDE_A_F32: case SONDE_A_F64:
		numfmt_float(tmp, a->v.f, a->type == SONDE_A_F32); /* as every output format does */
		ob_str(o, tmp);
		break;
	case SONDE_A_STR:
		ob_put(o, (const char *)a->v.mem.p, a->v.mem.n);
		break;
	case SONDE_A_MEM:
		ob_put(o, "<", 1);
		for (size_t i = 0; i < a->v.mem.n && !o->full; i++) {
			static const char hx[] = "0123456789abcdef";
			char b[3] = { ' ', hx[a->v.mem.p[i] >> 4], hx[a->v.mem.p[i] & 15] };
			ob_put(o, i ? b : b + 1, i ? 3 : 2);
		}
		ob_put(o, ">", 1);
		break;
	case SONDE_A_OBJ:
		if (a->resolved) {
			ob_str(o, a->resolved);
		} else {
			struct spec sp = { 0, 0, 0, 0, 0, 0, -1, 'u' };
			put_int(o, &sp, a->v.u, 0, 0);
		}
		break;
	case SONDE_A_FUNC: case SONDE_A_HEX:
		if (a->resolved && a->type == SONDE_A_FUNC)
			ob_str(o, a->resolved);
		else
			put_hex_u64(o, a->v.u);
		break;
	case SONDE_A_ENUM:
		if (a->resolved) {
			ob_str(o, a->resolved);
		} else {
			snprintf(tmp, sizeof(tmp), "%u:%llu", (unsigned)a->group, (unsigned long long)a->v.u);
			ob_str(o, tmp);
		}
		break;
	case SONDE_A_BOOL:
		ob_str(o, a->v.u ? "true" : "false");
		break;
	default:
		ob_str(o, "?");
		break;
	}
}

size_t slog_natural(char *out, size_t cap, const struct sonde_arg *a)
{
	struct obuf o;
	ob_init(&o, out, cap);
	natural(&o, a);
	return o.n;
}

/* An argument in its natural form, padded to the width; for %s the
 * precision limits its length as it does a string's. */
static void put_natural_padded(struct obuf *o, const struct spec *sp, const struct sonde_arg *a)
{
	char tmp[SLOG_TEXT_MAX];
	struct obuf t;
	ob_init(&t, tmp, sizeof(tmp));
	natural(&t, a);
	size_t len = t.n;
	if (sp->conv == 's' && sp->prec >= 0 && (size_t)sp->prec < len)
		len = (size_t)sp->prec;
	pad_field(o, sp, tmp, len);
}

static void conv_int(struct obuf *o, const struct spec *sp, const struct sonde_arg *a)
{
	uint64_t u;
	int64_t i;
	int sg;
	unsigned bits;
	if (!arg_int(a, &u, &i, &sg, &bits)) {
		put_natural_padded(o, sp, a);
		return;
	}
	switch (sp->conv) {
	case 'd': case 'i':
		if (sg && i < 0)
			put_int(o, sp, 0 - (uint64_t)i, 1, 1);
		else
			put_int(o, sp, sg ? (uint64_t)i : u, 0, 1);
		break;
	case 'c': {
		char c = (char)(u & 0xFF);
		if (c)
			pad_field(o, sp, &c, 1);
		else
			pad_field(o, sp, "", 0); /* a NUL cannot be part of the text */
		break;
	}
	default: /* u x X o p */
		put_int(o, sp, u, 0, 0);
		break;
	}
}

static void conv_float(struct obuf *o, const struct spec *sp, const struct sonde_arg *a)
{
	double f;
	if (!arg_float(a, &f)) {
		put_natural_padded(o, sp, a);
		return;
	}
	/* The format handed to snprintf is assembled here from the checked
	 * flags and one of six conversion letters; width and precision go in
	 * as arguments, already capped. */
	char fmt[16];
	size_t k = 0;
	fmt[k++] = '%';
	if (sp->minus) fmt[k++] = '-';
	if (sp->plus) fmt[k++] = '+';
	if (sp->space) fmt[k++] = ' ';
	if (sp->hash) fmt[k++] = '#';
	if (sp->zero) fmt[k++] = '0';
	fmt[k++] = '*';
	fmt[k++] = '.';
	fmt[k++] = '*';
	fmt[k++] = sp->conv; /* one of f F e E g G (parse_spec) */
	fmt[k] = '\0';
	char tmp[SLOG_PAD_MAX + 400];
	int r = snprintf(tmp, sizeof(tmp), fmt, sp->width, sp->prec, f);
	if (r < 0)
		return;
	size_t len = (size_t)r < sizeof(tmp) ? (size_t)r : sizeof(tmp) - 1;
	ob_put(o, tmp, len);
}

static void conv_str(struct obuf *o, const struct spec *sp, const struct sonde_arg *a)
{
	const char *s = NULL;
	size_t len = 0;
	if (a->type == SONDE_A_STR) {
		s = (const char *)a->v.mem.p;
		len = a->v.mem.n;
	} else if ((a->type == SONDE_A_OBJ || a->type == SONDE_A_FUNC || a->type == SONDE_A_ENUM) && a->resolved) {
		s = a->resolved;
		len = strlen(s);
	}
	if (!s) {
		put_natural_padded(o, sp, a);
		return;
	}
	if (sp->prec >= 0 && (size_t)sp->prec < len)
		len = (size_t)sp->prec;
	pad_field(o, sp, s, len);
}

static int is_conv(char c)
{
	return c && strchr("diuxXocsfFeEgGp", c) != NULL;
}

/* Reads a width or precision: digits (capped) or '*' (next argument). */
static int read_num(const char *f, size_t n, size_t *i, const struct sonde_arg *args, size_t nargs, size_t *next,
		    int *star_neg)
{
	int v = 0;
	*star_neg = 0;
	if (*i < n && f[*i] == '*') {
		(*i)++;
		if (*next < nargs) {
			uint64_t u;
			int64_t s;
			int sg;
			unsigned bits;
			if (arg_int(&args[*next], &u, &s, &sg, &bits)) {
				int64_t x = sg ? s : (u > SLOG_PAD_MAX ? SLOG_PAD_MAX : (int64_t)u);
				if (x < 0) {
					*star_neg = 1;
					x = x < -SLOG_PAD_MAX ? SLOG_PAD_MAX : -x;
				}
				v = x > SLOG_PAD_MAX ? SLOG_PAD_MAX : (int)x;
			}
			(*next)++;
		}
		return v;
	}
	while (*i < n && f[*i] >= '0' && f[*i] <= '9') {
		if (v <= SLOG_PAD_MAX)
			v = v * 10 + (f[*i] - '0');
		(*i)++;
	}
	return v > SLOG_PAD_MAX ? SLOG_PAD_MAX : v;
}

size_t slog_format(char *out, size_t cap, const char *fmt, size_t fmtlen, const struct sonde_arg *args,
		   size_t nargs)
{
	struct obuf o;
	ob_init(&o, out, cap);
	size_t next = 0;
	size_t i = 0;
	while (i < fmtlen && !o.full) {
		const char *pct = memchr(fmt + i, '%', fmtlen - i);
		size_t lit = pct ? (size_t)(pct - (fmt + i)) : fmtlen - i;
		/* a NUL inside the dictionary string ends the format */
		const char *nul = memchr(fmt + i, '\0', lit);
		if (nul) {
			ob_put(&o, fmt + i, (size_t)(nul - (fmt + i)));
			break;
		}
		ob_put(&o, fmt + i, lit);
		i += lit;
		if (i >= fmtlen)
			break;
		size_t start = i++; /* at '%' */
		if (i < fmtlen && fmt[i] == '%') {
			ob_put(&o, "%", 1);
			i++;
			continue;
		}
		struct spec sp = { 0, 0, 0, 0, 0, 0, -1, 0 };
		for (; i < fmtlen; i++) {
			char c = fmt[i];
			if (c == '-') sp.minus = 1;
			else if (c == '+') sp.plus = 1;
			else if (c == ' ') sp.space = 1;
			else if (c == '#') sp.hash = 1;
			else if (c == '0') sp.zero = 1;
			else break;
		}
		int neg;
		sp.width = read_num(fmt, fmtlen, &i, args, nargs, &next, &neg);
		if (neg)
			sp.minus = 1;
		if (i < fmtlen && fmt[i] == '.') {
			i++;
			sp.prec = read_num(fmt, fmtlen, &i, args, nargs, &next, &neg);
			if (neg)
				sp.prec = -1; /* a negative '*' precision means none */
		}
		while (i < fmtlen && fmt[i] && strchr("hlLqjzt", fmt[i]))
			i++;
		if (i >= fmtlen || !is_conv(fmt[i])) {
			/* unknown or unfinished conversion: copy it as it is */
			size_t end = i < fmtlen && fmt[i] ? i + 1 : i;
			ob_put(&o, fmt + start, end - start);
			i = end;
			continue;
		}
		sp.conv = fmt[i++];
		if (next >= nargs) {
			ob_str(&o, "<?>");
			continue;
		}
		const struct sonde_arg *a = &args[next++];
		switch (sp.conv) {
		case 's': conv_str(&o, &sp, a); break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': conv_float(&o, &sp, a); break;
		default: conv_int(&o, &sp, a); break;
		}
	}
	for (; next < nargs && !o.full; next++) {
		ob_put(&o, " ", 1);
		natural(&o, &args[next]);
	}
	return o.n;
}
