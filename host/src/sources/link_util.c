/*
 * link_util.c -- what every kind of live link uses (link_impl.h): its
 * messages, its error text, writing to a descriptor with a deadline, and
 * closing its descriptor.  Below the kinds, which are below link.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/stop.h"
#include "link_impl.h"

void link_note(struct sonde_link *l, const char *fmt, ...)
{
	if (!l->log)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->log(l->log_ctx, msg);
}

int link_fail(struct sonde_link *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
	return -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int link_write_fd(struct sonde_link *l, int fd, const void *buf, size_t n, int timeout_ms)
{
	const char *p = buf;
	int64_t deadline = now_ms() + timeout_ms;
	while (n) {
		/* send() on sockets: a peer that went away is an error here, not a
		 * SIGPIPE that ends the tool */
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, p, n);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (sonde_stop_signal())
			return link_fail(l, "write given up: stopping");
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return link_fail(l, "write error: %s", strerror(errno));
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return link_fail(l, "write timed out (the link does not take bytes)");
		struct pollfd pf = { fd, POLLOUT, 0 };
		if (poll(&pf, 1, (int)left) < 0 && errno != EINTR)
			return link_fail(l, "poll: %s", strerror(errno));
	}
	return 0;
}

void link_fd_drop(struct sonde_link *l)
{
	if (l->fd > STDERR_FILENO)
		close(l->fd);
	l->fd = -1;
}
