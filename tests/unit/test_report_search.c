/*
 * test_report_search.c -- the report's search index (sinks/report_search.h):
 * records grouped by their --filter texts, exact counts, the earliest times
 * kept in time order whatever the order of arrival, the histogram as its
 * bins widen, records past the key cap counted in "other", the cache of
 * keys by the decoder's names, and the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sinks/report_search.h"

static const struct sonde_session SS = { .ts_freq = 1000000, .have_origin = 1, .origin = 100 };

static void feed(struct rsearch *r, enum sonde_ev_kind k, uint64_t obj, const char *obj_name, uint64_t ts)
{
	struct sonde_event e;
	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.rec_name = k == SONDE_EV_ISR_ENTER ? "ISR_ENTER" : "TASK_IN";
	e.obj = obj;
	e.obj_name = obj_name;
	e.ts = ts;
	e.ts_flags = ts ? SONDE_TS_VALID : 0;
	rsearch_event(r, &e, &SS);
}

static void jstr(FILE *out, const char *s, size_t n)
{
	fprintf(out, "\"%.*s\"", (int)n, s);
}

/* The JSON member, without its trailing ",\n". */
static char *json(const struct rsearch *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	rsearch_write_json(r, f, jstr);
	assert_int_equal(fclose(f), 0);
	assert_true(len > 2 && strcmp(buf + len - 2, ",\n") == 0);
	buf[len - 2] = '\0';
	return buf;
}

/* Keys by kind and object; times in ns from the origin; an untimed record
 * at the latest time; the earliest two kept though they came last. */
static void test_keys_and_times(void **state)
{
	(void)state;
	struct rsearch *r = rsearch_new(0, 2);
	assert_non_null(r);
	feed(r, SONDE_EV_ISR_ENTER, 3, "TIMER0", 150); /* 50 us */
	feed(r, SONDE_EV_ISR_ENTER, 3, "TIMER0", 170);
	feed(r, SONDE_EV_ISR_ENTER, 3, "TIMER0", 0);   /* untimed: at 70 us */
	feed(r, SONDE_EV_ISR_ENTER, 3, "TIMER0", 130); /* earlier (a merge, a resync) */
	feed(r, SONDE_EV_ISR_ENTER, 3, "TIMER0", 120);
	feed(r, SONDE_EV_TASK_IN, 3, "TIMER0", 125);   /* another kind, the same object */
	feed(r, SONDE_EV_ISR_ENTER, 4, NULL, 190);     /* no name */
	assert_int_equal(rsearch_total(r), 7);
	assert_int_equal(rsearch_keys(r), 3);
	assert_int_equal(rsearch_other(r), 0);
	char *j = json(r);
	assert_non_null(strstr(j, "\"first\":2,\"total\":7,\"other\":0,\"others\":[]"));
	assert_non_null(strstr(j, "[\"isr_enter\",[\"ISR_ENTER\"],[\"3\",\"TIMER0\"],5,[20000,30000],"));
	assert_non_null(strstr(j, "[\"task_in\",[\"TASK_IN\"],[\"3\",\"TIMER0\"],1,[25000],"));
	assert_non_null(strstr(j, "[\"isr_enter\",[\"ISR_ENTER\"],[\"4\"],1,[90000],"));
	free(j);
	rsearch_free(r);
}

/* The histogram: bins of 1 us at first, doubling as the trace grows past
 * RSEARCH_BINS of them; counts merged, none lost. */
static void test_histogram(void **state)
{
	(void)state;
	struct rsearch *r = rsearch_new(0, 0);
	assert_non_null(r);
	feed(r, SONDE_EV_ISR_ENTER, 1, "A", 100 + 3); /* 3 us: bin 3 */
	feed(r, SONDE_EV_ISR_ENTER, 1, "A", 100 + 3);
	char *j = json(r);
	assert_non_null(strstr(j, "\"bin\":1000,\"n\":4,\"end\":3000,"));
	assert_non_null(strstr(j, "],[3,2]]"));
	free(j);
	feed(r, SONDE_EV_ISR_ENTER, 1, "A", 100 + 2);        /* 2 us: before the last bin */
	feed(r, SONDE_EV_ISR_ENTER, 1, "A", 100 + 4096 + 5); /* 4101 us: two doublings, to 4 us */
	j = json(r);
	assert_non_null(strstr(j, "\"bin\":4000,\"n\":1026,\"end\":4101000,"));
	assert_non_null(strstr(j, "],[0,3,1025,1]]"));
	free(j);
	rsearch_free(r);
}

/* Past the key cap, records go to "other" of their kind (a count and a
 * histogram); the keys kept still count theirs. */
static void test_cap(void **state)
{
	(void)state;
	struct rsearch *r = rsearch_new(2, 0);
	assert_non_null(r);
	for (uint64_t i = 0; i < 10; i++)
		feed(r, SONDE_EV_ISR_ENTER, i % 5, NULL, 100 + i);
	feed(r, SONDE_EV_TASK_IN, 0, NULL, 120);
	assert_int_equal(rsearch_total(r), 11);
	assert_int_equal(rsearch_keys(r), 2);
	assert_int_equal(rsearch_other(r), 7);
	char *j = json(r);
	assert_non_null(strstr(j, "\"other\":7,\"others\":[[\"isr_enter\",6,[2,1,3,1,4,1,7,1,8,1,9,1]],"
				  "[\"task_in\",1,[20,1]]]"));
	assert_non_null(strstr(j, "[\"0\"],2,[0,5000],[0,1,5,1]]"));
	free(j);
	rsearch_free(r);
}

/* With names the decoder vouches for (names_gen), keys are found again by
 * the event's pointers; a log's text is not such a name: the same buffer
 * with another text is another key. */
static void test_names_gen(void **state)
{
	(void)state;
	struct sonde_session ss = SS;
	struct rsearch *r = rsearch_new(0, 0);
	char text[16];
	struct sonde_event e;
	assert_non_null(r);
	ss.names_gen = 1;
	memset(&e, 0, sizeof(e));
	e.ts_flags = SONDE_TS_VALID;
	e.ts = 200;
	e.kind = SONDE_EV_TASK_IN;
	e.rec_name = "TASK_IN";
	e.obj = 1;
	e.obj_name = "a";
	rsearch_event(r, &e, &ss);
	rsearch_event(r, &e, &ss);
	e.obj = 2; /* another object: another key */
	rsearch_event(r, &e, &ss);
	e.kind = SONDE_EV_TASK_OUT;
	rsearch_event(r, &e, &ss);
	e.flags = SONDE_EVF_NO_OBJ;
	rsearch_event(r, &e, &ss);
	assert_int_equal(rsearch_keys(r), 4);
	e.flags = 0;
	e.kind = SONDE_EV_LOG;
	e.rec_name = "LOG";
	e.text = text;
	strcpy(text, "x = 1");
	rsearch_event(r, &e, &ss);
	strcpy(text, "x = 2");
	rsearch_event(r, &e, &ss);
	rsearch_event(r, &e, &ss);
	assert_int_equal(rsearch_keys(r), 6);
	char *j = json(r);
	assert_non_null(strstr(j, "[\"task_in\",[\"TASK_IN\"],[\"1\",\"a\"],2,"));
	assert_non_null(strstr(j, "[\"task_in\",[\"TASK_IN\"],[\"2\",\"a\"],1,"));
	assert_non_null(strstr(j, "[\"task_out\",[\"TASK_IN\"],[],1,"));
	assert_non_null(strstr(j, "[\"log\",[\"LOG\",\"x = 1\"],[],1,"));
	assert_non_null(strstr(j, "[\"log\",[\"LOG\",\"x = 2\"],[],2,"));
	free(j);
	rsearch_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_and_times),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_names_gen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
