/*
 * sonde_internal.h -- the state of the one Sonde instance and the inline
 * fast path every timed record goes through.  Not a public header.
 *
 * The fast path (sonde_timed) is what an ISR pays per record:
 *
 *   filter test (caller, one load) -> critical section -> one timestamp
 *   read -> one compare that catches every rare condition (plus, without
 *   SONDE_CFG_TICK_HOOK, a test of the timestamp's upper half) -> the frame
 *   built in registers and stored with word stores -> a four-bytes-at-a-time
 *   escape pre-test -> exit.
 *
 * The frame is framed here, at insertion: the ring holds finished HDLC
 * frames, as in the QS data protocol.  When the pre-test says a byte may
 * need escaping (or SEQ is 0xFF), the frame is still written by the fast
 * path and then fixed up in place by sonde_fix() (sonde_frame.c), which
 * escapes exactly.  Everything else -- a frame that could reach the end of
 * the buffer or the unread data, TIME_SYNC, DROPS, overwriting, refusing --
 * happens out of line in sonde_slow() (sonde_write.c), inside the same
 * critical section and with the same timestamp.
 */
#ifndef SONDE_INTERNAL_H
#define SONDE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sonde.h"
#include "sonde_port.h"

#if defined(__GNUC__)
#define SONDE_INLINE static inline __attribute__((always_inline))
#else
#define SONDE_INLINE static inline
#endif

/* ---- state ------------------------------------------------------------ */

/* Rare conditions.  While any is set the fast path is closed (wlim 0), so
 * the fast path never tests them one by one. */
#define SONDE_F_SYNC   0x01u /* next timed record needs a TIME_SYNC (rule 1, deferred rule 4,
			      * rule 2 found due by sonde_tick()) */
#define SONDE_F_DROPS  0x02u /* records were lost: a DROPS report is pending */
#define SONDE_F_STOP   0x04u /* sonde_stop(): refusing */
#define SONDE_F_FROZEN 0x08u /* triggered, or snapshot full: refusing */
#define SONDE_F_WRAP   0x10u /* SEQ 0xFF was written: the next frame takes the slow path */
#define SONDE_F_TIME   0x20u /* sonde_tick(): the next timed record could be 65536 ticks
			      * after the last one; the slow path checks rule 2 exactly */
#define SONDE_F_REFUSE (SONDE_F_STOP | SONDE_F_FROZEN)

struct sonde_state {
	/* Local filter, one byte per id, first in the state so that a record
	 * reads the byte of its object (or user record id) with one load from
	 * the state's base address:
	 *   bit 7 (SONDE_OF_LOCAL)  object id's own bit;
	 *   bits 0, 1, 3..6         that bit ANDed with the global bit of the
	 *                           record sonde_of_bit() names, so ISR, task
	 *                           and counter records test both filters with
	 *                           one load and one bit test;
	 *   bit 2 (SONDE_OF_USER)   id is a user record id (0x40..0x7F) whose
	 *                           global bit is set: the user records' range
	 *                           check and filter in one test.
	 * sonde_filter.c keeps them in step with rec_filter. */
	uint8_t obj_filter[256];
	/* Hot: read by every record. */
	uint8_t *wp;            /* next byte to write, in [buf, end) */
	uintptr_t wlim;         /* the fast path writes a frame at wp only if wp <= wlim:
				 * then any fast-path frame, every byte escaped, ends at
				 * least one byte before rp and before end.  0 closes the
				 * fast path (something rare is pending). */
	union {
		uint32_t w;     /* port counter at the last timed record or TIME_SYNC (rule 2) */
		uint16_t h[2];  /* its halves, for the fast path (sonde_fast_open) */
	} last_ts;
	uint8_t seq;            /* SEQ of the last frame written (0xFF after init) */
	uint8_t flags;          /* SONDE_F_* */
	uint8_t mode;           /* SONDE_MODE_* */
	uint8_t mid;            /* the drain stopped inside a frame (rp is mid-frame) */
	/* Ring buffer.  Empty when rp == wp; at most size - 1 bytes are used. */
	uint8_t *buf, *end, *rp;
	size_t size;
	/* Time: the 64-bit time is ts_hi:port counter.  ts_hi counts the
	 * counter's wraps: ext_ts is the counter at the last reading that
	 * updated it (slow path, sonde_tick()); a smaller reading means a wrap.
	 * The fast path leaves both alone. */
	uint32_t ts_hi, ext_ts;
	/* TIME_SYNC's since_prev (slow path only; sonde_write.c).  base_t is
	 * the 64-bit time of the slow path's last timed write (record or
	 * TIME_SYNC), rec_t that of the last timed record it knows of.  The
	 * fast path only moves last_ts and SEQ: when SEQ is no longer
	 * mark_seq (SEQ after the slow path's last write), fast-path records
	 * followed, the newest at last_ts, less than 2^24 ticks after base_t
	 * (at most 255 of them, each less than 65536 ticks after the one
	 * before), so its 64-bit time follows from base_t. */
	uint64_t base_t, rec_t;
	uint8_t mark_seq;
	uint8_t rec_none;       /* no timed record since sonde_init()/sonde_start() */
	/* Counters (sonde_get_stats).  Frames written = frames_hi * 256 + seq + 1. */
	uint32_t frames_hi;
	uint32_t overwritten, refused;
	uint32_t rep_refused;   /* refused as of the last DROPS */
	uint32_t bytes_out;     /* drained */
	uint32_t bytes_lost;    /* overwritten */
	uint32_t rec_base;      /* frames written before the last sonde_stats_reset() */
	uint32_t sys_frames;    /* frames of records 0x00..0x04 (EMPTY, TARGET_INFO,
				 * TIME_SYNC, DROPS, DICT), so tests can tell the
				 * application's records from the library's own */
	uint8_t fsum;           /* checksum of the frame being written (slow path) */
	/* Global filter, one byte per record id 0x00..0x7F (a bitmap would
	 * cost a record several more instructions). */
	uint8_t rec_filter[SONDE_REC_COUNT];
	uint8_t xd[16];         /* a fast-path payload on its way to sonde_slow() */
};

#define SONDE_OF_LOCAL 0x80u
#define SONDE_OF_USER  0x04u

extern struct sonde_state sonde_g;

/* Smallest buffer sonde_init() accepts: EMPTY and TARGET_INFO must fit. */
#define SONDE_MIN_BUFFER 64u

/* Wire bytes of a frame with n DATA bytes when every byte is escaped. */
#define SONDE_WORST(n) (2u * ((n) + 3u) + 1u)

/* Largest DATA (timestamp included) of a record on the fixed-shape fast
 * path: LOG with two U32 (ts, level, fmt(2), 03 a(4), 03 b(4)).  wlim keeps
 * room for the worst case of that, so the fast path needs no size test of
 * its own. */
#define SONDE_FAST_DATA  15u
#define SONDE_FAST_WORST SONDE_WORST(SONDE_FAST_DATA)

/* ---- filters (the first thing every record does) ---------------------- */

SONDE_INLINE int sonde_rec_on(uint32_t rec)
{
	return sonde_g.rec_filter[rec] != 0u;
}

/* The obj_filter bit that combines rec's global bit with the local one,
 * 0 for the records that test the two separately (markers, and the rare
 * TASK_CREATE, whose bit serves the user records). */
SONDE_INLINE uint32_t sonde_of_bit(uint32_t rec)
{
	switch (rec) {
	case SONDE_REC_ISR_ENTER:   return 0x01u;
	case SONDE_REC_ISR_EXIT:    return 0x02u;
	case SONDE_REC_TASK_IN:     return 0x08u;
	case SONDE_REC_TASK_OUT:    return 0x10u;
	case SONDE_REC_TASK_READY:  return 0x20u;
	case SONDE_REC_COUNTER:     return 0x40u;
	default:                    return 0u;
	}
}

/* Global and local filter of a record naming an object (rec a constant). */
SONDE_INLINE int sonde_obj_pass(uint32_t rec, uint8_t obj)
{
	if (sonde_of_bit(rec) != 0u)
		return (sonde_g.obj_filter[obj] & sonde_of_bit(rec)) != 0u;
	return sonde_rec_on(rec) && (sonde_g.obj_filter[obj] & SONDE_OF_LOCAL) != 0u;
}

/* User record ids outside 0x40..0x7F are ignored, like filtered ones: their
 * SONDE_OF_USER bit is never set. */
SONDE_INLINE int sonde_user_pass(uint8_t rec)
{
	return (sonde_g.obj_filter[rec] & SONDE_OF_USER) != 0u;
}

/* ---- word helpers ----------------------------------------------------- */

/*
 * Little-endian stores and loads at any address.  With GCC or clang on a
 * little-endian CPU: one access through a type of alignment 1, which the
 * compiler turns into a single STR/LDR where the CPU allows unaligned
 * access (ARMv7-M does; -mno-unaligned-access gets byte accesses).  Not
 * memcpy: with -ffreestanding (-fno-builtin) memcpy is a real call.
 * Elsewhere, byte by byte, unless the port supplies its own
 * (SONDE_PORT_ST32LE, SONDE_PORT_ST16LE, SONDE_PORT_LD32LE; sonde_port.h).
 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef uint32_t sonde_u32_any __attribute__((aligned(1), may_alias));
typedef uint16_t sonde_u16_any __attribute__((aligned(1), may_alias));
#define SONDE_LE_ANY 1
#endif

SONDE_INLINE void sonde_st32(uint8_t *p, uint32_t w)
{
#if defined(SONDE_PORT_ST32LE)
	SONDE_PORT_ST32LE(p, w);
#elif defined(SONDE_LE_ANY)
	*(sonde_u32_any *)p = w;
#else
	p[0] = (uint8_t)w;
	p[1] = (uint8_t)(w >> 8);
	p[2] = (uint8_t)(w >> 16);
	p[3] = (uint8_t)(w >> 24);
#endif
}

SONDE_INLINE void sonde_st16(uint8_t *p, uint32_t w)
{
#if defined(SONDE_PORT_ST16LE)
	SONDE_PORT_ST16LE(p, w);
#elif defined(SONDE_LE_ANY)
	*(sonde_u16_any *)p = (uint16_t)w;
#else
	p[0] = (uint8_t)w;
	p[1] = (uint8_t)(w >> 8);
#endif
}

SONDE_INLINE uint32_t sonde_ld32(const uint8_t *p)
{
#if defined(SONDE_PORT_LD32LE)
	return SONDE_PORT_LD32LE(p);
#elif defined(SONDE_LE_ANY)
	return *(const sonde_u32_any *)p;
#else
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

/* v in n = 1, 2 or 4 bytes, little-endian (v must fit). */
SONDE_INLINE void sonde_st(uint8_t *p, uint32_t v, unsigned n)
{
	if (n == 1u)
		*p = (uint8_t)v;
	else if (n == 2u)
		sonde_st16(p, v);
	else
		sonde_st32(p, v);
}

/*
 * Escape pre-test, four bytes at a time: bit 7 of a byte of the result is
 * set when that byte of w is 0x7D or 0x7E (it must be escaped) -- or 0x7F,
 * 0xFD, 0xFE, 0xFF.  Masking to the low seven bits and adding 3 carries
 * into bit 7 exactly when the low seven bits are 0x7D..0x7F, and never
 * into the next byte (0x7F + 3 < 0x100).  Results of several words are
 * ORed and bit 7 of each byte tested once: two instructions per word plus
 * the OR (the constants are Thumb-2 immediates).
 *
 * The false alarms cost a call of sonde_fix(), which finds nothing to
 * escape; one of them pays for itself: SEQ 0xFF is always caught, and
 * sonde_fix() then does the wrap bookkeeping (frames_hi, and closing the
 * fast path so that SEQ 0 goes through rule 4).  An exact test (0x7D/0x7E
 * only) would need a separate SEQ test and four instructions per word
 * instead of three; measured, it lost on both the fast path and the
 * average (docs/performance.md).
 */
#define SONDE_ESC_HIT 0x80808080u
SONDE_INLINE uint32_t sonde_esc_maybe(uint32_t w)
{
	return (w & 0x7F7F7F7Fu) + 0x03030303u;
}

/* Non-zero when x has a zero byte, exactly: a lane of x - 0x01010101
 * borrows (sets its bit 7 with its own bit 7 clear) only when it is zero
 * or a zero lane below it borrowed.  Which lane the result points at may
 * be wrong; whether there is one is not.  With x = w ^ 0x7E7E7E7E it finds
 * the flag in w. */
SONDE_INLINE uint32_t sonde_has_zero(uint32_t x)
{
	return (x - 0x01010101u) & ~x & 0x80808080u;
}

/* Sum of the four bytes of w, in the low byte (higher bits are junk).
 * (w + (w >> 16)) + that >> 8 would be one add shorter, but it drops the
 * carries out of the 16-bit and 8-bit halves: 0x00FF00FF gives 0xFF, not
 * 0xFE.) */
SONDE_INLINE uint32_t sonde_sum32(uint32_t w)
{
	return w + (w >> 8) + (w >> 16) + (w >> 24);
}

/* ---- slow path (sonde_write.c) ---------------------------------------- */

/* Kinds of record for sonde_write(). */
#define SONDE_W_TIMED 0x01u /* a compact timestamp precedes the data */
#define SONDE_W_SYNC  0x02u /* the record is a TIME_SYNC (data ignored) */
#define SONDE_W_STR   0x04u /* a NUL follows d2 (DICT names) */
#define SONDE_W_REPLY 0x08u /* a command reply: written even while the buffer
			     * refuses records, but then only into free space */

/* Write one record with every rule of docs/protocol.md applied (TIME_SYNC,
 * DROPS, room, buffer mode), or refuse it.  DATA is d1[n1] d2[n2] after the
 * timestamp.  Call inside the critical section; now is its one reading of
 * the counter (ignored for untimed records). */
void sonde_write(uint8_t id, unsigned kind, uint32_t now, const uint8_t *d1, size_t n1,
		 const uint8_t *d2, size_t n2);

/* The fast path's fallback: record id | n << 8; the n DATA bytes after the
 * timestamp are in sonde_g.xd. */
void sonde_slow(uint32_t id_n, uint32_t now);

/* A reading of the counter (inside the critical section): count a wrap
 * since the last one into the 64-bit time. */
void sonde_observe(uint32_t now);

/* RESET_CTRS: zero every counter of sonde_get_stats() and the DROPS totals;
 * a pending loss report is dropped (the caller writes one with the new
 * totals).  Inside the critical section. */
void sonde_stats_reset(void);

/* Count one refused record (call inside the critical section). */
void sonde_refuse(void);

/* Write the loss report, TIME_SYNC then DROPS (inside the critical
 * section, room checked by the caller). */
void sonde_report(uint32_t now);

/* sonde_start(): rule 1 again, and since_prev unknown until the next timed
 * record (inside the critical section). */
void sonde_write_restart(void);

/* Worst-case bytes of a TIME_SYNC, and of the loss report. */
#define SONDE_SYNC_WORST   SONDE_WORST(SONDE_SYNC_BYTES)
#define SONDE_REPORT_WORST (SONDE_WORST(10u) + SONDE_SYNC_WORST)

/* ---- frame writer, slow path (sonde_frame.c) -------------------------- */

/* Byte by byte, escaping, wrapping at the buffer end; the caller has made
 * sure SONDE_WORST(data) bytes are free.  begin writes SEQ, ID and, for a
 * timed record, the compact timestamp ts[2] (else NULL), and returns the
 * SEQ used. */
uint8_t sonde_fw_begin(uint8_t id, const uint8_t *ts);
void sonde_fw_bytes(const uint8_t *p, size_t n);
void sonde_fw_end(void);

/* The fast paths wrote a frame of len bytes (flag included) unescaped,
 * ending at wp, and the pre-test hit: escape it in place (the room for its
 * worst case is there), and do the bookkeeping of SEQ 0xFF.  (The length,
 * not the start, is passed: a constant costs the fast path nothing, while
 * keeping the start in a register for the call costs it a move.) */
void sonde_fix(size_t len);

/* ---- filters (sonde_filter.c) ----------------------------------------- */

/* Every record and object on (sonde_init). */
void sonde_filter_reset(void);

/* Replace the global filter from bm[16] (bit r % 8 of byte r / 8: record
 * id r) or the local filter from bm[32] (object ids), in one critical
 * section, so that no record sees some bits old and some new (GLB_FILTER,
 * LOC_FILTER; docs/protocol.md section 9.1).  Ids the protocol never
 * filters keep their bit set whatever bm says. */
void sonde_filter_set_records(const uint8_t *bm);
void sonde_filter_set_objects(const uint8_t *bm);

/* ---- ring buffer (sonde_ring.c) --------------------------------------- */

/* Bytes in the ring, and bytes free (one always stays free, so that full
 * never looks empty).  Inline: the slow path asks several times per
 * record. */
SONDE_INLINE size_t sonde_ring_used(void)
{
	const struct sonde_state *g = &sonde_g;

	if (g->wp >= g->rp)
		return (size_t)(g->wp - g->rp);
	return g->size - (size_t)(g->rp - g->wp);
}

SONDE_INLINE size_t sonde_ring_free(void)
{
	return sonde_g.size - 1u - sonde_ring_used();
}

/* Recompute wlim after anything changed wp, rp or flags. */
void sonde_ring_relimit(void);
/* Overwrite modes: discard the oldest whole frames until need bytes are
 * free, keeping the rest of a partly drained frame.  0 if impossible. */
int sonde_ring_make_room(size_t need);

/* ---- the fast path ---------------------------------------------------- */

/* The loops over a record's fields run a constant, small number of times;
 * unrolled, the fields stay in registers. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define SONDE_UNROLL _Pragma("GCC unroll 8")
#elif defined(__clang__)
#define SONDE_UNROLL _Pragma("unroll")
#else
#define SONDE_UNROLL
#endif

/* One field of a fast-path payload: the value, its size on the wire (1, 2
 * or 4 bytes, little-endian; v must fit), and whether it can need escaping
 * (0 for argument type codes, which never do: no pre-test for them). */
struct sonde_fld {
	uint32_t v;
	unsigned n;
	unsigned var;
};

/* The fast path may write a frame of `worst` bytes at most (all escaped)
 * at p, at time now: nothing rare pending, room before the end and the
 * unread data, and no TIME_SYNC due by rule 2.  Without a tick hook the
 * last test is "same upper 16 bits as the last timed record": then the two
 * are less than 65536 ticks apart, and the counter did not wrap (so the
 * 64-bit extension, done on the slow path, misses nothing).  With
 * SONDE_CFG_TICK_HOOK, sonde_tick() closes the fast path in time instead
 * (sonde_session.c explains the margin). */
SONDE_INLINE int sonde_fast_open(const uint8_t *p, uint32_t worst, uint32_t now)
{
	const struct sonde_state *g = &sonde_g;

	if (worst <= SONDE_FAST_WORST) {
		if ((uintptr_t)p > g->wlim)
			return 0;
	} else if (g->wlim == 0u || (uintptr_t)p + (worst - SONDE_FAST_WORST) > g->wlim) {
		return 0;
	}
#if SONDE_CFG_TICK_HOOK
	(void)now;
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (now >> 16 != g->last_ts.h[1]) /* the upper half alone: one halfword load, no XOR */
		return 0;
#else
	if (((now ^ g->last_ts.w) >> 16) != 0u)
		return 0;
#endif
	return 1;
}

/* The frame of len bytes, SEQ seq, is written up to end (its flag
 * included): commit it, and escape it in place if the pre-test (esc) hit. */
SONDE_INLINE void sonde_fast_done(uint8_t *end, size_t len, uint32_t seq, uint32_t now, uint32_t esc)
{
	struct sonde_state *g = &sonde_g;

	g->wp = end;
	g->seq = (uint8_t)seq;
	g->last_ts.w = now;
	if (esc & SONDE_ESC_HIT)
		sonde_fix(len);
}

/*
 * Write the timed frame  SEQ ID ts(2) fields CHK 0x7E  if the fast path is
 * open; return 0, having written nothing, otherwise.  f[nf] is constant in
 * shape, so everything unrolls and folds.
 *
 * The frame is stored with word stores at any alignment: one last word
 * holding the trailing small fields (2 bytes at most), CHK and the flag,
 * each other field at its offset, and the header word (SEQ | ID << 8 |
 * ts << 16), stored last so that the compiler can advance wp with a
 * post-increment store.  The last word may store up to two bytes past the
 * flag: they are inside the worst-case room wlim keeps, in free space that
 * nothing reads.
 *
 * The pre-test covers the header, every 4-byte field, and one word made of
 * the small variable fields and CHK.  SEQ needs no test of its own: the
 * pre-test catches SEQ 0xFF, and sonde_fix() then keeps the fast path
 * closed until SEQ 0 is written by the slow path (rule 4).
 */
SONDE_INLINE int sonde_fast(uint32_t id, int id_var, uint32_t now, const struct sonde_fld *f, unsigned nf)
{
	struct sonde_state *g = &sonde_g;
	uint8_t *p = g->wp;
	uint32_t seq, hdr, esc, sum, chk, small = 0, tail = 0;
	unsigned i, n = 0, ns = 0, tn = 0, k = nf, off = 4u;

	/* Sizes: all fields (n), the small variable ones (ns), and where the
	 * trailing small fields that share the last word begin (k). */
	SONDE_UNROLL
	for (i = 0; i < nf; i++) {
		n += f[i].n;
		if (f[i].var && f[i].n < 4u)
			ns += f[i].n;
	}
	if (nf >= 1u && f[nf - 1u].n <= 2u) {
		k = nf - 1u;
		tn = f[k].n;
		if (nf >= 2u && tn + f[k - 1u].n <= 2u)
			tn += f[--k].n;
	}
	if (SONDE_TS_BYTES + n > SONDE_FAST_DATA || ns > 3u) /* folds away: no record is that big */
		return 0;
	if (!sonde_fast_open(p, SONDE_WORST(SONDE_TS_BYTES + n), now))
		return 0;

	seq = g->seq + 1u;
	hdr = seq | now << 16;
	/* A constant record id never needs escaping: leave it out of the
	 * pre-test (one instruction less; the compiler folds id_var). */
	esc = sonde_esc_maybe(id_var ? hdr | id << 8 : hdr);
	hdr |= id << 8;
	sum = seq + id + now + (now >> 8); /* the header's bytes, in the low byte */
	SONDE_UNROLL
	for (i = 0; i < nf; i++)
		sum += f[i].n == 4u ? sonde_sum32(f[i].v) : f[i].n == 2u ? f[i].v + (f[i].v >> 8) : f[i].v;
	chk = (0xFFu - sum) & 0xFFu; /* = ~sum & 0xFF; this way round the constants fold */

	ns = 0;
	tn = 0;
	SONDE_UNROLL
	for (i = 0; i < nf; i++) {
		if (f[i].var && f[i].n == 4u) {
			esc |= sonde_esc_maybe(f[i].v);
		} else if (f[i].var) {
			small |= f[i].v << 8u * ns;
			ns += f[i].n;
		}
		if (i < k) {
			sonde_st(p + off, f[i].v, f[i].n);
		} else {
			tail |= f[i].v << 8u * tn;
			tn += f[i].n;
		}
		off += f[i].n;
	}
	small |= chk << 8u * ns; /* (ns <= 3, checked above) */
	esc |= sonde_esc_maybe(small);
	tail |= chk << 8u * tn;
	tail |= (uint32_t)SONDE_FLAG << 8u * (tn + 1u);
	sonde_st32(p + off - tn, tail);
	sonde_st32(p, hdr);
	sonde_fast_done(p + off + 2u, off + 2u, seq, now, esc);
	return 1;
}

/* A whole timed record: critical section, one timestamp, fast or slow.  The
 * slow path gets the payload in sonde_g.xd (we hold the critical section),
 * written only on that branch, so the fast path needs no stack frame. */
SONDE_INLINE void sonde_timed(uint32_t id, int id_var, const struct sonde_fld *f, unsigned nf)
{
	uint32_t now;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	if (!sonde_fast(id, id_var, now, f, nf)) {
		unsigned i, n = 0;

		SONDE_UNROLL
		for (i = 0; i < nf; i++) {
			sonde_st(sonde_g.xd + n, f[i].v, f[i].n);
			n += f[i].n;
		}
		sonde_slow(id | n << 8, now);
	}
	SONDE_PORT_CRIT_EXIT();
}

/* With SONDE_ENABLED 0 the library sources compile to nothing; ISO C wants
 * at least one declaration in a translation unit. */
#if !SONDE_ENABLED
typedef int sonde_disabled_t;
#endif

#endif /* SONDE_INTERNAL_H */
