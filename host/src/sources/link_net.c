/*
 * link_net.c -- socket links: TCP client, TCP server (one client at a
 * time), UDP receiver (commands go back to the last sender) and Unix stream
 * socket client.  All descriptors are non-blocking; a connect waits at most
 * LINK_CONNECT_MS so that the caller's loop stays responsive.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/stop.h"
#include "link_impl.h"

#define LINK_CONNECT_MS 1000
#define LINK_WRITE_MS 1000

static const char *server_host(const struct sonde_link *l)
{
	return l->spec.host[0] ? l->spec.host : "127.0.0.1";
}

static int resolve(struct sonde_link *l, const char *host, int socktype, int passive, struct addrinfo **res)
{
	struct addrinfo hints;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	int e = getaddrinfo(host, l->spec.port, &hints, res);
	if (e != 0)
		return link_fail(l, "cannot resolve '%s': %s", host, gai_strerror(e));
	return 0;
}

/* Bind the local address of a tcp-listen or udp link. */
static int bind_local(struct sonde_link *l, int socktype)
{
	struct addrinfo *res;
	if (resolve(l, server_host(l), socktype, 1, &res) != 0)
		return -1;
	int fd = -1, err = 0;
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && (socktype != SOCK_STREAM || listen(fd, 1) == 0))
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return link_fail(l, "cannot listen on %s:%s: %s", server_host(l), l->spec.port, strerror(err));
	return fd;
}

int link_net_open(struct sonde_link *l)
{
	if (l->spec.kind == SONDE_LINK_TCP_LISTEN) {
		l->listen_fd = bind_local(l, SOCK_STREAM);
		return l->listen_fd < 0 ? -1 : 0;
	}
	l->fd = bind_local(l, SOCK_DGRAM); /* udp */
	return l->fd < 0 ? -1 : 0;
}

/* Non-blocking connect, waiting at most LINK_CONNECT_MS. */
static int connect_addr(struct sonde_link *l, int family, int type, int proto, const struct sockaddr *sa,
			socklen_t len)
{
	int fd = socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return -1;
	if (connect(fd, sa, len) != 0) {
		if (errno != EINPROGRESS) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		struct pollfd pf = { fd, POLLOUT, 0 };
		int r;
		do
			r = poll(&pf, 1, LINK_CONNECT_MS);
		while (r < 0 && errno == EINTR && !sonde_stop_signal());
		int err = 0;
		socklen_t el = sizeof(err);
		if (r <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0 || err) {
			close(fd);
			errno = r == 0 ? ETIMEDOUT : err ? err : EIO;
			return -1;
		}
	}
	if (family != AF_UNIX) {
		int one = 1; /* commands are small: send them at once */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	(void)l;
	return fd;
}

static int connect_tcp(struct sonde_link *l)
{
	struct addrinfo *res;
	if (resolve(l, l->spec.host, SOCK_STREAM, 0, &res) != 0)
		return -1;
	int fd = -1, err = 0;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = connect_addr(l, a->ai_family, a->ai_socktype, a->ai_protocol, a->ai_addr, a->ai_addrlen);
		if (fd < 0)
			err = errno;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return link_fail(l, "cannot connect to %s:%s: %s%s", l->spec.host, l->spec.port, strerror(err),
				 err == ECONNREFUSED ? " (nothing listens on that port)"
				 : err == ETIMEDOUT ? " (no answer within 1 s)" : "");
	l->fd = fd;
	return 0;
}

static int connect_unix(struct sonde_link *l)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(l->spec.path) >= sizeof(sa.sun_path))
		return link_fail(l, "socket path too long: %s", l->spec.path);
	strcpy(sa.sun_path, l->spec.path);
	int fd = connect_addr(l, AF_UNIX, SOCK_STREAM, 0, (struct sockaddr *)&sa, sizeof(sa));
	if (fd < 0)
		return link_fail(l, "cannot connect to %s: %s", l->spec.path, strerror(errno));
	l->fd = fd;
	return 0;
}

static void peer_text(const struct sockaddr *sa, socklen_t len, char *out, size_t cap)
{
	char h[NI_MAXHOST], s[NI_MAXSERV];
	if (getnameinfo(sa, len, h, sizeof(h), s, sizeof(s), NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		snprintf(out, cap, "%s:%s", h, s);
	else
		snprintf(out, cap, "?");
}

static int accept_client(struct sonde_link *l)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(l->listen_fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return link_fail(l, "waiting for a client on %s", l->name);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	char who[NI_MAXHOST + NI_MAXSERV + 2];
	peer_text((struct sockaddr *)&ss, len, who, sizeof(who));
	link_note(l, "client %s connected", who);
	l->fd = fd;
	return 0;
}

int link_net_connect(struct sonde_link *l)
{
	switch (l->spec.kind) {
	case SONDE_LINK_TCP:
	case SONDE_LINK_GDB: /* the GDB server's socket (link_gdb.c) */
		return connect_tcp(l);
	case SONDE_LINK_UNIX:
		return connect_unix(l);
	case SONDE_LINK_TCP_LISTEN:
		return accept_client(l);
	default: /* udp: bind again */
		return link_net_open(l);
	}
}

ssize_t link_net_read(struct sonde_link *l, void *buf, size_t n)
{
	ssize_t r;
	if (l->spec.kind == SONDE_LINK_UDP) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		do
			r = recvfrom(l->fd, buf, n, 0, (struct sockaddr *)&ss, &len);
		while (r < 0 && errno == EINTR);
		if (r > 0) {
			if (l->peer_len == 0 || len != l->peer_len || memcmp(&ss, &l->peer, len) != 0) {
				char who[NI_MAXHOST + NI_MAXSERV + 2];
				peer_text((struct sockaddr *)&ss, len, who, sizeof(who));
				link_note(l, "datagrams from %s", who);
			}
			memcpy(&l->peer, &ss, len);
			l->peer_len = len;
		}
		if (r >= 0)
			return r; /* an empty datagram is nothing */
	} else {
		do
			r = read(l->fd, buf, n);
		while (r < 0 && errno == EINTR);
		if (r > 0)
			return r;
		if (r == 0) {
			link_fail(l, "connection closed by the peer");
			link_fd_drop(l);
			return -1;
		}
	}
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return 0;
	link_fail(l, "read error: %s", strerror(errno));
	link_fd_drop(l);
	return -1;
}

int link_net_write(struct sonde_link *l, const void *buf, size_t n)
{
	if (l->spec.kind == SONDE_LINK_UDP) {
		if (!l->peer_len)
			return link_fail(l, "no datagram has arrived yet, so the target's address is not known");
		ssize_t w = sendto(l->fd, buf, n, 0, (struct sockaddr *)&l->peer, l->peer_len);
		if (w != (ssize_t)n)
			return link_fail(l, "send error: %s", w < 0 ? strerror(errno) : "short datagram");
		return 0;
	}
	if (link_write_fd(l, l->fd, buf, n, LINK_WRITE_MS) != 0) {
		link_fd_drop(l);
		return -1;
	}
	return 0;
}
