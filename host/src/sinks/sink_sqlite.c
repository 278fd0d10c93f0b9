/*
 * sink_sqlite.c -- `--format sqlite --output trace.db`: the trace as an
 * SQLite database, for questions no fixed report answers (docs/sql.md).
 *
 * Tables: session (one row), records + args (every event, as JSONL has
 * it), slices (task runs, idle/no-task periods, ISR activations, function
 * calls, marker spans; sqlite_spans.c), tasks, isrs, functions, cores,
 * diagnostics; views markers, counters, drops, logs.  The database is
 * written as the events come (sqlite_db.c: prepared statements,
 * transactions of SQLW_BATCH rows), so memory stays
 * bounded however long the trace.
 */
#include <errno.h>
#include <stdlib.h>

#include "pipeline.h"
#include "sqlite_db.h"
#include "sqlite_rows.h"
#include "sqlite_spans.h"

#define SONDE_SQL_SCHEMA 1

struct sink_sqlite {
	struct sqlw w;
	struct sqls spans;
	int64_t nrec;         /* id of the last record */
	uint64_t ndiag;
	int have_ts;          /* the time and core of the last record, for diagnostics */
	uint64_t last_ts;
	uint32_t last_core;
};

static void sink_sqlite_destroy(void *vs)
{
	struct sink_sqlite *s = vs;

	if (!s)
		return;
	sqls_free(&s->spans);
	sqlw_close(&s->w);
	free(s);
}

static void *sink_sqlite_create_at(const char *path, sonde_opts opts)
{
	struct sink_sqlite *s = calloc(1, sizeof(*s));

	(void)opts;
	if (!s)
		return NULL;
	if (sqlw_open(&s->w, path) != 0 || sqls_init(&s->spans, &s->w) != 0) {
		int e = s->w.sys_errno ? s->w.sys_errno : EIO; /* the path cannot be written */
		sink_sqlite_destroy(s);
		errno = e;
		return NULL;
	}
	return s;
}

static void sink_sqlite_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_sqlite *s = vs;

	sqlr_record(&s->w, ++s->nrec, ev);
	sqls_event(&s->spans, ev, ss);
	if (ev->ts_flags & SONDE_TS_VALID) {
		s->have_ts = 1;
		s->last_ts = ev->ts;
	}
	s->last_core = ev->core;
}

static void sink_sqlite_diag(void *vs, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct sink_sqlite *s = vs;

	(void)ss;
	s->ndiag++;
	sqlr_diag(&s->w, d, s->nrec, s->have_ts, s->last_ts, s->last_core);
	sqls_diag(&s->spans, d);
}

static void sink_sqlite_session(struct sink_sqlite *s, const struct sonde_session *ss)
{
	struct sqlw *w = &s->w;
	struct sqlw_row r = sqlw_row(w, SQLW_SESSION);

	if (ss) {
		sqlw_text(w, &r, 1, ss->proto);
		sqlw_u64(w, &r, 2, ss->ts_freq);
		sqlw_u64_if(w, &r, 3, ss->have_origin, ss->origin);
		sqlw_u64(w, &r, 4, ss->addr_size);
		sqlw_u64(w, &r, 5, ss->build_id);
		sqlw_u64(w, &r, 6, ss->version);
		sqlw_u64(w, &r, 7, ss->frames);
		sqlw_u64(w, &r, 10, ss->drops_overwritten);
		sqlw_u64(w, &r, 11, ss->drops_refused);
		sqlw_u64(w, &r, 12, ss->lost_link);
		sqlw_u64(w, &r, 13, ss->lost_unexplained);
	}
	sqlw_i64(w, &r, 8, s->nrec);
	sqlw_u64(w, &r, 9, s->ndiag);
	sqlw_text(w, &r, 14, "sonde " SONDE_VERSION);
	sqlw_i64(w, &r, 15, SONDE_SQL_SCHEMA);
	sqlw_row_end(w, &r);
}

static int sink_sqlite_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_sqlite *s = vs;

	sqls_finish(&s->spans);
	sink_sqlite_session(s, ss);
	return sqlw_finish(&s->w);
}

const struct sonde_sink_ops sonde_sink_sqlite = {
	.name = "sqlite",
	.desc = "SQLite database (--output FILE): records, slices, tasks, ISRs, functions (docs/sql.md)",
	.create_at = sink_sqlite_create_at,
	.event = sink_sqlite_event,
	.diag = sink_sqlite_diag,
	.finish = sink_sqlite_finish,
	.destroy = sink_sqlite_destroy,
};
