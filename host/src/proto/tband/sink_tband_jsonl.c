/*
 * sink_tband_jsonl.c -- "tband-jsonl": the decoded frames as the reference
 * decoder's `tband-cli dump` prints them, one JSON object per line.
 *
 * The tband decoder renders that object into each event's `native`; this
 * sink only prints it, one per line, and skips events without one (the
 * TASK_OUT events the decoder infers).  Meant for --proto tband: with
 * another decoder it prints that decoder's native lines.
 */
#include "sinks/linesink.h"

static void *tband_jsonl_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	return linesink_new(out, NULL);
}

const struct sonde_sink_ops sonde_sink_tband_jsonl = {
	.name = "tband-jsonl",
	.desc = "Tonbandgeraet frames as `tband-cli dump` prints them (JSON lines)",
	.native = 1,
	.create = tband_jsonl_create,
	.event = linesink_native,
	.diag = NULL,
	.finish = linesink_finish,
	.destroy = linesink_destroy,
	.flush = linesink_flush,
};
