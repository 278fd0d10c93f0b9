/*
 * sink_html.c -- `--format html` (and `sonde report`): one self-contained
 * HTML page that works offline from a file:// URL -- a zoomable timeline of
 * every core, the function profile as flame graph and call tree, and the
 * tables of the timing analyses, markers, counters and losses.  The page's
 * JavaScript and CSS are real files (host/src/sinks/report/), embedded at
 * build time (report_assets.c, generated); this file gathers the data and
 * writes the page: the template with the CSS, the data as one JSON object in
 * a <script type="application/json">, and the script.
 *
 * Options (-o key=value):
 *   report.title=TEXT      the page's title (default: the input's protocol)
 *   report.max_items=N     detail budget of the timeline (default 300000)
 *   elf=FILE               name code addresses (also for the profile)
 * docs/report.md says what the page shows and its limits.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an.h"
#include "analysis/stats.h"
#include "pipeline.h"
#include "profile_model.h"
#include "profile_text.h"
#include "report_page.h"
#include "report_search.h"
#include "report_tl.h"
#include "trackmap.h"
#include "util/utf8text.h"
#include "core/msg.h"
#include "core/opts.h"

extern const char sonde_report_template[], sonde_report_css[], sonde_report_js[];

struct sink_html {
	FILE *out;
	const char *title;
	struct rtl *tl;
	struct rsearch *search;
	struct tmap *tm;
	struct an_model *an;
	struct prof_model *prof;
	struct sonde_stats st;
	struct sonde_listener stl;
	uint64_t diags;
};

/* A JSON string that is safe inside a <script> element: '<', '>' and '&'
 * are escaped, invalid UTF-8 becomes U+FFFD. */
void report_jstr(FILE *out, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;
	fputc('"', out);
	for (size_t i = 0; i < n;) {
		uint8_t c = p[i];
		if (c < 0x80) {
			if (c == '"' || c == '\\')
				fprintf(out, "\\%c", c);
			else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7F)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
			i++;
			continue;
		}
		size_t k = utf8text_seqlen(p + i, n - i);
		if (!k) {
			fputs("\\ufffd", out);
			i++;
		} else {
			fwrite(p + i, 1, k, out);
			i += k;
		}
	}
	fputc('"', out);
}

static void html_cstr(FILE *out, const char *s)
{
	report_jstr(out, s, strlen(s));
}

static void sink_html_destroy(void *vs)
{
	struct sink_html *s = vs;
	if (!s)
		return;
	tmap_free(s->tm);
	rtl_free(s->tl);
	rsearch_free(s->search);
	an_free(s->an);
	prof_destroy(s->prof);
	sonde_stats_free(&s->st);
	free(s);
}

static void *sink_html_create(FILE *out, sonde_opts opts)
{
	struct sink_html *s = calloc(1, sizeof(*s));
	uint64_t max_items = 0;
	if (!s)
		return NULL;
	if (sonde_opt_uint(opts, "report.max_items", 1000, 50000000, &max_items) < 0) {
		free(s);
		return NULL;
	}
	s->out = out;
	s->title = sonde_opt_get(opts, "report.title");
	struct an_config cfg = { 0, 400, 10 };
	s->tl = rtl_new((uint32_t)max_items);
	s->tm = s->tl ? tmap_new(&rtl_ops, s->tl, NULL) : NULL;
	s->search = rsearch_new(0, 0);
	s->an = an_new(&cfg);
	s->prof = prof_create_from_opts(opts, "html", 1);
	sonde_stats_init(&s->st);
	s->stl = sonde_stats_listener(&s->st);
	if (!s->tm || !s->search || !s->an || !s->prof) {
		sink_html_destroy(s);
		return NULL;
	}
	return s;
}

static void sink_html_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_html *s = vs;
	tmap_event(s->tm, ev, ss);
	rsearch_event(s->search, ev, ss);
	an_event(s->an, ev, ss);
	prof_event(s->prof, ev);
	s->stl.event(s->stl.ctx, ev, ss);
}

static void sink_html_diag(void *vs, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct sink_html *s = vs;
	tmap_diag(s->tm, d);
	an_diag(s->an, d);
	prof_diag(s->prof, d);
	s->stl.diag(s->stl.ctx, d, ss);
}

/* ---- the data ------------------------------------------------------------- */

void report_stats_json(FILE *out, const struct sonde_stats *st, const struct sonde_session *ss)
{
	fprintf(out,
		"\"stats\":{\"frames\":%" PRIu64 ",\"records\":%" PRIu64 ",\"diagnostics\":%" PRIu64
		",\"sequence_gaps\":%" PRIu64 ",\"gap_frames\":%" PRIu64 ",\"overwritten\":%" PRIu64
		",\"refused\":%" PRIu64 ",\"link_lost\":%" PRIu64 ",\"unexplained\":%" PRIu64 ",\"estimated\":%" PRIu64
		",\"resyncs\":%" PRIu64 ",\"discarded\":%" PRIu64 ",\"span\":%" PRIu64 ",\"diag_codes\":{",
		ss->frames, st->records, st->ndiags, st->gaps, st->gap_frames, ss->drops_overwritten, ss->drops_refused,
		ss->lost_link, ss->lost_unexplained, st->estimated, st->resyncs, st->discarded,
		st->have_time ? st->t_max - st->t_min : 0);
	int first = 1;
	for (int c = 0; c < SONDE_D_COUNT; c++)
		if (st->diags[c]) {
			fprintf(out, "%s\"%d\":%" PRIu64, first ? "" : ",", c, st->diags[c]);
			first = 0;
		}
	fputs("},\"types\":[", out);
	for (size_t i = 0; i < st->ntypes; i++) {
		fprintf(out, "%s[%" PRIu32 ",", i ? "," : "", st->types[i].rec_id);
		html_cstr(out, st->types[i].name ? st->types[i].name : "?");
		fprintf(out, ",%" PRIu64 "]", st->types[i].count);
	}
	fputs("]},\n", out);
}

static void json_analysis(struct sink_html *s, FILE *out)
{
	struct an_model *m = s->an;
	uint32_t *idx = malloc((m->nent + 1) * sizeof(*idx));
	an_finish(m);
	uint32_t n = idx ? an_order(m, idx) : 0;
	fprintf(out, "\"analysis\":{\"total\":%" PRIu64 ",\"losses\":%" PRIu64 ",\"resyncs\":%" PRIu64
		     ",\"top\":%" PRIu32 ",\"rows\":[",
		an_total(m), m->losses, m->resyncs, m->cfg.top);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			fputs(",\n", out);
		an_json_ent(m, &m->ent[idx[i]], idx[i], out);
	}
	fputs("],\"cores\":[", out);
	int first = 1;
	for (uint32_t k = 0; k < AN_MAX_CORES; k++) {
		const struct an_core *c = m->core[k];
		if (!c || !c->have_time)
			continue;
		fprintf(out, "%s{\"core\":%" PRIu32 ",\"traced\":%" PRIu64 ",\"tasks\":%" PRIu64 ",\"isr\":%" PRIu64
			     ",\"idle\":%" PRIu64 ",\"notask\":%" PRIu64 ",\"max_nest\":%" PRIu32 "}",
			first ? "" : ",", k, c->last - c->first, c->by_kind[AN_TASK], c->by_kind[AN_ISR],
			c->by_kind[AN_IDLE], c->by_kind[AN_NOTASK], c->max_depth);
		first = 0;
	}
	/* CPU load per window (the width doubled as the trace grew: at most 400) */
	fprintf(out, "],\"window\":%" PRIu64 ",\"nwin\":%" PRIu32 ",\"win\":{", m->window, m->nwin);
	for (uint32_t i = 0; i < n; i++) {
		const struct an_ent *e = &m->ent[idx[i]];
		fprintf(out, "%s\"%" PRIu32 "\":[", i ? "," : "", idx[i]);
		for (uint32_t w = 0; w < e->nwin; w++)
			fprintf(out, "%s%" PRIu64, w ? "," : "", e->win[w]);
		fputc(']', out);
	}
	fputs("}},\n", out);
	free(idx);
}

static void json_profile(struct sink_html *s, FILE *out)
{
	const struct prof_model *m = s->prof;
	char lb[160];
	prof_finish(s->prof);
	fprintf(out, "\"profile\":{\"total\":%" PRIu64 ",\"funcs\":[", prof_total_time(m));
	for (uint32_t i = 0; i < prof_func_count(m); i++) {
		const struct prof_func *f = prof_func_at(m, i);
		fprintf(out, "%s{\"name\":", i ? ",\n" : "");
		html_cstr(out, f->name);
		fprintf(out, ",\"calls\":%" PRIu64 ",\"incl\":%" PRIu64 ",\"self\":%" PRIu64 ",\"sum\":%" PRIu64
			     ",\"closed\":%" PRIu64 ",\"min\":%" PRIu64 ",\"max\":%" PRIu64 ",\"flags\":%u}",
			f->calls, f->incl, f->self, f->sum, f->closed, f->closed ? f->min : 0, f->max, f->flags);
	}
	/* the calling-context tree: [parent, func, self] (roots: func -1 and a label) */
	fputs("],\"nodes\":[", out);
	for (uint32_t i = 0; i < prof_node_count(m); i++) {
		const struct prof_node *nd = prof_node_at(m, i);
		fputs(i ? (i % 16 ? "," : ",\n") : "", out);
		if (nd->func == PROF_NONE) {
			const char *label = nd->ctx != PROF_NONE ? prof_ctx_label(prof_ctx_at(m, nd->ctx), lb, sizeof(lb))
								 : prof_isr_label(prof_isr_at(m, nd->isr), lb, sizeof(lb));
			fprintf(out, "[-1,-1,%" PRIu64 ",", nd->self);
			html_cstr(out, label);
			fputc(']', out);
		} else {
			fprintf(out, "[%" PRIu32 ",%" PRIu32 ",%" PRIu64 "]", nd->parent, nd->func, nd->self);
		}
	}
	fputs("]},\n", out);
}

/* Write the template up to the marker "<!--NAME-->" (or to its end), and
 * skip the marker. */
static const char *html_upto(FILE *out, const char *t, const char *marker)
{
	const char *m = marker ? strstr(t, marker) : NULL;
	size_t n = m ? (size_t)(m - t) : strlen(t);
	fwrite(t, 1, n, out);
	return m ? m + strlen(marker) : t + n;
}

void report_page(FILE *out, const char *title, const struct sonde_session *ss, int ticks_as_ns,
		 void (*data)(FILE *out, void *ctx), void *ctx)
{
	const char *t = sonde_report_template;
	t = html_upto(out, t, "<!--TITLE-->");
	for (const char *c = title; *c; c++) /* text content: escape the markup characters */
		if (*c == '<')
			fputs("&lt;", out);
		else if (*c == '&')
			fputs("&amp;", out);
		else
			fputc(*c, out);
	t = html_upto(out, t, "<!--CSS-->");
	fputs(sonde_report_css, out);
	t = html_upto(out, t, "<!--DATA-->");
	fputs("{\"title\":", out);
	html_cstr(out, title);
	fprintf(out, ",\"producer\":\"sonde " SONDE_VERSION "\",\"proto\":");
	html_cstr(out, ss && ss->proto ? ss->proto : "?");
	fprintf(out, ",\"ts_freq\":%" PRIu64 ",\"origin\":%" PRIu64 ",\"ticks_as_ns\":%d,\n",
		ss ? ss->ts_freq : 0, ss && ss->have_origin ? ss->origin : 0, ticks_as_ns);
	data(out, ctx);
	fprintf(out, "\"end\":1}");
	t = html_upto(out, t, "<!--JS-->");
	fputs(sonde_report_js, out);
	html_upto(out, t, NULL);
}

struct html_data {
	struct sink_html *s;
	const struct sonde_session *ss;
};

static void sink_html_data(FILE *out, void *ctx)
{
	struct html_data *d = ctx;
	report_stats_json(out, &d->s->st, d->ss);
	json_analysis(d->s, out);
	json_profile(d->s, out);
	rtl_write_json(d->s->tl, out, report_jstr);
	rsearch_write_json(d->s->search, out, report_jstr);
}

static int sink_html_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_html *s = vs;
	char title[160];
	struct tmap_stats tst;
	struct html_data d = { s, ss };

	tmap_get_stats(s->tm, &tst);
	snprintf(title, sizeof(title), "%s", s->title ? s->title : "Sonde trace report");
	report_page(s->out, title, ss, tst.ticks_as_ns, sink_html_data, &d);
	if (fflush(s->out) != 0 || ferror(s->out))
		return -1;
	return 0;
}

const struct sonde_sink_ops sonde_sink_html = {
	.name = "html",
	.desc = "self-contained HTML report: timeline, flame graph, analyses (-o report.title=, report.max_items=N)",
	.create = sink_html_create,
	.event = sink_html_event,
	.diag = sink_html_diag,
	.finish = sink_html_finish,
	.destroy = sink_html_destroy,
};
