/*
 * sink_jsonl.c -- "--format jsonl": one JSON object per event and line.
 *
 * Every object has offset, frame, seq, ts (null when the record has no
 * time), seconds (null when unknown), estimated, core, kind, rec_id and
 * record; then the fields of its kind under the same names as in the text
 * format (isr, isr_name, depth, ...), level/level_name, the message, and
 * "args" as an array of {name?, type, value, resolved?, group?}.  Strings
 * are JSON-escaped; bytes that are not UTF-8 become \u00XX.  Non-finite
 * floats are null.  Diagnostics go to stderr, not here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "event_desc.h"
#include "pipeline.h"
#include "sinkfmt.h"

struct jsonl_sink {
	FILE *out;
	struct sbuf line;
	struct sbuf_clock clock;
	int error;
};

static void *jsonl_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	struct jsonl_sink *j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->out = out;
	sbuf_init(&j->line);
	return j;
}

/* ,"k": for the keys that depend on the record's kind (the fixed ones are
 * written as one literal each, whose length the compiler knows). */
static void key(struct sbuf *b, const char *k)
{
	sbuf_str(b, ",\"");
	sbuf_str(b, k);
	sbuf_str(b, "\":");
}

static void key_suffix(struct sbuf *b, const char *k, const char *suffix)
{
	sbuf_str(b, ",\"");
	sbuf_str(b, k);
	sbuf_str(b, suffix);
	sbuf_str(b, "\":");
}

static void jstr(struct sbuf *b, const char *s)
{
	sbuf_json_str(b, s, strlen(s));
}

static void jdouble(struct sbuf *b, double v, int is_f32)
{
	if (!isfinite(v))
		sbuf_str(b, "null");
	else
		sbuf_double(b, v, is_f32);
}

static void json_arg(struct sbuf *b, const struct sonde_arg *a)
{
	static const char hx[] = "0123456789abcdef";
	sbuf_char(b, '{');
	if (a->name) {
		sbuf_str(b, "\"name\":");
		jstr(b, a->name);
		sbuf_char(b, ',');
	}
	sbuf_str(b, "\"type\":\"");
	sbuf_str(b, sonde_arg_type_name(a->type));
	sbuf_str(b, "\",\"value\":");
	switch (a->type) {
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		sbuf_i64(b, a->v.i);
		break;
	case SONDE_A_F32: case SONDE_A_F64:
		jdouble(b, a->v.f, a->type == SONDE_A_F32);
		break;
	case SONDE_A_STR:
		sbuf_json_str(b, (const char *)a->v.mem.p, a->v.mem.n);
		break;
	case SONDE_A_MEM:
		sbuf_char(b, '"');
		for (size_t i = 0; i < a->v.mem.n; i++) {
			char h[2] = { hx[a->v.mem.p[i] >> 4], hx[a->v.mem.p[i] & 15] };
			sbuf_put(b, h, 2);
		}
		sbuf_char(b, '"');
		break;
	case SONDE_A_BOOL:
		sbuf_str(b, a->v.u ? "true" : "false");
		break;
	default:
		sbuf_u64(b, a->v.u);
		break;
	}
	if (a->type == SONDE_A_ENUM) {
		sbuf_str(b, ",\"group\":");
		sbuf_u64(b, a->group);
	}
	if (a->resolved) {
		sbuf_str(b, ",\"resolved\":");
		jstr(b, a->resolved);
	}
	sbuf_char(b, '}');
}

static void jsonl_event(void *sink, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct jsonl_sink *j = sink;
	struct sbuf *b = &j->line;
	const struct sonde_ev_desc *dd = sonde_ev_desc(ev->kind);
	int valid = (ev->ts_flags & SONDE_TS_VALID) != 0;

	/* the fixed keys (64 characters), five numbers of up to 20 digits,
	 * the seconds (room for 32) and "false" */
	char *o = sbuf_reserve(b, 64 + 5 * 20 + 32 + 5);
	if (!o)
		return;
	o = sbuf_cat(o, "{\"offset\":");
	o += numfmt_u64(o, ev->offset);
	o = sbuf_cat(o, ",\"frame\":");
	o += numfmt_u64(o, ev->frame);
	o = sbuf_cat(o, ",\"seq\":");
	o += numfmt_u64(o, ev->seq);
	o = sbuf_cat(o, ",\"ts\":");
	if (valid)
		o += numfmt_u64(o, ev->ts);
	else
		o = sbuf_cat(o, "null");
	o = sbuf_cat(o, ",\"seconds\":");
	if (valid && s && s->ts_freq)
		o += sbuf_seconds_text(&j->clock, o, ev->ts, s->ts_freq);
	else
		o = sbuf_cat(o, "null");
	o = sbuf_cat(o, ",\"estimated\":");
	o = sbuf_cat(o, (ev->ts_flags & SONDE_TS_ESTIMATED) ? "true" : "false");
	o = sbuf_cat(o, ",\"core\":");
	o += numfmt_u64(o, ev->core);
	sbuf_commit(b, o);
	sbuf_str(b, ",\"kind\":");
	sbuf_char(b, '"'); /* kind names are plain identifiers */
	sbuf_str(b, dd->name);
	sbuf_char(b, '"');
	sbuf_str(b, ",\"rec_id\":");
	sbuf_u64(b, ev->rec_id);
	sbuf_str(b, ",\"record\":");
	jstr(b, ev->rec_name ? ev->rec_name : dd->name);
	if (dd->obj_key) {
		key(b, dd->obj_key);
		if (ev->flags & SONDE_EVF_NO_OBJ)
			sbuf_str(b, "null");
		else
			sbuf_u64(b, ev->obj);
		if (ev->obj_name) {
			key_suffix(b, dd->obj_key, "_name");
			jstr(b, ev->obj_name);
		}
		if (ev->flags & SONDE_EVF_ADDR)
			sbuf_str(b, ",\"address\":true");
	}
	if (dd->ref_key && (ev->flags & SONDE_EVF_REF)) {
		key(b, dd->ref_key);
		sbuf_u64(b, ev->ref);
		if (ev->ref_name) {
			key_suffix(b, dd->ref_key, "_name");
			jstr(b, ev->ref_name);
		}
	}
	if (dd->obj2_key) {
		key(b, dd->obj2_key);
		sbuf_u64(b, ev->obj2);
		if (ev->obj2_name) {
			key_suffix(b, dd->obj2_key, "_name");
			jstr(b, ev->obj2_name);
		}
	}
	if (dd->value_key) {
		key(b, dd->value_key);
		sbuf_i64(b, ev->value);
	}
	if (dd->has_level) {
		sbuf_str(b, ",\"level\":");
		sbuf_u64(b, ev->level);
		const char *ln = sonde_level_name(ev->level);
		if (ln) {
			sbuf_str(b, ",\"level_name\":");
			jstr(b, ln);
		}
	}
	if (dd->text_key && ev->text) {
		key(b, dd->text_key);
		jstr(b, ev->text);
	}
	if (ev->flags & SONDE_EVF_MALFORMED)
		sbuf_str(b, ",\"malformed\":true");
	if (ev->nargs) {
		sbuf_str(b, ",\"args\":[");
		for (size_t i = 0; i < ev->nargs; i++) {
			if (i)
				sbuf_char(b, ',');
			json_arg(b, &ev->args[i]);
		}
		sbuf_char(b, ']');
	}
	sbuf_str(b, "}\n");
	if (sbuf_spill(b, j->out) != 0)
		j->error = 1;
}

static int jsonl_flush(void *sink)
{
	struct jsonl_sink *j = sink;
	if (sbuf_write(&j->line, j->out) != 0)
		j->error = 1;
	return j->error ? -1 : 0;
}

static int jsonl_finish(void *sink, const struct sonde_session *s)
{
	(void)s;
	struct jsonl_sink *j = sink;
	if (sbuf_write(&j->line, j->out) != 0)
		j->error = 1;
	if (fflush(j->out) != 0 || ferror(j->out))
		j->error = 1;
	return j->error ? -1 : 0;
}

static void jsonl_destroy(void *sink)
{
	struct jsonl_sink *j = sink;
	sbuf_free(&j->line);
	free(j);
}

const struct sonde_sink_ops sonde_sink_jsonl = {
	.name = "jsonl",
	.desc = "one JSON object per event and line",
	.create = jsonl_create,
	.event = jsonl_event,
	.diag = NULL,
	.finish = jsonl_finish,
	.destroy = jsonl_destroy,
	.flush = jsonl_flush,
};
