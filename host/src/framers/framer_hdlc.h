/*
 * framer_hdlc.h -- splits a QS-style HDLC byte stream into checked frames.
 *
 * Shared by the Sonde and QS decoders.  Bytes go in in chunks of any size;
 * each complete frame comes out un-escaped, with its checksum verified, the
 * byte offset of its first byte, and a status.  Memory is one frame buffer
 * (plus, optionally, a table of escape positions so that a decoder can give
 * the exact input offset of any byte of the frame, see hdlc_track_escapes).
 */
#ifndef SONDE_FRAMER_HDLC_H
#define SONDE_FRAMER_HDLC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sonde_proto.h"

enum hdlc_status {
	HDLC_OK,           /* checksum good */
	HDLC_BAD_CHECKSUM, /* complete frame, checksum wrong */
	HDLC_TOO_SHORT,    /* fewer than 3 un-escaped bytes (seq, id, chk) */
	HDLC_TOO_LONG,     /* exceeded max_len; bytes up to the flag discarded */
	HDLC_ABORTED,      /* escape byte directly before the flag */
	HDLC_TRUNCATED     /* input ended inside a frame (from hdlc_finish) */
};

/* Called once per frame.  For HDLC_OK, frame[0] is SEQ, frame[1] the record
 * id, frame[2..len-2] the data and frame[len-1] the checksum.  For the error
 * statuses frame/len hold what was collected (at most max_len bytes).
 * raw_len is the frame's size on the wire, escapes and flag included (for
 * HDLC_TRUNCATED there is no flag).  frame is valid only during the call:
 * it points into the framer's buffer, or straight into the bytes being fed
 * (a frame without escapes that lies whole in them). */
typedef void (*hdlc_frame_fn)(void *ctx, enum hdlc_status st, const uint8_t *frame,
			      size_t len, uint64_t offset, size_t raw_len);

struct hdlc_framer {
	hdlc_frame_fn on_frame;
	void *ctx;
	uint8_t *buf;      /* max_len bytes */
	size_t max_len;
	size_t len;        /* un-escaped bytes collected */
	size_t raw_len;    /* wire bytes of the current frame */
	uint64_t offset;   /* stream offset of the next byte to be fed */
	uint64_t start;    /* stream offset of the current frame's first byte */
	uint8_t sum;       /* running checksum of the collected bytes */
	uint8_t esc;       /* previous byte was 0x7D */
	uint8_t overflow;  /* frame exceeded max_len */
	/* Escape tracking (optional, see hdlc_track_escapes): esc_pos[i] is the
	 * un-escaped index of the i-th escaped byte of the current frame. */
	uint16_t *esc_pos;
	size_t esc_cap;
	size_t esc_n;
};

/* buf must hold max_len bytes and outlive the framer. */
void hdlc_init(struct hdlc_framer *f, uint8_t *buf, size_t max_len, hdlc_frame_fn fn, void *ctx);
void hdlc_feed(struct hdlc_framer *f, const uint8_t *data, size_t n);
/* The same, but only up to the end of the next frame reported (or of the
 * bytes): returns the bytes consumed.  For a decoder that takes the
 * frames it can itself (hdlc_plain_frame) and leaves the others here. */
size_t hdlc_feed_frame(struct hdlc_framer *f, const uint8_t *data, size_t n);

/* 1 when the framer is between frames: the next byte fed starts one. */
static inline int hdlc_idle(const struct hdlc_framer *f)
{
	return f->raw_len == 0;
}

/* n bytes of whole frames were taken from the input by the caller itself
 * (hdlc_plain_frame) while the framer was idle: offsets move on. */
static inline void hdlc_took(struct hdlc_framer *f, size_t n)
{
	f->offset += n;
}

/* Frames found in place, for the hot loops of the HDLC decoders (inline;
 * SSE2, which every x86-64 has, looks at sixteen bytes per instruction,
 * plain C a byte at a time elsewhere):
 *
 * hdlc_scan64: where the flags and escapes are among the 64 bytes at
 *   data[0..64): bit k of *flags is set when data[k] is 0x7E, of *escs
 *   when it is 0x7D.  Frames are found from these masks without waiting
 *   for one another's bytes.
 * hdlc_sum: the sum of the n bytes at data[0..n) modulo 256;
 *   data[0..n+16) must be readable.
 * hdlc_plain_frame: a whole frame without escapes at data[0..): its
 *   length (the index of its flag, at most max), with the sum of its bytes
 *   in *sum; 0 when there is none: an escape or a flag at data[0], no flag
 *   within max + 1 bytes, or too near the end of the bytes (n) to look 64
 *   at a time. */
#if defined(__SSE2__)
#include <emmintrin.h>

static inline void hdlc_scan64(const uint8_t *data, uint64_t *flags, uint64_t *escs)
{
	const __m128i flag = _mm_set1_epi8(0x7E), esc = _mm_set1_epi8(0x7D);
	uint64_t f = 0, e = 0;
	for (unsigned k = 0; k < 64; k += 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)(data + k));
		f |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, flag)) << k;
		e |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, esc)) << k;
	}
	*flags = f;
	*escs = e;
}

static inline unsigned hdlc_sum(const uint8_t *data, size_t n)
{
	/* 16 bytes kept, then 16 cleared: a load at keep + 16 - k keeps the
	 * first k bytes of a vector */
	static const uint8_t keep[32] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
					  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	const __m128i zero = _mm_setzero_si128();
	__m128i acc = zero;
	size_t k = 0;
	for (; k + 16 <= n; k += 16)
		acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(const void *)(data + k)), zero));
	__m128i w = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(data + k)),
				  _mm_loadu_si128((const __m128i *)(const void *)(keep + 16 - (n - k))));
	acc = _mm_add_epi64(acc, _mm_sad_epu8(w, zero));
	return (unsigned)(_mm_cvtsi128_si32(acc) + _mm_extract_epi16(acc, 4)) & 0xFFu;
}
#else
static inline void hdlc_scan64(const uint8_t *data, uint64_t *flags, uint64_t *escs)
{
	uint64_t f = 0, e = 0;
	for (unsigned k = 0; k < 64; k++) {
		f |= (uint64_t)(data[k] == 0x7E) << k;
		e |= (uint64_t)(data[k] == 0x7D) << k;
	}
	*flags = f;
	*escs = e;
}

static inline unsigned hdlc_sum(const uint8_t *data, size_t n)
{
	unsigned s = 0;
	for (size_t k = 0; k < n; k++)
		s += data[k];
	return s & 0xFFu;
}
#endif

static inline size_t hdlc_plain_frame(const uint8_t *data, size_t n, size_t max, uint8_t *sum)
{
	for (size_t k = 0; k + 64 + 16 <= n && k <= max; k += 64) {
		uint64_t f, e;
		hdlc_scan64(data + k, &f, &e);
		uint64_t special = f | e;
		if (special) {
			size_t j = k + (size_t)__builtin_ctzll(special);
			if (data[j] != 0x7E || j == 0 || j > max)
				return 0;
			*sum = (uint8_t)hdlc_sum(data, j);
			return j;
		}
	}
	return 0;
}
/* ---- the hot loop of the HDLC decoders (Sonde, QS) ---------------------
 *
 * Written once here, inline, so that each decoder's own frame handler is
 * inlined into it: a decoder gives hdlc_fast_run the function that takes a
 * good frame, and hdlc_feed_fast the function that runs the loop, and gets
 * the framer (hdlc_feed_frame) for every frame the loop leaves. */

/* Un-escape the n wire bytes at src (a frame without its flag, n < 64)
 * into dst; bit k of escs is set when src[k] is 0x7D.  The un-escaped
 * index of each escaped byte goes to esc[], their count to *nesc.  Returns
 * the un-escaped length, 0 when the frame ends with an escape (aborted:
 * left to the framer, which reports it). */
static inline size_t hdlc_unescape(const uint8_t *src, size_t n, uint64_t escs, uint8_t *dst, uint16_t *esc,
				   size_t *nesc)
{
	size_t from = 0, len = 0, ne = 0;
	while (escs) {
		size_t k = (size_t)__builtin_ctzll(escs);
		if (k + 1 >= n)
			return 0;
		memcpy(dst + len, src + from, k - from);
		len += k - from;
		esc[ne++] = (uint16_t)len;
		dst[len++] = (uint8_t)(src[k + 1] ^ SONDE_ESC_XOR); /* even a second 0x7D */
		from = k + 2;
		escs &= ~(((uint64_t)2 << (k + 1)) - 1); /* k + 1 <= 62 */
	}
	memcpy(dst + len, src + from, n - from);
	*nesc = ne;
	return len + n - from;
}

/* A good frame found by hdlc_fast_run: its un-escaped bytes b[0..len)
 * (SEQ, ID, data, checksum; 16 more bytes are readable), the input offset
 * of its first byte and the un-escaped indexes esc[0..nesc) of its escaped
 * bytes.  Returns 1 when taken, 0 to leave it, and what follows, to the
 * framer. */
typedef int (*hdlc_take_fn)(void *ctx, const uint8_t *b, size_t len, uint64_t offset, const uint16_t *esc,
			    size_t nesc);

/* The good frames at data[0..n), while the framer is between frames: found
 * here and given to take, those without escapes straight from the input,
 * the others un-escaped into a buffer of this loop (one copy of the frame,
 * not a trip through the framer's byte loop).  Returns the bytes consumed:
 * up to the first frame that needs the framer (a bad checksum, too short,
 * longer than max_len or aborted, one longer than 63 bytes on the wire,
 * one take leaves), or near the end of the bytes.  A flag right after a
 * flag is idle fill, skipped.
 *
 * The flags and escapes of 64 bytes at a time are found at once
 * (hdlc_scan64), so where a frame ends does not wait for the bytes of the
 * frame before it. */
static inline __attribute__((always_inline)) size_t hdlc_fast_run(struct hdlc_framer *f, const uint8_t *data,
								 size_t n, size_t max_len, hdlc_take_fn take,
								 void *ctx)
{
	const uint64_t base = f->offset;
	size_t pos = 0;                 /* where the next frame starts */
	uint8_t ub[64 + 16] = { 0 };    /* an un-escaped frame; hdlc_sum reads 16 bytes beyond */
	uint16_t esc[64];
	while (pos + 64 + 16 <= n) {
		uint64_t flags, escs;
		hdlc_scan64(data + pos, &flags, &escs);
		const size_t w = pos; /* bit k: data[w + k] */
		if (!flags)
			break; /* a frame longer than 63 bytes */
		do {
			unsigned j = (unsigned)__builtin_ctzll(flags), p = (unsigned)(pos - w);
			size_t len = j - p;
			uint64_t in_esc = escs & (((uint64_t)1 << j) - 1) & ~(((uint64_t)1 << p) - 1);
			if (len) {
				const uint8_t *fr = data + pos;
				size_t nesc = 0;
				if (in_esc) {
					len = hdlc_unescape(fr, len, in_esc >> p, ub, esc, &nesc);
					fr = ub;
				}
				if (len < 3 || len > max_len || hdlc_sum(fr, len) != SONDE_GOOD_SUM ||
				    !take(ctx, fr, len, base + pos, esc, nesc))
					goto out;
			}
			pos = w + j + 1;
			flags &= flags - 1;
		} while (flags);
	}
out:
	hdlc_took(f, pos);
	return pos;
}

/* Feed buf[0..n) to a decoder built on the framer: run (the decoder's
 * hdlc_fast_run, or 0 when it cannot take frames now) while the framer is
 * between frames, the framer for the rest, frame by frame, so that the
 * decoder's state decides again after each frame the framer gave it. */
static inline __attribute__((always_inline)) void hdlc_feed_fast(struct hdlc_framer *f, const uint8_t *buf,
								 size_t n,
								 size_t (*run)(void *ctx, const uint8_t *data,
									       size_t n),
								 void *ctx)
{
	size_t i = 0;
	while (i < n) {
		if (hdlc_idle(f))
			i += run(ctx, buf + i, n - i);
		if (i < n)
			i += hdlc_feed_frame(f, buf + i, n - i);
	}
}

/* End of input: a partial frame is reported as HDLC_TRUNCATED. */
void hdlc_finish(struct hdlc_framer *f);

/* Record where escapes occur in each frame, so that the on_frame callback can
 * map an un-escaped index to an input offset (hdlc_offset_of with
 * f->esc_pos, f->esc_n).  pos must hold cap entries; cap >= max_len records
 * every escape of any frame (max_len <= 65535).  Call after hdlc_init. */
void hdlc_track_escapes(struct hdlc_framer *f, uint16_t *pos, size_t cap);

/* Input offset of un-escaped byte idx of a frame that starts at start and
 * whose escaped bytes have the un-escaped indexes esc[0..nesc-1] (ascending).
 * For an escaped byte this is the offset of its 0x7D. */
uint64_t hdlc_offset_of(uint64_t start, const uint16_t *esc, size_t nesc, size_t idx);

/* Encode one frame (seq, id, data) into out, escaped and flag-terminated.
 * Returns the bytes written; out needs 2 * (n + 3) + 1 bytes.  Used by tests
 * and by the host's command sender. */
size_t hdlc_encode(uint8_t seq, uint8_t id, const uint8_t *data, size_t n, uint8_t *out);

#endif /* SONDE_FRAMER_HDLC_H */
