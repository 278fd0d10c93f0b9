/*
 * test_sonde_drops.c -- loss accounting (docs/protocol.md §2, §4 DROPS):
 * the frames of the sequence gaps before a DROPS record are split exactly
 * into target losses (that record's increase of "overwritten") and link
 * losses (the rest); refused records are counted apart; gaps no DROPS
 * explains are reported as such.  Totals restart from 0 at a reset of the
 * target's counters (version 2: DROPS's reset count changes; version 1:
 * the totals go down -- never a 2^32 wrap, the bug of issue 7) and at a
 * target reset; in version 2 totals with the same reset count wrap mod
 * 2^32.  A live link that reconnects (the decoder's rejoin) counts the gap
 * at the reconnection as link loss and takes the next DROPS as a new
 * baseline, whatever the target did meanwhile.  Each in both versions
 * where both have it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_sonde_helpers.h"

static const unsigned V1 = 1, V2 = 2;
#define VERSION (*(const unsigned *)*state)

static uint64_t now = 1000;

static void mark(struct tstream *s)
{
	uint8_t o = 1;
	ts_timed(s, SONDE_REC_MARK, ++now, &o, 1);
}

/* The loss report with these totals (and, in version 2, reset count): the
 * TIME_SYNC the target writes right before it (a tick after the last
 * record), then DROPS. */
static void drops_r(struct tstream *s, uint32_t over, uint32_t ref, uint8_t resets)
{
	struct tbuf p = { 0 };
	ts_sync(s, ++now, 1);
	tb_u32(&p, over);
	tb_u32(&p, ref);
	if (s->version != 1)
		tb_u8(&p, resets);
	ts_timed_b(s, SONDE_REC_DROPS, now, &p);
	tb_free(&p);
}

static void drops(struct tstream *s, uint32_t over, uint32_t ref)
{
	drops_r(s, over, ref, 0);
}

static void start(struct tstream *s, unsigned version)
{
	ts_init_v(s, 0, version);
	ts_session(s, 1000, 4);
	ts_sync(s, now, TS_UNKNOWN);
	mark(s);
}

static const struct tev *nth_drops(const struct trec *r, size_t n)
{
	const struct tev *e = NULL;
	size_t from = 0;
	for (size_t i = 0; i <= n; i++) {
		e = t_find(r, SONDE_EV_DROPS, from);
		assert_non_null(e);
		from = (size_t)(e - r->ev) + 1;
	}
	return e;
}

/* A DROPS event's arguments: the losses since the previous report, and
 * whether the counters were reset in between. */
static void check_args_r(const struct tev *e, uint64_t over, uint64_t ref, uint64_t link, int reset)
{
	assert_int_equal(e->nargs, 3 + (reset != 0));
	assert_string_equal(e->args[0].name, "overwritten");
	assert_int_equal(e->args[0].u, over);
	assert_string_equal(e->args[1].name, "refused");
	assert_int_equal(e->args[1].u, ref);
	assert_string_equal(e->args[2].name, "link_lost");
	assert_int_equal(e->args[2].u, link);
	if (reset) {
		assert_string_equal(e->args[3].name, "counters_reset");
		assert_int_equal(e->args[3].type, SONDE_A_BOOL);
		assert_int_equal(e->args[3].u, 1);
	}
}

static void check_args(const struct tev *e, uint64_t over, uint64_t ref, uint64_t link)
{
	check_args_r(e, over, ref, link, 0);
}

static void check_baseline(const struct tev *e, uint64_t unexplained)
{
	assert_int_equal(e->nargs, 1);
	assert_string_equal(e->args[0].name, "unexplained");
	assert_int_equal(e->args[0].u, unexplained);
}

static void test_split_target_and_link(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_skip_seq(&s, 5);   /* 5 frames missing ... */
	mark(&s);
	drops(&s, 3, 2);      /* ... 3 overwritten on the target: 2 lost on the link */
	mark(&s);
	ts_skip_seq(&s, 4);   /* 4 missing, none explained */
	mark(&s);
	ts_skip_seq(&s, 1);   /* 1 more: the DROPS of these totals was lost too */
	mark(&s);
	drops(&s, 3 + 4, 2 + 7);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	const struct tev *d = nth_drops(&r, 0);
	assert_int_equal(d->ev.value, 3);
	assert_int_equal(d->ev.obj2, 2);
	check_args(d, 3, 2, 2);
	d = nth_drops(&r, 1);
	check_args(d, 4, 7, 1);
	assert_int_equal(r.session.drops_overwritten, 7);
	assert_int_equal(r.session.drops_refused, 9);
	assert_int_equal(r.session.lost_link, 3);
	assert_int_equal(r.session.lost_unexplained, 0);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 3);
	/* the MARK between the last two gaps is timed by estimate (two losses,
	 * no TIME_SYNC between them): one diagnostic says so */
	assert_int_equal(t_count_diags(&r, SONDE_D_TIME), 1);
	trec_free(&r);
	tb_free(&s.wire);
}

/* More overwritten than the gaps show: the sequence number wrapped (a gap of
 * 256 frames or more); the target's count stands, nothing is link loss. */
static void test_more_overwritten_than_gaps(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	ts_skip_seq(&s, 2);
	mark(&s);
	drops(&s, 258, 0);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	check_args(nth_drops(&r, 0), 258, 0, 0);
	assert_int_equal(r.session.drops_overwritten, 258);
	assert_int_equal(r.session.lost_link, 0);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Version 2: with the same reset count, totals are cumulative mod 2^32. */
static void test_totals_wrap(void **state)
{
	(void)state;
	struct tstream s;
	start(&s, 2);
	drops_r(&s, 0xFFFFFFFEu, 0xFFFFFFF0u, 0);
	ts_skip_seq(&s, 3);
	mark(&s);
	drops_r(&s, 1, 0x10, 0);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_RANDOM, &r);
	check_args(nth_drops(&r, 0), 0xFFFFFFFEu, 0xFFFFFFF0u, 0);
	check_args(nth_drops(&r, 1), 3, 0x20, 0);
	assert_int_equal(r.session.drops_overwritten, 0xFFFFFFFEull + 3);
	assert_int_equal(r.session.drops_refused, 0xFFFFFFF0ull + 0x20);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Issue 7: `sonde send stop`, `start`, `reset`.  The target refused 21265
 * records while stopped; START brings the report of them, RESET_CTRS the
 * one with the zeroed totals; then 3 records are overwritten and the
 * report says so.  Loss: 3 overwritten, 21265 refused -- the decoder used
 * to take the totals going back to 0 for a wrap and report 4294967296
 * refused.  Version 1 knows it by the totals going down, version 2 by the
 * reset count. */
static void test_counter_reset(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	mark(&s);
	drops_r(&s, 0, 21265, 0);     /* after START */
	mark(&s);
	const uint8_t st[] = { 0x42, SONDE_CMD_RESET_CTRS, SONDE_ST_OK };
	ts_timed(&s, SONDE_REC_CMD_STATUS, ++now, st, 3);
	drops_r(&s, 0, 0, 1);         /* after RESET_CTRS */
	mark(&s);
	ts_skip_seq(&s, 4);
	mark(&s);
	drops_r(&s, 3, 0, 1);         /* 3 of the 4 overwritten: 1 lost on the link */
	for (int how = T_WHOLE; how <= T_RANDOM; how++) {
		struct trec r;
		t_decode(s.wire.p, s.wire.n, (enum tchunks)how, &r);
		assert_int_equal(r.session.drops_refused, 21265); /* was 4294967296 */
		assert_int_equal(r.session.drops_overwritten, 3);
		assert_int_equal(r.session.lost_link, 1);
		assert_int_equal(r.session.lost_unexplained, 0);
		check_args(nth_drops(&r, 0), 0, 21265, 0);
		const struct tev *d = nth_drops(&r, 1);
		check_args_r(d, 0, 0, 0, 1);
		assert_int_equal(d->ev.value, 0);
		assert_int_equal(d->ev.obj2, 0);
		check_args(nth_drops(&r, 2), 3, 0, 1);
		trec_free(&r);
	}
	tb_free(&s.wire);
}

/* Version 2: the reset count decides, not the direction of the totals --
 * after a reset they may well be higher than before (more losses since the
 * reset than in all the time before), and the reset count wraps.  It is 0
 * after sonde_init(), so a first report with 254 follows resets too. */
static void test_reset_count_v2(void **state)
{
	(void)state;
	struct tstream s;
	start(&s, 2);
	drops_r(&s, 5, 5, 254);
	drops_r(&s, 7, 9, 255);   /* reset: 7 and 9 since, not 2 and 4 */
	drops_r(&s, 8, 9, 0);     /* reset again (255 -> 0): 8 and 9 since */
	drops_r(&s, 10, 9, 0);    /* no reset: 2 and 0 */
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	check_args_r(nth_drops(&r, 0), 5, 5, 0, 1);
	check_args_r(nth_drops(&r, 1), 7, 9, 0, 1);
	check_args_r(nth_drops(&r, 2), 8, 9, 0, 1);
	check_args(nth_drops(&r, 3), 2, 0, 0);
	assert_int_equal(r.session.drops_overwritten, 5 + 7 + 8 + 2);
	assert_int_equal(r.session.drops_refused, 5 + 9 + 9);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Joined mid-way: the first DROPS only gives the baseline; the gaps before
 * it cannot be split.  Gaps at the end with no DROPS after them neither. */
static void test_unexplained(void **state)
{
	struct tstream s;
	ts_init_v(&s, 40, VERSION);
	ts_sync(&s, now, TS_UNKNOWN);
	mark(&s);
	ts_skip_seq(&s, 6);
	mark(&s);
	drops(&s, 100, 1);
	ts_skip_seq(&s, 2);
	mark(&s);
	drops(&s, 101, 1);
	ts_skip_seq(&s, 9);
	mark(&s);
	ts_sync(&s, ++now, 1);
	struct trec r;
	t_decode_opts(s.wire.p, s.wire.n, T_BYTES, 1, &r, t_opts_for(VERSION));
	check_baseline(nth_drops(&r, 0), 6);
	check_args(nth_drops(&r, 1), 1, 0, 1);
	assert_int_equal(r.session.drops_overwritten, 1);
	assert_int_equal(r.session.lost_link, 1);
	assert_int_equal(r.session.lost_unexplained, 6 + 9);
	trec_free(&r);
	tb_free(&s.wire);
}

/* A target reset restarts the totals (and version 2's reset count) from
 * zero; a gap before it stays unexplained. */
static void test_reset(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	drops_r(&s, 50, 5, 3);
	ts_skip_seq(&s, 3);
	mark(&s);
	ts_session(&s, 1000, 4); /* restart: EMPTY resets the sequence silently */
	ts_sync(&s, ++now, TS_UNKNOWN);
	mark(&s);
	ts_skip_seq(&s, 2);
	mark(&s);
	drops(&s, 2, 1);         /* reset count 0 again after sonde_init() */
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	check_args_r(nth_drops(&r, 0), 50, 5, 0, VERSION != 1); /* v2: 3 counter resets since init */
	check_args(nth_drops(&r, 1), 2, 1, 0);
	assert_int_equal(r.session.drops_overwritten, 52);
	assert_int_equal(r.session.drops_refused, 6);
	assert_int_equal(r.session.lost_unexplained, 3);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 2);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Decode w[0..cut) and then, after a rejoin (a reconnected link), the
 * rest; rejoin = 0 decodes it as one input instead. */
static void decode_rejoin(const struct tbuf *w, size_t cut, int rejoin, unsigned version, struct trec *r)
{
	memset(r, 0, sizeof(*r));
	r->session.addr_size = 4;
	r->session.buffer_mode = -1;
	r->session.proto = "sonde";
	struct sonde_out out = { trec_event, trec_diag, r, &r->session };
	void *d = sonde_decoder_sonde.create(&out, t_opts_for(version));
	assert_non_null(d);
	sonde_decoder_sonde.feed(d, w->p, cut);
	if (rejoin)
		sonde_decoder_sonde.rejoin(d);
	sonde_decoder_sonde.feed(d, w->p + cut, w->n - cut);
	sonde_decoder_sonde.finish(d);
	sonde_decoder_sonde.destroy(d);
}

/* The link breaks in the middle of a frame and the host reconnects in the
 * middle of another: the same target goes on, 300 frames later (the two
 * cut ones included).  Before the break a gap of 1 that no DROPS explained
 * (unexplained); at the rejoin a gap of 300 mod 256 = 44 frames, lost on
 * the link; then a gap of 2 before the first DROPS after the rejoin, which
 * is the new baseline (2 unexplained), and a gap of 3 that the next DROPS
 * explains as 3 overwritten.  Nothing is counted twice, and the records
 * after the rejoin are exact from its TIME_SYNC on.  Decoded as one input
 * instead (no rejoin), the first DROPS after the break would have split
 * 47 frames of gaps against an increase of 50: other figures. */
static void test_rejoin_same_target(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	drops(&s, 5, 0);
	ts_skip_seq(&s, 1);
	mark(&s);                          /* held: no TIME_SYNC after the gap yet */
	mark(&s);
	size_t broken = s.nframes;
	mark(&s);                          /* cut in the middle: the link breaks */
	ts_skip_seq(&s, 300 - 2);
	now += 5000;
	size_t joined = s.nframes;
	mark(&s);                          /* the new connection starts inside it */
	ts_sync(&s, ++now, 1);
	size_t exact = s.nframes;
	mark(&s);
	ts_skip_seq(&s, 2);
	mark(&s);
	drops(&s, 5 + 50, 0);              /* the baseline */
	ts_skip_seq(&s, 3);
	mark(&s);
	drops(&s, 5 + 50 + 3, 0);
	struct tbuf w = { 0 };
	size_t cut = s.starts[broken] + 3;
	tb_put(&w, s.wire.p, cut);
	tb_put(&w, s.wire.p + s.starts[joined] + 2, s.wire.n - s.starts[joined] - 2);
	struct trec r;
	decode_rejoin(&w, cut, 1, VERSION, &r);
	check_args(nth_drops(&r, 0), 5, 0, 0);
	check_baseline(nth_drops(&r, 1), 2);
	check_args(nth_drops(&r, 2), 3, 0, 0);
	assert_int_equal(r.session.drops_overwritten, 5 + 3);
	assert_int_equal(r.session.drops_refused, 0);
	assert_int_equal(r.session.lost_link, 44);
	assert_int_equal(r.session.lost_unexplained, 1 + 2);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 4);
	assert_int_equal(t_count_diags(&r, SONDE_D_BAD_CHECKSUM), 1); /* the two halves */
	size_t n_exact = 0;
	for (size_t i = 0; i < r.nev; i++)
		if (r.ev[i].ev.frame >= exact - 1 - (joined - broken)) {
			assert_int_equal(r.ev[i].ev.ts_flags, SONDE_TS_VALID);
			n_exact++;
		}
	assert_int_equal(n_exact, 8); /* TIME_SYNC, MARK, MARK, TIME_SYNC, DROPS, MARK, TIME_SYNC, DROPS */
	trec_free(&r);
	/* the same bytes as one input: the gaps are split against the DROPS */
	decode_rejoin(&w, cut, 0, VERSION, &r);
	check_args(nth_drops(&r, 1), 50, 0, 0);
	assert_int_equal(r.session.lost_link, 0);
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

/* The target restarted while the link was down and the host rejoins its
 * new session after the TARGET_INFO: the new, smaller totals are the
 * baseline, not a loss of 4 billion records (version 2) or of the new
 * totals (version 1) -- the decoder cannot know what happened in between,
 * and says so (unexplained). */
static void test_rejoin_restarted_target(void **state)
{
	struct tstream s;
	start(&s, VERSION);
	drops(&s, 100, 7);
	size_t broken = s.nframes;
	s.seq = 0;                         /* sonde_init(): */
	ts_session(&s, 1000, 4);           /* lost with the link */
	ts_sync(&s, ++now, TS_UNKNOWN);
	mark(&s);
	size_t joined = s.nframes;
	mark(&s);
	drops(&s, 2, 1);
	mark(&s);
	drops(&s, 5, 1);
	struct tbuf w = { 0 };
	tb_put(&w, s.wire.p, s.starts[broken]);
	tb_put(&w, s.wire.p + s.starts[joined], s.wire.n - s.starts[joined]);
	struct trec r;
	decode_rejoin(&w, s.starts[broken], 1, VERSION, &r);
	check_args(nth_drops(&r, 0), 100, 7, 0);
	check_baseline(nth_drops(&r, 1), 0);
	check_args(nth_drops(&r, 2), 3, 0, 0);
	assert_int_equal(r.session.drops_overwritten, 103);
	assert_int_equal(r.session.drops_refused, 7);
	/* the gap between the sequence numbers of the two sessions (the new
	 * one's 5th frame, seq 4, after the old one's last) is taken as lost
	 * on the link, as at every rejoin */
	assert_int_equal(r.session.lost_link, (uint8_t)(4 - (uint8_t)(broken - 1) - 1));
	assert_int_equal(r.session.lost_unexplained, 0);
	trec_free(&r);
	tb_free(&w);
	tb_free(&s.wire);
}

int main(void)
{
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&V2), cmocka_unit_test_prestate(t, (void *)&V1)
	const struct CMUnitTest tests[] = {
		BOTH(test_split_target_and_link),
		BOTH(test_more_overwritten_than_gaps),
		cmocka_unit_test(test_totals_wrap),
		BOTH(test_counter_reset),
		cmocka_unit_test(test_reset_count_v2),
		BOTH(test_unexplained),
		BOTH(test_reset),
		BOTH(test_rejoin_same_target),
		BOTH(test_rejoin_restarted_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
