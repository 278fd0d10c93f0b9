/*
 * cmd_help.c -- `sonde help [COMMAND]`, `sonde --help`, `sonde --version`.
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
	cli_print_exit_codes(out);
}

static void help_help(FILE *out)
{
	fprintf(out, "usage: sonde help [COMMAND]\n\nShow the help of a command, or the list of commands.\n");
}

static int help_run(int argc, char **argv)
{
	if (argc < 2) {
		cli_main_help(stdout);
		return SONDE_EXIT_OK;
	}
	if (argc > 2) {
		fprintf(stderr, "sonde help: one command at most (got '%s' and '%s')\n", argv[1], argv[2]);
		return SONDE_EXIT_USAGE;
	}
	const struct sonde_cmd *c = sonde_cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "sonde help: unknown command '%s' (see 'sonde --help')\n", argv[1]);
		return SONDE_EXIT_USAGE;
	}
	c->help(stdout);
	return SONDE_EXIT_OK;
}

const struct sonde_cmd sonde_cmd_help = {
	.name = "help",
	.summary = "show the help of a command",
	.run = help_run,
	.help = help_help,
};
