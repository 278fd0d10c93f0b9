/*
 * cmd_report.c -- `sonde report TRACE... -o report.html`: decode a trace (or
 * several, merged) into the self-contained HTML report (the "html" format,
 * sink_html.c; docs/report.md).  Here -o names the output file when its
 * value has no '='; -o KEY=VALUE is an option as everywhere else.
 */
#include <libgen.h>
#include <string.h>

#include <unistd.h>

#include "cli.h"
#include "cli/drive.h"
#include "core/pipe.h"

/* Without -o, a terminal would get megabytes of HTML: the report goes to
 * a file named after the first input instead (trace.bin -> trace.html, in
 * the current directory), and that is said; a pipe or a redirection still
 * gets it on standard output.  Standard input has no name: refused. */
static int report_default_output(struct cli_common *c, char *name, size_t len)
{
	if (c->output || !isatty(STDOUT_FILENO))
		return 0;
	char path[4096];
	const char *at = c->ninputs ? sonde_drive_spec_at(c->input) : NULL;
	snprintf(path, sizeof(path), "%.*s", at ? (int)(at - c->input) : (int)strlen(c->input), c->input);
	const char *base = basename(path);
	if (!c->ninputs || strcmp(c->input, "-") == 0 || !*base || strcmp(base, "/") == 0) {
		fprintf(stderr, "sonde report: standard output is a terminal and the input has no name to "
				"name the report after: give -o FILE.html, or pipe it (| cat >FILE.html)\n");
		return SONDE_EXIT_USAGE;
	}
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	snprintf(name, len, "%.*s.html", (int)stem, base);
	if (strcmp(name, base) == 0) {
		fprintf(stderr, "sonde report: standard output is a terminal, and '%s' would name the report "
				"after its own input: give -o FILE\n", name);
		return SONDE_EXIT_USAGE;
	}
	c->output = name;
	fprintf(stderr, "sonde report: standard output is a terminal: writing the report to '%s' "
			"(-o FILE names another)\n", name);
	return 0;
}

static int report_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct cli_common *c = ctx;
	int rc;
	if (o->short_name == 'o' && !o->name && val && !strchr(val, '=')) {
		c->output = val;
		return 0;
	}
	cli_common_opt(c, o, val, &rc);
	return rc;
}

static int report_arg(void *ctx, const char *arg)
{
	return cli_common_input(ctx, arg);
}

static int report_setup(void *ctx, struct sonde_pipe *p, FILE *out)
{
	(void)ctx;
	return sonde_pipe_add_sink(p, sonde_sink_find("html"), out) == 0 ? 0 : SONDE_EXIT_USAGE;
}

static void report_help(FILE *out)
{
	fprintf(out, "usage: sonde report [FILE[@SPEC]...|-] -o report.html [--elf FILE] [--from T] [--to T]\n"
		     "                    [--core LIST] [--filter EXPR] [-o KEY=VALUE ...] [-q]\n\n"
		     "Decode a trace and write one self-contained HTML page (works offline, from a\n"
		     "file:// URL): a zoomable timeline of every core, the flame graph and call tree\n"
		     "of the function profile, and the tables of tasks, ISRs, functions, markers,\n"
		     "counters and losses.  The same as 'sonde decode --format html'.  -o FILE (a\n"
		     "value without '=') is the output; -o report.title=TEXT names the page;\n"
		     "-o report.max_items=N sets the timeline's detail budget (docs/report.md).\n"
		     "Without -o the report goes to standard output -- unless that is a terminal:\n"
		     "then to FILE's name with .html (trace.bin -> trace.html), said on stderr.\n\n");
	sonde_drive_print_inputs(out);
	fprintf(out, "\noptions:\n");
	cli_print_opts(out, cli_common_opts);
	fprintf(out, "\n");
	cli_print_selection(out);
	fprintf(out, "\n");
	cli_print_exit_codes(out, 0);
}

static int report_run(int argc, char **argv)
{
	struct cli_common c;
	cli_common_init(&c, "report");
	if (cli_parse("report", argc, argv, cli_common_opts, report_opt, report_arg, &c) != 0) {
		sonde_select_free(&c.sel);
		return SONDE_EXIT_USAGE;
	}
	if (c.help) {
		report_help(stdout);
		sonde_select_free(&c.sel);
		return SONDE_EXIT_OK;
	}
	char name[4200];
	int rc = report_default_output(&c, name, sizeof(name));
	if (rc) {
		sonde_select_free(&c.sel);
		return rc;
	}
	return cli_run(&c, report_setup, NULL, NULL);
}

const struct sonde_cmd sonde_cmd_report = {
	.name = "report",
	.summary = "write a self-contained HTML report: timeline, flame graph, analyses",
	.run = report_run,
	.help = report_help,
	.opts = cli_common_table,
	.operand = "FILE",
};
