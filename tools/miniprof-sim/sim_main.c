/*
 * sim_main.c -- miniprof-sim: a MiniProfiler device on a pseudo-terminal.
 *
 * It answers the host's commands as the protocol document describes
 * (METADATA, STATUS, ACK/NACK) and, on START_PROFILING, sends PROFILE_DATA
 * packets of deterministic calls (sim_calls.c): a burst of --packets packets
 * right after the ACK (so a capture gets exactly those, whatever its
 * duration), or one packet every 1/--rate s until STOP_PROFILING.  Faults
 * can be injected into chosen PROFILE_DATA packets (numbered from 0 since
 * the simulator started): a wrong CRC, a packet cut short, garbage bytes
 * before it; STATUS can report buffer overflows; a command can be answered
 * with NACK or not at all.  Run with --help for the options.
 *
 * The simulator creates the pty and prints "miniprof-sim: pty /dev/pts/N"
 * on standard output, or opens a terminal it is given (--tty, e.g. one end
 * of a socat pty pair).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "sim_calls.h"
#include "sim_wire.h"

#define MAX_FAULTS 64
#define STALL_MS 5000

struct faults {
	long idx[MAX_FAULTS];
	int n;
};

struct sim {
	/* options */
	const char *tty;
	uint64_t seed;
	unsigned packets, records, rate;
	int entry_order, hello, verbose;
	unsigned version;
	uint32_t start_us, build_id, overflows_opt;
	const char *fw;
	double idle_exit;
	struct faults crc, partial, garbage;
	unsigned mute_mask, nack_mask; /* bit = command code */
	/* state */
	int fd, keep_fd;
	int profiling;
	uint32_t overflows, captured;
	long pkt_no;                   /* PROFILE_DATA packets sent (or attempted) */
	struct sim_calls calls;
	uint8_t in[256];
	size_t in_n;
	uint8_t obuf[1 << 16];         /* output gathered per command */
	size_t on;
	struct sim_rec recs[SIM_MAX_RECORDS];
	uint8_t out[SIM_RSP_MAX], payload[SIM_RSP_MAX];
};

static volatile sig_atomic_t quit;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

static void logv(const struct sim *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->verbose)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "miniprof-sim: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- options ------------------------------------------------------------------ */

static const char *const cmd_names[] = { NULL, "start", "stop", "status", "reset", "metadata", "config" };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: miniprof-sim [options]\n\n"
		"A MiniProfiler device on a pseudo-terminal.  Prints 'miniprof-sim: pty PATH'\n"
		"(or 'miniprof-sim: tty PATH') once it listens; runs until killed.\n\n"
		"  --tty PATH          use this terminal (e.g. a socat pty) instead of a new pty\n"
		"  --seed N            seed of the call generator (default 1)\n"
		"  --packets N         PROFILE_DATA packets sent after each START (default 4)\n"
		"  --records N         records per packet (default 20, at most 4680)\n"
		"  --rate HZ           instead: send HZ packets per second until STOP\n"
		"  --entry-order       records in entry order (default: completion order)\n"
		"  --start-time US     first timestamp, microseconds (default 1000)\n"
		"  --profile-version V version byte of PROFILE_DATA (default 1)\n"
		"  --build-id X        elf_build_id in METADATA (default 0xdeadbeef)\n"
		"  --fw STRING         fw_version in METADATA (default v1.0.0)\n"
		"  --crc-error LIST    PROFILE_DATA packets (0,1,... since start-up) with a wrong CRC\n"
		"  --partial LIST      PROFILE_DATA packets cut short after half their bytes\n"
		"  --garbage LIST      PROFILE_DATA packets preceded by 7 garbage bytes\n"
		"  --overflows N       STATUS reports N more buffer overflows after each START\n"
		"  --mute CMD          never answer CMD (start, stop, status, reset, metadata, config)\n"
		"  --nack CMD          answer CMD with NACK\n"
		"  --hello             send METADATA once at start-up, as a device may\n"
		"  --idle-exit S       exit after S seconds without a command (default: never)\n"
		"  -v                  log commands and packets to standard error\n\n"
		"STATUS: buffer_usage_percent is 0 when stopped, 12 while profiling, 100 while\n"
		"profiling with overflows; records_captured counts records sent since RESET.\n");
}

static int parse_num(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (*s && !*end && !errno && *s != '-' && *v <= max) ? 0 : -1;
}

static int parse_list(const char *s, struct faults *f)
{
	char buf[512], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (f->n == MAX_FAULTS || parse_num(tok, 1u << 30, &v))
			return -1;
		f->idx[f->n++] = (long)v;
	}
	return 0;
}

static int cmd_bit(const char *s, unsigned *mask)
{
	for (unsigned i = 1; i < sizeof(cmd_names) / sizeof(cmd_names[0]); i++)
		if (!strcmp(s, cmd_names[i])) {
			*mask |= 1u << i;
			return 0;
		}
	return -1;
}

static int options(struct sim *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;
		int used = 1, bad = 0;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "-v")) {
			s->verbose = 1;
			used = 0;
		} else if (!strcmp(a, "--entry-order")) {
			s->entry_order = 1;
			used = 0;
		} else if (!strcmp(a, "--hello")) {
			s->hello = 1;
			used = 0;
		} else if (!v) {
			bad = 1;
		} else if (!strcmp(a, "--tty")) {
			s->tty = v;
		} else if (!strcmp(a, "--seed")) {
			bad = parse_num(v, UINT64_MAX, &s->seed);
		} else if (!strcmp(a, "--packets")) {
			bad = parse_num(v, 1000000, &n);
			s->packets = (unsigned)n;
		} else if (!strcmp(a, "--records")) {
			bad = parse_num(v, SIM_MAX_RECORDS, &n) || n == 0;
			s->records = (unsigned)n;
		} else if (!strcmp(a, "--rate")) {
			bad = parse_num(v, 10000, &n);
			s->rate = (unsigned)n;
		} else if (!strcmp(a, "--start-time")) {
			bad = parse_num(v, UINT32_MAX, &n);
			s->start_us = (uint32_t)n;
		} else if (!strcmp(a, "--profile-version")) {
			bad = parse_num(v, 255, &n);
			s->version = (unsigned)n;
		} else if (!strcmp(a, "--build-id")) {
			bad = parse_num(v, UINT32_MAX, &n);
			s->build_id = (uint32_t)n;
		} else if (!strcmp(a, "--fw")) {
			s->fw = v;
		} else if (!strcmp(a, "--crc-error")) {
			bad = parse_list(v, &s->crc);
		} else if (!strcmp(a, "--partial")) {
			bad = parse_list(v, &s->partial);
		} else if (!strcmp(a, "--garbage")) {
			bad = parse_list(v, &s->garbage);
		} else if (!strcmp(a, "--overflows")) {
			bad = parse_num(v, UINT32_MAX, &n);
			s->overflows_opt = (uint32_t)n;
		} else if (!strcmp(a, "--mute")) {
			bad = cmd_bit(v, &s->mute_mask);
		} else if (!strcmp(a, "--nack")) {
			bad = cmd_bit(v, &s->nack_mask);
		} else if (!strcmp(a, "--idle-exit")) {
			char *end;

			s->idle_exit = strtod(v, &end);
			bad = *end || s->idle_exit <= 0;
		} else {
			fprintf(stderr, "miniprof-sim: unknown option '%s' (see --help)\n", a);
			return -1;
		}
		if (bad) {
			fprintf(stderr, "miniprof-sim: bad or missing value for '%s' (see --help)\n", a);
			return -1;
		}
		i += used;
	}
	return 0;
}

/* ---- output ---------------------------------------------------------------------- */

/* Write everything, waiting while the pty is full; give up on a reader that
 * does not read for STALL_MS (the host went away mid-stream). */
static int send_bytes(struct sim *s, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(s->fd, p, n);

		if (k > 0) {
			p += k;
			n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR) {
			fprintf(stderr, "miniprof-sim: write: %s\n", strerror(errno));
			return -1;
		}
		struct pollfd pfd = { s->fd, POLLOUT, 0 };
		if (poll(&pfd, 1, STALL_MS) == 0) {
			logv(s, "nobody reads: %zu bytes dropped", n);
			return -1;
		}
		if (quit)
			return -1;
	}
	return 0;
}

/* What a command produces is gathered and written at once: an answer and
 * the burst after it reach the pty in one write, so a host never sees the
 * ACK of START without the packets behind it already queued. */
static void flush_out(struct sim *s)
{
	if (s->on)
		send_bytes(s, s->obuf, s->on);
	s->on = 0;
}

static void emit(struct sim *s, const uint8_t *p, size_t n)
{
	if (s->on + n > sizeof(s->obuf))
		flush_out(s);
	if (n > sizeof(s->obuf)) {
		send_bytes(s, p, n);
		return;
	}
	memcpy(s->obuf + s->on, p, n);
	s->on += n;
}

static void respond(struct sim *s, unsigned type, const uint8_t *p, size_t n)
{
	size_t len = sim_packet(s->out, type, p, n);

	logv(s, "-> type %u, %zu bytes", type, len);
	emit(s, s->out, len);
}

static int in_list(const struct faults *f, long k)
{
	for (int i = 0; i < f->n; i++)
		if (f->idx[i] == k)
			return 1;
	return 0;
}

static void send_profile_packet(struct sim *s)
{
	static const uint8_t noise[7] = { 0x00, 0x13, 0x37, 0xC0, 0xFF, 0xEE, 0x42 };
	long k = s->pkt_no++;
	size_t len;

	for (unsigned i = 0; i < s->records; i++)
		sim_calls_next(&s->calls, &s->recs[i]);
	len = sim_packet(s->out, SIM_PROFILE_DATA, s->payload,
			 sim_profile(s->payload, s->version, s->recs, s->records));
	s->captured += s->records;
	if (in_list(&s->garbage, k)) {
		logv(s, "packet %ld: 7 garbage bytes before it", k);
		emit(s, noise, sizeof(noise));
	}
	if (in_list(&s->crc, k)) {
		logv(s, "packet %ld: wrong CRC", k);
		s->out[len - 3] ^= 0xFF;
	}
	if (in_list(&s->partial, k)) {
		logv(s, "packet %ld: cut short after %zu of %zu bytes", k, len / 2, len);
		len /= 2;
	}
	logv(s, "-> PROFILE_DATA %ld, %zu bytes", k, len);
	emit(s, s->out, len);
}

/* ---- commands ----------------------------------------------------------------------- */

static void command(struct sim *s, const uint8_t *c)
{
	unsigned code = c[1];
	size_t n;

	logv(s, "<- command 0x%02x (%s)", code, code < 7 && cmd_names[code] ? cmd_names[code] : "?");
	if (code >= 1 && code <= 6 && (s->mute_mask >> code & 1))
		return;
	if (code < 1 || code > 6 || (s->nack_mask >> code & 1) || c[2] > 8) {
		respond(s, SIM_NACK, NULL, 0);
		return;
	}
	switch (code) {
	case 1: /* START_PROFILING */
		s->profiling = 1;
		s->overflows += s->overflows_opt;
		respond(s, SIM_ACK, NULL, 0);
		if (!s->rate)
			for (unsigned i = 0; i < s->packets && !quit; i++)
				send_profile_packet(s);
		break;
	case 2: /* STOP_PROFILING */
		s->profiling = 0;
		respond(s, SIM_ACK, NULL, 0);
		break;
	case 3: /* GET_STATUS */
		n = sim_status(s->payload, s->profiling, s->overflows, s->captured,
			       !s->profiling ? 0 : s->overflows ? 100 : 12);
		respond(s, SIM_STATUS, s->payload, n);
		break;
	case 4: /* RESET_BUFFERS */
		s->overflows = 0;
		s->captured = 0;
		respond(s, SIM_ACK, NULL, 0);
		break;
	case 5: /* GET_METADATA */
		n = sim_metadata(s->payload, 168000000u, 1000000u, s->build_id, s->fw);
		respond(s, SIM_METADATA, s->payload, n);
		break;
	default: /* SET_CONFIG: reserved, accepted */
		respond(s, SIM_ACK, NULL, 0);
		break;
	}
}

/* Commands are 12 bytes from a 0x55; anything else is skipped.  A packet
 * with a wrong checksum is answered NACK and only its first byte dropped,
 * so a real command just after it is still found. */
static void input(struct sim *s)
{
	size_t i = 0;

	while (s->in_n - i >= SIM_CMD_LEN || (i < s->in_n && s->in[i] != 0x55)) {
		if (s->in[i] != 0x55) {
			i++;
		} else if (sim_cmd_valid(s->in + i)) {
			command(s, s->in + i);
			i += SIM_CMD_LEN;
		} else {
			logv(s, "<- bad command packet");
			respond(s, SIM_NACK, NULL, 0);
			i++;
		}
	}
	memmove(s->in, s->in + i, s->in_n - i);
	s->in_n -= i;
	flush_out(s);
}

/* ---- the terminal ---------------------------------------------------------------------- */

static int raw_mode(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) != 0)
		return -1;
	cfmakeraw(&t);
	return tcsetattr(fd, TCSANOW, &t);
}

static int open_terminal(struct sim *s)
{
	char name[256];
	int master, slave;

	if (s->tty) {
		s->fd = open(s->tty, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (s->fd < 0 || raw_mode(s->fd) != 0) {
			fprintf(stderr, "miniprof-sim: %s: %s\n", s->tty, strerror(errno));
			return -1;
		}
		s->keep_fd = -1;
		printf("miniprof-sim: tty %s\n", s->tty);
	} else {
		if (openpty(&master, &slave, name, NULL, NULL) != 0) {
			fprintf(stderr, "miniprof-sim: openpty: %s\n", strerror(errno));
			return -1;
		}
		/* The host opens the slave by name; holding it open too keeps
		 * the master readable between hosts (no hang-up). */
		raw_mode(slave);
		fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
		fcntl(master, F_SETFD, FD_CLOEXEC);
		fcntl(slave, F_SETFD, FD_CLOEXEC);
		s->fd = master;
		s->keep_fd = slave;
		printf("miniprof-sim: pty %s\n", name);
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct sigaction sa;
	double last_cmd, next_pkt = 0;

	if (!s)
		return 1;
	s->seed = 1;
	s->packets = 4;
	s->records = 20;
	s->version = 1;
	s->start_us = 1000;
	s->build_id = 0xDEADBEEFu;
	s->fw = "v1.0.0";
	if (options(s, argc, argv) != 0)
		return 2;
	sim_calls_init(&s->calls, s->seed, s->start_us, s->entry_order);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (open_terminal(s) != 0)
		return 1;
	if (s->hello) {
		size_t n = sim_metadata(s->payload, 168000000u, 1000000u, s->build_id, s->fw);

		respond(s, SIM_METADATA, s->payload, n);
		flush_out(s);
	}
	last_cmd = now_s();
	while (!quit) {
		double t = now_s(), wait = 1.0;
		struct pollfd pfd = { s->fd, POLLIN, 0 };
		int r;

		if (s->idle_exit > 0) {
			if (t - last_cmd >= s->idle_exit) {
				logv(s, "idle for %.1f s: exiting", s->idle_exit);
				break;
			}
			if (s->idle_exit - (t - last_cmd) < wait)
				wait = s->idle_exit - (t - last_cmd);
		}
		if (s->profiling && s->rate) {
			if (t >= next_pkt) {
				send_profile_packet(s);
				flush_out(s);
				next_pkt = t + 1.0 / s->rate;
			}
			if (next_pkt - t < wait)
				wait = next_pkt - t;
		}
		r = poll(&pfd, 1, (int)(wait * 1000) + 1);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (pfd.revents & POLLIN)) {
			ssize_t k = read(s->fd, s->in + s->in_n, sizeof(s->in) - s->in_n);

			if (k > 0) {
				s->in_n += (size_t)k;
				last_cmd = now_s();
				input(s);
			} else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
				/* a --tty whose other end closed: wait for the next host */
				usleep(50000);
			}
		} else if (r > 0 && (pfd.revents & (POLLHUP | POLLERR))) {
			usleep(50000);
		}
	}
	close(s->fd);
	if (s->keep_fd >= 0)
		close(s->keep_fd);
	free(s);
	return 0;
}
