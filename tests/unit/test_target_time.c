/*
 * test_target_time.c -- the timestamp field (a delta since the previous
 * timed frame) and TIME_SYNC rules 1-4 of docs/protocol.md section 5 with a
 * fake clock, TIME_SYNC's since_prev (section 4), the tick's TIME_SYNCs,
 * the 64-bit extension of the 32-bit counter, and the one-read-per-record
 * rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sonde.h"
#include "tgt_frames.h"

#define UNKNOWN 0xFFFFFFFFu /* since_prev: no timed record to count from */

static uint8_t ring[1024];
static uint8_t wire[16384];

static void drain(struct tgt_frames *fr)
{
	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), fr);
	assert_int_equal(fr->bad, 0);
}

/* The delta a timed frame carries (its field must be valid). */
static uint32_t delta_of(const struct tgt_frame *f)
{
	uint32_t d = 0;

	assert_true(tgt_ts(f, &d) > 0);
	return d;
}

/* Frame i is a TIME_SYNC at t, since_prev ticks after the previous timed
 * frame, directly followed by the timed record id, at the same time (delta
 * 0, a one-byte field). */
static void expect_sync_before(const struct tgt_frames *fr, size_t i, uint64_t t, uint32_t since_prev, uint8_t id)
{
	uint32_t d = 1;

	assert_true(fr->n > i + 1);
	assert_int_equal(fr->f[i].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr->f[i].len, 12);
	assert_int_equal(tgt_le64(fr->f[i].data), t);
	assert_int_equal(tgt_le32(fr->f[i].data + 8), since_prev);
	assert_int_equal(fr->f[i + 1].id, id);
	assert_int_equal(tgt_ts(&fr->f[i + 1], &d), 1);
	assert_int_equal(d, 0);
}

/* Rule 1: the first timed record after init, and after start. */
static void test_rule1_first_record(void **state)
{
	struct tgt_frames fr;

	(void)state;
	tgt_fake_clock(1000);
	sonde_init(ring, sizeof ring, SONDE_MODE_OVERWRITE);
	tgt_now = 1500;
	sonde_dict(SONDE_DICT_ISR, 1, "a"); /* untimed: no TIME_SYNC */
	sonde_isr_enter(1);
	tgt_now = 1520;
	sonde_isr_exit(1);
	drain(&fr);
	assert_int_equal(fr.n, 6);
	assert_int_equal(fr.f[2].id, SONDE_REC_DICT);
	expect_sync_before(&fr, 3, 1500, UNKNOWN, SONDE_REC_ISR_ENTER);
	assert_int_equal(fr.f[5].id, SONDE_REC_ISR_EXIT);
	assert_int_equal(delta_of(&fr.f[5]), 20);
	tgt_frames_free(&fr);

	sonde_stop();
	sonde_start();
	tgt_now = 1600;
	sonde_idle();
	drain(&fr);
	assert_int_equal(fr.n, 2);
	expect_sync_before(&fr, 0, 1600, UNKNOWN, SONDE_REC_IDLE); /* none since the start */
	tgt_frames_free(&fr);
}

/* Rule 2: 2^28 - 1 ticks apart, a 4-byte delta; 2^28 apart, a TIME_SYNC --
 * measured from the previous timed frame, across 32-bit wraps too. */
static void test_rule2_gap(void **state)
{
	struct tgt_frames fr;
	uint32_t t = 0xF8000000u;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, t);
	sonde_mark(1);
	tgt_now = t += 0x0FFFFFFFu;   /* wraps the 32-bit clock */
	sonde_mark(2);
	tgt_now = t += 0x10000000u;
	sonde_mark(3);
	tgt_now = t += 5u;
	sonde_mark(4);
	drain(&fr);
	assert_int_equal(fr.n, 5);
	assert_int_equal(fr.f[0].id, SONDE_REC_MARK);
	assert_int_equal(fr.f[1].id, SONDE_REC_MARK);
	assert_int_equal(tgt_ts(&fr.f[1], &(uint32_t){ 0 }), 4);
	assert_int_equal(delta_of(&fr.f[1]), 0x0FFFFFFFu);
	expect_sync_before(&fr, 2, 0x100000000ull + (uint32_t)(t - 5u), 0x10000000u, SONDE_REC_MARK);
	assert_int_equal(fr.f[4].data[0], 4);
	assert_int_equal(delta_of(&fr.f[4]), 5);
	tgt_frames_free(&fr);
}

/* Rule 3: after records were lost, TIME_SYNC, then DROPS, then the record,
 * all at the same time; since_prev counts from the last mark written. */
static void test_rule3_after_loss(void **state)
{
	struct tgt_frames fr;
	uint8_t small[128];
	int i;

	(void)state;
	tgt_setup(small, sizeof small, SONDE_MODE_DROP_NEW, 7000);
	for (i = 0; i < 30; i++)
		sonde_mark(1);
	drain(&fr);
	tgt_frames_free(&fr);
	tgt_now = 7100;
	sonde_mark(2);
	drain(&fr);
	assert_int_equal(fr.n, 3);
	expect_sync_before(&fr, 0, 7100, 100, SONDE_REC_DROPS);
	assert_int_equal(fr.f[2].id, SONDE_REC_MARK);
	assert_int_equal(delta_of(&fr.f[2]), 0);
	tgt_frames_free(&fr);
}

static size_t cap_n;

static void capture(void)
{
	cap_n += tgt_drain_all(wire + cap_n, sizeof wire - cap_n);
}

/* Write marks until the next frame takes SEQ seq (draining as we go). */
static void advance_to(uint8_t seq)
{
	sonde_stats_t st;

	for (;;) {
		sonde_get_stats(&st);
		if ((uint8_t)st.records == seq)
			return;
		sonde_mark(9);
		capture();
	}
}

/* Rule 4: a TIME_SYNC takes SEQ 0 before a timed record, so there is one in
 * every 256 frames even with a clock standing still -- and nowhere else. */
static void test_rule4_seq_zero(void **state)
{
	struct tgt_frames fr;
	size_t i, syncs = 0;

	(void)state;
	cap_n = 0;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 42);
	for (i = 0; i < 600; i++) {
		sonde_mark(1);
		if (i % 50 == 49)
			capture();
	}
	capture();
	tgt_parse(wire, cap_n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.n, 602);
	for (i = 0; i < fr.n; i++) {
		assert_int_equal(fr.f[i].seq, (uint8_t)(3 + i));
		if (fr.f[i].id == SONDE_REC_TIME_SYNC) {
			assert_int_equal(fr.f[i].seq, 0);
			expect_sync_before(&fr, i, 42, 0, SONDE_REC_MARK);
			syncs++;
		}
	}
	assert_int_equal(syncs, 2);
	tgt_frames_free(&fr);
}

/* Rule 4, deferred: an untimed record took SEQ 0, so the next timed record
 * gets the TIME_SYNC.  And a TIME_SYNC that took SEQ 0xFF (rule 2) already
 * serves the record after it with SEQ 0. */
static void test_rule4_deferred(void **state)
{
	struct tgt_frames fr;

	(void)state;
	cap_n = 0;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 42);
	advance_to(0);
	cap_n = 0;
	sonde_dict(SONDE_DICT_MARKER, 1, "m");
	sonde_mark(1);
	sonde_mark(1);
	capture();
	tgt_parse(wire, cap_n, &fr);
	assert_int_equal(fr.n, 4);
	assert_int_equal(fr.f[0].id, SONDE_REC_DICT);
	assert_int_equal(fr.f[0].seq, 0);
	expect_sync_before(&fr, 1, 42, 0, SONDE_REC_MARK);
	assert_int_equal(fr.f[3].id, SONDE_REC_MARK);
	tgt_frames_free(&fr);

	advance_to(0xFF);
	cap_n = 0;
	tgt_now += 0x10000000;
	sonde_mark(1);
	sonde_mark(1);
	capture();
	tgt_parse(wire, cap_n, &fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[0].seq, 0xFF);
	expect_sync_before(&fr, 0, 42 + 0x10000000, 0x10000000, SONDE_REC_MARK);
	assert_int_equal(fr.f[1].seq, 0);
	assert_int_equal(fr.f[2].id, SONDE_REC_MARK);
	tgt_frames_free(&fr);
}

/* The 32-bit counter is extended to 64 bits by counting its wraps; a delta
 * across a wrap is exact. */
static void test_wrap_64(void **state)
{
	struct tgt_frames fr;
	uint64_t t = 0xF0000000u;
	int k;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 0xFFFFFF00u);
	sonde_mark(1);
	tgt_now = 0x100;    /* wrapped, 512 ticks later: no TIME_SYNC needed */
	sonde_mark(2);
	sonde_time_sync();
	drain(&fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[1].id, SONDE_REC_MARK);
	assert_int_equal(delta_of(&fr.f[1]), 0x200);
	assert_int_equal(fr.f[2].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(tgt_le64(fr.f[2].data), 0x100000100ull);
	assert_int_equal(tgt_le32(fr.f[2].data + 8), 0); /* the mark was at the same time */
	tgt_frames_free(&fr);

	/* quarter turns: a TIME_SYNC (rule 2) before each, time going on */
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, (uint32_t)t);
	for (k = 0; k < 9; k++) {
		t += 0x40000000u;
		tgt_now = (uint32_t)t;
		sonde_mark((uint8_t)k);
	}
	drain(&fr);
	assert_int_equal(fr.n, 18);
	for (k = 0; k < 9; k++)
		expect_sync_before(&fr, 2u * (size_t)k, 0xF0000000ull + 0x40000000ull * (uint64_t)(k + 1),
				   0x40000000u, SONDE_REC_MARK);
	tgt_frames_free(&fr);
}

/* One reading of the clock per record, on every path; none when filtered
 * or untimed. */
static void test_one_clock_read(void **state)
{
	uint8_t small[128];
	int i;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, 5000);
	tgt_clock_reads = 0;
	sonde_isr_enter(1);           /* fast path */
	assert_int_equal(tgt_clock_reads, 1);
	sonde_isr_enter(0x7E);        /* fast path, escaped in place */
	assert_int_equal(tgt_clock_reads, 2);
	tgt_now += 0x20000000;
	sonde_user_u32x2(0x40, 1, 2); /* slow path with a TIME_SYNC */
	assert_int_equal(tgt_clock_reads, 3);
	assert_true(sonde_log_begin(SONDE_LVL_INFO, 1));
	sonde_arg_u8(1);
	sonde_log_end();
	assert_int_equal(tgt_clock_reads, 4);
	sonde_dict(SONDE_DICT_TASK, 1, "t");
	assert_int_equal(tgt_clock_reads, 4);
	sonde_filter_record(SONDE_REC_ISR_ENTER, 0);
	sonde_isr_enter(1);
	sonde_filter_object(3, 0);
	sonde_task_in(3);
	sonde_mark(3);
	assert_int_equal(tgt_clock_reads, 4);
	/* overwriting, with a report pending: still one */
	tgt_setup(small, sizeof small, SONDE_MODE_OVERWRITE, 5000);
	tgt_clock_reads = 0;
	for (i = 0; i < 50; i++)
		sonde_counter(1, i);
	assert_int_equal(tgt_clock_reads, 50);
}

/* sonde_tick() keeps the 64-bit time exact across a silence longer than
 * 2^32 ticks -- whose 32-bit difference looks small -- by writing a
 * TIME_SYNC after 2^27 ticks without a timed frame; the record after the
 * silence then needs none of its own (it costs what it always costs).
 * Below 2^27 ticks a tick writes nothing. */
static void test_tick(void **state)
{
	struct tgt_frames fr;
	uint64_t t = 0xFFFF0000u, last;
	size_t i, syncs = 0;
	int k;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, (uint32_t)t);
	sonde_mark(1);
	tgt_now = (uint32_t)(t + 0x7FFFFFFu);
	sonde_tick();                                   /* 2^27 - 1: nothing */
	sonde_mark(2);
	last = t += 0x7FFFFFFu;
	for (k = 0; k < 64; k++) {                      /* 2^32 ticks, a tick every 2^26 */
		t += 0x4000000u;
		tgt_now = (uint32_t)t;
		sonde_tick();
	}
	t += 100u;
	tgt_now = (uint32_t)t;
	sonde_mark(3);
	drain(&fr);
	assert_int_equal(fr.n, 2 + 32 + 1);
	assert_int_equal(fr.f[1].id, SONDE_REC_MARK);
	assert_int_equal(delta_of(&fr.f[1]), 0x7FFFFFFu);
	for (i = 2; i < fr.n - 1; i++) {
		uint64_t at = tgt_le64(fr.f[i].data);

		assert_int_equal(fr.f[i].id, SONDE_REC_TIME_SYNC);
		assert_int_equal(at - last, 0x8000000u);         /* every 2^27 ticks */
		assert_int_equal(tgt_le32(fr.f[i].data + 8), 0x8000000u);
		last = at;
		syncs++;
	}
	assert_int_equal(syncs, 32);
	assert_int_equal(fr.f[fr.n - 1].id, SONDE_REC_MARK);
	assert_int_equal(last + delta_of(&fr.f[fr.n - 1]), t);  /* exact after 2^32 ticks */
	tgt_frames_free(&fr);
}

/* since_prev of the TIME_SYNC that sonde_time_sync() writes now (drains). */
static uint32_t sync_since_prev(void)
{
	struct tgt_frames fr;
	uint32_t v;

	sonde_time_sync();
	drain(&fr);
	assert_true(fr.n >= 1);
	assert_int_equal(fr.f[fr.n - 1].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(fr.f[fr.n - 1].len, 12);
	assert_int_equal(tgt_le64(fr.f[fr.n - 1].data) & 0xFFFFFFFFu, tgt_now);
	v = tgt_le32(fr.f[fr.n - 1].data + 8);
	tgt_frames_free(&fr);
	return v;
}

/* since_prev counts from the previous timed frame -- a record, whichever
 * path wrote it, or a TIME_SYNC (the chain of deltas runs through both);
 * unknown after sonde_init() and sonde_start() until a timed frame is
 * written. */
static void test_since_prev(void **state)
{
	uint32_t t = 0x10u;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, t);
	assert_int_equal(sync_since_prev(), 0);         /* tgt_setup's TIME_SYNC, same time */
	sonde_mark(1);                                  /* fast path */
	tgt_now = t += 100;
	sonde_mark(2);                                  /* fast path */
	tgt_now = t += 7;
	assert_int_equal(sync_since_prev(), 7);
	tgt_now = t += 20;
	assert_int_equal(sync_since_prev(), 20);        /* from that TIME_SYNC */
	sonde_mark(3);                                  /* at the TIME_SYNC's own time */
	tgt_now = t += 5;
	assert_int_equal(sync_since_prev(), 5);
	sonde_isr_enter(0x7E);                          /* escaped in place */
	tgt_now = t += 3;
	sonde_dict(SONDE_DICT_ISR, 0x7E, "x");          /* untimed: does not count */
	sonde_mark(4);
	tgt_now = t += 0x10000000u;
	sonde_mark(5);                                  /* rule 2 */
	{
		struct tgt_frames fr;

		drain(&fr);
		assert_int_equal(fr.n, 5); /* ISR_ENTER, DICT, MARK, TIME_SYNC, MARK */
		assert_int_equal(delta_of(&fr.f[2]), 3);
		expect_sync_before(&fr, 3, t, 0x10000000u, SONDE_REC_MARK);
		tgt_frames_free(&fr);
	}
	/* unknown after a restart, even with records before it */
	sonde_stop();
	sonde_start();
	tgt_now += 10;
	assert_int_equal(sync_since_prev(), UNKNOWN);
	sonde_mark(6);                                  /* fast: the TIME_SYNC cleared rule 1 */
	tgt_now += 9;
	assert_int_equal(sync_since_prev(), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule1_first_record),
		cmocka_unit_test(test_rule2_gap),
		cmocka_unit_test(test_rule3_after_loss),
		cmocka_unit_test(test_rule4_seq_zero),
		cmocka_unit_test(test_rule4_deferred),
		cmocka_unit_test(test_wrap_64),
		cmocka_unit_test(test_one_clock_read),
		cmocka_unit_test(test_tick),
		cmocka_unit_test(test_since_prev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
