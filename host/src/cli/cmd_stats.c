/*
 * cmd_stats.c -- `sonde stats [FILE[@SPEC]...|-]`: decode a trace and print
 * its figures instead of its records (analysis/stats.h).  With several
 * inputs: the figures of each input (its own decoder, session and clock),
 * then those of the merged stream (totals, time span in the merged clock).
 */
#include <stdlib.h>

#include "analysis/stats.h"
#include "cli.h"
#include "core/pipe.h"

struct stats_run {
	struct sonde_stats total;
	struct sonde_stats per[CLI_MAX_INPUTS];
};

static int stats_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	int rc;
	cli_common_opt(ctx, o, val, &rc);
	return rc;
}

static int stats_arg(void *ctx, const char *arg)
{
	return cli_common_input(ctx, arg);
}

static int add_stats(struct sonde_stats *st, struct sonde_pipe *p)
{
	struct sonde_listener l = sonde_stats_listener(st);
	return sonde_pipe_add_listener(p, &l) == 0 ? 0 : SONDE_EXIT_USAGE;
}

static int stats_setup(void *ctx, struct sonde_pipe *p, FILE *out)
{
	struct stats_run *r = ctx;
	(void)out;
	return add_stats(&r->total, p);
}

static int stats_setup_input(void *ctx, size_t i, struct sonde_pipe *in)
{
	struct stats_run *r = ctx;
	if (i >= CLI_MAX_INPUTS)
		return SONDE_EXIT_USAGE;
	return add_stats(&r->per[i], in);
}

static int stats_report_input(void *ctx, size_t i, struct sonde_pipe *in, FILE *out)
{
	struct stats_run *r = ctx;
	if (sonde_stats_print(&r->per[i], in, out) != 0 || fputc('\n', out) == EOF)
		return SONDE_EXIT_IO;
	return SONDE_EXIT_OK;
}

static int stats_report(void *ctx, struct sonde_pipe *p, FILE *out)
{
	struct stats_run *r = ctx;
	return sonde_stats_print(&r->total, p, out) == 0 ? SONDE_EXIT_OK : SONDE_EXIT_IO;
}

static void stats_help(FILE *out)
{
	fprintf(out, "usage: sonde stats [FILE[@SPEC]...|-] [--proto NAME] [-o KEY=VALUE ...]\n"
		     "                   [--output FILE] [-q] [--max-diags N]\n\n"
		     "Decode a trace and print its figures: bytes, frames, records per type, checksum\n"
		     "errors, sequence gaps and the frames lost in them, the target's reported drops\n"
		     "(overwritten, refused), frames lost on the link, resyncs and bytes discarded,\n"
		     "time span (ticks and seconds) and rates over the trace's own time.\n"
		     "Diagnostics go to standard error as with 'sonde decode'.\n\n");
	cli_print_inputs(out);
	fprintf(out, "With several inputs the figures of each come first, then the totals of the\n"
		     "merged stream ('input  total (N inputs)').\n\noptions:\n");
	cli_print_opts(out, cli_common_opts);
	fprintf(out, "\n");
	cli_print_protocols(out);
	fprintf(out, "\n");
	cli_print_exit_codes(out);
}

static int stats_run(int argc, char **argv)
{
	struct cli_common c;
	cli_common_init(&c, "stats");
	if (cli_parse("stats", argc, argv, cli_common_opts, stats_opt, stats_arg, &c) != 0)
		return SONDE_EXIT_USAGE;
	if (c.help) {
		stats_help(stdout);
		return SONDE_EXIT_OK;
	}
	/* one sonde_stats per input and the totals: on the heap */
	struct stats_run *r = malloc(sizeof(*r));
	if (!r) {
		fprintf(stderr, "sonde stats: out of memory\n");
		return SONDE_EXIT_IO;
	}
	sonde_stats_init(&r->total);
	for (size_t i = 0; i < CLI_MAX_INPUTS; i++)
		sonde_stats_init(&r->per[i]);
	struct cli_hooks h = { stats_setup, stats_report, stats_setup_input, stats_report_input };
	int rc = cli_run_hooks(&c, &h, r);
	sonde_stats_free(&r->total);
	for (size_t i = 0; i < CLI_MAX_INPUTS; i++)
		sonde_stats_free(&r->per[i]);
	free(r);
	return rc;
}

const struct sonde_cmd sonde_cmd_stats = {
	.name = "stats",
	.summary = "print the figures of a trace: records, errors, losses, time span, rates",
	.run = stats_run,
	.help = stats_help,
};
