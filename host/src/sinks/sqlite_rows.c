/*
 * sqlite_rows.c -- the rows of the SQLite export that copy the event stream
 * as it is: one row of `records` per event, its arguments in `args`, the
 * decoder's diagnostics in `diagnostics` (sqlite_rows.h).  The columns
 * follow the JSONL format, so that both say the same thing.
 */
#include <stdint.h>

#include "core/numfmt.h"
#include "event_desc.h"
#include "sqlite_rows.h"

static void sqlr_arg(struct sqlw *w, int64_t rec, size_t idx, const struct sonde_arg *a)
{
	struct sqlw_row r = sqlw_row(w, SQLW_ARGS);

	sqlw_i64(w, &r, 1, rec);
	sqlw_u64(w, &r, 2, idx);
	sqlw_text(w, &r, 3, a->name);
	sqlw_text(w, &r, 4, sonde_arg_type_name(a->type));
	switch (a->type) {
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		sqlw_i64(w, &r, 5, a->v.i);
		break;
	case SONDE_A_F32: case SONDE_A_F64:
		sqlw_real(w, &r, 5, numfmt_float_value(a->v.f, a->type == SONDE_A_F32));
		break;
	case SONDE_A_STR:
		sqlw_textn(w, &r, 5, (const char *)a->v.mem.p, a->v.mem.n);
		break;
	case SONDE_A_MEM:
		sqlw_blob(w, &r, 5, a->v.mem.p, a->v.mem.n);
		break;
	case SONDE_A_NONE:
		break;
	default: /* unsigned, objects, functions, enums, hex, bool */
		sqlw_u64(w, &r, 5, a->v.u);
		break;
	}
	sqlw_text(w, &r, 6, a->resolved);
	sqlw_u64_if(w, &r, 7, a->type == SONDE_A_ENUM, a->group);
	sqlw_row_end(w, &r);
}

void sqlr_record(struct sqlw *w, int64_t id, const struct sonde_event *ev)
{
	const struct sonde_ev_desc *dd = sonde_ev_desc(ev->kind);
	struct sqlw_row r = sqlw_row(w, SQLW_RECORDS);

	sqlw_i64(w, &r, 1, id);
	sqlw_u64_if(w, &r, 2, (ev->ts_flags & SONDE_TS_VALID) != 0, ev->ts);
	sqlw_i64(w, &r, 3, (ev->ts_flags & SONDE_TS_ESTIMATED) != 0);
	sqlw_u64(w, &r, 4, ev->core);
	sqlw_text(w, &r, 5, dd->name);
	sqlw_u64(w, &r, 6, ev->rec_id);
	sqlw_text(w, &r, 7, ev->rec_name ? ev->rec_name : dd->name);
	if (dd->obj_key) {
		sqlw_u64_if(w, &r, 8, !(ev->flags & SONDE_EVF_NO_OBJ), ev->obj);
		sqlw_text(w, &r, 9, ev->obj_name);
	}
	if (dd->obj2_key) {
		sqlw_u64(w, &r, 10, ev->obj2);
		sqlw_text(w, &r, 11, ev->obj2_name);
	}
	if (dd->value_key)
		sqlw_i64(w, &r, 12, ev->value);
	if (dd->has_level)
		sqlw_u64(w, &r, 13, ev->level);
	if (dd->text_key)
		sqlw_text(w, &r, 14, ev->text);
	sqlw_u64(w, &r, 15, ev->flags);
	sqlw_u64(w, &r, 16, ev->offset);
	sqlw_u64(w, &r, 17, ev->frame);
	sqlw_u64(w, &r, 18, ev->seq);
	sqlw_row_end(w, &r);
	for (size_t i = 0; i < ev->nargs; i++)
		sqlr_arg(w, id, i, &ev->args[i]);
}

void sqlr_diag(struct sqlw *w, const struct sonde_diag *d, int64_t after, int have_ts, uint64_t ts,
	       uint32_t core)
{
	struct sqlw_row r = sqlw_row(w, SQLW_DIAGNOSTICS);

	sqlw_text(w, &r, 1, sonde_diag_name(d->code));
	sqlw_u64(w, &r, 2, d->offset);
	sqlw_u64(w, &r, 3, d->frame);
	sqlw_u64(w, &r, 4, d->count);
	sqlw_text(w, &r, 5, d->msg);
	sqlw_u64_if(w, &r, 6, after > 0, (uint64_t)after);
	sqlw_u64_if(w, &r, 7, have_ts, ts);
	sqlw_u64_if(w, &r, 8, after > 0, core);
	sqlw_row_end(w, &r);
}
