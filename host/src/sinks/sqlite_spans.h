/*
 * sqlite_spans.h -- the rows of the SQLite export that say what ran when:
 * `slices` (task runs, idle and no-task periods, ISR activations, function
 * calls, marker spans) and the tables of what they refer to (`tasks`,
 * `isrs`, `functions`, `cores`).  Runs and activations come from the timing
 * analyses (analysis/an.h), calls from the function profile
 * (profile_model.h), so their times are charged exactly as `sonde stats`
 * and `--format profile` charge them; marker spans are matched here.
 */
#ifndef SONDE_SQLITE_SPANS_H
#define SONDE_SQLITE_SPANS_H

#include <stdint.h>

#include "pipeline.h"
#include "sqlite_db.h"

struct an_model;
struct prof_model;
struct sqls_mark;

#define SQLS_MAX_OPEN_MARKS 4096u /* open marker spans kept; more are counted */

struct sqls {
	struct sqlw *w;
	struct an_model *an;
	struct prof_model *prof;
	struct sqls_mark *marks;  /* open marker spans, oldest first */
	uint32_t nmarks, capmarks;
	uint64_t marks_dropped;   /* MARK_BEGINs beyond SQLS_MAX_OPEN_MARKS */
	uint64_t last_ts;         /* time of the last event (for untimed ones) */
};

/* 0, or -1 (out of memory, message printed). */
int sqls_init(struct sqls *x, struct sqlw *w);
void sqls_event(struct sqls *x, const struct sonde_event *ev, const struct sonde_session *s);
void sqls_diag(struct sqls *x, const struct sonde_diag *d);
/* End of input: close what is open, write the entity tables. */
void sqls_finish(struct sqls *x);
void sqls_free(struct sqls *x);

#endif /* SONDE_SQLITE_SPANS_H */
