/*
 * tgt_frames.h -- helpers for the target library's unit tests: a small
 * frame parser of its own (un-escape, checksum; deliberately independent of
 * host/, so a bug shared by the two sides cannot hide), a fake clock, and
 * draining everything.
 */
#ifndef TGT_FRAMES_H
#define TGT_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#define TGT_MAX_DATA 1100

struct tgt_frame {
	int ok;                     /* 3+ bytes and the checksum is good */
	uint8_t seq, id;
	size_t len;                 /* DATA bytes */
	uint8_t data[TGT_MAX_DATA];
	size_t off;                 /* wire offset of the frame's first byte */
	size_t wire_len;            /* escapes and flag included */
};

struct tgt_frames {
	struct tgt_frame *f;
	size_t n;                   /* frames (good and bad) */
	size_t bad;                 /* of which bad checksum / too short / too long */
	size_t partial;             /* bytes after the last flag */
};

/* Split wire[n] into frames.  Free with tgt_frames_free. */
void tgt_parse(const uint8_t *wire, size_t n, struct tgt_frames *out);
void tgt_frames_free(struct tgt_frames *fr);

/* Drain the library completely into dst (at most cap bytes). */
size_t tgt_drain_all(uint8_t *dst, size_t cap);

/* Fake clock: the port's sonde_port_ts() returns tgt_now. */
extern volatile uint32_t tgt_now;
extern volatile unsigned tgt_clock_reads; /* calls of the fake clock */
extern volatile uint64_t tgt_now64;       /* the same time, never wrapping */
/* Install the fake clock, at start (tgt_now64 too). */
void tgt_fake_clock(uint32_t start);
/* Move it on by dt ticks: tgt_now wraps at 2^32, tgt_now64 does not. */
void tgt_tick(uint64_t dt);

/* Fake clock at clock, sonde_init(buf, size, mode), an explicit TIME_SYNC,
 * everything drained: the next timed record is SEQ 3, without TIME_SYNC
 * while the clock moves less than 2^28 ticks (its delta counts from the
 * TIME_SYNC, so it is 0 if the clock has not moved).  In snapshot and
 * post-mortem modes the buffer is triggered for the drain and started
 * again (without rule 1's TIME_SYNC, see tgt_frames.c), so that it is
 * recording, and holding what it records until the test triggers it. */
void tgt_setup(uint8_t *buf, size_t size, uint8_t mode, uint32_t clock);

/* Drain everything and compare with want[n] byte for byte (cmocka assert;
 * prints both on a mismatch). */
void tgt_expect_wire(const uint8_t *want, size_t n);
/* The same with the bytes as the arguments. */
#define TGT_EXPECT(...)                                          \
	do {                                                     \
		static const uint8_t want_[] = { __VA_ARGS__ };  \
		tgt_expect_wire(want_, sizeof want_);            \
	} while (0)

/* The timestamp field at the end of a timed frame's DATA (docs/protocol.md
 * section 5): its width (1..4; 0 when DATA is empty or the tag is 1111),
 * the delta in *delta, and the record's own fields are DATA[0 .. len -
 * width). */
unsigned tgt_ts(const struct tgt_frame *f, uint32_t *delta);

/* The wire bytes of the frame SEQ ID data[n] CHK 0x7E (checksum computed,
 * every byte escaped as needed) into out; returns their count. */
size_t tgt_frame_wire(uint8_t seq, uint8_t id, const uint8_t *data, size_t n, uint8_t *out);

/* Drain everything and compare with the one frame SEQ ID data[n] (for the
 * EXPECT macros of the tests: data is written out by hand, CHK and escapes
 * are computed). */
void tgt_expect_frame(uint8_t seq, uint8_t id, const uint8_t *data, size_t n);

uint32_t tgt_le16(const uint8_t *p);
uint32_t tgt_le32(const uint8_t *p);
uint64_t tgt_le64(const uint8_t *p);

#endif /* TGT_FRAMES_H */
