/*
 * sink_qspy.c -- --format qspy: the decode as QSPY 7.4 prints it.
 *
 * Every event that carries a 'native' line (the QS decoder renders one per
 * record, as QSPY does) is printed as is; events without one (tasks the
 * decoder infers, records QSPY replaces by an error line) print nothing.
 * Diagnostics print in QSPY's shapes:
 *     "   <COMMS> ERROR    <msg>"   link and parse errors
 *     "   <QSPY-> <msg>"            notices (SONDE_D_OTHER), e.g. dictionaries discarded
 *     "           <msg>"            unknown records, which QSPY prints as a regular line
 * QSPY's banner and "QSPY Done" are not printed.  With -o qspy.where=1 each
 * diagnostic line ends with " @<offset>#<frame>" (byte offset, frame number).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

struct qspy_sink {
	FILE *out;
	int where;
};

static void *qspy_create(FILE *out, sonde_opts opts)
{
	struct qspy_sink *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->out = out;
	const char *w = sonde_opt_get(opts, "qspy.where");
	s->where = w && strcmp(w, "0") != 0;
	return s;
}

static void qspy_event(void *p, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct qspy_sink *s = p;
	(void)ss;
	if (!ev->native)
		return;
	fputs(ev->native, s->out);
	fputc('\n', s->out);
}

static void qspy_diag(void *p, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct qspy_sink *s = p;
	(void)ss;
	const char *lead;
	switch (d->code) {
	case SONDE_D_UNKNOWN_RECORD: lead = "           "; break;
	case SONDE_D_OTHER: lead = "   <QSPY-> "; break;
	default: lead = "   <COMMS> ERROR    "; break;
	}
	fputs(lead, s->out);
	fputs(d->msg ? d->msg : "", s->out);
	if (s->where)
		fprintf(s->out, " @%llu#%llu", (unsigned long long)d->offset, (unsigned long long)d->frame);
	fputc('\n', s->out);
}

static int qspy_finish(void *p, const struct sonde_session *ss)
{
	struct qspy_sink *s = p;
	(void)ss;
	return fflush(s->out) != 0 || ferror(s->out) ? -1 : 0;
}

static void qspy_destroy(void *p)
{
	free(p);
}

const struct sonde_sink_ops sonde_sink_qspy = {
	.name = "qspy",
	.desc = "QSPY 7.4 text lines (decoders that render them: qs)",
	.create = qspy_create,
	.event = qspy_event,
	.diag = qspy_diag,
	.finish = qspy_finish,
	.destroy = qspy_destroy,
};
