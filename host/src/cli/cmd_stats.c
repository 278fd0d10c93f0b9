/*
 * cmd_stats.c -- `sonde stats [FILE[@SPEC]...|-]`: decode a trace and print
 * its figures instead of its records (analysis/stats.h).  With several
 * inputs: the figures of each input (its own decoder, session and clock),
 * then those of the merged stream (totals, time span in the merged clock).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an.h"
#include "analysis/rtos_stats.h"
#include "analysis/stats.h"
#include "cli.h"
#include "core/pipe.h"

struct stats_run {
	struct cli_common c;
	struct sonde_stats total;
	struct sonde_stats per[CLI_MAX_INPUTS];
	struct an_model *an;        /* the timing analyses of the merged stream */
	struct an_model *an_per[CLI_MAX_INPUTS]; /* and of each input (several inputs) */
	struct an_config an_cfg;
	int jsonl;
	const char *window;
	struct rtos_stats rtos_total;           /* RTOS states and objects (rtos_stats.h) */
	struct rtos_stats rtos[CLI_MAX_INPUTS];
};

static const struct cli_opt stats_own_opts[] = {
	{ "format", 'f', "NAME", "text (default) or jsonl" },
	{ "window", 0, "T", "also the CPU load per time window of T (10ms, 0.5, 1000t)" },
	{ "top", 0, "N", "longest N runs / activations per task and ISR (default 10, at most 64)" },
};
#define NOWN (sizeof(stats_own_opts) / sizeof(stats_own_opts[0]))
static struct cli_opt all_opts[NOWN + CLI_COMMON_NOPTS];

static const struct cli_opt *options(void)
{
	return cli_opts_join(all_opts, stats_own_opts, NOWN);
}

static int stats_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct stats_run *r = ctx;
	int rc;
	if (cli_common_opt(&r->c, o, val, &rc))
		return rc;
	if (strcmp(o->name, "format") == 0) {
		if (strcmp(val, "text") != 0 && strcmp(val, "jsonl") != 0) {
			fprintf(stderr, "sonde stats: option '--format': expected text or jsonl, got '%s'\n", val);
			return -1;
		}
		r->jsonl = val[0] == 'j';
	} else if (strcmp(o->name, "window") == 0) {
		struct sel_bound b;
		if (sonde_select_parse_time(val, &b) != 0 || b.v == 0) {
			fprintf(stderr, "sonde stats: option '--window': expected a time such as 10ms, 0.5 or 1000t, got '%s'\n",
				val);
			return -1;
		}
		r->window = val;
	} else if (strcmp(o->name, "top") == 0) {
		char *end;
		unsigned long n = strtoul(val, &end, 10);
		if (!*val || *end || n < 1 || n > AN_TOP_MAX) {
			fprintf(stderr, "sonde stats: option '--top' expects a number from 1 to %d, got '%s'\n", AN_TOP_MAX,
				val);
			return -1;
		}
		r->an_cfg.top = (uint32_t)n;
	}
	return 0;
}

static int stats_arg(void *ctx, const char *arg)
{
	struct stats_run *r = ctx;
	return cli_common_input(&r->c, arg);
}

/* A listener feeding one analysis model.  The window is given in seconds
 * or ticks; in ticks it needs the clock rate, known by the first timed
 * event. */
struct an_bind {
	struct an_model *an;
	const char *window;
};
static struct an_bind binds[CLI_MAX_INPUTS + 1];

static void an_l_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct an_bind *b = ctx;
	if (b->window && !b->an->cfg.window && (ev->ts_flags & SONDE_TS_VALID)) {
		struct sel_bound t;
		sonde_select_parse_time(b->window, &t);
		uint64_t w = t.ticks ? t.v
				     : (uint64_t)((unsigned __int128)t.v * (s->ts_freq ? s->ts_freq : 1000000000u) /
						  1000000000u);
		b->an->cfg.window = b->an->window = w ? w : 1;
	}
	an_event(b->an, ev, s);
}

static void an_l_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	struct an_bind *b = ctx;
	(void)s;
	an_diag(b->an, d);
}

static int add_an(struct an_bind *b, struct an_model *an, const char *window, struct sonde_pipe *p)
{
	b->an = an;
	b->window = window;
	struct sonde_listener l = { .event = an_l_event, .diag = an_l_diag, .ctx = b, .no_text = 1,
				    .tally_kinds = an_tally_kinds() };
	return an && sonde_pipe_add_listener(p, &l) == 0 ? 0 : SONDE_EXIT_USAGE;
}

static int add_stats(struct sonde_stats *st, struct rtos_stats *rs, struct sonde_pipe *p)
{
	struct sonde_listener l = sonde_stats_listener(st), r = rtos_stats_listener(rs);
	return sonde_pipe_add_listener(p, &l) == 0 && sonde_pipe_add_listener(p, &r) == 0 ? 0 : SONDE_EXIT_USAGE;
}

static int stats_setup(void *ctx, struct sonde_pipe *p, FILE *out)
{
	struct stats_run *r = ctx;
	(void)out;
	if (add_an(&binds[CLI_MAX_INPUTS], r->an, r->window, p) != 0)
		return SONDE_EXIT_USAGE;
	return add_stats(&r->total, &r->rtos_total, p);
}

/* The figures of `sonde stats` as one JSON line. */
static void stats_json(const struct sonde_stats *st, const struct sonde_pipe *p, FILE *out)
{
	const struct sonde_session *s = &p->session;
	struct sonde_stats_totals t;
	sonde_stats_totals(st, s, &t);
	fprintf(out,
		"{\"type\":\"stats\",\"bytes\":%" PRIu64 ",\"frames\":%" PRIu64 ",\"records\":%" PRIu64
		",\"diagnostics\":%" PRIu64 ",\"sequence_gaps\":%" PRIu64 ",\"gap_frames\":%" PRIu64
		",\"overwritten\":%" PRIu64 ",\"refused\":%" PRIu64 ",\"link_lost\":%" PRIu64
		",\"unexplained\":%" PRIu64 ",\"stopped\":%" PRIu64 ",\"estimated\":%" PRIu64 ",\"ts_freq\":%" PRIu64,
		p->bytes, s->frames, t.records, st->ndiags, st->gaps, st->gap_frames, s->drops_overwritten,
		s->drops_refused, s->lost_link, s->lost_unexplained, s->stopped_records, st->estimated, s->ts_freq);
	if (t.have_time)
		fprintf(out, ",\"t_min\":%" PRIu64 ",\"t_max\":%" PRIu64, t.t_min, t.t_max);
	fprintf(out, "}\n");
}

static int stats_setup_input(void *ctx, size_t i, struct sonde_pipe *in)
{
	struct stats_run *r = ctx;
	if (i >= CLI_MAX_INPUTS)
		return SONDE_EXIT_USAGE;
	r->an_per[i] = an_new(&r->an_cfg);
	if (add_an(&binds[i], r->an_per[i], r->window, in) != 0)
		return SONDE_EXIT_USAGE;
	return add_stats(&r->per[i], &r->rtos[i], in);
}

static int stats_report_input(void *ctx, size_t i, struct sonde_pipe *in, FILE *out)
{
	struct stats_run *r = ctx;
	if (r->jsonl) {
		stats_json(&r->per[i], in, out);
		if (an_write_jsonl(r->an_per[i], out) != 0 || rtos_stats_json(&r->rtos[i], out) != 0)
			return SONDE_EXIT_IO;
		return SONDE_EXIT_OK;
	}
	if (sonde_stats_print(&r->per[i], in, out) != 0 || an_write_text(r->an_per[i], out) != 0 ||
	    rtos_stats_print(&r->rtos[i], in->session.ts_freq, out) != 0 || fputc('\n', out) == EOF)
		return SONDE_EXIT_IO;
	return SONDE_EXIT_OK;
}

static int stats_report(void *ctx, struct sonde_pipe *p, FILE *out)
{
	struct stats_run *r = ctx;
	if (r->jsonl) {
		stats_json(&r->total, p, out);
		if (an_write_jsonl(r->an, out) != 0 || rtos_stats_json(&r->rtos_total, out) != 0)
			return SONDE_EXIT_IO;
		return SONDE_EXIT_OK;
	}
	if (sonde_stats_print(&r->total, p, out) != 0 || an_write_text(r->an, out) != 0)
		return SONDE_EXIT_IO;
	return rtos_stats_print(&r->rtos_total, p->session.ts_freq, out) == 0 ? SONDE_EXIT_OK : SONDE_EXIT_IO;
}

static void stats_help(FILE *out)
{
	fprintf(out, "usage: sonde stats [FILE[@SPEC]...|-] [--proto NAME] [-o KEY=VALUE ...]\n"
		     "                   [--output FILE] [-q] [--max-diags N]\n\n"
		     "Decode a trace and print its figures: bytes, frames, records per type, checksum\n"
		     "errors, sequence gaps and the frames lost in them, the target's reported drops\n"
		     "(overwritten, refused), frames lost on the link, resyncs and bytes discarded,\n"
		     "time span (ticks and seconds) and rates over the trace's own time.\n"
		     "Diagnostics go to standard error as with 'sonde decode'.  Then the timing\n"
		     "analyses: per task CPU load, run times and ready-to-run latency, per ISR\n"
		     "load, durations, gaps and nesting, per core the idle share, the longest\n"
		     "runs and, with --window, the CPU load per window (docs/analysis.md).  For an\n"
		     "RTOS trace also per task the time running, ready, blocked and suspended, and\n"
		     "per kernel object its operations, highest level and the time tasks waited on\n"
		     "it, or held it (a mutex) (docs/freertos.md).\n\n");
	sonde_drive_print_inputs(out);
	fprintf(out, "With several inputs the figures of each come first, then the totals of the\n"
		     "merged stream ('input  total (N inputs)').\n\noptions:\n");
	cli_print_opts(out, options());
	fprintf(out, "\n");
	cli_print_protocols(out);
	fprintf(out, "\n");
	cli_print_exit_codes(out, 0);
}

static int stats_run(int argc, char **argv)
{
	/* one sonde_stats per input and the totals: on the heap */
	struct stats_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "sonde stats: out of memory\n");
		return SONDE_EXIT_IO;
	}
	cli_common_init(&r->c, "stats");
	if (cli_parse("stats", argc, argv, options(), stats_opt, stats_arg, r) != 0) {
		sonde_select_free(&r->c.sel);
		free(r);
		return SONDE_EXIT_USAGE;
	}
	if (r->c.help) {
		stats_help(stdout);
		sonde_select_free(&r->c.sel);
		free(r);
		return SONDE_EXIT_OK;
	}
	r->an = an_new(&r->an_cfg);
	if (!r->an) {
		fprintf(stderr, "sonde stats: out of memory\n");
		free(r);
		return SONDE_EXIT_IO;
	}
	sonde_stats_init(&r->total);
	rtos_stats_init(&r->rtos_total);
	for (size_t i = 0; i < CLI_MAX_INPUTS; i++) {
		sonde_stats_init(&r->per[i]);
		rtos_stats_init(&r->rtos[i]);
	}
	struct sonde_drive_hooks h = { stats_setup, stats_report, stats_setup_input, stats_report_input };
	int rc = cli_run_hooks(&r->c, &h, r);
	an_free(r->an);
	for (size_t i = 0; i < CLI_MAX_INPUTS; i++)
		an_free(r->an_per[i]);
	sonde_stats_free(&r->total);
	rtos_stats_free(&r->rtos_total);
	for (size_t i = 0; i < CLI_MAX_INPUTS; i++) {
		sonde_stats_free(&r->per[i]);
		rtos_stats_free(&r->rtos[i]);
	}
	free(r);
	return rc;
}

const struct sonde_cmd sonde_cmd_stats = {
	.name = "stats",
	.summary = "print the figures of a trace: records, errors, losses, time span, rates",
	.run = stats_run,
	.help = stats_help,
	.opts = options,
	.operand = "FILE",
};
