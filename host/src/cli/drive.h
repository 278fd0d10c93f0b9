/*
 * drive.h -- one decoding run: inputs -> framer -> decoder -> (merge) ->
 * sinks, for one input or many.  The command line (cli/cli_run.c) fills a
 * struct sonde_drive from its options and reports; everything between
 * opening the inputs and finishing the sinks is here.
 * It sits with the command line, at the top of the layers
 * (docs/hacking.md), because it is where they meet: it opens files
 * (sources/) and names decoders from the generated registry, which the
 * core's pipe must not reach.
 *
 * One input without an @SPEC is decoded straight into the sinks (core/
 * pipe.h).  Several inputs (or one with an @SPEC: FILE@N, FILE@KEY=VALUE
 * [,KEY=VALUE...], docs/cli.md section 1) are decoded each by a pipe of
 * its own and merged in time order into one more pipe that holds the
 * sinks (drive_merge.c, core/merge.h).
 */
#ifndef SONDE_DRIVE_H
#define SONDE_DRIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"

struct sonde_pipe;
struct sonde_select;
struct sonde_symbolizer;

#define SONDE_DRIVE_MAX_INPUTS 16 /* inputs merged into one stream */
#define SONDE_DRIVE_MAX_OPTS 63   /* -o options, and options of one input's SPEC */

/* What a command adds to a run.  Hooks return 0 or an exit status; any may
 * be NULL. */
struct sonde_drive_hooks {
	/* Add sinks and listeners to the pipe (out is the output stream). */
	int (*setup)(void *ctx, struct sonde_pipe *p, FILE *out);
	/* Print anything more after the run. */
	int (*report)(void *ctx, struct sonde_pipe *p, FILE *out);
	/* With several inputs (or one with an @SPEC), the pipe given to setup
	 * and report carries the merged stream: its sinks and listeners get
	 * the events of all inputs in time order, its session and counters
	 * are the totals (input_name "total (N inputs)").  Each input also has
	 * a pipe of its own, with its decoder, session and counters:
	 * setup_input may add listeners to it (they see that input alone, in
	 * its own clock; no sinks), report_input is called for each input
	 * before report. */
	int (*setup_input)(void *ctx, size_t i, struct sonde_pipe *in);
	int (*report_input)(void *ctx, size_t i, struct sonde_pipe *in, FILE *out);
};

struct sonde_drive {
	const char *cmd;                   /* messages say "sonde CMD: ..." */
	const char *const *inputs;         /* FILE or FILE@SPEC; "-" = standard input */
	size_t ninputs;                    /* 1 .. SONDE_DRIVE_MAX_INPUTS */
	const char *proto;                 /* a decoder's name, or "auto" / NULL: probe */
	sonde_opts kv;                     /* -o KEY=VALUE, NULL-terminated */
	size_t nkv;
	FILE *diag_out;                    /* NULL: diagnostics counted, not printed */
	uint64_t max_diags;                /* printed at most (all inputs together); 0 = all */
	/* handed to the pipe that feeds the sinks (core/pipe.h) */
	struct sonde_select *select;
	struct sonde_symbolizer *symbols;
	const char *output_path;
	/* Opens the output once the inputs are open (so that an input that
	 * cannot be read leaves no empty output behind): the stream and its
	 * name for messages, or NULL after a message. */
	FILE *(*open_output)(void *out_ctx, const char **name);
	void *out_ctx;
	const struct sonde_drive_hooks *h;
	void *ctx;                         /* of the hooks */

	/* set by sonde_drive_run: the output (NULL if never opened), its
	 * name, and whether a write error on it was said already */
	FILE *out;
	const char *out_name;
	int write_error;
};

/* Run d; returns the exit status (core/pipe.h: the worst of the inputs',
 * the decoders', the sinks' and the hooks').  Warns of -o options nobody
 * looked up.  The caller closes d->out. */
int sonde_drive_run(struct sonde_drive *d);

/* The '@' that starts the SPEC of a "FILE@SPEC" operand: the last one, if
 * what follows is empty, a number or holds a '='; else NULL (an '@' that is
 * part of the file's name). */
const char *sonde_drive_spec_at(const char *arg);

/* Read the SPEC of operand arg (input number pos) as a run of several
 * inputs does, touching no file: 0, or -1 after a message.  Lets the
 * command-line fuzzer reach it without running a command. */
int sonde_drive_spec_check(const struct sonde_drive *d, const char *arg, size_t pos);

/* The paragraph of the help texts on several inputs. */
void sonde_drive_print_inputs(FILE *out);

#endif /* SONDE_DRIVE_H */
