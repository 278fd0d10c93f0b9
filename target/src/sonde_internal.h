/*
 * sonde_internal.h -- the state of the one Sonde instance and the inline
 * fast path every timed record goes through.  Not a public header.
 *
 * The fast path (sonde_timed) is what an ISR pays per record:
 *
 *   filter test (caller) -> critical section -> one timestamp read ->
 *   three compares that catch every rare condition -> the frame built in
 *   registers and stored with word stores -> exit.
 *
 * Everything else -- a frame that would wrap at the end of the buffer or
 * needs escaping, TIME_SYNC, DROPS, overwriting, refusing -- happens out of
 * line in sonde_slow() (sonde_write.c), inside the same critical section and
 * with the same timestamp.
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
#define SONDE_F_SYNC   0x01u /* next timed record needs a TIME_SYNC (rule 1, deferred rule 4) */
#define SONDE_F_DROPS  0x02u /* records were lost: a DROPS report is pending */
#define SONDE_F_STOP   0x04u /* sonde_stop(): refusing */
#define SONDE_F_FROZEN 0x08u /* triggered, or snapshot full: refusing */
#define SONDE_F_WRAP   0x10u /* SEQ 0xFF was written: the next frame takes the slow path */
#define SONDE_F_REFUSE (SONDE_F_STOP | SONDE_F_FROZEN)

struct sonde_state {
	/* Hot: read by every record; first, so that offsets are small. */
	uint8_t *wp;            /* next byte to write, in [buf, end) */
	uintptr_t wlim;         /* a frame whose worst case ends at or before this address
				 * fits contiguously, and nothing rare is pending; 0 closes
				 * the fast path */
	uint32_t last_ts;       /* port counter at the last timed record or TIME_SYNC */
	uint8_t seq;            /* SEQ of the last frame written (0xFF after init) */
	uint8_t flags;          /* SONDE_F_* */
	uint8_t mode;           /* SONDE_MODE_* */
	uint8_t mid;            /* the drain stopped inside a frame (rp is mid-frame) */
	/* Ring buffer.  Empty when rp == wp; at most size - 1 bytes are used. */
	uint8_t *buf, *end, *rp;
	size_t size;
	/* Time: the 64-bit time is ts_hi:port counter, ts_hi counting wraps. */
	uint32_t ts_hi;
	/* Counters (sonde_get_stats).  Frames written = frames_hi * 256 + seq + 1. */
	uint32_t frames_hi;
	uint32_t overwritten, refused;
	uint32_t rep_refused;   /* refused as of the last DROPS */
	uint32_t bytes_out;     /* drained */
	uint32_t bytes_lost;    /* overwritten */
	uint32_t sys_frames;    /* frames of records 0x00..0x04 (EMPTY, TARGET_INFO,
				 * TIME_SYNC, DROPS, DICT), so tests can tell the
				 * application's records from the library's own */
	uint8_t fsum;           /* checksum of the frame being written (slow path) */
	/* Global filter, one byte per record id 0x00..0x7F (a bitmap would
	 * cost a user record with a variable id four more instructions). */
	uint8_t rec_filter[SONDE_REC_COUNT];
	uint8_t xd[16];         /* a fast-path payload on its way to sonde_slow() */
	/* Local filter, one byte per object id: bit 7 is the object's own bit;
	 * bits 0..6 are that bit ANDed with the global bit of the record
	 * SONDE_OF_*, so that ISR and task records test both filters with one
	 * load and one bit test (sonde_filter.c keeps them in step). */
	uint8_t obj_filter[256];
};

#define SONDE_OF_LOCAL 0x80u

extern struct sonde_state sonde_g;

/* Smallest buffer sonde_init() accepts: EMPTY and TARGET_INFO must fit. */
#define SONDE_MIN_BUFFER 64u

/* Wire bytes of a frame with n DATA bytes when every byte is escaped. */
#define SONDE_WORST(n) (2u * ((n) + 3u) + 1u)

/* ---- filters (the first thing every record does) ---------------------- */

SONDE_INLINE int sonde_rec_on(uint32_t rec)
{
	return sonde_g.rec_filter[rec] != 0u;
}

/* The obj_filter bit that combines rec's global bit with the local one,
 * 0 for the records that test the two separately (markers). */
SONDE_INLINE uint32_t sonde_of_bit(uint32_t rec)
{
	switch (rec) {
	case SONDE_REC_ISR_ENTER:   return 0x01u;
	case SONDE_REC_ISR_EXIT:    return 0x02u;
	case SONDE_REC_TASK_CREATE: return 0x04u;
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

/* User record ids outside 0x40..0x7F are ignored, like filtered ones. */
SONDE_INLINE int sonde_user_pass(uint8_t rec)
{
	return (uint8_t)(rec - SONDE_REC_USER_FIRST) <= SONDE_REC_USER_LAST - SONDE_REC_USER_FIRST &&
	       sonde_rec_on(rec);
}

/* ---- word helpers ----------------------------------------------------- */

/* Escape pre-test, four bytes at a time.  Bit 7 of a byte of the result is
 * set when that byte of w is 0x7D or 0x7E (must be escaped) -- or 0x7F,
 * 0xFD, 0xFE, 0xFF (a false alarm, 4 values in 256): adding 3 to the low
 * seven bits carries into bit 7 exactly for low bits >= 0x7D, and never into
 * the next byte.  The fast path ORs the results for all words of a frame and
 * tests bit 7 of each byte once; a hit sends the frame to the slow path,
 * which escapes byte by byte.  Three instructions per word instead of three
 * per byte. */
#define SONDE_ESC_HIT 0x80808080u
SONDE_INLINE uint32_t sonde_esc_maybe(uint32_t w)
{
	return (w & 0x7F7F7F7Fu) + 0x03030303u;
}

/* Sum of the four bytes of w, in the low byte (higher bits are junk). */
SONDE_INLINE uint32_t sonde_sum32(uint32_t w)
{
	return w + (w >> 8) + (w >> 16) + (w >> 24);
}

/* Little-endian store, whatever the CPU.  On a little-endian CPU memcpy
 * lets the compiler use one (unaligned, where allowed) word store. */
SONDE_INLINE void sonde_st32(uint8_t *p, uint32_t w)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &w, sizeof w);
#else
	p[0] = (uint8_t)w;
	p[1] = (uint8_t)(w >> 8);
	p[2] = (uint8_t)(w >> 16);
	p[3] = (uint8_t)(w >> 24);
#endif
}

/* ---- slow path (sonde_write.c) ---------------------------------------- */

/* Kinds of record for sonde_write(). */
#define SONDE_W_TIMED 0x01u /* a compact timestamp precedes the data */
#define SONDE_W_SYNC  0x02u /* the record is a TIME_SYNC (data ignored) */
#define SONDE_W_STR   0x04u /* a NUL follows d2 (DICT names) */

/* Write one record with every rule of docs/protocol.md applied (TIME_SYNC,
 * DROPS, room, buffer mode), or refuse it.  DATA is d1[n1] d2[n2] after the
 * timestamp.  Call inside the critical section; now is its one reading of
 * the counter (ignored for untimed records). */
void sonde_write(uint8_t id, unsigned kind, uint32_t now, const uint8_t *d1, size_t n1,
		 const uint8_t *d2, size_t n2);

/* The fast path's fallback: record id | n << 8; the n DATA bytes after the
 * timestamp are in sonde_g.xd. */
void sonde_slow(uint32_t id_n, uint32_t now);

/* Count one refused record (call inside the critical section). */
void sonde_refuse(void);

/* Write DROPS and TIME_SYNC, the loss report (inside the critical section,
 * room checked by the caller). */
void sonde_report(uint32_t now);

/* Worst-case bytes of the loss report. */
#define SONDE_REPORT_WORST (SONDE_WORST(10u) + SONDE_WORST(8u))

/* ---- frame writer, slow path (sonde_frame.c) -------------------------- */

/* Byte by byte, escaping, wrapping at the buffer end; the caller has made
 * sure SONDE_WORST(data) bytes are free.  begin returns the SEQ used. */
uint8_t sonde_fw_begin(uint8_t id);
void sonde_fw_bytes(const uint8_t *p, size_t n);
void sonde_fw_end(void);

/* ---- filters (sonde_filter.c) ----------------------------------------- */

/* Every record and object on (sonde_init). */
void sonde_filter_reset(void);

/* ---- ring buffer (sonde_ring.c) --------------------------------------- */

size_t sonde_ring_used(void);
size_t sonde_ring_free(void);
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

/* One field of a fast-path payload: the value, and its size on the wire
 * (1, 2 or 4 bytes, little-endian; v must fit).  Constant fields (argument
 * type codes) cost nothing: the compiler folds them. */
struct sonde_fld {
	uint32_t v;
	unsigned n;
};

SONDE_INLINE void sonde_st(uint8_t *p, uint32_t v, unsigned n)
{
	if (n == 1u) {
		*p = (uint8_t)v;
	} else if (n == 2u) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		uint16_t h = (uint16_t)v;

		memcpy(p, &h, sizeof h);
#else
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)(v >> 8);
#endif
	} else {
		sonde_st32(p, v);
	}
}

/*
 * Write the timed frame  SEQ ID ts(2) fields CHK 0x7E  if the fast path is
 * open (wlim: nothing rare pending, and the frame fits before the end of the
 * buffer in the worst case), the counter's upper 16 bits did not change
 * since the last timed record (so no TIME_SYNC by rule 2 and no 32-bit wrap
 * to count) and no byte needs escaping.  Returns 0, having written nothing,
 * otherwise.  f[nf] is constant in shape, so everything unrolls; sum is the
 * byte sum of the fields, computed by the caller from its arguments.
 *
 * SEQ needs no test of its own: the escape pre-test also stops SEQ 0xFF,
 * after which the slow path keeps the fast path closed (SONDE_F_WRAP) until
 * SEQ 0 is written -- so SEQ + 1 never carries into the id byte, frames are
 * counted there, and rule 4 is checked there.
 */
SONDE_INLINE int sonde_fast(uint32_t id, uint32_t now, const struct sonde_fld *f, unsigned nf, uint32_t sum)
{
	struct sonde_state *g = &sonde_g;
	uint8_t *p = g->wp;
	uint32_t seq = g->seq + 1u;
	uint32_t hdr, chk, esc;
	unsigned i, n = 0;

	SONDE_UNROLL
	for (i = 0; i < nf; i++)
		n += f[i].n;
	if ((uintptr_t)p + SONDE_WORST(n + SONDE_TS_BYTES) > g->wlim)
		return 0;
	if (((now ^ g->last_ts) >> 16) != 0)
		return 0;
	hdr = seq | id << 8 | now << 16;
	chk = ~(sum + seq + id + now + (now >> 8)) & 0xFFu;
	esc = sonde_esc_maybe(hdr) | sonde_esc_maybe(chk);
	SONDE_UNROLL
	for (i = 0; i < nf; i++)
		esc |= sonde_esc_maybe(f[i].v);
	if (esc & SONDE_ESC_HIT)
		return 0;
	sonde_st32(p, hdr);
	p += 4;
	SONDE_UNROLL
	for (i = 0; i < nf; i++) {
		sonde_st(p, f[i].v, f[i].n);
		p += f[i].n;
	}
	sonde_st(p, chk | (uint32_t)SONDE_FLAG << 8, 2u);
	g->wp = p + 2;
	g->seq = (uint8_t)seq;
	g->last_ts = now;
	return 1;
}

/* A whole timed record: critical section, one timestamp, fast or slow.  The
 * slow path gets the payload in sonde_g.xd (we hold the critical section),
 * written only on that branch, so the fast path needs no stack frame. */
SONDE_INLINE void sonde_timed(uint32_t id, const struct sonde_fld *f, unsigned nf, uint32_t sum)
{
	uint32_t now;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	if (!sonde_fast(id, now, f, nf, sum)) {
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
