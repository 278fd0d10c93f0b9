/*
 * test_target_modes.c -- the four buffer modes under overflow: exactly which
 * records are kept, overwritten or refused, the DROPS report's contents and
 * where it appears (docs/protocol.md sections 2 and 4).
 *
 * The arithmetic all tests share: a 128-byte ring holds at most 127 bytes.
 * After tgt_setup() it is empty and the clock stands still, so the marks
 * written here are 7 bytes each (SEQ 3..102 and their checksums need no
 * escaping) and need no TIME_SYNC.  A record is taken when its worst case
 * (every byte escaped: 13 bytes for a mark) fits: 17 marks fit (free space
 * 127 - 16 * 7 = 15 >= 13 before the 17th, 8 after it).  An overwriting
 * mode then discards one 7-byte frame per mark (8 + 7 >= 13).  A pending
 * loss report (TIME_SYNC + DROPS, worst case 31 + 27 bytes) goes before the
 * next record only when it fits in free space with it (58 + 13 <= free).
 * Snapshot and post-mortem buffers are drained only once frozen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"

#define CLOCK 0x12345678u

static uint8_t ring[128];
static uint8_t wire[4096];

static void marks(unsigned n)
{
	while (n--)
		sonde_mark(1);
}

static void drain(struct tgt_frames *fr)
{
	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), fr);
	assert_int_equal(fr->bad, 0);
	assert_int_equal(fr->partial, 0);
}

static void expect_stats(uint32_t records, uint32_t overwritten, uint32_t refused)
{
	sonde_stats_t st;

	sonde_get_stats(&st);
	assert_int_equal(st.records, records);
	assert_int_equal(st.overwritten, overwritten);
	assert_int_equal(st.refused, refused);
}

/* Frames i..i+n-1 are marks with consecutive SEQ from seq. */
static void expect_marks(const struct tgt_frames *fr, size_t i, size_t n, uint8_t seq)
{
	size_t k;

	assert_true(fr->n >= i + n);
	for (k = 0; k < n; k++) {
		assert_int_equal(fr->f[i + k].id, SONDE_REC_MARK);
		assert_int_equal(fr->f[i + k].seq, (uint8_t)(seq + k));
		assert_int_equal(fr->f[i + k].wire_len, 6); /* delta 0: a one-byte field */
	}
}

/* Frames i and i + 1 are the loss report: TIME_SYNC, then DROPS, at CLOCK
 * (the clock stands still, so since_prev is 0: marks were written at
 * CLOCK). */
static void expect_report(const struct tgt_frames *fr, size_t i, uint32_t overwritten, uint32_t refused)
{
	const struct tgt_frame *s = &fr->f[i], *d = &fr->f[i + 1];

	assert_int_equal(s->id, SONDE_REC_TIME_SYNC);
	assert_int_equal(s->len, 12);
	assert_int_equal(tgt_le64(s->data), CLOCK);
	assert_int_equal(tgt_le32(s->data + 8), 0);
	assert_int_equal(d->id, SONDE_REC_DROPS);
	assert_int_equal(d->seq, (uint8_t)(s->seq + 1));
	assert_int_equal(d->len, SONDE_DROPS_BYTES + 1);
	assert_int_equal(tgt_le32(d->data), overwritten);
	assert_int_equal(tgt_le32(d->data + 4), refused);
	assert_int_equal(d->data[8], 0);   /* no counter reset */
	/* its own frame number (SEQ is its low byte), and oldest no later */
	assert_int_equal(tgt_le32(d->data + 13) & 0xFFu, d->seq);
	assert_true(tgt_le32(d->data + 13) - tgt_le32(d->data + 17) >= 1u);
	assert_int_equal(d->data[SONDE_DROPS_BYTES], 0); /* delta 0: the TIME_SYNC's time */
}

/* 128 bytes hold 19 marks of 6 bytes: the 19th is written with 19 bytes
 * free, its worst case (17) fitting; the 20th would find 13. */
static void test_drop_new(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, CLOCK);
	marks(100);
	assert_true(sonde_is_running());
	expect_stats(3 + 19, 0, 81);
	drain(&fr);
	assert_int_equal(fr.n, 19);
	expect_marks(&fr, 0, 19, 3);
	tgt_frames_free(&fr);
	/* the next record that fits brings the report along */
	marks(1);
	drain(&fr);
	assert_int_equal(fr.n, 3);
	expect_report(&fr, 0, 0, 81);
	assert_int_equal(fr.f[0].seq, 22);
	expect_marks(&fr, 2, 1, 24);
	tgt_frames_free(&fr);
	/* counts are cumulative */
	marks(30);
	expect_stats(25 + 19, 0, 81 + 11);
	drain(&fr);
	tgt_frames_free(&fr);
	marks(1);
	drain(&fr);
	assert_int_equal(fr.n, 3);
	expect_report(&fr, 0, 0, 92);
	tgt_frames_free(&fr);
	/* written + refused == attempted (+ the library's own frames) */
	expect_stats(3 + 19 + 3 + 19 + 3, 0, 92);
}

/* DROP_NEW: while a report is pending, a record that would fit alone but
 * not with the report is refused too. */
static void test_drop_new_report_needs_room(void **state)
{
	struct tgt_frames fr;
	uint8_t part[40];

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, CLOCK);
	marks(20);                                /* 19 written, 1 refused */
	assert_int_equal(sonde_drain(part, 36), 36); /* 6 marks out: 49 bytes free */
	marks(1);                                 /* 17 fits, 17 + 64 does not */
	expect_stats(22, 0, 2);
	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), &fr);
	assert_int_equal(fr.n, 13);
	tgt_frames_free(&fr);
	marks(1);
	drain(&fr);
	expect_report(&fr, 0, 0, 2);
	tgt_frames_free(&fr);
}

static void test_snapshot(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_SNAPSHOT, CLOCK);
	marks(19);
	assert_true(sonde_is_running());
	marks(1);                       /* does not fit: the snapshot is full */
	assert_false(sonde_is_running());
	drain(&fr);                     /* a few bytes free again ... */
	tgt_frames_free(&fr);
	marks(80);                      /* ... but a full snapshot stays full */
	expect_stats(3 + 19 + 2, 0, 81);
	/* the first drain, once everything was read, wrote the report */
	tgt_setup(ring, sizeof ring, SONDE_MODE_SNAPSHOT, CLOCK);
	marks(100);
	drain(&fr);
	assert_int_equal(fr.n, 21);
	expect_marks(&fr, 0, 19, 3);
	expect_report(&fr, 19, 0, 81);
	tgt_frames_free(&fr);
	/* nothing more to report: a second drain is empty */
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(tgt_drain_all(wire, sizeof wire), 0);
	/* start again: rule 1 asks for a TIME_SYNC, with since_prev unknown;
	 * the new snapshot is read out once it is frozen */
	sonde_start();
	assert_true(sonde_is_running());
	marks(1);
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(tgt_drain_all(wire, sizeof wire), 0);
	sonde_trigger();
	drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(tgt_le32(fr.f[0].data + 8), 0xFFFFFFFFu);
	expect_marks(&fr, 1, 1, 25);
	tgt_frames_free(&fr);
}

static void test_snapshot_trigger(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_SNAPSHOT, CLOCK);
	marks(5);
	sonde_trigger();
	assert_false(sonde_is_running());
	marks(5);
	expect_stats(8, 0, 5);
	drain(&fr);
	assert_int_equal(fr.n, 7);
	expect_marks(&fr, 0, 5, 3);
	expect_report(&fr, 5, 0, 5);
	tgt_frames_free(&fr);
}

static void test_postmortem(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_POSTMORTEM, CLOCK);
	marks(100);
	assert_true(sonde_is_running());
	expect_stats(103, 81, 0);
	/* recording: the drain holds it back */
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(sonde_drain_byte(), -1);
	assert_int_equal(tgt_drain_all(wire, sizeof wire), 0);
	sonde_trigger();
	marks(1);
	expect_stats(103, 81, 1);
	drain(&fr);
	/* the newest 19 marks, then the report written by the drain */
	assert_int_equal(fr.n, 21);
	expect_marks(&fr, 0, 19, 84);
	expect_report(&fr, 19, 81, 1);
	tgt_frames_free(&fr);
	/* frames received + overwritten == frames written */
	expect_stats(105, 81, 1);
	/* recording again: held back; stopped: read out */
	sonde_start();
	marks(2);
	assert_int_equal(sonde_pending(), 0);
	sonde_stop();
	drain(&fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	expect_marks(&fr, 1, 2, 106);
	tgt_frames_free(&fr);
}

static void test_overwrite(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, CLOCK);
	marks(100);
	sonde_trigger(); /* no effect in this mode */
	assert_true(sonde_is_running());
	expect_stats(103, 81, 0);
	drain(&fr);
	assert_int_equal(fr.n, 19);
	expect_marks(&fr, 0, 19, 84);
	tgt_frames_free(&fr);
	/* room again: report, then the record */
	marks(1);
	drain(&fr);
	assert_int_equal(fr.n, 3);
	expect_report(&fr, 0, 81, 0);
	expect_marks(&fr, 2, 1, 105);
	tgt_frames_free(&fr);
}

/* In every mode, every DROPS comes right after a TIME_SYNC with the same
 * time, whose since_prev is the distance to the timed record written
 * before it.  The clock moves here (100 ticks per mark), so the reports
 * written with a record, and those the drain writes in the frozen modes,
 * carry times of their own. */
static void report_after_sync(uint8_t mode)
{
	static const char *const what[] = { "overwrite", "drop-new", "snapshot", "post-mortem" };
	int holding = mode == SONDE_MODE_SNAPSHOT || mode == SONDE_MODE_POSTMORTEM;
	uint32_t t = CLOCK;
	uint64_t t_rec = CLOCK, t_prev = 0; /* tgt_setup drained a TIME_SYNC at CLOCK */
	int known = 1, known_prev = 0;
	struct tgt_frames fr;
	size_t i, n = 0, reports = 0;
	unsigned k;

	tgt_setup(ring, sizeof ring, mode, CLOCK);
	for (k = 0; k < 40; k++) {
		tgt_now = t += 100;
		sonde_mark(1);
	}
	if (holding)
		sonde_trigger();
	tgt_now = t += 50;
	n = tgt_drain_all(wire, sizeof wire); /* frozen: ends with the drain's report */
	if (holding)
		sonde_start();
	tgt_now = t += 100;
	sonde_mark(2); /* streaming: brings the pending report along */
	if (holding)
		sonde_trigger();
	n += tgt_drain_all(wire + n, sizeof wire - n);
	tgt_parse(wire, n, &fr);
	assert_int_equal(fr.bad, 0);
	for (i = 0; i < fr.n; i++) {
		const struct tgt_frame *s, *p;
		uint32_t delta = 0;

		/* the time of every record, from the deltas, while the chain of
		 * deltas is whole (overwritten frames break it) */
		if (fr.f[i].seq != (uint8_t)((i > 0 ? fr.f[i - 1].seq : 2u) + 1u)) /* tgt_setup: SEQ 2 */
			known = 0;
		if (fr.f[i].id == SONDE_REC_TIME_SYNC) {
			t_prev = t_rec;
			known_prev = known;
			t_rec = tgt_le64(fr.f[i].data);
			known = 1;
		} else if (tgt_ts(&fr.f[i], &delta) > 0) {
			t_rec += delta;
		}
		if (fr.f[i].id != SONDE_REC_DROPS)
			continue;
		reports++;
		if (i < 2 || fr.f[i - 1].id != SONDE_REC_TIME_SYNC)
			fail_msg("%s: DROPS at frame %zu without its TIME_SYNC", what[mode], i);
		s = &fr.f[i - 1];
		p = &fr.f[i - 2];
		assert_int_equal(fr.f[i].seq, (uint8_t)(s->seq + 1));
		assert_int_equal(delta, 0);                       /* the TIME_SYNC's time */
		/* the record before it, with no frame between: since_prev exact */
		assert_int_equal(s->seq, (uint8_t)(p->seq + 1));
		assert_int_equal(p->id, SONDE_REC_MARK);
		if (known_prev)
			assert_int_equal(tgt_le32(s->data + 8), tgt_le64(s->data) - t_prev);
		else /* marks were written at CLOCK + 100 k */
			assert_int_equal((tgt_le64(s->data) - tgt_le32(s->data + 8) - CLOCK) % 100u, 0);
		assert_true(tgt_le32(s->data + 8) >= 50);
	}
	assert_int_equal(reports, 1);
	tgt_frames_free(&fr);
}

static void test_report_after_sync(void **state)
{
	uint8_t mode;

	(void)state;
	for (mode = SONDE_MODE_OVERWRITE; mode <= SONDE_MODE_POSTMORTEM; mode++)
		report_after_sync(mode);
}

/* A record bigger than the whole ring is refused; nothing is overwritten
 * for it. */
static void test_overwrite_too_big(void **state)
{
	static uint8_t mem[100];

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, CLOCK);
	marks(10);
	assert_true(sonde_user_begin(0x40));
	sonde_arg_mem(mem, sizeof mem);
	sonde_user_end();
	expect_stats(13, 0, 1);
	assert_int_equal(sonde_pending(), 60);
}

static void test_stop_start(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, CLOCK);
	marks(2);
	sonde_stop();
	assert_false(sonde_is_running());
	marks(3);
	sonde_dict(SONDE_DICT_MARKER, 1, "m"); /* not made either */
	/* not recorded while stopped: counted apart, not refused (issue 15) */
	expect_stats(5, 0, 0);
	{
		sonde_stats_t st;

		sonde_get_stats(&st);
		assert_int_equal(st.stopped, 4);
	}
	drain(&fr);
	assert_int_equal(fr.n, 4);
	expect_marks(&fr, 0, 2, 3);
	expect_report(&fr, 2, 0, 0);
	assert_int_equal(tgt_le32(fr.f[3].data + 9), 4);
	tgt_frames_free(&fr);
	sonde_start();
	marks(1);
	drain(&fr);
	assert_int_equal(fr.n, 2);
	assert_int_equal(fr.f[0].id, SONDE_REC_TIME_SYNC);
	expect_marks(&fr, 1, 1, 8);
	tgt_frames_free(&fr);
}

/* An untimed DICT frame of exactly m (10..) bytes on the wire: its kind is
 * chosen so that the checksum needs no escaping. */
static void dict_frame(unsigned m)
{
	static char name[128];
	sonde_stats_t st;
	unsigned kind = 1, seq, chk;

	memset(name, 'a', m - 10u);
	name[m - 10u] = 0;
	sonde_get_stats(&st);
	seq = st.records & 0xFFu;
	assert_true(seq != 0x7D && seq != 0x7E);
	for (;; kind++) {
		chk = ~(seq + SONDE_REC_DICT + kind + (m - 10u) * 'a') & 0xFFu;
		if (chk != 0x7D && chk != 0x7E)
			break;
	}
	sonde_dict((uint8_t)kind, 0, name);
}

/* A record is taken exactly when its worst case fits (docs/porting.md),
 * also on the fast path, whose room test is one compare: with d bytes free
 * in one piece before the unread data, LOG with two U32 (worst case 41
 * bytes with a 4-byte timestamp) is refused for d = 40 and written for
 * d = 41, and the unread frames stay intact. */
static void test_room_exact(void **state)
{
	struct tgt_frames fr;
	sonde_stats_t st;
	unsigned d, t;

	(void)state;
	for (d = 34; d <= 49; d++) {
		tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, CLOCK); /* rp = wp = 38 */
		dict_frame(21u + d - 38u);
		drain(&fr);
		tgt_frames_free(&fr);
		/* rp = wp = 21 + d; fill all but d + 1 bytes, wrapping round */
		for (t = 127u - d; t >= 20u; t -= 10u)
			dict_frame(10u);
		dict_frame(t);
		assert_int_equal(sonde_pending(), 127u - d);
		sonde_log_u32x2(SONDE_LVL_INFO, 2, 3, 4);
		sonde_get_stats(&st);
		assert_int_equal(st.refused, d < 41u);
		drain(&fr);
		assert_int_equal(fr.f[fr.n - 1].id, d < 41u ? SONDE_REC_DICT : SONDE_REC_LOG);
		tgt_frames_free(&fr);
	}
}

/* Too small a buffer: the library stays off, every call does nothing. */
static void test_tiny_buffer(void **state)
{
	uint8_t small[32];
	sonde_stats_t st;

	(void)state;
	tgt_fake_clock(CLOCK);
	sonde_init(small, sizeof small, SONDE_MODE_OVERWRITE);
	marks(3);
	sonde_user_u32x2(0x40, 1, 2);
	assert_false(sonde_user_begin(0x40));
	assert_false(sonde_is_running());
	assert_int_equal(sonde_pending(), 0);
	assert_int_equal(sonde_drain_byte(), -1);
	sonde_get_stats(&st);
	assert_int_equal(st.records, 0);
	assert_int_equal(st.refused, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_new),
		cmocka_unit_test(test_drop_new_report_needs_room),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_snapshot_trigger),
		cmocka_unit_test(test_postmortem),
		cmocka_unit_test(test_report_after_sync),
		cmocka_unit_test(test_overwrite),
		cmocka_unit_test(test_overwrite_too_big),
		cmocka_unit_test(test_stop_start),
		cmocka_unit_test(test_room_exact),
		cmocka_unit_test(test_tiny_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
