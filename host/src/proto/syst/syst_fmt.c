/*
 * syst_fmt.c -- apply a printf format to SyS-T packed arguments.
 *
 * The format is walked conversion by conversion; each one reads its
 * argument bytes (sizes in syst_fmt.h) and is rendered by snprintf with a
 * rebuilt conversion spec whose length modifier matches the C type we pass.
 * So a 32-bit client's %ld is sign-extended from 4 bytes and prints -99, not
 * 4294967197 (reference printer bug P9).  The conversions most messages use
 * (integers with a width and the '0' flag, %c, %s with a width or precision,
 * plain %p) are written here instead, byte for byte what glibc prints (the
 * unit tests compare them with snprintf): vsnprintf costs more than the
 * rest of a message's decoding.  %n is consumed, never passed on;
 * widths and precisions are clamped so one message cannot cost unbounded
 * work; formatting stops when the output buffer is full.
 */
#include "syst_fmt.h"
#include "syst_msg.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "util/bytes.h"

enum { F_MINUS = 1, F_PLUS = 2, F_SPACE = 4, F_HASH = 8, F_ZERO = 16, F_QUOTE = 32 };

/* One parsed conversion spec. */
struct spec {
	unsigned flags;
	int width;     /* -1 none */
	int prec;      /* -1 none */
	int star_w, star_p;
	char len[3];   /* length modifier as written: "", "hh", "h", "l", "ll", "L", "q", "j", "z", "t" */
	char conv;
};

struct reader {
	const struct syst_fmt_in *in;
	size_t pos;
};

/* Read size (4 or 8) little-endian bytes (or the single value).  0 when
 * they ran out. */
static int take(struct reader *r, unsigned size, uint64_t *v)
{
	if (r->in->single) {
		*v = r->in->value;
		return 1;
	}
	if (r->in->nargs_bytes - r->pos < size)
		return 0;
	const uint8_t *p = r->in->args + r->pos;
	*v = size == 8 ? bytes_le64(p) : bytes_le32(p);
	r->pos += size;
	return 1;
}

static int64_t sign_extend(uint64_t v, unsigned size)
{
	if (size >= 8)
		return (int64_t)v;
	uint64_t sign = (uint64_t)1 << (size * 8 - 1);
	v &= (sign << 1) - 1;
	return (int64_t)((v ^ sign) - sign);
}

static int clamp_add_digit(int v, char c)
{
	v = v * 10 + (c - '0');
	return v > SYST_FMT_MAX_WIDTH ? SYST_FMT_MAX_WIDTH : v;
}

/* The F_* bit of a flag character, 0 for any other character.  (A switch,
 * not strchr: this runs for every character of every conversion.) */
static unsigned flag_of(char c)
{
	switch (c) {
	case '-': return F_MINUS;
	case '+': return F_PLUS;
	case ' ': return F_SPACE;
	case '#': return F_HASH;
	case '0': return F_ZERO;
	case '\'': return F_QUOTE;
	default: return 0;
	}
}

/* Is c a conversion that takes an argument? */
static int is_conversion(char c)
{
	switch (c) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': case 'C':
	case 's': case 'S': case 'p': case 'n':
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		return 1;
	default:
		return 0;
	}
}

/* Parse the spec after '%' at fmt[i]; returns the index after the
 * conversion character, or 0 if the format ends inside the spec. */
static size_t parse_spec(const char *fmt, size_t n, size_t i, struct spec *s)
{
	static const struct spec blank = { 0, -1, -1, 0, 0, "", 0 };
	*s = blank;
	for (unsigned f; i < n && (f = flag_of(fmt[i])) != 0; i++)
		s->flags |= f;
	if (i < n && fmt[i] == '*') {
		s->star_w = 1;
		i++;
	} else {
		for (; i < n && fmt[i] >= '0' && fmt[i] <= '9'; i++)
			s->width = clamp_add_digit(s->width < 0 ? 0 : s->width, fmt[i]);
	}
	if (i < n && fmt[i] == '.') {
		i++;
		s->prec = 0;
		if (i < n && fmt[i] == '*') {
			s->star_p = 1;
			i++;
		} else {
			for (; i < n && fmt[i] >= '0' && fmt[i] <= '9'; i++)
				s->prec = clamp_add_digit(s->prec, fmt[i]);
		}
	}
	if (i < n && (fmt[i] == 'h' || fmt[i] == 'l')) {
		s->len[0] = fmt[i++];
		if (i < n && fmt[i] == s->len[0])
			s->len[1] = fmt[i++];
	} else if (i < n && (fmt[i] == 'L' || fmt[i] == 'q' || fmt[i] == 'j' || fmt[i] == 'z' ||
			     fmt[i] == 't')) {
		s->len[0] = fmt[i++];
	}
	if (i >= n || !fmt[i])
		return 0;
	s->conv = fmt[i];
	return i + 1;
}

/* Bytes of an integer argument for the length modifier. */
static unsigned int_size(const struct spec *s, unsigned long_size)
{
	switch (s->len[0]) {
	case 'l':
		return s->len[1] ? 8 : long_size;
	case 'L': case 'q': case 'j':
		return 8;
	case 'z': case 't':
		return long_size;
	default:
		return 4;
	}
}

/* Build "%<flags><width>.<prec><mod><conv>" for snprintf. */
static void build(char *out, const struct spec *s, const char *mod, char conv)
{
	static const char flag_chars[] = "-+ #0'";
	char *p = out;
	*p++ = '%';
	for (int b = 0; b < 6; b++)
		if (s->flags & (1u << b))
			*p++ = flag_chars[b];
	if (s->width >= 0)
		p += sprintf(p, "%d", s->width);
	if (s->prec >= 0)
		p += sprintf(p, ".%d", s->prec);
	while (*mod)
		*p++ = *mod++;
	*p++ = conv;
	*p = '\0';
}

static void put_utf8(struct syst_sb *out, uint32_t c)
{
	char b[4];
	if (c > 0x10FFFF)
		c = 0xFFFD;
	if (c < 0x80) {
		b[0] = (char)c;
		syst_sb_put(out, b, 1);
	} else if (c < 0x800) {
		b[0] = (char)(0xC0 | c >> 6);
		b[1] = (char)(0x80 | (c & 0x3F));
		syst_sb_put(out, b, 2);
	} else if (c < 0x10000) {
		b[0] = (char)(0xE0 | c >> 12);
		b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[2] = (char)(0x80 | (c & 0x3F));
		syst_sb_put(out, b, 3);
	} else {
		b[0] = (char)(0xF0 | c >> 18);
		b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[3] = (char)(0x80 | (c & 0x3F));
		syst_sb_put(out, b, 4);
	}
}

static void record(struct sonde_arg *args, size_t max_args, size_t *nargs,
		   enum sonde_arg_type t, uint64_t u)
{
	if (*nargs >= max_args)
		return;
	struct sonde_arg *a = &args[(*nargs)++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->v.u = u;
}

/* The common integer conversions (%d %u %x %X, %8d, %08x, with any length
 * modifier; h/hh values arrive truncated) straight into out, without going
 * through vsnprintf: they are most of what SyS-T messages print.  Returns
 * 0 when the spec needs printf (flags other than '0', a precision). */
static int fast_int(struct syst_sb *out, const struct spec *s, uint64_t v, int neg)
{
	if ((s->flags & ~(unsigned)F_ZERO) || s->prec >= 0 || s->width > 40)
		return 0;
	char digits[24];
	size_t n;
	if (s->conv == 'x' || s->conv == 'X')
		n = numfmt_hex(digits, v, 1, s->conv == 'X');
	else if (s->conv == 'o')
		return 0;
	else
		n = numfmt_u64(digits, v);
	size_t len = n + (neg != 0);
	size_t pad = s->width > 0 && (size_t)s->width > len ? (size_t)s->width - len : 0;
	if (!(s->flags & F_ZERO))
		for (; pad; pad--)
			syst_sb_putc(out, ' ');
	if (neg)
		syst_sb_putc(out, '-');
	for (; pad; pad--) /* '0': zeros after the sign */
		syst_sb_putc(out, '0');
	syst_sb_put(out, digits, n);
	return 1;
}

/* What printf prints of an int argument x under h (short) or hh (char). */
static int64_t h_signed(const struct spec *s, int64_t x)
{
	if (s->len[0] != 'h')
		return x;
	return s->len[1] ? (int64_t)(int8_t)x : (int64_t)(int16_t)x;
}

static uint64_t h_unsigned(const struct spec *s, uint64_t v)
{
	if (s->len[0] != 'h')
		return v;
	return s->len[1] ? (uint8_t)v : (uint16_t)v;
}

/* %s, %.Ns, %Ns, %-Ns without vsnprintf: at most prec bytes of the string,
 * padded with blanks to the width.  0 when the spec needs printf (other
 * flags). */
static int fast_str(struct syst_sb *out, const struct spec *s, const char *p, size_t n)
{
	if (s->flags & ~(unsigned)F_MINUS)
		return 0;
	if (s->prec >= 0 && (size_t)s->prec < n)
		n = (size_t)s->prec;
	size_t pad = s->width > 0 && (size_t)s->width > n ? (size_t)s->width - n : 0;
	if (s->flags & F_MINUS)
		syst_sb_put(out, p, n);
	for (; pad; pad--)
		syst_sb_putc(out, ' ');
	if (!(s->flags & F_MINUS))
		syst_sb_put(out, p, n);
	return 1;
}

/* Render one conversion.  Returns SYST_FMT_OK or the failure. */
static enum syst_fmt_result convert(struct syst_sb *out, struct reader *r, struct spec *s,
				    struct sonde_arg *args, size_t max_args, size_t *nargs)
{
	unsigned ls = r->in->long_size;
	uint64_t v;
	char sp[48];

	if (s->star_w) {
		if (!take(r, 4, &v))
			return SYST_FMT_SHORT_ARGS;
		int64_t w = sign_extend(v, 4);
		if (w < 0) {
			s->flags |= F_MINUS;
			w = -w;
		}
		s->width = w > SYST_FMT_MAX_WIDTH ? SYST_FMT_MAX_WIDTH : (int)w;
	}
	if (s->star_p) {
		if (!take(r, 4, &v))
			return SYST_FMT_SHORT_ARGS;
		int64_t pr = sign_extend(v, 4);
		s->prec = pr < 0 ? -1 : pr > SYST_FMT_MAX_WIDTH ? SYST_FMT_MAX_WIDTH : (int)pr;
	}

	switch (s->conv) {
	case 'd': case 'i': {
		unsigned size = int_size(s, ls);
		if (!take(r, size, &v))
			return SYST_FMT_SHORT_ARGS;
		int64_t x = sign_extend(v, size), shown = h_signed(s, x);
		if (fast_int(out, s, shown < 0 ? 0 - (uint64_t)shown : (uint64_t)shown, shown < 0)) {
			/* done */
		} else if (size == 4 && s->len[0] != 'l' && s->len[0] != 'z' && s->len[0] != 't') {
			build(sp, s, s->len, s->conv); /* keeps hh/h truncation */
			syst_sb_printf(out, sp, (int)x);
		} else {
			build(sp, s, "ll", s->conv);
			syst_sb_printf(out, sp, (long long)x);
		}
		record(args, max_args, nargs, size == 8 ? SONDE_A_I64 : SONDE_A_I32, (uint64_t)x);
		return SYST_FMT_OK;
	}
	case 'u': case 'o': case 'x': case 'X': {
		unsigned size = int_size(s, ls);
		if (!take(r, size, &v))
			return SYST_FMT_SHORT_ARGS;
		if (size < 8)
			v &= 0xFFFFFFFFu;
		if (fast_int(out, s, h_unsigned(s, v), 0)) {
			/* done */
		} else if (size == 4 && s->len[0] != 'l' && s->len[0] != 'z' && s->len[0] != 't') {
			build(sp, s, s->len, s->conv);
			syst_sb_printf(out, sp, (unsigned)v);
		} else {
			build(sp, s, "ll", s->conv);
			syst_sb_printf(out, sp, (unsigned long long)v);
		}
		record(args, max_args, nargs,
		       s->conv == 'u' ? (size == 8 ? SONDE_A_U64 : SONDE_A_U32) : SONDE_A_HEX, v);
		return SYST_FMT_OK;
	}
	case 'c': case 'C':
		if (!take(r, 4, &v))
			return SYST_FMT_SHORT_ARGS;
		v &= 0xFFFFFFFFu;
		if ((s->conv == 'C' || s->len[0] == 'l') && v >= 0x80) {
			put_utf8(out, (uint32_t)v); /* wide character: no width */
		} else if (s->width <= 1) {
			syst_sb_putc(out, (char)(uint8_t)v); /* no padding: the flags do nothing */
		} else {
			build(sp, s, "", 'c');
			syst_sb_printf(out, sp, (int)v);
		}
		record(args, max_args, nargs, SONDE_A_U32, v);
		return SYST_FMT_OK;
	case 's': case 'S': {
		if (r->in->single) { /* no string behind a single value */
			syst_sb_puts(out, "(null)");
			return SYST_FMT_OK;
		}
		const uint8_t *p = r->in->args + r->pos;
		size_t left = r->in->nargs_bytes - r->pos;
		const uint8_t *nul = memchr(p, 0, left);
		if (!nul)
			return SYST_FMT_BAD_STRING;
		if (!fast_str(out, s, (const char *)p, (size_t)(nul - p))) {
			build(sp, s, "", 's');
			syst_sb_printf(out, sp, (const char *)p);
		}
		if (*nargs < max_args) {
			struct sonde_arg *a = &args[(*nargs)++];
			memset(a, 0, sizeof(*a));
			a->type = SONDE_A_STR;
			a->v.mem.p = p;
			a->v.mem.n = (size_t)(nul - p);
		}
		r->pos += (size_t)(nul - p) + 1;
		return SYST_FMT_OK;
	}
	case 'p':
		if (!take(r, ls, &v))
			return SYST_FMT_SHORT_ARGS;
		if (!s->flags && s->width < 0 && s->prec < 0) {
			/* glibc's plain %p: (nil), else 0x and lower-case hex */
			char hex[2 + 16] = { '0', 'x' };
			uint64_t pv = (uintptr_t)v; /* as wide as the host's pointers */
			if (pv)
				syst_sb_put(out, hex, 2 + numfmt_hex(hex + 2, pv, 1, 0));
			else
				syst_sb_put(out, "(nil)", 5);
		} else {
			build(sp, s, "", 'p');
			syst_sb_printf(out, sp, (void *)(uintptr_t)v);
		}
		record(args, max_args, nargs, SONDE_A_HEX, v);
		return SYST_FMT_OK;
	case 'n': /* a pointer the client sent; writes nothing here */
		if (!take(r, ls, &v))
			return SYST_FMT_SHORT_ARGS;
		return SYST_FMT_OK;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
		double d;
		if (!take(r, 8, &v))
			return SYST_FMT_SHORT_ARGS;
		if (r->in->single)
			d = (double)v;
		else
			memcpy(&d, &v, sizeof(d));
		build(sp, s, "", s->conv);
		syst_sb_printf(out, sp, d);
		if (*nargs < max_args) {
			struct sonde_arg *a = &args[(*nargs)++];
			memset(a, 0, sizeof(*a));
			a->type = SONDE_A_F64;
			a->v.f = d;
		}
		return SYST_FMT_OK;
	}
	default:
		return SYST_FMT_OK; /* not reached: unknown conversions are literal */
	}
}

/* Bytes one conversion takes from the packed arguments at a[0..n): the
 * sizes convert() reads.  SIZE_MAX when they run out. */
static size_t arg_bytes(const struct spec *s, const uint8_t *a, size_t n, unsigned long_size)
{
	size_t k = (s->star_w ? 4u : 0u) + (s->star_p ? 4u : 0u);
	switch (s->conv) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		k += int_size(s, long_size);
		break;
	case 'c': case 'C':
		k += 4;
		break;
	case 'p': case 'n':
		k += long_size;
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		k += 8;
		break;
	case 's': case 'S': {
		const uint8_t *nul = k <= n ? memchr(a + k, 0, n - k) : NULL;
		if (!nul)
			return SIZE_MAX;
		k = (size_t)(nul - a) + 1;
		break;
	}
	default:
		return 0;
	}
	return k <= n ? k : SIZE_MAX;
}

size_t syst_fmt_arg_bytes(const char *fmt, size_t n, const uint8_t *args, size_t nbytes, unsigned long_size)
{
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		if (fmt[i] != '%')
			continue;
		struct spec s;
		size_t next = parse_spec(fmt, n, i + 1, &s);
		if (!next)
			break;
		if (is_conversion(s.conv)) {
			size_t k = arg_bytes(&s, args + used, nbytes - used, long_size);
			if (k == SIZE_MAX)
				return SIZE_MAX;
			used += k;
		}
		i = next - 1;
	}
	return used;
}

enum syst_fmt_result syst_fmt(struct syst_sb *out, const struct syst_fmt_in *in,
			      struct sonde_arg *args, size_t max_args, size_t *nargs)
{
	struct reader r = { in, 0 };
	const char *f = in->fmt;
	size_t n = in->fmt_len, i = 0, lit = 0, start = out->len;
	enum syst_fmt_result res = SYST_FMT_OK;

	*nargs = 0;
	while (i < n && !out->full) {
		const char *pct = memchr(f + i, '%', n - i);
		if (!pct) {
			i = n;
			break;
		}
		i = (size_t)(pct - f);
		syst_sb_put(out, f + lit, i - lit);
		struct spec s;
		size_t next = parse_spec(f, n, i + 1, &s);
		if (!next) { /* format ends inside a spec: print it as it is */
			lit = i;
			i = n;
			break;
		}
		if (s.conv == '%') {
			syst_sb_putc(out, '%');
		} else if (!is_conversion(s.conv)) {
			syst_sb_put(out, f + i, next - i); /* glibc prints unknown specs */
		} else {
			res = convert(out, &r, &s, args, max_args, nargs);
			if (res != SYST_FMT_OK) {
				lit = i = n;
				break;
			}
		}
		lit = i = next;
	}
	if (res == SYST_FMT_OK) {
		syst_sb_put(out, f + lit, i - lit);
	} else if (res == SYST_FMT_SHORT_ARGS) {
		syst_sb_puts(out, "- insufficient argument bytes for format '");
		syst_sb_put(out, f, n);
		syst_sb_putc(out, '\'');
	} else {
		/* the printer replaces the whole text by this message (when the
		 * byte after the arguments, which it reads, is not 0) */
		out->len = start;
		if (out->cap)
			out->buf[start] = '\0';
		syst_sb_puts(out, " - corrupt printf payload, missing argument string termination");
	}
	return res;
}
