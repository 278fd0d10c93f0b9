/*
 * sink_syst_csv.c -- `--format syst-csv`: the CSV of the reference SyS-T
 * printer systprint: its header line, then the row the SyS-T decoder
 * rendered for each message (the event's 'native' field).  Events of other
 * decoders have no such row and are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

#define SYST_CSV_HEADER "Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp," \
			"Context TimeStamp,Location,Raw Length,Checksum,Collateral\n"

struct syst_csv {
	FILE *out;
};

static void *csv_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	struct syst_csv *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->out = out;
	fputs(SYST_CSV_HEADER, out);
	return s;
}

static void csv_event(void *p, const struct sonde_event *ev, const struct sonde_session *ses)
{
	struct syst_csv *s = p;
	if (!ev->native || (ses && ses->proto && strcmp(ses->proto, "syst") != 0))
		return;
	fputs(ev->native, s->out);
	fputc('\n', s->out);
}

static int csv_finish(void *p, const struct sonde_session *ses)
{
	struct syst_csv *s = p;
	(void)ses;
	return fflush(s->out) == 0 && !ferror(s->out) ? 0 : -1;
}

static void csv_destroy(void *p)
{
	free(p);
}

const struct sonde_sink_ops sonde_sink_syst_csv = {
	.name = "syst-csv",
	.desc = "SyS-T: the CSV of the reference printer systprint",
	.create = csv_create,
	.event = csv_event,
	.diag = NULL,
	.finish = csv_finish,
	.destroy = csv_destroy,
};
