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
#include <string.h>

#include "sinks/linesink.h"

static void *qspy_create(FILE *out, sonde_opts opts)
{
	struct linesink *s = linesink_new(out, NULL);
	const char *w = sonde_opt_get(opts, "qspy.where");
	if (s)
		s->where = w && strcmp(w, "0") != 0;
	return s;
}

static void qspy_diag(void *p, const struct sonde_diag *d, const struct sonde_session *ss)
{
	(void)ss;
	const char *lead;
	switch (d->code) {
	case SONDE_D_UNKNOWN_RECORD: lead = "           "; break;
	case SONDE_D_OTHER: lead = "   <QSPY-> "; break;
	default: lead = "   <COMMS> ERROR    "; break;
	}
	linesink_diag(p, lead, d);
}

const struct sonde_sink_ops sonde_sink_qspy = {
	.name = "qspy",
	.desc = "QSPY 7.4 text lines (decoders that render them: qs)",
	.native = 1,
	.create = qspy_create,
	.event = linesink_native,
	.diag = qspy_diag,
	.finish = linesink_finish,
	.destroy = linesink_destroy,
	.flush = linesink_flush,
};
