/*
 * live_retry.c -- bringing the link of `sonde live` up, and back after it
 * went down: attempts with a backoff (0.1 s, doubling up to 2 s) for
 * --reconnect-timeout seconds.  The user is told at once what failed, with
 * the device or port named ("no such device", "connection refused"), what
 * is retried, how often and for how long; while it stays down, every 10 s
 * that it still is (on a terminal the status line shows it instead); when
 * the reason changes, the new one; and when it gives up, after how long.
 * A tcp-listen link just waits for its client, as long as it takes.
 */
#include <string.h>

#include "live.h"

#define LIVE_BACKOFF_FIRST_MS 100
#define LIVE_BACKOFF_MAX_MS 2000
#define LIVE_NOTE_FIRST_MS 5000   /* the first "still down" after this long... */
#define LIVE_NOTE_EVERY_MS 10000  /* ...then this often */
#define LIVE_LISTEN_POLL_MS 500   /* a listening socket wakes the loop; this is a safety net */

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int listening(const struct live *lv)
{
	return lv->link.spec.kind == SONDE_LINK_TCP_LISTEN;
}

/* What is retried, how often, for how long. */
static void plan(const struct live *lv, char *out, size_t cap)
{
	if (lv->o.reconnect_s < 0)
		snprintf(out, cap, "retrying every %.1f to %.0f s until it works (--reconnect-timeout inf; Ctrl-C stops)",
			 LIVE_BACKOFF_FIRST_MS / 1000.0, LIVE_BACKOFF_MAX_MS / 1000.0);
	else
		snprintf(out, cap, "retrying every %.1f to %.0f s for up to %g s (--reconnect-timeout; Ctrl-C stops)",
			 LIVE_BACKOFF_FIRST_MS / 1000.0, LIVE_BACKOFF_MAX_MS / 1000.0, lv->o.reconnect_s);
}

/* A new period without the link. */
static void went_down(struct live *lv, int64_t now)
{
	lv->up = 0;
	lv->down_since = now;
	lv->backoff_ms = LIVE_BACKOFF_FIRST_MS;
	lv->attempts = 0;
	lv->down_why[0] = '\0';
	lv->next_note = now + LIVE_NOTE_FIRST_MS;
}

void live_link_start(struct live *lv, int64_t now)
{
	went_down(lv, now);
	lv->up = lv->link.fd >= 0;
	lv->ever_up = lv->up;
	lv->connects = lv->up;
	lv->next_try = now;
	if (lv->up)
		return;
	if (listening(lv))
		live_msg(lv, "sonde live: %s: waiting for a client", lv->link.name);
	else
		live_try_connect(lv, now);
}

void live_try_connect(struct live *lv, int64_t now)
{
	if (sonde_link_connect(&lv->link) == 0) {
		lv->up = 1;
		lv->connects++;
		if (lv->ever_up) {
			live_msg(lv, "sonde live: %s: reconnected after %.1f s", lv->link.name,
				 (double)(now - lv->down_since) / 1000.0);
			sonde_pipe_rejoin(lv->pipe); /* the stream is joined mid-way again */
		} else if (lv->attempts)
			live_msg(lv, "sonde live: %s: connected after %.1f s (%u failed attempt%s)", lv->link.name,
				 (double)(now - lv->down_since) / 1000.0, lv->attempts, lv->attempts == 1 ? "" : "s");
		lv->ever_up = 1;
		return;
	}
	if (listening(lv)) { /* no client yet: nothing failed */
		lv->next_try = now + LIVE_LISTEN_POLL_MS;
		return;
	}
	lv->attempts++;
	int64_t down_ms = now - lv->down_since;
	if (lv->o.reconnect_s >= 0 && down_ms >= (int64_t)(lv->o.reconnect_s * 1000)) {
		if (lv->o.reconnect_s == 0 && !lv->ever_up)
			live_msg(lv, "sonde live: %s: %s (not retried: --reconnect-timeout 0)", lv->link.name, lv->link.why);
		else
			live_msg(lv, "sonde live: %s: %s; giving up after %.1f s (%u attempt%s)", lv->link.name, lv->link.why,
				 (double)down_ms / 1000.0, lv->attempts, lv->attempts == 1 ? "" : "s");
		lv->exit_io = 1;
		lv->stop = 1;
		return;
	}
	char p[160];
	if (!lv->down_why[0]) {
		plan(lv, p, sizeof(p));
		live_msg(lv, "sonde live: %s: %s; %s", lv->link.name, lv->link.why, p);
	} else if (strcmp(lv->down_why, lv->link.why) != 0) {
		live_msg(lv, "sonde live: %s: %s (still retrying)", lv->link.name, lv->link.why);
	} else if (!lv->o.status && now >= lv->next_note) {
		plan(lv, p, sizeof(p));
		live_msg(lv, "sonde live: %s: still down after %.0f s (%u attempts): %s; %s", lv->link.name,
			 (double)down_ms / 1000.0, lv->attempts, lv->link.why, p);
		lv->next_note = now + LIVE_NOTE_EVERY_MS;
	}
	snprintf(lv->down_why, sizeof(lv->down_why), "%s", lv->link.why);
	lv->next_try = now + lv->backoff_ms;
	if (lv->o.reconnect_s >= 0) /* the last attempt when the time is up, not a backoff later */
		lv->next_try = min64(lv->next_try, lv->down_since + (int64_t)(lv->o.reconnect_s * 1000));
	lv->backoff_ms = lv->backoff_ms * 2 > LIVE_BACKOFF_MAX_MS ? LIVE_BACKOFF_MAX_MS : lv->backoff_ms * 2;
}

void live_link_down(struct live *lv, int64_t now)
{
	lv->up = 0;
	if (lv->link.ended) {
		lv->stop = 1;
		return;
	}
	if (!sonde_link_reconnects(&lv->link) || lv->o.reconnect_s == 0) {
		live_msg(lv, "sonde live: %s: %s", lv->link.name, lv->link.why);
		lv->stop = 1;
		return;
	}
	went_down(lv, now);
	char p[160];
	plan(lv, p, sizeof(p));
	if (listening(lv))
		live_msg(lv, "sonde live: %s: %s; waiting for the next client", lv->link.name, lv->link.why);
	else
		live_msg(lv, "sonde live: %s: %s; reconnecting: %s", lv->link.name, lv->link.why, p);
	snprintf(lv->down_why, sizeof(lv->down_why), "%s", lv->link.why);
	lv->next_try = now + (listening(lv) ? 0 : lv->backoff_ms);
}

void live_link_never_up(struct live *lv)
{
	if (listening(lv)) {
		live_msg(lv, "sonde live: %s: no client connected", lv->link.name);
		return;
	}
	if (!lv->exit_io) /* stopped (Ctrl-C, q, --duration) while still trying */
		live_msg(lv, "sonde live: %s: stopped before the link came up (%s)", lv->link.name,
			 lv->link.why[0] ? lv->link.why : "not connected");
	lv->exit_io = 1;
}
