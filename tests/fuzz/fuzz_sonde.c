/*
 * fuzz_sonde.c -- libFuzzer harness: the HDLC framer (framers/framer_hdlc.h)
 * and the Sonde decoder (registry name "sonde").  No sink: every field of
 * every event goes into a digest (fuzz_util.c), which is cheaper than any
 * format and misses nothing; the sinks have their own harness.
 *
 * Input: byte 0 picks the chunk size, byte 1 the decoder options (bits 0-1)
 * and whether anything reads the events' text (bit 2: when nothing does,
 * the decoder skips formatting LOG messages); the rest is the stream.
 * Checked beyond "no crash, no leak, no UB":
 * - the framer: frames tile the input (every byte is in exactly one frame
 *   or is an idle flag), each frame's offset map (hdlc_offset_of) points at
 *   the wire byte that carries each un-escaped byte, hdlc_encode of a good
 *   frame frames back to the same bytes, and one byte at a time gives the
 *   same frames as all at once;
 * - the decoder: the same events, diagnostics, exit status and loss
 *   counters whatever the chunking.
 */
#include <stdlib.h>
#include <string.h>

#include "framers/framer_hdlc.h"
#include "fuzz_util.h"
#include "sonde_proto.h"

#define MAX_FRAME 1024 /* the Sonde decoder's frame limit (protocol §1) */

struct frames {
	const uint8_t *in;   /* the input, to check offsets against */
	size_t n;
	uint64_t covered;    /* bytes of frames seen so far */
	uint64_t next;       /* where the next frame may start */
	uint64_t hash;       /* of everything reported, to compare two runs */
	size_t count;
	struct hdlc_framer *f;
};

static void mix(struct frames *s, uint64_t v)
{
	s->hash = (s->hash ^ v) * 0x100000001B3ull;
}

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t off, size_t raw)
{
	struct frames *s = ctx;
	if (off < s->next || off + raw > s->n)
		fuzz_fail("frame at %llu (+%zu) overlaps the previous one or runs past the input (%zu)",
			  (unsigned long long)off, raw, s->n);
	/* between frames: only idle flags */
	for (uint64_t i = s->next; i < off; i++)
		if (s->in[i] != SONDE_FLAG)
			fuzz_fail("byte %llu (0x%02X) is in no frame", (unsigned long long)i, s->in[i]);
	s->next = off + raw;
	s->covered += raw;
	s->count++;
	mix(s, st);
	mix(s, len);
	mix(s, off);
	mix(s, raw);
	for (size_t i = 0; i < len; i++)
		mix(s, fr[i]);
	if (st != HDLC_OK && st != HDLC_BAD_CHECKSUM)
		return;
	/* every un-escaped byte maps to the wire byte carrying it */
	for (size_t i = 0; i < len; i++) {
		uint64_t at = hdlc_offset_of(off, s->f->esc_pos, s->f->esc_n, i);
		if (at >= off + raw)
			fuzz_fail("offset map: byte %zu of the frame at %llu maps past it", i, (unsigned long long)off);
		uint8_t w = s->in[at];
		if (!(w == fr[i] || (w == SONDE_ESC && at + 1 < s->n && (s->in[at + 1] ^ SONDE_ESC_XOR) == fr[i])))
			fuzz_fail("offset map: byte %zu of the frame at %llu (0x%02X) maps to input byte %llu (0x%02X)",
				  i, (unsigned long long)off, fr[i], (unsigned long long)at, w);
	}
}

/* Frame in[0..n) fed `step` bytes at a time (0: at once); returns the hash. */
static uint64_t frame_all(const uint8_t *in, size_t n, size_t step)
{
	static uint8_t buf[MAX_FRAME];
	static uint16_t esc[MAX_FRAME];
	struct hdlc_framer f;
	struct frames s = { in, n, 0, 0, 0xCBF29CE484222325ull, 0, &f };
	hdlc_init(&f, buf, sizeof(buf), on_frame, &s);
	hdlc_track_escapes(&f, esc, MAX_FRAME);
	for (size_t off = 0; off < n;) {
		size_t k = step && step < n - off ? step : n - off;
		hdlc_feed(&f, in + off, k);
		off += k;
	}
	hdlc_finish(&f);
	for (uint64_t i = s.next; i < n; i++)
		if (in[i] != SONDE_FLAG)
			fuzz_fail("trailing byte %llu (0x%02X) is in no frame", (unsigned long long)i, in[i]);
	return s.hash;
}

/* A good frame, encoded again, frames back to itself. */
struct again {
	const uint8_t *fr;
	size_t len;
	int good;
};

static void on_again(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t off, size_t raw)
{
	struct again *a = ctx;
	(void)off;
	(void)raw;
	if (st != HDLC_OK || len != a->len || memcmp(fr, a->fr, len) != 0 || a->good++)
		fuzz_fail("a good frame of %zu bytes, re-encoded, does not frame back to itself", a->len);
}

static void on_good(void *ctx, enum hdlc_status st, const uint8_t *fr, size_t len, uint64_t off, size_t raw)
{
	static uint8_t wire[2 * (MAX_FRAME + 3) + 1], buf[MAX_FRAME];
	(void)ctx;
	(void)off;
	(void)raw;
	if (st != HDLC_OK)
		return;
	struct again a = { fr, len, 0 };
	struct hdlc_framer f;
	size_t k = hdlc_encode(fr[0], fr[1], fr + 2, len - 3, wire);
	hdlc_init(&f, buf, sizeof(buf), on_again, &a);
	hdlc_feed(&f, wire, k);
	hdlc_finish(&f);
	if (!a.good)
		fuzz_fail("a good frame of %zu bytes, re-encoded, gave no frame", len);
}

static void check_framer(const uint8_t *in, size_t n)
{
	if (frame_all(in, n, 0) != frame_all(in, n, 1))
		fuzz_fail("the framer's frames depend on how the input is cut into chunks");
	static uint8_t buf[MAX_FRAME];
	struct hdlc_framer f;
	hdlc_init(&f, buf, sizeof(buf), on_good, NULL);
	hdlc_feed(&f, in, n);
	hdlc_finish(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opt_sets[][3] = {
		{ NULL },
		{ "ts_freq=1000000", NULL },
		{ "addr_size=8", NULL },
		{ "ts_freq=1", "addr_size=2", NULL },
	};
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	uint8_t cfg = fuzz_take(&in);
	const char *const *opts = opt_sets[cfg % 4];

	check_framer(in.p, in.n);
	struct fuzz_decode d = { .proto = "sonde", .opts = opts, .sink = NULL, .no_text = cfg & 4 };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
