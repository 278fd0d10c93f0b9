/*
 * test_core_select.c -- the selection stage (core/select.h): time parsing
 * (seconds from the origin, ticks), core lists, record filters, and which
 * events pass; and the field names of user records (proto/sonde).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/select.h"
#include "proto/sonde/sonde_fields.h"

static void test_times(void **state)
{
	(void)state;
	struct sel_bound b;
	assert_int_equal(sonde_select_parse_time("1.5", &b), 0);
	assert_false(b.ticks);
	assert_int_equal(b.v, 1500000000u);
	assert_int_equal(sonde_select_parse_time("250ms", &b), 0);
	assert_int_equal(b.v, 250000000u);
	assert_int_equal(sonde_select_parse_time("0.000000001", &b), 0);
	assert_int_equal(b.v, 1u);
	assert_int_equal(sonde_select_parse_time("10us", &b), 0);
	assert_int_equal(b.v, 10000u);
	assert_int_equal(sonde_select_parse_time("123t", &b), 0);
	assert_true(b.ticks);
	assert_int_equal(b.v, 123u);
	assert_false(b.rel);
	assert_int_equal(sonde_select_parse_time("+2ms", &b), 0); /* from the first record */
	assert_true(b.rel);
	assert_false(b.ticks);
	assert_int_equal(b.v, 2000000u);
	assert_int_equal(sonde_select_parse_time("+7t", &b), 0);
	assert_true(b.rel && b.ticks && b.v == 7);
	assert_int_equal(sonde_select_parse_time("+", &b), -1);
	assert_int_equal(sonde_select_parse_time("++1", &b), -1);
	assert_int_equal(sonde_select_parse_time("-1", &b), -1);
	assert_int_equal(sonde_select_parse_time("1.5t", &b), -1);
	assert_int_equal(sonde_select_parse_time("abc", &b), -1);
	assert_int_equal(sonde_select_parse_time("5min", &b), -1);
	assert_int_equal(sonde_select_parse_time("", &b), -1);
}

static struct sonde_event ev_at(enum sonde_ev_kind k, uint64_t ts, uint32_t core)
{
	struct sonde_event e;
	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.ts = ts;
	e.ts_flags = SONDE_TS_VALID;
	e.core = core;
	return e;
}

static void test_window(void **state)
{
	(void)state;
	struct sonde_select s;
	struct sonde_session ss = { .ts_freq = 1000, .have_origin = 1, .origin = 5000 };
	char err[128];
	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "from", "+1", err, sizeof(err)), 0);  /* 1 s = 1000 ticks after 5000 */
	assert_int_equal(sonde_select_option(&s, "to", "6500t", err, sizeof(err)), 0); /* absolute */
	struct sonde_event e = ev_at(SONDE_EV_MARK, 5999, 0);
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.ts = 6000;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.ts = 6500;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.ts = 6501;
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.ts_flags = 0; /* untimed: inside */
	assert_true(sonde_select_accept(&s, &e, &ss));
	assert_int_equal(s.passed, 3);
	assert_int_equal(s.rejected, 2);
	assert_false(sonde_select_window_empty(&s, err, sizeof(err)));
	sonde_select_free(&s);
}

/* A time as decode prints it (the target's seconds: ts / ts_freq) selects
 * the records it names; two ends in one unit are checked at once; a window
 * beside the trace says the trace's range. */
static void test_window_absolute(void **state)
{
	(void)state;
	struct sonde_select s;
	struct sonde_session ss = { .ts_freq = 1000000, .have_origin = 1, .origin = 1017148405 };
	char err[400];
	sonde_select_init(&s);
	/* "1017.148405000" and "1017.148407" as the text format shows them */
	assert_int_equal(sonde_select_option(&s, "from", "1017.148405000", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "to", "1017.148407", err, sizeof(err)), 0);
	struct sonde_event e = ev_at(SONDE_EV_MARK, 1017148404, 0);
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.ts = 1017148405;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.ts = 1017148407;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.ts = 1017148408;
	assert_false(sonde_select_accept(&s, &e, &ss));
	assert_false(sonde_select_window_empty(&s, err, sizeof(err)));
	sonde_select_free(&s);

	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "from", "2", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "to", "1", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "before"));
	sonde_select_free(&s);
	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "to", "+1ms", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "from", "+2ms", err, sizeof(err)), -1);
	assert_int_equal(sonde_select_option(&s, "from", "2000t", err, sizeof(err)), 0); /* other unit: later */
	sonde_select_free(&s);

	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "from", "2", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "to", "3", err, sizeof(err)), 0);
	e.ts = 1017148405;
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.ts = 1017648405;
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.ts_flags = 0; /* untimed: inside, but not a record of the window */
	assert_true(sonde_select_accept(&s, &e, &ss));
	assert_true(sonde_select_window_empty(&s, err, sizeof(err)));
	assert_non_null(strstr(err, "from 1017.148405000 to 1017.648405000 s"));
	assert_non_null(strstr(err, "+0.000000000 to +0.500000000 s"));
	assert_non_null(strstr(err, "1017148405t to 1017648405t"));
	sonde_select_free(&s);
}

static void test_cores_filters(void **state)
{
	(void)state;
	struct sonde_select s;
	struct sonde_session ss = { 0 };
	char err[128];
	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "core", "0,2-3", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "filter", "kind=isr_*,task_in", err, sizeof(err)), 0);
	assert_int_equal(sonde_select_option(&s, "filter", "!obj=UART*", err, sizeof(err)), 0);
	struct sonde_event e = ev_at(SONDE_EV_ISR_ENTER, 1, 0);
	e.obj = 5;
	e.obj_name = "TIMER";
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.core = 1;
	assert_false(sonde_select_accept(&s, &e, &ss));
	e.core = 3;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.obj_name = "UART_RX";
	assert_false(sonde_select_accept(&s, &e, &ss));
	e = ev_at(SONDE_EV_TASK_OUT, 1, 2);
	assert_false(sonde_select_accept(&s, &e, &ss));
	assert_int_equal(sonde_select_option(&s, "core", "3-1", err, sizeof(err)), -1);
	assert_int_equal(sonde_select_option(&s, "filter", "colour=red", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "colour"));
	assert_int_equal(sonde_select_option(&s, "filter", "kind=", err, sizeof(err)), -1);
	sonde_select_free(&s);

	sonde_select_init(&s);
	assert_int_equal(sonde_select_option(&s, "filter", "obj=7", err, sizeof(err)), 0);
	e = ev_at(SONDE_EV_COUNTER, 1, 0);
	e.obj = 7;
	assert_true(sonde_select_accept(&s, &e, &ss));
	e.kind = SONDE_EV_IDLE; /* no object */
	assert_false(sonde_select_accept(&s, &e, &ss));
	sonde_select_free(&s);
}

/* The texts each filter field matches, as the report's search keys them. */
static void test_select_fields(void **state)
{
	(void)state;
	struct sel_fields x;
	struct sonde_event e = ev_at(SONDE_EV_FUNC_ENTER, 1, 0);
	e.rec_name = "FUNC_ENTER_A";
	e.obj = 0x8000123;
	e.flags = SONDE_EVF_ADDR;
	sonde_select_fields(&e, &x);
	assert_string_equal(x.text[SEL_KIND][0], "func_enter");
	assert_string_equal(x.text[SEL_NAME][0], "FUNC_ENTER_A");
	assert_null(x.text[SEL_NAME][1]);
	assert_string_equal(x.text[SEL_OBJ][0], "134218019");
	assert_null(x.text[SEL_OBJ][1]); /* no name */
	assert_string_equal(x.text[SEL_OBJ][2], "0x8000123");
	e = ev_at(SONDE_EV_LOG, 1, 0);
	e.rec_name = "LOG";
	e.text = "late by 3 us";
	sonde_select_fields(&e, &x);
	assert_string_equal(x.text[SEL_NAME][1], "late by 3 us"); /* name= matches a log's text */
	assert_null(x.text[SEL_OBJ][0]);                         /* a log has no object */
	e = ev_at(SONDE_EV_ISR_EXIT, 1, 0);
	e.obj = 3;
	e.obj_name = "TIMER0";
	sonde_select_fields(&e, &x);
	assert_string_equal(x.text[SEL_OBJ][0], "3");
	assert_string_equal(x.text[SEL_OBJ][1], "TIMER0");
	assert_null(x.text[SEL_OBJ][2]);
	e.flags = SONDE_EVF_NO_OBJ; /* after a loss: the object is not known */
	sonde_select_fields(&e, &x);
	assert_null(x.text[SEL_OBJ][0]);
	assert_null(x.text[SEL_OBJ][1]);
}

static void test_fields(void **state)
{
	(void)state;
	static struct sfields f;
	struct sonde_arg a[3];
	memset(a, 0, sizeof(a));
	assert_string_equal(sfields_name(&f, "temp(celsius, raw)"), "temp");
	assert_int_equal(f.n, 2);
	a[1].name = "own";
	sfields_apply(&f, a, 3);
	assert_string_equal(a[0].name, "celsius");
	assert_string_equal(a[1].name, "own"); /* a name of its own wins */
	assert_null(a[2].name);
	assert_string_equal(sfields_name(&f, "Packet"), "Packet");
	assert_int_equal(f.n, 0);
	/* not a field list: taken whole */
	assert_string_equal(sfields_name(&f, "f(a b)"), "f(a b)");
	assert_string_equal(sfields_name(&f, "f(a,)"), "f(a,)");
	assert_string_equal(sfields_name(&f, "(a)"), "(a)");
	assert_string_equal(sfields_name(&f, "x (y)"), "x");
	assert_int_equal(f.n, 1);
	assert_string_equal(f.field[0], "y");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_window_absolute),
		cmocka_unit_test(test_cores_filters),
		cmocka_unit_test(test_select_fields),
		cmocka_unit_test(test_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
