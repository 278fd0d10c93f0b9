/*
 * test_sqlite_sink.c -- the SQLite sink (sink_sqlite.c, sqlite_db.c,
 * sqlite_rows.c, sqlite_spans.c) on hand-built events, read back with
 * SQLite: every argument type as SQLite stores it (64-bit values above
 * 2^63, NaN, text, blobs, enums), the NULL rules of `records`, the slices of
 * a task run interrupted by an ISR and calling a function, nested and
 * unmatched marker spans, a run with a loss inside, rows beyond the
 * multi-row statements, diagnostics, and a path that cannot be written.
 * The queries of docs/sql.md run on real traces in
 * tests/e2e/test_sqlite_export.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "pipeline.h"
#include "sink_run.h"

extern const struct sonde_sink_ops sonde_sink_sqlite;

static sqlite3 *db;

/* The single value of a query, as text ("NULL" for NULL). */
static const char *q(const char *sql)
{
	static char buf[256];
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) != SQLITE_ROW)
		fail_msg("%s: no row", sql);
	const unsigned char *t = sqlite3_column_text(st, 0);
	snprintf(buf, sizeof(buf), "%s", t ? (const char *)t : "NULL");
	sqlite3_finalize(st);
	return buf;
}

static void put(void *s, const struct sonde_session *ss, struct sonde_event e)
{
	sonde_sink_sqlite.event(s, &e, ss);
}

static struct sonde_event ev(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name, int64_t value)
{
	struct sonde_event e = sink_ev(k, ts, obj, name);
	e.value = value;
	return e;
}

static void test_export(void **state)
{
	static const uint8_t mem[] = { 0x00, 0x7e, 0x7d };
	struct sonde_arg args[] = {
		{ .type = SONDE_A_U64, .name = "big", .v.u = UINT64_MAX },
		{ .type = SONDE_A_I16, .name = "neg", .v.i = -5 },
		{ .type = SONDE_A_F64, .name = "nan", .v.f = NAN },
		{ .type = SONDE_A_F32, .v.f = 2.5 },
		{ .type = SONDE_A_STR, .name = "s", .v.mem = { (const uint8_t *)"hey", 3 } },
		{ .type = SONDE_A_MEM, .name = "m", .v.mem = { mem, 3 } },
		{ .type = SONDE_A_ENUM, .name = "e", .group = 2, .resolved = "RED", .v.u = 1 },
		{ .type = SONDE_A_BOOL, .name = "b", .v.u = 1 },
	};
	struct sonde_session ss = { .proto = "sonde", .ts_freq = 1000, .have_origin = 1, .origin = 100, .frames = 7 };
	struct sonde_diag dg = { SONDE_D_BAD_CHECKSUM, 1234, 56, 1, "bad checksum" };
	char path[] = "/tmp/sonde_test_sqlite_XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd); /* an existing file is replaced */
	void *s = sonde_sink_sqlite.create_at(path, NULL);
	assert_non_null(s);
	struct sonde_event info = ev(SONDE_EV_INFO, 0, 0, NULL, 0);
	info.ts_flags = 0;
	info.rec_name = "TARGET_INFO";
	info.nargs = sizeof(args) / sizeof(args[0]);
	info.args = args;
	put(s, &ss, info);
	/* a run of task 1: an ISR inside it, then a call */
	put(s, &ss, ev(SONDE_EV_TASK_IN, 100, 1, "T", 0));
	put(s, &ss, ev(SONDE_EV_ISR_ENTER, 110, 5, "IRQ", 1));
	put(s, &ss, ev(SONDE_EV_ISR_EXIT, 115, 5, "IRQ", 1));
	put(s, &ss, ev(SONDE_EV_FUNC_ENTER, 120, 7, "fn", 1));
	put(s, &ss, ev(SONDE_EV_FUNC_EXIT, 130, 7, "fn", 1));
	put(s, &ss, ev(SONDE_EV_TASK_OUT, 150, 1, "T", 0));
	/* marker spans: nested, an end too many, one left open */
	put(s, &ss, ev(SONDE_EV_MARK_BEGIN, 160, 3, "m", 0));
	put(s, &ss, ev(SONDE_EV_MARK_BEGIN, 161, 3, "m", 0));
	put(s, &ss, ev(SONDE_EV_MARK_END, 165, 3, "m", 0));
	put(s, &ss, ev(SONDE_EV_MARK_END, 170, 3, "m", 0));
	put(s, &ss, ev(SONDE_EV_MARK_END, 171, 3, "m", 0));
	put(s, &ss, ev(SONDE_EV_MARK_BEGIN, 180, 4, NULL, 0));
	/* a run with records lost inside */
	put(s, &ss, ev(SONDE_EV_TASK_IN, 190, 1, "T", 0));
	struct sonde_event drops = ev(SONDE_EV_DROPS, 200, 0, NULL, 2);
	drops.obj2 = 1;
	put(s, &ss, drops);
	put(s, &ss, ev(SONDE_EV_TASK_OUT, 210, 1, "T", 0));
	sonde_sink_sqlite.diag(s, &dg, &ss);
	/* more rows than one statement takes */
	for (int i = 0; i < 100; i++)
		put(s, &ss, ev(SONDE_EV_COUNTER, 300 + i, 9, "c", i));
	assert_int_equal(sonde_sink_sqlite.finish(s, &ss), 0);
	sonde_sink_sqlite.destroy(s);

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_string_equal(q("SELECT records || ' ' || diagnostics || ' ' || frames || ' ' || origin FROM session"),
			    "116 1 7 100");
	assert_string_equal(q("SELECT count(*) FROM records"), "116");
	/* the untimed record: no time, no object (its kind has none) */
	assert_string_equal(q("SELECT quote(ts) || quote(obj) || kind || record FROM records WHERE id = 1"),
			    "NULLNULLinfoTARGET_INFO");
	assert_string_equal(q("SELECT group_concat(typeof(value) || ':' || quote(value), ' ') FROM args WHERE record = 1"),
			    "integer:-1 integer:-5 null:NULL real:2.5 text:'hey' blob:X'007E7D' integer:1 integer:1");
	assert_string_equal(q("SELECT quote(name) FROM args WHERE record = 1 AND idx = 3"), "NULL");
	assert_string_equal(q("SELECT printf('%x', value) FROM args WHERE record = 1 AND idx = 0"), "ffffffffffffffff");
	assert_string_equal(q("SELECT resolved || grp FROM args WHERE record = 1 AND type = 'enum'"), "RED2");
	/* the first run: 50 ticks, 5 of them in the ISR; the call inside it */
	assert_string_equal(q("SELECT start || ' ' || stop || ' ' || dur || ' ' || cpu || ' ' || complete FROM slices"
			      " WHERE kind = 'task' ORDER BY start LIMIT 1"), "100 150 50 45 1");
	assert_string_equal(q("SELECT name || ' ' || cpu || ' ' || depth FROM slices WHERE kind = 'isr'"), "IRQ 5 1");
	assert_string_equal(q("SELECT name || ' ' || cpu || ' ' || self || ' ' || ctx_kind || ' ' || ctx || ' ' || depth"
			      " FROM slices WHERE kind = 'func'"), "fn 10 10 task 1 1");
	/* the second run lost records: incomplete */
	assert_string_equal(q("SELECT complete FROM slices WHERE kind = 'task' AND start = 190"), "0");
	/* the time between the runs went to no task */
	assert_string_equal(q("SELECT cpu FROM slices WHERE kind = 'notask' AND start = 150"), "40");
	/* marker spans: inner, outer, the open one closed at the end, incomplete */
	assert_string_equal(q("SELECT group_concat(name || ':' || start || '-' || stop || '/' || depth || '/' || complete, ' ')"
			      " FROM (SELECT * FROM slices WHERE kind = 'mark' ORDER BY id)"),
			    "m:161-165/2/1 m:160-170/1/1 marker #4:180-399/1/0");
	/* the tables of names and the views */
	assert_string_equal(q("SELECT task || name FROM tasks"), "1T");
	assert_string_equal(q("SELECT isr || name FROM isrs"), "5IRQ");
	assert_string_equal(q("SELECT name || kind FROM functions"), "fnname");
	assert_string_equal(q("SELECT first || ' ' || last || ' ' || traced FROM cores"), "100 399 299");
	assert_string_equal(q("SELECT count(*) || ' ' || max(value) FROM counters WHERE name = 'c'"), "100 99");
	assert_string_equal(q("SELECT overwritten_total || ' ' || refused_total FROM drops"), "2 1");
	/* the diagnostic: after the record before it, at its time */
	assert_string_equal(q("SELECT code || ' ' || offset || ' ' || frame || ' ' || after || ' ' || ts FROM diagnostics"),
			    "bad-checksum 1234 56 16 210");
	assert_string_equal(q("PRAGMA integrity_check"), "ok");
	sqlite3_close(db);
	unlink(path);
}

static void test_cannot_write(void **state)
{
	(void)state;
	errno = 0;
	assert_null(sonde_sink_sqlite.create_at("/nonexistent-dir-for-sonde/t.db", NULL));
	assert_true(errno != 0 && errno != EINVAL); /* an I/O error, not a usage error */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_cannot_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
