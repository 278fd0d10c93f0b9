/*
 * tband_cobs.h -- COBS (Consistent Overhead Byte Stuffing) frame decoding for
 * the Tonbandgeraet decoder.
 *
 * A tband stream is a concatenation of COBS-encoded frames, each ended by a
 * 0x00 delimiter.  These functions work on one frame's bytes *without* the
 * delimiter, so they can be driven from any byte buffer (tests, fuzzers).
 */
#ifndef TBAND_COBS_H
#define TBAND_COBS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode the encoded frame in[0..n) (no 0x00 inside, no delimiter) into
 * out, which must hold at least n bytes (a decoded frame is never longer).
 * Returns the decoded length, or -1 if a code byte points past the end of the
 * frame; then *bad (if not NULL) is the index in 'in' of that code byte.
 * A block of 254 data bytes (code 0xFF) that ends the frame needs no trailing
 * code byte (tband's encoder writes none); a trailing 0x01 is accepted too.
 */
long tband_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t *bad);

/*
 * The same for a frame known to hold no 0x00 (the caller split the stream
 * on them), the usual case, faster: the decoded bytes are the encoded ones
 * moved down by one, with a zero where each code byte after the first
 * stood, so the frame is copied at once and only its code bytes are
 * visited.  A frame with a full block (0xFF) takes tband_cobs_decode.
 */
long tband_cobs_decode_nz(const uint8_t *in, size_t n, uint8_t *out, size_t *bad);

/*
 * Index in the encoded frame in[0..n) of decoded byte number 'pos' (pos may be
 * the decoded length: then the index just past the frame is returned).  Used
 * to report errors found in decoded data at their offset in the input.
 */
size_t tband_cobs_raw_index(const uint8_t *in, size_t n, size_t pos);

#endif /* TBAND_COBS_H */
