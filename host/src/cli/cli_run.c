/*
 * cli_run.c -- what every decoding subcommand does: parse the shared
 * options, open the input and output, run the pipeline, report I/O errors
 * with the file's name, and turn it all into one exit status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/opts.h"
#include "core/pipe.h"
#include "sources/source.h"

const struct cli_opt cli_common_opts[] = {
	{ "proto", 'p', "NAME", "protocol of the input, or 'auto' (default: auto)" },
	{ NULL, 'o', "KEY=VALUE", "option for the decoder or the output format (repeatable)" },
	{ "output", 0, "FILE", "write to FILE instead of standard output" },
	{ "quiet", 'q', NULL, "do not print diagnostics (they are still counted)" },
	{ "max-diags", 0, "N", "print at most N diagnostics (default 1000, 0 = all)" },
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
	return 0;
}

static int worst(int a, int b)
{
	return a > b ? a : b;
}

int cli_run(struct cli_common *c, int (*setup)(void *ctx, struct sonde_pipe *p, FILE *out),
	    int (*report)(void *ctx, struct sonde_pipe *p, FILE *out), void *ctx)
{
	if (c->proto && strcmp(c->proto, "auto") != 0 && !sonde_decoder_find(c->proto)) {
		char why[512];
		sonde_pipe_choose(c->proto, NULL, 0, why, sizeof(why));
		fprintf(stderr, "sonde %s: %s\n", c->cmd, why);
		return SONDE_EXIT_USAGE;
	}
	struct sonde_source src;
	if (sonde_source_open_file(&src, c->input) != 0) {
		fprintf(stderr, "sonde %s: cannot open '%s': %s\n", c->cmd, c->input, strerror(errno));
		return SONDE_EXIT_IO;
	}
	FILE *out = stdout;
	const char *out_name = "<stdout>";
	if (c->output && strcmp(c->output, "-") != 0) {
		out = fopen(c->output, "w");
		out_name = c->output;
		if (!out) {
			fprintf(stderr, "sonde %s: cannot create '%s': %s\n", c->cmd, c->output, strerror(errno));
			src.close(&src);
			return SONDE_EXIT_IO;
		}
	}
	sonde_opts kv = c->kv;
	sonde_opt_track(kv);
	struct sonde_pipe p;
	sonde_pipe_init(&p, kv);
	p.diag_out = c->quiet ? NULL : stderr;
	p.max_diags = c->max_diags;
	p.output_name = out_name;
	int rc = setup(ctx, &p, out);
	if (rc == 0) {
		rc = sonde_pipe_run(&p, &src, c->proto);
		if (rc != SONDE_EXIT_USAGE) {
			for (size_t i = 0; i < c->nkv; i++)
				if (!sonde_opt_was_used(kv, i))
					fprintf(stderr, "sonde %s: warning: option '-o %s' was not used by the decoder or the output format\n",
						c->cmd, c->kv[i]);
			if (report)
				rc = worst(rc, report(ctx, &p, out));
		}
	}
	int reported = p.write_error;
	sonde_pipe_destroy(&p);
	src.close(&src);
	errno = 0;
	int werr = fflush(out) != 0 || ferror(out);
	if (out != stdout)
		werr |= fclose(out) != 0;
	if (werr) {
		if (!reported) /* else the pipeline said so already */
			fprintf(stderr, "sonde %s: %s: write error: %s\n", c->cmd, out_name,
				errno ? strerror(errno) : "write failed");
		rc = SONDE_EXIT_IO;
	}
	return rc;
}
