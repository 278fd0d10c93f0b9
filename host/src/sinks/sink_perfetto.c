/*
 * sink_perfetto.c -- `--format perfetto`: a Perfetto protobuf trace
 * (.pftrace) for ui.perfetto.dev and trace_processor.
 *
 * The mapping of events to tracks is trackmap.c's; perfetto_writer.c writes
 * it.  Options (-o key=value):
 *   perfetto.name=NAME      processes are "NAME core N" (default "Core N")
 *   perfetto.sched=0|1      generic-kernel task states for Perfetto's
 *                           scheduler views (default 1)
 *   perfetto.intern=0|1     intern names (default 1; 0 writes them inline)
 *   perfetto.max_tracks=N   track limit (default 4096)
 *   perfetto.max_depth=N    open slices drawn per track (default 64)
 */
#include <stdlib.h>

#include "perfetto_writer.h"
#include "pipeline.h"
#include "trackmap.h"
#include "core/opts.h"

struct sink_perfetto {
	struct pfw *w;
	struct tmap *m;
};

static void sink_perfetto_destroy(void *vs)
{
	struct sink_perfetto *s = vs;

	if (!s)
		return;
	tmap_free(s->m);
	pfw_free(s->w);
	free(s);
}

static void *sink_perfetto_create(FILE *out, sonde_opts opts)
{
	struct sink_perfetto *s;
	struct tmap_config cfg;
	struct pfw_config pcfg;

	if (tmap_config_from_opts(&cfg, opts, "perfetto") < 0)
		return NULL;
	pcfg.sched = sonde_opt_bool(opts, "perfetto.sched", 1);
	pcfg.intern = sonde_opt_bool(opts, "perfetto.intern", 1);
	if (pcfg.sched < 0 || pcfg.intern < 0)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->w = pfw_new(out, &pcfg);
	s->m = s->w ? tmap_new(&pfw_ops, s->w, &cfg) : NULL;
	if (!s->m) {
		sink_perfetto_destroy(s);
		return NULL;
	}
	return s;
}

static void sink_perfetto_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_perfetto *s = vs;

	tmap_event(s->m, ev, ss);
}

static void sink_perfetto_diag(void *vs, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct sink_perfetto *s = vs;

	(void)ss;
	tmap_diag(s->m, d);
}

static int sink_perfetto_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_perfetto *s = vs;

	(void)ss;
	return pfw_finish(s->w);
}

static int sink_perfetto_flush(void *vs)
{
	struct sink_perfetto *s = vs;

	return pfw_flush(s->w);
}

const struct sonde_sink_ops sonde_sink_perfetto = {
	.name = "perfetto",
	.desc = "Perfetto trace (protobuf) for ui.perfetto.dev",
	.create = sink_perfetto_create,
	.event = sink_perfetto_event,
	.diag = sink_perfetto_diag,
	.finish = sink_perfetto_finish,
	.destroy = sink_perfetto_destroy,
	.flush = sink_perfetto_flush,
};
