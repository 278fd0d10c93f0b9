/*
 * test_sonde_time.c -- time reconstruction (docs/protocol.md §5, §10):
 * deltas (version 2) and compact 16-bit times (version 1) extended to 64
 * bits across 16- and 32-bit wraps; after a loss, records held until the
 * next TIME_SYNC and then timed backwards exactly; estimates (flagged) only
 * where the protocol allows no better: at the end of the input, between
 * two losses, and beyond the hold cap.  Every test runs in both versions.
 *
 * A small model of the target (below) writes records and the TIME_SYNCs
 * the target would write (since_prev included), and remembers every
 * record's true time; the link then loses frames, and every decoded time
 * is compared with the truth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "proto/sonde/sonde_hold.h"
#include "test_sonde_helpers.h"

#define MAXFR 4096

static const unsigned V1 = 1, V2 = 2;
#define VERSION (*(const unsigned *)*state)
/* Rule 2: the gap from which the target writes a TIME_SYNC. */
#define RULE2(v) ((v) == 1 ? 0x10000ull : (uint64_t)SONDE_TS_LIMIT4)

/* ---- the target model ----------------------------------------------------- */

struct model {
	struct tstream s;
	uint64_t T;          /* true time */
	uint64_t last_timed; /* of the previous timed record */
	int have_prev;       /* a timed record was written since the start */
	int force;           /* the next timed record gets a TIME_SYNC (as after a loss: rule 3) */
	int timed[MAXFR];    /* frame i is a timed record (or a TIME_SYNC) */
	uint64_t t[MAXFR];   /* and its true time */
};

static void m_init(struct model *m, uint64_t t0, unsigned version)
{
	memset(m, 0, sizeof(*m));
	ts_init_v(&m->s, 0, version);
	ts_session(&m->s, 1000000, 4);
	m->T = t0;
}

static void m_mark(struct model *m, size_t idx)
{
	assert_true(idx < MAXFR);
	m->timed[idx] = 1;
	m->t[idx] = m->T;
}

/* A timed record dt ticks after the previous one, preceded by a TIME_SYNC
 * when the target would write one (rules 1, 2 and 4, and m->force), with
 * the since_prev the target would give it. */
static size_t m_rec(struct model *m, uint64_t dt, uint8_t obj)
{
	m->T += dt;
	if (m->force || !m->have_prev || m->T - m->last_timed >= RULE2(m->s.version) || m->s.seq == 0) {
		uint64_t since = m->T - m->last_timed;
		m_mark(m, m->s.nframes);
		ts_sync(&m->s, m->T, m->have_prev && since < TS_UNKNOWN ? (uint32_t)since : TS_UNKNOWN);
	}
	m->force = 0;
	m->have_prev = 1;
	m->last_timed = m->T;
	size_t idx = ts_timed(&m->s, SONDE_REC_MARK, m->T, &obj, 1);
	m_mark(m, idx);
	return idx;
}

/* Copy the model's stream without the frames for which drop() says so;
 * map[new frame index] = model frame index. */
static struct tbuf m_wire(const struct model *m, int (*drop)(size_t i, void *ctx), void *ctx, size_t *map,
			  size_t *nmap)
{
	struct tbuf w = { 0 };
	size_t k = 0;
	for (size_t i = 0; i < m->s.nframes; i++) {
		if (drop && drop(i, ctx))
			continue;
		tb_put(&w, m->s.wire.p + m->s.starts[i], m->s.lens[i]);
		map[k++] = i;
	}
	*nmap = k;
	return w;
}

/* Every event at its true time; returns the number of estimated ones
 * (their times are checked by the caller if it knows better). */
static size_t check_times(const struct model *m, const struct trec *r, const size_t *map, int allow_est)
{
	size_t est = 0;
	for (size_t i = 0; i < r->nev; i++) {
		const struct sonde_event *e = &r->ev[i].ev;
		size_t orig = map[e->frame];
		if (!m->timed[orig])
			continue;
		assert_true(e->ts_flags & SONDE_TS_VALID);
		if (e->ts_flags & SONDE_TS_ESTIMATED) {
			assert_true(allow_est);
			est++;
			continue;
		}
		if (e->ts != m->t[orig])
			fail_msg("frame %zu (model %zu): ts %llu, true %llu", (size_t)e->frame, orig,
				 (unsigned long long)e->ts, (unsigned long long)m->t[orig]);
	}
	return est;
}

static int drop_list(size_t i, void *ctx)
{
	for (const size_t *p = ctx; *p; p++)
		if (*p == i)
			return 1;
	return 0;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_wrap_16_bits(void **state)
{
	struct model m;
	m_init(&m, 0xFFF0, VERSION);
	const uint64_t steps[] = { 0, 0x10, 0x8000, 0x7FFF, 0xFFFF, 1, 0xFFFE, 0x10000, 0x12345, 0xFFFF, 0xFFFF, 3 };
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		m_rec(&m, steps[i], (uint8_t)i);
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, NULL, NULL, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(check_times(&m, &r, map, 0), 0);
	assert_int_equal(r.ev[r.nev - 1].ev.ts, m.T);
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

static void test_wrap_32_bits(void **state)
{
	struct model m;
	m_init(&m, 0xFFFFFFF0ull, VERSION);
	for (int i = 0; i < 40; i++)
		m_rec(&m, 0x7FFF + (uint64_t)i * 0x80, (uint8_t)i);
	m_rec(&m, 0xFFFFFFFFull, 1); /* a long silence: the target re-syncs */
	for (int i = 0; i < 10; i++)
		m_rec(&m, 0xFFFF, (uint8_t)i);
	assert_true(m.T > 0x100000000ull * 2);
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, NULL, NULL, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_RANDOM, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(check_times(&m, &r, map, 0), 0);
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* A gap, records the decoder must hold (with a dictionary entry between
 * them), then a TIME_SYNC: all exact, in stream order, the gap's diagnostic
 * first. */
static void test_loss_then_sync_is_exact(void **state)
{
	struct model m;
	m_init(&m, 1000, VERSION);
	for (int i = 0; i < 5; i++)
		m_rec(&m, 100, 1);
	size_t lost = m_rec(&m, 0x100, 2);
	m_rec(&m, 0x200, 3);
	m_rec(&m, 0xFFFF, 3); /* held: large steps, still exact */
	m_rec(&m, 0xFFFE, 4);
	ts_dict(&m.s, SONDE_DICT_MARKER, 5, "five");
	m_rec(&m, 0x8000, 5);
	m_rec(&m, 0x1000, 6);
	m.force = 1;           /* the next record gets a TIME_SYNC (rule 3 or 4) */
	m_rec(&m, 0xFFF0, 7);
	size_t drops[] = { lost, 0 };
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
	for (int how = T_WHOLE; how <= T_RANDOM; how++) {
		struct trec r;
		t_decode(w.p, w.n, (enum tchunks)how, &r);
		assert_int_equal(r.ndg, 1);
		assert_int_equal(r.dg[0].code, SONDE_D_SEQ_GAP);
		assert_int_equal(r.dg[0].count, 1);
		assert_int_equal(check_times(&m, &r, map, 0), 0);
		/* order: events of frames before the gap, the gap, then the rest */
		uint64_t prev = 0;
		for (size_t i = 0; i < r.norder; i++) {
			uint64_t f = r.order[i].is_diag ? r.dg[r.order[i].idx].frame : r.ev[r.order[i].idx].ev.frame;
			assert_true(f >= prev);
			prev = f;
		}
		const struct tev *five = NULL;
		for (size_t i = 0; i < r.nev; i++)
			if (r.ev[i].ev.kind == SONDE_EV_MARK && r.ev[i].ev.obj == 5)
				five = &r.ev[i];
		assert_non_null(five);
		assert_string_equal(five->obj_name, "five");
		trec_free(&r);
	}
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* Nothing anchors the records after the last loss: they come out at the end
 * with estimated times (forwards from the last known time), and one
 * diagnostic says how many. */
static void test_loss_at_end_is_estimated(void **state)
{
	struct model m;
	m_init(&m, 5000, VERSION);
	for (int i = 0; i < 4; i++)
		m_rec(&m, 10, 1);
	size_t lost = m_rec(&m, 10, 2);
	m_rec(&m, 20, 3);
	m_rec(&m, 30, 4);
	m_rec(&m, 40, 5);
	size_t drops[] = { lost, 0 };
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_BYTES, &r);
	assert_int_equal(check_times(&m, &r, map, 1), 3);
	assert_int_equal(r.ndg, 2);
	assert_int_equal(r.dg[0].code, SONDE_D_SEQ_GAP);
	assert_int_equal(r.dg[1].code, SONDE_D_TIME);
	assert_int_equal(r.dg[1].count, 3);
	assert_int_equal(r.dg[1].offset, m.s.starts[lost + 1] - m.s.lens[lost]);
	const struct tev *last = &r.ev[r.nev - 1];
	assert_int_equal(last->ev.ts_flags, SONDE_TS_VALID | SONDE_TS_ESTIMATED);
	/* v1: the estimate happens to be right here (the compact time gives the
	 * absolute time modulo 65536); v2: the lost record's delta (10 ticks)
	 * is missing from the sum of deltas */
	assert_int_equal(last->ev.ts, VERSION == 1 ? m.T : m.T - 10);
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* Two losses before the TIME_SYNC: after the second, exact; between them,
 * estimated (the chain to the TIME_SYNC is broken). */
static void test_two_losses(void **state)
{
	struct model m;
	m_init(&m, 77, VERSION);
	m_rec(&m, 1, 1);
	size_t l1 = m_rec(&m, 1, 2);
	size_t a1 = m_rec(&m, 2, 3);
	size_t a2 = m_rec(&m, 3, 4);
	size_t l2 = m_rec(&m, 4, 5);
	size_t b1 = m_rec(&m, 5, 6);
	m.force = 1; /* a TIME_SYNC, as after a target loss */
	m_rec(&m, 6, 7);
	size_t drops[] = { l1, l2, 0 };
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_WHOLE, &r);
	assert_int_equal(check_times(&m, &r, map, 1), 2);
	for (size_t i = 0; i < r.nev; i++) {
		size_t orig = map[r.ev[i].ev.frame];
		int est = (r.ev[i].ev.ts_flags & SONDE_TS_ESTIMATED) != 0;
		assert_int_equal(est, orig == a1 || orig == a2);
		if (orig == b1)
			assert_int_equal(r.ev[i].ev.ts, m.t[b1]);
	}
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 2);
	assert_int_equal(t_count_diags(&r, SONDE_D_TIME), 1);
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* A short loss, then a long silence: the TIME_SYNC after it (rule 2) is
 * 65536 ticks (version 2: 2^28) or more after the held records, so their
 * own fields alone cannot place them; its since_prev puts the newest
 * exactly, and the rest follow from it.  (Version 1 before since_prev
 * could only estimate them here.) */
static void test_loss_then_rule2_sync(void **state)
{
	for (uint64_t silence = RULE2(VERSION); silence <= 0x123456789ull; silence = silence * 3 + 1) {
		struct model m;
		m_init(&m, 3000, VERSION);
		m_rec(&m, 10, 1);
		size_t lost = m_rec(&m, 10, 2);
		m_rec(&m, 10, 3);
		m_rec(&m, 0x8000, 4);
		m_rec(&m, silence, 5); /* TIME_SYNC by rule 2, then the record */
		m_rec(&m, 10, 6);
		size_t drops[] = { lost, 0 };
		size_t map[MAXFR], n;
		struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
		struct trec r;
		t_decode(w.p, w.n, T_BYTES, &r);
		assert_int_equal(check_times(&m, &r, map, 0), 0);
		assert_int_equal(r.ndg, 1);
		assert_int_equal(r.dg[0].code, SONDE_D_SEQ_GAP);
		trec_free(&r);
		tb_free(&w);
		tb_free(&m.s.wire);
	}
}

/* A loss that spans a rule-2 TIME_SYNC: the records after it are still
 * exact (since_prev does not care how long the loss was). */
static void test_long_loss(void **state)
{
	struct model m;
	m_init(&m, 3000, VERSION);
	m_rec(&m, 10, 1);
	size_t l1 = m_rec(&m, 2 * RULE2(VERSION), 2); /* a TIME_SYNC and its record, both lost */
	size_t h1 = m_rec(&m, 10, 3);
	m.force = 1;                         /* rule 3 or 4 */
	m_rec(&m, 10, 4);
	size_t drops[] = { l1 - 1, l1, 0 };
	assert_true(m.timed[l1 - 1]);
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_WHOLE, &r);
	assert_int_equal(check_times(&m, &r, map, 0), 0);
	assert_int_equal(t_count_diags(&r, SONDE_D_TIME), 0);
	int seen = 0;
	for (size_t i = 0; i < r.nev; i++)
		seen += map[r.ev[i].ev.frame] == h1;
	assert_int_equal(seen, 1);
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* Joined mid-way, nothing lost after that, and a long silence before the
 * first TIME_SYNC: every held record exact, whatever the silence (from
 * the rule-2 limit to just under 2^32).  There is no earlier time to go by
 * here at all. */
static void test_join_then_silence(void **state)
{
	const uint64_t v1[] = { 0x10000, 0x10001, 0x1FFFF, 0x7654321, 0xFFFFFFFEull };
	const uint64_t v2[] = { 0x10000000, 0x10000001, 0x1FFFFFFF, 0x76543210, 0xFFFFFFFEull };
	const uint64_t *silences = VERSION == 1 ? v1 : v2;
	for (size_t k = 0; k < sizeof(v1) / sizeof(v1[0]); k++) {
		struct model m;
		m_init(&m, 0xABCD0000ull + k, VERSION);
		for (int i = 0; i < 8; i++)
			m_rec(&m, 0x3000 + (uint64_t)i * 0x1111, (uint8_t)i);
		size_t join = m.s.nframes;
		for (int i = 0; i < 5; i++)
			m_rec(&m, 0xF000 + (uint64_t)i, (uint8_t)i); /* no TIME_SYNC among them */
		size_t sync = m.s.nframes;
		m_rec(&m, silences[k], 9); /* rule 2 */
		m_rec(&m, 3, 10);
		assert_int_equal(sync, join + 5);           /* no TIME_SYNC among the five */
		assert_int_equal(m.s.nframes, sync + 3);    /* TIME_SYNC, record, record */
		const struct tbuf *w = &m.s.wire;
		size_t cut = m.s.starts[join] - 3; /* mid-way through the frame before */
		struct trec r;
		t_decode_opts(w->p + cut, w->n - cut, T_RANDOM, 12345, &r, t_opts_for(VERSION));
		assert_int_equal(r.ndg, 1);
		assert_int_equal(r.dg[0].code, SONDE_D_GARBAGE);
		assert_int_equal(r.nev, 5 + 3);
		for (size_t i = 0; i < r.nev; i++) {
			const struct sonde_event *e = &r.ev[i].ev;
			size_t orig = join + (size_t)e->frame - 1; /* frame 0: the cut one */
			assert_int_equal(e->offset + cut, m.s.starts[orig]);
			assert_int_equal(e->ts_flags, SONDE_TS_VALID);
			assert_int_equal(e->ts, m.t[orig]);
		}
		trec_free(&r);
		tb_free(&m.s.wire);
	}
}

/* When the TIME_SYNC does not know since_prev -- 2^32 - 1 ticks or more
 * since the last record, or none since the target's sonde_start() -- the
 * held records get estimates, and a diagnostic counts them. */
static void test_since_prev_unknown(void **state)
{
	for (int restart = 0; restart <= 1; restart++) {
		struct model m;
		m_init(&m, 500, VERSION);
		m_rec(&m, 10, 1);
		size_t lost = m_rec(&m, 10, 2);
		m_rec(&m, 10, 3);
		m_rec(&m, 20, 4);
		if (restart) /* sonde_stop(), sonde_start(): rule 1 */
			m.have_prev = 0;
		size_t sync = m.s.nframes;
		m_rec(&m, restart ? 5 : 0xFFFFFFFFull, 5);
		size_t drops[] = { lost, 0 };
		size_t map[MAXFR], n;
		struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
		struct trec r;
		t_decode(w.p, w.n, T_WHOLE, &r);
		assert_int_equal(check_times(&m, &r, map, 1), 2);
		assert_int_equal(r.ndg, 2);
		assert_int_equal(r.dg[1].code, SONDE_D_TIME);
		assert_int_equal(r.dg[1].count, 2);
		assert_non_null(strstr(r.dg[1].msg, "since_prev unknown"));
		const struct tev *ts = t_find(&r, SONDE_EV_TIME_SYNC, 0);
		while (ts && map[ts->ev.frame] != sync)
			ts = t_find(&r, SONDE_EV_TIME_SYNC, (size_t)(ts - r.ev) + 1);
		assert_non_null(ts);
		assert_int_equal(ts->nargs, 1);
		assert_int_equal(ts->args[0].type, SONDE_A_STR);
		trec_free(&r);
		tb_free(&w);
		tb_free(&m.s.wire);
	}
}

/* Frames lost between the newest held record and the TIME_SYNC: since_prev
 * counts from a record the decoder never got, so the held ones are
 * estimates, and one diagnostic says why. */
static void test_loss_right_before_sync(void **state)
{
	struct model m;
	m_init(&m, 900, VERSION);
	m_rec(&m, 10, 1);
	size_t l1 = m_rec(&m, 10, 2);
	m_rec(&m, 10, 3);
	m_rec(&m, 10, 4);
	size_t l2 = m_rec(&m, 0xF000, 5);
	m.force = 1;
	m_rec(&m, 0xF000, 6);
	size_t drops[] = { l1, l2, 0 };
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, drop_list, drops, map, &n);
	struct trec r;
	t_decode(w.p, w.n, T_BYTES, &r);
	assert_int_equal(check_times(&m, &r, map, 1), 2);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 2);
	assert_int_equal(t_count_diags(&r, SONDE_D_TIME), 1);
	for (size_t i = 0; i < r.ndg; i++)
		if (r.dg[i].code == SONDE_D_TIME)
			assert_non_null(strstr(r.dg[i].msg, "lost between them and the next TIME_SYNC"));
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* A TIME_SYNC of the wrong length (8 bytes: version 1 before since_prev)
 * is reported as malformed, at its frame, and is a break in time like a
 * lost frame: what follows is held and timed by the next good TIME_SYNC,
 * never forwards across it (it may stand for a silence of any length). */
static void test_short_sync(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_session(&s, 1000, 4);
	ts_sync(&s, 1000, TS_UNKNOWN);
	const uint8_t o[] = { 1 };
	ts_timed(&s, SONDE_REC_MARK, 1000, o, 1);
	struct tbuf p = { 0 };
	tb_u64(&p, 0x50000);
	size_t bad = ts_frame_b(&s, SONDE_REC_TIME_SYNC, &p);
	tb_free(&p);
	s.last_t = 0x50000; /* the target's time chain goes on from it */
	size_t a = ts_timed(&s, SONDE_REC_MARK, 0x50000, o, 1);
	size_t b = ts_timed(&s, SONDE_REC_MARK, 0x50100, o, 1);
	ts_sync(&s, 0x50200, 0x100);
	ts_timed(&s, SONDE_REC_MARK, 0x50200, o, 1);
	for (int how = T_WHOLE; how <= T_RANDOM; how++) {
		struct trec r;
		t_decode(s.wire.p, s.wire.n, (enum tchunks)how, &r);
		assert_int_equal(r.ndg, 1);
		assert_int_equal(r.dg[0].code, SONDE_D_MALFORMED);
		assert_int_equal(r.dg[0].frame, bad);
		assert_int_equal(r.dg[0].offset, s.starts[bad] + 2 + 8);
		assert_string_equal(r.dg[0].msg, "TIME_SYNC: 8 data bytes, expected 12");
		size_t k = 0;
		for (size_t i = 0; i < r.nev; i++) {
			const struct sonde_event *e = &r.ev[i].ev;
			if (e->frame == a || e->frame == b) {
				assert_int_equal(e->ts_flags, SONDE_TS_VALID);
				assert_int_equal(e->ts, e->frame == a ? 0x50000 : 0x50100);
				k++;
			}
		}
		assert_int_equal(k, 2);
		trec_free(&r);
	}
	tb_free(&s.wire);
}

/* A bad frame is a loss too; the stream joined mid-way as well. */
static void test_bad_frame_and_join(void **state)
{
	struct model m;
	m_init(&m, 1, VERSION);
	for (int i = 0; i < 6; i++)
		m_rec(&m, 0x4000, (uint8_t)i);
	size_t hit = m_rec(&m, 0x4000, 9);
	for (int i = 0; i < 6; i++)
		m_rec(&m, 0x4000, (uint8_t)i);
	m.force = 1;
	m_rec(&m, 1, 1);
	m_rec(&m, 1, 1);
	size_t map[MAXFR], n;
	struct tbuf w = m_wire(&m, NULL, NULL, map, &n);
	w.p[m.s.starts[hit] + 2] ^= 0x01; /* a bit flip (v1: the compact time, v2: the marker) */
	/* join in the middle of frame 8 */
	size_t cut = m.s.starts[8] + 2;
	struct trec r;
	t_decode_opts(w.p + cut, w.n - cut, T_RANDOM, 12345, &r, t_opts_for(VERSION));
	/* no sequence gap: no good frame before the bad one to compare with */
	assert_int_equal(r.ndg, 2);
	assert_int_equal(r.dg[0].code, SONDE_D_GARBAGE);
	assert_int_equal(r.dg[0].offset, 0);
	assert_int_equal(r.dg[0].frame, 0);
	assert_int_equal(r.dg[0].count, m.s.lens[8] - 2);
	assert_int_equal(r.dg[1].code, SONDE_D_BAD_CHECKSUM);
	assert_int_equal(r.dg[1].offset, m.s.starts[hit] - cut);
	assert_int_equal(r.dg[1].frame, 1);
	assert_int_equal(r.dg[1].count, m.s.lens[hit]);
	assert_int_equal(r.nev, m.s.nframes - hit - 1);
	/* events carry offsets in the cut input: remap through the cut */
	for (size_t i = 0; i < r.nev; i++) {
		const struct sonde_event *e = &r.ev[i].ev;
		size_t orig = 0;
		while (m.s.starts[orig] != e->offset + cut)
			orig++;
		assert_true(m.timed[orig]);
		assert_int_equal(e->ts_flags, SONDE_TS_VALID);
		assert_int_equal(e->ts, m.t[orig]);
	}
	trec_free(&r);
	tb_free(&w);
	tb_free(&m.s.wire);
}

/* More records than the hold cap before the TIME_SYNC: the oldest are
 * released early with estimated times, the last SHOLD_MAX_ITEMS exact. */
static void test_hold_cap(void **state)
{
	struct tstream s;
	ts_init_v(&s, 0, VERSION);
	ts_session(&s, 1000, 4);
	ts_sync(&s, 100, TS_UNKNOWN);
	ts_skip_seq(&s, 3); /* a gap */
	const size_t held = SHOLD_MAX_ITEMS + 476;
	uint64_t t = 100;
	const uint8_t o[] = { 1 };
	for (size_t i = 0; i < held; i++)
		ts_timed(&s, SONDE_REC_MARK, t += 40, o, 1);
	ts_sync(&s, t += 7, 7);
	ts_timed(&s, SONDE_REC_MARK, t, o, 1);
	struct trec r;
	t_decode(s.wire.p, s.wire.n, T_RANDOM, &r);
	/* the cap is hit at every 1025th record: the older half goes each time */
	assert_int_equal(r.ndg, 2);
	assert_int_equal(r.dg[0].code, SONDE_D_SEQ_GAP);
	assert_int_equal(r.dg[0].count, 3);
	assert_int_equal(r.dg[1].code, SONDE_D_TIME);
	assert_int_equal(r.dg[1].count, SHOLD_MAX_ITEMS / 2);
	assert_int_equal(r.nev, 3 + held + 2);
	uint64_t tt = 100;
	for (size_t i = 0; i < held; i++) {
		const struct sonde_event *e = &r.ev[3 + i].ev;
		tt += 40;
		if (i < SHOLD_MAX_ITEMS / 2) {
			assert_int_equal(e->ts_flags, SONDE_TS_VALID | SONDE_TS_ESTIMATED);
		} else {
			assert_int_equal(e->ts_flags, SONDE_TS_VALID);
			assert_int_equal(e->ts, tt);
		}
	}
	assert_int_equal(r.ev[r.nev - 1].ev.ts, t);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Many random records (long silences too, so TIME_SYNCs of every rule) and
 * random link losses: every time that is not flagged as an estimate is the
 * true one, and every estimate is counted by a diagnostic. */
static uint64_t rng_state;

static int drop_random(size_t i, void *ctx)
{
	(void)ctx;
	return i > 2 && t_rand(&rng_state) % 150 == 0;
}

static void test_random_losses(void **state)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct model *m = malloc(sizeof(*m));
		m_init(m, seed * 0xFFFFFF00ull, VERSION);
		uint64_t rs = seed;
		while (m->s.nframes < MAXFR - 4) {
			uint32_t x = t_rand(&rs);
			uint64_t r2 = RULE2(VERSION);
			uint64_t dt = x % 7 == 0 ? r2 - 1 + x % (3 * r2) : x % 0x1000;
			m_rec(m, dt, (uint8_t)x);
		}
		rng_state = seed * 77;
		size_t *map = malloc(MAXFR * sizeof(*map)), n;
		struct tbuf w = m_wire(m, drop_random, NULL, map, &n);
		struct trec a, b;
		t_decode(w.p, w.n, T_WHOLE, &a);
		t_decode(w.p, w.n, T_BYTES, &b);
		assert_true(trec_equal(&a, &b));
		trec_free(&b);
		t_decode_opts(w.p, w.n, T_RANDOM, seed, &b, NULL);
		assert_true(trec_equal(&a, &b));
		size_t est = check_times(m, &a, map, 1);
		uint64_t announced = 0;
		for (size_t i = 0; i < a.ndg; i++)
			if (a.dg[i].code == SONDE_D_TIME)
				announced += a.dg[i].count;
		assert_int_equal(est, announced);
		assert_true(est < a.nev / 2);
		assert_true(t_count_diags(&a, SONDE_D_SEQ_GAP) > 10);
		trec_free(&a);
		trec_free(&b);
		tb_free(&w);
		free(map);
		tb_free(&m->s.wire);
		free(m);
	}
}

int main(void)
{
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&V2), cmocka_unit_test_prestate(t, (void *)&V1)
	const struct CMUnitTest tests[] = {
		BOTH(test_wrap_16_bits),
		BOTH(test_wrap_32_bits),
		BOTH(test_loss_then_sync_is_exact),
		BOTH(test_loss_at_end_is_estimated),
		BOTH(test_two_losses),
		BOTH(test_loss_then_rule2_sync),
		BOTH(test_long_loss),
		BOTH(test_join_then_silence),
		BOTH(test_since_prev_unknown),
		BOTH(test_loss_right_before_sync),
		BOTH(test_short_sync),
		BOTH(test_bad_frame_and_join),
		BOTH(test_hold_cap),
		BOTH(test_random_losses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
