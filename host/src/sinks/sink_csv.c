/*
 * sink_csv.c -- "--format csv": one row per event under a fixed header,
 * quoted as RFC 4180 says (fields with a comma, quote, CR or LF are put in
 * double quotes, quotes doubled; rows end in CRLF).
 *
 *   offset,frame,seq,ts,seconds,estimated,core,kind,rec_id,record,
 *   obj,obj_name,obj2,obj2_name,value,level,text,args
 *
 * Columns a kind does not use are empty (event_desc.h says which it uses);
 * ts and seconds are empty when unknown; args holds the arguments rendered
 * as in the text format, separated by spaces.
 */
#include <stdlib.h>
#include <string.h>

#include "event_desc.h"
#include "pipeline.h"
#include "sinkfmt.h"

static const char csv_header[] =
	"offset,frame,seq,ts,seconds,estimated,core,kind,rec_id,record,"
	"obj,obj_name,obj2,obj2_name,value,level,text,args\r\n";

struct csv_sink {
	FILE *out;
	struct sbuf line;
	struct sbuf field;
	struct sbuf_clock clock;
	int error;
};

static void *csv_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	struct csv_sink *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->out = out;
	sbuf_init(&c->line);
	sbuf_init(&c->field);
	if (fputs(csv_header, out) == EOF)
		c->error = 1;
	return c;
}

/* One field, quoted when RFC 4180 requires it. */
static void put_field(struct sbuf *b, const char *s, size_t n)
{
	int quote = 0;
	size_t i = 0;
	for (; i + 8 <= n && !quote; i += 8) { /* eight at a time: most fields need no quotes */
		uint64_t w = bytes_word(s + i);
		quote = (bytes_word_has(w, ',') | bytes_word_has(w, '"') | bytes_word_has(w, '\r') |
			 bytes_word_has(w, '\n')) != 0;
	}
	for (; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!quote) {
		sbuf_put(b, s, n);
		return;
	}
	sbuf_char(b, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			sbuf_char(b, '"');
		sbuf_char(b, s[i]);
	}
	sbuf_char(b, '"');
}

static void put_str(struct sbuf *b, const char *s)
{
	if (s)
		put_field(b, s, strlen(s));
}

/* Flush the scratch field into the row, quoted as needed. */
static void put_scratch(struct csv_sink *c)
{
	put_field(&c->line, c->field.p ? c->field.p : "", c->field.n);
	sbuf_reset(&c->field);
}

static void csv_event(void *sink, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct csv_sink *c = sink;
	struct sbuf *b = &c->line;
	const struct sonde_ev_desc *dd = sonde_ev_desc(ev->kind);
	int valid = (ev->ts_flags & SONDE_TS_VALID) != 0;

	/* the numeric columns: five numbers of up to 20 digits, the seconds
	 * (up to 30 characters) and separators */
	char *o = sbuf_reserve(b, 5 * 21 + 31 + 2);
	if (!o)
		return;
	o += numfmt_u64(o, ev->offset);
	*o++ = ',';
	o += numfmt_u64(o, ev->frame);
	*o++ = ',';
	o += numfmt_u64(o, ev->seq);
	*o++ = ',';
	if (valid)
		o += numfmt_u64(o, ev->ts);
	*o++ = ',';
	if (valid && s && s->ts_freq)
		o += sbuf_seconds_text(&c->clock, o, ev->ts, s->ts_freq);
	*o++ = ',';
	*o++ = (ev->ts_flags & SONDE_TS_ESTIMATED) ? '1' : '0';
	*o++ = ',';
	o += numfmt_u64(o, ev->core);
	*o++ = ',';
	sbuf_commit(b, o);
	put_str(b, dd->name);
	sbuf_char(b, ',');
	sbuf_u64(b, ev->rec_id);
	sbuf_char(b, ',');
	put_str(b, ev->rec_name ? ev->rec_name : dd->name);
	sbuf_char(b, ',');
	if (dd->obj_key && !(ev->flags & SONDE_EVF_NO_OBJ)) {
		if (ev->flags & SONDE_EVF_ADDR)
			sbuf_hex(b, ev->obj);
		else
			sbuf_u64(b, ev->obj);
	}
	sbuf_char(b, ',');
	if (dd->obj_key)
		put_str(b, ev->obj_name);
	sbuf_char(b, ',');
	if (dd->obj2_key)
		sbuf_u64(b, ev->obj2);
	sbuf_char(b, ',');
	if (dd->obj2_key)
		put_str(b, ev->obj2_name);
	sbuf_char(b, ',');
	if (dd->value_key)
		sbuf_i64(b, ev->value);
	sbuf_char(b, ',');
	if (dd->has_level)
		sbuf_u64(b, ev->level);
	sbuf_char(b, ',');
	if (dd->text_key)
		put_str(b, ev->text);
	sbuf_char(b, ',');
	for (size_t i = 0; i < ev->nargs; i++) {
		if (i)
			sbuf_char(&c->field, ' ');
		if (ev->args[i].name) {
			sbuf_str(&c->field, ev->args[i].name);
			sbuf_char(&c->field, '=');
		}
		sbuf_arg_text(&c->field, &ev->args[i]);
	}
	put_scratch(c);
	sbuf_put(b, "\r\n", 2);
	if (sbuf_spill(b, c->out) != 0)
		c->error = 1;
}

static int csv_flush(void *sink)
{
	struct csv_sink *c = sink;
	if (sbuf_write(&c->line, c->out) != 0)
		c->error = 1;
	return c->error ? -1 : 0;
}

static int csv_finish(void *sink, const struct sonde_session *s)
{
	(void)s;
	struct csv_sink *c = sink;
	if (sbuf_write(&c->line, c->out) != 0)
		c->error = 1;
	if (fflush(c->out) != 0 || ferror(c->out))
		c->error = 1;
	return c->error ? -1 : 0;
}

static void csv_destroy(void *sink)
{
	struct csv_sink *c = sink;
	sbuf_free(&c->line);
	sbuf_free(&c->field);
	free(c);
}

const struct sonde_sink_ops sonde_sink_csv = {
	.name = "csv",
	.desc = "one row per event, fixed columns, RFC 4180 quoting",
	.create = csv_create,
	.event = csv_event,
	.diag = NULL,
	.finish = csv_finish,
	.destroy = csv_destroy,
	.flush = csv_flush,
};
