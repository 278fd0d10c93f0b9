/*
 * cli_stages.c -- the stages every decoding command puts between the
 * decoder and its sinks: the selection (--from, --to, --core, --filter;
 * core/select.h) and the ELF symbols (--elf or -o elf=; core/symbolize.h).
 */
#include <string.h>

#include "cli.h"
#include "core/opts.h"
#include "core/pipe.h"

int cli_stages_open(struct cli_common *c)
{
	const char *elf = c->elf ? c->elf : sonde_opt_get(c->kv, "elf");
	char err[512];
	if (!elf || c->sym.syms)
		return 0;
	if (sonde_symbolizer_open(&c->sym, elf, err, sizeof(err)) != 0) {
		fprintf(stderr, "sonde %s: --elf %s: %s\n", c->cmd, elf, err);
		return SONDE_EXIT_USAGE;
	}
	return 0;
}

void cli_stages_apply(struct cli_common *c, struct sonde_pipe *p)
{
	p->select = c->sel.active ? &c->sel : NULL;
	p->symbols = c->sym.syms ? &c->sym : NULL;
	p->output_path = c->output && strcmp(c->output, "-") != 0 ? c->output : NULL;
}

void cli_stages_close(struct cli_common *c)
{
	sonde_symbolizer_close(&c->sym);
	sonde_select_free(&c->sel);
}

void cli_print_selection(FILE *out)
{
	fprintf(out, "Selection (--from, --to, --core, --filter) applies before every output and\n"
		     "analysis.  Times are the target's, as decode prints them: seconds (1017.148405,\n"
		     "250ms) or ticks (123t); +T counts from the first timed record (+1.5, +2ms), as\n"
		     "the timelines do.  A window outside the trace is an error that says the trace's\n"
		     "range.  --filter kind=isr_*  name=Packet  obj=UART_RX  !kind=log ...\n"
		     "See docs/cli.md section 2.\n");
}
