/*
 * cli_args.c -- a small option parser with the error messages we want
 * ("sonde decode: unknown option '--frmat'"), and the help helpers.
 * getopt_long would do the parsing but prints its own, less specific
 * messages and permutes argv behind our back.
 */
#include <string.h>

#include "cli.h"
#include "pipeline.h"

static const struct cli_opt *find_long(const struct cli_opt *opts, const char *name, size_t len)
{
	for (const struct cli_opt *o = opts; o->name || o->short_name; o++)
		if (o->name && strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *opts, char c)
{
	for (const struct cli_opt *o = opts; o->name || o->short_name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

int cli_parse(const char *cmd, int argc, char **argv, const struct cli_opt *opts,
	      int (*on_opt)(void *ctx, const struct cli_opt *o, const char *val),
	      int (*on_arg)(void *ctx, const char *arg), void *ctx)
{
	int only_args = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_args || a[0] != '-' || a[1] == '\0') {
			if (on_arg(ctx, a) != 0)
				return -1;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_args = 1;
			continue;
		}
		const struct cli_opt *o;
		const char *val = NULL;
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(opts, name, len);
			if (!o) {
				fprintf(stderr, "sonde %s: unknown option '--%.*s' (see 'sonde help %s')\n", cmd,
					(int)len, name, cmd);
				return -1;
			}
			if (eq) {
				if (!o->arg) {
					fprintf(stderr, "sonde %s: option '--%s' takes no value\n", cmd, o->name);
					return -1;
				}
				val = eq + 1;
			}
		} else {
			o = find_short(opts, a[1]);
			if (!o) {
				fprintf(stderr, "sonde %s: unknown option '-%c' (see 'sonde help %s')\n", cmd, a[1], cmd);
				return -1;
			}
			if (a[2]) {
				if (!o->arg) {
					fprintf(stderr, "sonde %s: option '-%c' takes no value (got '%s')\n", cmd, a[1], a);
					return -1;
				}
				val = a + 2;
			}
		}
		if (o->arg && !val) {
			if (i + 1 >= argc) {
				if (o->name)
					fprintf(stderr, "sonde %s: option '--%s' needs a value (%s)\n", cmd, o->name, o->arg);
				else
					fprintf(stderr, "sonde %s: option '-%c' needs a value (%s)\n", cmd, o->short_name,
						o->arg);
				return -1;
			}
			val = argv[++i];
		}
		if (on_opt(ctx, o, val) != 0)
			return -1;
	}
	return 0;
}

const struct cli_opt *cli_opts_join(struct cli_opt *buf, const struct cli_opt *own, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		buf[k++] = own[i];
	for (size_t i = 0; cli_common_opts[i].name || cli_common_opts[i].short_name; i++)
		buf[k++] = cli_common_opts[i];
	memset(&buf[k], 0, sizeof(buf[k]));
	return buf;
}

const struct cli_opt *cli_common_table(void)
{
	return cli_common_opts;
}

void cli_print_opts(FILE *out, const struct cli_opt *opts)
{
	for (const struct cli_opt *o = opts; o->name || o->short_name; o++) {
		char left[64];
		int k = 0;
		if (o->short_name && o->name)
			k = snprintf(left, sizeof(left), "-%c, --%s", o->short_name, o->name);
		else if (o->name)
			k = snprintf(left, sizeof(left), "    --%s", o->name);
		else
			k = snprintf(left, sizeof(left), "-%c", o->short_name);
		if (o->arg && k > 0 && (size_t)k < sizeof(left))
			snprintf(left + k, sizeof(left) - (size_t)k, " %s", o->arg);
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
}

void cli_print_protocols(FILE *out)
{
	fprintf(out, "protocols (--proto):\n");
	fprintf(out, "  %-10s %s\n", "auto", "guess from the first bytes (the default)");
	for (size_t i = 0; sonde_decoders[i]; i++)
		fprintf(out, "  %-10s %s\n", sonde_decoders[i]->name, sonde_decoders[i]->desc);
}

void cli_print_formats(FILE *out)
{
	fprintf(out, "formats (--format):\n");
	for (size_t i = 0; sonde_sinks[i]; i++)
		fprintf(out, "  %-10s %s\n", sonde_sinks[i]->name, sonde_sinks[i]->desc);
}

void cli_print_exit_codes(FILE *out, int all)
{
	fprintf(out, "exit status: 0 clean stream; 1 the stream had errors (decoded anyway);\n"
		     "             2 usage error; 3 I/O error (input unreadable, output unwritable);\n"
		     "%s"
		     "             128+N stopped by signal N before the end of the input (130: Ctrl-C)\n",
		all ? "             4 the target refused the command (sonde send);\n" : "");
}
