/*
 * cli_run.c -- what every decoding subcommand does: parse the shared
 * options, open the input and output, run the pipeline, report I/O errors
 * with the file's name, and turn it all into one exit status.  Several
 * inputs (or one with an @SPEC) are decoded and merged by cli_merge.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/opts.h"
#include "core/out.h"
#include "core/pipe.h"
#include "core/stop.h"
#include "sources/source.h"

const struct cli_opt cli_common_opts[] = {
	{ "proto", 'p', "NAME", "protocol of the input, or 'auto' (default: auto)" },
	{ NULL, 'o', "KEY=VALUE", "option for the decoder or the output format (repeatable)" },
	{ "output", 0, "FILE", "write to FILE instead of standard output" },
	{ "quiet", 'q', NULL, "do not print diagnostics (they are still counted)" },
	{ "max-diags", 0, "N", "print at most N diagnostics (default 1000, 0 = all)" },
	{ "from", 0, "T", "only events from T: seconds from the first record (1.5, 250ms) or ticks (123t)" },
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

static int worst(int a, int b)
{
	return a > b ? a : b;
}

/* Open the output named in c: stdout, or a file created now. */
FILE *cli_open_output(struct cli_common *c, const char **name)
{
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
int cli_close_output(struct cli_common *c, FILE *out, const char *name, int reported, int rc)
{
	char why[200];
	if (sonde_out_close(out, why, sizeof(why)) != 0) {
		if (!reported)
			fprintf(stderr, "sonde %s: %s: write error: %s\n", c->cmd, name, why);
		rc = SONDE_EXIT_IO;
	}
	return rc;
}

void cli_warn_unused(struct cli_common *c, size_t i)
{
	fprintf(stderr, "sonde %s: warning: option '-o %s' was not used by the decoder or the output format\n",
		c->cmd, c->kv[i]);
}

/* One input, decoded straight into the sinks. */
static int run_single(struct cli_common *c, const char *path, const struct cli_hooks *h, void *ctx)
{
	struct sonde_source src;
	if (sonde_source_open_file(&src, path) != 0) {
		fprintf(stderr, "sonde %s: cannot open '%s': %s\n", c->cmd, path, strerror(errno));
		return SONDE_EXIT_IO;
	}
	const char *out_name;
	FILE *out = cli_open_output(c, &out_name);
	if (!out) {
		src.close(&src);
		return SONDE_EXIT_IO;
	}
	sonde_opts kv = c->kv;
	sonde_opt_track(kv);
	struct sonde_pipe p;
	sonde_pipe_init(&p, kv);
	p.diag_out = c->quiet ? NULL : stderr;
	p.max_diags = c->max_diags;
	p.output_name = out_name;
	cli_stages_apply(c, &p);
	int rc = h->setup ? h->setup(ctx, &p, out) : 0;
	if (rc == 0) {
		rc = sonde_pipe_run(&p, &src, c->proto);
		if (rc != SONDE_EXIT_USAGE) {
			for (size_t i = 0; i < c->nkv; i++)
				if (!sonde_opt_was_used(kv, i))
					cli_warn_unused(c, i);
			if (h->report)
				rc = worst(rc, h->report(ctx, &p, out));
		}
	}
	int reported = p.write_error;
	sonde_pipe_destroy(&p);
	src.close(&src);
	return cli_close_output(c, out, out_name, reported, rc);
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

static int run_hooks(struct cli_common *c, const struct cli_hooks *h, void *ctx)
{
	if (c->proto && strcmp(c->proto, "auto") != 0 && !sonde_decoder_find(c->proto)) {
		char why[512];
		sonde_pipe_choose(c->proto, NULL, 0, why, sizeof(why));
		fprintf(stderr, "sonde %s: %s\n", c->cmd, why);
		return SONDE_EXIT_USAGE;
	}
	int rc = cli_stages_open(c);
	if (rc)
		return rc;
	const char *at = cli_spec_at(c->input);
	if (c->ninputs <= 1 && !at) {
		/* one input without an @SPEC: decoded straight, as it always was */
		rc = run_single(c, c->input, h, ctx);
	} else if (c->ninputs <= 1 && !at[1]) {
		char *path = strndup(c->input, (size_t)(at - c->input));
		rc = path ? run_single(c, path, h, ctx) : SONDE_EXIT_IO;
		free(path);
	} else {
		rc = cli_run_merged(c, (size_t)c->ninputs, h, ctx);
	}
	cli_stages_close(c);
	return rc;
}

int cli_run_hooks(struct cli_common *c, const struct cli_hooks *h, void *ctx)
{
	return stopped(c, run_hooks(c, h, ctx));
}

int cli_run(struct cli_common *c, int (*setup)(void *ctx, struct sonde_pipe *p, FILE *out),
	    int (*report)(void *ctx, struct sonde_pipe *p, FILE *out), void *ctx)
{
	struct cli_hooks h = { setup, report, NULL, NULL };
	return cli_run_hooks(c, &h, ctx);
}
