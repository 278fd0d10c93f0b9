/*
 * live_term.c -- the keys of `sonde live`: a terminal on stdin in raw mode,
 * one key a command (docs/live.md section 2).  The terminal's settings are
 * restored on every way out: the end of the session, exit(), and a second
 * Ctrl-C (from its handler).  What is shown is live_status.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/out.h"
#include "core/stop.h"
#include "live.h"

static struct live *live_tty; /* for the atexit restore */

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
 * only async-signal-safe calls here (tcsetattr and write are). */
static void restore_in_handler(void)
{
	if (live_tty && live_tty->tty_raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &live_tty->tty_saved);
	live_status_reset_region();
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
	lv->tty_raw = 1;
	return 0;
}

void live_term_install(struct live *lv)
{
	live_tty = lv;
	sonde_stop_install(restore_in_handler);
}

void live_keys_help(struct live *lv)
{
	if (live_qs_stream(lv)) {
		live_qs_help(lv);
		return;
	}
	const char *space = lv->show_tty ? ", space pause" : "";
	if (sonde_link_writable(&lv->link))
		live_msg(lv, "keys: i info, s start/stop, t trigger, r readout, c reset counters, p stats%s, "
			     "h help, q quit", space);
	else
		live_msg(lv, "keys: h help%s, q quit (%s cannot carry commands)", space, lv->link.name);
}

/* Space: stop showing the decoded records on the terminal, and show them
 * again.  They are still decoded, counted and saved (-w, --output). */
static void toggle_pause(struct live *lv)
{
	if (!lv->show_tty) {
		live_msg(lv, "sonde live: the records do not go to this terminal: nothing to pause");
		return;
	}
	lv->paused = !lv->paused;
	fflush(stdout);
	if (lv->paused) {
		sonde_out_hold(stdout, 1);
		live_msg(lv, "display paused: records are still decoded%s; space shows them again",
			 lv->o.raw_path ? " and saved" : "");
		return;
	}
	uint64_t held = sonde_out_held_lines(stdout);
	sonde_out_hold(stdout, 0);
	fprintf(stdout, "--- %" PRIu64 " line%s not shown while paused ---\n", held, held == 1 ? "" : "s");
	fflush(stdout);
	live_msg(lv, "display resumed (%" PRIu64 " line%s not shown)", held, held == 1 ? "" : "s");
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
		if (live_qs_stream(lv) && live_qs_key(lv, keys[i]))
			continue;
		switch (keys[i]) {
		case 'q':
			lv->stop = 1;
			lv->user_stop = 1;
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
		case ' ':
			toggle_pause(lv);
			break;
		default:
			break;
		}
	}
	live_status_refresh(lv, live_now_ms());
}
