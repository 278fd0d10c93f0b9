/*
 * gdb_rsp.c -- GDB remote serial protocol, client side (gdb_rsp.h).
 *
 * The protocol's facts used here (GDB manual, "Remote Protocol"): a packet
 * is $data#cs with cs the sum of the data bytes mod 256 in two hex digits;
 * '$', '#', '}' and '*' in data are sent as '}' and the byte XOR 0x20; a
 * reply may repeat the previous character with '*' and a count character
 * (count - 29 more copies); each packet is acknowledged with '+' (or '-',
 * send again) until both sides agree on QStartNoAckMode; the byte 0x03
 * interrupts a running target, which then sends a stop reply (T or S, W or
 * X when it exited); 'm addr,len' reads memory as hex, 'M addr,len:hex'
 * writes it ("OK" or "Enn").
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gdb_rsp.h"
#include "link_impl.h"

static int hexval(int c)
{
	if (!isxdigit(c))
		return -1;
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

size_t gdb_rsp_frame(const char *payload, size_t n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	size_t k = 0;
	unsigned sum = 0;
	out[k++] = '$';
	for (size_t i = 0; i < n; i++) {
		char c = payload[i];
		if (c == '$' || c == '#' || c == '}' || c == '*') {
			out[k++] = '}';
			sum += '}';
			c ^= 0x20;
		}
		out[k++] = c;
		sum += (unsigned char)c;
	}
	out[k++] = '#';
	out[k++] = hx[(sum >> 4) & 15];
	out[k++] = hx[sum & 15];
	return k;
}

int gdb_rsp_take(const uint8_t *in, size_t n, size_t *used, char *out, size_t cap, size_t *len, unsigned *nacks)
{
	size_t s = 0;
	while (s < n && in[s] != '$') {
		if (in[s] == '-' && nacks)
			(*nacks)++;
		s++;
	}
	*used = s;
	if (s == n)
		return 0;
	size_t e = s + 1;
	while (e < n && in[e] != '#')
		e++;
	if (e + 2 >= n)
		return 0; /* the checksum has not arrived */
	*used = e + 3;
	unsigned sum = 0;
	for (size_t i = s + 1; i < e; i++)
		sum += in[i];
	int h = hexval(in[e + 1]), l = hexval(in[e + 2]);
	if (h < 0 || l < 0 || (unsigned)(h << 4 | l) != (sum & 0xFF))
		return -1;
	size_t k = 0;
	for (size_t i = s + 1; i < e; i++) {
		uint8_t c = in[i];
		if (c == '}' && i + 1 < e) {
			c = in[++i] ^ 0x20;
		} else if (c == '*' && i + 1 < e && k > 0) {
			int more = (int)in[++i] - 29;
			if (more < 0 || k + (size_t)more > cap)
				return -1;
			memset(out + k, out[k - 1], (size_t)more);
			k += (size_t)more;
			continue;
		}
		if (k >= cap)
			return -1;
		out[k++] = (char)c;
	}
	*len = k;
	return 1;
}

void gdb_rsp_hex(const uint8_t *p, size_t n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hx[p[i] >> 4];
		out[2 * i + 1] = hx[p[i] & 15];
	}
}

int gdb_rsp_unhex(const char *s, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int h = hexval(s[2 * i]), l = hexval(s[2 * i + 1]);
		if (h < 0 || l < 0)
			return -1;
		out[i] = (uint8_t)(h << 4 | l);
	}
	return 0;
}

int gdb_rsp_stop_kind(const char *p, size_t n)
{
	if (n == 0)
		return 0;
	if ((p[0] == 'T' || p[0] == 'S' || p[0] == 'W' || p[0] == 'X') && n >= 3 && hexval(p[1]) >= 0 &&
	    hexval(p[2]) >= 0)
		return p[0];
	if (p[0] == 'O' && n >= 3 && n % 2 == 1 && strcmp(p, "OK") != 0) /* console output: O then hex */
		return 'O';
	return 0;
}

/* ---- I/O -------------------------------------------------------------- */

static int fail(struct gdb_rsp *g, const char *fmt, const char *arg)
{
	snprintf(g->why, sizeof(g->why), fmt, arg);
	return -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* All n bytes, within the timeout (the links' own writer). */
static int send_all(struct gdb_rsp *g, const void *buf, size_t n)
{
	if (link_write_fd(g->link, g->fd, buf, n, GDB_RSP_TIMEOUT_MS) == 0)
		return 0;
	snprintf(g->why, sizeof(g->why), "%s", g->link->why);
	return -1;
}

static int send_packet(struct gdb_rsp *g, const char *payload, size_t n)
{
	if (n > GDB_RSP_MAX)
		return fail(g, "%s", "packet too long");
	g->nlast = gdb_rsp_frame(payload, n, g->last);
	return send_all(g, g->last, g->nlast);
}

/* More bytes from the stub, waiting up to timeout_ms (0: only what is
 * there).  1 got some, 0 none in time, -1 closed or error. */
static int fill(struct gdb_rsp *g, int timeout_ms)
{
	if (g->nin == sizeof(g->in))
		return fail(g, "%s", "a packet from the GDB server is too long");
	struct pollfd pf = { g->fd, POLLIN, 0 };
	int r;
	do
		r = poll(&pf, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return fail(g, "poll: %s", strerror(errno));
	if (r == 0)
		return 0;
	ssize_t k;
	do
		k = recv(g->fd, g->in + g->nin, sizeof(g->in) - g->nin, 0);
	while (k < 0 && errno == EINTR);
	if (k == 0)
		return fail(g, "%s", "the GDB server closed the connection");
	if (k < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		return fail(g, "read error: %s", strerror(errno));
	}
	g->nin += (size_t)k;
	return 1;
}

/* The next packet, waiting up to timeout_ms: 1 with out[*len], 0 none in
 * time, -1 error.  Acknowledges it; a '-' from the stub sends the last
 * packet again. */
static int next_packet(struct gdb_rsp *g, char *out, size_t cap, size_t *len, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		size_t used = 0;
		unsigned nacks = 0;
		int r = gdb_rsp_take(g->in, g->nin, &used, out, cap, len, &nacks);
		memmove(g->in, g->in + used, g->nin - used);
		g->nin -= used;
		if (nacks && g->nlast && send_all(g, g->last, g->nlast) != 0)
			return -1;
		if (r != 0 && g->ack && send_all(g, r > 0 ? "+" : "-", 1) != 0)
			return -1;
		if (r > 0)
			return 1;
		if (r < 0 && !g->ack)
			return fail(g, "%s", "a packet from the GDB server has a bad checksum");
		if (r < 0)
			continue;
		int64_t left = deadline - now_ms();
		if (timeout_ms > 0 && left <= 0)
			return 0;
		int f = fill(g, timeout_ms > 0 ? (int)left : 0);
		if (f <= 0)
			return f;
	}
}

/* Note what a stop reply says about the target. */
static void note_stop(struct gdb_rsp *g, int kind)
{
	if (kind == 'T' || kind == 'S')
		g->running = 0;
	if (kind == 'W' || kind == 'X') {
		g->running = 0;
		g->exited = 1;
	}
}

ssize_t gdb_rsp_command(struct gdb_rsp *g, const char *payload, char *out, size_t cap)
{
	if (send_packet(g, payload, strlen(payload)) != 0)
		return -1;
	g->round_trips++;
	for (;;) {
		size_t len = 0;
		int r = next_packet(g, out, cap - 1, &len, GDB_RSP_TIMEOUT_MS);
		if (r < 0)
			return -1;
		if (r == 0)
			return fail(g, "no answer from the GDB server to '%s'", payload);
		out[len] = '\0';
		int kind = gdb_rsp_stop_kind(out, len);
		/* '?' is answered with a stop reply; for any other command a stop
		 * reply is the stub's own news (QEMU sends one when a client
		 * attaches) or console output. */
		if (kind && payload[0] != '?') {
			note_stop(g, kind);
			if (g->exited)
				return fail(g, "%s", "the target exited");
			continue;
		}
		return (ssize_t)len;
	}
}

int gdb_rsp_start(struct gdb_rsp *g, struct sonde_link *l)
{
	char r[512];
	memset(g, 0, sizeof(*g));
	g->link = l;
	g->fd = l->fd;
	g->ack = 1;
	g->max_read = 256;
	g->max_write = 128;
	if (send_all(g, "+", 1) != 0) /* in case the stub waits for one */
		return -1;
	ssize_t n = gdb_rsp_command(g, "qSupported:swbreak+;hwbreak+", r, sizeof(r));
	if (n < 0)
		return -1;
	const char *ps = strstr(r, "PacketSize=");
	if (ps) {
		unsigned long v = strtoul(ps + 11, NULL, 16);
		if (v > GDB_RSP_MAX)
			v = GDB_RSP_MAX;
		if (v >= 64) {
			g->max_read = (v - 8) / 2;
			g->max_write = (v - 32) / 2;
		}
	}
	if (strstr(r, "QStartNoAckMode+")) {
		n = gdb_rsp_command(g, "QStartNoAckMode", r, sizeof(r));
		if (n < 0)
			return -1;
		if (strcmp(r, "OK") == 0)
			g->ack = 0;
	}
	n = gdb_rsp_command(g, "?", r, sizeof(r));
	if (n < 0)
		return -1;
	int kind = gdb_rsp_stop_kind(r, (size_t)n);
	if (!kind || kind == 'O') {
		snprintf(g->why, sizeof(g->why), "unexpected answer to '?' from the GDB server: '%.60s'", r);
		return -1;
	}
	note_stop(g, kind);
	if (g->exited)
		return fail(g, "%s", "the target has exited");
	return 0;
}

int gdb_rsp_halt(struct gdb_rsp *g)
{
	char r[512];
	size_t len;
	if (!g->running)
		return 0;
	/* The target may have stopped on its own (and said so) meanwhile. */
	for (;;) {
		int got = next_packet(g, r, sizeof(r) - 1, &len, 0);
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		note_stop(g, gdb_rsp_stop_kind(r, len));
		if (g->exited)
			return fail(g, "%s", "the target exited");
		if (!g->running)
			return 0;
	}
	if (send_all(g, "\x03", 1) != 0)
		return -1;
	g->round_trips++;
	int64_t deadline = now_ms() + GDB_RSP_TIMEOUT_MS;
	while (g->running) {
		int64_t left = deadline - now_ms();
		int got = left > 0 ? next_packet(g, r, sizeof(r) - 1, &len, (int)left) : 0;
		if (got < 0)
			return -1;
		if (got == 0)
			return fail(g, "%s", "the target does not stop (no stop reply to the interrupt)");
		r[len] = '\0';
		note_stop(g, gdb_rsp_stop_kind(r, len));
		if (g->exited)
			return fail(g, "%s", "the target exited");
	}
	return 0;
}

int gdb_rsp_resume(struct gdb_rsp *g)
{
	if (g->running)
		return 0;
	if (send_packet(g, "c", 1) != 0)
		return -1;
	g->running = 1;
	return 0;
}

int gdb_rsp_read(struct gdb_rsp *g, uint64_t addr, uint8_t *out, size_t n)
{
	char *r = g->reply;
	while (n) {
		size_t k = n < g->max_read ? n : g->max_read;
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "m%llx,%zx", (unsigned long long)addr, k);
		ssize_t got = gdb_rsp_command(g, cmd, r, sizeof(g->reply));
		if (got < 0)
			return -1;
		if (got == (ssize_t)(2 * k) && gdb_rsp_unhex(r, k, out) == 0) {
			addr += k;
			out += k;
			n -= k;
			continue;
		}
		/* A short reply (some stubs stop at an unreadable byte) or an error. */
		snprintf(g->why, sizeof(g->why), "cannot read %zu bytes at 0x%llx: the GDB server answered '%.40s'", k,
			 (unsigned long long)addr, r);
		return -1;
	}
	return 0;
}

int gdb_rsp_write(struct gdb_rsp *g, uint64_t addr, const uint8_t *p, size_t n)
{
	char *cmd = g->cmd, r[64];
	while (n) {
		size_t k = n < g->max_write ? n : g->max_write;
		int h = snprintf(cmd, 64, "M%llx,%zx:", (unsigned long long)addr, k);
		gdb_rsp_hex(p, k, cmd + h);
		cmd[h + 2 * (int)k] = '\0';
		ssize_t got = gdb_rsp_command(g, cmd, r, sizeof(r));
		if (got < 0)
			return -1;
		if (strcmp(r, "OK") != 0) {
			snprintf(g->why, sizeof(g->why), "cannot write %zu bytes at 0x%llx: the GDB server answered '%.40s'",
				 k, (unsigned long long)addr, r);
			return -1;
		}
		addr += k;
		p += k;
		n -= k;
	}
	return 0;
}
