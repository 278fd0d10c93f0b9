/*
 * cmd_stats.c -- `sonde stats [FILE|-]`: decode a trace and print its
 * figures instead of its records (analysis/stats.h).
 */
#include "analysis/stats.h"
#include "cli.h"
#include "core/pipe.h"

static int stats_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	int rc;
	cli_common_opt(ctx, o, val, &rc);
	return rc;
}

static int stats_arg(void *ctx, const char *arg)
{
	return cli_common_arg(ctx, arg);
}

static int stats_setup(void *ctx, struct sonde_pipe *p, FILE *out)
{
	(void)out;
	struct sonde_listener l = sonde_stats_listener(ctx);
	return sonde_pipe_add_listener(p, &l) == 0 ? 0 : SONDE_EXIT_USAGE;
}

static int stats_report(void *ctx, struct sonde_pipe *p, FILE *out)
{
	return sonde_stats_print(ctx, p, out) == 0 ? SONDE_EXIT_OK : SONDE_EXIT_IO;
}

static void stats_help(FILE *out)
{
	fprintf(out, "usage: sonde stats [FILE|-] [--proto NAME] [-o KEY=VALUE ...] [--output FILE]\n"
		     "                   [-q] [--max-diags N]\n\n"
		     "Decode a trace and print its figures: bytes, frames, records per type, checksum\n"
		     "errors, sequence gaps and the frames lost in them, the target's reported drops\n"
		     "(overwritten, refused), frames lost on the link, resyncs and bytes discarded,\n"
		     "time span (ticks and seconds) and rates over the trace's own time.\n"
		     "Diagnostics go to standard error as with 'sonde decode'.\n\noptions:\n");
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
	struct sonde_stats st;
	sonde_stats_init(&st);
	int rc = cli_run(&c, stats_setup, stats_report, &st);
	sonde_stats_free(&st);
	return rc;
}

const struct sonde_cmd sonde_cmd_stats = {
	.name = "stats",
	.summary = "print the figures of a trace: records, errors, losses, time span, rates",
	.run = stats_run,
	.help = stats_help,
};
