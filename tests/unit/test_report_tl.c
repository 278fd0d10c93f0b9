/*
 * test_report_tl.c -- the report's timeline (report_tl.c) fed by the track
 * model from hand-built events: one lane per ISR (activations at depth 0
 * with their nesting level, the functions an ISR runs at depth 1+ of its
 * lane), and the live mode of `sonde live --serve`: items in arrival order
 * with sequence numbers in a bounded ring, a target reset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "sink_run.h"
#include "sinks/report_page.h"
#include "sinks/report_tl.h"
#include "sinks/trackmap.h"

struct tl {
	struct rtl *r;
	struct tmap *m;
	struct sonde_session ss;
};

static void tl_open(struct tl *t, uint32_t ring)
{
	memset(t, 0, sizeof(*t));
	t->r = rtl_new_live(ring);
	assert_non_null(t->r);
	t->m = tmap_new(&rtl_ops, t->r, NULL);
	assert_non_null(t->m);
	t->ss.proto = "sonde";
	t->ss.ts_freq = 1000000000; /* a tick is a ns */
	t->ss.have_origin = 1;
}

static void tl_close(struct tl *t)
{
	tmap_free(t->m);
	rtl_free(t->r);
}

static void put(struct tl *t, enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name, int64_t value)
{
	struct sonde_event e = sink_ev(k, ts, obj, name);
	e.value = value;
	tmap_event(t->m, &e, &t->ss);
}

/* The delta since seq `since`, as text (free it). */
static char *delta(struct tl *t, uint64_t since)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	rtl_write_delta(t->r, f, since, 0, 0, report_jstr);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A interrupted by B while A runs f: B's activation on its own lane at
 * depth 0, level 2; f on A's lane at depth 1; A at depth 0, level 1. */
static void test_isr_lanes(void **state)
{
	(void)state;
	struct tl t;
	tl_open(&t, 1000);
	put(&t, SONDE_EV_ISR_ENTER, 10, 1, "A", 1);
	put(&t, SONDE_EV_FUNC_ENTER, 20, 7, "f", 0);
	put(&t, SONDE_EV_ISR_ENTER, 30, 2, "B", 2);
	put(&t, SONDE_EV_ISR_EXIT, 40, 2, NULL, 2);
	put(&t, SONDE_EV_FUNC_EXIT, 50, 0, NULL, 0);
	put(&t, SONDE_EV_ISR_EXIT, 60, 1, NULL, 1);
	put(&t, SONDE_EV_ISR_ENTER, 70, 2, "B", 1); /* B alone: level 1, the same lane */
	put(&t, SONDE_EV_ISR_EXIT, 75, 2, NULL, 1);
	char *d = delta(&t, 0);
	/* lanes: A then B (in order of first activation), no shared "ISRs" lane */
	const char *la = strstr(d, "{\"name\":\"A\",\"kind\":\"isr\""), *lb = strstr(d, "{\"name\":\"B\",\"kind\":\"isr\"");
	assert_non_null(la);
	assert_non_null(lb);
	assert_true(la < lb);
	assert_null(strstr(d, "\"ISRs\""));
	assert_int_equal(rtl_seq(t.r), 5); /* and the session start, on lane 0 (diagnostics) */
	/* items in arrival order: [lane, type, t0, dur, depth, name, args, cat, value] */
	const char *b = strstr(d, "[2,0,30,10,0,\"B\",\"\",3,2]");
	const char *f = strstr(d, "[1,0,20,30,1,\"f\",\"\",4,0]");
	const char *a = strstr(d, "[1,0,10,50,0,\"A\",\"\",3,1]");
	const char *b2 = strstr(d, "[2,0,70,5,0,\"B\",\"\",3,1]");
	if (!a || !b || !f || !b2)
		fail_msg("unexpected items: %s", d);
	assert_true(b < f && f < a && a < b2);
	free(d);
	tl_close(&t);
}

/* An ISR exit with no enter before it (a capture that starts inside an
 * ISR; the enter refused by a full ring): its diagnostic goes to the
 * diagnostics lane, lane 0; no lane "ISRs" appears beside the ISR's own
 * (seen: an extra "isr" lane in the report of a lossy run). */
static void test_isr_exit_unmatched(void **state)
{
	(void)state;
	struct tl t;
	tl_open(&t, 1000);
	put(&t, SONDE_EV_ISR_EXIT, 10, 0, NULL, 0);
	put(&t, SONDE_EV_ISR_ENTER, 20, 1, "A", 1);
	put(&t, SONDE_EV_ISR_EXIT, 30, 1, NULL, 1);
	put(&t, SONDE_EV_ISR_EXIT, 40, 0, NULL, 0);
	char *d = delta(&t, 0);
	assert_null(strstr(d, "\"ISRs\""));
	const char *first = strstr(d, "[0,1,10,0,0,\"ISR exit without enter\""),
		   *second = strstr(d, "[0,1,40,0,0,\"ISR exit without enter\"");
	const char *a = strstr(d, "[1,0,20,10,0,\"A\",\"\",3,1]");
	if (!first || !second || !a)
		fail_msg("unexpected items: %s", d);
	assert_non_null(strstr(d, "{\"name\":\"A\",\"kind\":\"isr\""));
	free(d);
	tl_close(&t);
}

/* The ring keeps the latest items; a viewer behind it is told how many it
 * missed; a reset empties the timeline and counts a session. */
static void test_live_ring(void **state)
{
	(void)state;
	struct tl t;
	tl_open(&t, 1000);
	for (uint64_t i = 0; i < 1500; i++) {
		put(&t, SONDE_EV_ISR_ENTER, 100 * i, 1, "A", 1);
		put(&t, SONDE_EV_ISR_EXIT, 100 * i + 10, 1, NULL, 1);
	}
	/* item 0 is the session start (diagnostics), then one item per activation */
	assert_int_equal(rtl_seq(t.r), 1501);
	assert_int_equal(rtl_items(t.r), 1000);
	char *d = delta(&t, 0);
	assert_non_null(strstr(d, "\"seq\":1501,\"session\":0,\"missed\":501,"));
	assert_null(strstr(d, "[1,0,49900,10,")); /* item 500: gone */
	assert_non_null(strstr(d, "[1,0,50000,10,0,\"A\",\"\",3,1]")); /* item 501: the oldest kept */
	/* the layout the page reads items by: the fields in the order written
	 * above (lane 1, a slice at 50000 ns for 10 ns, depth 0, "A", no args,
	 * category 3 "isr", nesting level 1), the type and category names */
	assert_non_null(strstr(d, "\"fields\":[\"lane\",\"type\",\"t\",\"dur\",\"depth\",\"name\",\"args\","
				  "\"cat\",\"value\"],\"types\":[\"slice\",\"instant\",\"counter\"],"
				  "\"cats\":[\"\",\"sched\",\"state\",\"isr\","));
	free(d);
	d = delta(&t, 1500);
	assert_non_null(strstr(d, "\"missed\":0,\n\"items\":[[1,0,149900,10,0,\"A\",\"\",3,1]]"));
	free(d);
	rtl_live_reset(t.r);
	assert_int_equal(rtl_items(t.r), 0);
	assert_int_equal(rtl_session(t.r), 1);
	put(&t, SONDE_EV_ISR_ENTER, 5, 1, "A", 1);
	put(&t, SONDE_EV_ISR_EXIT, 6, 1, NULL, 1);
	d = delta(&t, 1501);
	assert_non_null(strstr(d, "\"seq\":1502,\"session\":1,\"missed\":0,\n\"items\":[[1,0,5,1,0,\"A\",\"\",3,1]]"));
	free(d);
	tl_close(&t);
}

/* Names that keep coming (9000 functions, one call each) with a ring of
 * 1000: the pools are rebuilt as they pass their limit (at item 8192), and
 * every item kept -- the one added at the rebuild too, f8191 -- keeps its
 * own name. */
static void test_live_names(void **state)
{
	(void)state;
	struct tl t;
	char name[32], want[64];
	tl_open(&t, 1000);
	for (uint64_t i = 0; i < 9000; i++) {
		snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		put(&t, SONDE_EV_FUNC_ENTER, 100 * i, 1000 + i, name, 0);
		put(&t, SONDE_EV_FUNC_EXIT, 100 * i + 50, 0, NULL, 0);
	}
	char *d = delta(&t, 0);
	for (uint64_t i = 0; i < 9000; i++) {
		snprintf(want, sizeof(want), ",%llu,50,0,\"f%llu\",", (unsigned long long)(100 * i), (unsigned long long)i);
		if ((strstr(d, want) != NULL) != (i >= 8000)) /* the session start, f0..f8999: the last 1000 */
			fail_msg("f%llu: %s", (unsigned long long)i, i >= 8000 ? "missing or misnamed" : "still there");
	}
	free(d);
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isr_lanes),
		cmocka_unit_test(test_isr_exit_unmatched),
		cmocka_unit_test(test_live_ring),
		cmocka_unit_test(test_live_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
