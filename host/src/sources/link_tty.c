/*
 * link_tty.c -- serial devices (and pseudo-terminals) as live links,
 * through link_serial.h.  The live loop waits on the port's descriptor
 * (link_serial_fd); should a platform give none, it reads the port every
 * 10 ms instead (sonde_link_poll_ms).  A read or write
 * error (device unplugged, the other end of a pty closed) takes the link
 * down; connecting opens the device again.
 */
#include <string.h>

#include "link_impl.h"
#include "link_serial.h"

#define LINK_TTY_WRITE_MS 1000

static enum link_serial_parity parity(char p)
{
	return p == 'E' ? LINK_SERIAL_PARITY_EVEN : p == 'O' ? LINK_SERIAL_PARITY_ODD : LINK_SERIAL_PARITY_NONE;
}

static enum link_serial_flow flow(enum sonde_link_flow f)
{
	return f == SONDE_FLOW_RTSCTS ? LINK_SERIAL_FLOW_RTSCTS
	       : f == SONDE_FLOW_XONXOFF ? LINK_SERIAL_FLOW_XONXOFF : LINK_SERIAL_FLOW_NONE;
}

int link_tty_connect(struct sonde_link *l)
{
	struct link_serial_cfg cfg;
	link_serial_cfg_init(&cfg);
	if (strlen(l->spec.path) >= sizeof(cfg.path))
		return link_fail(l, "device path too long");
	strcpy(cfg.path, l->spec.path);
	cfg.baud = l->spec.baud ? l->spec.baud : LINK_SERIAL_DEFAULT_BAUD;
	cfg.data_bits = (unsigned)l->spec.data_bits;
	cfg.parity = parity(l->spec.parity);
	cfg.stop_bits = (unsigned)l->spec.stop_bits;
	cfg.flow = flow(l->spec.flow);
	char err[256];
	struct link_serial *s = link_serial_open(&cfg, err, sizeof(err));
	if (!s)
		return link_fail(l, "%s", err);
	l->serial = s;
	l->fd = link_serial_fd(s);
	l->no_poll = l->fd < 0;
	if (l->no_poll)
		l->fd = 0; /* "up", read by timer (see the top) */
	return 0;
}

ssize_t link_tty_read(struct sonde_link *l, void *buf, size_t n)
{
	ssize_t r = link_serial_read(l->serial, buf, n, 0);
	if (r >= 0)
		return r;
	link_fail(l, "%s", link_serial_error(l->serial));
	link_tty_drop(l);
	return -1;
}

int link_tty_write(struct sonde_link *l, const void *buf, size_t n)
{
	if (link_serial_write(l->serial, buf, n, LINK_TTY_WRITE_MS) == 0)
		return 0;
	link_fail(l, "%s", link_serial_error(l->serial));
	link_tty_drop(l);
	return -1;
}

void link_tty_drop(struct sonde_link *l)
{
	if (l->serial)
		link_serial_close(l->serial);
	l->serial = NULL;
	l->fd = -1;
	l->no_poll = 0;
}
