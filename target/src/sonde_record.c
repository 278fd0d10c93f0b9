/*
 * sonde_record.c -- the fast paths of the timed records: one function per
 * shape of record (sonde.h: sonde_w_*), each the whole record -- critical
 * section, clock, frame, escape pre-test -- with the slow path out of line.
 *
 * Every frame here is  SEQ ID payload ts CHK 0x7E,  built in registers and
 * stored with word stores at any alignment: the header word (SEQ, ID and
 * the first payload bytes), the rest of the payload, then the timestamp
 * field as one word (its bytes above its width are zero, and the next
 * store or free space takes them), then CHK and the flag as one halfword.
 * A word store may reach up to 3 bytes past the flag: that is inside the
 * worst-case room wlim keeps (sonde_internal.h), in free space nothing
 * reads.
 *
 * The pre-test (sonde_esc_maybe) covers every byte that can vary: SEQ,
 * variable payload bytes, the timestamp and CHK, combined into as few
 * words as their free lanes allow.  Constants (record ids of the system
 * records, argument type codes) never need escaping and are left out.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED && SONDE_CFG_FAST_PATH

/* The flag after CHK, in the halfword that ends every frame. */
#define FLAG_HI ((uint32_t)SONDE_FLAG << 8)

/* A timestamp field and CHK|flag after the payload, which ends at q. */
SONDE_INLINE uint8_t *put_tail(uint8_t *q, uint32_t enc, uint32_t w, uint32_t chk)
{
	sonde_st32(q, enc);
	q += w;
	sonde_st16(q, chk | FLAG_HI);
	return q + 2;
}

/* ISR_ENTER, TASK_IN, TASK_READY, MARK*:  SEQ ID obj ts CHK 7E.
 *
 * Gaps below 0x7D ticks (back-to-back records) have their own block: the
 * one-byte timestamp goes into the header word, which is then pre-tested
 * with CHK in the place of the (constant) record id; stopping the class at
 * 0x7D keeps it out of the escape range.  Longer gaps share one block. */
void sonde_w_obj(uint32_t id, uint32_t obj)
{
	struct sonde_state *g = &sonde_g;
	uint32_t now, d, enc, w, seq, h, chk, esc;
	uint8_t *p;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	p = g->wp;
	if ((uintptr_t)p > g->wlim)
		goto slow;
	d = now - g->last;
	seq = g->seq + 1u;
	if (SONDE_LIKELY(d < SONDE_TS_ONE)) {
		h = seq | obj << 16 | d << 24;
		chk = (0xFFu - id - seq - obj - d) & 0xFFu;
		esc = sonde_esc_maybe(h | chk << 8);
		sonde_st32(p, h | id << 8);
		sonde_st16(p + 4, chk | FLAG_HI);
		sonde_fast_done(p + 6, 6u, seq, now, esc);
	} else {
		if ((w = sonde_ts_field(d, &enc)) == 0u)
			goto slow;
		h = seq | id << 8 | obj << 16;
		chk = ~(seq + id + obj + sonde_sum32(enc)) & 0xFFu;
		esc = sonde_esc_maybe(h | chk << 24) | sonde_esc_maybe(enc);
		sonde_st32(p, h);
		sonde_fast_done(put_tail(p + 3, enc, w, chk), 5u + w, seq, now, esc);
	}
	SONDE_PORT_CRIT_EXIT();
	return;
slow:
	g->xd[0] = (uint8_t)obj;
	sonde_slow(id | 1u << 8, now);
	SONDE_PORT_CRIT_EXIT();
}

/* Up to 2 payload bytes, in hdr above the id (hdr = id | b0 << 8 | b1 <<
 * 16 | n << 24): ISR_EXIT, IDLE, FUNC_EXIT (n = 0), TASK_OUT, TASK_CREATE,
 * FUNC_ENTER (n = 2).  SEQ, ID and the payload make one word. */
void sonde_w_small(uint32_t hdr)
{
	struct sonde_state *g = &sonde_g;
	uint32_t n = hdr >> 24, now, d, enc, w, seq, h, chk, esc;
	uint8_t *p;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	p = g->wp;
	hdr &= 0xFFFFFFu;
	if ((uintptr_t)p > g->wlim)
		goto slow;
	d = now - g->last;
	seq = g->seq + 1u;
	h = seq | hdr << 8;
	if (SONDE_LIKELY(d < SONDE_TS_ONE)) {
		/* the timestamp byte, CHK and the flag in one word after the payload */
		chk = (0xFFu - seq - d - sonde_sum32(hdr)) & 0xFFu;
		esc = sonde_esc_maybe(h) | sonde_esc_maybe(chk);
		sonde_st32(p, h);
		sonde_st32(p + 2 + n, d | chk << 8 | FLAG_HI << 8);
		sonde_fast_done(p + 5 + n, 5u + n, seq, now, esc);
	} else {
		if ((w = sonde_ts_field(d, &enc)) == 0u)
			goto slow;
		chk = ~(seq + sonde_sum32(hdr) + sonde_sum32(enc)) & 0xFFu;
		esc = sonde_esc_maybe(h) | sonde_esc_maybe(enc) | sonde_esc_maybe(chk);
		sonde_st32(p, h);
		sonde_fast_done(put_tail(p + 2 + n, enc, w, chk), 4u + n + w, seq, now, esc);
	}
	SONDE_PORT_CRIT_EXIT();
	return;
slow:
	sonde_st32(g->xd, hdr >> 8);
	sonde_slow((hdr & 0xFFu) | n << 8, now);
	SONDE_PORT_CRIT_EXIT();
}

/* A user record with two U32 arguments:  SEQ rec 03 a 03 b ts CHK 7E.  The
 * user record id can be 0x7D or 0x7E: it is pre-tested with SEQ. */
void sonde_w_u32x2(uint32_t rec, uint32_t a, uint32_t b)
{
	struct sonde_state *g = &sonde_g;
	uint32_t now, enc, w, seq, hdr, chk, esc;
	uint8_t *p;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	p = g->wp;
	if (SONDE_LIKELY((uintptr_t)p <= g->wlim && (w = sonde_ts_field(now - g->last, &enc)) != 0u)) {
		seq = g->seq + 1u;
		hdr = seq | rec << 8 | (uint32_t)SONDE_ARG_U32 << 16 | a << 24;
		chk = ~(seq + rec + 2u * SONDE_ARG_U32 + sonde_sum32(a) + sonde_sum32(b) + sonde_sum32(enc)) & 0xFFu;
		esc = sonde_esc_maybe(hdr) | sonde_esc_maybe(a >> 8 | chk << 24) | sonde_esc_maybe(b) |
		      sonde_esc_maybe(enc);
		sonde_st32(p, hdr);
		sonde_st32(p + 4, a >> 8 | (uint32_t)SONDE_ARG_U32 << 24);
		sonde_st32(p + 8, b);
		sonde_fast_done(put_tail(p + 12, enc, w, chk), 14u + w, seq, now, esc);
	} else {
		g->xd[0] = SONDE_ARG_U32;
		sonde_st32(g->xd + 1, a);
		g->xd[5] = SONDE_ARG_U32;
		sonde_st32(g->xd + 6, b);
		sonde_slow(rec | 10u << 8, now);
	}
	SONDE_PORT_CRIT_EXIT();
}

/*
 * Every other timed record: prefix bytes, then none, one or two 32-bit
 * words, each after an U32 type code when typed (shape: SONDE_W_SHAPE):
 *   ISR_EXIT, IDLE, FUNC_EXIT            (nothing)
 *   TASK_OUT, TASK_CREATE, FUNC_ENTER    2 prefix bytes
 *   COUNTER                              obj, then 1 or 2 words, untyped
 *   FUNC_ENTER_A                         1 or 2 words, untyped
 *   user u32, u32x2                      03 a (03 b)
 *   LOG u32, u32x2                       level fmt(2) 03 a (03 b)
 * hdr = id | prefix << 8; unused words are 0.  The layout is stored with
 * word stores at offsets that depend on the shape; a store may put junk
 * bytes past the payload, which the next store or the timestamp field
 * overwrites (or which fall into the free room after the frame).
 */
void sonde_w_gen(uint32_t hdr, uint32_t a, uint32_t b, uint32_t shape)
{
	struct sonde_state *g = &sonde_g;
	uint32_t now, enc, w, seq, h, pre2, chk, esc, sum, k;
	uint32_t words = shape >> 2 & 3u, typed = shape >> 4;
	uint8_t *p;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	p = g->wp;
	if (SONDE_LIKELY((uintptr_t)p <= g->wlim && (w = sonde_ts_field(now - g->last, &enc)) != 0u)) {
		seq = g->seq + 1u;
		h = seq | hdr << 8;
		pre2 = hdr >> 24;
		sum = seq + sonde_sum32(hdr) + sonde_sum32(a) + sonde_sum32(b) + sonde_sum32(enc) +
		      (typed ? words * SONDE_ARG_U32 : 0u);
		sonde_st32(p, h);
		sonde_st32(p + 4, pre2);
		k = 2u + (shape & 3u);
		if (words != 0u) {
			if (typed)
				p[k++] = SONDE_ARG_U32;
			sonde_st32(p + k, a);
			k += 4u;
			if (words == 2u) {
				if (typed)
					p[k++] = SONDE_ARG_U32;
				sonde_st32(p + k, b);
				k += 4u;
			}
		}
		chk = ~sum & 0xFFu;
		esc = sonde_esc_maybe(h) | sonde_esc_maybe(pre2 | chk << 8) | sonde_esc_maybe(a) |
		      sonde_esc_maybe(b) | sonde_esc_maybe(enc);
		sonde_fast_done(put_tail(p + k, enc, w, chk), k + 2u + w, seq, now, esc);
	} else {
		uint8_t *x = g->xd;

		sonde_st32(x, hdr >> 8);
		x += shape & 3u;
		if (words != 0u) {
			if (typed)
				*x++ = SONDE_ARG_U32;
			sonde_st32(x, a);
			x += 4;
			if (words == 2u) {
				if (typed)
					*x++ = SONDE_ARG_U32;
				sonde_st32(x, b);
				x += 4;
			}
		}
		sonde_slow((hdr & 0xFFu) | (uint32_t)(x - g->xd) << 8, now);
	}
	SONDE_PORT_CRIT_EXIT();
}

#elif SONDE_ENABLED /* !SONDE_CFG_FAST_PATH: the smallest library */

/* Every record through the slow path: the payload in sonde_g.xd, one
 * reading of the clock inside the critical section. */
static void w_slow(uint32_t id_n, const uint8_t *d)
{
	uint32_t n = id_n >> 8;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	sonde_copy(sonde_g.xd, d, n);
	sonde_slow(id_n, SONDE_PORT_TS());
	SONDE_PORT_CRIT_EXIT();
}

void sonde_w_obj(uint32_t id, uint32_t obj)
{
	uint8_t d = (uint8_t)obj;

	w_slow(id | 1u << 8, &d);
}

void sonde_w_small(uint32_t hdr)
{
	uint8_t d[4];

	sonde_st32(d, hdr >> 8);
	w_slow((hdr & 0xFFu) | (hdr >> 24) << 8, d);
}

void sonde_w_gen(uint32_t hdr, uint32_t a, uint32_t b, uint32_t shape)
{
	uint8_t d[16], *x = d;
	uint32_t words = shape >> 2 & 3u, k;

	sonde_st32(x, hdr >> 8);
	x += shape & 3u;
	for (k = 0; k < words; k++) {
		if (shape >> 4)
			*x++ = SONDE_ARG_U32;
		sonde_st32(x, k ? b : a);
		x += 4;
	}
	w_slow((hdr & 0xFFu) | (uint32_t)(x - d) << 8, d);
}

void sonde_w_u32x2(uint32_t rec, uint32_t a, uint32_t b)
{
	sonde_w_gen(rec, a, b, SONDE_W_SHAPE(0u, 2u, 1u));
}

#endif /* SONDE_CFG_FAST_PATH */

#if SONDE_ENABLED
void sonde_func_enter_addr(const void *addr)
{
	uint64_t a = (uint64_t)(uintptr_t)addr;

	if (!sonde_rec_on_(SONDE_REC_FUNC_ENTER_A))
		return;
	sonde_w_gen(SONDE_REC_FUNC_ENTER_A, (uint32_t)a, (uint32_t)(a >> 32),
		    SONDE_W_SHAPE(0u, SONDE_ADDR_SIZE / 4u, 0u));
}

#endif /* SONDE_ENABLED */
