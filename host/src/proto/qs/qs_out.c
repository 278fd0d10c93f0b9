/*
 * qs_out.c -- how the QS decoder's parts deliver what they find: events
 * (with where the frame came from), diagnostics (with the byte offset,
 * escapes accounted for), QSPY notices, argument slots, timestamps, the
 * active objects announced as tasks.  Below every other file of the
 * decoder: it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qs.h"


/* ---- reporting -------------------------------------------------------- */

void qs_diag(struct qs_dec *d, enum sonde_diag_code code, size_t idx, uint64_t count,
	     const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct sonde_diag dg = { .code = code, .count = count, .msg = msg };
	if (d->fr_cur) {
		dg.offset = hdlc_offset_of(d->fr_cur->offset, d->fr_cur->esc, d->fr_cur->nesc, idx);
		dg.frame = d->fr_cur->number;
	} else {
		dg.offset = d->fr.offset;
		dg.frame = d->frames;
	}
	if (d->out.diag)
		d->out.diag(d->out.ctx, &dg);
}

struct sonde_arg *qs_arg(struct qs_dec *d, enum sonde_arg_type t, const char *name)
{
	if (d->nargs >= d->max_args)
		return NULL;
	struct sonde_arg *a = &d->args[d->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	return a;
}

/* Raw timestamps are QS_TIME_SIZE bytes and wrap (the posix port's 100 ns
 * clock every 7 minutes); events get them unwrapped into 64 bits.  A step
 * of more than half the range backwards is taken as a wrap forwards. */
void qs_set_ts(struct qs_dec *d, struct sonde_event *ev, int has_ts, uint64_t raw)
{
	if (has_ts) {
		unsigned bits = 8u * d->sz.ts;
		uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
		raw &= mask;
		if (!d->have_ts) {
			d->ts64 = raw;
		} else {
			uint64_t delta = (raw - d->ts_raw) & mask;
			if (delta <= mask / 2) {
				d->ts64 += delta;
			} else {
				uint64_t back = mask - delta + 1;
				d->ts64 = d->ts64 >= back ? d->ts64 - back : 0;
			}
		}
		d->ts_raw = raw;
		d->have_ts = 1;
		ev->ts = d->ts64;
		ev->ts_flags = SONDE_TS_VALID;
	} else if (d->have_ts) {
		/* records without a timestamp happened after the last one seen */
		ev->ts = d->ts64;
		ev->ts_flags = SONDE_TS_VALID | SONDE_TS_ESTIMATED;
	}
}

void qs_note_ao(struct qs_dec *d, uint64_t obj, const struct sonde_event *cause)
{
	for (size_t i = 0; i < d->n_aos; i++)
		if (d->aos[i] == obj)
			return;
	if (d->n_aos >= QS_MAX_AOS)
		return;
	d->aos[d->n_aos++] = obj;
	struct sonde_event ev = { .kind = SONDE_EV_TASK_CREATE, .obj = obj, .rec_name = "AO" };
	ev.obj_name = qs_map_get(&d->dict.obj, obj, 0);
	ev.ts = cause->ts;
	ev.ts_flags = cause->ts_flags;
	qs_emit(d, &ev);
}

void qs_notice(struct qs_dec *d, const char *text)
{
	struct qs_line *l = &d->line;
	qs_line_reset(l);
	qs_line_puts(l, "   <QSPY-> ");
	size_t text_at = l->len;
	qs_line_puts(l, text);
	struct sonde_event ev = { .kind = SONDE_EV_INFO, .rec_name = "QSPY" };
	qs_set_ts(d, &ev, 0, 0);
	ev.text = l->buf + text_at;
	ev.native = l->buf;
	qs_emit(d, &ev);
}
