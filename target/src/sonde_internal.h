/*
 * sonde_internal.h -- the state of the one Sonde instance and the pieces of
 * the fast path every timed record goes through.  Not a public header.
 *
 * A timed frame is  SEQ ID payload ts CHK 0x7E  (docs/protocol.md): the
 * timestamp is the ticks since the previous timed frame, 1 to 4 bytes with
 * its width in the top bits of its last byte, so every gap below 2^28 ticks
 * is written the same way.  The fast path (a record function in
 * sonde_record.c, or sonde_build.c's word-by-word framing, built from the
 * pieces below) is what an
 * ISR pays per record:
 *
 *   critical section -> one clock reading -> one compare of wp against a
 *   limit that catches every rare condition -> the gap's width (at most
 *   four compares) -> the frame built in registers and stored with word
 *   stores -> a four-bytes-at-a-time escape pre-test -> exit.
 *
 * The filters are tested before the call, inline at the call site
 * (sonde.h).  The ring holds finished HDLC frames, as in the QS data
 * protocol.  When the pre-test says a byte may need escaping (or SEQ is
 * 0xFF), the frame is still written by the fast path and then fixed up in
 * place by sonde_fix() (sonde_frame.c).  Everything else -- a frame that
 * could reach the end of the buffer or the unread data, TIME_SYNC, DROPS,
 * overwriting, refusing -- happens out of line in sonde_slow()
 * (sonde_write.c), inside the same critical section and with the same
 * clock reading.
 */
#ifndef SONDE_INTERNAL_H
#define SONDE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sonde.h"
#include "sonde_port.h"

#if defined(__GNUC__)
#define SONDE_INLINE static inline __attribute__((always_inline))
#define SONDE_NOINLINE __attribute__((noinline))
#define SONDE_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define SONDE_INLINE static inline
#define SONDE_NOINLINE
#define SONDE_LIKELY(x) (x)
#endif

/* With SONDE_ENABLED 0 the library sources compile to nothing, and
 * sonde.h declares no state for them to use (sonde_filters_ and the rest
 * exist only in a tracing build). */
#if SONDE_ENABLED

/* ---- state ------------------------------------------------------------ */

/* Rare conditions.  While any is set the fast path is closed (wlim 0), so
 * the fast path never tests them one by one. */
#define SONDE_F_SYNC   0x01u /* the next timed record needs a TIME_SYNC (rule 1, deferred rule 4) */
#define SONDE_F_DROPS  0x02u /* records were lost: a DROPS report is pending */
#define SONDE_F_STOP   0x04u /* sonde_stop(): refusing */
#define SONDE_F_FROZEN 0x08u /* triggered, or snapshot full: refusing */
#define SONDE_F_WRAP   0x10u /* SEQ 0xFF was written: the next frame takes the slow path (rule 4) */
#define SONDE_F_NOREC  0x20u /* no timed frame since sonde_init()/sonde_start(): since_prev unknown */
#define SONDE_F_REFUSE (SONDE_F_STOP | SONDE_F_FROZEN)

struct sonde_state {
	/* Hot: read by every record. */
	uint8_t *wp;            /* next byte to write, in [buf, end) */
	uintptr_t wlim;         /* the fast path writes a frame at wp only if wp <= wlim:
				 * then any fast-path frame, every byte escaped, ends at
				 * least one byte before rp and before end.  0 closes the
				 * fast path (something rare is pending). */
	uint32_t last;          /* clock at the last timed frame: the next one's gap counts from here */
	uint8_t seq;            /* SEQ of the last frame written (0xFF after init) */
	uint8_t flags;          /* SONDE_F_* */
	uint8_t mode;           /* SONDE_MODE_* */
	uint8_t mid;            /* the drain stopped inside a frame (rp is mid-frame) */
	/* Ring buffer.  Empty when rp == wp; at most size - 1 bytes are used. */
	uint8_t *buf, *end, *rp;
	size_t size;
	/* 64-bit time = ts_hi:clock.  ts_hi counts the clock's wraps: ext is
	 * the clock at the last reading that updated it (slow path,
	 * sonde_tick()); a smaller reading means a wrap. */
	uint32_t ts_hi, ext;
	/* Counters (sonde_get_stats).  Frames written = frames_hi * 256 + seq + 1. */
	uint32_t frames_hi;
	uint32_t overwritten, refused;
	uint32_t stopped;       /* records not made while sonde_stop() was in force */
	uint32_t rep_refused;   /* refused + stopped as of the last DROPS */
	/* Frames that left the ring since sonde_init(): drained to their flag,
	 * or overwritten.  Frame numbers below removed + mid can no longer be
	 * overwritten, which is what DROPS's "oldest" says (docs/protocol.md
	 * section 4). */
	uint32_t removed;
	uint32_t bytes_out;     /* drained */
	uint32_t bytes_lost;    /* overwritten */
	uint32_t rec_base;      /* frames written before the last sonde_stats_reset() */
	uint32_t sys_frames;    /* frames of records 0x00..0x04 (EMPTY, TARGET_INFO,
				 * TIME_SYNC, DROPS, DICT), so tests can tell the
				 * application's records from the library's own */
	uint8_t resets;         /* sonde_stats_reset() calls, mod 256 (DROPS) */
	uint8_t open;           /* the last DROPS had frames queued before it that
				 * could still be overwritten: the drain writes
				 * another report once the ring is empty */
	uint8_t fsum;           /* checksum of the frame being written (slow path) */
	uint8_t xd[16];         /* a fast-path payload on its way to sonde_slow() */
};

extern struct sonde_state sonde_g;

/* Smallest buffer sonde_init() accepts: EMPTY and TARGET_INFO must fit. */
#define SONDE_MIN_BUFFER 64u

/* Wire bytes of a frame with n DATA bytes when every byte is escaped. */
#define SONDE_WORST(n) (2u * ((n) + 3u) + 1u)

/* Largest DATA (timestamp included) of a frame written on a fast path:
 * LOG with two U32 (level, fmt(2), 03 a(4), 03 b(4), ts(4)).  wlim keeps
 * room for the worst case of that, so the fast paths need no size test of
 * their own.  (A fast path's word stores reach at most 3 bytes past its
 * flag: inside that room, in free space nothing reads.) */
#define SONDE_FAST_DATA  17u
#define SONDE_FAST_WORST SONDE_WORST(SONDE_FAST_DATA)

/* ---- filters ------------------------------------------------------------ */

SONDE_INLINE int sonde_rec_on(uint32_t rec)
{
	return (sonde_filters_.rec[rec >> 3] >> (rec & 7u)) & 1u;
}

/* ---- word helpers ----------------------------------------------------- */

/*
 * Little-endian stores and loads at any address.  With GCC or clang on a
 * little-endian CPU that allows unaligned access: one access through a
 * type of alignment 1, which the compiler turns into a single STR/LDR
 * (ARMv7-M, ARMv8-M Mainline; -mno-unaligned-access, ARMv6-M and RV32
 * without Zicclsm get byte accesses, which GCC emits itself for this
 * type).  Not memcpy: with -ffreestanding memcpy is a real call.  A port
 * may supply its own (SONDE_PORT_ST32LE, SONDE_PORT_ST16LE,
 * SONDE_PORT_LD32LE; sonde_port.h).
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

/* n bytes from src to dst, which do not overlap.  A loop, not memcpy:
 * the library links nothing from the C library (docs/porting.md). */
void sonde_copy(uint8_t *dst, const uint8_t *src, size_t n);

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
 * fast path so that SEQ 0 goes through rule 4).
 */
#define SONDE_ESC_HIT 0x80808080u
SONDE_INLINE uint32_t sonde_esc_maybe(uint32_t w)
{
	return (w & 0x7F7F7F7Fu) + 0x03030303u;
}

/* Non-zero when x has a zero byte, exactly.  With x = w ^ 0x7E7E7E7E it
 * finds the flag in w. */
SONDE_INLINE uint32_t sonde_has_zero(uint32_t x)
{
	return (x - 0x01010101u) & ~x & 0x80808080u;
}

/* Sum of the four bytes of w, in the low byte (higher bits are junk). */
SONDE_INLINE uint32_t sonde_sum32(uint32_t w)
{
	return w + (w >> 8) + (w >> 16) + (w >> 24);
}

/* ---- the timestamp field ---------------------------------------------- */

/* Gaps written in one byte: below 0x7D, so that a one-byte field never
 * needs escaping (0x7D..0x7F take two bytes; docs/protocol.md section 8). */
#define SONDE_TS_ONE 0x7Du

/* The field for a gap of d ticks (docs/protocol.md section 5): its value,
 * little-endian in the low bytes of *enc (the bytes above it zero), and its
 * width in bytes; 0 when d needs a TIME_SYNC (2^28 or more). */
SONDE_INLINE uint32_t sonde_ts_field(uint32_t d, uint32_t *enc)
{
	if (d < SONDE_TS_ONE) {
		*enc = d;
		return 1u;
	}
	if (d < SONDE_TS_LIMIT2) {
		*enc = d | SONDE_TS_TAG2;
		return 2u;
	}
	if (d < SONDE_TS_LIMIT3) {
		*enc = d | SONDE_TS_TAG3;
		return 3u;
	}
	*enc = d | SONDE_TS_TAG4;
	return d < SONDE_TS_LIMIT4 ? 4u : 0u;
}

/* ---- slow path (sonde_write.c) ---------------------------------------- */

/* Kinds of record for sonde_write(). */
#define SONDE_W_TIMED 0x01u /* a timestamp follows the data */
#define SONDE_W_SYNC  0x02u /* the record is a TIME_SYNC (data ignored) */
#define SONDE_W_STR   0x04u /* a NUL follows d2 (DICT names) */
#define SONDE_W_REPLY 0x08u /* a command reply: written even while the buffer
			     * refuses records, but then only into free space */

/* Write one record with every rule of docs/protocol.md applied (TIME_SYNC,
 * DROPS, room, buffer mode), or refuse it.  DATA is d1[n1] d2[n2] before
 * the timestamp.  Call inside the critical section; now is its one reading
 * of the clock (ignored for untimed records). */
void sonde_write(uint8_t id, unsigned kind, uint32_t now, const uint8_t *d1, size_t n1,
		 const uint8_t *d2, size_t n2);

/* The fast paths' fallback: record id | n << 8; the n payload bytes are in
 * sonde_g.xd. */
void sonde_slow(uint32_t id_n, uint32_t now);

/* A reading of the clock (inside the critical section): count a wrap since
 * the last one into the 64-bit time. */
void sonde_observe(uint32_t now);

/* RESET_CTRS: write a pending loss report with the old totals, then zero
 * every counter of sonde_get_stats() and the DROPS totals and count the
 * reset (the caller then writes a report with the new totals).  Inside the
 * critical section. */
void sonde_stats_reset(uint32_t now);

/* Count one refused record -- as "stopped" while sonde_stop() is in force
 * (call inside the critical section). */
void sonde_refuse(void);

/* Write the loss report, TIME_SYNC then DROPS (inside the critical
 * section, room checked by the caller). */
void sonde_report(uint32_t now);

/* sonde_init()/sonde_start(): rule 1 again, and since_prev unknown until
 * the next timed frame (inside the critical section). */
void sonde_write_restart(void);

/* Worst-case bytes of a TIME_SYNC, and of the loss report. */
#define SONDE_SYNC_WORST   SONDE_WORST(SONDE_SYNC_BYTES)
#define SONDE_REPORT_WORST (SONDE_WORST(SONDE_DROPS_BYTES + SONDE_TS_MAX_BYTES) + SONDE_SYNC_WORST)

/* Frames written since sonde_init() (mod 2^32): the frame number of the
 * next frame.  SEQ is its low byte. */
SONDE_INLINE uint32_t sonde_frames_written(void)
{
	return sonde_g.frames_hi * 256u + (uint8_t)(sonde_g.seq + 1u);
}

/* ---- frame writer, slow path (sonde_frame.c) -------------------------- */

/* Byte by byte, escaping, wrapping at the buffer end; the caller has made
 * sure SONDE_WORST(data) bytes are free.  begin writes SEQ and ID and
 * returns the SEQ used. */
uint8_t sonde_fw_begin(uint8_t id);
void sonde_fw_bytes(const uint8_t *p, size_t n);
void sonde_fw_end(void);

/* The fast paths wrote a frame of len bytes (flag included) unescaped,
 * ending at wp, and the pre-test hit: escape it in place (the room for its
 * worst case is there), and do the bookkeeping of SEQ 0xFF. */
void sonde_fix(size_t len);

/* ---- filters (sonde_filter.c) ----------------------------------------- */

/* Every record and object on (sonde_init). */
void sonde_filter_reset(void);

/* Replace the global filter from bm[16] (bit r % 8 of byte r / 8: record
 * id r) or the local filter from bm[32] (object ids), in one critical
 * section (GLB_FILTER, LOC_FILTER; docs/protocol.md section 9.1).  Ids the
 * protocol never filters keep their bit set whatever bm says. */
void sonde_filter_set_records(const uint8_t *bm);
void sonde_filter_set_objects(const uint8_t *bm);

/* ---- ring buffer (sonde_ring.c) --------------------------------------- */

/* Bytes in the ring, and bytes free (one always stays free, so that full
 * never looks empty). */
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

/* The frame ends at end, len bytes long, SEQ seq, written at clock now:
 * commit it, and escape it in place if the pre-test (esc) hit. */
SONDE_INLINE void sonde_fast_done(uint8_t *end, size_t len, uint32_t seq, uint32_t now, uint32_t esc)
{
	struct sonde_state *g = &sonde_g;

	g->wp = end;
	g->seq = (uint8_t)seq;
	g->last = now;
	if (esc & SONDE_ESC_HIT)
		sonde_fix(len);
}

#else /* !SONDE_ENABLED: ISO C wants a declaration in every translation unit */
typedef int sonde_disabled_t;
#endif /* SONDE_ENABLED */

#endif /* SONDE_INTERNAL_H */
