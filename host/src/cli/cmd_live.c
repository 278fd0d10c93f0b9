/*
 * cmd_live.c -- `sonde live LINK`: decode a target's trace while it runs,
 * from a serial port, a TCP or UDP socket, a growing file or stdin; save
 * the raw bytes (-w) before decoding them; show a status line; send
 * commands from keys; end cleanly on Ctrl-C with the figures of `sonde
 * stats`.  This file holds the options and the pipeline around the loop
 * (live_loop.c); docs/live.md describes the whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "core/opts.h"
#include "core/out.h"
#include "live.h"

static const struct cli_opt live_own_opts[] = {
	{ "format", 'f', "NAME", "output format (default: text)" },
	{ "write", 'w', "FILE", "save the raw bytes to FILE as they arrive, before decoding" },
	{ "duration", 0, "S", "stop after S seconds (default: run until Ctrl-C, 'q' or the end of the input)" },
	{ "listen", 0, NULL, "LINK is [ADDR:]PORT to listen on for a TCP client (tcp-listen://)" },
	{ "follow", 0, NULL, "LINK is a file that grows: keep reading it (file:PATH)" },
	{ "baud", 0, "N", "baud rate of the link (serial: sets it; any link: enables the budget check)" },
	{ "flow", 0, "MODE", "serial flow control: none (default), rtscts, xonxoff" },
	{ "reconnect-timeout", 0, "S", "give up on a lost link after S seconds (default 30; 0 = never reconnect, "
				       "'inf' = never give up)" },
	{ "control", 0, "PATH", "share the link through a Unix socket (for 'sonde send --link unix:PATH')" },
	{ "serve", 0, "[ADDR:]PORT", "serve the report page over HTTP while capturing (127.0.0.1 unless ADDR)" },
	{ "show", 0, NULL, "with --output: print text records on stdout as well" },
	{ "no-show", 0, NULL, "with --output: print no records on stdout" },
	{ "no-keys", 0, NULL, "do not read keys from a terminal on stdin" },
	{ "no-status", 0, NULL, "no status line on stderr" },
};
#define NOWN (sizeof(live_own_opts) / sizeof(live_own_opts[0]))

static struct cli_opt all_opts[NOWN + CLI_COMMON_NOPTS];

static const struct cli_opt *options(void)
{
	return cli_opts_join(all_opts, live_own_opts, NOWN);
}

struct live_args {
	struct cli_common c;
	const char *format;
	struct live_opts o;
};

static int seconds(const char *opt, const char *val, double *out, int allow_inf)
{
	char *end;
	if (allow_inf && (strcmp(val, "inf") == 0 || strcmp(val, "forever") == 0)) {
		*out = -1;
		return 0;
	}
	errno = 0;
	double v = strtod(val, &end);
	if (!*val || *end || errno || v < 0 || v > 1e7) {
		fprintf(stderr, "sonde live: option '--%s' expects seconds, got '%s'\n", opt, val);
		return -1;
	}
	*out = v;
	return 0;
}

static int live_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct live_args *a = ctx;
	int rc;
	if (cli_common_opt(&a->c, o, val, &rc))
		return rc;
	const char *n = o->name;
	if (strcmp(n, "format") == 0) {
		a->format = val;
	} else if (strcmp(n, "write") == 0) {
		a->o.raw_path = val;
	} else if (strcmp(n, "duration") == 0) {
		return seconds(n, val, &a->o.duration, 0);
	} else if (strcmp(n, "reconnect-timeout") == 0) {
		return seconds(n, val, &a->o.reconnect_s, 1);
	} else if (strcmp(n, "listen") == 0) {
		a->o.listen = 1;
	} else if (strcmp(n, "follow") == 0) {
		a->o.follow = 1;
	} else if (strcmp(n, "baud") == 0) {
		char *end;
		errno = 0;
		unsigned long b = strtoul(val, &end, 10);
		if (!*val || *end || *val == '-' || errno || b == 0 || b > 12000000) {
			fprintf(stderr, "sonde live: option '--baud' expects a rate from 1 to 12000000, got '%s'\n", val);
			return -1;
		}
		a->o.baud = (uint32_t)b;
	} else if (strcmp(n, "flow") == 0) {
		a->o.flow = strcmp(val, "none") == 0 ? SONDE_FLOW_NONE : strcmp(val, "rtscts") == 0 ? SONDE_FLOW_RTSCTS
			  : strcmp(val, "xonxoff") == 0 ? SONDE_FLOW_XONXOFF : -1;
		if (a->o.flow < 0) {
			fprintf(stderr, "sonde live: option '--flow' expects none, rtscts or xonxoff, got '%s'\n", val);
			return -1;
		}
	} else if (strcmp(n, "control") == 0) {
		a->o.ctl_path = val;
	} else if (strcmp(n, "serve") == 0) {
		if (live_serve_check(val) != 0)
			return -1;
		a->o.serve = val;
	} else if (strcmp(n, "show") == 0) {
		a->o.show = 1;
	} else if (strcmp(n, "no-show") == 0) {
		a->o.show = 0;
	} else if (strcmp(n, "no-keys") == 0) {
		a->o.keys = 0;
	} else if (strcmp(n, "no-status") == 0) {
		a->o.status = 0;
	}
	return 0;
}

static int live_arg(void *ctx, const char *arg)
{
	struct live_args *a = ctx;
	return cli_common_arg(&a->c, arg);
}

static void live_help(FILE *out)
{
	fprintf(out,
		"usage: sonde live LINK [--proto NAME] [--format NAME] [-o KEY=VALUE ...] [--output FILE]\n"
		"                  [-w RAW] [--duration S] [--baud N] [--reconnect-timeout S] [-q] ...\n\n"
		"Decode a target's trace as it arrives.  LINK is one of\n"
		"  serial:DEVICE[:BAUD[:8N1[:FLOW]]]  or a tty's path (any baud rate up to 12 Mbaud)\n"
		"  tcp://HOST:PORT                    connect to a TCP server (QEMU -serial tcp:...,server)\n"
		"  tcp-listen://[ADDR:]PORT           wait for a TCP client (127.0.0.1 unless ADDR); or --listen\n"
		"  udp://[ADDR:]PORT                  receive datagrams (127.0.0.1 unless ADDR)\n"
		"  gdb://HOST:PORT[?OPTIONS]          the RTT buffer of sonde_rtt.h, through a GDB server\n"
		"                                     (QEMU -gdb, OpenOCD, pyOCD, J-Link); --elf finds it;\n"
		"                                     options elf=, cb=ADDR, scan=ADDR:SIZE, up=, down=, poll=MS\n"
		"  file:PATH --follow                 a growing file, read from its start (like tail -f)\n"
		"  -                                  standard input\n"
		"Raw bytes go to the -w file before they are decoded, so an interrupted session\n"
		"keeps all it received.  A lost TCP connection or serial device is reconnected.\n"
		"When stderr is a terminal a status line shows rates, records, errors and drops.\n"
		"When stdin is a terminal, keys send commands on the link (docs/protocol.md 9):\n"
		"  i info, s start/stop, t trigger, r readout, c reset counters, p stats, h help, q quit\n"
		"--serve [ADDR:]PORT serves the report page (as 'sonde report' makes) over HTTP while\n"
		"it captures; the page follows the target.  Any address but 127.0.0.1 lets anyone\n"
		"who reaches it read the trace (no authentication).\n"
		"Ctrl-C (SIGINT, SIGTERM) ends the session: outputs are finished and the figures of\n"
		"'sonde stats' are printed on stderr.\n\noptions:\n");
	cli_print_opts(out, options());
	fprintf(out, "\n");
	cli_print_protocols(out);
	fprintf(out, "\n");
	cli_print_formats(out);
	fprintf(out, "\nexit status: 0 clean stream; 1 the stream had errors (decoded anyway); 2 usage error;\n"
		     "             3 I/O error: the link could not be opened or stayed lost past\n"
		     "             --reconnect-timeout, or an output or the raw file could not be written\n");
}

static void link_log(void *ctx, const char *msg)
{
	struct live *lv = ctx;
	if (!lv->quiet)
		live_msg(lv, "sonde live: %s: %s", lv->link.name, msg);
}

/* The link's text, with --listen / --follow applied.  0, or the exit
 * status after a message: usage, or I/O for a path that does not exist. */
static int link_spec(struct live_args *a, struct sonde_link_spec *spec)
{
	char text[SONDE_LINK_PATH_MAX + 32];
	const char *t = a->c.input;
	if (strlen(t) >= SONDE_LINK_PATH_MAX) {
		fprintf(stderr, "sonde live: link too long: %s\n", t);
		return SONDE_EXIT_USAGE;
	}
	if (a->o.listen && !strstr(t, "://")) {
		if (snprintf(text, sizeof(text), "tcp-listen://%s", t) >= (int)sizeof(text))
			return SONDE_EXIT_USAGE;
		t = text;
	}
	char why[512];
	if (sonde_link_parse(t, spec, why, sizeof(why)) != 0) {
		struct stat st;
		if (stat(t, &st) != 0 || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "sonde live: %s\n", why);
			return strncmp(why, "no such file", 12) == 0 ? SONDE_EXIT_IO : SONDE_EXIT_USAGE;
		}
		char ftext[SONDE_LINK_PATH_MAX + 8];
		if (snprintf(ftext, sizeof(ftext), "file:%s", t) >= (int)sizeof(ftext) || /* a plain file's path */
		    sonde_link_parse(ftext, spec, why, sizeof(why)) != 0) {
			fprintf(stderr, "sonde live: %s\n", why);
			return SONDE_EXIT_USAGE;
		}
	}
	if (a->o.follow && spec->kind != SONDE_LINK_FILE) {
		fprintf(stderr, "sonde live: --follow needs a file (file:PATH), not '%s'\n", a->c.input);
		return SONDE_EXIT_USAGE;
	}
	spec->follow = a->o.follow;
	if (a->o.baud && spec->kind == SONDE_LINK_SERIAL)
		spec->baud = a->o.baud;
	if (a->o.flow >= 0)
		spec->flow = (enum sonde_link_flow)a->o.flow;
	/* --elf (-o elf=) names the symbols, and where the RTT control block is */
	const char *elf = a->c.elf ? a->c.elf : sonde_opt_get(a->c.kv, "elf");
	if (spec->kind == SONDE_LINK_GDB && !spec->gdb.elf[0] && elf &&
	    snprintf(spec->gdb.elf, sizeof(spec->gdb.elf), "%s", elf) >= (int)sizeof(spec->gdb.elf)) {
		fprintf(stderr, "sonde live: path too long: %s\n", elf);
		return -1;
	}
	return 0;
}

static int worst(int a, int b)
{
	return a > b ? a : b;
}

static void summary(struct live *lv, FILE *f)
{
	sonde_stats_print(lv->stats, lv->pipe, f);
	const struct sonde_link_spec *sp = &lv->link.spec;
	char line[64] = "";
	if (sp->kind == SONDE_LINK_SERIAL)
		snprintf(line, sizeof(line), " (%" PRIu32 " baud %d%c%d%s)", sp->baud, sp->data_bits, sp->parity,
			 sp->stop_bits, sp->flow == SONDE_FLOW_RTSCTS ? " rtscts" : sp->flow == SONDE_FLOW_XONXOFF ? " xonxoff" : "");
	fprintf(f, "%-22s %s%s, %.1f s, connected %u time%s\n", "link", lv->link.name, line,
		(double)(live_now_ms() - lv->t_start) / 1000.0, lv->connects, lv->connects == 1 ? "" : "s");
	if (lv->pipe->cut_bytes)
		fprintf(f, "%-22s %" PRIu64 " bytes of the frame in flight (not an error)\n", "cut by the stop",
			lv->pipe->cut_bytes);
	if (lv->o.raw_path && lv->raw_errno)
		fprintf(f, "%-22s %s, %" PRIu64 " bytes (then: %s; %" PRIu64 " bytes received were not saved)\n",
			"raw capture", lv->o.raw_path, lv->raw_bytes, strerror(lv->raw_errno), lv->rx_bytes - lv->raw_bytes);
	else if (lv->o.raw_path)
		fprintf(f, "%-22s %s, %" PRIu64 " bytes\n", "raw capture", lv->o.raw_path, lv->raw_bytes);
	if (lv->budget_note[0])
		fprintf(f, "%-22s %s\n", "link budget", lv->budget_note);
	if (lv->budget_warning[0])
		fprintf(f, "%-22s %s\n", "link budget warning", lv->budget_warning);
	fflush(f);
}

static int live_session(struct live_args *a, const struct sonde_sink_ops *ops)
{
	struct live *lv = calloc(1, sizeof(*lv));
	struct sonde_pipe *p = calloc(1, sizeof(*p));
	struct sonde_stats *st = calloc(1, sizeof(*st));
	if (!lv || !p || !st) {
		free(lv), free(p), free(st);
		fprintf(stderr, "sonde live: out of memory\n");
		return SONDE_EXIT_IO;
	}
	lv->o = a->o;
	lv->proto = a->c.proto;
	lv->quiet = a->c.quiet;
	lv->raw_fd = -1;
	lv->ctl_fd = -1;
	lv->pipe = p;
	lv->stats = st;
	int rc = 0;
	struct sonde_link_spec spec;
	int bad = link_spec(a, &spec);
	if (bad) {
		free(lv), free(p), free(st);
		return bad;
	}
	if (lv->o.status < 0)
		lv->o.status = isatty(STDERR_FILENO) && !lv->quiet;
	if (lv->o.keys < 0)
		lv->o.keys = spec.kind != SONDE_LINK_STDIN && isatty(STDIN_FILENO);
	if (lv->o.show < 0)
		lv->o.show = a->c.output && strcmp(a->c.output, "-") != 0 && isatty(STDOUT_FILENO);

	sonde_stats_init(st);
	live_ctl_open(lv); /* sets ctl_fd and clients to -1 first */
	if (lv->o.ctl_path && lv->ctl_fd < 0)
		rc = SONDE_EXIT_IO;

	FILE *out = stdout;
	const char *out_name = "<stdout>";
	if (!rc && a->c.output && strcmp(a->c.output, "-") != 0 && !ops->create_at) {
		out = sonde_out_create(a->c.output);
		out_name = a->c.output;
		if (!out) {
			fprintf(stderr, "sonde live: cannot create '%s': %s\n", a->c.output, strerror(errno));
			out = stdout;
			rc = SONDE_EXIT_IO;
		}
	}
	if (!rc && lv->o.raw_path) {
		lv->raw_fd = open(lv->o.raw_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (lv->raw_fd < 0) {
			fprintf(stderr, "sonde live: cannot create '%s': %s\n", lv->o.raw_path, strerror(errno));
			rc = SONDE_EXIT_IO;
		}
	}
	sonde_opts kv = a->c.kv;
	sonde_opt_track(kv);
	sonde_pipe_init(p, kv, sonde_decoders);
	if (!rc)
		rc = cli_stages_open(&a->c);
	cli_stages_apply(&a->c, p);
	p->diag_out = a->c.quiet ? NULL : stderr;
	p->max_diags = a->c.max_diags;
	p->output_name = p->output_path && ops->create_at ? p->output_path : out_name;
	if (!rc && sonde_pipe_add_sink(p, ops, out) != 0)
		rc = SONDE_EXIT_USAGE;
	if (!rc && (out != stdout || ops->create_at) && lv->o.show && sonde_pipe_add_sink(p, sonde_sink_find("text"), stdout) != 0)
		rc = SONDE_EXIT_USAGE;
	struct sonde_listener l = sonde_stats_listener(st);
	if (!rc)
		sonde_pipe_add_listener(p, &l);
	if (!rc && lv->o.serve && live_serve_open(lv, kv) != 0)
		rc = SONDE_EXIT_IO;
	lv->link.log = link_log;
	lv->link.log_ctx = lv;
	if (!rc && sonde_link_open(&lv->link, &spec) != 0) {
		fprintf(stderr, "sonde live: %s: %s\n", lv->link.name, lv->link.why);
		rc = SONDE_EXIT_IO;
	}
	int ran = 0;
	if (!rc) {
		live_cmd_init(lv);
		live_term_install(lv);
		lv->show_tty = isatty(STDOUT_FILENO) && (out == stdout || lv->o.show);
		live_status_open(lv);
		if (lv->o.keys && live_term_raw(lv) == 0 && !lv->quiet)
			live_keys_help(lv);
		rc = live_loop(lv);
		live_term_restore(lv);
		if (lv->paused) {
			fflush(stdout);
			sonde_out_hold(stdout, 0);
		}
		live_status_close(lv);
		ran = 1;
	}
	int reported = 0;
	if (ran && lv->began > 0) {
		p->cut_on_purpose = lv->user_stop;
		rc = worst(rc, sonde_pipe_end(p));
		reported = p->write_error;
		for (size_t i = 0; i < a->c.nkv; i++)
			if (!sonde_opt_was_used(kv, i))
				fprintf(stderr, "sonde live: warning: option '-o %s' was not used by the decoder or the output format\n",
					a->c.kv[i]);
		live_budget_tick(lv, live_now_ms(), 1);
		summary(lv, stderr);
		rc = cli_window_check(&a->c, rc);
	}
	if (lv->exit_io)
		rc = SONDE_EXIT_IO;
	if (lv->raw_fd >= 0 && close(lv->raw_fd) != 0) {
		fprintf(stderr, "sonde live: %s: write error: %s\n", lv->o.raw_path, strerror(errno));
		rc = SONDE_EXIT_IO;
	}
	live_serve_close(lv); /* its listener first: the pipe is still whole */
	sonde_pipe_destroy(p);
	cli_stages_close(&a->c);
	sonde_link_close(&lv->link);
	live_ctl_close(lv);
	char why[200];
	if (sonde_out_close(out, why, sizeof(why)) != 0) {
		if (!reported)
			fprintf(stderr, "sonde live: %s: write error: %s\n", out_name, why);
		rc = SONDE_EXIT_IO;
	}
	sonde_stats_free(st);
	free(st);
	free(p);
	free(lv);
	return rc;
}

static int live_run(int argc, char **argv)
{
	struct live_args a;
	memset(&a, 0, sizeof(a));
	cli_common_init(&a.c, "live");
	a.format = "text";
	a.o.reconnect_s = 30;
	a.o.flow = -1;
	a.o.show = -1;
	a.o.keys = -1;
	a.o.status = -1;
	if (cli_parse("live", argc, argv, options(), live_opt, live_arg, &a) != 0 || a.c.help) {
		cli_stages_close(&a.c); /* a --filter before the error */
		if (!a.c.help)
			return SONDE_EXIT_USAGE;
		live_help(stdout);
		return SONDE_EXIT_OK;
	}
	const struct sonde_sink_ops *ops = sonde_sink_find(a.format);
	if (!ops) {
		fprintf(stderr, "sonde live: unknown format '%s' for option '--format' (known:", a.format);
		for (size_t i = 0; sonde_sinks[i]; i++)
			fprintf(stderr, " %s", sonde_sinks[i]->name);
		fprintf(stderr, ")\n");
		cli_stages_close(&a.c);
		return SONDE_EXIT_USAGE;
	}
	if (strcmp(a.c.proto, "auto") != 0 && !sonde_decoder_find(a.c.proto)) {
		char why[512];
		sonde_pipe_choose(sonde_decoders, a.c.proto, NULL, 0, why, sizeof(why));
		fprintf(stderr, "sonde live: %s\n", why);
		cli_stages_close(&a.c);
		return SONDE_EXIT_USAGE;
	}
	int rc = live_session(&a, ops);
	cli_stages_close(&a.c); /* again (it is idempotent): live_session returns early on some errors */
	return rc;
}

const struct sonde_cmd sonde_cmd_live = {
	.name = "live",
	.summary = "decode a target's trace live from a serial port, TCP, UDP, a growing file or stdin",
	.run = live_run,
	.help = live_help,
	.opts = options,
	.operand = "LINK",
};
