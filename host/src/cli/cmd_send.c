/*
 * cmd_send.c -- `sonde send --link LINK COMMAND [ARGS]`: send one command
 * on a target's receive channel (docs/protocol.md §9), wait for the reply
 * that carries its sequence number, and print it.  With --proto qs the
 * command is a QS-RX record for a QP target instead (qs_tx.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/pipe.h"
#include "core/stop.h"
#include "proto/qs/qs_rxcmd.h"
#include "proto/sonde/sonde_rxcmd.h"
#include "sonde_proto.h"
#include "sources/link.h"
#include "util/bytes.h"

#define SEND_EXIT_REFUSED 4 /* the target answered with a status other than OK */

static const struct cli_opt send_opts[] = {
	{ "link", 'l', "LINK", "where the target is (tcp://HOST:PORT, serial:DEV[:BAUD], unix:PATH, ...)" },
	{ "proto", 'p', "NAME", "sonde (default) or qs (a QP target's QS-RX)" },
	{ "timeout", 't', "S", "seconds to wait for the reply to each attempt (default 2)" },
	{ "retries", 'r', "N", "send again this many times when no reply comes (default 2)" },
	{ "addr-size", 0, "BYTES", "address size for peek/poke (default: from a TARGET_INFO seen, else 4)" },
	{ "proto-version", 0, "N", "Sonde protocol version (1 or 2) of the replies until a TARGET_INFO says (default 2)" },
	{ "seq", 0, "N", "sequence number of the (first) frame (default: chosen at random; qs: 1)" },
	{ "obj-size", 0, "BYTES", "qs: object pointer size (default 4)" },
	{ "ts-size", 0, "BYTES", "qs: timestamp size, to read PEEK_DATA (default 4)" },
	{ "flow", 0, "MODE", "serial flow control: none, rtscts, xonxoff" },
	{ "bad-checksum", 0, NULL, "send the frame with a wrong checksum (tests a target's receiver)" },
	{ "quiet", 'q', NULL, "print nothing; the exit status tells" },
	{ "help", 'h', NULL, "show this help" },
	{ NULL, 0, NULL, NULL }
};

static const struct cli_opt *send_options(void)
{
	return send_opts;
}

struct send_args {
	const char *link;
	int qs;
	double timeout;
	unsigned retries;
	unsigned addr_size; /* 0 = not given */
	unsigned version;   /* 0 = not given */
	int seq;            /* -1 = not given */
	unsigned obj_size, ts_size;
	int flow;           /* -1 = not given */
	int bad_checksum;
	int quiet;
	int help;
};

static int opt_num(const char *name, const char *val, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(val, &end);
	if (!*val || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "sonde send: option '--%s' expects a number from %g to %g, got '%s'\n", name, lo, hi, val);
		return -1;
	}
	*out = v;
	return 0;
}

static int send_opt(void *ctx, const struct cli_opt *o, const char *val)
{
	struct send_args *a = ctx;
	double v;
	const char *n = o->name;
	if (strcmp(n, "link") == 0) {
		a->link = val;
	} else if (strcmp(n, "proto") == 0) {
		if (strcmp(val, "qs") != 0 && strcmp(val, "sonde") != 0) {
			fprintf(stderr, "sonde send: unknown protocol '%s' for option '--proto' (known: sonde, qs)\n", val);
			return -1;
		}
		a->qs = strcmp(val, "qs") == 0;
	} else if (strcmp(n, "timeout") == 0) {
		if (opt_num(n, val, 0.01, 3600, &a->timeout) != 0)
			return -1;
	} else if (strcmp(n, "retries") == 0) {
		if (opt_num(n, val, 0, 100, &v) != 0)
			return -1;
		a->retries = (unsigned)v;
	} else if (strcmp(n, "addr-size") == 0 || strcmp(n, "obj-size") == 0 || strcmp(n, "ts-size") == 0) {
		if (opt_num(n, val, 1, 8, &v) != 0)
			return -1;
		*(n[0] == 'a' ? &a->addr_size : n[0] == 'o' ? &a->obj_size : &a->ts_size) = (unsigned)v;
	} else if (strcmp(n, "proto-version") == 0) {
		if (opt_num(n, val, SONDE_PROTO_VERSION_1, SONDE_PROTO_VERSION, &v) != 0)
			return -1;
		a->version = (unsigned)v;
	} else if (strcmp(n, "seq") == 0) {
		if (opt_num(n, val, 0, 255, &v) != 0)
			return -1;
		a->seq = (int)v;
	} else if (strcmp(n, "flow") == 0) {
		a->flow = strcmp(val, "none") == 0 ? SONDE_FLOW_NONE : strcmp(val, "rtscts") == 0 ? SONDE_FLOW_RTSCTS
			: strcmp(val, "xonxoff") == 0 ? SONDE_FLOW_XONXOFF : -1;
		if (a->flow < 0) {
			fprintf(stderr, "sonde send: option '--flow' expects none, rtscts or xonxoff, got '%s'\n", val);
			return -1;
		}
	} else if (strcmp(n, "bad-checksum") == 0) {
		a->bad_checksum = 1;
	} else if (strcmp(n, "quiet") == 0) {
		a->quiet = 1;
	} else {
		a->help = 1;
	}
	return 0;
}

static int send_arg(void *ctx, const char *arg)
{
	(void)ctx;
	fprintf(stderr, "sonde send: unexpected '%s' before the command\n", arg);
	return -1;
}

/* The index of the command word: the first operand, skipping the values of
 * options (cli_parse would take "-LOG" in "glb-filter -LOG" for an option). */
static int command_index(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--") == 0)
			return i + 1;
		if (s[0] != '-' || s[1] == '\0')
			return i;
		const struct cli_opt *o = NULL;
		for (const struct cli_opt *p = send_opts; p->name; p++) {
			if (s[1] == '-' ? strcmp(s + 2, p->name) == 0 : (s[1] == p->short_name && s[2] == '\0'))
				o = p;
		}
		if (o && o->arg)
			i++; /* its value */
	}
	return argc;
}

static void send_help(FILE *out)
{
	fprintf(out,
		"usage: sonde send --link LINK [options] COMMAND [ARGS]\n\n"
		"Send one command on the target's receive channel (docs/protocol.md section 9),\n"
		"wait for the reply carrying its sequence number and print it.\n\n"
		"commands (Sonde targets):\n"
		"  info                    TARGET_INFO and all dictionaries again\n"
		"  glb-filter LIST         global filter: all, none, record names (ISR_ENTER, LOG, ...),\n"
		"                          groups (ISR TASK MARKS FUNC USER), ids (0x13) or ranges\n"
		"                          (0x40-0x4F), each with '+' (default) or '-'; starts from all\n"
		"  loc-filter LIST         local filter: object ids 0..255 or ranges, all, none\n"
		"  start | stop            accept / refuse records\n"
		"  trigger | readout       freeze a snapshot or post-mortem buffer (readout: and read it out)\n"
		"  reset                   zero the target's counters\n"
		"  app CMD [A [B [C]]]     the application's command callback\n"
		"  peek ADDR N             read N (1..64) bytes at ADDR\n"
		"  poke ADDR HEX           write bytes (\"de ad be ef\" or deadbeef) at ADDR\n"
		"  stats                   TARGET_STATS: records written, overwritten, refused, bytes\n"
		"commands (--proto qs, QP targets):\n"
		"  info | reset | tick [RATE] | command CMD [A B C] | glb-filter LIST | loc-filter LIST\n"
		"  curr-obj ADDR (the application object peek reads) | peek OFFSET SIZE COUNT\n\n"
		"LINK: serial:DEVICE[:BAUD[:8N1]], tcp://HOST:PORT, tcp-listen://[ADDR:]PORT,\n"
		"      udp://[ADDR:]PORT (replies to the target's address once a datagram came),\n"
		"      unix:PATH (a 'sonde live --control PATH' session: shares its link),\n"
		"      gdb://HOST:PORT[?elf=FW.ELF] (the RTT down buffer, through a GDB server)\n\n"
		"options:\n");
	cli_print_opts(out, send_opts);
	fprintf(out, "\nexit status: 0 the target answered OK; 4 it refused (the status is printed);\n"
		     "             2 usage error; 3 link error or no reply after the retries\n");
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What the watcher has seen since the command went out. */
struct send_wait {
	const struct send_args *a;
	const struct rxcmd *c;
	const struct rxwatch *rw;
	uint8_t seq;
	int done;          /* reply found */
	uint8_t status;
	uint8_t reply_cmd;
	unsigned addr_size;
	int have_info;
	uint8_t info[18];
	unsigned dicts;
	int have_peek;
	uint8_t peek[3 + 8 + 255];  /* Sonde: PEEK_DATA's fields; QS: the record */
	size_t peek_n;
	int have_stats;          /* the reply's length, 0 = none */
	uint8_t stats[SONDE_STATS_BYTES];
	FILE *out;
};

static void on_sonde_frame(void *ctx, uint8_t fseq, uint8_t id, const uint8_t *d, size_t n)
{
	struct send_wait *w = ctx;
	(void)fseq;
	if (w->done || rxwatch_fields(w->rw, id, &d, &n) != 0)
		return;
	if (id == SONDE_REC_TARGET_INFO && n == 18) {
		memcpy(w->info, d, 18);
		w->have_info = 1;
		w->dicts = 0;
	} else if (id == SONDE_REC_DICT) {
		w->dicts++;
	} else if (id == SONDE_REC_PEEK_DATA && n >= 1 + (size_t)w->addr_size &&
		   n == 1 + (size_t)w->addr_size + d[w->addr_size]) {
		memcpy(w->peek, d, n);
		w->peek_n = n;
		w->have_peek = 1;
	} else if (id == SONDE_REC_TARGET_STATS && (n == SONDE_STATS_BYTES_V2 || n == SONDE_STATS_BYTES)) {
		memcpy(w->stats, d, n);
		w->have_stats = (int)n;
	} else if (id == SONDE_REC_CMD_STATUS) {
		uint8_t s, cmd, st;
		if (rxcmd_status(d, n, &s, &cmd, &st) == 0 && s == w->seq && (cmd == w->c->id || w->a->bad_checksum)) {
			w->done = 1;
			w->status = st;
			w->reply_cmd = cmd;
		}
	}
}

static void on_qs_frame(void *ctx, uint8_t fseq, uint8_t id, const uint8_t *d, size_t n)
{
	struct send_wait *w = ctx;
	(void)fseq;
	if (w->done)
		return;
	if (id == 66 && n >= 1) { /* QS_RX_STATUS: an Ack (the record id) or an error (0x80 | code) */
		if (d[0] == w->c->id || d[0] == (0x80 | w->c->id) || d[0] > 0x80 + 0x40) {
			w->done = 1;
			w->status = d[0];
		}
	} else if (id == w->c->qs_reply && id == 64) { /* QS_TARGET_INFO */
		w->done = 1;
		w->status = w->c->id;
		w->have_info = 1;
		w->peek_n = n < sizeof(w->peek) ? n : sizeof(w->peek);
		memcpy(w->peek, d, w->peek_n);
	} else if (id == w->c->qs_reply && id == 68) { /* QS_PEEK_DATA */
		w->done = 1;
		w->status = w->c->id;
		w->have_peek = 1;
		w->peek_n = n < sizeof(w->peek) ? n : sizeof(w->peek);
		memcpy(w->peek, d, w->peek_n);
	}
}

static void hex(FILE *out, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%02x", i ? " " : "", p[i]);
}

static void print_sonde(const struct send_wait *w)
{
	FILE *o = w->out;
	static const char *const modes[] = { "overwrite", "drop-newest", "snapshot", "post-mortem" };
	if (w->c->id == SONDE_CMD_INFO && w->have_info) {
		const uint8_t *i = w->info;
		fprintf(o, "TARGET_INFO version=%u big_endian=%s addr_size=%u mode=%s core=%u ts_size=%u ts_freq=%" PRIu32
			   " buffer_size=%" PRIu32 " build_id=0x%08" PRIx32 "\n",
			i[0], i[1] & 1 ? "true" : "false", i[2], i[3] < 4 ? modes[i[3]] : "?", i[4], i[5], bytes_le32(i + 6),
			bytes_le32(i + 10), bytes_le32(i + 14));
		fprintf(o, "DICT entries: %u\n", w->dicts);
	}
	if (w->c->id == SONDE_CMD_PEEK && w->have_peek) {
		unsigned as = w->addr_size;
		fprintf(o, "PEEK_DATA addr=0x%0*" PRIx64 " n=%u: ", (int)(2 * as), bytes_le(w->peek, as), w->peek[as]);
		hex(o, w->peek + 1 + as, w->peek[as]);
		fprintf(o, "\n");
	}
	if (w->c->id == SONDE_CMD_STATS && w->have_stats) {
		fprintf(o, "TARGET_STATS records=%" PRIu32 " overwritten=%" PRIu32 " refused=%" PRIu32 " bytes=%" PRIu32,
			bytes_le32(w->stats), bytes_le32(w->stats + 4), bytes_le32(w->stats + 8), bytes_le32(w->stats + 12));
		if (w->have_stats >= (int)SONDE_STATS_BYTES) /* version 3: not made while stopped */
			fprintf(o, " stopped=%" PRIu32, bytes_le32(w->stats + 16));
		fprintf(o, "\n");
	}
	fprintf(o, "CMD_STATUS seq=%u cmd=%s status=%s\n", w->seq, rxcmd_name(w->reply_cmd), rxcmd_status_name(w->status));
}

static void print_qs(const struct send_wait *w)
{
	FILE *o = w->out;
	if (w->have_info) {
		fprintf(o, "TARGET_INFO %zu bytes: ", w->peek_n);
		hex(o, w->peek, w->peek_n);
		fprintf(o, "\n");
		return;
	}
	if (w->have_peek) {
		size_t ts = w->a->ts_size;
		if (w->peek_n >= ts + 4) {
			const uint8_t *p = w->peek + ts;
			fprintf(o, "PEEK_DATA offset=%u size=%u count=%u: ", (unsigned)(p[0] | p[1] << 8), p[2], p[3]);
			hex(o, p + 4, w->peek_n - ts - 4);
		} else {
			fprintf(o, "PEEK_DATA (short): ");
			hex(o, w->peek, w->peek_n);
		}
		fprintf(o, "\n");
		return;
	}
	if (w->status < 0x80)
		fprintf(o, "Trg-Ack  record %u\n", w->status);
	else
		fprintf(o, "Trg-ERR  0x%02X\n", w->status & 0x7F);
}

/* Bring the link up within the deadline. */
static int link_up(struct sonde_link *l, int64_t deadline)
{
	for (;;) {
		if (sonde_link_connect(l) == 0)
			return 0;
		if (sonde_stop_signal())
			return -1;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return -1;
		int fd = sonde_link_poll_fd(l);
		struct pollfd pf = { fd, POLLIN, 0 };
		poll(fd >= 0 ? &pf : NULL, fd >= 0 ? 1 : 0, (int)(left < 200 ? left : 200));
	}
}

/* Read the link until the reply comes or the time is up: 1 reply, 0 time
 * up, -1 link lost, -2 stopped (Ctrl-C). */
static int wait_reply(struct sonde_link *l, struct rxwatch *rw, struct send_wait *w, int64_t deadline)
{
	uint8_t buf[4096];
	while (!w->done) {
		if (sonde_stop_signal())
			return -2;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return 0;
		int fd = sonde_link_poll_fd(l), every = sonde_link_poll_ms(l);
		if (fd < 0 && every < 0)
			return -1;
		struct pollfd pf = { fd, POLLIN, 0 };
		int r = poll(fd >= 0 ? &pf : NULL, fd >= 0 ? 1 : 0, (int)(fd >= 0 || left < every ? left : every));
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0 && fd >= 0)
			continue;
		ssize_t k = sonde_link_read(l, buf, sizeof(buf));
		if (k < 0)
			return -1;
		rxwatch_feed(rw, buf, (size_t)k);
	}
	return 1;
}

static int send_run(int argc, char **argv)
{
	struct send_args a = { .timeout = 2.0, .retries = 2, .seq = -1, .obj_size = 4, .ts_size = 4, .flow = -1 };
	int ci = command_index(argc, argv);
	if (cli_parse("send", ci, argv, send_opts, send_opt, send_arg, &a) != 0)
		return SONDE_EXIT_USAGE;
	if (a.help) {
		send_help(stdout);
		return SONDE_EXIT_OK;
	}
	if (!a.link) {
		fprintf(stderr, "sonde send: which link? (--link LINK; see 'sonde help send')\n");
		return SONDE_EXIT_USAGE;
	}
	if (ci >= argc) {
		fprintf(stderr, "sonde send: which command? (see 'sonde help send')\n");
		return SONDE_EXIT_USAGE;
	}
	char why[512];
	struct sonde_link_spec spec;
	if (sonde_link_parse(a.link, &spec, why, sizeof(why)) != 0) {
		fprintf(stderr, "sonde send: %s\n", why);
		return SONDE_EXIT_USAGE;
	}
	if (a.flow >= 0)
		spec.flow = (enum sonde_link_flow)a.flow;
	if (spec.kind == SONDE_LINK_STDIN || spec.kind == SONDE_LINK_FILE) {
		fprintf(stderr, "sonde send: commands cannot be sent on '%s' (it only reads)\n", a.link);
		return SONDE_EXIT_USAGE;
	}
	/* Check the command before touching the link. */
	struct rxcmd c;
	uint8_t seq = a.seq >= 0 ? (uint8_t)a.seq : a.qs ? 1 : (uint8_t)(getpid() ^ time(NULL));
	int rc = a.qs ? qs_rxcmd_parse(argv + ci, argc - ci, seq, a.obj_size, &c, why, sizeof(why))
		      : rxcmd_parse(argv + ci, argc - ci, a.addr_size ? a.addr_size : 4, &c, why, sizeof(why));
	if (rc != 0) {
		fprintf(stderr, "sonde send: %s\n", why);
		return SONDE_EXIT_USAGE;
	}
	struct sonde_link l;
	memset(&l, 0, sizeof(l));
	int64_t t_ms = (int64_t)(a.timeout * 1000);
	if (sonde_link_open(&l, &spec) != 0 || link_up(&l, now_ms() + t_ms) != 0) {
		if (sonde_stop_signal()) {
			fprintf(stderr, "sonde send: %s: stopped before %s came up\n", strsignal(sonde_stop_signal()),
				l.name[0] ? l.name : a.link);
			sonde_link_close(&l);
			return sonde_stop_status();
		}
		fprintf(stderr, "sonde send: %s: %s\n", l.name[0] ? l.name : a.link, l.why);
		sonde_link_close(&l);
		return SONDE_EXIT_IO;
	}
	struct send_wait w;
	memset(&w, 0, sizeof(w));
	w.a = &a;
	w.c = &c;
	w.out = stdout;
	struct rxwatch rw;
	rxwatch_init(&rw, a.qs ? on_qs_frame : on_sonde_frame, &w);
	w.rw = &rw;
	if (a.version)
		rw.version = a.version;
	if (spec.kind == SONDE_LINK_UDP) {
		/* the target's address is known once it has sent something */
		uint8_t buf[2048];
		int64_t deadline = now_ms() + t_ms;
		while (!l.peer_len && now_ms() < deadline && !sonde_stop_signal()) {
			struct pollfd pf = { l.fd, POLLIN, 0 };
			if (poll(&pf, 1, (int)(deadline - now_ms())) > 0) {
				ssize_t k = sonde_link_read(&l, buf, sizeof(buf));
				if (k > 0)
					rxwatch_feed(&rw, buf, (size_t)k);
			}
		}
	}
	rc = SONDE_EXIT_IO;
	for (unsigned attempt = 0; attempt <= a.retries; attempt++) {
		if (attempt) {
			seq++;
			if (a.qs)
				qs_rxcmd_parse(argv + ci, argc - ci, seq, a.obj_size, &c, why, sizeof(why));
			if (!a.quiet)
				fprintf(stderr, "sonde send: no reply within %g s; sending again (seq %u)\n", a.timeout, seq);
		}
		/* A PEEK needs the target's address size: re-encode with the one
		 * its TARGET_INFO gave, if it came before we send. */
		w.addr_size = a.addr_size ? a.addr_size : rw.addr_size;
		if (!a.qs && !a.addr_size && (c.id == SONDE_CMD_PEEK || c.id == SONDE_CMD_POKE) && rw.addr_size != 4)
			rxcmd_parse(argv + ci, argc - ci, rw.addr_size, &c, why, sizeof(why));
		w.seq = seq;
		uint8_t frame[RXCMD_FRAME_MAX];
		size_t fl = rxcmd_frame(&c, seq, a.bad_checksum, frame);
		if (sonde_link_write(&l, frame, fl) != 0) {
			fprintf(stderr, "sonde send: %s: %s\n", l.name, l.why);
			break;
		}
		if (!a.qs)
			w.have_info = w.have_peek = w.have_stats = 0, w.dicts = 0;
		if (a.qs && c.qs_reply < 0) { /* reset: nothing comes back */
			rc = SONDE_EXIT_OK;
			break;
		}
		int got = wait_reply(&l, &rw, &w, now_ms() + t_ms);
		if (got == -2)
			break;
		if (got < 0) {
			fprintf(stderr, "sonde send: %s: %s\n", l.name, l.why[0] ? l.why : "link lost");
			break;
		}
		if (got > 0) {
			if (!a.quiet)
				(a.qs ? print_qs : print_sonde)(&w);
			int ok = a.qs ? w.status < 0x80 : w.status == SONDE_ST_OK;
			rc = ok ? SONDE_EXIT_OK : SEND_EXIT_REFUSED;
			break;
		}
		if (attempt == a.retries)
			fprintf(stderr, "sonde send: %s: no reply to %s after %u attempt%s\n", l.name,
				a.qs ? argv[ci] : rxcmd_name(c.id), a.retries + 1, a.retries ? "s" : "");
	}
	sonde_link_close(&l);
	if (sonde_stop_signal()) {
		fprintf(stderr, "sonde send: %s: stopped before a reply to %s came\n", strsignal(sonde_stop_signal()),
			a.qs ? argv[ci] : rxcmd_name(c.id));
		rc = sonde_stop_status();
	}
	return rc;
}

const struct sonde_cmd sonde_cmd_send = {
	.name = "send",
	.summary = "send a command to a target (filters, start/stop, peek, ...) and print its reply",
	.run = send_run,
	.help = send_help,
	.opts = send_options,
	.operand = "COMMAND",
	/* Sonde's (proto/sonde/sonde_rxcmd.c), then QS's (proto/qs/qs_rxcmd.c);
	 * test_cli_help.sh checks that send takes each */
	.words = "info glb-filter loc-filter start stop trigger readout reset app peek poke stats "
		 "tick command curr-obj",
};
