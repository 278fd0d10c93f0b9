/*
 * sonde_build.c -- user and log records built argument by argument
 * (sonde_user_begin ... sonde_arg_* ... sonde_user_end).
 *
 * The DATA is assembled in a static buffer of SONDE_RECORD_MAX bytes and
 * framed at end -- word by word when the fast path is open, else through
 * the slow path -- so a record is written whole or not at all, with its
 * exact size.  The critical section is held from a successful begin to
 * end, which makes the one static buffer safe.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

/* The saved interrupt state of the section held between begin and end. */
static SONDE_PORT_CRIT_DECL;

/* n when an argument did not fit: the record is refused at end.  Larger
 * than SONDE_RECORD_MAX, so every later size test fails too. */
#define OVER 0xFFFFu

static struct {
	uint32_t now;                  /* the record's time, read at begin */
	uint16_t n;                    /* bytes in d, or OVER */
	uint8_t id;
	uint8_t d[SONDE_RECORD_MAX + 3u]; /* + 3: end pads the last word with zeros */
} bld;

SONDE_INLINE int begin(uint8_t id)
{
	SONDE_PORT_CRIT_ENTER();
	if (sonde_g.flags & SONDE_F_REFUSE) {
		if (sonde_g.buf != NULL) {
			sonde_refuse();
			sonde_ring_relimit();
		}
		SONDE_PORT_CRIT_EXIT();
		return 0;
	}
	bld.now = SONDE_PORT_TS();
	bld.id = id;
	bld.n = 0;
	return 1;
}

/* Where the next need bytes go, or NULL (and the record refused at end)
 * when they do not fit.  Inline: a call would double an argument's cost. */
SONDE_INLINE uint8_t *room(unsigned need)
{
	unsigned n = bld.n;

	if (n > SONDE_RECORD_MAX - need) {
		bld.n = OVER;
		return NULL;
	}
	bld.n = (uint16_t)(n + need);
	return bld.d + n;
}

/* A type byte and n = 1, 2, 4 or 8 bytes of v, little-endian. */
SONDE_INLINE void add(uint8_t type, uint64_t v, unsigned n)
{
	uint8_t *d = room(n + 1u);

	if (d == NULL)
		return;
	d[0] = type;
	if (n == 8u) {
		sonde_st32(d + 1, (uint32_t)v);
		sonde_st32(d + 5, (uint32_t)(v >> 32));
	} else {
		sonde_st(d + 1, (uint32_t)v, n);
	}
}

/* No buffer (never initialised, or too small) needs no test here: the
 * fast path is closed then (wlim 0), and sonde_write() ignores the
 * record. */
int sonde_user_begin(uint8_t rec)
{
	if (!sonde_obj_on_(SONDE_OF_USER, rec))
		return 0;
	return begin(rec);
}

int sonde_log_begin(uint8_t level, uint16_t fmt)
{
	uint8_t *d;

	if (!sonde_rec_on_(SONDE_REC_LOG) || !begin(SONDE_REC_LOG))
		return 0;
	d = room(3u); /* always fits: SONDE_RECORD_MAX >= 16 */
	d[0] = level;
	sonde_st16(d + 1, fmt);
	return 1;
}

/*
 * The record's frame written the fast path's way (sonde_record.c): the
 * header word, DATA copied a word at a time -- summed and pre-tested for
 * escapes four bytes at a time -- then the timestamp field, CHK and the
 * flag; sonde_fix() if the pre-test hit.  The three bytes after DATA are
 * zeroed first, so the last word's spare bytes add nothing to the sum and
 * never look like escapes (the timestamp overwrites them).  0 when the
 * slow path must write it: a frame larger than the fast paths' room, or
 * anything rare pending.
 */
static int end_fast(void)
{
#if !SONDE_CFG_FAST_PATH
	return 0;
#else
	struct sonde_state *g = &sonde_g;
	uint8_t *p = g->wp, *d = bld.d;
	uint32_t n = bld.n, now = bld.now, seq, hdr, sum, chk, esc, enc, w, i;
	uint32_t worst = SONDE_WORST(n + SONDE_TS_MAX_BYTES);
	uintptr_t extra = worst > SONDE_FAST_WORST ? worst - SONDE_FAST_WORST : 0u;

	/* wlim leaves room for SONDE_FAST_WORST bytes at wlim: a longer
	 * record needs its excess more. */
	if (g->wlim == 0u || (uintptr_t)p + extra > g->wlim || (w = sonde_ts_field(now - g->last, &enc)) == 0u)
		return 0;
	seq = g->seq + 1u;
	hdr = seq | (uint32_t)bld.id << 8;
	sonde_st32(p, hdr);
	sum = seq + bld.id + sonde_sum32(enc);
	esc = sonde_esc_maybe(hdr) | sonde_esc_maybe(enc);
	d[n] = d[n + 1u] = d[n + 2u] = 0;
	for (i = 0; i < n; i += 4u) {
		uint32_t v = sonde_ld32(d + i);

		sonde_st32(p + 2 + i, v);
		sum += sonde_sum32(v);
		esc |= sonde_esc_maybe(v);
	}
	chk = ~sum & 0xFFu;
	esc |= sonde_esc_maybe(chk);
	sonde_st32(p + 2 + n, enc);
	sonde_st16(p + 2 + n + w, chk | (uint32_t)SONDE_FLAG << 8);
	sonde_fast_done(p + 4 + n + w, 4u + n + w, seq, now, esc);
	return 1;
#endif
}

void sonde_user_end(void)
{
	if (bld.n == OVER) {
		sonde_refuse();
		sonde_ring_relimit();
	} else if (!end_fast()) {
		sonde_write(bld.id, SONDE_W_TIMED, bld.now, bld.d, bld.n, NULL, 0u);
	}
	SONDE_PORT_CRIT_EXIT();
}

void sonde_arg_u8(uint8_t v)
{
	add(SONDE_ARG_U8, v, 1u);
}

void sonde_arg_u16(uint16_t v)
{
	add(SONDE_ARG_U16, v, 2u);
}

void sonde_arg_u32(uint32_t v)
{
	add(SONDE_ARG_U32, v, 4u);
}

void sonde_arg_u64(uint64_t v)
{
	add(SONDE_ARG_U64, v, 8u);
}

void sonde_arg_i8(int8_t v)
{
	add(SONDE_ARG_I8, (uint8_t)v, 1u);
}

void sonde_arg_i16(int16_t v)
{
	add(SONDE_ARG_I16, (uint16_t)v, 2u);
}

void sonde_arg_i32(int32_t v)
{
	add(SONDE_ARG_I32, (uint32_t)v, 4u);
}

void sonde_arg_i64(int64_t v)
{
	add(SONDE_ARG_I64, (uint64_t)v, 8u);
}

/* IEEE-754 bits, sent little-endian like an integer of the same size. */
void sonde_arg_f32(float v)
{
	union { float f; uint32_t u; } b;

	b.f = v;
	add(SONDE_ARG_F32, b.u, 4u);
}

void sonde_arg_f64(double v)
{
	union { double f; uint64_t u; } b;

	b.f = v;
	add(SONDE_ARG_F64, b.u, 8u);
}

/* Cut to SONDE_STR_MAX characters and to the room left (the one argument
 * that shrinks instead of refusing the record). */
void sonde_arg_str(const char *s)
{
	unsigned left, len = 0;
	uint8_t *d;

	if (s == NULL)
		s = "";
	if (bld.n > SONDE_RECORD_MAX - 2u) {
		bld.n = OVER;
		return;
	}
	left = SONDE_RECORD_MAX - 2u - bld.n;
	while (len < SONDE_STR_MAX && len < left && s[len] != '\0')
		len++;
	d = room(len + 2u);
	d[0] = SONDE_ARG_STR;
	sonde_copy(d + 1, (const uint8_t *)s, len);
	d[len + 1u] = '\0';
}

void sonde_arg_mem(const void *p, uint8_t n)
{
	uint8_t *d = room(n + 2u);

	if (d == NULL)
		return;
	d[0] = SONDE_ARG_MEM;
	d[1] = n;
	if (n != 0u)
		sonde_copy(d + 2, (const uint8_t *)p, n);
}

void sonde_arg_obj(uint8_t obj)
{
	add(SONDE_ARG_OBJ, obj, 1u);
}

void sonde_arg_func(const void *addr)
{
	add(SONDE_ARG_FUNC, (uint64_t)(uintptr_t)addr, SONDE_ADDR_SIZE);
}

void sonde_arg_enum(uint8_t group, uint8_t value)
{
	add(SONDE_ARG_ENUM, (uint32_t)group | (uint32_t)value << 8, 2u);
}

#endif /* SONDE_ENABLED */
