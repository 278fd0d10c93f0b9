/*
 * main.c -- the sonde host tool.  Everything is in the library (sonde_host)
 * so that tests can drive it; see cli/cli_main.c.
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return sonde_cli_main(argc, argv);
}
