/*
 * mp_link.c -- the device's link for `sonde miniprof` (mp_link.h): a
 * serial port through link_serial, or a live link through link.h, behind
 * one read-with-timeout / write interface.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mp_link.h"
#include "sources/link.h"

struct mp_link {
	struct link_serial *serial; /* or */
	struct sonde_link live;
	char why[SONDE_LINK_NAME_MAX + 300];
};

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int mp_link_is_live(const char *text)
{
	return strstr(text, "://") != NULL || strncmp(text, "unix:", 5) == 0;
}

struct mp_link *mp_link_open_serial(const struct link_serial_cfg *cfg, char *err, size_t errlen)
{
	struct mp_link *l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->live.fd = -1;
	l->serial = link_serial_open(cfg, err, errlen);
	if (!l->serial) {
		free(l);
		return NULL;
	}
	if (link_serial_flush_input(l->serial) != 0) {
		snprintf(err, errlen, "%s", link_serial_error(l->serial));
		mp_link_close(l);
		return NULL;
	}
	return l;
}

struct mp_link *mp_link_open_live(const char *text, unsigned timeout_ms, char *err, size_t errlen)
{
	struct sonde_link_spec spec;
	char why[512];
	if (sonde_link_parse(text, &spec, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s", why);
		return NULL;
	}
	if (spec.kind == SONDE_LINK_FILE || spec.kind == SONDE_LINK_STDIN) {
		snprintf(err, errlen, "%s only reads: commands cannot be sent on it", text);
		return NULL;
	}
	struct mp_link *l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sonde_link_open(&l->live, &spec) != 0) {
		snprintf(err, errlen, "%s: %s", l->live.name, l->live.why);
		mp_link_close(l);
		return NULL;
	}
	/* Connect (a server may come up a moment later), within the timeout. */
	int64_t deadline = now_ms() + timeout_ms;
	while (sonde_link_connect(&l->live) != 0) {
		if (now_ms() >= deadline) {
			snprintf(err, errlen, "%s: %s", l->live.name, l->live.why);
			mp_link_close(l);
			return NULL;
		}
		usleep(50 * 1000);
	}
	/* What the device sent before we listened belongs to nobody's command. */
	uint8_t junk[4096];
	ssize_t k;
	while ((k = mp_link_read(l, junk, sizeof(junk), 0)) > 0)
		;
	if (k < 0) {
		snprintf(err, errlen, "%s", l->why);
		mp_link_close(l);
		return NULL;
	}
	return l;
}

ssize_t mp_link_read(struct mp_link *l, void *buf, size_t n, unsigned timeout_ms)
{
	if (l->serial) {
		ssize_t r = link_serial_read(l->serial, buf, n, timeout_ms);
		if (r < 0)
			snprintf(l->why, sizeof(l->why), "%s", link_serial_error(l->serial));
		return r;
	}
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		ssize_t r = sonde_link_read(&l->live, buf, n);
		if (r < 0 || (r == 0 && l->live.fd < 0)) {
			snprintf(l->why, sizeof(l->why), "%s: %s", l->live.name, l->live.why);
			return -1;
		}
		int64_t left = deadline - now_ms();
		if (r > 0 || left <= 0)
			return r;
		/* wait for input, or poll a link that has no descriptor to wait on */
		int fd = sonde_link_poll_fd(&l->live), every = sonde_link_poll_ms(&l->live);
		int wait = (int)left;
		if (fd < 0 && every >= 0 && every < wait)
			wait = every;
		if (fd >= 0) {
			struct pollfd pf = { fd, POLLIN, 0 };
			if (poll(&pf, 1, wait) < 0 && errno != EINTR) {
				snprintf(l->why, sizeof(l->why), "poll: %s", strerror(errno));
				return -1;
			}
		} else if (wait > 0) {
			usleep((useconds_t)wait * 1000u);
		}
	}
}

int mp_link_write(struct mp_link *l, const void *buf, size_t n, unsigned timeout_ms)
{
	if (l->serial) {
		if (link_serial_write(l->serial, buf, n, timeout_ms) == 0)
			return 0;
		snprintf(l->why, sizeof(l->why), "%s", link_serial_error(l->serial));
		return -1;
	}
	if (sonde_link_write(&l->live, buf, n) == 0)
		return 0;
	snprintf(l->why, sizeof(l->why), "%s: %s", l->live.name, l->live.why);
	return -1;
}

const char *mp_link_error(const struct mp_link *l)
{
	return l->why;
}

const char *mp_link_name(const struct mp_link *l)
{
	return l->serial ? link_serial_path(l->serial) : l->live.name;
}

void mp_link_close(struct mp_link *l)
{
	if (!l)
		return;
	if (l->serial)
		link_serial_close(l->serial);
	else
		sonde_link_close(&l->live);
	free(l);
}
