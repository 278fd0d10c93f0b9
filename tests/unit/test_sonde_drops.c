/*
 * test_sonde_drops.c -- loss accounting (docs/protocol.md §2): the frames
 * of the sequence gaps before a DROPS record are split exactly into target
 * losses (that record's increase of "overwritten") and link losses (the
 * rest); refused records are counted apart; totals wrap mod 2^32; a target
 * reset restarts the totals; gaps no DROPS explains are reported as such.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_sonde_helpers.h"

static uint64_t now = 1000;

static void mark(struct tstream *s)
{
	uint8_t o = 1;
	ts_timed(s, SONDE_REC_MARK, ++now, &o, 1);
}

/* The loss report with these totals: the TIME_SYNC the target writes
 * right before it (a tick after the last record), then DROPS. */
static void drops(struct tstream *s, uint32_t over, uint32_t ref)
{
	struct tbuf p = { 0 };
	ts_sync(s, ++now, 1);
	tb_u16(&p, now);
	tb_u32(&p, over);
	tb_u32(&p, ref);
	ts_frame_b(s, SONDE_REC_DROPS, &p);
	tb_free(&p);
}

static void start(struct tstream *s)
{
	ts_init(s, 0);
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

static void check_args(const struct tev *e, uint64_t over, uint64_t ref, uint64_t link)
{
	assert_int_equal(e->nargs, 3);
	assert_string_equal(e->args[0].name, "overwritten");
	assert_int_equal(e->args[0].u, over);
	assert_string_equal(e->args[1].name, "refused");
	assert_int_equal(e->args[1].u, ref);
	assert_string_equal(e->args[2].name, "link_lost");
	assert_int_equal(e->args[2].u, link);
}

static void test_split_target_and_link(void **state)
{
	(void)state;
	struct tstream s;
	start(&s);
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
	(void)state;
	struct tstream s;
	start(&s);
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

static void test_totals_wrap(void **state)
{
	(void)state;
	struct tstream s;
	start(&s);
	drops(&s, 0xFFFFFFFEu, 0xFFFFFFF0u);
	ts_skip_seq(&s, 3);
	mark(&s);
	drops(&s, 1, 0x10);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_RANDOM, &r);
	check_args(nth_drops(&r, 0), 0xFFFFFFFEu, 0xFFFFFFF0u, 0);
	check_args(nth_drops(&r, 1), 3, 0x20, 0);
	assert_int_equal(r.session.drops_overwritten, 0xFFFFFFFEull + 3);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Joined mid-way: the first DROPS only gives the baseline; the gaps before
 * it cannot be split.  Gaps at the end with no DROPS after them neither. */
static void test_unexplained(void **state)
{
	(void)state;
	struct tstream s;
	ts_init(&s, 40);
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
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	const struct tev *d = nth_drops(&r, 0);
	assert_int_equal(d->nargs, 1);
	assert_string_equal(d->args[0].name, "unexplained");
	assert_int_equal(d->args[0].u, 6);
	check_args(nth_drops(&r, 1), 1, 0, 1);
	assert_int_equal(r.session.drops_overwritten, 1);
	assert_int_equal(r.session.lost_link, 1);
	assert_int_equal(r.session.lost_unexplained, 6 + 9);
	trec_free(&r);
	tb_free(&s.wire);
}

/* A reset restarts the totals from zero; a gap before it stays unexplained. */
static void test_reset(void **state)
{
	(void)state;
	struct tstream s;
	start(&s);
	drops(&s, 50, 5);
	ts_skip_seq(&s, 3);
	mark(&s);
	ts_session(&s, 1000, 4); /* restart: EMPTY resets the sequence silently */
	ts_sync(&s, ++now, TS_UNKNOWN);
	mark(&s);
	ts_skip_seq(&s, 2);
	mark(&s);
	drops(&s, 2, 1);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	check_args(nth_drops(&r, 0), 50, 5, 0);
	check_args(nth_drops(&r, 1), 2, 1, 0);
	assert_int_equal(r.session.drops_overwritten, 52);
	assert_int_equal(r.session.drops_refused, 6);
	assert_int_equal(r.session.lost_unexplained, 3);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 2);
	trec_free(&r);
	tb_free(&s.wire);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_target_and_link),
		cmocka_unit_test(test_more_overwritten_than_gaps),
		cmocka_unit_test(test_totals_wrap),
		cmocka_unit_test(test_unexplained),
		cmocka_unit_test(test_reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
