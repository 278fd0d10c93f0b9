/*
 * cmd_decode.c -- `sonde decode [FILE[@SPEC]...|-] [--proto P] [--format F]
 * ...`: decode a trace (or several, merged in time order: one per core) and
 * write its records in one of the registered formats.
 */
#include <string.h>

#include "cli.h"
#include "core/pipe.h"

static const struct cli_opt decode_opts[] = {
	{ "format", 'f', "NAME", "output format (default: text)" },
	{ "idle", 0, NULL, "keep the idle loop in the profile formats (speedscope; = -o idle=1)" },
};

struct decode_args {
	struct cli_common c;
	const char *format;
};

static int decode_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct decode_args *a = ctx;
	int rc;
	if (cli_common_opt(&a->c, o, val, &rc))
		return rc;
	if (strcmp(o->name, "idle") == 0) {
		static const struct cli_opt kv = { NULL, 'o', "KEY=VALUE", NULL };
		cli_common_opt(&a->c, &kv, "idle=1", &rc);
		return rc;
	}
	a->format = val;
	return 0;
}

static int decode_arg(void *ctx, const char *arg)
{
	struct decode_args *a = ctx;
	return cli_common_input(&a->c, arg);
}

static int decode_setup(void *ctx, struct sonde_pipe *p, FILE *out)
{
	const struct sonde_sink_ops *ops = ctx;
	int rc = sonde_pipe_add_sink(p, ops, out);
	return rc == 0 ? 0 : rc == -2 ? SONDE_EXIT_IO : SONDE_EXIT_USAGE;
}

/* The command's option table: its own options, then the shared ones. */
static struct cli_opt all_opts[sizeof(decode_opts) / sizeof(decode_opts[0]) + CLI_COMMON_NOPTS];

static const struct cli_opt *options(void)
{
	return cli_opts_join(all_opts, decode_opts, sizeof(decode_opts) / sizeof(decode_opts[0]));
}

static void decode_help(FILE *out)
{
	fprintf(out, "usage: sonde decode [FILE[@SPEC]...|-] [--proto NAME] [--format NAME]\n"
		     "                    [-o KEY=VALUE ...] [--output FILE] [-q] [--max-diags N]\n\n"
		     "Decode a trace (FILE, or standard input when FILE is '-' or missing) and write\n"
		     "one record per line in the chosen format.  Diagnostics (bad frames, lost frames,\n"
		     "malformed records, ...) go to standard error, one per line, with their byte\n"
		     "offset and frame number.\n\n");
	sonde_drive_print_inputs(out);
	fprintf(out, "\noptions:\n");
	cli_print_opts(out, options());
	fprintf(out, "\n");
	cli_print_protocols(out);
	fprintf(out, "\n");
	cli_print_formats(out);
	fprintf(out, "\ndecoder options (-o): sonde: ts_freq=HZ (tick rate until a TARGET_INFO gives it),\n"
		     "  addr_size=BYTES (address size until a TARGET_INFO gives it; default 4)\n\n");
	cli_print_exit_codes(out, 0);
}

static int decode_run(int argc, char **argv)
{
	struct decode_args a;
	cli_common_init(&a.c, "decode");
	a.format = "text";
	if (cli_parse("decode", argc, argv, options(), decode_opt, decode_arg, &a) != 0 || a.c.help) {
		sonde_select_free(&a.c.sel); /* a --filter before the error */
		if (!a.c.help)
			return SONDE_EXIT_USAGE;
		decode_help(stdout);
		return SONDE_EXIT_OK;
	}
	const struct sonde_sink_ops *ops = sonde_sink_find(a.format);
	if (!ops) {
		sonde_select_free(&a.c.sel);
		fprintf(stderr, "sonde decode: unknown format '%s' for option '--format' (known:", a.format);
		for (size_t i = 0; sonde_sinks[i]; i++)
			fprintf(stderr, " %s", sonde_sinks[i]->name);
		fprintf(stderr, ")\n");
		return SONDE_EXIT_USAGE;
	}
	a.c.output_by_sink = ops->create_at != NULL;
	return cli_run(&a.c, decode_setup, NULL, (void *)ops);
}

const struct sonde_cmd sonde_cmd_decode = {
	.name = "decode",
	.summary = "decode a trace and print its records (text, jsonl, csv, ...)",
	.run = decode_run,
	.help = decode_help,
	.opts = options,
	.operand = "FILE",
};
