/*
 * linesink.c -- buffered writer of native lines (linesink.h).
 */
#include <stdlib.h>
#include <string.h>

#include "linesink.h"

struct linesink *linesink_new(FILE *out, const char *header)
{
	struct linesink *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->out = out;
	sbuf_init(&s->b);
	if (header)
		sbuf_str(&s->b, header);
	return s;
}

static void linesink_put(struct linesink *s, const char *text, size_t n)
{
	sbuf_put(&s->b, text, n);
	sbuf_char(&s->b, '\n');
	if (sbuf_spill(&s->b, s->out) != 0)
		s->error = 1;
}

void linesink_line(struct linesink *s, const char *text)
{
	linesink_put(s, text, strlen(text));
}

void linesink_diag(struct linesink *s, const char *lead, const struct sonde_diag *d)
{
	sbuf_str(&s->b, lead);
	sbuf_str(&s->b, d->msg ? d->msg : "");
	if (s->where) {
		sbuf_str(&s->b, " @");
		sbuf_u64(&s->b, d->offset);
		sbuf_char(&s->b, '#');
		sbuf_u64(&s->b, d->frame);
	}
	sbuf_char(&s->b, '\n');
	if (sbuf_spill(&s->b, s->out) != 0)
		s->error = 1;
}

void linesink_native(void *sink, const struct sonde_event *ev, const struct sonde_session *ses)
{
	(void)ses;
	if (ev->native)
		linesink_put(sink, ev->native, ev->native_len ? ev->native_len : strlen(ev->native));
}

int linesink_flush(void *sink)
{
	struct linesink *s = sink;
	if (sbuf_write(&s->b, s->out) != 0)
		s->error = 1;
	return s->error ? -1 : 0;
}

int linesink_finish(void *sink, const struct sonde_session *ses)
{
	struct linesink *s = sink;
	(void)ses;
	linesink_flush(s);
	if (fflush(s->out) != 0 || ferror(s->out))
		s->error = 1;
	return s->error ? -1 : 0;
}

void linesink_destroy(void *sink)
{
	struct linesink *s = sink;
	if (!s)
		return;
	sbuf_free(&s->b);
	free(s);
}
