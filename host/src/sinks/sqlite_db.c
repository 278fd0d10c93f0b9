/*
 * sqlite_db.c -- the schema of the SQLite export and the row writer behind
 * it (sqlite_db.h).  docs/sql.md describes every table and column.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlite_db.h"
#include "core/msg.h"

/* The tables, views and indexes.  The indexes are kept up to date as the
 * rows go in: their keys (times, record ids) come in nearly ascending
 * order, so each grows at its right edge, which costs less than sorting
 * them all at the end and needs no sorter memory (measured: 7.2 s instead
 * of 8.0 s of CPU for 7.6 M records, 22 MiB of RSS instead of 38). */
static const char schema[] =
	"PRAGMA page_size = 16384;"
	"PRAGMA journal_mode = OFF;"
	"PRAGMA synchronous = OFF;"
	"PRAGMA locking_mode = EXCLUSIVE;"
	"PRAGMA cache_size = -16384;" /* KiB: bounds the page cache */
	"CREATE TABLE session(proto TEXT, ts_freq INTEGER, origin INTEGER, addr_size INTEGER,"
	" build_id INTEGER, version INTEGER, frames INTEGER, records INTEGER, diagnostics INTEGER,"
	" drops_overwritten INTEGER, drops_refused INTEGER, lost_link INTEGER, lost_unexplained INTEGER,"
	" exporter TEXT, schema_version INTEGER);"
	"CREATE TABLE records(id INTEGER PRIMARY KEY, ts INTEGER, estimated INTEGER NOT NULL,"
	" core INTEGER NOT NULL, kind TEXT NOT NULL, rec_id INTEGER, record TEXT,"
	" obj INTEGER, obj_name TEXT, obj2 INTEGER, obj2_name TEXT, value INTEGER, level INTEGER,"
	" text TEXT, flags INTEGER NOT NULL, offset INTEGER, frame INTEGER, seq INTEGER);"
	"CREATE TABLE args(record INTEGER NOT NULL, idx INTEGER NOT NULL, name TEXT, type TEXT NOT NULL,"
	" value, resolved TEXT, grp INTEGER, PRIMARY KEY(record, idx)) WITHOUT ROWID;"
	"CREATE TABLE slices(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, core INTEGER NOT NULL,"
	" obj INTEGER, name TEXT, start INTEGER NOT NULL, stop INTEGER NOT NULL, dur INTEGER NOT NULL,"
	" cpu INTEGER, self INTEGER, depth INTEGER NOT NULL, ctx_kind TEXT, ctx INTEGER,"
	" complete INTEGER NOT NULL, flags INTEGER NOT NULL);"
	"CREATE TABLE tasks(task INTEGER PRIMARY KEY, name TEXT, prio INTEGER, core INTEGER);"
	"CREATE TABLE isrs(isr INTEGER PRIMARY KEY, name TEXT);"
	"CREATE TABLE functions(func INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, key INTEGER);"
	"CREATE TABLE cores(core INTEGER PRIMARY KEY, first INTEGER, last INTEGER, traced INTEGER);"
	"CREATE TABLE diagnostics(id INTEGER PRIMARY KEY, code TEXT NOT NULL, offset INTEGER, frame INTEGER,"
	" count INTEGER, message TEXT, after INTEGER, ts INTEGER, core INTEGER);"
	"CREATE VIEW markers AS SELECT id, ts, core, obj AS marker, obj_name AS name"
	" FROM records WHERE kind = 'mark';"
	"CREATE VIEW counters AS SELECT id, ts, core, kind, obj AS counter, obj_name AS name, value"
	" FROM records WHERE kind IN ('counter', 'queue');"
	"CREATE VIEW drops AS SELECT id, ts, core, record, value AS overwritten_total, obj2 AS refused_total"
	" FROM records WHERE kind = 'drops';"
	"CREATE VIEW logs AS SELECT id, ts, core, level, record, text AS msg FROM records WHERE kind = 'log';"
	"CREATE INDEX records_ts ON records(ts);"
	"CREATE INDEX slices_core ON slices(core, start);"
	"CREATE INDEX diagnostics_ts ON diagnostics(ts);"
	"BEGIN;";

/* How each table's rows are inserted (the VALUES follow). */
static const struct {
	const char *insert;
	int ncols;
} tables[SQLW_NTABLES] = {
	[SQLW_RECORDS] = { "INSERT INTO records VALUES", 18 },
	[SQLW_ARGS] = { "INSERT INTO args VALUES", 7 },
	[SQLW_SLICES] = { "INSERT INTO slices(kind, core, obj, name, start, stop, dur, cpu, self, depth,"
			  " ctx_kind, ctx, complete, flags) VALUES", 14 },
	[SQLW_DIAGNOSTICS] = { "INSERT INTO diagnostics(code, offset, frame, count, message, after, ts, core)"
			       " VALUES", 8 },
	[SQLW_TASKS] = { "INSERT OR REPLACE INTO tasks VALUES", 4 },
	[SQLW_ISRS] = { "INSERT OR REPLACE INTO isrs VALUES", 2 },
	[SQLW_FUNCTIONS] = { "INSERT INTO functions VALUES", 4 },
	[SQLW_CORES] = { "INSERT OR REPLACE INTO cores VALUES", 4 },
	[SQLW_SESSION] = { "INSERT INTO session VALUES", 15 },
};

/* Report the first error (what was being done, SQLite's message) and stop
 * writing. */
static void sqlw_fail(struct sqlw *w, const char *doing)
{
	if (w->failed)
		return;
	w->failed = 1;
	w->sys_errno = w->db ? sqlite3_system_errno(w->db) : errno;
	sonde_err("sqlite: %s: %s: %s", w->path, doing,
		w->db ? sqlite3_errmsg(w->db) : strerror(w->sys_errno));
}

static void sqlw_oom(struct sqlw *w)
{
	if (w->failed)
		return;
	w->failed = 1;
	w->sys_errno = ENOMEM;
	sonde_err("sqlite: %s: out of memory", w->path);
}

static void sqlw_exec(struct sqlw *w, const char *sql, const char *doing)
{
	if (!w->failed && sqlite3_exec(w->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		sqlw_fail(w, doing);
}

/* Replace what is at path: a database of an earlier export (and its
 * journal) would otherwise be opened, not created.  A directory or a file
 * we may not remove is refused by sqlite3_open_v2 or here. */
static int sqlw_remove_old(const char *path)
{
	struct stat st;
	char journal[4096];

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		if (S_ISREG(st.st_mode) && unlink(path) != 0)
			return -1;
	}
	if (snprintf(journal, sizeof(journal), "%s-journal", path) < (int)sizeof(journal))
		unlink(journal);
	return 0;
}

/* "INSERT ... VALUES(?, ...), ..." for n rows of table t (malloc'd). */
static char *sqlw_insert_sql(enum sqlw_table t, int n)
{
	size_t len = strlen(tables[t].insert), cap = len + (size_t)n * (4 * tables[t].ncols + 4) + 1;
	char *sql = malloc(cap), *p;

	if (!sql)
		return NULL;
	memcpy(sql, tables[t].insert, len);
	p = sql + len;
	for (int r = 0; r < n; r++) {
		*p++ = r ? ',' : ' ';
		*p++ = '(';
		for (int c = 0; c < tables[t].ncols; c++) {
			if (c)
				*p++ = ',';
			*p++ = '?';
		}
		*p++ = ')';
	}
	*p = 0;
	return sql;
}

static int sqlw_prepare(struct sqlw *w, enum sqlw_table t, int n, sqlite3_stmt **st)
{
	char *sql = sqlw_insert_sql(t, n);
	int rc = sql ? sqlite3_prepare_v3(w->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) : SQLITE_NOMEM;

	free(sql);
	if (rc != SQLITE_OK)
		sqlw_fail(w, "cannot prepare a statement");
	return rc == SQLITE_OK ? 0 : -1;
}

int sqlw_open(struct sqlw *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->path = strdup(path);
	if (!w->path) {
		sonde_err("sqlite: out of memory");
		return -1;
	}
	if (sqlw_remove_old(path) != 0) {
		sqlw_fail(w, "cannot replace it");
		return -1;
	}
	/* one connection used by one thread: no locking of SQLite's own,
	 * and no memory statistics (whose counters take a global lock) */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); /* refused once SQLite is initialised: harmless */
	if (sqlite3_open_v2(path, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		sqlw_fail(w, "cannot create it");
		return -1;
	}
	sqlw_exec(w, schema, "cannot create the tables");
	for (int t = 0; t < SQLW_NTABLES && !w->failed; t++) {
		w->tab[t].ncols = tables[t].ncols;
		if (sqlw_prepare(w, t, SQLW_ROWS, &w->tab[t].many) == 0)
			sqlw_prepare(w, t, 1, &w->tab[t].one);
	}
	return w->failed ? -1 : 0;
}

/* ---- rows ------------------------------------------------------------------ */

/* Run st with the values of n waiting rows of tab from row `from`. */
static void sqlw_insert(struct sqlw *w, struct sqlw_tab *tab, sqlite3_stmt *st, uint32_t from, uint32_t n)
{
	const struct sqlw_val *v = &tab->vals[from * (uint32_t)tab->ncols];
	int ncols = (int)n * tab->ncols;

	for (int i = 0; i < ncols; i++, v++) {
		switch (v->type) {
		case SQLW_INT:
			sqlite3_bind_int64(st, i + 1, v->v.i);
			break;
		case SQLW_REAL:
			sqlite3_bind_double(st, i + 1, v->v.f);
			break;
		case SQLW_TEXT:
			sqlite3_bind_text64(st, i + 1, tab->arena + v->v.s.off, v->v.s.n, SQLITE_STATIC, SQLITE_UTF8);
			break;
		case SQLW_BLOB:
			sqlite3_bind_blob64(st, i + 1, tab->arena + v->v.s.off, v->v.s.n, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, i + 1);
			break;
		}
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		sqlw_fail(w, "cannot insert a row");
	sqlite3_reset(st);
	w->rows += n;
	if (w->rows >= SQLW_BATCH) {
		w->rows = 0;
		sqlw_exec(w, "COMMIT; BEGIN;", "cannot commit");
	}
}

/* Insert every waiting row of tab. */
static void sqlw_flush(struct sqlw *w, struct sqlw_tab *tab)
{
	if (!w->failed) {
		if (tab->nrows == SQLW_ROWS)
			sqlw_insert(w, tab, tab->many, 0, SQLW_ROWS);
		else
			for (uint32_t r = 0; r < tab->nrows && !w->failed; r++)
				sqlw_insert(w, tab, tab->one, r, 1);
	}
	tab->nrows = 0;
	tab->arena_n = 0;
}

struct sqlw_row sqlw_row(struct sqlw *w, enum sqlw_table t)
{
	struct sqlw_tab *tab = &w->tab[t];
	struct sqlw_row r = { tab, &tab->vals[tab->nrows * (uint32_t)tab->ncols] };

	memset(r.v, 0, (size_t)tab->ncols * sizeof(*r.v)); /* SQLW_NULL */
	return r;
}

void sqlw_row_end(struct sqlw *w, struct sqlw_row *r)
{
	if (++r->t->nrows == SQLW_ROWS)
		sqlw_flush(w, r->t);
}

void sqlw_i64(struct sqlw *w, struct sqlw_row *r, int col, int64_t v)
{
	(void)w;
	r->v[col - 1].type = SQLW_INT;
	r->v[col - 1].v.i = v;
}

void sqlw_u64(struct sqlw *w, struct sqlw_row *r, int col, uint64_t v)
{
	sqlw_i64(w, r, col, (int64_t)v);
}

void sqlw_u64_if(struct sqlw *w, struct sqlw_row *r, int col, int have, uint64_t v)
{
	if (have)
		sqlw_i64(w, r, col, (int64_t)v);
}

void sqlw_real(struct sqlw *w, struct sqlw_row *r, int col, double v)
{
	(void)w;
	if (v != v)
		return; /* NaN: NULL, as SQLite would store it */
	r->v[col - 1].type = SQLW_REAL;
	r->v[col - 1].v.f = v;
}

static void sqlw_bytes(struct sqlw *w, struct sqlw_row *r, int col, const void *p, size_t n, int type)
{
	struct sqlw_tab *tab = r->t;

	if (tab->arena_n + n > tab->arena_cap) {
		size_t nc = tab->arena_cap ? tab->arena_cap : 4096;
		while (nc < tab->arena_n + n)
			nc *= 2;
		char *na = realloc(tab->arena, nc);
		if (!na) {
			sqlw_oom(w);
			return;
		}
		tab->arena = na;
		tab->arena_cap = nc;
	}
	if (n)
		memcpy(tab->arena + tab->arena_n, p, n);
	r->v[col - 1].type = type;
	r->v[col - 1].v.s.off = tab->arena_n;
	r->v[col - 1].v.s.n = n;
	tab->arena_n += n;
}

void sqlw_text(struct sqlw *w, struct sqlw_row *r, int col, const char *s)
{
	if (s)
		sqlw_bytes(w, r, col, s, strlen(s), SQLW_TEXT);
}

void sqlw_textn(struct sqlw *w, struct sqlw_row *r, int col, const char *s, size_t n)
{
	sqlw_bytes(w, r, col, s, n, SQLW_TEXT);
}

void sqlw_blob(struct sqlw *w, struct sqlw_row *r, int col, const void *p, size_t n)
{
	sqlw_bytes(w, r, col, p, n, SQLW_BLOB);
}

/* ---- the end ------------------------------------------------------------------ */

int sqlw_finish(struct sqlw *w)
{
	for (int t = 0; t < SQLW_NTABLES; t++)
		sqlw_flush(w, &w->tab[t]);
	sqlw_exec(w, "COMMIT;", "cannot commit");
	if (w->failed) {
		errno = w->sys_errno ? w->sys_errno : EIO;
		return -1;
	}
	return 0;
}

void sqlw_close(struct sqlw *w)
{
	for (int t = 0; t < SQLW_NTABLES; t++) {
		sqlite3_finalize(w->tab[t].many);
		sqlite3_finalize(w->tab[t].one);
		free(w->tab[t].arena);
	}
	if (w->db && sqlite3_close(w->db) != SQLITE_OK && !w->failed)
		sonde_err("sqlite: %s: %s", w->path, sqlite3_errmsg(w->db));
	free(w->path);
	memset(w, 0, sizeof(*w));
}
