/*
 * sink_text.c -- "--format text": one line per record, for people.
 *
 *     <ticks> <seconds> <RECORD> key=value ...
 *
 * ticks is the 64-bit timestamp, seconds the same time in seconds when the
 * tick frequency is known; both are "-" when the record has no time and
 * start with "~" when the time is an estimate.  Names from the dictionaries
 * follow numbers in parentheses: isr=3(UART_RX).  Diagnostics are not
 * written here: the pipeline prints them on stderr (docs/cli.md).
 */
#include <stdlib.h>
#include <string.h>

#include "event_desc.h"
#include "pipeline.h"
#include "sinkfmt.h"

struct text_sink {
	FILE *out;
	struct sbuf line;
	struct sbuf_clock clock;
	int error;
};

static void *text_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	struct text_sink *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->out = out;
	sbuf_init(&t->line);
	return t;
}

/* Blanks at o so that a field of len characters ends at column width
 * (at most 16; o has room for 16); returns where the field begins. */
static char *pad(char *o, size_t len, size_t width)
{
	if (len >= width)
		return o;
	memcpy(o, "                ", 16);
	return o + (width - len);
}

static void put_obj(struct sbuf *b, const struct sonde_event *ev)
{
	if (ev->flags & SONDE_EVF_NO_OBJ) {
		sbuf_char(b, '?');
		return;
	}
	if (ev->flags & SONDE_EVF_ADDR)
		sbuf_hex(b, ev->obj);
	else
		sbuf_u64(b, ev->obj);
	if (ev->obj_name) {
		sbuf_char(b, '(');
		sbuf_name(b, ev->obj_name);
		sbuf_char(b, ')');
	}
}

static void text_event(void *sink, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct text_sink *t = sink;
	struct sbuf *b = &t->line;
	const struct sonde_ev_desc *dd = sonde_ev_desc(ev->kind);
	int valid = (ev->ts_flags & SONDE_TS_VALID) != 0;

	/* the time columns, right-aligned; widths known before writing: the
	 * ticks (up to 21 characters), the seconds (up to 31), two blanks */
	int est = (ev->ts_flags & SONDE_TS_ESTIMATED) != 0;
	char *o = sbuf_reserve(b, 64);
	if (!o)
		return;
	if (valid) {
		unsigned nd = numfmt_ndigits(ev->ts);
		o = pad(o, (size_t)est + nd, 12);
		if (est)
			*o++ = '~';
		numfmt_put_digits(o, ev->ts, nd);
		o += nd;
	} else {
		o = pad(o, 1, 12);
		*o++ = '-';
	}
	*o++ = ' ';
	if (valid && s && s->ts_freq) {
		o = sbuf_seconds_right(o, &t->clock, ev->ts, s->ts_freq, est, 15);
	} else {
		o = pad(o, 1, 15);
		*o++ = '-';
	}
	*o++ = ' ';
	sbuf_commit(b, o);
	sbuf_name(b, ev->rec_name ? ev->rec_name : dd->name);

	if (dd->obj_key) {
		sbuf_char(b, ' ');
		sbuf_str(b, dd->obj_key);
		sbuf_char(b, '=');
		put_obj(b, ev);
	}
	if (dd->obj2_key) {
		sbuf_char(b, ' ');
		sbuf_str(b, dd->obj2_key);
		sbuf_char(b, '=');
		if (ev->obj2_name)
			sbuf_name(b, ev->obj2_name);
		else
			sbuf_u64(b, ev->obj2);
	}
	if (dd->value_key) {
		sbuf_char(b, ' ');
		sbuf_str(b, dd->value_key);
		sbuf_char(b, '=');
		sbuf_i64(b, ev->value);
	}
	if (dd->has_level) {
		const char *ln = sonde_level_name(ev->level);
		sbuf_str(b, " level=");
		if (ln)
			sbuf_str(b, ln);
		else
			sbuf_u64(b, ev->level);
	}
	if (dd->text_key && ev->text) {
		sbuf_char(b, ' ');
		sbuf_str(b, dd->text_key);
		sbuf_char(b, '=');
		sbuf_cquote(b, ev->text, strlen(ev->text));
	}
	/* A LOG's arguments are in its message already. */
	if (ev->kind != SONDE_EV_LOG) {
		for (size_t i = 0; i < ev->nargs; i++) {
			sbuf_char(b, ' ');
			if (ev->args[i].name) {
				sbuf_name(b, ev->args[i].name);
				sbuf_char(b, '=');
			}
			sbuf_arg_text(b, &ev->args[i]);
		}
	}
	if (ev->flags & SONDE_EVF_MALFORMED)
		sbuf_str(b, " (malformed)");
	sbuf_char(b, '\n');
	if (sbuf_spill(b, t->out) != 0)
		t->error = 1;
}

static int text_flush(void *sink)
{
	struct text_sink *t = sink;
	if (sbuf_write(&t->line, t->out) != 0)
		t->error = 1;
	return t->error ? -1 : 0;
}

static int text_finish(void *sink, const struct sonde_session *s)
{
	(void)s;
	struct text_sink *t = sink;
	if (sbuf_write(&t->line, t->out) != 0)
		t->error = 1;
	if (fflush(t->out) != 0 || ferror(t->out))
		t->error = 1;
	return t->error ? -1 : 0;
}

static void text_destroy(void *sink)
{
	struct text_sink *t = sink;
	sbuf_free(&t->line);
	free(t);
}

const struct sonde_sink_ops sonde_sink_text = {
	.name = "text",
	.desc = "one line per record: time in ticks and seconds, record, fields with names",
	.create = text_create,
	.event = text_event,
	.diag = NULL,
	.finish = text_finish,
	.destroy = text_destroy,
	.flush = text_flush,
};
