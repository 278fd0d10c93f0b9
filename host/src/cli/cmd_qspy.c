/*
 * cmd_qspy.c -- `sonde qspy [QSPY OPTIONS]`: Sonde in QSPY's place for a
 * QP target (docs/proto-qs.md, "sonde qspy"): QSPY 7.4's options and
 * lines, its UDP front-end interface for QUTest and QView, and at the same
 * time Sonde's exports, raw capture and loss accounting.  This file holds
 * the options, the pipeline and the summary; qspy_serve.c the loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/stats.h"
#include "cli.h"
#include "core/out.h"
#include "qspy.h"

static const struct cli_opt qspy_opts[] = {
	{ NULL, 'u', "[PORT]", "front-end UDP port, attached: -u7701 (default 7701; -u0: none; -uADDR:PORT, default "
			       "address 127.0.0.1)" },
	{ NULL, 't', "[PORT]", "the target connects over TCP, port attached: -t6601 (the default link; -tADDR:PORT, "
			       "default address 127.0.0.1)" },
	{ NULL, 'c', "DEVICE", "the target on a serial port" },
	{ NULL, 'b', "BAUD", "baud rate of the serial port (default 115200)" },
	{ NULL, 'f', "FILE", "the target's bytes from a file (ends at its end)" },
	{ NULL, 'd', "[FILE]", "write the dictionaries to qspy<build>.dic at QF_RUN; -dFILE (attached) also reads them "
			       "from FILE at start and after every target info" },
	{ NULL, 'g', "OBJS", "sequence diagram of these objects (comma-separated) in qspyYYMMDD_hhmmss.seq, as QSPY's" },
	{ NULL, 'v', "VER", "QS version assumed until the target says (e.g. 7.4)" },
	{ NULL, 'q', "[N]", "quiet: no record lines on the screen" },
	{ NULL, 'o', NULL, "save the screen output to qspyYYMMDD_HHMMSS.txt" },
	{ NULL, 's', NULL, "save the target's bytes to qspyYYMMDD_HHMMSS.bin" },
	{ NULL, 'k', NULL, "no keyboard input (sonde qspy reads no keys)" },
	{ NULL, 'r', "MODE", "QSPY's colour rendering (c0, c1, c2): lines are always plain" },
	{ NULL, 'T', "N", "timestamp size until the target says (1, 2, 4)" },
	{ NULL, 'O', "N", "object pointer size (1, 2, 4, 8)" },
	{ NULL, 'F', "N", "function pointer size (1, 2, 4, 8)" },
	{ NULL, 'S', "N", "signal size (1, 2, 4)" },
	{ NULL, 'E', "N", "event size field size (1, 2, 4)" },
	{ NULL, 'Q', "N", "event-queue counter size (1, 2, 4)" },
	{ NULL, 'P', "N", "memory-pool counter size (1, 2, 4)" },
	{ NULL, 'B', "N", "memory-pool block size size (1, 2, 4)" },
	{ NULL, 'C', "N", "time-event counter size (1, 2, 4)" },
	{ "write", 'w', "FILE", "save the target's bytes to FILE as they arrive" },
	{ "format", 0, "NAME", "with --output: also export the decode in this format (perfetto, sqlite, jsonl, ...)" },
	{ "output", 0, "FILE", "where --format writes" },
	{ "set", 0, "KEY=VALUE", "a decoder or format option (what -o KEY=VALUE is for the other commands)" },
	{ "no-stats", 0, NULL, "no summary (records, losses, front-end packets) on stderr at the end" },
	{ "help", 'h', NULL, "show this help" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_opt *options(void)
{
	return qspy_opts;
}

static void qspy_help(FILE *out)
{
	fprintf(out,
		"usage: sonde qspy [-u[PORT]] [-t[PORT] | -c DEVICE [-b BAUD] | -f FILE] [-d[FILE]] [-g OBJS] [-q] [-o] [-s]\n"
		"                  [-T N -O N ...] [-w RAW] [--format NAME --output FILE] [--set KEY=VALUE ...]\n\n"
		"Take QSPY's place between a QP target and its front-ends (QUTest, QView):\n"
		"the target connects over TCP (-t, the default) or is on a serial port (-c)\n"
		"or in a file (-f); its records print as QSPY 7.4 prints them; front-ends\n"
		"attach over UDP (-u) and send commands to the target.  QSPY's options keep\n"
		"their meaning (options with an optional value take it attached: -t6601).\n"
		"At the same time --format/--output export the decode, -w keeps the raw\n"
		"bytes, and the summary on stderr counts what was lost.  Ctrl-C ends it.\n"
		"Not provided: -m (Matlab), keyboard commands.\n\noptions:\n");
	cli_print_opts(out, options());
	fprintf(out, "\nexit status: 0 clean stream; 1 the stream had errors; 2 usage error; 3 I/O error\n");
}

struct qspy_args {
	struct qspy q;
	const char *format, *output;
	int no_stats;
	const char *kv[64];
	char kvbuf[24][96];
	size_t nkv, nbuf;
	int link_given;
};

static int add_kv(struct qspy_args *a, const char *fmt, const char *val)
{
	if (a->nkv + 1 >= sizeof(a->kv) / sizeof(a->kv[0]) || a->nbuf >= sizeof(a->kvbuf) / sizeof(a->kvbuf[0])) {
		fprintf(stderr, "sonde qspy: too many options\n");
		return -1;
	}
	char *b = a->kvbuf[a->nbuf++];
	if (snprintf(b, sizeof(a->kvbuf[0]), fmt, val) >= (int)sizeof(a->kvbuf[0])) {
		fprintf(stderr, "sonde qspy: option value too long: %s\n", val);
		return -1;
	}
	a->kv[a->nkv++] = b;
	return 0;
}

/* [ADDR:]PORT of -u/-t into host and port. */
static int addr_port(const char *opt, const char *val, char *host, size_t hl, unsigned *port)
{
	const char *colon = strrchr(val, ':');
	const char *p = colon ? colon + 1 : val;
	char *end;
	errno = 0;
	unsigned long v = strtoul(p, &end, 10);
	if (!*p || *end || errno || v > 65535 || (colon && (size_t)(colon - val) >= hl)) {
		fprintf(stderr, "sonde qspy: option '-%s' expects [ADDR:]PORT, got '%s'\n", opt, val);
		return -1;
	}
	if (colon)
		snprintf(host, hl, "%.*s", (int)(colon - val), val);
	*port = (unsigned)v;
	return 0;
}

static int set_link(struct qspy_args *a, char kind, const char *fmt, const char *v1, const char *v2)
{
	if (a->link_given && a->link_given != kind) {
		fprintf(stderr, "sonde qspy: the -%c option is incompatible with -%c\n", kind, a->link_given);
		return -1;
	}
	a->link_given = kind;
	if (snprintf(a->q.link_text, sizeof(a->q.link_text), fmt, v1, v2) >= (int)sizeof(a->q.link_text)) {
		fprintf(stderr, "sonde qspy: link too long\n");
		return -1;
	}
	return 0;
}

static int parse(struct qspy_args *a, int argc, char **argv, int *help)
{
	static const struct option longs[] = {
		{ "write", required_argument, NULL, 'w' }, { "format", required_argument, NULL, 1 },
		{ "output", required_argument, NULL, 2 },  { "set", required_argument, NULL, 3 },
		{ "no-stats", no_argument, NULL, 4 },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char tcp_host[64] = "127.0.0.1", dev[SONDE_LINK_PATH_MAX] = "/dev/ttyS0", baud[16] = "115200";
	unsigned tcp_port = 6601;
	int serial = 0, c;
	opterr = 0;
	/* 0, not 1: glibc's getopt then forgets all it kept from an earlier
	 * parse, among it a pointer into that parse's argv, freed since when
	 * one process parses many command lines (fuzz_cli found it) */
	optind = 0;
	while ((c = getopt_long(argc, argv, ":hq::u::v:r:kosmg:t::c:b:f:d::T:O:F:S:E:Q:P:B:C:w:", longs, NULL)) != -1) {
		static const char sizes[] = "TOFSEQPBC";
		if (c && strchr(sizes, c)) {
			char key[16] = "qs.X=%s";
			key[3] = (char)c;
			if (add_kv(a, key, optarg) != 0)
				return -1;
			continue;
		}
		switch (c) {
		case 'h': *help = 1; break;
		case 'q': a->q.quiet = 1; break;
		case 'u':
			a->q.udp_port = 7701;
			if (optarg && addr_port("u", optarg, a->q.udp_host, sizeof(a->q.udp_host), &a->q.udp_port) != 0)
				return -1;
			break;
		case 't':
			if (optarg && addr_port("t", optarg, tcp_host, sizeof(tcp_host), &tcp_port) != 0)
				return -1;
			if (a->link_given && a->link_given != 't') {
				fprintf(stderr, "sonde qspy: the -t option is incompatible with -%c\n", a->link_given);
				return -1;
			}
			a->link_given = 't';
			break;
		case 'c':
		case 'b':
			if (a->link_given && a->link_given != 'c') {
				fprintf(stderr, "sonde qspy: the -%c option is incompatible with -%c\n", c, a->link_given);
				return -1;
			}
			a->link_given = 'c';
			serial = 1;
			snprintf(c == 'c' ? dev : baud, c == 'c' ? sizeof(dev) : sizeof(baud), "%s", optarg);
			break;
		case 'f':
			if (set_link(a, 'f', "file:%s%s", optarg, "") != 0)
				return -1;
			break;
		case 'd':
			/* as QSPY: -d writes the dictionaries to qspy<build>.dic at
			 * QF_RUN; -dFILE also reads them from FILE */
			if (add_kv(a, "qs.dic_save=%s", ".") != 0 || (optarg && add_kv(a, "qs.dic=%s", optarg) != 0))
				return -1;
			break;
		case 'v': {
			/* QSPY's form: D.D (7.4 -> 740) */
			char buf[8];
			if (!(optarg[0] >= '0' && optarg[0] <= '9' && optarg[1] == '.' && optarg[2] >= '0' && optarg[2] <= '9' &&
			      !optarg[3])) {
				fprintf(stderr, "sonde qspy: option '-v' expects a version such as 7.4, got '%s'\n", optarg);
				return -1;
			}
			snprintf(buf, sizeof(buf), "%c%c0", optarg[0], optarg[2]);
			if (add_kv(a, "qs.version=%s", buf) != 0)
				return -1;
			break;
		}
		case 'o': a->q.text_file = 1; break;
		case 's': a->q.bin_file = 1; break;
		case 'k': case 'r': break; /* no keys are read; lines are plain */
		case 'g':
			if (add_kv(a, "qs.seq=%s", optarg) != 0)
				return -1;
			break;
		case 'm':
			fprintf(stderr, "sonde qspy: -m (Matlab output) is not provided\n");
			return -1;
		case 'w': a->q.raw_path = optarg; break;
		case 1: a->format = optarg; break;
		case 2: a->output = optarg; break;
		case 3:
			if (!strchr(optarg, '=')) {
				fprintf(stderr, "sonde qspy: option '--set' expects KEY=VALUE, got '%s'\n", optarg);
				return -1;
			}
			if (add_kv(a, "%s", optarg) != 0)
				return -1;
			break;
		case 4: a->no_stats = 1; break;
		case ':':
			fprintf(stderr, "sonde qspy: option '%s' needs a value\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "sonde qspy: unknown option '%s'\n", argv[optind - 1]);
			return -1;
		}
	}
	if (*help)
		return 0;
	if (optind < argc) {
		fprintf(stderr, "sonde qspy: takes no operand ('%s'); QSPY's options with a value take it attached "
				"(-t6601)\n", argv[optind]);
		return -1;
	}
	if (serial && set_link(a, 'c', "serial:%s:%s", dev, baud) != 0)
		return -1;
	if (!a->link_given || a->link_given == 't') {
		a->link_given = 't';
		char port[8];
		snprintf(port, sizeof(port), "%u", tcp_port);
		if (tcp_port == 0) {
			fprintf(stderr, "sonde qspy: -t needs a port from 1 to 65535\n");
			return -1;
		}
		snprintf(a->q.link_text, sizeof(a->q.link_text), "tcp-listen://%s:%s", tcp_host, port);
	}
	if ((a->format != NULL) != (a->output != NULL)) {
		fprintf(stderr, "sonde qspy: --format and --output go together (the screen shows QSPY's lines)\n");
		return -1;
	}
	return 0;
}

static int worst(int a, int b)
{
	return a > b ? a : b;
}

static void summary(struct qspy_args *a, struct sonde_stats *st, FILE *f)
{
	struct qspy *q = &a->q;
	sonde_stats_print(st, q->pipe, f);
	fprintf(f, "%-22s %s, connected %llu time%s\n", "target link", q->link.name, (unsigned long long)q->connects,
		q->connects == 1 ? "" : "s");
	if (q->udp_port)
		fprintf(f, "%-22s UDP %s:%u, %llu packets in, %llu out, %llu frames to the target\n", "front-ends",
			q->udp_host, q->udp_port, (unsigned long long)q->fe.pkts_in, (unsigned long long)q->fe.pkts_out,
			(unsigned long long)q->fe.frames_to_target);
	if (q->raw_path)
		fprintf(f, "%-22s %s, %llu bytes\n", "raw capture", q->raw_path, (unsigned long long)q->raw_bytes);
	fflush(f);
}

static int qspy_run(int argc, char **argv)
{
	struct qspy_args *a = calloc(1, sizeof(*a));
	struct sonde_pipe *p = calloc(1, sizeof(*p));
	struct sonde_stats *st = calloc(1, sizeof(*st));
	if (!a || !p || !st) {
		free(a), free(p), free(st);
		fprintf(stderr, "sonde qspy: out of memory\n");
		return SONDE_EXIT_IO;
	}
	struct qspy *q = &a->q;
	q->udp_port = 7701;
	snprintf(q->udp_host, sizeof(q->udp_host), "127.0.0.1");
	q->raw_fd = -1;
	q->udp_fd = -1;
	q->link.fd = -1;
	int help = 0, rc = 0;
	if (parse(a, argc, argv, &help) != 0) {
		rc = SONDE_EXIT_USAGE;
		goto out;
	}
	if (help) {
		qspy_help(stdout);
		goto out;
	}
	const struct sonde_sink_ops *ops = a->format ? sonde_sink_find(a->format) : NULL;
	if (a->format && !ops) {
		fprintf(stderr, "sonde qspy: unknown format '%s' for option '--format'\n", a->format);
		rc = SONDE_EXIT_USAGE;
		goto out;
	}
	a->kv[a->nkv] = NULL;
	sonde_opts kv = a->kv;
	sonde_stats_init(st);
	sonde_pipe_init(p, kv, sonde_decoders);
	q->pipe = p;
	p->native = 1;        /* the QSPY lines, for the screen and the front-ends */
	p->diag_out = NULL;   /* diagnostics print as QSPY prints them (qspy_serve.c) */
	FILE *out = NULL;
	if (ops) {
		p->output_path = a->output;
		p->output_name = a->output;
		if (!ops->create_at) {
			out = sonde_out_create(a->output);
			if (!out) {
				fprintf(stderr, "sonde qspy: cannot create '%s': %s\n", a->output, strerror(errno));
				rc = SONDE_EXIT_IO;
			}
		}
		if (!rc && sonde_pipe_add_sink(p, ops, out ? out : stdout) != 0)
			rc = SONDE_EXIT_USAGE;
	}
	struct sonde_listener ls = sonde_stats_listener(st), lq = qspy_listener(q);
	if (!rc) {
		sonde_pipe_add_listener(p, &ls);
		sonde_pipe_add_listener(p, &lq);
		rc = sonde_pipe_begin(p, "qspy", "qs", NULL, 0);
	}
	if (!rc && q->raw_path) {
		q->raw_fd = open(q->raw_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (q->raw_fd < 0) {
			fprintf(stderr, "sonde qspy: cannot create '%s': %s\n", q->raw_path, strerror(errno));
			rc = SONDE_EXIT_IO;
		}
	}
	int began = !rc;
	if (!rc)
		rc = qspy_open(q);
	if (!rc) {
		rc = qspy_loop(q);
		/* a signal or a front-end ended it: a frame in flight is the stop's
		 * doing; a file's end is the stream's */
		p->cut_on_purpose = q->link.spec.kind != SONDE_LINK_FILE;
	}
	qspy_close(q); /* the front-end is told first */
	if (began) {
		rc = worst(rc, sonde_pipe_end(p));
		if (!a->no_stats)
			summary(a, st, stderr);
	}
	if (q->raw_fd >= 0 && close(q->raw_fd) != 0) {
		fprintf(stderr, "sonde qspy: %s: write error: %s\n", q->raw_path, strerror(errno));
		rc = SONDE_EXIT_IO;
	}
	if (q->io_error)
		rc = SONDE_EXIT_IO;
	if (out) {
		char why[200];
		if (sonde_out_close(out, why, sizeof(why)) != 0) {
			fprintf(stderr, "sonde qspy: %s: write error: %s\n", a->output, why);
			rc = SONDE_EXIT_IO;
		}
	}
	sonde_pipe_destroy(p);
	sonde_stats_free(st);
out:
	free(a), free(p), free(st);
	return rc;
}

const struct sonde_cmd sonde_cmd_qspy = {
	.name = "qspy",
	.summary = "take QSPY's place: QSPY's options and lines, the UDP front-end interface for QUTest and QView",
	.run = qspy_run,
	.help = qspy_help,
	.opts = options,
};
