/*
 * cmd_miniprof.c -- `sonde miniprof --link DEV[:BAUD] COMMAND`: talk to a
 * MiniProfiler device over a serial port.  metadata, status, start, stop
 * and reset send one command and print the answer; capture runs a whole
 * profiling session and decodes it live (decoder "miniprof" + any output
 * format), saving the raw bytes first with -w.  Protocol, mapping and exit
 * statuses: docs/proto-miniprof.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/opts.h"
#include "core/out.h"
#include "core/pipe.h"
#include "core/stop.h"
#include "proto/miniprof/mp_host.h"
#include "proto/miniprof/mp_opts.h"
#include "proto/miniprof/mp_link.h"
#include "sources/link_serial.h"

#define MP_DEFAULT_TIMEOUT_MS 2000u

static const struct cli_opt mp_cli_opts[] = {
	{ "link", 'l', "DEV[:BAUD[:FRAME]]", "serial port (or pty), baud rate (default 115200), frame (default 8N1); "
					     "or a live link: tcp://HOST:PORT, tcp-listen://[ADDR:]PORT, gdb://..." },
	{ "parity", 0, "P", "none, odd, even, mark or space (overrides the frame)" },
	{ "data-bits", 0, "N", "5 to 8 (overrides the frame)" },
	{ "stop-bits", 0, "N", "1 or 2 (overrides the frame)" },
	{ "flow", 0, "F", "flow control: none, xonxoff, rtscts or dtrdsr (default none)" },
	{ "timeout", 't', "MS", "how long to wait for each answer (default 2000)" },
	{ "duration", 'd', "SECONDS", "capture: how long to profile (default: until Ctrl-C)" },
	{ "write", 'w', "FILE", "save every byte received to FILE, before decoding" },
	{ "format", 'f', "NAME", "capture: output format (default text)" },
	{ NULL, 'o', "KEY=VALUE", "option for the decoder or the output format (repeatable)" },
	{ "output", 0, "FILE", "capture: write the output to FILE instead of standard output" },
	{ "quiet", 'q', NULL, "do not print diagnostics (they are still counted)" },
	{ "max-diags", 0, "N", "print at most N diagnostics (default 1000, 0 = all)" },
	{ "help", 'h', NULL, "show this help" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_opt *mp_options(void)
{
	return mp_cli_opts;
}

struct mp_cmd_word {
	const char *word;
	unsigned cmd;   /* 0: capture */
	unsigned want;  /* the answer awaited */
};

static const struct mp_cmd_word mp_words[] = {
	{ "metadata", MP_CMD_METADATA, MP_RSP_METADATA },
	{ "status", MP_CMD_STATUS, MP_RSP_STATUS },
	{ "start", MP_CMD_START, MP_RSP_ACK },
	{ "stop", MP_CMD_STOP, MP_RSP_ACK },
	{ "reset", MP_CMD_RESET, MP_RSP_ACK },
	{ "capture", 0, 0 },
};

struct mp_args {
	struct cli_common c;
	const char *link, *parity, *data_bits, *stop_bits, *flow;
	const char *raw, *format;
	unsigned timeout_ms;
	double duration;       /* < 0: not given */
	const struct mp_cmd_word *word;
};

static int is_opt(const struct cli_opt *o, const char *name)
{
	return o->name && strcmp(o->name, name) == 0;
}

static int mp_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct mp_args *a = ctx;
	char *end;
	int rc;

	if (cli_common_opt(&a->c, o, val, &rc))
		return rc;
	if (is_opt(o, "link")) {
		a->link = val;
	} else if (is_opt(o, "parity")) {
		a->parity = val;
	} else if (is_opt(o, "data-bits")) {
		a->data_bits = val;
	} else if (is_opt(o, "stop-bits")) {
		a->stop_bits = val;
	} else if (is_opt(o, "flow")) {
		a->flow = val;
	} else if (is_opt(o, "write")) {
		a->raw = val;
	} else if (is_opt(o, "format")) {
		a->format = val;
	} else if (is_opt(o, "timeout")) {
		unsigned long v;

		errno = 0;
		v = strtoul(val, &end, 10);
		if (*val < '0' || *val > '9' || *end || errno || v < 1 || v > 3600000) {
			fprintf(stderr, "sonde miniprof: option '--timeout' expects milliseconds (1 to 3600000), got '%s'\n",
				val);
			return -1;
		}
		a->timeout_ms = (unsigned)v;
	} else { /* duration */
		errno = 0;
		a->duration = strtod(val, &end);
		if (*val < '0' || *val > '9' || *end || errno || a->duration > 1e7) {
			fprintf(stderr, "sonde miniprof: option '--duration' expects seconds (0 to 10000000), got '%s'\n",
				val);
			return -1;
		}
	}
	return 0;
}

static int mp_arg(void *ctx, const char *arg)
{
	struct mp_args *a = ctx;

	if (a->word) {
		fprintf(stderr, "sonde miniprof: one command at most (got '%s' and '%s')\n", a->word->word, arg);
		return -1;
	}
	for (size_t i = 0; i < sizeof(mp_words) / sizeof(mp_words[0]); i++)
		if (strcmp(arg, mp_words[i].word) == 0)
			a->word = &mp_words[i];
	if (!a->word) {
		fprintf(stderr, "sonde miniprof: unknown command '%s' (metadata, status, start, stop, reset or capture)\n",
			arg);
		return -1;
	}
	return 0;
}

static void mp_help(FILE *out)
{
	fprintf(out, "usage: sonde miniprof --link DEV[:BAUD[:FRAME]] COMMAND [options]\n\n"
		     "Talk to a MiniProfiler device over a serial port (or a pseudo-terminal), or a\n"
		     "live link as 'sonde live' names them (tcp://HOST:PORT: QEMU's -serial tcp:...,server).\n\n"
		     "commands:\n"
		     "  metadata   GET_METADATA: print the device's clock, timer, build id, firmware\n"
		     "  status     GET_STATUS: print whether it profiles, overflows, records, buffer use\n"
		     "  start      START_PROFILING, wait for the ACK\n"
		     "  stop       STOP_PROFILING, wait for the ACK\n"
		     "  reset      RESET_BUFFERS, wait for the ACK\n"
		     "  capture    GET_METADATA, START_PROFILING, decode the profile stream for\n"
		     "             --duration seconds (or until Ctrl-C), STOP_PROFILING, GET_STATUS;\n"
		     "             the output is written in --format (text, jsonl, profile, folded,\n"
		     "             perfetto, ...); -w saves the raw bytes, which 'sonde decode\n"
		     "             --proto miniprof' decodes again later\n\n"
		     "options:\n");
	cli_print_opts(out, mp_cli_opts);
	fprintf(out, "\ndecoder options (-o): miniprof.header=aa55|55aa, miniprof.crc=le|be (byte orders\n"
		     "  the protocol leaves open; defaults aa55, le), miniprof.window=N (calls held to\n"
		     "  put them in time order, default 65536), miniprof.ts_freq=HZ (unit of the\n"
		     "  record times, default 1000000)\n\n"
		     "exit status: 0 answered, clean stream; 1 NACK or stream errors (reported);\n"
		     "             2 usage error; 3 I/O error or no answer within --timeout\n");
}

/* ---- one command: print its answer ---------------------------------------------- */

struct mp_print {
	FILE *out;
	const char *dev;
	unsigned cmd;
	int quiet;
	uint64_t max_diags, diags;
	uint64_t data_packets, data_records;
	uint32_t overflows;
};

static void put_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void print_packet(void *ctx, const struct mp_packet *pk)
{
	struct mp_print *pr = ctx;
	struct mp_metadata m;
	struct mp_status s;

	switch (pk->type) {
	case MP_RSP_METADATA:
		mp_metadata_decode(pk->payload, pk->len, &m);
		fprintf(pr->out, "METADATA mcu_clock_hz=%" PRIu32 " timer_freq=%" PRIu32 " elf_build_id=0x%08" PRIx32
			" fw_version=", m.mcu_clock_hz, m.timer_freq, m.elf_build_id);
		put_str(pr->out, m.fw_version);
		fputc('\n', pr->out);
		break;
	case MP_RSP_STATUS:
		mp_status_decode(pk->payload, pk->len, &s);
		fprintf(pr->out, "STATUS is_profiling=%u buffer_overflows=%" PRIu32 " records_captured=%" PRIu32
			" buffer_usage_percent=%u\n", s.is_profiling, s.buffer_overflows, s.records_captured,
			s.buffer_usage_percent);
		pr->overflows = s.buffer_overflows;
		break;
	case MP_RSP_PROFILE_DATA:
		pr->data_packets++;
		pr->data_records += (pk->len - MP_PROFILE_HDR_LEN) / MP_RECORD_LEN;
		break;
	default: /* ACK, NACK */
		fprintf(pr->out, "%s %s\n", mp_rsp_name(pk->type), mp_cmd_name(pr->cmd));
		break;
	}
}

static void print_diag(void *ctx, const struct sonde_diag *d)
{
	struct mp_print *pr = ctx;

	pr->diags++;
	if (!pr->quiet && (pr->max_diags == 0 || pr->diags <= pr->max_diags))
		sonde_diag_print(stderr, pr->dev, d);
}

static void warn_overflows(uint64_t n)
{
	if (n)
		fprintf(stderr, "sonde miniprof: warning: the device reports %" PRIu64 " buffer overflow%s: profile "
			"records were lost (raise the baud rate or instrument fewer functions)\n", n, n == 1 ? "" : "s");
}

static int report_failure(struct mp_host *h, enum mp_xchg how, unsigned cmd)
{
	switch (how) {
	case MP_XCHG_NACK:
		fprintf(stderr, "sonde miniprof: the device refused %s (NACK)\n", mp_cmd_name(cmd));
		return SONDE_EXIT_STREAM;
	case MP_XCHG_TIMEOUT:
		fprintf(stderr, "sonde miniprof: no answer to %s from %s within %u ms\n", mp_cmd_name(cmd),
			mp_link_name(h->link), h->timeout_ms);
		return SONDE_EXIT_IO;
	case MP_XCHG_IO:
		fprintf(stderr, "sonde miniprof: %s\n", h->err);
		return SONDE_EXIT_IO;
	case MP_XCHG_STOPPED:
		fprintf(stderr, "sonde miniprof: %s: stopped before the answer to %s came\n",
			strsignal(sonde_stop_signal()), mp_cmd_name(cmd));
		return sonde_stop_status();
	default:
		return SONDE_EXIT_OK;
	}
}

static int run_command(struct mp_args *a, struct mp_host *h)
{
	struct mp_print pr = { stdout, mp_link_name(h->link), a->word->cmd, a->c.quiet, a->c.max_diags,
			       0, 0, 0, 0 };
	struct mp_parser_cb cb = { print_packet, print_diag, &pr };
	enum mp_xchg how = mp_host_exchange(h, a->word->cmd, a->word->want, &cb);
	int rc = report_failure(h, how, a->word->cmd);

	if (pr.data_packets)
		fprintf(stderr, "sonde miniprof: note: %" PRIu64 " PROFILE_DATA packet%s (%" PRIu64 " records) came "
			"before the answer and were not decoded (use 'capture')\n", pr.data_packets,
			pr.data_packets == 1 ? "" : "s", pr.data_records);
	if (how == MP_XCHG_ANSWER && a->word->want == MP_RSP_STATUS)
		warn_overflows(pr.overflows);
	if (pr.diags && rc == SONDE_EXIT_OK)
		rc = SONDE_EXIT_STREAM;
	return rc;
}

/* ---- capture ------------------------------------------------------------------------ */

static int worst(int a, int b)
{
	return a > b ? a : b;
}

static int run_capture(struct mp_args *a, struct mp_host *h, const struct sonde_sink_ops *ops)
{
	struct mp_capture cap;
	struct sonde_source src;
	struct sonde_listener lst;
	struct sonde_pipe p;
	FILE *out = stdout;
	const char *out_name = "<stdout>";
	sonde_opts kv = a->c.kv;
	int rc;

	if (a->c.output && strcmp(a->c.output, "-") != 0 && !ops->create_at) {
		out = sonde_out_create(a->c.output);
		out_name = a->c.output;
		if (!out) {
			fprintf(stderr, "sonde miniprof: cannot create '%s': %s\n", a->c.output, strerror(errno));
			return SONDE_EXIT_IO;
		}
	}
	sonde_opt_track(kv);
	sonde_pipe_init(&p, kv, sonde_decoders);
	rc = cli_stages_open(&a->c);
	if (rc)
		goto done;
	cli_stages_apply(&a->c, &p);
	p.diag_out = a->c.quiet ? NULL : stderr;
	p.max_diags = a->c.max_diags;
	p.output_name = p.output_path && ops->create_at ? p.output_path : out_name;
	mp_capture_init(&cap, h, a->duration, &src, &lst);
	if (sonde_pipe_add_sink(&p, ops, out) != 0 || sonde_pipe_add_listener(&p, &lst) != 0) {
		rc = SONDE_EXIT_USAGE;
		goto done;
	}
	rc = sonde_pipe_run(&p, &src, "miniprof"); /* a stop ends the run: the normal end without --duration */
	if (rc != SONDE_EXIT_USAGE) {
		for (size_t i = 0; i < a->c.nkv; i++)
			if (!sonde_opt_was_used(kv, i))
				fprintf(stderr, "sonde miniprof: warning: option '-o %s' was not used by the decoder or "
					"the output format\n", a->c.kv[i]);
		if (cap.failed)
			rc = worst(rc, report_failure(h, cap.fail_how, cap.fail_cmd));
		warn_overflows(p.session.drops_refused);
	}
done:
	sonde_pipe_destroy(&p);
	cli_stages_close(&a->c);
	char why[200];
	if (sonde_out_close(out, why, sizeof(why)) != 0) {
		if (!p.write_error)
			fprintf(stderr, "sonde miniprof: %s: write error: %s\n", out_name, why);
		rc = worst(rc, SONDE_EXIT_IO);
	}
	return rc;
}

/* ---- the command -------------------------------------------------------------------- */

/* Line settings: the --link spec, then the options that override it. */
static int link_config(const struct mp_args *a, struct link_serial_cfg *cfg)
{
	char err[256];

	link_serial_cfg_init(cfg);
	if (link_serial_parse(cfg, a->link, err, sizeof(err)) != 0)
		goto bad;
	if (a->parity && link_serial_parse_parity(a->parity, &cfg->parity, err, sizeof(err)) != 0)
		goto bad;
	if (a->flow && link_serial_parse_flow(a->flow, &cfg->flow, err, sizeof(err)) != 0)
		goto bad;
	if (a->data_bits) {
		if (strlen(a->data_bits) != 1 || a->data_bits[0] < '5' || a->data_bits[0] > '8') {
			snprintf(err, sizeof(err), "data bits '%s': expected 5 to 8", a->data_bits);
			goto bad;
		}
		cfg->data_bits = (unsigned)(a->data_bits[0] - '0');
	}
	if (a->stop_bits) {
		if (strcmp(a->stop_bits, "1") && strcmp(a->stop_bits, "2")) {
			snprintf(err, sizeof(err), "stop bits '%s': expected 1 or 2", a->stop_bits);
			goto bad;
		}
		cfg->stop_bits = (unsigned)(a->stop_bits[0] - '0');
	}
	return 0;
bad:
	fprintf(stderr, "sonde miniprof: --link: %s\n", err);
	return -1;
}

static int mp_run(int argc, char **argv)
{
	struct mp_args a;
	struct link_serial_cfg lcfg;
	struct mp_link *link;
	const struct sonde_sink_ops *ops = NULL;
	struct mp_opts o;
	struct mp_host h;
	FILE *raw = NULL;
	char err[1024];
	int rc;

	memset(&a, 0, sizeof(a));
	cli_common_init(&a.c, "miniprof");
	a.timeout_ms = MP_DEFAULT_TIMEOUT_MS;
	a.duration = -1;
	if (cli_parse("miniprof", argc, argv, mp_cli_opts, mp_opt, mp_arg, &a) != 0)
		return SONDE_EXIT_USAGE;
	if (a.c.help) {
		mp_help(stdout);
		return SONDE_EXIT_OK;
	}
	if (!a.word) {
		fprintf(stderr, "sonde miniprof: no command given (metadata, status, start, stop, reset or capture; "
			"see 'sonde help miniprof')\n");
		return SONDE_EXIT_USAGE;
	}
	if (!a.link) {
		fprintf(stderr, "sonde miniprof: option '--link DEV[:BAUD]' is required\n");
		return SONDE_EXIT_USAGE;
	}
	if (a.word->cmd && (a.format || a.c.output || a.duration >= 0)) {
		fprintf(stderr, "sonde miniprof: options '--format', '--output' and '--duration' are for 'capture'\n");
		return SONDE_EXIT_USAGE;
	}
	if (!a.word->cmd) {
		ops = sonde_sink_find(a.format ? a.format : "text");
		if (!ops) {
			fprintf(stderr, "sonde miniprof: unknown format '%s' for option '--format' (known:", a.format);
			for (size_t i = 0; sonde_sinks[i]; i++)
				fprintf(stderr, " %s", sonde_sinks[i]->name);
			fprintf(stderr, ")\n");
			return SONDE_EXIT_USAGE;
		}
	}
	int live = mp_link_is_live(a.link);
	if (live && (a.parity || a.data_bits || a.stop_bits || a.flow)) {
		fprintf(stderr, "sonde miniprof: --parity, --data-bits, --stop-bits and --flow are for a serial port, "
			"not '%s'\n", a.link);
		return SONDE_EXIT_USAGE;
	}
	if (!live && link_config(&a, &lcfg) != 0)
		return SONDE_EXIT_USAGE;
	if (mp_opts_read(&o, a.c.kv) != 0)
		return SONDE_EXIT_USAGE;
	if (a.raw) {
		raw = fopen(a.raw, "wb");
		if (!raw) {
			fprintf(stderr, "sonde miniprof: cannot create '%s': %s\n", a.raw, strerror(errno));
			return SONDE_EXIT_IO;
		}
	}
	link = live ? mp_link_open_live(a.link, a.timeout_ms, err, sizeof(err)) : mp_link_open_serial(&lcfg, err, sizeof(err));
	if (!link) {
		fprintf(stderr, "sonde miniprof: %s\n", err);
		if (raw)
			fclose(raw);
		return SONDE_EXIT_IO;
	}
	mp_host_init(&h, link, &o.wire, a.timeout_ms, raw, a.raw);
	rc = a.word->cmd ? run_command(&a, &h) : run_capture(&a, &h, ops);
	mp_link_close(link);
	if (raw && fclose(raw) != 0) {
		fprintf(stderr, "sonde miniprof: %s: write error: %s\n", a.raw, strerror(errno));
		rc = SONDE_EXIT_IO;
	}
	return rc;
}

const struct sonde_cmd sonde_cmd_miniprof = {
	.name = "miniprof",
	.summary = "talk to a MiniProfiler device: metadata, status, start, stop, reset, capture",
	.run = mp_run,
	.help = mp_help,
	.opts = mp_options,
	.operand = "COMMAND",
	.words = "metadata status start stop reset capture", /* mp_words; test_cli_help.sh checks */
};
