/*
 * sqlite_db.h -- the SQLite database of `--format sqlite` (docs/sql.md):
 * its schema, and writing rows into it fast and in bounded memory.
 *
 * A row is filled column by column (sqlw_row, then sqlw_u64, sqlw_text,
 * ...) and kept until SQLW_ROWS rows of its table are waiting; they then go
 * in with one prepared multi-row INSERT (a statement costs about as much as
 * 8 columns: batching rows is what makes a million records a second).
 * Rows go in inside transactions of SQLW_BATCH rows; the indexes grow with
 * them.  The file is written without a rollback journal: an interrupted
 * export leaves a file to throw away (the session row, written last, says
 * the export finished).
 *
 * Errors: the first one is printed ("sonde CMD: sqlite: PATH: ..."), every
 * later write is skipped, and sqlw_finish returns -1 with errno set.
 */
#ifndef SONDE_SQLITE_DB_H
#define SONDE_SQLITE_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#define SQLW_ROWS 32       /* rows per INSERT statement */
#define SQLW_BATCH 200000u /* rows per transaction */
#define SQLW_MAX_COLS 18

enum sqlw_table {
	SQLW_RECORDS, SQLW_ARGS, SQLW_SLICES, SQLW_DIAGNOSTICS,
	SQLW_TASKS, SQLW_ISRS, SQLW_FUNCTIONS, SQLW_CORES, SQLW_SESSION,
	SQLW_NTABLES
};

/* A column's value as kept until the row is inserted. */
struct sqlw_val {
	enum { SQLW_NULL, SQLW_INT, SQLW_REAL, SQLW_TEXT, SQLW_BLOB } type;
	union {
		int64_t i;
		double f;
		struct { size_t off, n; } s; /* in the table's arena */
	} v;
};

struct sqlw_tab {
	sqlite3_stmt *many;   /* INSERT of SQLW_ROWS rows */
	sqlite3_stmt *one;    /* INSERT of one row (the rest at the end) */
	int ncols;
	uint32_t nrows;       /* rows waiting */
	struct sqlw_val vals[SQLW_ROWS * SQLW_MAX_COLS];
	char *arena;          /* text and blobs of the waiting rows */
	size_t arena_n, arena_cap;
};

struct sqlw {
	sqlite3 *db;
	char *path;
	struct sqlw_tab tab[SQLW_NTABLES];
	uint64_t rows;        /* rows in the open transaction */
	int failed;           /* an error was reported: nothing more is written */
	int sys_errno;        /* the OS error behind it, 0 if none */
};

/* A row being filled: its table and its values. */
struct sqlw_row {
	struct sqlw_tab *t;
	struct sqlw_val *v;   /* [ncols], every one NULL at first */
};

/* Create the database at path (an existing file is replaced), its tables
 * and views, and begin the first transaction.  0, or -1 after a message. */
int sqlw_open(struct sqlw *w, const char *path);

/* Start a row of table t (columns numbered from 1 in the table's order,
 * docs/sql.md); sqlw_row_end queues it. */
struct sqlw_row sqlw_row(struct sqlw *w, enum sqlw_table t);
void sqlw_row_end(struct sqlw *w, struct sqlw_row *r);

/* Column values.  Integers are SQLite's signed 64 bits: a u64 above
 * INT64_MAX is stored as its two's complement (printf('%x') shows it
 * right).  Text and blobs are copied. */
void sqlw_u64(struct sqlw *w, struct sqlw_row *r, int col, uint64_t v);
void sqlw_i64(struct sqlw *w, struct sqlw_row *r, int col, int64_t v);
void sqlw_u64_if(struct sqlw *w, struct sqlw_row *r, int col, int have, uint64_t v); /* NULL if !have */
void sqlw_real(struct sqlw *w, struct sqlw_row *r, int col, double v);            /* NaN: NULL */
void sqlw_text(struct sqlw *w, struct sqlw_row *r, int col, const char *s);       /* NULL: NULL */
void sqlw_textn(struct sqlw *w, struct sqlw_row *r, int col, const char *s, size_t n);
void sqlw_blob(struct sqlw *w, struct sqlw_row *r, int col, const void *p, size_t n);

/* Insert what waits, commit.  0, or -1 (errno set)
 * after an error. */
int sqlw_finish(struct sqlw *w);
/* Finalize and close (after sqlw_finish, or to give up). */
void sqlw_close(struct sqlw *w);

#endif /* SONDE_SQLITE_DB_H */
