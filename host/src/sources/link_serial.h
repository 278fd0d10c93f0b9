/*
 * link_serial.h -- a serial port as a two-way byte link: open with a line
 * configuration, read with a timeout, write, flush.  Generic: used by
 * `sonde miniprof` to talk to a MiniProfiler device and meant for any
 * command that reads a target live.
 *
 * Real ports go through libserialport, which sets any baud rate the driver
 * accepts, including non-standard ones (up to LINK_SERIAL_MAX_BAUD here);
 * the rate is read back, and one the UART cannot make is an error rather
 * than a silently different rate.
 * Pseudo-terminals (a simulator's openpty, socat's pty pairs) are opened
 * with termios directly: libserialport 0.1.1 refuses them (it looks every
 * port up in sysfs, where ptys have no entry), and a pty has no line to
 * configure anyway -- the settings are accepted and have no effect there.
 *
 *     struct link_serial_cfg cfg;
 *     link_serial_cfg_init(&cfg);
 *     if (link_serial_parse(&cfg, "/dev/ttyUSB0:921600", err, sizeof(err)) == 0 &&
 *         (l = link_serial_open(&cfg, err, sizeof(err))) != NULL) { ... }
 */
#ifndef LINK_SERIAL_H
#define LINK_SERIAL_H

#include <stddef.h>
#include <sys/types.h>

#define LINK_SERIAL_MAX_BAUD 12000000u
#define LINK_SERIAL_DEFAULT_BAUD 115200u
#define LINK_SERIAL_PATH_MAX 512

enum link_serial_parity {
	LINK_SERIAL_PARITY_NONE,
	LINK_SERIAL_PARITY_ODD,
	LINK_SERIAL_PARITY_EVEN,
	LINK_SERIAL_PARITY_MARK,
	LINK_SERIAL_PARITY_SPACE
};

enum link_serial_flow {
	LINK_SERIAL_FLOW_NONE,
	LINK_SERIAL_FLOW_XONXOFF,
	LINK_SERIAL_FLOW_RTSCTS,
	LINK_SERIAL_FLOW_DTRDSR
};

struct link_serial_cfg {
	char path[LINK_SERIAL_PATH_MAX];
	unsigned baud;       /* 1 .. LINK_SERIAL_MAX_BAUD */
	unsigned data_bits;  /* 5 .. 8 */
	enum link_serial_parity parity;
	unsigned stop_bits;  /* 1 or 2 */
	enum link_serial_flow flow;
};

/* No path, 115200 baud, 8N1, no flow control. */
void link_serial_cfg_init(struct link_serial_cfg *cfg);

/* "DEV[:BAUD[:FRAME]]", FRAME being data bits, parity letter (N O E M S)
 * and stop bits, e.g. "/dev/ttyUSB0:921600:8E1".  Only a trailing part that
 * reads as a baud rate or a frame is split off, so device names with colons
 * (/dev/serial/by-path/...) work.  Fields not given keep their value; on
 * an error nothing changes.
 * Returns 0, or -1 with a message in err. */
int link_serial_parse(struct link_serial_cfg *cfg, const char *spec, char *err, size_t errlen);
/* The parts alone, for command-line options (0, or -1 with err). */
int link_serial_parse_baud(const char *s, unsigned *baud, char *err, size_t errlen);
int link_serial_parse_frame(struct link_serial_cfg *cfg, const char *s, char *err, size_t errlen);
int link_serial_parse_parity(const char *s, enum link_serial_parity *p, char *err, size_t errlen);
int link_serial_parse_flow(const char *s, enum link_serial_flow *f, char *err, size_t errlen);
/* "none", "odd", ... ; "none", "xonxoff", "rtscts", "dtrdsr". */
const char *link_serial_parity_name(enum link_serial_parity p);
const char *link_serial_flow_name(enum link_serial_flow f);

struct link_serial;

/* Open and configure the port.  NULL with a message in err on failure. */
struct link_serial *link_serial_open(const struct link_serial_cfg *cfg, char *err, size_t errlen);
/* Wait up to timeout_ms (0: do not wait) for data, then read what is there,
 * at most n bytes.  > 0 bytes read, 0 nothing within the timeout, -1 error
 * (link_serial_error() says what). */
ssize_t link_serial_read(struct link_serial *l, void *buf, size_t n, unsigned timeout_ms);
/* Write all n bytes within timeout_ms (0: no limit).  0, or -1 on error or
 * timeout. */
int link_serial_write(struct link_serial *l, const void *buf, size_t n, unsigned timeout_ms);
/* Discard what was received and not read yet.  0 or -1. */
int link_serial_flush_input(struct link_serial *l);
/* The last error, "" if none. */
const char *link_serial_error(const struct link_serial *l);
/* A descriptor that polls readable when data arrives (for a caller's own
 * poll loop; read with link_serial_read), -1 if the platform has none. */
int link_serial_fd(const struct link_serial *l);
/* 1 when the port is a pseudo-terminal (line settings have no effect). */
int link_serial_is_pty(const struct link_serial *l);
const char *link_serial_path(const struct link_serial *l);
void link_serial_close(struct link_serial *l);

#endif /* LINK_SERIAL_H */
