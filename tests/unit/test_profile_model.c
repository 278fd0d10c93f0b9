/*
 * test_profile_model.c -- the profile model (host/src/sinks/profile_model.c)
 * on hand-built event sequences: exact calls, inclusive/self times, task
 * and ISR accounting, and the handling of broken traces and caps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sinks/profile_model.h"
#include "sinks/profile_text.h"

static struct sonde_event mkev(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name)
{
	struct sonde_event e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.ts = ts;
	e.ts_flags = SONDE_TS_VALID;
	e.obj = obj;
	e.obj_name = name;
	return e;
}

static void feed(struct prof_model *m, enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name)
{
	struct sonde_event e = mkev(k, ts, obj, name);

	prof_event(m, &e);
}

static void enter(struct prof_model *m, uint64_t ts, const char *fn)
{
	feed(m, SONDE_EV_FUNC_ENTER, ts, 0, fn);
}

/* Sonde's FUNC_EXIT names nothing: it ends the innermost function. */
static void leave(struct prof_model *m, uint64_t ts)
{
	feed(m, SONDE_EV_FUNC_EXIT, ts, 0, NULL);
}

static void isr_in(struct prof_model *m, uint64_t ts, uint64_t id, const char *name, int64_t depth)
{
	struct sonde_event e = mkev(SONDE_EV_ISR_ENTER, ts, id, name);

	e.value = depth;
	prof_event(m, &e);
}

static void isr_out(struct prof_model *m, uint64_t ts)
{
	feed(m, SONDE_EV_ISR_EXIT, ts, 0, NULL);
}

static const struct prof_func *func(const struct prof_model *m, const char *name)
{
	for (uint32_t i = 0; i < prof_func_count(m); i++)
		if (strcmp(prof_func_at(m, i)->name, name) == 0)
			return prof_func_at(m, i);
	fail_msg("no function %s", name);
	return NULL;
}

static const struct prof_ctx *ctx(const struct prof_model *m, const char *label)
{
	char buf[128];

	for (uint32_t i = 0; i < prof_ctx_count(m); i++)
		if (strcmp(prof_ctx_label(prof_ctx_at(m, i), buf, sizeof(buf)), label) == 0)
			return prof_ctx_at(m, i);
	fail_msg("no context %s", label);
	return NULL;
}

static const struct prof_isr *isr(const struct prof_model *m, const char *label)
{
	char buf[128];

	for (uint32_t i = 0; i < prof_isr_count(m); i++)
		if (strcmp(prof_isr_label(prof_isr_at(m, i), buf, sizeof(buf)), label) == 0)
			return prof_isr_at(m, i);
	fail_msg("no ISR %s", label);
	return NULL;
}

static void expect_func(const struct prof_model *m, const char *name, uint64_t calls, uint64_t incl,
			uint64_t self, uint64_t sum, uint64_t min, uint64_t max, unsigned flags)
{
	const struct prof_func *f = func(m, name);

	assert_int_equal(f->calls, calls);
	assert_int_equal(f->incl, incl);
	assert_int_equal(f->self, self);
	assert_int_equal(f->sum, sum);
	assert_int_equal(f->min, min);
	assert_int_equal(f->max, max);
	assert_int_equal(f->flags, flags);
}

/* A calls B, then C: self excludes the callees, inclusive does not. */
static void test_nested(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 100, "A");
	enter(m, 110, "B");
	leave(m, 130);
	enter(m, 140, "C");
	leave(m, 145);
	enter(m, 150, "B");
	leave(m, 154);
	leave(m, 160);
	prof_finish(m);
	expect_func(m, "A", 1, 60, 31, 60, 60, 60, 0);
	expect_func(m, "B", 2, 24, 24, 24, 4, 20, 0);
	expect_func(m, "C", 1, 5, 5, 5, 5, 5, 0);
	assert_int_equal(prof_total_time(m), 60);
	assert_int_equal(ctx(m, "No task")->run, 60);
	assert_int_equal(prof_counts(m)->open_at_end, 0);
	prof_destroy(m);
}

/* F(F(F())): the inclusive total counts the outermost call once; the
 * per-call figures cover all three activations. */
static void test_recursion(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 0, "F");
	enter(m, 10, "F");
	enter(m, 20, "F");
	leave(m, 25);
	leave(m, 40);
	enter(m, 50, "G");
	enter(m, 55, "F");
	leave(m, 57);
	leave(m, 60);
	leave(m, 100);
	prof_finish(m);
	/* activations: 5, 30, 2 (inside G) and 100 */
	expect_func(m, "F", 4, 100, 92, 137, 2, 100, 0);
	expect_func(m, "G", 1, 10, 8, 10, 10, 10, 0);
	prof_destroy(m);
}

/* An ISR in the middle of A: its time (and that of the function it calls)
 * leaves A's self and inclusive time and goes to the ISR. */
static void test_isr_preemption(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 0, "A");
	isr_in(m, 10, 7, "SysTick", 1);
	enter(m, 12, "H");
	leave(m, 18);
	isr_out(m, 20);
	enter(m, 30, "B");
	isr_in(m, 32, 7, "SysTick", 1);
	isr_in(m, 33, 9, NULL, 2); /* nested, unnamed */
	isr_out(m, 36);
	isr_out(m, 40);
	leave(m, 42);
	leave(m, 50);
	prof_finish(m);
	expect_func(m, "A", 1, 32, 28, 32, 32, 32, 0);
	expect_func(m, "B", 1, 4, 4, 4, 4, 4, 0);
	expect_func(m, "H", 1, 6, 6, 6, 6, 6, 0);
	assert_int_equal(isr(m, "SysTick")->count, 2);
	assert_int_equal(isr(m, "SysTick")->total, 10 + 5);
	assert_int_equal(isr(m, "SysTick")->max, 10);
	assert_int_equal(isr(m, "isr#9")->count, 1);
	assert_int_equal(isr(m, "isr#9")->total, 3);
	assert_int_equal(isr(m, "isr#9")->max, 3);
	assert_int_equal(ctx(m, "No task")->run, 32);
	assert_int_equal(prof_total_time(m), 50);
	prof_destroy(m);
}

/* A is entered in task 1, task 2 runs B, task 1 comes back and leaves A:
 * A's time is task 1's CPU time only.  Shares add up to the whole. */
static void test_task_switch(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	feed(m, SONDE_EV_TASK_IN, 0, 1, "blinky");
	enter(m, 10, "A");
	feed(m, SONDE_EV_TASK_OUT, 20, 1, "blinky");
	feed(m, SONDE_EV_TASK_IN, 25, 2, NULL);
	enter(m, 30, "B");
	leave(m, 40);
	feed(m, SONDE_EV_TASK_OUT, 45, 2, NULL);
	feed(m, SONDE_EV_TASK_IN, 50, 1, "blinky");
	leave(m, 60);
	feed(m, SONDE_EV_IDLE, 70, 0, NULL);
	feed(m, SONDE_EV_MARK, 100, 3, NULL);
	prof_finish(m);
	expect_func(m, "A", 1, 20, 20, 20, 20, 20, 0);
	expect_func(m, "B", 1, 10, 10, 10, 10, 10, 0);
	assert_int_equal(ctx(m, "blinky")->run, 40);
	assert_int_equal(ctx(m, "blinky")->switches, 2);
	assert_int_equal(ctx(m, "task#2")->run, 20);
	assert_int_equal(ctx(m, "No task")->run, 10);
	assert_int_equal(ctx(m, "(idle)")->run, 30);
	assert_int_equal(ctx(m, "(idle)")->switches, 1);
	assert_int_equal(prof_total_time(m), 100);
	prof_destroy(m);
}

/* The same function running in two tasks at once keeps two stacks. */
static void test_same_function_two_tasks(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	feed(m, SONDE_EV_TASK_IN, 0, 1, NULL);
	enter(m, 0, "work");
	feed(m, SONDE_EV_TASK_IN, 10, 2, NULL); /* no TASK_OUT: still a switch */
	enter(m, 10, "work");
	leave(m, 15);
	feed(m, SONDE_EV_TASK_IN, 15, 1, NULL);
	leave(m, 18);
	prof_finish(m);
	/* task 1: 10 + 3 ticks, task 2: 5 ticks; not recursion */
	expect_func(m, "work", 2, 18, 18, 18, 5, 13, 0);
	prof_destroy(m);
}

/* Exits without enters are ignored, enters without exits are closed at
 * the last timestamp and flagged, and nothing crashes. */
static void test_unmatched(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	leave(m, 5);
	enter(m, 10, "A");
	enter(m, 20, "B");
	leave(m, 30);
	isr_out(m, 35); /* ISR exit without enter */
	feed(m, SONDE_EV_MARK, 50, 1, NULL);
	prof_finish(m);
	prof_finish(m); /* idempotent */
	expect_func(m, "A", 1, 40, 30, 40, 40, 40, PROF_F_OPEN);
	expect_func(m, "B", 1, 10, 10, 10, 10, 10, 0);
	assert_int_equal(prof_counts(m)->unmatched_exits, 1);
	assert_int_equal(prof_counts(m)->unmatched_isr_exits, 1);
	assert_int_equal(prof_counts(m)->open_at_end, 1);
	assert_int_equal(prof_total_time(m), 45);
	prof_destroy(m);
}

/* Functions and ISRs still open at the end of the trace. */
static void test_open_isr_at_end(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 0, "A");
	isr_in(m, 10, 3, "UART", 1);
	enter(m, 12, "rx");
	feed(m, SONDE_EV_MARK, 20, 1, NULL);
	prof_finish(m);
	expect_func(m, "A", 1, 10, 10, 10, 10, 10, PROF_F_OPEN);
	expect_func(m, "rx", 1, 8, 8, 8, 8, 8, PROF_F_OPEN);
	assert_int_equal(isr(m, "UART")->total, 10);
	assert_int_equal(isr(m, "UART")->flags, PROF_F_OPEN);
	assert_int_equal(prof_counts(m)->isrs_open_at_end, 1);
	assert_int_equal(prof_counts(m)->open_at_end, 2);
	prof_destroy(m);
}

/* An ISR that returns with a function still open on its stack. */
static void test_isr_exit_closes_its_calls(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 0, "A");
	isr_in(m, 10, 3, "UART", 1);
	enter(m, 12, "rx");
	isr_out(m, 20);
	leave(m, 30); /* ends A, not rx */
	prof_finish(m);
	expect_func(m, "A", 1, 20, 20, 20, 20, 20, 0);
	expect_func(m, "rx", 1, 8, 8, 8, 8, 8, PROF_F_MISSING_EXIT);
	assert_int_equal(isr(m, "UART")->flags, 0);
	assert_int_equal(prof_counts(m)->missing_exits, 1);
	prof_destroy(m);
}

/* The decoder reports depth 1 while we think one ISR is still active:
 * its exit was lost. */
static void test_isr_resync(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	isr_in(m, 0, 1, "A", 1);
	isr_in(m, 10, 2, "B", 1); /* A's exit lost */
	isr_out(m, 15);
	feed(m, SONDE_EV_MARK, 20, 1, NULL);
	prof_finish(m);
	assert_int_equal(isr(m, "A")->total, 10);
	assert_int_equal(isr(m, "A")->flags, PROF_F_MISSING_EXIT);
	assert_int_equal(isr(m, "B")->total, 5);
	assert_int_equal(isr(m, "B")->flags, 0);
	assert_int_equal(ctx(m, "No task")->run, 5);
	assert_int_equal(prof_counts(m)->isr_resyncs, 1);
	prof_destroy(m);
}

/* Exits that name their function (SyS-T) unwind to it; an exit naming a
 * function that is not active is ignored. */
static void test_named_exits(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);

	(void)state;
	enter(m, 0, "a");
	enter(m, 10, "b");
	feed(m, SONDE_EV_FUNC_EXIT, 15, 0, "zzz");
	feed(m, SONDE_EV_FUNC_EXIT, 20, 0, "a");
	prof_finish(m);
	expect_func(m, "a", 1, 20, 10, 20, 20, 20, 0);
	expect_func(m, "b", 1, 10, 10, 10, 10, 10, PROF_F_MISSING_EXIT);
	assert_int_equal(prof_counts(m)->unmatched_exits, 1);
	assert_int_equal(prof_counts(m)->missing_exits, 1);
	prof_destroy(m);
}

/* Sonde's decoder reports the depth after entering; when it restarted
 * (after a loss) the frames above that depth are stale.  Its exits after
 * a loss say they do not know the function. */
static void test_depth_resync(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);
	struct sonde_event e;

	(void)state;
	e = mkev(SONDE_EV_FUNC_ENTER, 0, 1, "A");
	e.value = 1;
	prof_event(m, &e);
	e = mkev(SONDE_EV_FUNC_ENTER, 10, 2, "B");
	e.value = 2;
	prof_event(m, &e);
	e = mkev(SONDE_EV_FUNC_ENTER, 20, 3, "C");
	e.value = 1; /* the decoder lost track: A and B are gone */
	prof_event(m, &e);
	e = mkev(SONDE_EV_FUNC_EXIT, 25, 3, NULL);
	e.flags = SONDE_EVF_NO_OBJ | SONDE_EVF_ADDR; /* obj means nothing */
	prof_event(m, &e);
	prof_finish(m);
	expect_func(m, "A", 1, 20, 10, 20, 20, 20, PROF_F_MISSING_EXIT);
	expect_func(m, "B", 1, 10, 10, 10, 10, 10, PROF_F_MISSING_EXIT);
	expect_func(m, "C", 1, 5, 5, 5, 5, 5, 0);
	assert_int_equal(prof_counts(m)->func_resyncs, 1);
	assert_int_equal(prof_counts(m)->missing_exits, 2);
	assert_int_equal(prof_counts(m)->unmatched_exits, 0);
	prof_destroy(m);
}

/* Events without a valid timestamp are placed at the time before them;
 * estimated ones count but flag what they touch; time going backwards is
 * not charged. */
static void test_timestamp_quality(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);
	struct sonde_event e;

	(void)state;
	enter(m, 0, "A");
	e = mkev(SONDE_EV_FUNC_ENTER, 999, 0, "U");
	e.ts_flags = 0; /* no time: happens "at 0" */
	prof_event(m, &e);
	leave(m, 10); /* U: 10 */
	enter(m, 20, "B");
	e = mkev(SONDE_EV_FUNC_EXIT, 30, 0, NULL);
	e.ts_flags = SONDE_TS_VALID | SONDE_TS_ESTIMATED;
	prof_event(m, &e); /* B: 10, estimated */
	enter(m, 35, "C"); /* the interval 30..35 started estimated */
	leave(m, 40);
	enter(m, 38, "D"); /* backwards: charged nothing */
	leave(m, 45);
	leave(m, 50);
	prof_finish(m);
	expect_func(m, "U", 1, 10, 10, 10, 10, 10, PROF_F_UNTIMED);
	expect_func(m, "B", 1, 10, 10, 10, 10, 10, PROF_F_ESTIMATED);
	expect_func(m, "C", 1, 5, 5, 5, 5, 5, 0);
	expect_func(m, "D", 1, 5, 5, 5, 5, 5, 0);
	expect_func(m, "A", 1, 50, 20, 50, 50, 50, PROF_F_ESTIMATED);
	assert_int_equal(prof_counts(m)->untimed, 1);
	assert_int_equal(prof_counts(m)->estimated, 1);
	assert_int_equal(prof_counts(m)->backwards, 1);
	assert_int_equal(ctx(m, "No task")->flags, PROF_F_ESTIMATED);
	prof_destroy(m);
}

/* Names: decoder names first, then the number (id or address). */
static void test_unnamed_functions(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 0);
	struct sonde_event e = mkev(SONDE_EV_FUNC_ENTER, 0, 0x8000101, NULL);

	(void)state;
	e.flags = SONDE_EVF_ADDR;
	prof_event(m, &e);
	leave(m, 4);
	feed(m, SONDE_EV_FUNC_ENTER, 4, 12, NULL);
	leave(m, 6);
	e.obj = 0x8000200;
	e.obj_name = "named_by_dict";
	e.ts = 6;
	prof_event(m, &e);
	leave(m, 7);
	prof_finish(m);
	expect_func(m, "0x8000101", 1, 4, 4, 4, 4, 4, 0);
	expect_func(m, "func#12", 1, 2, 2, 2, 2, 2, 0);
	expect_func(m, "named_by_dict", 1, 1, 1, 1, 1, 1, 0);
	prof_destroy(m);
}

/* The stack tree: self time per distinct stack, roots per task and ISR. */
static void test_tree(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 1);
	uint64_t seen = 0, sum = 0;

	(void)state;
	enter(m, 0, "A");
	enter(m, 10, "B");
	isr_in(m, 12, 4, "T", 1);
	isr_out(m, 15);
	leave(m, 20);
	enter(m, 25, "B");
	leave(m, 30);
	leave(m, 40);
	prof_finish(m);
	for (uint32_t i = 0; i < prof_node_count(m); i++) {
		const struct prof_node *nd = prof_node_at(m, i);

		sum += nd->self;
		if (nd->func != PROF_NONE && strcmp(prof_func_at(m, nd->func)->name, "B") == 0) {
			assert_int_equal(nd->self, 12); /* both calls of A;B merged */
			assert_string_equal(prof_func_at(m, prof_node_at(m, nd->parent)->func)->name, "A");
			seen++;
		}
		if (nd->isr != PROF_NONE) {
			assert_int_equal(nd->self, 3);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(sum, 40);
	prof_destroy(m);
}

/* Caps: memory stays bounded and the reader is told. */
static void test_caps(void **state)
{
	struct prof_limits lim = { .max_functions = 2, .max_contexts = 1, .max_depth = 2,
				   .max_nodes = 100, .max_isr_nesting = 1, .max_cores = 1 };
	struct prof_model *m = prof_create(&lim, NULL, 1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct sonde_event e;

	(void)state;
	enter(m, 0, "f1");
	enter(m, 1, "f2");
	enter(m, 2, "f3");      /* too deep, and a third function */
	leave(m, 3);
	leave(m, 4);
	leave(m, 5);
	feed(m, SONDE_EV_TASK_IN, 6, 1, "t1");
	feed(m, SONDE_EV_TASK_IN, 7, 2, "t2"); /* beyond max_contexts */
	isr_in(m, 8, 5, "I", 1);
	isr_in(m, 9, 6, "J", 2); /* too deep */
	isr_out(m, 10);
	isr_out(m, 11);
	e = mkev(SONDE_EV_MARK, 12, 0, NULL);
	e.core = 1; /* beyond max_cores */
	prof_event(m, &e);
	for (int i = 0; i < 1000; i++) { /* a long trace does not grow the model */
		enter(m, 20 + 2 * (uint64_t)i, "f1");
		leave(m, 21 + 2 * (uint64_t)i);
	}
	prof_finish(m);
	assert_int_equal(prof_func_count(m), 3); /* f1, f2, (other functions) */
	assert_int_equal(func(m, "(other functions)")->calls, 1);
	assert_int_equal(func(m, "f1")->calls, 1001);
	assert_int_equal(func(m, "f2")->self, 3); /* its callee's time included */
	assert_int_equal(prof_counts(m)->too_deep, 1);
	assert_int_equal(prof_counts(m)->other_funcs, 1);
	assert_int_equal(prof_counts(m)->other_ctx, 2); /* t2, and ISR I */
	assert_int_equal(prof_counts(m)->isr_too_deep, 1);
	assert_int_equal(prof_counts(m)->other_cores, 1);
	assert_int_equal(ctx(m, "(other tasks)")->run, 1 + 2008);
	assert_int_equal(isr(m, "(other ISRs)")->count, 1);
	assert_int_equal(isr(m, "(other ISRs)")->total, 3);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(prof_write_notes(m, f, "> "), 5);
	fclose(f);
	assert_string_equal(buf,
		"> 1 calls deeper than 2 levels: their time counts toward their caller\n"
		"> 1 ISR entries nested deeper than 1 levels: their time counts toward the ISR below\n"
		"> more than 2 distinct functions: 1 calls of further ones counted as \"(other functions)\"\n"
		"> more than 1 tasks and ISRs: 2 events of further ones counted as \"(other tasks)\" / \"(other ISRs)\"\n"
		"> more than 1 cores: 1 events of further cores ignored\n");
	free(buf);
	assert_int_equal(prof_write_notes(m, NULL, NULL), 5);
	prof_destroy(m);
}

/* A tree cap: deeper stacks are charged to the deepest node that exists. */
static void test_node_cap(void **state)
{
	struct prof_limits lim = { .max_functions = 10, .max_contexts = 10, .max_depth = 10,
				   .max_nodes = 1, .max_isr_nesting = 4, .max_cores = 1 };
	struct prof_model *m = prof_create(&lim, NULL, 1);
	uint64_t sum = 0;

	(void)state;
	/* roots do not count: room for No task;A, not for No task;A;B */
	enter(m, 0, "A");
	enter(m, 10, "B");
	leave(m, 15);
	leave(m, 20);
	prof_finish(m);
	assert_int_equal(prof_counts(m)->cut_stacks, 1);
	for (uint32_t i = 0; i < prof_node_count(m); i++)
		sum += prof_node_at(m, i)->self;
	assert_int_equal(sum, 20);
	expect_func(m, "B", 1, 5, 5, 5, 5, 5, 0);
	prof_destroy(m);
}

/* Garbage in: every kind, odd values, random order; must not crash. */
static void test_garbage(void **state)
{
	struct prof_model *m = prof_create(NULL, NULL, 1);
	uint32_t x = 12345;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		struct sonde_event e;

		x = x * 1103515245u + 12345u;
		memset(&e, 0, sizeof(e));
		e.kind = (enum sonde_ev_kind)((x >> 16) % SONDE_EV_KIND_COUNT);
		e.ts = (x >> 8) & 0xFFF;
		e.ts_flags = (x >> 3) & 3;
		e.obj = (x >> 20) & 7;
		e.flags = (x >> 5) & 1;
		e.value = (int64_t)((x >> 24) & 3) - 1;
		e.core = (x >> 28) & 1;
		prof_event(m, &e);
	}
	prof_finish(m);
	assert_true(prof_func_count(m) <= 16);
	prof_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_isr_preemption),
		cmocka_unit_test(test_task_switch),
		cmocka_unit_test(test_same_function_two_tasks),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_open_isr_at_end),
		cmocka_unit_test(test_isr_exit_closes_its_calls),
		cmocka_unit_test(test_isr_resync),
		cmocka_unit_test(test_named_exits),
		cmocka_unit_test(test_depth_resync),
		cmocka_unit_test(test_timestamp_quality),
		cmocka_unit_test(test_unnamed_functions),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_node_cap),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
