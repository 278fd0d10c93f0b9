/*
 * cli_main.c -- `sonde <command> ...`: the global options and the dispatch
 * to a subcommand.
 */
#include <string.h>

#include "cli.h"
#include "core/pipe.h"
#include "sonde_commit.h" /* generated: SONDE_COMMIT */

void cli_main_help(FILE *out);

int sonde_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		cli_main_help(stderr);
		return SONDE_EXIT_USAGE;
	}
	const char *a = argv[1];
	int rc;
	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		cli_main_help(stdout);
		rc = SONDE_EXIT_OK;
	} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
		printf("sonde %s (commit %s)\n", SONDE_VERSION, SONDE_COMMIT);
		rc = SONDE_EXIT_OK;
	} else if (a[0] == '-') {
		fprintf(stderr, "sonde: unknown option '%s' (see 'sonde --help')\n", a);
		return SONDE_EXIT_USAGE;
	} else {
		const struct sonde_cmd *c = sonde_cmd_find(a);
		if (!c) {
			fprintf(stderr, "sonde: unknown command '%s' (see 'sonde --help')\n", a);
			return SONDE_EXIT_USAGE;
		}
		rc = c->run(argc - 1, argv + 1);
	}
	/* help or version to a full disk, say, is an I/O error too; a decoding
	 * command has checked its own output already */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc < SONDE_EXIT_IO) {
		fprintf(stderr, "sonde: <stdout>: write error\n");
		rc = SONDE_EXIT_IO;
	}
	return rc;
}
