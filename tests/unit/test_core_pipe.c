/*
 * test_core_pipe.c -- the generic driver end to end in the library: a file
 * source read in chunks, the Sonde decoder, the text, JSONL and CSV sinks
 * (checked byte for byte), the statistics listener, and the exit statuses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/stats.h"
#include "core/pipe.h"
#include "core/select.h"
#include "sources/source.h"
#include "test_sonde_helpers.h"

static char path[64];

static void write_file(const struct tbuf *w)
{
	snprintf(path, sizeof(path), "/tmp/test_core_pipe.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, w->p, w->n), (ssize_t)w->n);
	close(fd);
}

/* Records counted by the statistics of the last decode_to, those the
 * decoder tallied included. */
static uint64_t records_total;

/* Decode path with one sink into a memory buffer; returns the exit status. */
static int decode_to(const char *format, char **text, struct sonde_stats *st)
{
	size_t len;
	FILE *out = open_memstream(text, &len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = NULL;
	if (format)
		assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find(format), out), 0);
	if (st) {
		struct sonde_listener l = sonde_stats_listener(st);
		assert_int_equal(sonde_pipe_add_listener(&p, &l), 0);
	}
	struct sonde_source src;
	assert_int_equal(sonde_source_open_file(&src, path), 0);
	int rc = sonde_pipe_run(&p, &src, "auto");
	src.close(&src);
	if (st) {
		assert_int_equal(sonde_stats_print(st, &p, out), 0);
		struct sonde_stats_totals t;
		sonde_stats_totals(st, &p.session, &t);
		records_total = t.records;
	}
	sonde_pipe_destroy(&p);
	fclose(out);
	return rc;
}

static struct tstream s;

static void build_v(unsigned version)
{
	ts_init_v(&s, 0, version);
	ts_session(&s, 1000000, 4);
	ts_dict(&s, SONDE_DICT_ISR, 3, "UART");
	ts_dict(&s, SONDE_DICT_FORMAT, 1, "v=%d");
	ts_sync(&s, 0x1000, TS_UNKNOWN);
	const uint8_t isr[] = { 3 };
	ts_timed(&s, SONDE_REC_ISR_ENTER, 0x1000, isr, 1);
	const uint8_t log[] = { SONDE_LVL_INFO, 1, 0, SONDE_ARG_I32, 0xFB, 0xFF, 0xFF, 0xFF };
	ts_timed(&s, SONDE_REC_LOG, 0x1010, log, sizeof(log));
	const uint8_t user[] = { SONDE_ARG_U8, 1, SONDE_ARG_STR, 'a', '"', 'b', ',', 0 };
	ts_timed(&s, 0x40, 0x1020, user, sizeof(user));
	ts_timed(&s, SONDE_REC_ISR_EXIT, 0x1030, NULL, 0);
	write_file(&s.wire);
}

static void build(void)
{
	build_v(SONDE_PROTO_VERSION);
}

/* Protocol versions 2 and 1 give the same text but for TARGET_INFO. */
static void test_text(void **state)
{
	unsigned v = *(const unsigned *)*state;
	build_v(v);
	char *text, info[256];
	assert_int_equal(decode_to("text", &text, NULL), SONDE_EXIT_OK);
	snprintf(info, sizeof(info),
		 "           -               - TARGET_INFO version=%u big_endian=false reset=true addr_size=4 "
		 "mode=\"overwrite\" core=0 ts_size=%u ts_freq=1000000 buffer_size=4096 build_id=0xb01dface\n",
		 v, v == 1 ? 2 : 0);
	char want[1024];
	snprintf(want, sizeof(want), "%s%s%s", "           -               - EMPTY\n", info,
		"           -               - DICT id=3 dict_kind=ISR name=\"UART\"\n"
		"           -               - DICT id=1 dict_kind=FORMAT name=\"v=%d\"\n"
		"        4096     0.004096000 TIME_SYNC since_prev=\"unknown\"\n"
		"        4096     0.004096000 ISR_ENTER isr=3(UART) depth=1\n"
		"        4112     0.004112000 LOG level=info msg=\"v=-5\"\n"
		"        4128     0.004128000 USER_0x40 1 \"a\\\"b,\"\n"
		"        4144     0.004144000 ISR_EXIT isr=3(UART) depth=1\n");
	assert_string_equal(text, want);
	free(text);
	unlink(path);
	tb_free(&s.wire);
}

/* Names from the wire cannot break the one-line-per-record layout. */
static void test_text_escapes_names(void **state)
{
	(void)state;
	ts_init(&s, 0);
	ts_session(&s, 1000000, 4);
	ts_dict(&s, SONDE_DICT_MARKER, 1, "two\nlines");
	ts_dict(&s, SONDE_DICT_RECORD, 0x41, "rec\tname");
	ts_sync(&s, 10, TS_UNKNOWN);
	const uint8_t one[] = { 1 };
	ts_timed(&s, SONDE_REC_MARK, 10, one, 1);
	const uint8_t str[] = { SONDE_ARG_STR, 'a', '\n', 0x7F, 0 };
	ts_timed(&s, 0x41, 11, str, sizeof(str));
	write_file(&s.wire);
	char *text;
	assert_int_equal(decode_to("text", &text, NULL), SONDE_EXIT_OK);
	assert_non_null(strstr(text, "\n          10     0.000010000 MARK marker=1(two\\x0alines)\n"));
	assert_non_null(strstr(text, "\n          11     0.000011000 rec\\x09name \"a\\n\\x7f\"\n"));
	assert_non_null(strstr(text, " DICT id=1 dict_kind=MARKER name=\"two\\nlines\"\n"));
	free(text);
	unlink(path);
	tb_free(&s.wire);
}

static void test_jsonl(void **state)
{
	(void)state;
	build();
	char *text, line[1024];
	assert_int_equal(decode_to("jsonl", &text, NULL), SONDE_EXIT_OK);
	snprintf(line, sizeof(line),
		 "{\"offset\":%llu,\"frame\":5,\"seq\":5,\"ts\":4096,\"seconds\":0.004096000,\"estimated\":false,"
		 "\"core\":0,\"kind\":\"isr_enter\",\"rec_id\":5,\"record\":\"ISR_ENTER\",\"isr\":3,"
		 "\"isr_name\":\"UART\",\"depth\":1}\n",
		 (unsigned long long)s.starts[5]);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line),
		 "{\"offset\":%llu,\"frame\":6,\"seq\":6,\"ts\":4112,\"seconds\":0.004112000,\"estimated\":false,"
		 "\"core\":0,\"kind\":\"log\",\"rec_id\":19,\"record\":\"LOG\",\"level\":3,\"level_name\":\"info\","
		 "\"msg\":\"v=-5\",\"args\":[{\"type\":\"i32\",\"value\":-5}]}\n",
		 (unsigned long long)s.starts[6]);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line),
		 "{\"offset\":%llu,\"frame\":7,\"seq\":7,\"ts\":4128,\"seconds\":0.004128000,\"estimated\":false,"
		 "\"core\":0,\"kind\":\"record\",\"rec_id\":64,\"record\":\"USER_0x40\",\"args\":[{\"type\":\"u8\","
		 "\"value\":1},{\"type\":\"str\",\"value\":\"a\\\"b,\"}]}\n",
		 (unsigned long long)s.starts[7]);
	assert_non_null(strstr(text, line));
	assert_non_null(strstr(text, "\"record\":\"EMPTY\"}\n{"));
	size_t lines = 0;
	for (char *c = text; *c; c++)
		lines += *c == '\n';
	assert_int_equal(lines, 9);
	free(text);
	unlink(path);
	tb_free(&s.wire);
}

static void test_csv(void **state)
{
	(void)state;
	build();
	char *text, line[1024];
	assert_int_equal(decode_to("csv", &text, NULL), SONDE_EXIT_OK);
	assert_memory_equal(text,
			    "offset,frame,seq,ts,seconds,estimated,core,kind,rec_id,record,obj,obj_name,obj2,"
			    "obj2_name,value,level,text,args\r\n0,0,0,,,0,0,info,0,EMPTY,,,,,,,,\r\n", 115);
	snprintf(line, sizeof(line), "\r\n%llu,7,7,4128,0.004128000,0,0,record,64,USER_0x40,,,,,,,,\"1 \"\"a\\\"\"b,\"\"\"\r\n",
		 (unsigned long long)s.starts[7]);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line), "\r\n%llu,2,2,,,0,0,dict,4,DICT,3,,3,ISR,,,UART,\r\n",
		 (unsigned long long)s.starts[2]);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line), "\r\n%llu,6,6,4112,0.004112000,0,0,log,19,LOG,,,,,,3,v=-5,-5\r\n",
		 (unsigned long long)s.starts[6]);
	assert_non_null(strstr(text, line));
	free(text);
	unlink(path);
	tb_free(&s.wire);
}

static void test_stats_and_status(void **state)
{
	(void)state;
	build();
	char *text;
	struct sonde_stats st;
	sonde_stats_init(&st);
	assert_int_equal(decode_to(NULL, &text, &st), SONDE_EXIT_OK);
	assert_int_equal(records_total, 9);
	/* the statistics alone need no event of the simple records: the
	 * decoder tallied them (test_core_tally.c compares the figures) */
	assert_true(st.records < 9);
	assert_non_null(strstr(text, "\nprotocol               sonde v3\n"));
	assert_non_null(strstr(text, "\nframes                 9\n"));
	assert_non_null(strstr(text, "\n  DICT                 2          (id 0x04)\n"));
	assert_non_null(strstr(text, "\ntime span              48 ticks (0.000048000 s at 1000000 Hz)\n"));
	assert_non_null(strstr(text, "\nrates                  187500.0 records/s, "));
	free(text);
	sonde_stats_free(&st);
	unlink(path);
	/* the same with a lost frame: status 1, and the loss counted */
	struct tbuf w = { 0 };
	tb_put(&w, s.wire.p, s.starts[6]);
	tb_put(&w, s.wire.p + s.starts[7], s.wire.n - s.starts[7]);
	write_file(&w);
	sonde_stats_init(&st);
	assert_int_equal(decode_to(NULL, &text, &st), SONDE_EXIT_STREAM);
	assert_non_null(strstr(text, "\nsequence gaps          1 (1 frames lost)\n"));
	assert_non_null(strstr(text, "\nunexplained lost       1\n"));
	assert_non_null(strstr(text, "\nestimated times        2\n"));
	free(text);
	sonde_stats_free(&st);
	unlink(path);
	tb_free(&w);
	tb_free(&s.wire);
}

static void test_read_error_is_io(void **state)
{
	(void)state;
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = NULL;
	struct sonde_source src;
	assert_int_equal(sonde_source_open_file(&src, "/"), 0); /* a directory: read() fails */
	assert_int_equal(sonde_pipe_run(&p, &src, "sonde"), SONDE_EXIT_IO);
	src.close(&src);
	sonde_pipe_destroy(&p);
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(sonde_source_open_file(&src, "/"), 0);
	assert_int_equal(sonde_pipe_run(&p, &src, "nosuch"), SONDE_EXIT_USAGE);
	src.close(&src);
	sonde_pipe_destroy(&p);
}

/* The text of LOG records is formatted only for someone who reads it: a
 * sink, a listener that does not say no_text, or a selection (whose name
 * filters match it).  Without it the arguments are still checked. */
struct text_seen {
	int logs;
	char text[64]; /* of the last LOG, "(null)" when not formatted */
};

static void text_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct text_seen *t = ctx;
	(void)ss;
	if (ev->kind == SONDE_EV_LOG) {
		t->logs++;
		snprintf(t->text, sizeof(t->text), "%s", ev->text ? ev->text : "(null)");
	}
}

static void run_text(int no_text, int select, struct text_seen *t, uint64_t *malformed)
{
	struct sonde_pipe p;
	struct sonde_select sel;
	char err[128];
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = NULL;
	if (select) {
		sonde_select_init(&sel);
		assert_int_equal(sonde_select_option(&sel, "filter", "name=LOG,v=*", err, sizeof(err)), 0);
		p.select = &sel;
	}
	memset(t, 0, sizeof(*t));
	struct sonde_listener l = { .event = text_event, .ctx = t, .no_text = no_text };
	assert_int_equal(sonde_pipe_add_listener(&p, &l), 0);
	struct sonde_source src;
	assert_int_equal(sonde_source_open_file(&src, path), 0);
	sonde_pipe_run(&p, &src, "auto");
	src.close(&src);
	*malformed = p.diags[SONDE_D_MALFORMED];
	sonde_pipe_destroy(&p);
	if (select)
		sonde_select_free(&sel);
}

static void test_text_only_when_read(void **state)
{
	(void)state;
	build();
	const uint8_t bad[] = { SONDE_LVL_INFO, 1, 0, SONDE_ARG_I32, 0xFB }; /* the i32 cut short */
	ts_timed(&s, SONDE_REC_LOG, 0x1040, bad, sizeof(bad));
	write_file(&s.wire);
	struct text_seen t;
	uint64_t malformed;
	run_text(0, 0, &t, &malformed);
	assert_int_equal(t.logs, 2);
	assert_string_equal(t.text, "v=<?>");
	assert_int_equal(malformed, 1);
	run_text(1, 0, &t, &malformed);
	assert_int_equal(t.logs, 2);
	assert_string_equal(t.text, "(null)");
	assert_int_equal(malformed, 1); /* still checked */
	run_text(1, 1, &t, &malformed);
	assert_int_equal(t.logs, 2); /* the filter matched the text of both */
	assert_string_equal(t.text, "v=<?>");
	unlink(path);
	tb_free(&s.wire);
}

static int native_only(struct sonde_pipe *p)
{
	struct sonde_needs n = sonde_pipe_needs(p);
	/* detail is left out only where the native lines are printed */
	assert_false((n.omit & SONDE_OMIT_DETAIL) && (n.omit & SONDE_OMIT_NATIVE));
	return (n.omit & SONDE_OMIT_DETAIL) != 0;
}

/* Native lines only: the decoders may leave out of the events what nobody
 * reads (SONDE_OMIT_DETAIL in sonde_pipe_needs) -- but only when nobody reads it. */
static void test_native_only_rule(void **state)
{
	struct sonde_pipe p;
	struct sonde_select sel;
	char err[128];
	FILE *out = fopen("/dev/null", "w");
	(void)state;
	assert_non_null(out);
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(native_only(&p), 0); /* no sink at all */
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("qspy"), out), 0);
	assert_int_equal(native_only(&p), 1);
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("tband-jsonl"), out), 0);
	assert_int_equal(native_only(&p), 1);
	sonde_select_init(&sel);
	assert_int_equal(sonde_select_option(&sel, "filter", "name=X", err, sizeof(err)), 0);
	p.select = &sel;
	assert_int_equal(native_only(&p), 0); /* the selection reads names */
	p.select = NULL;
	struct text_seen t;
	struct sonde_listener l = { .event = text_event, .ctx = &t };
	assert_int_equal(sonde_pipe_add_listener(&p, &l), 0);
	assert_int_equal(native_only(&p), 0); /* a listener reads events */
	sonde_pipe_destroy(&p);
	sonde_select_free(&sel);
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("syst-csv"), out), 0);
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("jsonl"), out), 0);
	assert_int_equal(native_only(&p), 0); /* jsonl prints the fields */
	sonde_pipe_destroy(&p);
	fclose(out);
}

/* The native lines of a capture, with or without a listener that makes the
 * decoder fill in everything: the same bytes; the listener sees the
 * arguments. */
static size_t args_seen;

static void count_args(void *ctx, const struct sonde_event *ev, const struct sonde_session *ss)
{
	(void)ctx;
	(void)ss;
	args_seen += ev->nargs;
}

static char *native_of(const char *file, const char *proto, const char *format, int listen)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = NULL;
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find(format), out), 0);
	struct sonde_listener l = { .event = count_args };
	if (listen)
		assert_int_equal(sonde_pipe_add_listener(&p, &l), 0);
	assert_int_equal(native_only(&p), !listen);
	struct sonde_source src;
	assert_int_equal(sonde_source_open_file(&src, file), 0);
	sonde_pipe_run(&p, &src, proto);
	src.close(&src);
	sonde_pipe_destroy(&p);
	fclose(out);
	return text;
}

static void test_native_only_same_lines(void **state)
{
	static const char *const cases[][3] = {
		{ "qs/qsfmt_user_formats_x86.bin", "qs", "qspy" },
		{ "qs/dpp_posix-qv_x86.bin", "qs", "qspy" },
		{ "tband/repo_examples_POSIX_FreeRTOS_log.bin", "tband", "tband-jsonl" },
		{ "syst/mix_64.bin", "syst", "syst-csv" },
	};
	const char *dir = getenv("SONDE_TESTDATA");
	(void)state;
	if (!dir || !*dir)
		dir = SONDE_TESTDATA;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char file[512];
		snprintf(file, sizeof(file), "%s/%s", dir, cases[i][0]);
		if (access(file, R_OK) != 0) {
			print_message("skipped: %s is not there\n", file);
			continue;
		}
		args_seen = 0;
		char *alone = native_of(file, cases[i][1], cases[i][2], 0);
		char *full = native_of(file, cases[i][1], cases[i][2], 1);
		assert_true(strlen(alone) > 1000);
		assert_string_equal(alone, full);
		assert_true(args_seen > 0);
		free(alone);
		free(full);
	}
}

int main(void)
{
	static const unsigned v1 = 1, v2 = 2;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_text, (void *)&v2),
		cmocka_unit_test_prestate(test_text, (void *)&v1),
		cmocka_unit_test(test_text_escapes_names),
		cmocka_unit_test(test_jsonl),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_stats_and_status),
		cmocka_unit_test(test_read_error_is_io),
		cmocka_unit_test(test_text_only_when_read),
		cmocka_unit_test(test_native_only_rule),
		cmocka_unit_test(test_native_only_same_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
