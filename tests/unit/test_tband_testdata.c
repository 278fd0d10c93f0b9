/*
 * test_tband_testdata.c -- the tband decoder on the real traces in
 * testdata/tband/: decoded through the tband-jsonl sink, the output must equal
 * the reference decoder's dump (X.expected.jsonl) line by line, whatever the
 * chunk sizes the input is fed in, with no diagnostics.  Also checks the
 * mode handling on real data and a few event-model facts of each trace.
 *
 * The three traces contain nothing on which Sonde deliberately differs from
 * the reference dump (notes/tband.md §12 bugs concern the target and the
 * converter's semantic model, not the dump), so the comparison is exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline.h"

extern const struct sonde_decoder_ops sonde_decoder_tband;
extern const struct sonde_sink_ops sonde_sink_tband_jsonl;

/* ---- helpers --------------------------------------------------------------- */

static const char *testdata_dir(void)
{
	const char *env = getenv("SONDE_TESTDATA");

	return env && *env ? env : SONDE_TESTDATA;
}

static uint8_t *read_file(const char *name, size_t *n)
{
	char path[512];
	FILE *f;
	uint8_t *buf;
	long len;

	snprintf(path, sizeof(path), "%s/tband/%s", testdata_dir(), name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = 0;
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* One decode run: events go to the tband-jsonl sink (into memory) and are
 * tallied by kind; diagnostics are counted by code. */
struct run {
	const struct sonde_sink_ops *sink_ops;
	void *sink;
	FILE *mem;
	char *text;
	size_t text_len;
	struct sonde_session session;
	unsigned kinds[SONDE_EV_KIND_COUNT];
	unsigned diags[SONDE_D_COUNT];
	unsigned ndiag;
	char first_diag[256];
	uint64_t first_ts;          /* ns of the first timed event */
	uint64_t last_ts;           /* ns of the last timed event */
	int64_t isr_depth_max;
	int64_t isr_depth_end;      /* depth after the last ISR exit */
	unsigned native_null;       /* events without native (inferred) */
	unsigned ts_estimated;
};

static void run_event(void *ctx, const struct sonde_event *ev)
{
	struct run *r = ctx;

	r->sink_ops->event(r->sink, ev, &r->session);
	assert_true(ev->kind < SONDE_EV_KIND_COUNT);
	r->kinds[ev->kind]++;
	if (!ev->native)
		r->native_null++;
	if (ev->ts_flags & SONDE_TS_VALID) {
		if (!r->first_ts)
			r->first_ts = ev->ts;
		r->last_ts = ev->ts;
		if (ev->ts_flags & SONDE_TS_ESTIMATED)
			r->ts_estimated++;
	}
	if (ev->kind == SONDE_EV_ISR_ENTER && ev->value > r->isr_depth_max)
		r->isr_depth_max = ev->value;
	if (ev->kind == SONDE_EV_ISR_EXIT)
		r->isr_depth_end = ev->value - 1;
}

static void run_diag(void *ctx, const struct sonde_diag *d)
{
	struct run *r = ctx;

	assert_true(d->code < SONDE_D_COUNT);
	r->diags[d->code]++;
	if (!r->ndiag++)
		snprintf(r->first_diag, sizeof(r->first_diag), "@%llu frame %llu: %s",
			 (unsigned long long)d->offset, (unsigned long long)d->frame, d->msg);
}

/* Decode buf with the given options, in chunks: chunk > 0 fixed size,
 * chunk == 0 pseudo-random sizes 1..97. */
static void run_decode(struct run *r, const uint8_t *buf, size_t n,
		       const char *const *opts, size_t chunk)
{
	struct sonde_out out = { run_event, run_diag, r, &r->session };
	uint32_t seed = 12345;
	void *dec;

	memset(r, 0, sizeof(*r));
	r->session.buffer_mode = -1;
	r->sink_ops = &sonde_sink_tband_jsonl;
	r->mem = open_memstream(&r->text, &r->text_len);
	assert_non_null(r->mem);
	r->sink = r->sink_ops->create(r->mem, NULL);
	assert_non_null(r->sink);
	dec = sonde_decoder_tband.create(&out, opts);
	assert_non_null(dec);
	for (size_t at = 0; at < n;) {
		size_t k = chunk;

		if (!k) {
			seed = seed * 1103515245u + 12345u;
			k = 1 + (seed >> 16) % 97;
		}
		if (k > n - at)
			k = n - at;
		sonde_decoder_tband.feed(dec, buf + at, k);
		at += k;
	}
	sonde_decoder_tband.finish(dec);
	sonde_decoder_tband.destroy(dec);
	assert_int_equal(r->sink_ops->finish(r->sink, &r->session), 0);
	r->sink_ops->destroy(r->sink);
	fclose(r->mem);
}

static void run_free(struct run *r)
{
	free(r->text);
	r->text = NULL;
}

/* Compare text with the expected lines, line by line; 'skip_prefix' drops
 * expected lines starting with it (NULL: none). */
static void compare_lines(const char *text, const char *expected, const char *skip_prefix,
			  const char *what)
{
	const char *a = text, *b = expected;
	unsigned line = 0, eline = 0;

	for (;;) {
		const char *ea, *eb;

		while (*b && skip_prefix && strncmp(b, skip_prefix, strlen(skip_prefix)) == 0) {
			const char *nl = strchr(b, '\n');

			b = nl ? nl + 1 : b + strlen(b);
			eline++;
		}
		if (!*a || !*b)
			break;
		ea = strchr(a, '\n');
		eb = strchr(b, '\n');
		assert_non_null(ea);
		if (!eb)
			eb = b + strlen(b);
		line++;
		eline++;
		if ((size_t)(ea - a) != (size_t)(eb - b) || memcmp(a, b, (size_t)(ea - a)))
			fail_msg("%s: output line %u differs from expected line %u:\n"
				 "  got:      %.*s\n  expected: %.*s", what, line, eline,
				 (int)(ea - a), a, (int)(eb - b), b);
		a = ea + 1;
		b = *eb ? eb + 1 : eb;
	}
	if (*a)
		fail_msg("%s: extra output after %u lines: %.80s", what, line, a);
	if (*b)
		fail_msg("%s: output ends after %u lines, expected more: %.80s", what, line, b);
}

static unsigned count_prefix(const char *text, const char *prefix)
{
	unsigned n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			n++;
	return n;
}

static unsigned count_substr(const char *text, const char *s)
{
	unsigned n = 0;

	for (const char *p = strstr(text, s); p; p = strstr(p + 1, s))
		n++;
	return n;
}

static const char *const opt_bm[] = { "tband.mode=baremetal", NULL };
static const char *const opt_rtos[] = { "tband.mode=freertos", NULL };

/* Decode 'name' in 'opts' whole, 1 byte at a time and in random chunks: each
 * must give the expected lines and no diagnostic.  Returns the expected
 * text (to be freed). */
static char *check_file(const char *name, const char *const *opts, struct run *whole)
{
	char exp_name[256];
	size_t n, en;
	uint8_t *bin, *exp;
	static const size_t chunks[] = { 1, 0, 4096 };

	snprintf(exp_name, sizeof(exp_name), "%.*s.expected.jsonl",
		 (int)(strlen(name) - 4), name);
	bin = read_file(name, &n);
	exp = read_file(exp_name, &en);

	run_decode(whole, bin, n, opts, n);
	if (whole->ndiag)
		fail_msg("%s: %u diagnostics, first %s", name, whole->ndiag, whole->first_diag);
	compare_lines(whole->text, (const char *)exp, NULL, name);
	/* one line per frame */
	assert_int_equal(whole->session.frames, count_prefix((const char *)exp, "{"));

	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct run r;

		run_decode(&r, bin, n, opts, chunks[i]);
		assert_int_equal(r.ndiag, 0);
		assert_int_equal(r.text_len, whole->text_len);
		assert_memory_equal(r.text, whole->text, whole->text_len);
		assert_memory_equal(r.kinds, whole->kinds, sizeof(r.kinds));
		run_free(&r);
	}
	free(bin);
	return (char *)exp;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_simtarget_matches_reference(void **state)
{
	struct run r;
	char *exp;

	(void)state;
	exp = check_file("repo_baremetal_integration_simtarget.bin", opt_bm, &r);
	/* 19 frames: 9 metadata, 10 timed events */
	assert_int_equal(r.kinds[SONDE_EV_DICT], 8);
	assert_int_equal(r.kinds[SONDE_EV_INFO], 1);
	assert_int_equal(r.kinds[SONDE_EV_ISR_ENTER], 2);
	assert_int_equal(r.kinds[SONDE_EV_ISR_EXIT], 2);
	assert_int_equal(r.kinds[SONDE_EV_MARK], 2);
	assert_int_equal(r.kinds[SONDE_EV_MARK_BEGIN], 2);
	assert_int_equal(r.kinds[SONDE_EV_MARK_END], 2);
	assert_int_equal(r.isr_depth_max, 2);
	assert_int_equal(r.isr_depth_end, 0);
	/* resolution 1 ns: ns = ticks */
	assert_int_equal(r.first_ts, 10);
	assert_int_equal(r.last_ts, 50);
	assert_int_equal(r.ts_estimated, 0);
	assert_int_equal(r.session.ts_freq, 1000000000u);
	assert_string_equal(r.session.proto, "tband");
	run_free(&r);
	free(exp);
}

static void test_bm_snapshot_rich_matches_reference(void **state)
{
	struct run r;
	char *exp;

	(void)state;
	/* varlen ids up to 200000, s64 edge values, 253/254/255-byte COBS
	 * payloads, a 300-byte string, UTF-8, timestamps up to 2^50 */
	exp = check_file("bm_snapshot_rich.bin", opt_bm, &r);
	assert_int_equal(r.kinds[SONDE_EV_ISR_ENTER], count_substr(exp, "\"IsrEnter\""));
	assert_int_equal(r.kinds[SONDE_EV_ISR_ENTER], r.kinds[SONDE_EV_ISR_EXIT]);
	assert_int_equal(r.isr_depth_end, 0);
	assert_int_equal(r.isr_depth_max, 3); /* SysTick in USART2, EXTI in SysTick */
	assert_int_equal(r.kinds[SONDE_EV_DROPS], count_substr(exp, "\"DroppedEvtCnt\""));
	assert_int_equal(r.kinds[SONDE_EV_COUNTER], count_substr(exp, "\"Valmarker\""));
	assert_int_equal(r.native_null, 0);
	/* 10 ns ticks: the first event is at tick 12345, the last at 2^50+99 */
	assert_int_equal(r.first_ts, 123450);
	assert_int_equal(r.last_ts, 11258999068427230ull);
	run_free(&r);
	free(exp);
}

static void test_posix_freertos_matches_reference(void **state)
{
	struct run r;
	char *exp;
	unsigned switches;

	(void)state;
	exp = check_file("repo_examples_POSIX_FreeRTOS_log.bin", opt_rtos, &r);
	/* a task_switched_in is a switch to a task, or to the idle task */
	switches = count_substr(exp, "\"TaskSwitchedIn\"");
	assert_int_equal(r.kinds[SONDE_EV_TASK_IN] + r.kinds[SONDE_EV_IDLE], switches);
	assert_true(r.kinds[SONDE_EV_IDLE] > 0);
	/* every switch away from a task (not from idle) adds an inferred
	 * TASK_OUT, the only events without a native line */
	assert_int_equal(r.kinds[SONDE_EV_TASK_OUT], r.native_null);
	assert_true(r.kinds[SONDE_EV_TASK_OUT] > 0 && r.kinds[SONDE_EV_TASK_OUT] < switches);
	assert_int_equal(r.kinds[SONDE_EV_OBJ_OP], count_substr(exp, "\"QueueSend\"") +
			 count_substr(exp, "\"QueueReceive\"") + count_substr(exp, "\"TaskResumed\""));
	assert_int_equal(r.kinds[SONDE_EV_QUEUE], count_substr(exp, "\"QueueCurLength\""));
	assert_int_equal(r.kinds[SONDE_EV_TASK_READY], count_substr(exp, "\"TaskToRdyState\""));
	assert_int_equal(r.kinds[SONDE_EV_TASK_CREATE], count_substr(exp, "\"TaskCreated\""));
	/* value markers, global and task-local; priority changes */
	assert_int_equal(r.kinds[SONDE_EV_COUNTER], count_substr(exp, "Valmarker\":"));
	assert_int_equal(r.kinds[SONDE_EV_TASK_PRIO], count_substr(exp, "\"TaskPrioritySet\"") +
			 count_substr(exp, "\"TaskPriorityInherit\"") +
			 count_substr(exp, "\"TaskPriorityDisinherit\""));
	run_free(&r);
	free(exp);
}

/* FreeRTOS mode decodes the base group too: bare-metal traces decode the
 * same in the default mode (freertos). */
static void test_default_mode_decodes_baremetal_traces(void **state)
{
	static const char *const files[] = {
		"repo_baremetal_integration_simtarget.bin", "bm_snapshot_rich.bin",
	};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct run a, b;
		size_t n;
		uint8_t *bin = read_file(files[i], &n);

		run_decode(&a, bin, n, opt_bm, n);
		run_decode(&b, bin, n, NULL, n);
		assert_int_equal(b.ndiag, 0);
		assert_int_equal(a.text_len, b.text_len);
		assert_memory_equal(a.text, b.text, a.text_len);
		run_free(&a);
		run_free(&b);
		free(bin);
	}
}

/* A FreeRTOS trace decoded as bare-metal: every FreeRTOS frame is an unknown
 * id (as in the reference), reported, and the base events are still decoded. */
static void test_freertos_trace_in_baremetal_mode(void **state)
{
	struct run r;
	size_t n, en;
	uint8_t *bin = read_file("repo_examples_POSIX_FreeRTOS_log.bin", &n);
	uint8_t *exp = read_file("repo_examples_POSIX_FreeRTOS_log.expected.jsonl", &en);

	(void)state;
	run_decode(&r, bin, n, opt_bm, 1);
	assert_int_equal(r.diags[SONDE_D_UNKNOWN_RECORD], count_prefix((char *)exp, "{\"FreeRTOS"));
	assert_int_equal(r.ndiag, r.diags[SONDE_D_UNKNOWN_RECORD]);
	compare_lines(r.text, (const char *)exp, "{\"FreeRTOS", "POSIX log as bare-metal");
	run_free(&r);
	free(bin);
	free(exp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simtarget_matches_reference),
		cmocka_unit_test(test_bm_snapshot_rich_matches_reference),
		cmocka_unit_test(test_posix_freertos_matches_reference),
		cmocka_unit_test(test_default_mode_decodes_baremetal_traces),
		cmocka_unit_test(test_freertos_trace_in_baremetal_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
