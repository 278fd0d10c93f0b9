/*
 * cmd_help.c -- `sonde help [COMMAND]`, `sonde --help`, and `sonde help
 * --list [COMMAND]`: the command table and every command's options as
 * tab-separated lines, read by the shell completions and by
 * scripts/cli_docs.sh (the generated tables of docs/cli.md), so that
 * neither can drift from the program.
 */
#include <string.h>

#include "cli.h"
#include "core/pipe.h"

void cli_main_help(FILE *out);

void cli_main_help(FILE *out)
{
	fprintf(out, "usage: sonde <command> [options] [FILE|-]\n\n"
		     "Decode and analyse software traces of embedded targets: Sonde's own protocol\n"
		     "and the foreign ones built in (see 'sonde help decode').\n\ncommands:\n");
	for (size_t i = 0; sonde_cmds[i]; i++)
		fprintf(out, "  %-10s %s\n", sonde_cmds[i]->name, sonde_cmds[i]->summary);
	fprintf(out, "\noptions:\n"
		     "  -h, --help      show this help\n"
		     "  -V, --version   show the version\n\n"
		     "'sonde help COMMAND' or 'sonde COMMAND --help' shows a command's options.\n");
	cli_print_exit_codes(out, 1);
}

static const struct cli_opt help_opts[] = {
	{ "list", 0, NULL, "the commands, their operands and options as tab-separated lines (for scripts)" },
	{ "help", 'h', NULL, "show this help" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_opt *help_options(void)
{
	return help_opts;
}

static void help_help(FILE *out)
{
	fprintf(out, "usage: sonde help [COMMAND]\n"
		     "       sonde help --list [COMMAND]\n\n"
		     "Show the help of a command, or the list of commands.  --list prints, one per\n"
		     "line and tab-separated: 'command NAME SUMMARY', 'operand NAME KIND' (FILE,\n"
		     "LINK or COMMAND), 'word NAME WORD' (the words a COMMAND operand takes) and\n"
		     "'option NAME -S --LONG ARG HELP' ('-' for what an option does not have).\n\n"
		     "options:\n");
	cli_print_opts(out, help_opts);
}

static void list_cmd(FILE *out, const struct sonde_cmd *c)
{
	fprintf(out, "command\t%s\t%s\n", c->name, c->summary);
	if (c->operand)
		fprintf(out, "operand\t%s\t%s\n", c->name, c->operand);
	if (c->operand && strcmp(c->operand, "COMMAND") == 0 && !c->words)
		for (size_t i = 0; sonde_cmds[i]; i++)
			fprintf(out, "word\t%s\t%s\n", c->name, sonde_cmds[i]->name);
	for (const char *w = c->words; w && *w;) {
		size_t n = strcspn(w, " ");
		fprintf(out, "word\t%s\t%.*s\n", c->name, (int)n, w);
		w += n + (w[n] == ' ');
	}
	for (const struct cli_opt *o = c->opts ? c->opts() : NULL; o && (o->name || o->short_name); o++) {
		char s[3] = { '-', o->short_name, 0 };
		fprintf(out, "option\t%s\t%s\t%s%s\t%s\t%s\n", c->name, o->short_name ? s : "-", o->name ? "--" : "-",
			o->name ? o->name : "", o->arg ? o->arg : "-", o->help);
	}
}

struct help_args {
	int list, help;
	const char *cmd;
};

static int help_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct help_args *a = ctx;
	(void)val;
	if (o->short_name == 'h')
		a->help = 1;
	else
		a->list = 1;
	return 0;
}

static int help_arg(void *ctx, const char *arg)
{
	struct help_args *a = ctx;
	if (a->cmd) {
		fprintf(stderr, "sonde help: one command at most (got '%s' and '%s')\n", a->cmd, arg);
		return -1;
	}
	a->cmd = arg;
	return 0;
}

static int help_run(int argc, char **argv)
{
	struct help_args a = { 0 };
	if (cli_parse("help", argc, argv, help_opts, help_opt, help_arg, &a) != 0)
		return SONDE_EXIT_USAGE;
	if (a.help) {
		help_help(stdout);
		return SONDE_EXIT_OK;
	}
	const struct sonde_cmd *c = a.cmd ? sonde_cmd_find(a.cmd) : NULL;
	if (a.cmd && !c) {
		fprintf(stderr, "sonde help: unknown command '%s' (see 'sonde --help')\n", a.cmd);
		return SONDE_EXIT_USAGE;
	}
	if (a.list) {
		for (size_t i = 0; sonde_cmds[i]; i++)
			if (!c || c == sonde_cmds[i])
				list_cmd(stdout, sonde_cmds[i]);
	} else if (c) {
		c->help(stdout);
	} else {
		cli_main_help(stdout);
	}
	return SONDE_EXIT_OK;
}

const struct sonde_cmd sonde_cmd_help = {
	.name = "help",
	.summary = "show the help of a command",
	.run = help_run,
	.help = help_help,
	.opts = help_options,
	.operand = "COMMAND",
};
