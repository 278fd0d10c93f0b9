/*
 * cli.h -- the command-line front end.  Each subcommand is a file
 * cmd_<name>.c exporting `const struct sonde_cmd sonde_cmd_<name>`; the
 * build generates the table of them (host/CMakeLists.txt), so a new one is
 * one new file;
 * option parsing (cli_args.c) and what the decoding subcommands share
 * around the driver of cli/drive.h (cli_run.c: options, output, exit
 * status) live here too.
 */
#ifndef SONDE_CLI_H
#define SONDE_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/drive.h"
#include "core/select.h"
#include "core/symbolize.h"

struct sonde_cmd {
	const char *name;
	const char *summary;   /* one line for `sonde --help` */
	/* argv[0] is the command's name; returns the exit status. */
	int (*run)(int argc, char **argv);
	void (*help)(FILE *out); /* full help: usage, options */
	/* For `sonde help --list` (completions, the tables of docs/cli.md):
	 * the command's option table, what its operands are ("FILE", "LINK",
	 * "COMMAND"), and for COMMAND the words it takes (NULL for help: the
	 * commands' names). */
	const struct cli_opt *(*opts)(void);
	const char *operand;
	const char *words;
};

/* The table (generated registry.c), NULL-terminated; help comes last. */
extern const struct sonde_cmd *const sonde_cmds[];
const struct sonde_cmd *sonde_cmd_find(const char *name);

int sonde_cli_main(int argc, char **argv);

/* ---- options (cli_args.c) ---------------------------------------------- */

struct cli_opt {
	const char *name;   /* long name, without "--" */
	char short_name;    /* 0 if none */
	const char *arg;    /* value's name in the help, NULL for a flag */
	const char *help;
};

/* Parses argv[1..argc).  on_opt gets each option (val NULL for flags),
 * on_arg each operand; both return 0 or -1 (after printing why).  "--" ends
 * the options; "-" is an operand.  Returns 0, or -1 after printing
 * "sonde CMD: ..." for an unknown option or a missing/extra value. */
int cli_parse(const char *cmd, int argc, char **argv, const struct cli_opt *opts,
	      int (*on_opt)(void *ctx, const struct cli_opt *o, const char *val),
	      int (*on_arg)(void *ctx, const char *arg), void *ctx);
void cli_print_opts(FILE *out, const struct cli_opt *opts);
/* A command's own options (n of them) followed by cli_common_opts, in
 * buf (room for n + CLI_COMMON_NOPTS); returns buf. */
const struct cli_opt *cli_opts_join(struct cli_opt *buf, const struct cli_opt *own, size_t n);
/* The shared options alone, as a command's table. */
const struct cli_opt *cli_common_table(void);
/* Lists of the registered decoders and sinks, for the help texts. */
void cli_print_protocols(FILE *out);
void cli_print_formats(FILE *out);
/* The exit statuses of the decoding commands; all: send's 4 too. */
void cli_print_exit_codes(FILE *out, int all);

/* ---- decoding a file (cli_run.c) --------------------------------------- */

#define CLI_MAX_OPTS SONDE_DRIVE_MAX_OPTS
#define CLI_COMMON_NOPTS 16 /* room for cli_common_opts in a command's table */
#define CLI_MAX_INPUTS SONDE_DRIVE_MAX_INPUTS /* inputs merged into one stream */

/* The options every decoding command shares. */
struct cli_common {
	const char *cmd;
	const char *input;          /* "-" = stdin; the first of inputs[] */
	const char *inputs[CLI_MAX_INPUTS]; /* FILE[@SPEC] operands (cli_common_input) */
	const char *proto;          /* name or "auto" */
	const char *output;         /* NULL = stdout */
	int output_by_sink;         /* the format writes --output itself (a sink with
				     * create_at): cli_open_output leaves it alone */
	const char *kv[CLI_MAX_OPTS + 1]; /* -o key=value, NULL-terminated */
	size_t nkv;
	int quiet;
	uint64_t max_diags;
	int help;
	int ninputs;
	struct sonde_select sel;    /* --from, --to, --core, --filter */
	const char *elf;            /* --elf FILE (or -o elf=FILE) */
	struct sonde_symbolizer sym;
};

/* The shared options' table entries (to be included in a command's table)
 * and their handling: returns 1 if o was one of them (0 ok / -1 error in
 * *rc), 0 if not. */
extern const struct cli_opt cli_common_opts[];
void cli_common_init(struct cli_common *c, const char *cmd);
int cli_common_opt(struct cli_common *c, const struct cli_opt *o, const char *val, int *rc);
/* An operand of a command that takes one input (a second is an error)... */
int cli_common_arg(struct cli_common *c, const char *arg);
/* ...or several, merged into one stream by cli_run (docs/cli.md §1):
 * FILE, FILE@N (core N) or FILE@KEY=VALUE[,KEY=VALUE...] with the keys
 * core, proto and the decoder's own options. */
int cli_common_input(struct cli_common *c, const char *arg);

struct sonde_pipe;

/* Open the inputs and the output named in c, let the hooks add sinks and
 * listeners, decode (merging several inputs), let the hooks report.
 * Returns the exit status (docs/cli.md). */
int cli_run_hooks(struct cli_common *c, const struct sonde_drive_hooks *h, void *ctx);
/* The same with just setup and report (may be NULL). */
int cli_run(struct cli_common *c, int (*setup)(void *ctx, struct sonde_pipe *p, FILE *out),
	    int (*report)(void *ctx, struct sonde_pipe *p, FILE *out), void *ctx);

/* The stages between decoder and sinks (cli_stages.c): cli_stages_open
 * loads the ELF symbols (0, or SONDE_EXIT_USAGE after a message),
 * cli_stages_apply hands the selection and the symbols to a pipe,
 * cli_stages_close frees them.  cli_run_hooks does all three. */
int cli_stages_open(struct cli_common *c);
void cli_stages_apply(struct cli_common *c, struct sonde_pipe *p);
void cli_stages_close(struct cli_common *c);
/* After a run: a time window that held none of the trace's timed records is
 * said, with the trace's time range, and is a usage error.  Returns the new
 * status. */
int cli_window_check(struct cli_common *c, int rc);
void cli_print_selection(FILE *out);

#endif /* SONDE_CLI_H */
