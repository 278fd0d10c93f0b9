/*
 * framer_hdlc.c -- QS-style HDLC framing: 0x7E flag at the end of every
 * frame, 0x7D escape (next byte XOR 0x20), 8-bit inverted-sum checksum.
 *
 * Written by hand because no Debian library implements this exact variant
 * (no opening flag, additive checksum instead of a CRC).  The decoder is
 * deliberately more forgiving of line noise than QSPY: a flag always ends a
 * frame, even right after an escape, so a stray 0x7D costs one frame, not
 * two.
 *
 * hdlc_feed is the hot loop of every HDLC decoder: a whole frame without
 * escapes is found sixteen bytes at a time (hdlc_plain_frame, framer_hdlc.h)
 * and handed over in place; inside other frames ordinary bytes take a tight
 * path with the framer's state in locals, eight at a time on little-endian
 * hosts; flags and escapes leave it.
 */
#include "framer_hdlc.h"

#include <string.h>

#include "sonde_proto.h"
#include "util/bytes.h"

void hdlc_init(struct hdlc_framer *f, uint8_t *buf, size_t max_len, hdlc_frame_fn fn, void *ctx)
{
	f->on_frame = fn;
	f->ctx = ctx;
	f->buf = buf;
	f->max_len = max_len;
	f->len = 0;
	f->raw_len = 0;
	f->offset = 0;
	f->start = 0;
	f->sum = 0;
	f->esc = 0;
	f->overflow = 0;
	f->esc_pos = NULL;
	f->esc_cap = 0;
	f->esc_n = 0;
}

void hdlc_track_escapes(struct hdlc_framer *f, uint16_t *pos, size_t cap)
{
	f->esc_pos = pos;
	f->esc_cap = cap;
	f->esc_n = 0;
}

uint64_t hdlc_offset_of(uint64_t start, const uint16_t *esc, size_t nesc, size_t idx)
{
	size_t before = 0;
	while (before < nesc && esc[before] < idx)
		before++;
	return start + idx + before;
}

static void frame_done(struct hdlc_framer *f, enum hdlc_status st)
{
	f->on_frame(f->ctx, st, f->buf, f->len, f->start, f->raw_len);
	f->len = 0;
	f->raw_len = 0;
	f->sum = 0;
	f->esc = 0;
	f->overflow = 0;
	f->esc_n = 0;
}

static void end_of_frame(struct hdlc_framer *f)
{
	if (f->esc)
		frame_done(f, HDLC_ABORTED);
	else if (f->overflow)
		frame_done(f, HDLC_TOO_LONG);
	else if (f->len < 3)
		frame_done(f, HDLC_TOO_SHORT);
	else if (f->sum != SONDE_GOOD_SUM)
		frame_done(f, HDLC_BAD_CHECKSUM);
	else
		frame_done(f, HDLC_OK);
}

/* Eight bytes at a time on little-endian hosts (the word is stored into
 * the frame as it was loaded), inside a frame that is copied: special_mask() sets bit 7 of each byte lane holding 0x7E or 0x7D
 * (the lowest set lane is exact; lanes above it may be false alarms, which
 * the byte path sorts out); byte_sum() adds the eight bytes modulo 256. */
#if BYTES_NATIVE_LE
#define HDLC_WORDS 1

static inline uint64_t special_mask(uint64_t w)
{
	return bytes_word_has(w, SONDE_FLAG) | bytes_word_has(w, SONDE_ESC);
}

static inline uint8_t byte_sum(uint64_t w)
{
	const uint64_t lo = 0x00FF00FF00FF00FFull;
	uint64_t s = (w & lo) + ((w >> 8) & lo);  /* four 16-bit lanes, each <= 510 */
	return (uint8_t)((s * 0x0001000100010001ull) >> 48);
}
#else
#define HDLC_WORDS 0
#endif

/* Feed data[0..n); with one set, stop after the first frame reported.
 * Returns the bytes consumed. */
static inline size_t feed(struct hdlc_framer *f, const uint8_t *data, size_t n, int one)
{
	/* The state lives in locals while the chunk is scanned; the frame's
	 * wire length is the distance from its first byte (f->start), so
	 * nothing is counted per byte. */
	const uint64_t base = f->offset; /* stream offset of data[0] */
	uint8_t *const buf = f->buf;
	const size_t max = f->max_len;
	size_t len = f->len;
	uint8_t sum = f->sum;
	int in = f->raw_len > 0; /* inside a frame */
	size_t i = 0;
	while (i < n) {
		/* Between frames: a whole good frame without escapes goes to the
		 * callback straight from the input, neither copied nor summed a
		 * byte at a time.  Anything else takes the byte path below. */
		if (!in) {
			uint8_t fs;
			size_t len_f = hdlc_plain_frame(data + i, n - i, max, &fs);
			if (len_f >= 3 && fs == SONDE_GOOD_SUM) {
				f->offset = base + i + len_f + 1;
				f->on_frame(f->ctx, HDLC_OK, data + i, len_f, base + i, len_f + 1);
				i += len_f + 1;
				if (one)
					return i;
				continue;
			}
		}
		if (in && !f->esc) {
			/* ordinary bytes of a frame that has room */
#if HDLC_WORDS
			while (i + 8 <= n && len + 8 <= max) {
				uint64_t w = bytes_word(data + i);
				uint64_t m = special_mask(w);
				memcpy(buf + len, &w, 8); /* only the bytes counted below are kept */
				if (m) {
					unsigned k = bytes_first_lane(m); /* plain bytes before it */
					sum = (uint8_t)(sum + byte_sum(w & ((1ull << (8 * k)) - 1)));
					len += k;
					i += k;
					goto special;
				}
				sum = (uint8_t)(sum + byte_sum(w));
				len += 8;
				i += 8;
			}
#endif
			while (i < n && len < max && data[i] != SONDE_FLAG && data[i] != SONDE_ESC) {
				buf[len++] = data[i];
				sum = (uint8_t)(sum + data[i]);
				i++;
			}
			if (i == n)
				break;
		}
#if HDLC_WORDS
special:; /* a label must label a statement, not a declaration (C11; clang refuses) */
#endif
		uint8_t b = data[i++];
		if (b == SONDE_FLAG) {
			if (in) { /* two flags in a row are idle fill */
				f->len = len;
				f->sum = sum;
				f->offset = base + i;
				f->raw_len = (size_t)(base + i - f->start); /* the flag belongs to the frame */
				end_of_frame(f);
				len = 0;
				sum = 0;
				in = 0;
				if (one)
					return i;
			}
			continue;
		}
		if (!in) {
			in = 1;
			f->start = base + i - 1;
		}
		if (f->esc) {
			f->esc = 0;
			b = (uint8_t)(b ^ SONDE_ESC_XOR);
		} else if (b == SONDE_ESC) {
			f->esc = 1;
			if (f->esc_n < f->esc_cap && len < max)
				f->esc_pos[f->esc_n++] = (uint16_t)len;
			continue;
		}
		if (len < max) {
			buf[len++] = b;
			sum = (uint8_t)(sum + b);
		} else {
			f->overflow = 1;
		}
	}
	f->len = len;
	f->sum = sum;
	f->offset = base + n;
	f->raw_len = in ? (size_t)(base + n - f->start) : 0;
	return n;
}

void hdlc_feed(struct hdlc_framer *f, const uint8_t *data, size_t n)
{
	feed(f, data, n, 0);
}

size_t hdlc_feed_frame(struct hdlc_framer *f, const uint8_t *data, size_t n)
{
	return feed(f, data, n, 1);
}

void hdlc_finish(struct hdlc_framer *f)
{
	if (f->raw_len > 0)
		frame_done(f, HDLC_TRUNCATED);
}

static size_t put_escaped(uint8_t *out, uint8_t b)
{
	if (b == SONDE_FLAG || b == SONDE_ESC) {
		out[0] = SONDE_ESC;
		out[1] = (uint8_t)(b ^ SONDE_ESC_XOR);
		return 2;
	}
	out[0] = b;
	return 1;
}

size_t hdlc_encode(uint8_t seq, uint8_t id, const uint8_t *data, size_t n, uint8_t *out)
{
	size_t k = 0;
	uint8_t sum = (uint8_t)(seq + id);
	k += put_escaped(out + k, seq);
	k += put_escaped(out + k, id);
	for (size_t i = 0; i < n; i++) {
		sum = (uint8_t)(sum + data[i]);
		k += put_escaped(out + k, data[i]);
	}
	k += put_escaped(out + k, (uint8_t)~sum);
	out[k++] = SONDE_FLAG;
	return k;
}
