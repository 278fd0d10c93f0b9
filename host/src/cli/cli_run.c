/*
 * cli_run.c -- what every decoding subcommand does: parse the shared
 * options, open the output when the driver asks, hand the run to the
 * driver (cli/drive.h: inputs, decoders, merge, sinks), report I/O
 * errors with the file's name, and turn it all into one exit status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/opts.h"
#include "core/out.h"
#include "cli/drive.h"
#include "core/pipe.h"
#include "core/stop.h"

const struct cli_opt cli_common_opts[] = {
	{ "proto", 'p', "NAME", "protocol of the input, or 'auto' (default: auto)" },
	{ NULL, 'o', "KEY=VALUE", "option for the decoder or the output format (repeatable)" },
	{ "output", 0, "FILE", "write to FILE instead of standard output" },
	{ "quiet", 'q', NULL, "do not print diagnostics (they are still counted)" },
	{ "max-diags", 0, "N", "print at most N diagnostics (default 1000, 0 = all)" },
	{ "from", 0, "T", "only events from T: the target's seconds as printed (1017.5, 250ms), ticks (123t), +T from the first record" },
	{ "to", 0, "T", "only events up to T (as --from)" },
	{ "core", 0, "LIST", "only events of these cores (0 / 0,2 / 1-3)" },
	{ "filter", 0, "EXPR", "[!]kind|name|obj=GLOB[,GLOB...]: only matching events (repeatable)" },
	{ "elf", 0, "FILE", "name code addresses from FILE's symbols, in every format (= -o elf=FILE)" },
	{ "help", 'h', NULL, "show this help" },
	{ NULL, 0, NULL, NULL }
};

void cli_common_init(struct cli_common *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->input = "-";
	c->proto = "auto";
	c->max_diags = 1000;
}

static int is(const struct cli_opt *o, const char *name, char s)
{
	return (name && o->name && strcmp(o->name, name) == 0) || (s && o->short_name == s);
}

int cli_common_opt(struct cli_common *c, const struct cli_opt *o, const char *val, int *rc)
{
	*rc = 0;
	if (is(o, "proto", 'p')) {
		c->proto = val;
	} else if (is(o, NULL, 'o')) {
		const char *eq = strchr(val, '=');
		if (!eq || eq == val) {
			fprintf(stderr, "sonde %s: option '-o' expects KEY=VALUE, got '%s'\n", c->cmd, val);
			*rc = -1;
		} else if (c->nkv == CLI_MAX_OPTS) {
			fprintf(stderr, "sonde %s: too many '-o' options (at most %d)\n", c->cmd, CLI_MAX_OPTS);
			*rc = -1;
		} else {
			c->kv[c->nkv++] = val;
			c->kv[c->nkv] = NULL;
		}
	} else if (is(o, "output", 0)) {
		c->output = val;
	} else if (is(o, "quiet", 'q')) {
		c->quiet = 1;
	} else if (is(o, "max-diags", 0)) {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(val, &end, 10);
		if (!*val || *end || *val == '-' || errno) {
			fprintf(stderr, "sonde %s: option '--max-diags' expects a number, got '%s'\n", c->cmd, val);
			*rc = -1;
		}
		c->max_diags = n;
	} else if (is(o, "help", 'h')) {
		c->help = 1;
	} else if (is(o, "elf", 0)) {
		c->elf = val;
	} else if (is(o, "from", 0) || is(o, "to", 0) || is(o, "core", 0) || is(o, "filter", 0)) {
		char err[256];
		if (sonde_select_option(&c->sel, o->name, val, err, sizeof(err)) != 0) {
			fprintf(stderr, "sonde %s: option '--%s': %s\n", c->cmd, o->name, err);
			*rc = -1;
		}
	} else {
		return 0;
	}
	return 1;
}

int cli_common_arg(struct cli_common *c, const char *arg)
{
	if (c->ninputs++) {
		fprintf(stderr, "sonde %s: one input at most (got '%s' and '%s')\n", c->cmd, c->input, arg);
		return -1;
	}
	c->input = arg;
	c->inputs[0] = arg;
	return 0;
}

int cli_common_input(struct cli_common *c, const char *arg)
{
	if (c->ninputs == CLI_MAX_INPUTS) {
		fprintf(stderr, "sonde %s: too many inputs (at most %d)\n", c->cmd, CLI_MAX_INPUTS);
		return -1;
	}
	if (c->ninputs == 0)
		c->input = arg;
	c->inputs[c->ninputs++] = arg;
	return 0;
}

/* Open the output named in c: stdout, or a file created now (the
 * driver calls it once the inputs are open). */
static FILE *open_output(void *ctx, const char **name)
{
	struct cli_common *c = ctx;
	*name = "<stdout>";
	if (!c->output || strcmp(c->output, "-") == 0)
		return stdout;
	if (c->output_by_sink) {
		/* the sink creates it (pipe.h, output_path); stdout is
		 * handed on but nothing is written to it */
		*name = c->output;
		return stdout;
	}
	FILE *out = sonde_out_create(c->output);
	*name = c->output;
	if (!out)
		fprintf(stderr, "sonde %s: cannot create '%s': %s\n", c->cmd, c->output, strerror(errno));
	return out;
}

/* Flush and close the output; returns rc, or SONDE_EXIT_IO after a write
 * error (said here unless the pipeline said it already). */
static int close_output(struct cli_common *c, FILE *out, const char *name, int reported, int rc)
{
	char why[200];
	if (out && sonde_out_close(out, why, sizeof(why)) != 0) {
		if (!reported)
			fprintf(stderr, "sonde %s: %s: write error: %s\n", c->cmd, name, why);
		rc = SONDE_EXIT_IO;
	}
	return rc;
}

/* A stop (Ctrl-C, SIGTERM) ended the input early: the outputs hold what
 * was read, finished (unless their reader stopped taking them: then that
 * was said); the status says the command was interrupted. */
static int stopped(struct cli_common *c, int rc)
{
	int sig = sonde_stop_signal();
	if (!sig)
		return rc;
	fprintf(stderr, "sonde %s: %s: stopped before the end of the input\n", c->cmd, strsignal(sig));
	return sonde_stop_status();
}

int cli_window_check(struct cli_common *c, int rc)
{
	char msg[400];
	if (!sonde_select_window_empty(&c->sel, msg, sizeof(msg)))
		return rc;
	fprintf(stderr, "sonde %s: --from/--to: %s\n", c->cmd, msg);
	return rc > SONDE_EXIT_USAGE ? rc : SONDE_EXIT_USAGE;
}

int cli_run_hooks(struct cli_common *c, const struct sonde_drive_hooks *h, void *ctx)
{
	int rc = cli_stages_open(c);
	if (rc)
		return rc;
	if (c->ninputs == 0) /* no operand: standard input */
		c->inputs[0] = c->input;
	struct sonde_drive d = {
		.cmd = c->cmd,
		.inputs = c->inputs,
		.ninputs = c->ninputs ? (size_t)c->ninputs : 1,
		.proto = c->proto,
		.kv = c->kv,
		.nkv = c->nkv,
		.diag_out = c->quiet ? NULL : stderr,
		.max_diags = c->max_diags,
		.open_output = open_output,
		.out_ctx = c,
		.h = h,
		.ctx = ctx,
	};
	/* the stages (cli_stages.c) go to the pipe that feeds the sinks */
	d.select = c->sel.active ? &c->sel : NULL;
	d.symbols = c->sym.syms ? &c->sym : NULL;
	d.output_path = c->output && strcmp(c->output, "-") != 0 ? c->output : NULL;
	rc = sonde_drive_run(&d);
	rc = close_output(c, d.out, d.out_name, d.write_error, rc);
	rc = cli_window_check(c, rc);
	cli_stages_close(c);
	return stopped(c, rc);
}

int cli_run(struct cli_common *c, int (*setup)(void *ctx, struct sonde_pipe *p, FILE *out),
	    int (*report)(void *ctx, struct sonde_pipe *p, FILE *out), void *ctx)
{
	struct sonde_drive_hooks h = { setup, report, NULL, NULL };
	return cli_run_hooks(c, &h, ctx);
}
