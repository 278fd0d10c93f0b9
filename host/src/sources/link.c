/*
 * link.c -- the generic half of live links (link.h): naming, up/down
 * state and the dispatch to the kinds (link_net.c, link_file.c,
 * link_tty.c, link_gdb.c), which use the helpers of link_util.c only, so
 * the calls go one way: link.c -> a kind -> link_util.c.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "link_gdb.h"
#include "link_impl.h"

static void make_name(struct sonde_link *l)
{
	const struct sonde_link_spec *s = &l->spec;
	const char *h = s->host[0] ? s->host : "127.0.0.1";
	int v6 = strchr(h, ':') != NULL;
	switch (s->kind) {
	case SONDE_LINK_SERIAL:
		snprintf(l->name, sizeof(l->name), "%s", s->path);
		break;
	case SONDE_LINK_TCP:
		snprintf(l->name, sizeof(l->name), v6 ? "tcp://[%s]:%s" : "tcp://%s:%s", s->host, s->port);
		break;
	case SONDE_LINK_TCP_LISTEN:
		snprintf(l->name, sizeof(l->name), v6 ? "tcp-listen://[%s]:%s" : "tcp-listen://%s:%s", h, s->port);
		break;
	case SONDE_LINK_UDP:
		snprintf(l->name, sizeof(l->name), v6 ? "udp://[%s]:%s" : "udp://%s:%s", h, s->port);
		break;
	case SONDE_LINK_UNIX:
		snprintf(l->name, sizeof(l->name), "unix:%s", s->path);
		break;
	case SONDE_LINK_FILE:
		snprintf(l->name, sizeof(l->name), "%s", s->path);
		break;
	case SONDE_LINK_STDIN:
		snprintf(l->name, sizeof(l->name), "<stdin>");
		break;
	case SONDE_LINK_GDB:
		snprintf(l->name, sizeof(l->name), v6 ? "gdb://[%s]:%s" : "gdb://%s:%s", s->host, s->port);
		break;
	}
}

int sonde_link_open(struct sonde_link *l, const struct sonde_link_spec *spec)
{
	sonde_link_log_fn log = l->log;
	void *log_ctx = l->log_ctx;
	memset(l, 0, sizeof(*l));
	l->log = log;
	l->log_ctx = log_ctx;
	l->spec = *spec;
	l->fd = -1;
	l->listen_fd = -1;
	make_name(l);
	switch (spec->kind) {
	case SONDE_LINK_TCP_LISTEN:
	case SONDE_LINK_UDP:
		return link_net_open(l);
	case SONDE_LINK_FILE:
	case SONDE_LINK_STDIN:
		return link_file_open(l);
	case SONDE_LINK_TCP:
	case SONDE_LINK_UNIX:
	case SONDE_LINK_SERIAL:
	case SONDE_LINK_GDB:
		return 0; /* down until sonde_link_connect */
	}
	return link_fail(l, "unknown kind of link");
}

int sonde_link_connect(struct sonde_link *l)
{
	if (l->fd >= 0)
		return 0;
	switch (l->spec.kind) {
	case SONDE_LINK_TCP:
	case SONDE_LINK_TCP_LISTEN:
	case SONDE_LINK_UNIX:
	case SONDE_LINK_UDP:
		return link_net_connect(l);
	case SONDE_LINK_SERIAL:
		return link_tty_connect(l);
	case SONDE_LINK_GDB:
		return link_gdb_connect(l);
	case SONDE_LINK_FILE:
	case SONDE_LINK_STDIN:
		break;
	}
	return link_fail(l, "%s", l->ended ? "end of input" : "cannot be reopened");
}

int sonde_link_reconnects(const struct sonde_link *l)
{
	switch (l->spec.kind) {
	case SONDE_LINK_TCP:
	case SONDE_LINK_TCP_LISTEN:
	case SONDE_LINK_UNIX:
	case SONDE_LINK_SERIAL:
	case SONDE_LINK_GDB:
		return 1;
	default:
		return 0;
	}
}

int sonde_link_poll_ms(const struct sonde_link *l)
{
	if (l->fd < 0)
		return -1;
	if (l->spec.kind == SONDE_LINK_FILE && l->spec.follow)
		return 100;
	if (l->spec.kind == SONDE_LINK_SERIAL && l->no_poll)
		return 10;
	if (l->spec.kind == SONDE_LINK_GDB) /* memory is polled: nothing to wait on */
		return link_gdb_poll_ms(l);
	return -1;
}

int sonde_link_poll_fd(const struct sonde_link *l)
{
	if (l->fd >= 0)
		return sonde_link_poll_ms(l) >= 0 ? -1 : l->fd;
	if (l->spec.kind == SONDE_LINK_TCP_LISTEN)
		return l->listen_fd;
	return -1;
}

ssize_t sonde_link_read(struct sonde_link *l, void *buf, size_t n)
{
	if (l->fd < 0)
		return 0;
	switch (l->spec.kind) {
	case SONDE_LINK_SERIAL:
		return link_tty_read(l, buf, n);
	case SONDE_LINK_FILE:
	case SONDE_LINK_STDIN:
		return link_file_read(l, buf, n);
	case SONDE_LINK_GDB:
		return link_gdb_read(l, buf, n);
	default:
		return link_net_read(l, buf, n);
	}
}

int sonde_link_writable(const struct sonde_link *l)
{
	return l->spec.kind != SONDE_LINK_FILE && l->spec.kind != SONDE_LINK_STDIN;
}

int sonde_link_write(struct sonde_link *l, const void *buf, size_t n)
{
	if (!sonde_link_writable(l))
		return link_fail(l, "commands cannot be sent on %s (it only reads)", l->name);
	if (l->fd < 0)
		return link_fail(l, "the link is down");
	if (l->spec.kind == SONDE_LINK_SERIAL)
		return link_tty_write(l, buf, n);
	if (l->spec.kind == SONDE_LINK_GDB)
		return link_gdb_write(l, buf, n);
	return link_net_write(l, buf, n);
}

int sonde_link_capacity(const struct sonde_link *l, int whole, double *bytes_per_s, char *what, size_t wl)
{
	if (l->spec.kind == SONDE_LINK_GDB)
		return link_gdb_capacity(l, whole, bytes_per_s, what, wl);
	return 0;
}

void sonde_link_drop(struct sonde_link *l)
{
	if (l->spec.kind == SONDE_LINK_SERIAL) {
		link_tty_drop(l);
		return;
	}
	if (l->spec.kind == SONDE_LINK_GDB) {
		link_gdb_drop(l);
		return;
	}
	link_fd_drop(l);
}


void sonde_link_close(struct sonde_link *l)
{
	sonde_link_drop(l);
	link_gdb_free(l);
	if (l->listen_fd >= 0)
		close(l->listen_fd);
	l->listen_fd = -1;
}
