/*
 * live_loop.c -- the event loop of `sonde live`.  One thread, one poll(2)
 * over the link, the keyboard and the control socket.  SIGINT, SIGTERM and
 * SIGHUP ask to stop (core/stop.h): the loop looks at that after every
 * wait and after every chunk, so a stop is seen within one chunk's work
 * even when the link always has data waiting (the host falling behind);
 * a blocked write to a slow output is interrupted by the stop's timer and
 * given up after the grace time (core/out.h).  Every wait has a timeout
 * (status line, reconnect backoff, followed file, duration), so nothing
 * spins and nothing hangs on a peer that went away.
 *
 * Every chunk read from the link goes first to the raw capture (-w, with
 * write(2): nothing is buffered in this process), then to the reply
 * watcher and the control clients, then to the decoder.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/out.h"
#include "core/stop.h"
#include "live.h"

#define LIVE_TICK_MS 500          /* status line refresh */
#define LIVE_PROBE_WAIT_MS 1000   /* --proto auto: try to decide after this long */
#define LIVE_READS_PER_WAKE 16    /* chunks read before looking at keys again */
#define LIVE_DRAIN_MAX (1u << 20) /* bytes read after a stop was asked for... */
#define LIVE_DRAIN_MS 300         /* ...and for how long after the signal */

static void raw_write(struct live *lv, const uint8_t *buf, size_t n)
{
	if (lv->raw_fd < 0)
		return;
	while (n) {
		ssize_t w = write(lv->raw_fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* what is in the file stays: a prefix of the stream, decodable */
			lv->raw_errno = w < 0 ? errno : EIO;
			live_msg(lv, "sonde live: %s: write error: %s; stopping (the %" PRIu64 " bytes written are "
				     "kept)", lv->o.raw_path, strerror(lv->raw_errno), lv->raw_bytes);
			close(lv->raw_fd);
			lv->raw_fd = -1;
			lv->exit_io = 1;
			lv->stop = 1;
			return;
		}
		buf += w;
		n -= (size_t)w;
		lv->raw_bytes += (uint64_t)w;
	}
}

/* Outputs are flushed after every chunk, so that a reader sees records as
 * they arrive.  A failure stops the session, said once. */
static void flush_outputs(struct live *lv)
{
	if (sonde_pipe_flush(lv->pipe) == 0 || lv->exit_io)
		return;
	FILE *bad = lv->pipe->failed_out;
	live_msg(lv, "sonde live: %s: write error: %s", sonde_out_name(bad) ? sonde_out_name(bad) : lv->pipe->output_name,
		 sonde_out_why(bad));
	lv->pipe->write_error = 1;
	lv->exit_io = 1;
	lv->stop = 1;
}

/* Choose the decoder once the probe has enough (or all there will be). */
static int try_begin(struct live *lv, int final)
{
	int64_t now = live_now_ms();
	int auto_detect = strcmp(lv->proto, "auto") == 0;
	const char *proto = lv->proto;
	if (auto_detect && !final) {
		if (lv->nprobe < sizeof(lv->probe) && now - lv->probe_t0 < LIVE_PROBE_WAIT_MS)
			return 0;
		char why[512];
		const struct sonde_decoder_ops *d =
			sonde_pipe_choose(sonde_decoders, "auto", lv->probe, lv->nprobe, why, sizeof(why));
		if (!d && lv->nprobe < sizeof(lv->probe))
			return 0; /* wait for more */
		if (d)
			proto = d->name;
	}
	live_status_erase(lv);
	int rc = sonde_pipe_begin(lv->pipe, lv->link.name, proto, lv->probe, lv->nprobe);
	lv->began = rc == 0 ? 1 : -1;
	if (rc != 0) {
		lv->stop = 1;
		return rc;
	}
	flush_outputs(lv);
	return 0;
}

static void decode(struct live *lv, const uint8_t *buf, size_t n)
{
	if (lv->began < 0)
		return;
	if (!lv->began) {
		if (lv->nprobe == 0)
			lv->probe_t0 = live_now_ms();
		size_t k = sizeof(lv->probe) - lv->nprobe;
		if (k > n)
			k = n;
		memcpy(lv->probe + lv->nprobe, buf, k);
		lv->nprobe += k;
		buf += k;
		n -= k;
		if (strcmp(lv->proto, "auto") != 0 || lv->nprobe == sizeof(lv->probe))
			try_begin(lv, 0);
		if (lv->began <= 0)
			return;
	}
	if (!n)
		return;
	live_status_erase(lv);
	sonde_pipe_feed(lv->pipe, buf, n);
	flush_outputs(lv);
}

static void got_bytes(struct live *lv, const uint8_t *buf, size_t n)
{
	lv->rx_bytes += n;
	raw_write(lv, buf, n);
	rxwatch_feed(&lv->rw, buf, n);
	live_ctl_forward(lv, buf, n);
	decode(lv, buf, n);
	live_cmd_join(lv, live_now_ms());
}

/* Read what the link has (bounded, so keys stay responsive and a stop is
 * seen after the chunk at hand).  draining: after a stop, read what has
 * arrived already, for at most LIVE_DRAIN_MS after the signal. */
static void read_link(struct live *lv, uint8_t *buf, size_t cap, unsigned max_reads, uint64_t max_bytes, int draining)
{
	uint64_t got = 0;
	for (unsigned i = 0; i < max_reads && lv->up && !lv->stop && got < max_bytes; i++) {
		if (draining ? sonde_stop_age_ms() >= LIVE_DRAIN_MS : sonde_stop_signal() != 0)
			break;
		ssize_t r = sonde_link_read(&lv->link, buf, cap);
		if (r == 0)
			break;
		if (r < 0) {
			live_link_down(lv, live_now_ms());
			break;
		}
		got += (uint64_t)r;
		got_bytes(lv, buf, (size_t)r);
	}
}

static int64_t min_timeout(int64_t a, int64_t b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

int live_loop(struct live *lv)
{
	uint8_t *buf = malloc(SONDE_PIPE_CHUNK);
	if (!buf) {
		fprintf(stderr, "sonde live: out of memory\n");
		return SONDE_EXIT_IO;
	}
	int64_t now = live_now_ms();
	lv->t_start = now;
	lv->t_end = lv->o.duration > 0 ? now + (int64_t)(lv->o.duration * 1000) : -1;
	lv->status_t = now;
	lv->budget_t = now;
	live_link_start(lv, now);
	live_status_tick(lv, now);

	while (!lv->stop && !sonde_stop_signal()) {
		now = live_now_ms();
		if (!lv->up && now >= lv->next_try) {
			live_try_connect(lv, now);
			if (lv->stop)
				break;
		}
		struct pollfd pf[2 + 1 + LIVE_CTL_CLIENTS];
		int n = 0, link_i = -1, key_i = -1;
		int lfd = sonde_link_poll_fd(&lv->link);
		if (lfd >= 0) {
			link_i = n;
			pf[n++] = (struct pollfd){ lfd, POLLIN, 0 };
		}
		if (lv->tty_raw && !lv->keys_eof) {
			key_i = n;
			pf[n++] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
		}
		int ctl_i = n;
		n += live_ctl_pollfds(lv, pf + n, (int)(sizeof(pf) / sizeof(pf[0])) - n);

		int64_t timeout = LIVE_TICK_MS - (now - lv->status_t);
		if (timeout < 0)
			timeout = 0;
		if (!lv->up)
			timeout = min_timeout(timeout, lv->next_try - now);
		if (lv->up && lfd < 0) /* a followed file, a serial port */
			timeout = min_timeout(timeout, sonde_link_poll_ms(&lv->link));
		if (lv->t_end >= 0)
			timeout = min_timeout(timeout, lv->t_end - now);
		if (!lv->began && lv->nprobe)
			timeout = min_timeout(timeout, lv->probe_t0 + LIVE_PROBE_WAIT_MS - now);
		if (timeout < 0)
			timeout = 0;
		/* a signal between the check above and this wait is seen at the
		 * stop's first timer tick (core/stop.h), or at the timeout */
		int r = poll(pf, (nfds_t)n, (int)timeout);
		if (r < 0 && errno != EINTR) {
			live_msg(lv, "sonde live: poll: %s", strerror(errno));
			lv->exit_io = 1;
			break;
		}
		if (sonde_stop_signal())
			break;
		now = live_now_ms();
		if (link_i >= 0 && r > 0 && pf[link_i].revents) {
			if (!lv->up) /* a client knocks on a tcp-listen link */
				live_try_connect(lv, now);
			else
				read_link(lv, buf, SONDE_PIPE_CHUNK, LIVE_READS_PER_WAKE, UINT64_MAX, 0);
		} else if (lv->up && lfd < 0) {
			read_link(lv, buf, SONDE_PIPE_CHUNK, LIVE_READS_PER_WAKE, UINT64_MAX, 0);
		}
		if (key_i >= 0 && r > 0 && pf[key_i].revents)
			live_keys_read(lv);
		if (r > 0)
			live_ctl_handle(lv, pf + ctl_i, n - ctl_i);
		if (!lv->began && lv->nprobe)
			try_begin(lv, 0);
		now = live_now_ms();
		if (now - lv->status_t >= LIVE_TICK_MS) {
			live_cmd_tick(lv, now);
			live_budget_tick(lv, now, 0);
			live_status_tick(lv, now);
		}
		live_serve_state(lv, now);
		if (lv->t_end >= 0 && now >= lv->t_end) {
			lv->user_stop = 1;
			break;
		}
	}
	if (sonde_stop_signal())
		lv->user_stop = 1;
	/* What has arrived already is part of the capture: a stop (key, signal,
	 * duration) loses nothing that the link had delivered -- up to 1 MiB
	 * and LIVE_DRAIN_MS after a signal, so that the stop stays quick. */
	if (lv->up && !lv->exit_io) {
		lv->stop = 0;
		read_link(lv, buf, SONDE_PIPE_CHUNK, 64, LIVE_DRAIN_MAX, 1);
	}
	if (sonde_stop_signal() && !lv->quiet)
		live_msg(lv, "sonde live: %s: stopping", strsignal(sonde_stop_signal()));
	/* a link that never came up decoded nothing: no figures of nothing */
	if (!lv->began && lv->ever_up)
		try_begin(lv, 1);
	if (!lv->ever_up)
		live_link_never_up(lv);
	free(buf);
	live_status_erase(lv);
	if (lv->began < 0)
		return SONDE_EXIT_USAGE;
	return 0;
}
