/*
 * live_status.c -- what `sonde live` shows on the terminal of stderr:
 * messages, and the status.
 *
 * On a terminal that has scroll regions (any VT100 descendant: not
 * TERM=dumb) and at least 8 rows, the two bottom rows are kept for a
 * status area: the figures (link, rates, totals, errors, drops; in reverse
 * video) and the latest message -- a command's reply, the key help, a link
 * event, a warning.  Decoded records and messages scroll above it, so at
 * any record rate the figures stay visible and a reply stays readable
 * until the next message; nothing has to be erased and redrawn around each
 * chunk.  Elsewhere a single status line is redrawn in place (carriage
 * return) and erased before anything else is printed.  The scroll region
 * is set again when the terminal is resized, and put back at the end, on
 * exit() and from the handler of a second Ctrl-C.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "core/out.h"
#include "live.h"

#define AREA_ROWS 2
#define AREA_MIN_ROWS 8

int64_t live_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The state of a link that is down, for the status (the retries are
 * live_retry.c's; this is only their text). */
void live_link_down_text(const struct live *lv, int64_t now, char *out, size_t cap)
{
	if (lv->link.spec.kind == SONDE_LINK_TCP_LISTEN && !lv->ever_up)
		snprintf(out, cap, "waiting for a client");
	else if (lv->link.spec.kind == SONDE_LINK_TCP_LISTEN)
		snprintf(out, cap, "DOWN %.0f s, waiting for the next client", (double)(now - lv->down_since) / 1000.0);
	else
		snprintf(out, cap, "DOWN %.0f s, attempt %u", (double)(now - lv->down_since) / 1000.0, lv->attempts + 1);
}

static volatile sig_atomic_t resized;
static volatile sig_atomic_t area_on; /* for the restores at exit and in a handler */

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static int term_size(int *rows, int *cols)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0)
		return -1;
	*rows = ws.ws_row;
	*cols = ws.ws_col ? ws.ws_col : 80;
	return 0;
}

/* The whole screen scrolls again; the cursor stays where the records
 * ended.  Async-signal-safe (write(2) of a constant). */
void live_status_reset_region(void)
{
	static const char reset[] = "\0337\033[r\0338";
	if (area_on) {
		ssize_t r = write(STDERR_FILENO, reset, sizeof(reset) - 1);
		(void)r;
		area_on = 0;
	}
}

static void at_exit_reset(void)
{
	live_status_reset_region();
}

static void set_region(struct live *lv)
{
	fprintf(stderr, "\0337\033[1;%dr\0338", lv->rows - AREA_ROWS);
	fflush(stderr);
}

void live_status_open(struct live *lv)
{
	const char *term = getenv("TERM");
	if (!lv->o.status || !term || !*term || strcmp(term, "dumb") == 0 ||
	    term_size(&lv->rows, &lv->cols) != 0 || lv->rows < AREA_MIN_ROWS)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sa.sa_flags = SA_RESTART; /* a resize must not fail a write */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	static int registered;
	if (!registered)
		atexit(at_exit_reset);
	registered = 1;
	/* room for the area: scroll the screen up two lines, keep the text on
	 * the line the cursor was on */
	fprintf(stderr, "\n\n\0337\033[1;%dr\0338\033[%dA", lv->rows - AREA_ROWS, AREA_ROWS);
	fflush(stderr);
	lv->area = 1;
	area_on = 1;
}

void live_status_close(struct live *lv)
{
	if (!lv->area)
		return;
	/* the area cleared, the region reset, the cursor back after the records */
	fprintf(stderr, "\0337\033[r\033[%d;1H\033[J\0338", lv->rows - AREA_ROWS + 1);
	fflush(stderr);
	lv->area = 0;
	area_on = 0;
}

/* A resized terminal: the region again, or no area if it is too small now. */
static void check_resize(struct live *lv)
{
	if (!resized || !lv->area)
		return;
	resized = 0;
	int rows, cols;
	if (term_size(&rows, &cols) != 0)
		return;
	if (rows < AREA_MIN_ROWS) {
		live_status_close(lv);
		return;
	}
	lv->rows = rows;
	lv->cols = cols;
	set_region(lv);
}

void live_status_erase(struct live *lv)
{
	if (lv->area || !lv->status_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	lv->status_shown = 0;
}

void live_status_draw(struct live *lv)
{
	if (!lv->o.status || !lv->status[0])
		return;
	if (!lv->area) {
		fprintf(stderr, "\r\033[K%s", lv->status);
		fflush(stderr);
		lv->status_shown = 1;
		return;
	}
	check_resize(lv);
	if (!lv->area)
		return;
	int w = lv->cols - 1;
	/* one write: save the cursor, draw both rows, restore it */
	fprintf(stderr, "\0337\033[%d;1H\033[2K\033[7m%.*s\033[m\033[%d;1H\033[2K%.*s\0338", lv->rows - 1, w,
		lv->status, lv->rows, w, lv->note);
	fflush(stderr);
}

void live_msg(struct live *lv, const char *fmt, ...)
{
	live_status_erase(lv);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lv->note, sizeof(lv->note), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", lv->note);
	fflush(stderr);
	if (lv->area)
		live_status_draw(lv); /* the message stays in view below the figures */
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
	live_status_refresh(lv, now);
}

void live_status_refresh(struct live *lv, int64_t now)
{
	if (!lv->o.status)
		return;
	uint64_t records = lv->stats->records;
	const struct sonde_session *s = &lv->pipe->session;
	char rate[32], total[32], state[64] = "up", paused[64] = "", stopped[48] = "";
	human(rate, sizeof(rate), lv->byte_rate, "B/s");
	human(total, sizeof(total), (double)lv->rx_bytes, "B");
	if (!lv->up)
		live_link_down_text(lv, now, state, sizeof(state));
	if (lv->paused)
		snprintf(paused, sizeof(paused), "PAUSED, %" PRIu64 " lines not shown | ", sonde_out_held_lines(stdout));
	/* records not made while tracing was stopped on purpose: not drops */
	if (s->stopped_records)
		snprintf(stopped, sizeof(stopped), " | %" PRIu64 " not recorded (stopped)", s->stopped_records);
	snprintf(lv->status, sizeof(lv->status),
		 "%s%.80s %.40s | %s %.0f rec/s | %s %" PRIu64 " records | errors %" PRIu64 " | drops %" PRIu64
		 " target, %" PRIu64 " link%s",
		 paused, lv->link.name, state, rate, lv->rec_rate, total, records, lv->pipe->ndiags,
		 s->drops_overwritten + s->drops_refused, s->lost_link, stopped);
	live_status_draw(lv);
}
