/*
 * cli_main.c -- `sonde <command> ...`: the global options and the dispatch
 * to a subcommand.
 */
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "core/msg.h"
#include "core/out.h"
#include "core/pipe.h"
#include "core/stop.h"
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
	/* Ctrl-C ends every command cleanly (core/stop.h); standard output
	 * remembers why a write failed and gives up on a stalled reader after
	 * a stop (core/out.h).  glibc lets a program set stdout. */
	sonde_stop_install(NULL);
	FILE *o = sonde_out_fdopen(STDOUT_FILENO, "<stdout>");
	if (o)
		stdout = o;
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
		sonde_msg_command(a); /* every message from here on: "sonde CMD: " (core/msg.h) */
		rc = c->run(argc - 1, argv + 1);
	}
	/* help or version to a full disk, say, is an I/O error too; a decoding
	 * command has checked its own output already */
	char why[200];
	if (sonde_out_close(stdout, why, sizeof(why)) != 0 && rc < SONDE_EXIT_IO) {
		sonde_err("<stdout>: write error: %s", why);
		rc = SONDE_EXIT_IO;
	}
	return rc;
}
