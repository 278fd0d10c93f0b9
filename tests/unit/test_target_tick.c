/*
 * test_target_tick.c -- the periodic tick hook (SONDE_CFG_TICK_HOOK): with it,
 * records do not test the 65536-tick gap of TIME_SYNC rule 2 themselves;
 * sonde_tick(), called at least once every SONDE_CFG_TICK_HOOK ticks, closes
 * the fast path in time.  Checked with the fake clock: the exact closing
 * threshold, rule 2 still exact (a TIME_SYNC exactly when 65536 or more
 * ticks passed), the 64-bit time across the 32-bit wrap and across
 * silences longer than 2^32 ticks, and a long random run decoded the way
 * docs/protocol.md section 5 says, against the true times.
 *
 * The core with the hook on is its own library, sonde_target_tickhook
 * (SONDE_CFG_TICK_HOOK=1000, a public compile definition, so this file sees
 * the same configuration); tests/CMakeLists.txt links it instead of
 * sonde_target because of this line:
 *
 *   sonde-test-target: sonde_target_tickhook
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../../target/src/sonde_internal.h" /* sonde_g: the fast path's state */
#include "tgt_frames.h"

#if SONDE_CFG_TICK_HOOK != 1000
#error "test_target_tick.c must be built against sonde_target_tickhook (SONDE_CFG_TICK_HOOK=1000)"
#endif

#define H SONDE_CFG_TICK_HOOK

static uint8_t ring[4096];
static uint8_t wire[1 << 20];

static void drain(struct tgt_frames *fr)
{
	tgt_parse(wire, tgt_drain_all(wire, sizeof wire), fr);
	assert_int_equal(fr->bad, 0);
	assert_int_equal(fr->partial, 0);
}

static int fast_open(void)
{
	return sonde_g.wlim != 0u;
}

/* The threshold: a tick that finds 65536 - H - 1 ticks since the last timed
 * record leaves the fast path open (the next tick comes at most H later,
 * so every record before it is at most 65535 after the last); one that
 * finds 65536 - H closes it.  Rule 2 stays exact either way. */
static void test_threshold(void **state)
{
	struct tgt_frames fr;
	uint32_t t = 0x00012345u;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, t);
	sonde_mark(1);
	tgt_now = t + 0x10000u - H - 1u;
	sonde_tick();
	assert_true(fast_open());
	tgt_now = t + 0xFFFFu;          /* at most H after the tick */
	sonde_mark(2);                  /* fast: 65535 after mark 1, no TIME_SYNC */
	t += 0xFFFFu;
	tgt_now = t + 0x10000u - H;
	sonde_tick();
	assert_false(fast_open());
	assert_true(sonde_g.flags & SONDE_F_TIME);
	tgt_now = t + 0xFFFFu;
	sonde_mark(3);                  /* slow, exact: 65535 after mark 2, none */
	assert_true(fast_open());
	t += 0xFFFFu;
	tgt_now = t + 0x10000u - H;
	sonde_tick();
	assert_false(fast_open());
	tgt_now = t + 0x10000u;
	sonde_mark(4);                  /* 65536 after mark 3: TIME_SYNC */
	drain(&fr);
	assert_int_equal(fr.n, 5);
	assert_int_equal(fr.f[0].data[2], 1);
	assert_int_equal(fr.f[1].data[2], 2);
	assert_int_equal(fr.f[2].data[2], 3);
	assert_int_equal(fr.f[3].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(tgt_le64(fr.f[3].data), (uint64_t)t + 0x10000u);
	assert_int_equal(fr.f[4].data[2], 4);
	tgt_frames_free(&fr);
}

/* A tick that finds the gap already 65536 or more marks the next record for
 * a TIME_SYNC for good: after a silence of more than 2^32 ticks, whose
 * 32-bit difference looks small, the record still gets its TIME_SYNC, and
 * the ticks kept the 64-bit time exact. */
static void test_long_silence(void **state)
{
	struct tgt_frames fr;
	uint64_t t = 0xFFFF0000u;
	int k;

	(void)state;
	tgt_setup(ring, sizeof ring, SONDE_MODE_OVERWRITE, (uint32_t)t);
	sonde_mark(1);
	for (k = 0; k < 4; k++) {       /* the promise is broken, but nothing is recorded */
		t += 0x40000000u;
		tgt_now = (uint32_t)t;
		sonde_tick();
	}
	t += 100u;                      /* 2^32 + 100 after mark 1 */
	tgt_now = (uint32_t)t;
	sonde_mark(2);
	drain(&fr);
	assert_int_equal(fr.n, 3);
	assert_int_equal(fr.f[1].id, SONDE_REC_TIME_SYNC);
	assert_int_equal(tgt_le64(fr.f[1].data), t);
	assert_int_equal(fr.f[2].id, SONDE_REC_MARK);
	tgt_frames_free(&fr);
}

/* What rules 1-4 demand for each record, and the decoder of docs/protocol.md
 * section 5 run over the stream, compared record by record. */
static struct truth {
	uint64_t t;     /* true time of the record */
	int sync;       /* a TIME_SYNC must come right before it */
} tr[20000];
static size_t nrec, nchecked;
static uint64_t dec_T;
static int dec_after_sync;

static void check(const uint8_t *w, size_t n)
{
	struct tgt_frames fr;
	size_t i;

	tgt_parse(w, n, &fr);
	assert_int_equal(fr.bad, 0);
	assert_int_equal(fr.partial, 0);
	for (i = 0; i < fr.n; i++) {
		const struct tgt_frame *f = &fr.f[i];

		assert_true(f->id != SONDE_REC_DROPS); /* drained often enough: nothing lost */
		if (f->id == SONDE_REC_TIME_SYNC) {
			dec_T = tgt_le64(f->data);
			dec_after_sync = 1;
			continue;
		}
		assert_true(nchecked < nrec);
		assert_int_equal(dec_after_sync, tr[nchecked].sync);
		dec_T += (tgt_le16(f->data) - dec_T) & 0xFFFFu;
		assert_true(dec_T == tr[nchecked].t);
		dec_after_sync = 0;
		nchecked++;
	}
	tgt_frames_free(&fr);
}

/* Random records (marks, ISR entries, user records with escapes, builder
 * records) at random gaps -- mostly small, often just under or over 65536,
 * sometimes up to a million -- with ticks at random intervals of at most
 * H, across the 32-bit wrap, drained in random chunks.  Every record's
 * time, rebuilt from the stream as a host does, is the true one, and a
 * TIME_SYNC precedes exactly the records that need one. */
static void test_random_decode(void **state)
{
	uint64_t t = 0xFFF00000u, last_tick = t, last_rec = t;
	size_t n = 0, seq_next = 3; /* setup's EMPTY, TARGET_INFO, TIME_SYNC took 0..2 */

	(void)state;
	srand(4242);
	tgt_setup(ring, sizeof ring, SONDE_MODE_DROP_NEW, (uint32_t)t);
	nrec = nchecked = 0;
	dec_T = t; /* setup's TIME_SYNC */
	dec_after_sync = 0;
	while (nrec < sizeof tr / sizeof tr[0]) {
		int r = rand() % 100;
		uint64_t gap;

		if (r < 80)
			gap = (uint64_t)(rand() % 300);
		else if (r < 92)
			gap = (uint64_t)(0x10000 - 2 * H + rand() % (4 * H));
		else if (r < 99)
			gap = (uint64_t)(rand() % 40000);
		else
			gap = (uint64_t)(rand() % 1000000);
		while (t + gap > last_tick + H) { /* ticks at most H apart, time never back */
			last_tick += 1u + (uint64_t)(rand() % H);
			if (last_tick < t)
				last_tick = t;
			if (last_tick > t + gap)
				last_tick = t + gap;
			tgt_now = (uint32_t)last_tick;
			sonde_tick();
		}
		t += gap;
		tgt_now = (uint32_t)t;
		/* a TIME_SYNC, if any, and the record take one SEQ each */
		tr[nrec].t = t;
		tr[nrec].sync = t - last_rec >= 0x10000u || (uint8_t)seq_next == 0u;
		seq_next += tr[nrec].sync ? 2u : 1u;
		last_rec = t;
		nrec++;
		switch (rand() % 4) {
		case 0:
			sonde_mark((uint8_t)rand());
			break;
		case 1:
			sonde_isr_enter((uint8_t)rand());
			break;
		case 2:
			sonde_user_u32x2(0x40, (uint32_t)rand() | 0x7E000000u, (uint32_t)rand());
			break;
		default:
			assert_true(sonde_user_begin(0x41));
			sonde_arg_u32((uint32_t)rand());
			sonde_arg_str("}~");
			sonde_user_end();
			break;
		}
		if (rand() % 4 == 0)
			n += sonde_drain(wire + n, (size_t)(rand() % 600));
		if (n > sizeof wire - 8192) {
			n += tgt_drain_all(wire + n, sizeof wire - n);
			check(wire, n);
			n = 0;
		}
	}
	n += tgt_drain_all(wire + n, sizeof wire - n);
	check(wire, n);
	assert_int_equal(nchecked, nrec);
	assert_true(t > 0x100000000ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_long_silence),
		cmocka_unit_test(test_random_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
