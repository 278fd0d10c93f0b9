/*
 * sink_syst_csv.c -- `--format syst-csv`: the CSV of the reference SyS-T
 * printer systprint: its header line, then the row the SyS-T decoder
 * rendered for each message (the event's 'native' field).  Events of other
 * decoders have no such row and are skipped.
 */
#include <string.h>

#include "sinks/linesink.h"
#include "syst_dec.h"

#define SYST_CSV_HEADER "Decode Status,Payload,Type,Severity,Origin,Unit,Message TimeStamp," \
			"Context TimeStamp,Location,Raw Length,Checksum,Collateral\n"

static void *csv_create(FILE *out, sonde_opts opts)
{
	(void)opts;
	return linesink_new(out, SYST_CSV_HEADER);
}

static void csv_event(void *p, const struct sonde_event *ev, const struct sonde_session *ses)
{
	if (ev->native && (!ses || !ses->proto || ses->proto == syst_proto_name ||
			   strcmp(ses->proto, syst_proto_name) == 0))
		linesink_native(p, ev, ses);
}

const struct sonde_sink_ops sonde_sink_syst_csv = {
	.name = "syst-csv",
	.desc = "SyS-T: the CSV of the reference printer systprint",
	.native = 1,
	.create = csv_create,
	.event = csv_event,
	.diag = NULL,
	.finish = linesink_finish,
	.destroy = linesink_destroy,
	.flush = linesink_flush,
};
