/*
 * test_analysis_windows.c -- the per-window CPU load of the timing analyses
 * (analysis/an.c, `sonde stats --window`): a task running through 1024
 * windows gets each window's time, and the window array grows by doubling.
 *
 * Found by the sinks fuzzer (tests/fuzz/regress/sinks/stats-window-1-tick):
 * the array used to be grown to twice its length for every new window, so
 * a trace of N windows copied O(N^2) bytes (a 35 ms trace with 1-tick
 * windows took 16 s under AddressSanitizer, whose realloc always copies)
 * and held twice the memory it needed.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/an.h"

static void put(struct an_model *m, const struct sonde_session *s, enum sonde_ev_kind kind, uint64_t ts,
		uint64_t obj)
{
	struct sonde_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.ts = ts;
	ev.ts_flags = SONDE_TS_VALID;
	ev.obj = obj;
	an_event(m, &ev, s);
}

static void test_windows_one_by_one(void **state)
{
	(void)state;
	enum { WIN = 10, N = 1024 };
	struct an_config cfg = { .window = WIN };
	struct sonde_session s;
	memset(&s, 0, sizeof(s));
	s.ts_freq = 1000;
	struct an_model *m = an_new(&cfg);
	assert_non_null(m);

	put(m, &s, SONDE_EV_TASK_IN, 0, 7);
	for (uint64_t k = 1; k <= N; k++)
		put(m, &s, SONDE_EV_MARK, k * WIN, 1); /* each event closes one more window */

	const struct an_ent *task = NULL;
	for (uint32_t i = 0; i < m->nent; i++)
		if (m->ent[i].kind == AN_TASK && m->ent[i].id == 7)
			task = &m->ent[i];
	assert_non_null(task);
	assert_int_equal(task->cpu, N * WIN);
	assert_int_equal(task->nwin, N);
	for (uint32_t w = 0; w < N; w++)
		assert_int_equal(task->win[w], WIN);
	/* grown by doubling: 1024 windows in room for 1024, not 2046 */
	assert_int_equal(task->capwin, N);
	assert_true(malloc_usable_size(task->win) < (N + 8) * sizeof(uint64_t));
	an_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows_one_by_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
