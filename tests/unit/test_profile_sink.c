/*
 * test_profile_sink.c -- the "profile" and "folded" sinks driven through
 * their sink operations with hand-built events; the output is checked byte
 * for byte.
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

extern const struct sonde_sink_ops sonde_sink_profile;
extern const struct sonde_sink_ops sonde_sink_folded;

struct ev_spec {
	enum sonde_ev_kind kind;
	uint64_t ts;
	uint64_t obj;
	const char *name;
	int64_t value;
};

/* A small RTOS-like trace: task 1 "ctrl" calls loop -> filter (twice) with a
 * SysTick in the middle of filter; task 2 (no name) runs filter; idle. */
static const struct ev_spec trace[] = {
	{ SONDE_EV_TASK_CREATE, 0, 1, "ctrl", 0 },
	{ SONDE_EV_TASK_IN, 0, 1, "ctrl", 0 },
	{ SONDE_EV_FUNC_ENTER, 10, 1, "loop", 0 },
	{ SONDE_EV_FUNC_ENTER, 20, 2, "filter", 0 },
	{ SONDE_EV_ISR_ENTER, 30, 15, "SysTick", 1 },
	{ SONDE_EV_FUNC_ENTER, 32, 3, "tick", 0 },
	{ SONDE_EV_FUNC_EXIT, 38, 0, NULL, 0 },
	{ SONDE_EV_ISR_EXIT, 40, 15, "SysTick", 1 },
	{ SONDE_EV_FUNC_EXIT, 60, 0, NULL, 0 },
	{ SONDE_EV_FUNC_ENTER, 70, 2, "filter", 0 },
	{ SONDE_EV_FUNC_EXIT, 80, 0, NULL, 0 },
	{ SONDE_EV_FUNC_EXIT, 90, 0, NULL, 0 },
	{ SONDE_EV_TASK_OUT, 90, 1, "ctrl", 1 },
	{ SONDE_EV_TASK_IN, 100, 2, NULL, 0 },
	{ SONDE_EV_FUNC_ENTER, 100, 2, "filter", 0 },
	{ SONDE_EV_FUNC_EXIT, 130, 0, NULL, 0 },
	{ SONDE_EV_IDLE, 140, 0, NULL, 0 },
	{ SONDE_EV_MARK, 200, 9, NULL, 0 },
};

/* Feed the trace into sink ops with options opts; return what it wrote. */
static char *run_sink(const struct sonde_sink_ops *ops, const char *const *opts,
		      const struct ev_spec *evs, size_t n, uint64_t freq)
{
	struct sonde_session s = { .proto = "test", .ts_freq = freq, .addr_size = 4, .buffer_mode = -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	void *sink;

	assert_non_null(f);
	sink = ops->create(f, opts);
	assert_non_null(sink);
	for (size_t i = 0; i < n; i++) {
		struct sonde_event e;

		memset(&e, 0, sizeof(e));
		e.kind = evs[i].kind;
		e.ts = evs[i].ts;
		e.ts_flags = SONDE_TS_VALID;
		e.obj = evs[i].obj;
		e.obj_name = evs[i].name;
		e.value = evs[i].value;
		e.frame = i;
		ops->event(sink, &e, &s);
	}
	assert_int_equal(ops->finish(sink, &s), 0);
	ops->destroy(sink);
	fclose(f);
	return buf;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Expected numbers, worked out by hand:
 *   ctrl runs 0..30, 40..90 = 80; SysTick 30..40 = 10 (tick 6 of it);
 *   No task 90..100 = 10; task#2 100..140 = 40; (idle) 140..200 = 60.
 *   loop 10..90 minus 10 in the ISR = 70 incl, self 10 + 10 + 10 = 30
 *   filter: 20..60 minus ISR = 30, 70..80 = 10, 100..130 = 30 -> 70
 *   tick 6.  Total 200.
 */
static void test_profile_table(void **state)
{
	static const char *const opts[] = { NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_profile, opts, trace, N(trace), 2000000);
	assert_string_equal(out,
		"Profile: 200 ticks traced = 100.000 us at 2000000 Hz\n"
		"\n"
		"Functions (3, sorted by self):\n"
		"function  calls  incl[t]  self[t]  self%  mean[t]  min[t]  max[t]  incl[us]  self[us]  mean[us]  min[us]  max[us]\n"
		"filter        3       70       70  35.00     23.3      10      30    35.000    35.000    11.667    5.000   15.000\n"
		"loop          1       70       30  15.00     70.0      70      70    35.000    15.000    35.000   35.000   35.000\n"
		"tick          1        6        6   3.00      6.0       6       6     3.000     3.000     3.000    3.000    3.000\n"
		"\n"
		"Tasks (CPU time outside ISRs):\n"
		"task     switches  run[t]   cpu%  run[us]\n"
		"ctrl            1      80  40.00   40.000\n"
		"(idle)          1      60  30.00   30.000\n"
		"task#2          1      40  20.00   20.000\n"
		"No task         0      10   5.00    5.000\n"
		"\n"
		"ISRs (CPU time without nested ISRs):\n"
		"isr      count  total[t]  cpu%  mean[t]  max[t]  total[us]  mean[us]  max[us]\n"
		"SysTick      1        10  5.00     10.0      10      5.000     5.000    5.000\n");
	free(out);
}

static void test_profile_sort_and_no_freq(void **state)
{
	static const char *const by_calls[] = { "profile.sort=calls", NULL };
	static const char *const by_name[] = { "profile.sort=name", NULL };
	static const char *const by_incl[] = { "profile.sort=incl", NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_profile, by_name, trace, N(trace), 0);
	assert_non_null(strstr(out,
		"Profile: 200 ticks traced (clock frequency unknown: times in ticks only)\n"
		"\n"
		"Functions (3, sorted by name):\n"
		"function  calls  incl[t]  self[t]  self%  mean[t]  min[t]  max[t]\n"
		"filter        3       70       70  35.00     23.3      10      30\n"
		"loop          1       70       30  15.00     70.0      70      70\n"
		"tick          1        6        6   3.00      6.0       6       6\n"
		"\n"
		"Tasks (CPU time outside ISRs):\n"
		"task     switches  run[t]   cpu%\n"
		"ctrl            1      80  40.00\n"));
	free(out);
	/* incl ties (70, 70) are broken by self time */
	out = run_sink(&sonde_sink_profile, by_incl, trace, N(trace), 0);
	assert_non_null(strstr(out, "max[t]\nfilter    "));
	assert_non_null(strstr(out, "\nloop      "));
	assert_true(strstr(out, "\nfilter ") < strstr(out, "\nloop "));
	assert_true(strstr(out, "\nloop ") < strstr(out, "\ntick "));
	free(out);
	out = run_sink(&sonde_sink_profile, by_calls, trace, N(trace), 0);
	assert_true(strstr(out, "\nfilter ") < strstr(out, "\nloop "));
	free(out);
}

static void test_profile_bad_options(void **state)
{
	static const char *const bad_sort[] = { "profile.sort=fast", NULL };
	static const char *const bad_elf[] = { "elf=/nonexistent/sonde-test.elf", NULL };

	(void)state;
	assert_null(sonde_sink_profile.create(stdout, bad_sort));
	assert_null(sonde_sink_profile.create(stdout, bad_elf));
	assert_null(sonde_sink_folded.create(stdout, bad_elf));
}

/* Broken traces: flags, their legend and the notes. */
static void test_profile_flags_and_notes(void **state)
{
	static const struct ev_spec broken[] = {
		{ SONDE_EV_FUNC_EXIT, 0, 0, NULL, 0 },
		{ SONDE_EV_FUNC_ENTER, 0, 1, "main_loop", 0 },
		{ SONDE_EV_ISR_ENTER, 10, 4, "UART", 1 },
		{ SONDE_EV_FUNC_ENTER, 12, 2, "uart_rx", 0 },
		{ SONDE_EV_ISR_EXIT, 20, 4, NULL, 1 },
		{ SONDE_EV_MARK, 50, 1, NULL, 0 },
	};
	static const char *const opts[] = { NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_profile, opts, broken, N(broken), 0);
	assert_string_equal(out,
		"Profile: 50 ticks traced (clock frequency unknown: times in ticks only)\n"
		"\n"
		"Functions (2, sorted by self):\n"
		"function   calls  incl[t]  self[t]  self%  mean[t]  min[t]  max[t]  flags\n"
		"main_loop      1       40       40  80.00     40.0      40      40  O\n"
		"uart_rx        1        8        8  16.00      8.0       8       8  M\n"
		"\n"
		"Tasks (CPU time outside ISRs):\n"
		"task     switches  run[t]   cpu%\n"
		"No task         0      40  80.00\n"
		"\n"
		"ISRs (CPU time without nested ISRs):\n"
		"isr   count  total[t]   cpu%  mean[t]  max[t]\n"
		"UART      1        10  20.00     10.0      10\n"
		"\n"
		"Flags:\n"
		"  O  still active at the end of the trace, closed at the last timestamp\n"
		"  M  an exit was missing: closed when the caller or the ISR ended\n"
		"\n"
		"Notes:\n"
		"  1 function exits without a matching enter, ignored\n"
		"  1 function calls without an exit, closed when their caller or ISR ended (flag M)\n"
		"  1 function calls still active at the end of the trace, closed at the last timestamp (flag O)\n");
	free(out);
}

/* Decoder diagnostics that mean lost frames are counted in a note (on
 * stderr for folded, whose output must stay parseable). */
static void test_diagnostics(void **state)
{
	static const char *const opts[] = { NULL };
	struct sonde_session s = { .proto = "test", .buffer_mode = -1 };
	struct sonde_diag gap = { SONDE_D_SEQ_GAP, 100, 7, 3, "3 frames missing" };
	struct sonde_diag unk = { SONDE_D_UNKNOWN_RECORD, 120, 9, 1, "record 0x3f" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	void *sink;

	(void)state;
	assert_non_null(f);
	sink = sonde_sink_profile.create(f, opts);
	assert_non_null(sink);
	assert_non_null(sonde_sink_profile.diag);
	sonde_sink_profile.diag(sink, &gap, &s);
	sonde_sink_profile.diag(sink, &unk, &s); /* harmless for a profile */
	assert_int_equal(sonde_sink_profile.finish(sink, &s), 0);
	sonde_sink_profile.destroy(sink);
	fclose(f);
	assert_non_null(strstr(buf, "\nNotes:\n"
		"  1 damaged or lost frames reported by the decoder: calls around them may be mis-attributed\n"));
	assert_null(strstr(buf, "  2 damaged"));
	free(buf);
}

static void test_profile_empty(void **state)
{
	static const char *const opts[] = { NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_profile, opts, trace, 0, 0);
	assert_string_equal(out,
		"Profile: 0 ticks traced (clock frequency unknown: times in ticks only)\n"
		"\n"
		"Functions (0, sorted by self):\n"
		"no function events\n"
		"\n"
		"Tasks (CPU time outside ISRs):\n"
		"none\n");
	free(out);
}

static void test_folded(void **state)
{
	static const char *const opts[] = { NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_folded, opts, trace, N(trace), 1000);
	/* sorted bytewise; self ticks per stack; the sum is the total, 200 */
	assert_string_equal(out,
		"(idle) 60\n"
		"No task 10\n"
		"ctrl 10\n"
		"ctrl;loop 30\n"
		"ctrl;loop;filter 40\n"
		"isr:SysTick 4\n"
		"isr:SysTick;tick 6\n"
		"task#2 10\n"
		"task#2;filter 30\n");
	free(out);
}

/* Frame names that would break the format are made safe; identical stacks
 * from distinct functions of one name are merged into one line. */
static void test_folded_escaping_and_merge(void **state)
{
	static const struct ev_spec evs[] = {
		{ SONDE_EV_TASK_IN, 0, 1, "a;b\nc", 0 },
		{ SONDE_EV_FUNC_ENTER, 0, 1, "f", 0 },
		{ SONDE_EV_FUNC_EXIT, 5, 0, NULL, 0 },
		{ SONDE_EV_FUNC_ENTER, 5, 7, NULL, 0 },
		{ SONDE_EV_FUNC_EXIT, 6, 0, NULL, 0 },
		{ SONDE_EV_FUNC_ENTER, 6, 8, "func#7", 0 }, /* prints like the id 7 */
		{ SONDE_EV_FUNC_EXIT, 9, 0, NULL, 0 },
	};
	static const char *const opts[] = { NULL };
	char *out;

	(void)state;
	out = run_sink(&sonde_sink_folded, opts, evs, N(evs), 0);
	assert_string_equal(out,
		"a:b?c;f 5\n"
		"a:b?c;func#7 4\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_table),
		cmocka_unit_test(test_profile_sort_and_no_freq),
		cmocka_unit_test(test_profile_bad_options),
		cmocka_unit_test(test_profile_flags_and_notes),
		cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_profile_empty),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_folded_escaping_and_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
