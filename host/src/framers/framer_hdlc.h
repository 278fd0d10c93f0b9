/*
 * framer_hdlc.h -- splits a QS-style HDLC byte stream into checked frames.
 *
 * Shared by the Sonde and QS decoders.  Bytes go in in chunks of any size;
 * each complete frame comes out un-escaped, with its checksum verified, the
 * byte offset of its first byte, and a status.  Memory is one frame buffer.
 */
#ifndef SONDE_FRAMER_HDLC_H
#define SONDE_FRAMER_HDLC_H

#include <stddef.h>
#include <stdint.h>

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
 * raw_len is the frame's size on the wire, escapes and flag included. */
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
};

/* buf must hold max_len bytes and outlive the framer. */
void hdlc_init(struct hdlc_framer *f, uint8_t *buf, size_t max_len, hdlc_frame_fn fn, void *ctx);
void hdlc_feed(struct hdlc_framer *f, const uint8_t *data, size_t n);
/* End of input: a partial frame is reported as HDLC_TRUNCATED. */
void hdlc_finish(struct hdlc_framer *f);

/* Encode one frame (seq, id, data) into out, escaped and flag-terminated.
 * Returns the bytes written; out needs 2 * (n + 3) + 1 bytes.  Used by tests
 * and by the host's command sender. */
size_t hdlc_encode(uint8_t seq, uint8_t id, const uint8_t *data, size_t n, uint8_t *out);

#endif /* SONDE_FRAMER_HDLC_H */
