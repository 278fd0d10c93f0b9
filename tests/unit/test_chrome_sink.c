/*
 * test_chrome_sink.c -- the chrome sink (sink_chrome.c, trackmap.c,
 * chrome_writer.c): hand-built event sequences are written to a temporary
 * file and compared byte for byte with the expected JSON; a longer generated
 * sequence with hostile strings is parsed by Python's json module and checked
 * for balanced slices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline.h"
#include "sink_run.h"
#include "sonde_proto.h"
#include "test_file.h"

extern const struct sonde_sink_ops sonde_sink_chrome;


static void expect_text(const char *got, const char *want)
{
	if (strcmp(got, want) != 0) {
		fprintf(stderr, "--- got:\n%s--- want:\n%s", got, want);
		fail_msg("JSON differs");
	}
}

/* The mapping, byte for byte: metadata, B/E, instants with args, counters,
 * microsecond times with three decimals, escapes. */
static void test_exact(void **state)
{
	struct sink_run r;
	struct sonde_event e;
	struct sonde_arg args[] = {
		{ .type = SONDE_A_F32, .name = "nan", .v.f = NAN },
		{ .type = SONDE_A_F64, .name = "x", .v.f = 0.1 },
		{ .type = SONDE_A_MEM, .name = "m", .v.mem = { (const uint8_t *)"\x7e\x00", 2 } },
		{ .type = SONDE_A_I8, .v.i = -3 },
	};
	char *text;

	(void)state;
	sink_run_open(&r, &sonde_sink_chrome, NULL, 32768);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 1, 1, "t\"1\""));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 2, 5, "f"));
	e = sink_ev(SONDE_EV_ISR_ENTER, 3, 9, "irq\n");
	e.value = 1;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_LOG, 4, 0, NULL);
	e.level = SONDE_LVL_ERROR;
	e.text = "bad \xff\x01 \\ end";
	e.nargs = 4;
	e.args = args;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_ISR_EXIT, 5, 9, NULL);
	e.value = 1;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_TASK_OUT, 6, 1, NULL);
	e.obj2 = SONDE_TASK_SUSPENDED;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_COUNTER, 7, 2, "t\xC3\xA4mp");
	e.value = -40;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	text = (char *)test_slurp(r.path, NULL);
	expect_text(text,
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"Core 0\"}},\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1001,\"name\":\"thread_name\",\"args\":{\"name\":\"t\\\"1\\\"\"}},\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1002,\"name\":\"thread_name\",\"args\":{\"name\":\"t\\\"1\\\" state\"}},\n"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1002,\"ts\":30.517,\"cat\":\"state\",\"name\":\"Running\"},\n"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1001,\"ts\":30.517,\"cat\":\"sched\",\"name\":\"Running\"},\n"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1001,\"ts\":61.035,\"cat\":\"func\",\"name\":\"f\"},\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1003,\"name\":\"thread_name\",\"args\":{\"name\":\"ISRs\"}},\n"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1003,\"ts\":91.552,\"cat\":\"isr\",\"name\":\"irq\\n\"},\n"
		"{\"ph\":\"i\",\"pid\":1,\"tid\":1003,\"ts\":122.070,\"s\":\"t\",\"cat\":\"log\","
		"\"name\":\"bad \xEF\xBF\xBD\\u0001 \\\\ end\",\"args\":{\"nan\":\"NaN\","
		"\"x\":0.1,\"m\":\"7e00\",\"arg3\":-3,\"level\":\"error\"}},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1003,\"ts\":152.587,\"name\":\"irq\\n\"},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1001,\"ts\":183.105,\"name\":\"f\"},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1001,\"ts\":183.105,\"name\":\"Running\"},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1002,\"ts\":183.105,\"name\":\"Running\"},\n"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1002,\"ts\":183.105,\"cat\":\"state\",\"name\":\"Suspended\"},\n"
		"{\"ph\":\"C\",\"pid\":1,\"ts\":213.623,\"name\":\"t\xC3\xA4mp\",\"args\":{\"value\":-40}}\n"
		"],\"otherData\":{\"producer\":\"sonde " SONDE_VERSION "\",\"clock\":\"target time in ns\"}}\n");
	free(text);
	unlink(r.path);
}

/* No clock rate: ticks become ns and otherData says so; options apply. */
/* What a file without any slice ends with: one empty slice, for speedscope. */
#define NO_SLICES \
	"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"diag\",\"name\":\"No slices in this trace\"},\n" \
	"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"diag\",\"name\":\"No slices in this trace\"}"

static void test_ticks_and_name(void **state)
{
	static const char *const opts[] = { "chrome.name=my \"board\"", NULL };
	struct sink_run r;
	char *text;

	(void)state;
	sink_run_open(&r, &sonde_sink_chrome, opts, 0);
	sink_run_put(&r, sink_ev(SONDE_EV_MARK, 1500, 3, NULL));
	assert_int_equal(sink_run_close(&r), 0);
	text = (char *)test_slurp(r.path, NULL);
	expect_text(text,
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"my \\\"board\\\" core 0\"}},\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1001,\"name\":\"thread_name\",\"args\":{\"name\":\"Trace diagnostics\"}},\n"
		"{\"ph\":\"i\",\"pid\":1,\"tid\":1001,\"ts\":1.500,\"s\":\"t\",\"cat\":\"diag\","
		"\"name\":\"Clock rate unknown: 1 tick is shown as 1 ns\"},\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1002,\"name\":\"thread_name\",\"args\":{\"name\":\"Marker #3\"}},\n"
		"{\"ph\":\"i\",\"pid\":1,\"tid\":1002,\"ts\":1.500,\"s\":\"t\",\"cat\":\"mark\",\"name\":\"Marker #3\"},\n"
		NO_SLICES "\n"
		"],\"otherData\":{\"producer\":\"sonde " SONDE_VERSION "\","
		"\"clock\":\"target ticks shown as ns (clock rate unknown)\"}}\n");
	free(text);
	unlink(r.path);
}

/* An empty run is still a valid document. */
static void test_empty(void **state)
{
	struct sink_run r;
	char *text;

	(void)state;
	sink_run_open(&r, &sonde_sink_chrome, NULL, 1000);
	assert_int_equal(sink_run_close(&r), 0);
	text = (char *)test_slurp(r.path, NULL);
	expect_text(text, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" NO_SLICES "\n],\"otherData\":"
		    "{\"producer\":\"sonde " SONDE_VERSION "\",\"clock\":\"target time in ns\"}}\n");
	free(text);
	unlink(r.path);
}

/* Python's json module: the document parses, every event has the required
 * keys, B/E balance per thread, every thread is named before use. */
static const char py_check[] =
	"import json,sys\n"
	"d=json.load(open(sys.argv[1],encoding='utf-8'))\n"
	"ev=d['traceEvents']; depth={}; named=set(); n={}\n"
	"for e in ev:\n"
	"  ph=e['ph']; n[ph]=n.get(ph,0)+1\n"
	"  if ph=='M':\n"
	"    if e['name']=='thread_name': named.add((e['pid'],e['tid']))\n"
	"    continue\n"
	"  assert isinstance(e['ts'],float), e\n"
	"  if ph=='C': assert isinstance(e['args']['value'],int); continue\n"
	"  k=(e['pid'],e['tid']); assert k in named, e\n"
	"  if ph=='B': assert isinstance(e['name'],str); depth[k]=depth.get(k,0)+1\n"
	"  if ph=='E': depth[k]-=1; assert depth[k]>=0, e\n"
	"print(' '.join('%s=%d'%(p,n[p]) for p in sorted(n)), sum(depth.values()))\n";

static void test_python_json(void **state)
{
	struct sink_run r;
	struct sonde_event e;
	uint32_t x = 12345;
	char names[8][16], cmd[512], out[256];
	FILE *p;
	static const char hostile[] = "q\"\\/\b\f\n\r\t\x01\x1f\x7f\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x80\xa8";
	struct sonde_arg args[2] = {
		{ .type = SONDE_A_STR, .name = hostile, .v.mem = { (const uint8_t *)hostile, sizeof(hostile) } },
		{ .type = SONDE_A_F64, .name = "inf", .v.f = -INFINITY },
	};

	(void)state;
	if (access("/usr/bin/python3", X_OK) != 0)
		fail_msg("python3 is needed to check the JSON");
	for (int i = 0; i < 8; i++)
		snprintf(names[i], sizeof(names[i]), i & 1 ? "n%d\"\x01" : "n%d\xff", i);
	sink_run_open(&r, &sonde_sink_chrome, NULL, 48000000);
	for (uint64_t t = 0; t < 20000; t++) {
		static const enum sonde_ev_kind kinds[] = {
			SONDE_EV_TASK_IN, SONDE_EV_TASK_OUT, SONDE_EV_IDLE, SONDE_EV_ISR_ENTER,
			SONDE_EV_ISR_EXIT, SONDE_EV_FUNC_ENTER, SONDE_EV_FUNC_EXIT, SONDE_EV_MARK_BEGIN,
			SONDE_EV_MARK_END, SONDE_EV_COUNTER, SONDE_EV_LOG, SONDE_EV_RECORD, SONDE_EV_QUEUE,
			SONDE_EV_TASK_READY, SONDE_EV_MARK, SONDE_EV_DROPS, SONDE_EV_OBJ_OP,
			SONDE_EV_OBJECT, SONDE_EV_TASK_PRIO,
		};
		x = x * 1103515245u + 12345u;
		e = sink_ev(kinds[(x >> 8) % 19], t * 10, (x >> 16) % 4, names[(x >> 20) % 8]);
		e.obj2 = (x >> 24) % 4;
		if (e.kind == SONDE_EV_OBJ_OP || e.kind == SONDE_EV_OBJECT) { /* RTOS objects: mutexes, queues, sends */
			e.obj2 = (x >> 24) % 2 ? SONDE_OBJK_MUTEX : SONDE_OBJK_QUEUE;
			e.op = (x >> 25) % 2 ? SONDE_OP_SEND : SONDE_OP_RECEIVE;
			e.flags = SONDE_EVF_LEVEL;
		}
		e.value = (x >> 4) % 3;
		e.core = (x >> 28) % 2;
		e.text = hostile;
		e.rec_name = hostile;
		e.nargs = 2;
		e.args = args;
		sink_run_put(&r, e);
	}
	assert_int_equal(sink_run_close(&r), 0);
	snprintf(cmd, sizeof(cmd), "python3 -c \"$SONDE_PY\" %s", r.path);
	setenv("SONDE_PY", py_check, 1);
	p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	assert_int_equal(pclose(p), 0);
	fprintf(stderr, "python: %s", out);
	assert_non_null(strstr(out, "B="));
	assert_non_null(strstr(out, "E="));
	assert_non_null(strstr(out, "C="));
	assert_non_null(strstr(out, "i="));
	assert_non_null(strstr(out, "s=")); /* flows from sends to receives */
	assert_non_null(strstr(out, "f="));
	unlink(r.path);
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "wb");
	void *s;
	struct sonde_session ss = { .ts_freq = 1000 };
	struct sonde_event e = sink_ev(SONDE_EV_MARK, 1, 1, "m");

	(void)state;
	if (!f)
		skip();
	s = sonde_sink_chrome.create(f, NULL);
	assert_non_null(s);
	for (int i = 0; i < 1000; i++)
		sonde_sink_chrome.event(s, &e, &ss);
	assert_int_equal(sonde_sink_chrome.finish(s, &ss), -1);
	sonde_sink_chrome.destroy(s);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_ticks_and_name),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_python_json),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
