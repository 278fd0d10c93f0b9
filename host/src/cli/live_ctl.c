/*
 * live_ctl.c -- `sonde live --control PATH`: a Unix socket through which
 * other programs share the live link.  A serial port or QEMU's TCP serial
 * backend takes one reader at a time, so `sonde send --link unix:PATH`
 * reaches the target through the running session: every byte the link
 * delivers is copied to each client (a client too slow to take it loses
 * bytes, the session never waits for it), and every complete frame a
 * client writes (up to its 0x7E flag) goes to the link in one piece, so
 * frames from the keys and from clients never interleave.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "live.h"
#include "sonde_proto.h"

int live_ctl_open(struct live *lv)
{
	for (int i = 0; i < LIVE_CTL_CLIENTS; i++)
		lv->ctl[i].fd = -1;
	lv->ctl_fd = -1;
	if (!lv->o.ctl_path)
		return 0;
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(lv->o.ctl_path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "sonde live: --control path too long: %s\n", lv->o.ctl_path);
		return -1;
	}
	strcpy(sa.sun_path, lv->o.ctl_path);
	struct stat st;
	if (lstat(lv->o.ctl_path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(lv->o.ctl_path); /* a stale socket of an earlier session */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fd, LIVE_CTL_CLIENTS) != 0) {
		fprintf(stderr, "sonde live: cannot listen on %s: %s\n", lv->o.ctl_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	lv->ctl_fd = fd;
	return 0;
}

int live_ctl_pollfds(struct live *lv, struct pollfd *pf, int max)
{
	int n = 0;
	if (lv->ctl_fd < 0 || max < 1 + LIVE_CTL_CLIENTS)
		return 0;
	pf[n++] = (struct pollfd){ lv->ctl_fd, POLLIN, 0 };
	for (int i = 0; i < LIVE_CTL_CLIENTS; i++)
		pf[n++] = (struct pollfd){ lv->ctl[i].fd, POLLIN, 0 }; /* fd -1 is ignored by poll */
	return n;
}

static void drop_client(struct live_ctl_client *c)
{
	close(c->fd);
	c->fd = -1;
	c->n = 0;
}

static void client_input(struct live *lv, struct live_ctl_client *c)
{
	uint8_t buf[512];
	ssize_t r = recv(c->fd, buf, sizeof(buf), 0);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		drop_client(c);
		return;
	}
	for (ssize_t i = 0; i < r; i++) {
		if (c->n == sizeof(c->in)) { /* not a command frame: throw it away up to its flag */
			if (buf[i] == SONDE_FLAG)
				c->n = 0;
			continue;
		}
		c->in[c->n++] = buf[i];
		if (buf[i] != SONDE_FLAG)
			continue;
		if (!lv->up)
			live_msg(lv, "sonde live: %s is down; a command from a --control client was dropped", lv->link.name);
		else if (sonde_link_write(&lv->link, c->in, c->n) != 0)
			live_msg(lv, "sonde live: %s: %s", lv->link.name, lv->link.why);
		c->n = 0;
	}
}

void live_ctl_handle(struct live *lv, const struct pollfd *pf, int n)
{
	if (lv->ctl_fd < 0 || n < 1)
		return;
	if (pf[0].revents & POLLIN) {
		int fd = accept4(lv->ctl_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		int slot = -1;
		for (int i = 0; fd >= 0 && i < LIVE_CTL_CLIENTS; i++)
			if (lv->ctl[i].fd < 0 && slot < 0)
				slot = i;
		if (fd >= 0 && slot < 0)
			close(fd); /* full */
		else if (fd >= 0) {
			memset(&lv->ctl[slot], 0, sizeof(lv->ctl[slot]));
			lv->ctl[slot].fd = fd;
		}
	}
	for (int i = 0; i < LIVE_CTL_CLIENTS && 1 + i < n; i++) {
		struct live_ctl_client *c = &lv->ctl[i];
		if (c->fd >= 0 && pf[1 + i].fd == c->fd && (pf[1 + i].revents & (POLLIN | POLLHUP | POLLERR)))
			client_input(lv, c);
	}
}

void live_ctl_forward(struct live *lv, const uint8_t *buf, size_t n)
{
	for (int i = 0; i < LIVE_CTL_CLIENTS; i++) {
		struct live_ctl_client *c = &lv->ctl[i];
		if (c->fd < 0)
			continue;
		ssize_t w = send(c->fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			drop_client(c);
			continue;
		}
		c->dropped += n - (size_t)(w < 0 ? 0 : w);
	}
}

void live_ctl_close(struct live *lv)
{
	for (int i = 0; i < LIVE_CTL_CLIENTS; i++)
		if (lv->ctl[i].fd >= 0)
			drop_client(&lv->ctl[i]);
	if (lv->ctl_fd >= 0) {
		close(lv->ctl_fd);
		unlink(lv->o.ctl_path);
		lv->ctl_fd = -1;
	}
}
