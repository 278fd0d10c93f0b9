/*
 * qspy_serve.c -- the event loop of `sonde qspy` (qspy.h): the target's
 * bytes to the raw files, the front-end and the decoder, frame by frame so
 * that a front-end gets each record's packet before its line, as from
 * QSPY; the front-end's datagrams to proto/qs/qs_fe.c; QSPY's lines to the
 * screen, its -o file and the front-end; QSPY's messages for connections.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "qspy.h"

static volatile sig_atomic_t qspy_signalled;

static void on_signal(int sig)
{
	qspy_signalled = sig;
}

/* ---- lines ---------------------------------------------------------------- */

/* A line as QSPY prints it: on the screen (record lines not in quiet mode)
 * and in the -o file. */
static void print_line(struct qspy *q, int record, const char *line, size_t n)
{
	if (!record || !q->quiet) {
		fwrite(line, 1, n, stdout);
		fputc('\n', stdout);
	}
	if (q->out_file) {
		fwrite(line, 1, n, q->out_file);
		fputc('\n', q->out_file);
	}
}

static void say_line(struct qspy *q, enum qs_fe_line_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say_line(struct qspy *q, enum qs_fe_line_kind kind, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	print_line(q, 0, line, strlen(line));
	qs_fe_line(&q->fe, -1, kind, line, strlen(line));
}

static void lst_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	(void)s;
	struct qspy *q = ctx;
	if (!ev->native)
		return;
	size_t n = ev->native_len ? ev->native_len : strlen(ev->native);
	print_line(q, 1, ev->native, n);
	qs_fe_line(&q->fe, ev->rec_id, QS_FE_LINE_REG, ev->native, n);
}

/* Diagnostics in QSPY's shapes (as --format qspy prints them). */
static void lst_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	(void)s;
	struct qspy *q = ctx;
	const char *msg = d->msg ? d->msg : "";
	switch (d->code) {
	case SONDE_D_UNKNOWN_RECORD: /* a regular line for QSPY */
		say_line(q, QS_FE_LINE_REG, "           %s", msg);
		break;
	case SONDE_D_OTHER: /* QSPY's notices: not for the front-end */
		say_line(q, QS_FE_LINE_INFO, "   <QSPY-> %s", msg);
		break;
	default:
		say_line(q, QS_FE_LINE_ERR, "   <COMMS> ERROR    %s", msg);
		break;
	}
}

struct sonde_listener qspy_listener(struct qspy *q)
{
	struct sonde_listener l = { .event = lst_event, .diag = lst_diag, .ctx = q, .no_text = 1 };
	return l;
}

/* ---- the front-end ----------------------------------------------------------- */

static void fe_send(void *ctx, const uint8_t *pkt, size_t n)
{
	struct qspy *q = ctx;
	if (!q->fe_len)
		return;
	if (sendto(q->udp_fd, pkt, n, 0, (struct sockaddr *)&q->fe_addr, q->fe_len) < 0) {
		int e = errno;
		q->fe_len = 0; /* QSPY detaches a front-end it cannot reach */
		q->fe.channels = 0;
		say_line(q, QS_FE_LINE_ERR, "   <F-END> ERROR    UDP socket failed errno=%d", e);
	}
}

static int fe_to_target(void *ctx, const uint8_t *frame, size_t n)
{
	struct qspy *q = ctx;
	if (q->link.fd < 0 || !sonde_link_writable(&q->link))
		return -1;
	return sonde_link_write(&q->link, frame, n);
}

static void fe_say(void *ctx, enum qs_fe_line_kind kind, const char *line)
{
	struct qspy *q = ctx;
	(void)kind; /* errors reach the front-end from qs_fe.c itself */
	print_line(q, 0, line, strlen(line));
}

/* QSPY's timestamp for file names: YYMMDD_HHMMSS. */
static void tstamp(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, n, "%y%m%d_%H%M%S", &tm);
}

/* Open, close or toggle one of QSPY's files (-o text, -s binary). */
static void toggle_file(FILE **f, char *name, size_t nl, const char *ext, enum qs_fe_action act)
{
	if (*f) {
		fclose(*f);
		*f = NULL;
		if (act == QS_FE_TOGGLE)
			act = QS_FE_OFF;
	}
	snprintf(name, nl, "OFF");
	if (act == QS_FE_OFF)
		return;
	char ts[32];
	tstamp(ts, sizeof(ts));
	snprintf(name, nl, "qspy%s.%s", ts, ext);
	*f = fopen(name, ext[0] == 't' ? "w" : "wb");
	if (!*f) {
		printf("   <QSPY-> Cannot open File=%s for writing\n", name);
		snprintf(name, nl, "OFF");
	} else if (ext[0] == 't') {
		fprintf(*f, "sonde qspy (QSPY 7.4 lines)\nCurrent timestamp: %s\n\n", ts);
	}
}

static void fe_command(void *ctx, char cmd, enum qs_fe_action act)
{
	struct qspy *q = ctx;
	switch (cmd) {
	case 'o':
		toggle_file(&q->out_file, q->out_name, sizeof(q->out_name), "txt", act);
		printf("   <USER-> Screen Output [o] File=%s\n", q->out_name);
		break;
	case 's':
		toggle_file(&q->bin, q->bin_name, sizeof(q->bin_name), "bin", act);
		printf("   <USER-> Binary Output [s] File=%s\n", q->bin_name);
		break;
	case 'd':
	case 'g': {
		/* the QS decoder saves the dictionaries and switches the
		 * sequence diagram (proto/qs/qs_ctl.c), with QSPY's words */
		static const char *const seq[] = { "seq-off", "seq-on", "seq" };
		char msg[600];
		int rc = sonde_pipe_control(q->pipe, cmd == 'd' ? "dict" : seq[act], msg, sizeof(msg));
		if (rc == -2)
			snprintf(msg, sizeof(msg), "   <QSPY-> Command [%c] not provided by sonde qspy", cmd);
		say_line(q, rc == 0 ? QS_FE_LINE_INFO : QS_FE_LINE_ERR, "%s", msg);
		break;
	}
	case 'c':
		if (isatty(STDOUT_FILENO))
			fputs("\033[2J\033[H", stdout);
		break;
	default: /* 'm' (Matlab): not provided (docs/proto-qs.md says why) */
		say_line(q, QS_FE_LINE_INFO, "   <QSPY-> Command [%c] not provided by sonde qspy", cmd);
		break;
	}
}

static void fe_detached(void *ctx, int exit)
{
	struct qspy *q = ctx;
	q->fe_len = 0;
	if (exit)
		q->exit_req = q->stop = 1;
}

static int same_addr(const struct sockaddr_storage *a, socklen_t al, const struct sockaddr_storage *b, socklen_t bl)
{
	return al == bl && memcmp(a, b, al) == 0;
}

/* The datagrams waiting on the front-end socket. */
static void fe_input(struct qspy *q)
{
	for (;;) {
		uint8_t buf[4096];
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(q->udp_fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0)
			return; /* EAGAIN, or an ICMP error for a front-end gone: nothing to read */
		if (!q->fe_len) { /* QSPY attaches the first address it hears from */
			q->fe_addr = from;
			q->fe_len = fl;
		} else if (!same_addr(&q->fe_addr, q->fe_len, &from, fl)) {
			say_line(q, QS_FE_LINE_ERR, "   <F-END> WARN     %s", "UDP socket in use");
			continue; /* one front-end at a time, as QSPY 7.4 */
		}
		qs_fe_packet(&q->fe, buf, (size_t)n);
	}
}

/* ---- the target ---------------------------------------------------------------- */

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *frame, size_t len, uint64_t offset,
		     size_t raw_len)
{
	(void)offset, (void)raw_len;
	struct qspy *q = ctx;
	if (st == HDLC_OK && len >= 3)
		qs_fe_target_frame(&q->fe, frame, len - 1);
}

static void target_bytes(struct qspy *q, const uint8_t *buf, size_t n)
{
	q->rx_bytes += n;
	if (q->raw_fd >= 0) {
		ssize_t w = write(q->raw_fd, buf, n);
		if (w == (ssize_t)n) {
			q->raw_bytes += n;
		} else {
			fprintf(stderr, "sonde qspy: %s: write error: %s\n", q->raw_path, w < 0 ? strerror(errno) : "short write");
			close(q->raw_fd);
			q->raw_fd = -1;
			q->io_error = 1;
		}
	}
	if (q->bin)
		fwrite(buf, 1, n, q->bin);
	if (!q->fe.channels) { /* no front-end: in one go (the framer still sees target resets) */
		hdlc_feed(&q->fr, buf, n);
		sonde_pipe_feed(q->pipe, buf, n);
		return;
	}
	/* frame by frame: the front-end gets a record's packet, then its line */
	while (n) {
		size_t k = hdlc_feed_frame(&q->fr, buf, n);
		sonde_pipe_feed(q->pipe, buf, k);
		buf += k;
		n -= k;
	}
}

static void peer_text(int fd, char *host, size_t hl, unsigned *port)
{
	struct sockaddr_in a;
	socklen_t al = sizeof(a);
	snprintf(host, hl, "?");
	*port = 0;
	if (getpeername(fd, (struct sockaddr *)&a, &al) == 0 && a.sin_family == AF_INET) {
		inet_ntop(AF_INET, &a.sin_addr, host, (socklen_t)hl);
		*port = ntohs(a.sin_port);
	}
}

static void connected(struct qspy *q)
{
	q->connects++;
	hdlc_init(&q->fr, q->fr_buf, sizeof(q->fr_buf), on_frame, q);
	if (q->connects > 1)
		sonde_pipe_rejoin(q->pipe);
	qs_fe_target_reset(&q->fe);
	if (q->link.spec.kind == SONDE_LINK_TCP_LISTEN) {
		char host[64];
		peer_text(q->link.fd, host, sizeof(host), &q->peer_port);
		snprintf(q->peer_host, sizeof(q->peer_host), "%s", host);
		say_line(q, QS_FE_LINE_INFO, "   <COMMS> TCP-IP   Connected to Host=%s,Port=%u", q->peer_host, q->peer_port);
	}
}

static void target_input(struct qspy *q)
{
	for (int i = 0; i < 64 && !q->stop; i++) {
		uint8_t buf[8192];
		ssize_t n = sonde_link_read(&q->link, buf, sizeof(buf));
		if (n > 0) {
			target_bytes(q, buf, (size_t)n);
			continue;
		}
		if (n < 0) {
			if (q->link.spec.kind == SONDE_LINK_TCP_LISTEN)
				say_line(q, QS_FE_LINE_INFO, "   <COMMS> TCP-IP   Disconn from Host=%s,Port=%u", q->peer_host,
					 q->peer_port);
			else if (!q->link.ended)
				say_line(q, QS_FE_LINE_ERR, "   <COMMS> ERROR    %s: %s", q->link.name, q->link.why);
			if (q->link.ended || !sonde_link_reconnects(&q->link))
				q->stop = 1; /* a file's end: QSPY is done */
			else
				sonde_link_drop(&q->link);
		}
		return;
	}
}

/* ---- setup and loop ------------------------------------------------------------ */

int qspy_open(struct qspy *q)
{
	struct qs_fe_io io = { .ctx = q, .to_fe = fe_send, .to_target = fe_to_target, .say = fe_say,
			       .command = fe_command, .detached = fe_detached };
	qs_fe_init(&q->fe, &io);
	qs_fe_set_decoder(&q->fe, q->pipe->dec_state);
	hdlc_init(&q->fr, q->fr_buf, sizeof(q->fr_buf), on_frame, q);
	q->udp_fd = -1;
	snprintf(q->out_name, sizeof(q->out_name), "OFF");
	snprintf(q->bin_name, sizeof(q->bin_name), "OFF");
	if (q->text_file)
		toggle_file(&q->out_file, q->out_name, sizeof(q->out_name), "txt", QS_FE_ON);
	if (q->bin_file)
		toggle_file(&q->bin, q->bin_name, sizeof(q->bin_name), "bin", QS_FE_ON);
	if ((q->text_file && !q->out_file) || (q->bin_file && !q->bin))
		return SONDE_EXIT_IO;

	if (q->udp_port) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)q->udp_port) };
		if (inet_pton(AF_INET, q->udp_host, &a.sin_addr) != 1) {
			fprintf(stderr, "sonde qspy: '%s' is not an IPv4 address\n", q->udp_host);
			return SONDE_EXIT_USAGE;
		}
		q->udp_fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (q->udp_fd < 0 || bind(q->udp_fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
			fprintf(stderr, "sonde qspy: UDP %s:%u: %s\n", q->udp_host, q->udp_port, strerror(errno));
			return SONDE_EXIT_IO;
		}
	}

	struct sonde_link_spec spec;
	char why[512];
	if (sonde_link_parse(q->link_text, &spec, why, sizeof(why)) != 0) {
		fprintf(stderr, "sonde qspy: %s\n", why);
		return SONDE_EXIT_USAGE;
	}
	if (sonde_link_open(&q->link, &spec) != 0) {
		fprintf(stderr, "sonde qspy: %s: %s\n", q->link.name, q->link.why);
		return SONDE_EXIT_IO;
	}
	q->link_open = 1;
	if (q->link.fd >= 0)
		connected(q);
	return 0;
}

int qspy_loop(struct qspy *q)
{
	sigset_t block, orig;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	while (!q->stop && !qspy_signalled) {
		struct pollfd pf[2];
		nfds_t np = 0;
		int up = q->link.fd >= 0;
		int lfd = sonde_link_poll_fd(&q->link);
		int link_ms = up ? sonde_link_poll_ms(&q->link) : (lfd < 0 ? 500 : -1);
		if (lfd >= 0)
			pf[np++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		if (q->udp_fd >= 0)
			pf[np++] = (struct pollfd){ .fd = q->udp_fd, .events = POLLIN };
		struct timespec ts = { link_ms / 1000, (link_ms % 1000) * 1000000L };
		int r = ppoll(pf, np, link_ms >= 0 ? &ts : NULL, &orig);
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "sonde qspy: poll: %s\n", strerror(errno));
			q->io_error = 1;
			break;
		}
		if (r < 0)
			continue;
		if (q->udp_fd >= 0 && (pf[np - 1].revents & POLLIN))
			fe_input(q);
		int link_ready = (lfd >= 0 && pf[0].revents) || (lfd < 0 && r == 0) || (up && link_ms >= 0);
		if (link_ready && !up) {
			if (sonde_link_connect(&q->link) == 0)
				connected(q);
		} else if (link_ready) {
			target_input(q);
		}
		fflush(stdout);
		if (q->out_file)
			fflush(q->out_file);
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return q->io_error ? SONDE_EXIT_IO : 0;
}

void qspy_close(struct qspy *q)
{
	if (q->fe_len)
		qs_fe_close(&q->fe); /* DETACH: QUTest stops waiting */
	if (q->udp_fd >= 0)
		close(q->udp_fd);
	q->udp_fd = -1;
	if (q->link_open)
		sonde_link_close(&q->link);
	q->link_open = 0;
	if (q->out_file)
		fclose(q->out_file);
	if (q->bin)
		fclose(q->bin);
	q->out_file = q->bin = NULL;
}
