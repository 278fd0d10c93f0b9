/*
 * sink_tband_jsonl.c -- "tband-jsonl": the decoded frames as the reference
 * decoder's `tband-cli dump` prints them, one JSON object per line.
 *
 * The tband decoder renders that object into each event's `native`; this
 * sink only prints it, one per line, and skips events without one (the
 * TASK_OUT events the decoder infers).  Meant for --proto tband: with
 * another decoder it prints that decoder's native lines.
 */
#include <stdlib.h>

#include "pipeline.h"

struct tband_jsonl {
	FILE *out;
};

static void *tband_jsonl_create(FILE *out, sonde_opts opts)
{
	struct tband_jsonl *s = malloc(sizeof(*s));

	(void)opts;
	if (s)
		s->out = out;
	return s;
}

static void tband_jsonl_event(void *p, const struct sonde_event *ev,
			      const struct sonde_session *ss)
{
	struct tband_jsonl *s = p;

	(void)ss;
	if (ev->native) {
		fputs(ev->native, s->out);
		fputc('\n', s->out);
	}
}

static int tband_jsonl_finish(void *p, const struct sonde_session *ss)
{
	struct tband_jsonl *s = p;

	(void)ss;
	return fflush(s->out) == 0 && !ferror(s->out) ? 0 : -1;
}

static void tband_jsonl_destroy(void *p)
{
	free(p);
}

const struct sonde_sink_ops sonde_sink_tband_jsonl = {
	.name = "tband-jsonl",
	.desc = "Tonbandgeraet frames as `tband-cli dump` prints them (JSON lines)",
	.create = tband_jsonl_create,
	.event = tband_jsonl_event,
	.diag = NULL,
	.finish = tband_jsonl_finish,
	.destroy = tband_jsonl_destroy,
};
