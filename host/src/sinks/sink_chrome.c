/*
 * sink_chrome.c -- `--format chrome`: the legacy Chrome JSON trace-event
 * format, for chrome://tracing, Perfetto's JSON importer and other viewers.
 *
 * Same mapping as the perfetto sink (trackmap.c), written by chrome_writer.c.
 * Options (-o key=value):
 *   chrome.name=NAME      processes are "NAME core N" (default "Core N")
 *   chrome.max_tracks=N   track limit (default 4096)
 *   chrome.max_depth=N    open slices drawn per track (default 64)
 */
#include <stdlib.h>

#include "chrome_writer.h"
#include "pipeline.h"
#include "trackmap.h"

struct sink_chrome {
	struct cjw *w;
	struct tmap *m;
};

static void sink_chrome_destroy(void *vs)
{
	struct sink_chrome *s = vs;

	if (!s)
		return;
	tmap_free(s->m);
	cjw_free(s->w);
	free(s);
}

static void *sink_chrome_create(FILE *out, sonde_opts opts)
{
	struct sink_chrome *s;
	struct tmap_config cfg;

	if (tmap_config_from_opts(&cfg, opts, "chrome") < 0)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->w = cjw_new(out);
	s->m = s->w ? tmap_new(&cjw_ops, s->w, &cfg) : NULL;
	if (!s->m) {
		sink_chrome_destroy(s);
		return NULL;
	}
	return s;
}

static void sink_chrome_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_chrome *s = vs;

	tmap_event(s->m, ev, ss);
}

static void sink_chrome_diag(void *vs, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct sink_chrome *s = vs;

	(void)ss;
	tmap_diag(s->m, d);
}

static int sink_chrome_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_chrome *s = vs;
	struct tmap_stats st;

	(void)ss;
	tmap_get_stats(s->m, &st);
	return cjw_finish(s->w, st.ticks_as_ns);
}

const struct sonde_sink_ops sonde_sink_chrome = {
	.name = "chrome",
	.desc = "Chrome JSON trace events (chrome://tracing, Perfetto)",
	.create = sink_chrome_create,
	.event = sink_chrome_event,
	.diag = sink_chrome_diag,
	.finish = sink_chrome_finish,
	.destroy = sink_chrome_destroy,
};
