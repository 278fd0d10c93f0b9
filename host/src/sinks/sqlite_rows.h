/*
 * sqlite_rows.h -- rows of the SQLite export that copy the event stream:
 * records, their arguments, diagnostics (sqlite_rows.c).
 */
#ifndef SONDE_SQLITE_ROWS_H
#define SONDE_SQLITE_ROWS_H

#include <stdint.h>

#include "pipeline.h"
#include "sqlite_db.h"

/* ev as row id of `records`, its arguments as rows of `args`. */
void sqlr_record(struct sqlw *w, int64_t id, const struct sonde_event *ev);
/* A diagnostic; after is the id of the record before it (0: none), ts and
 * core that record's time (if have_ts) and core. */
void sqlr_diag(struct sqlw *w, const struct sonde_diag *d, int64_t after, int have_ts, uint64_t ts,
	       uint32_t core);

#endif /* SONDE_SQLITE_ROWS_H */
