/*
 * live_term.c -- the terminal side of `sonde live`: messages on stderr,
 * the one-line status that is redrawn in place (only when stderr is a
 * terminal), and the keys read from a terminal on stdin in raw mode.  The
 * terminal's settings are restored on every way out: the end of the
 * session, exit(), and the signals the loop handles (they end the session
 * through the normal path).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/stop.h"
#include "live.h"

static struct live *live_tty; /* for the atexit restore */

void live_status_erase(struct live *lv)
{
	if (!lv->status_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	lv->status_shown = 0;
}

void live_status_draw(struct live *lv)
{
	if (!lv->o.status || !lv->status[0])
		return;
	fprintf(stderr, "\r\033[K%s", lv->status);
	fflush(stderr);
	lv->status_shown = 1;
}

void live_msg(struct live *lv, const char *fmt, ...)
{
	live_status_erase(lv);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* 1234567 -> "1.2 MB" */
static void human(char *out, size_t cap, double v, const char *unit)
{
	if (v >= 1e9)
		snprintf(out, cap, "%.1f G%s", v / 1e9, unit);
	else if (v >= 1e6)
		snprintf(out, cap, "%.1f M%s", v / 1e6, unit);
	else if (v >= 1e3)
		snprintf(out, cap, "%.1f k%s", v / 1e3, unit);
	else
		snprintf(out, cap, "%.0f %s", v, unit);
}

void live_status_tick(struct live *lv, int64_t now)
{
	int64_t dt = now - lv->status_t;
	uint64_t records = lv->stats->records;
	if (dt > 0) {
		lv->byte_rate = (double)(lv->rx_bytes - lv->status_bytes) * 1000.0 / (double)dt;
		lv->rec_rate = (double)(records - lv->status_records) * 1000.0 / (double)dt;
	}
	lv->status_t = now;
	lv->status_bytes = lv->rx_bytes;
	lv->status_records = records;
	if (!lv->o.status)
		return;
	const struct sonde_session *s = &lv->pipe->session;
	char rate[32], total[32], state[64] = "up";
	human(rate, sizeof(rate), lv->byte_rate, "B/s");
	human(total, sizeof(total), (double)lv->rx_bytes, "B");
	if (!lv->up)
		live_link_down_text(lv, now, state, sizeof(state));
	snprintf(lv->status, sizeof(lv->status),
		 "%.80s %.40s | %s %.0f rec/s | %s %" PRIu64 " records | errors %" PRIu64 " | drops %" PRIu64
		 " target, %" PRIu64 " link",
		 lv->link.name, state, rate, lv->rec_rate, total, records, lv->pipe->ndiags,
		 s->drops_overwritten + s->drops_refused, s->lost_link);
	live_status_draw(lv);
}

void live_term_restore(struct live *lv)
{
	if (!lv || !lv->tty_raw)
		return;
	tcsetattr(STDIN_FILENO, TCSANOW, &lv->tty_saved);
	lv->tty_raw = 0;
}

static void restore_at_exit(void)
{
	live_term_restore(live_tty);
}

/* A second Ctrl-C ends the process from its signal handler (core/stop.h):
 * only async-signal-safe calls here (tcsetattr is one). */
static void restore_in_handler(void)
{
	if (live_tty && live_tty->tty_raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &live_tty->tty_saved);
}

int live_term_raw(struct live *lv)
{
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &lv->tty_saved) != 0)
		return -1;
	struct termios t = lv->tty_saved;
	/* keys arrive one by one, unechoed; Ctrl-C still sends SIGINT (ISIG
	 * stays on), which ends the session cleanly */
	t.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) != 0)
		return -1;
	if (!live_tty)
		atexit(restore_at_exit);
	live_tty = lv;
	sonde_stop_install(restore_in_handler);
	lv->tty_raw = 1;
	return 0;
}

void live_keys_help(struct live *lv)
{
	if (sonde_link_writable(&lv->link))
		live_msg(lv, "keys: i info, s start/stop, t trigger, r readout, c reset counters, p stats, "
			     "h help, q quit");
	else
		live_msg(lv, "keys: h help, q quit (%s cannot carry commands)", lv->link.name);
}

void live_keys_read(struct live *lv)
{
	char keys[16];
	ssize_t n = read(STDIN_FILENO, keys, sizeof(keys));
	if (n <= 0) {
		if (n == 0 || (errno != EINTR && errno != EAGAIN))
			lv->keys_eof = 1;
		return;
	}
	for (ssize_t i = 0; i < n && !lv->stop; i++) {
		switch (keys[i]) {
		case 'q':
			lv->stop = 1;
			break;
		case 'h':
		case '?':
			live_keys_help(lv);
			break;
		case 'i':
			live_cmd_send(lv, "info");
			break;
		case 's':
			live_cmd_send(lv, lv->stopped ? "start" : "stop");
			break;
		case 't':
			live_cmd_send(lv, "trigger");
			break;
		case 'r':
			live_cmd_send(lv, "readout");
			break;
		case 'c':
			live_cmd_send(lv, "reset");
			break;
		case 'p':
			live_cmd_send(lv, "stats");
			break;
		default:
			break;
		}
	}
	live_status_draw(lv);
}
