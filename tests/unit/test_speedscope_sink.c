/*
 * test_speedscope_sink.c -- the speedscope sink (sink_speedscope.c,
 * speedscope_writer.c): hand-built event sequences, the document read back
 * and each profile's frames added up as speedscope adds them.  What is
 * checked is what the e2e test cannot reach with real traces: an interrupt
 * inside a task's function, nested interrupts, a context switch inside an
 * interrupt (as an RTOS's PendSV does), idle left out or kept, a trace
 * without slices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "sink_run.h"
#include "sinks/speedscope_writer.h"

extern const struct sonde_sink_ops sonde_sink_speedscope;

#define MAXF 16
#define MAXP 8

/* A profile as speedscope reads it: frame totals (a frame counts once while
 * it is open), checked to open and close in order. */
struct prof {
	char name[64];
	uint64_t total[MAXF];
	unsigned opens[MAXF];
};

struct doc {
	char frames[MAXF][32];
	int nframes;
	struct prof p[MAXP];
	int np;
};

/* The writer's output has a fixed shape; read it with sscanf. */
static void read_doc(const char *path, struct doc *d)
{
	char *text = sink_run_read(path, NULL), *s;
	assert_non_null(text);
	memset(d, 0, sizeof(*d));
	s = strstr(text, "\"frames\":[");
	assert_non_null(s);
	s += 10;
	while (*s == '{' || *s == ',') {
		s += *s == ',' ? 1 : 0;
		assert_int_equal(sscanf(s, "{\"name\":\"%31[^\"]\"}", d->frames[d->nframes]), 1);
		d->nframes++;
		s = strchr(s, '}') + 1;
	}
	while ((s = strstr(s, "{\"type\":\"evented\",\"name\":\"")) != NULL) {
		struct prof *p = &d->p[d->np++];
		uint64_t open_at[MAXF], stack[MAXF], last = 0;
		int depth = 0;
		assert_int_equal(sscanf(s, "{\"type\":\"evented\",\"name\":\"%63[^\"]\"", p->name), 1);
		s = strstr(s, "\"events\":[") + 10;
		while (*s == '{' || *s == ',') {
			char type;
			unsigned frame;
			uint64_t at;
			s += *s == ',' ? 1 : 0;
			assert_int_equal(sscanf(s, "{\"type\":\"%c\",\"frame\":%u,\"at\":%" SCNu64 "}", &type, &frame, &at), 3);
			assert_true(frame < (unsigned)d->nframes);
			assert_true(at >= last);
			last = at;
			if (type == 'O') {
				stack[depth++] = frame;
				open_at[frame] = at;
				p->opens[frame]++;
			} else {
				assert_int_equal(type, 'C');
				assert_true(depth > 0);
				assert_int_equal(stack[--depth], frame);
				p->total[frame] += at - open_at[frame];
			}
			s = strchr(s, '}') + 1;
		}
		assert_int_equal(depth, 0);
	}
	free(text);
}

static const struct prof *profile(const struct doc *d, const char *name)
{
	for (int i = 0; i < d->np; i++)
		if (strcmp(d->p[i].name, name) == 0)
			return &d->p[i];
	fail_msg("no profile '%s'", name);
	return NULL;
}

static uint64_t total(const struct doc *d, const char *prof, const char *frame)
{
	const struct prof *p = profile(d, prof);
	for (int i = 0; i < d->nframes; i++)
		if (strcmp(d->frames[i], frame) == 0)
			return p->total[i];
	return 0;
}

static unsigned opens(const struct doc *d, const char *prof, const char *frame)
{
	const struct prof *p = profile(d, prof);
	for (int i = 0; i < d->nframes; i++)
		if (strcmp(d->frames[i], frame) == 0)
			return p->opens[i];
	return 0;
}

static struct sonde_event ev(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name, int64_t value)
{
	struct sonde_event e = sink_ev(k, ts, obj, name);
	e.value = value;
	return e;
}

/* Task A calls f; an IRQ interrupts it, and a nested one the IRQ; then idle
 * (interrupted too), task B, and a switch from B to A inside the IRQ. */
static void feed(struct sink_run *r)
{
	sink_run_put(r, ev(SONDE_EV_TASK_IN, 0, 1, "A", 0));
	sink_run_put(r, ev(SONDE_EV_FUNC_ENTER, 10, 5, "f", 1));
	sink_run_put(r, ev(SONDE_EV_ISR_ENTER, 20, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_ISR_ENTER, 25, 8, "NEST", 2));
	sink_run_put(r, ev(SONDE_EV_ISR_EXIT, 27, 8, "NEST", 2));
	sink_run_put(r, ev(SONDE_EV_ISR_EXIT, 30, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_FUNC_EXIT, 40, 5, "f", 1));
	sink_run_put(r, ev(SONDE_EV_TASK_OUT, 50, 1, "A", 0));
	sink_run_put(r, ev(SONDE_EV_IDLE, 50, 0, NULL, 0));
	sink_run_put(r, ev(SONDE_EV_ISR_ENTER, 60, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_ISR_EXIT, 65, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_TASK_IN, 70, 2, "B", 0));
	sink_run_put(r, ev(SONDE_EV_ISR_ENTER, 75, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_TASK_OUT, 76, 2, "B", 0));
	sink_run_put(r, ev(SONDE_EV_TASK_IN, 76, 1, "A", 0));
	sink_run_put(r, ev(SONDE_EV_ISR_EXIT, 80, 9, "IRQ", 1));
	sink_run_put(r, ev(SONDE_EV_TASK_OUT, 90, 1, "A", 0));
}

static void test_cpu_time(void **state)
{
	struct sink_run r;
	struct doc d;

	(void)state;
	sink_run_open(&r, &sonde_sink_speedscope, NULL, 1000000000u);
	feed(&r);
	assert_int_equal(sink_run_close(&r), 0);
	read_doc(r.path, &d);
	unlink(r.path);
	/* tasks first, then the interrupts; no idle */
	assert_int_equal(d.np, 3);
	assert_string_equal(d.p[0].name, "A");
	assert_string_equal(d.p[1].name, "B");
	assert_string_equal(d.p[2].name, "ISRs");
	/* A ran 0..50 less the IRQ's 10, and 80..90 after the switch in the IRQ */
	assert_int_equal(total(&d, "A", "A"), 40 + 10);
	assert_int_equal(total(&d, "A", "f"), 30 - 10);
	/* B ran 70..75: it was switched out while the IRQ ran */
	assert_int_equal(total(&d, "B", "B"), 5);
	/* the IRQ ran 10 + 5 + 5, the nested one 2 of the first 10 */
	assert_int_equal(total(&d, "ISRs", "IRQ"), 20);
	assert_int_equal(total(&d, "ISRs", "NEST"), 2);
	/* f was closed for the IRQ and reopened; A opened at 0, 30 and 80 */
	assert_int_equal(opens(&d, "A", "f"), 2);
	assert_int_equal(opens(&d, "A", "A"), 3);
}

static void test_idle_kept(void **state)
{
	static const char *const opts[] = { "speedscope.idle=1", NULL };
	struct sink_run r;
	struct doc d;

	(void)state;
	sink_run_open(&r, &sonde_sink_speedscope, opts, 1000000000u);
	feed(&r);
	assert_int_equal(sink_run_close(&r), 0);
	read_doc(r.path, &d);
	unlink(r.path);
	assert_int_equal(d.np, 4);
	assert_string_equal(d.p[3].name, "Idle");
	/* idle from 50 to 70, less the IRQ's 5 */
	assert_int_equal(total(&d, "Idle", "Idle"), 15);
}

static void test_bad_option(void **state)
{
	static const char *const opts[] = { "idle=maybe", NULL };

	(void)state;
	assert_null(sonde_sink_speedscope.create(stdout, opts));
}

/* A task named after its first run: the profile takes the name. */
static void test_late_name(void **state)
{
	struct sink_run r;
	struct doc d;

	(void)state;
	sink_run_open(&r, &sonde_sink_speedscope, NULL, 1000000000u);
	sink_run_put(&r, ev(SONDE_EV_TASK_IN, 0, 3, NULL, 0));
	sink_run_put(&r, ev(SONDE_EV_TASK_OUT, 10, 3, NULL, 0));
	sink_run_put(&r, ev(SONDE_EV_TASK_IN, 20, 3, "late", 0));
	sink_run_put(&r, ev(SONDE_EV_TASK_OUT, 25, 3, "late", 0));
	assert_int_equal(sink_run_close(&r), 0);
	read_doc(r.path, &d);
	unlink(r.path);
	assert_int_equal(d.np, 1);
	assert_string_equal(d.p[0].name, "late");
	assert_int_equal(total(&d, "late", "late") + total(&d, "late", "Task #3"), 15);
}

/* A trace without slices still opens: one empty profile says why. */
static void test_nothing_ran(void **state)
{
	struct sink_run r;
	struct doc d;

	(void)state;
	sink_run_open(&r, &sonde_sink_speedscope, NULL, 1000000u);
	sink_run_put(&r, ev(SONDE_EV_RECORD, 5, 0, NULL, 0));
	sink_run_put(&r, ev(SONDE_EV_COUNTER, 7, 3, "c", 42));
	assert_int_equal(sink_run_close(&r), 0);
	read_doc(r.path, &d);
	unlink(r.path);
	assert_int_equal(d.np, 1);
	assert_string_equal(d.p[0].name, SW_EMPTY_NAME);
	assert_int_equal(d.nframes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_time),
		cmocka_unit_test(test_idle_kept),
		cmocka_unit_test(test_bad_option),
		cmocka_unit_test(test_late_name),
		cmocka_unit_test(test_nothing_ran),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
