/*
 * qs_out.c -- how the QS decoder's parts deliver what they find:
 * diagnostics (with the byte offset, escapes accounted for), QSPY notices,
 * the active objects announced as tasks (events, timestamps and argument
 * slots, once per record, are inline in qs.h).  Below every other file of
 * the decoder: it calls none of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qs.h"


/* ---- reporting -------------------------------------------------------- */

void qs_diag(struct qs_dec *d, enum sonde_diag_code code, size_t idx, uint64_t count,
	     const char *fmt, ...)
{
	uint64_t offset = d->fr.offset, frame = d->frames;
	va_list ap;

	if (d->fr_cur) {
		offset = hdlc_offset_of(d->fr_cur->offset, d->fr_cur->esc, d->fr_cur->nesc, idx);
		frame = d->fr_cur->number;
	}
	va_start(ap, fmt);
	sonde_vdiagf(&d->out, code, offset, frame, count, fmt, ap);
	va_end(ap);
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
