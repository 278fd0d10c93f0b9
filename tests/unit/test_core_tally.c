/*
 * test_core_tally.c -- records tallied instead of delivered (struct
 * sonde_tally): `sonde stats`'s listeners (the figures, the timing
 * analyses, the RTOS figures) print exactly the same whether the Sonde
 * decoder builds every event or tallies the records whose events they do
 * without.  The streams have what moves the rules: losses and held frames
 * released with exact and estimated times, a TIME_SYNC that goes back, a
 * second core, a target reset, user records renamed between delivered and
 * tallied ones, malformed LOGs, RTOS records, and tallied records at the
 * very end; in both protocol versions, decoded whole and in small chunks.
 * And the name a record type is shown with is its latest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/an.h"
#include "analysis/rtos_stats.h"
#include "analysis/stats.h"
#include "core/pipe.h"
#include "test_sonde_helpers.h"

extern const struct sonde_decoder_ops sonde_decoder_sonde;

/* ---- the stream ------------------------------------------------------------ */

static uint64_t rng = 12345;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

/* TARGET_INFO of the stream's version without a reset, on another core. */
static void info(struct tstream *s, uint8_t core, int reset)
{
	struct tbuf p = { 0 };
	tb_u8(&p, s->version);
	tb_u8(&p, reset ? SONDE_INFO_F_RESET : 0);
	tb_u8(&p, 4);
	tb_u8(&p, SONDE_MODE_OVERWRITE);
	tb_u8(&p, core);
	tb_u8(&p, s->version == 1 ? SONDE_TS_BYTES_V1 : SONDE_INFO_TS_VARIABLE);
	tb_u32(&p, 1000000);
	tb_u32(&p, 4096);
	tb_u32(&p, 7);
	ts_frame_b(s, SONDE_REC_TARGET_INFO, &p);
	tb_free(&p);
}

static void dicts(struct tstream *s)
{
	ts_dict(s, SONDE_DICT_ISR, 3, "UART");
	ts_dict(s, SONDE_DICT_TASK, 1, "main");
	ts_dict(s, SONDE_DICT_TASK, 2, "net");
	ts_dict(s, SONDE_DICT_FUNCTION, 2, "parse");
	ts_dict(s, SONDE_DICT_FORMAT, 1, "v=%d");
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "pkt(a,b)");
	ts_dict(s, SONDE_DICT_MARKER, 7, "frame");
	ts_dict(s, SONDE_DICT_COUNTER, 9, "queue");
}

/* n records of every simple kind, a user record now and then, a few RTOS
 * records; times move by 1..40 ticks from *t. */
static void burst(struct tstream *s, uint64_t *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		*t += 1 + rnd(40);
		uint8_t f[16] = { 0 };
		switch (rnd(14)) {
		case 0:
			f[0] = (uint8_t)(2 + rnd(3));
			ts_timed(s, SONDE_REC_ISR_ENTER, *t, f, 1);
			break;
		case 1:
			ts_timed(s, SONDE_REC_ISR_EXIT, *t, NULL, 0);
			break;
		case 2:
			f[0] = (uint8_t)(1 + rnd(3));
			ts_timed(s, SONDE_REC_TASK_IN, *t, f, 1);
			break;
		case 3:
			f[0] = (uint8_t)(1 + rnd(3));
			f[1] = (uint8_t)rnd(4);
			ts_timed(s, SONDE_REC_TASK_OUT, *t, f, 2);
			break;
		case 4:
			f[0] = (uint8_t)(1 + rnd(3));
			ts_timed(s, SONDE_REC_TASK_READY, *t, f, 1);
			break;
		case 5:
			ts_timed(s, SONDE_REC_IDLE, *t, NULL, 0);
			break;
		case 6:
			f[0] = (uint8_t)rnd(4);
			ts_timed(s, SONDE_REC_FUNC_ENTER, *t, f, 2);
			break;
		case 7:
			ts_timed(s, SONDE_REC_FUNC_EXIT, *t, NULL, 0);
			break;
		case 8:
			f[0] = 7;
			ts_timed(s, (uint8_t)(SONDE_REC_MARK + rnd(3)), *t, f, 1);
			break;
		case 9:
			f[0] = 9;
			f[1] = (uint8_t)rnd(200);
			ts_timed(s, SONDE_REC_COUNTER, *t, f, 2);
			break;
		case 10: { /* a LOG, one in four malformed (an argument cut short) */
			uint8_t log[] = { SONDE_LVL_INFO, 1, 0, SONDE_ARG_I32, 0xFB, 0xFF, 0xFF, 0xFF };
			ts_timed(s, SONDE_REC_LOG, *t, log, rnd(4) ? sizeof(log) : sizeof(log) - 2);
			break;
		}
		case 11: {
			uint8_t user[] = { SONDE_ARG_U8, 1, SONDE_ARG_U16, 2, 0 };
			ts_timed(s, (uint8_t)(0x40 + rnd(2)), *t, user, sizeof(user));
			break;
		}
		case 12: /* TASK_SWITCH: out task, its state, what it waits on, in task */
			f[0] = (uint8_t)(1 + rnd(3));
			f[1] = (uint8_t)rnd(4);
			f[2] = 5;
			f[3] = (uint8_t)(1 + rnd(3));
			ts_timed(s, SONDE_REC_TASK_SWITCH, *t, f, 4);
			break;
		default: /* OBJ_OP on a queue */
			f[0] = 5;
			f[1] = (uint8_t)(1 + rnd(3));
			ts_timed(s, SONDE_REC_OBJ_OP, *t, f, 2);
			break;
		}
	}
}

static void build(struct tstream *s, unsigned version)
{
	uint64_t t = 0x1000;
	ts_init_v(s, 0, version);
	ts_session(s, 1000000, 4);
	dicts(s);
	ts_sync(s, t, TS_UNKNOWN);
	burst(s, &t, 300);
	/* a loss: frames held, then anchored by the next TIME_SYNC (exact) */
	ts_skip_seq(s, 3);
	burst(s, &t, 40);
	t += 5;
	ts_sync(s, t, 5);
	/* the user record renamed after delivered (held) ones, then tallied */
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "pkt2(x)");
	burst(s, &t, 300);
	/* two losses without a TIME_SYNC between them: estimated times */
	ts_skip_seq(s, 2);
	burst(s, &t, 30);
	ts_skip_seq(s, 1);
	burst(s, &t, 30);
	t += 9;
	ts_sync(s, t, 9);
	burst(s, &t, 200);
	/* time goes back: events delivered until it passes the latest again,
	 * the user record renamed between tallied and delivered ones */
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "pkt2b");
	uint64_t high = t;
	t -= 2000;
	ts_sync(s, t, 3);
	burst(s, &t, 300);
	/* a target reset: time from 0 again, every event delivered until a
	 * TIME_SYNC jumps past the latest time before it */
	info(s, 0, 1);
	dicts(s);
	t = 0x500;
	ts_sync(s, t, TS_UNKNOWN);
	burst(s, &t, 100);
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "pkt3");
	t = high + 20000; /* past every time before (bursts move by < 40 ticks a record) */
	ts_sync(s, t, TS_UNKNOWN);
	burst(s, &t, 300);
	/* another core, whose times are earlier than core 0's, and back */
	info(s, 1, 0);
	uint64_t core0 = t;
	t -= 3000;
	ts_sync(s, t, 3);
	burst(s, &t, 50);
	info(s, 0, 0);
	burst(s, &t, 50);
	t = core0 + 2000;
	ts_sync(s, t, 3);
	burst(s, &t, 200);
	/* ends with records that are tallied */
	for (int i = 0; i < 20; i++) {
		uint8_t f[2] = { 2, 0 };
		t += 3;
		ts_timed(s, SONDE_REC_FUNC_ENTER, t, f, 2);
	}
}

/* ---- decoding -------------------------------------------------------------- */

static void an_l_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	an_event(ctx, ev, s);
}

static void an_l_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	(void)s;
	an_diag(ctx, d);
}

static uint64_t events_seen;

static void all_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	(void)ctx;
	(void)ev;
	(void)s;
	events_seen++;
}

/* The stream through the listeners of `sonde stats` (plus one that wants
 * every event, with all_events), fed chunk bytes at a time; their report
 * in *text; returns the records the decoder tallied. */
static uint64_t stats_of(const struct tbuf *w, int all_events, size_t chunk, char **text)
{
	size_t len;
	FILE *out = open_memstream(text, &len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = NULL;
	struct sonde_stats st;
	struct rtos_stats rs;
	struct an_config cfg = { .window = 1000, .top = 5 };
	struct an_model *an = an_new(&cfg);
	sonde_stats_init(&st);
	rtos_stats_init(&rs);
	struct sonde_listener ls = sonde_stats_listener(&st), lr = rtos_stats_listener(&rs);
	struct sonde_listener la = { .event = an_l_event, .diag = an_l_diag, .ctx = an, .no_text = 1,
				     .tally_kinds = an_tally_kinds() };
	struct sonde_listener lall = { .event = all_event, .no_text = 1 };
	assert_int_equal(sonde_pipe_add_listener(&p, &ls), 0);
	assert_int_equal(sonde_pipe_add_listener(&p, &la), 0);
	assert_int_equal(sonde_pipe_add_listener(&p, &lr), 0);
	if (all_events)
		assert_int_equal(sonde_pipe_add_listener(&p, &lall), 0);
	assert_int_equal(sonde_pipe_begin(&p, "t", "sonde", NULL, 0), 0);
	for (size_t i = 0; i < w->n; i += chunk)
		sonde_pipe_feed(&p, w->p + i, w->n - i < chunk ? w->n - i : chunk);
	sonde_pipe_end(&p);
	assert_int_equal(sonde_stats_print(&st, &p, out), 0);
	assert_int_equal(an_write_text(an, out), 0);
	assert_int_equal(rtos_stats_print(&rs, p.session.ts_freq, out), 0);
	uint64_t tallied = p.session.tally ? p.session.tally->n : 0;
	sonde_pipe_destroy(&p);
	sonde_stats_free(&st);
	rtos_stats_free(&rs);
	an_free(an);
	fclose(out);
	return tallied;
}

static void compare(unsigned version)
{
	struct tstream *s = malloc(sizeof(*s));
	assert_non_null(s);
	build(s, version);
	static const size_t chunks[] = { 1 << 16, 7, 1 };
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		char *all, *tallied;
		events_seen = 0;
		assert_int_equal(stats_of(&s->wire, 1, chunks[c], &all), 0);
		uint64_t records_all = events_seen;
		uint64_t n = stats_of(&s->wire, 0, chunks[c], &tallied);
		/* a good share of the records was tallied, and the same was printed */
		assert_true(n > records_all / 4);
		assert_string_equal(tallied, all);
		/* the figures are those of a real stream */
		assert_non_null(strstr(all, "\nestimated times        "));
		assert_null(strstr(all, "\nestimated times        0\n"));
		assert_non_null(strstr(all, "\n  pkt3 "));
		assert_non_null(strstr(all, "RTOS tasks"));
		assert_non_null(strstr(all, " timestamps went backwards"));
		free(all);
		free(tallied);
	}
	tb_free(&s->wire);
	free(s);
}

static void test_same_figures_v2(void **state)
{
	(void)state;
	compare(2);
}

static void test_same_figures_v1(void **state)
{
	(void)state;
	compare(1);
}

/* A user record renamed by a DICT: the statistics name it by its latest
 * name, from events (whose name the decoder keeps in the same storage) and
 * from the tally alike. */
static void test_latest_name(void **state)
{
	(void)state;
	struct tstream *s = malloc(sizeof(*s));
	assert_non_null(s);
	ts_init(s, 0);
	ts_session(s, 1000000, 4);
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "first(x)");
	ts_sync(s, 100, TS_UNKNOWN);
	const uint8_t user[] = { SONDE_ARG_U8, 7 };
	ts_timed(s, 0x40, 105, user, sizeof(user));
	ts_dict(s, SONDE_DICT_RECORD, 0x40, "second");
	ts_timed(s, 0x40, 110, user, sizeof(user));
	for (int all = 0; all < 2; all++) {
		char *text;
		stats_of(&s->wire, all, 1 << 16, &text);
		assert_non_null(strstr(text, "\n  second               2          (id 0x40)\n"));
		free(text);
	}
	tb_free(&s->wire);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_figures_v2),
		cmocka_unit_test(test_same_figures_v1),
		cmocka_unit_test(test_latest_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
