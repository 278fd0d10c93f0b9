/*
 * link_spec.c -- the text of a live link ("tcp://host:port",
 * "serial:/dev/ttyUSB0:921600:8N1", ...) into a struct sonde_link_spec.
 * Only syntax is checked here, and whether a device path outside /dev/
 * exists (missing_outside_dev); whether the host resolves or the device
 * opens is found out when the link is opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "link.h"
#include "link_gdb.h"

#define LINK_BAUD_MAX 12000000u

static int prefixed(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n) != 0)
		return 0;
	*rest = s + n;
	return 1;
}

static int copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		return -1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

static int parse_port(const char *s, char *port, size_t cap)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *end || v == 0 || v > 65535 || *s == '-' || *s == '+')
		return -1;
	snprintf(port, cap, "%lu", v);
	return 0;
}

/* "[ADDR:]PORT" or "HOST:PORT" (need_host); IPv6 addresses in brackets. */
static int parse_hostport(const char *s, struct sonde_link_spec *sp, int need_host, char *why, size_t wl)
{
	const char *colon;
	const char *host = s;
	size_t hlen;
	if (*s == '[') {
		const char *rb = strchr(s, ']');
		if (!rb || rb[1] != ':') {
			snprintf(why, wl, "expected [ADDRESS]:PORT in '%s'", s);
			return -1;
		}
		host = s + 1;
		hlen = (size_t)(rb - host);
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		hlen = colon ? (size_t)(colon - s) : 0;
	}
	const char *port = colon ? colon + 1 : s;
	if (!colon && need_host) {
		snprintf(why, wl, "expected HOST:PORT, got '%s'", s);
		return -1;
	}
	if ((colon && hlen == 0 && need_host) || copy(sp->host, sizeof(sp->host), host, colon ? hlen : 0) != 0) {
		snprintf(why, wl, "bad host in '%s'", s);
		return -1;
	}
	if (parse_port(port, sp->port, sizeof(sp->port)) != 0) {
		snprintf(why, wl, "bad port '%s' (expected 1..65535)", port);
		return -1;
	}
	return 0;
}

/* "8N1", "7E2", ... */
static int parse_framing(const char *s, struct sonde_link_spec *sp)
{
	if (strlen(s) != 3 || s[0] < '5' || s[0] > '8' || !strchr("NEOneo", s[1]) || (s[2] != '1' && s[2] != '2'))
		return -1;
	sp->data_bits = s[0] - '0';
	sp->parity = (char)(s[1] & ~0x20);
	sp->stop_bits = s[2] - '0';
	return 0;
}

/* "PATH[:BAUD[:FRAMING[:FLOW]]]" */
static int parse_serial(const char *s, struct sonde_link_spec *sp, char *why, size_t wl)
{
	sp->kind = SONDE_LINK_SERIAL;
	const char *c = strchr(s, ':');
	size_t plen = c ? (size_t)(c - s) : strlen(s);
	if (plen == 0 || copy(sp->path, sizeof(sp->path), s, plen) != 0) {
		snprintf(why, wl, "bad serial device in '%s'", s);
		return -1;
	}
	int field = 0;
	while (c) {
		const char *f = c + 1;
		c = strchr(f, ':');
		char tok[32];
		if (copy(tok, sizeof(tok), f, c ? (size_t)(c - f) : strlen(f)) != 0) {
			snprintf(why, wl, "bad serial setting '%s'", f);
			return -1;
		}
		field++;
		if (field == 1) {
			char *end;
			unsigned long b = strtoul(tok, &end, 10);
			if (!*tok || *end || *tok == '-' || b == 0 || b > LINK_BAUD_MAX) {
				snprintf(why, wl, "bad baud rate '%s' (expected 1..%u)", tok, LINK_BAUD_MAX);
				return -1;
			}
			sp->baud = (uint32_t)b;
		} else if (field == 2) {
			if (parse_framing(tok, sp) != 0) {
				snprintf(why, wl, "bad framing '%s' (expected DATA PARITY STOP, e.g. 8N1, 7E2)", tok);
				return -1;
			}
		} else if (field == 3) {
			if (strcmp(tok, "none") == 0)
				sp->flow = SONDE_FLOW_NONE;
			else if (strcmp(tok, "rtscts") == 0)
				sp->flow = SONDE_FLOW_RTSCTS;
			else if (strcmp(tok, "xonxoff") == 0)
				sp->flow = SONDE_FLOW_XONXOFF;
			else {
				snprintf(why, wl, "bad flow control '%s' (expected none, rtscts or xonxoff)", tok);
				return -1;
			}
		} else {
			snprintf(why, wl, "too many serial settings in '%s'", s);
			return -1;
		}
	}
	return 0;
}

/* The one rule for a device that is not there, with or without "serial:":
 * a path under /dev/ is a device not plugged in yet (opened, and retried,
 * when the link is connected); any other path that does not exist is a
 * typing error, said at once (docs/live.md).  Once a link has been up,
 * the path is never looked at again here: a link made by socat that goes
 * away with its socat is retried like an unplugged device. */
static int missing_outside_dev(const char *path, char *why, size_t wl)
{
	struct stat st;
	if (strncmp(path, "/dev/", 5) == 0 || stat(path, &st) == 0)
		return 0;
	snprintf(why, wl, "no such file or device: '%s' (only a device under /dev/ is waited for)", path);
	return -1;
}

int sonde_link_parse(const char *text, struct sonde_link_spec *sp, char *why, size_t wl)
{
	const char *r;
	memset(sp, 0, sizeof(*sp));
	sp->baud = 0;
	sp->data_bits = 8;
	sp->parity = 'N';
	sp->stop_bits = 1;
	if (!text || !*text) {
		snprintf(why, wl, "empty link");
		return -1;
	}
	if (strcmp(text, "-") == 0) {
		sp->kind = SONDE_LINK_STDIN;
		return 0;
	}
	if (prefixed(text, "serial:", &r)) {
		if (parse_serial(r, sp, why, wl) != 0 || missing_outside_dev(sp->path, why, wl) != 0)
			return -1;
		if (!sp->baud)
			sp->baud = 115200;
		return 0;
	}
	if (prefixed(text, "tcp://", &r)) {
		sp->kind = SONDE_LINK_TCP;
		return parse_hostport(r, sp, 1, why, wl);
	}
	if (prefixed(text, "gdb://", &r)) {
		const char *q = strchr(r, '?');
		char hp[sizeof(sp->host) + 16];
		sp->kind = SONDE_LINK_GDB;
		if (copy(hp, sizeof(hp), r, q ? (size_t)(q - r) : strlen(r)) != 0) {
			snprintf(why, wl, "bad host in '%s'", text);
			return -1;
		}
		if (parse_hostport(hp, sp, 1, why, wl) != 0)
			return -1;
		return link_gdb_parse_options(q ? q + 1 : "", sp, why, wl);
	}
	if (prefixed(text, "tcp-listen://", &r)) {
		sp->kind = SONDE_LINK_TCP_LISTEN;
		return parse_hostport(r, sp, 0, why, wl);
	}
	if (prefixed(text, "udp://", &r)) {
		sp->kind = SONDE_LINK_UDP;
		return parse_hostport(r, sp, 0, why, wl);
	}
	if (prefixed(text, "unix:", &r) || prefixed(text, "file:", &r)) {
		sp->kind = text[0] == 'u' ? SONDE_LINK_UNIX : SONDE_LINK_FILE;
		if (!*r || copy(sp->path, sizeof(sp->path), r, strlen(r)) != 0) {
			snprintf(why, wl, "bad path in '%s'", text);
			return -1;
		}
		return 0;
	}
	/* A path: a tty (possibly with ":BAUD..." after it).  A path under
	 * /dev/ that does not exist (yet) is a serial device too: opening it
	 * says "no such device", and it is retried like one unplugged. */
	char path[SONDE_LINK_PATH_MAX];
	const char *c = strchr(text, ':');
	struct stat st;
	int named = copy(path, sizeof(path), text, c ? (size_t)(c - text) : strlen(text)) == 0;
	int exists = named && stat(path, &st) == 0;
	if ((exists && S_ISCHR(st.st_mode)) || (named && !exists && strncmp(path, "/dev/", 5) == 0)) {
		if (parse_serial(text, sp, why, wl) != 0)
			return -1;
		if (!sp->baud)
			sp->baud = 115200;
		return 0;
	}
	const char *kinds = "serial:DEVICE[:BAUD[:8N1]], a tty's path, tcp://HOST:PORT, tcp-listen://[ADDR:]PORT, "
			    "udp://[ADDR:]PORT, unix:PATH, file:PATH, gdb://HOST:PORT or -";
	if (named && !exists && !strstr(text, "://"))
		snprintf(why, wl, "no such file or device: '%s' (a link is %s)", path, kinds);
	else
		snprintf(why, wl, "cannot tell what link '%s' is (expected %s)", text, kinds);
	return -1;
}

unsigned sonde_link_bits_per_byte(const struct sonde_link_spec *sp)
{
	unsigned bits = 1u + (unsigned)(sp->data_bits ? sp->data_bits : 8) + (unsigned)(sp->stop_bits ? sp->stop_bits : 1);
	if (sp->parity == 'E' || sp->parity == 'O')
		bits++;
	return bits;
}
