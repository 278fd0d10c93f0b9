/*
 * link_serial.c -- a serial port as a byte link (link_serial.h): real ports
 * through libserialport, pseudo-terminals through termios (libserialport
 * 0.1.1 cannot open them; see the header).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <libserialport.h>

#include "link_serial.h"

struct link_serial {
	char path[LINK_SERIAL_PATH_MAX];
	int pty;
	int fd;               /* pty: the descriptor */
	struct sp_port *port; /* real port: libserialport's handle */
	int port_open;        /* ... and sp_open succeeded */
	char err[LINK_SERIAL_PATH_MAX + 512];
};

/* ---- configuration -------------------------------------------------------------- */

void link_serial_cfg_init(struct link_serial_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->baud = LINK_SERIAL_DEFAULT_BAUD;
	cfg->data_bits = 8;
	cfg->parity = LINK_SERIAL_PARITY_NONE;
	cfg->stop_bits = 1;
	cfg->flow = LINK_SERIAL_FLOW_NONE;
}

static const char *const parity_names[] = { "none", "odd", "even", "mark", "space" };
static const char *const flow_names[] = { "none", "xonxoff", "rtscts", "dtrdsr" };

const char *link_serial_parity_name(enum link_serial_parity p)
{
	return (unsigned)p < 5 ? parity_names[p] : "?";
}

const char *link_serial_flow_name(enum link_serial_flow f)
{
	return (unsigned)f < 4 ? flow_names[f] : "?";
}

int link_serial_parse_baud(const char *s, unsigned *baud, char *err, size_t errlen)
{
	unsigned long v = 0;
	const char *c = s;

	for (; *c >= '0' && *c <= '9' && v <= LINK_SERIAL_MAX_BAUD; c++)
		v = v * 10 + (unsigned long)(*c - '0');
	if (c == s || *c || v < 1 || v > LINK_SERIAL_MAX_BAUD) {
		snprintf(err, errlen, "baud rate '%s': expected a number from 1 to %u", s, LINK_SERIAL_MAX_BAUD);
		return -1;
	}
	*baud = (unsigned)v;
	return 0;
}

static int parity_letter(char c, enum link_serial_parity *p)
{
	static const char letters[] = "NOEMS";
	const char *q = c ? strchr(letters, c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c) : NULL;

	if (!q)
		return -1;
	*p = (enum link_serial_parity)(q - letters);
	return 0;
}

/* Is s a frame ("8N1")?  Fills cfg when it is and cfg is not NULL. */
static int is_frame(const char *s, struct link_serial_cfg *cfg)
{
	enum link_serial_parity p;

	if (strlen(s) != 3 || s[0] < '5' || s[0] > '8' || parity_letter(s[1], &p) || (s[2] != '1' && s[2] != '2'))
		return 0;
	if (cfg) {
		cfg->data_bits = (unsigned)(s[0] - '0');
		cfg->parity = p;
		cfg->stop_bits = (unsigned)(s[2] - '0');
	}
	return 1;
}

int link_serial_parse_frame(struct link_serial_cfg *cfg, const char *s, char *err, size_t errlen)
{
	if (!is_frame(s, cfg)) {
		snprintf(err, errlen, "frame '%s': expected data bits 5-8, parity N/O/E/M/S, stop bits 1-2 (e.g. 8N1)", s);
		return -1;
	}
	return 0;
}

static int name_index(const char *s, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

int link_serial_parse_parity(const char *s, enum link_serial_parity *p, char *err, size_t errlen)
{
	int i = name_index(s, parity_names, 5);

	if (i < 0) {
		snprintf(err, errlen, "parity '%s': expected none, odd, even, mark or space", s);
		return -1;
	}
	*p = (enum link_serial_parity)i;
	return 0;
}

int link_serial_parse_flow(const char *s, enum link_serial_flow *f, char *err, size_t errlen)
{
	int i = name_index(s, flow_names, 4);

	if (i < 0) {
		snprintf(err, errlen, "flow control '%s': expected none, xonxoff, rtscts or dtrdsr", s);
		return -1;
	}
	*f = (enum link_serial_flow)i;
	return 0;
}

/* s is one or more decimal digits and nothing else. */
static int all_digits(const char *s)
{
	return s[0] && s[strspn(s, "0123456789")] == '\0';
}

int link_serial_parse(struct link_serial_cfg *cfg, const char *spec, char *err, size_t errlen)
{
	struct link_serial_cfg c = *cfg; /* committed only when all of spec is good */
	char *path = c.path, *colon;

	if (strlen(spec) >= sizeof(c.path)) {
		snprintf(err, errlen, "device name too long (%zu characters, at most %zu)", strlen(spec),
			 sizeof(c.path) - 1);
		return -1;
	}
	strcpy(path, spec);
	colon = strrchr(path, ':');
	if (colon && is_frame(colon + 1, NULL)) {
		/* DEV:BAUD:FRAME -- the frame needs the baud before it */
		char *frame = colon + 1;

		*colon = '\0';
		colon = strrchr(path, ':');
		if (!colon || !all_digits(colon + 1)) {
			snprintf(err, errlen, "'%s': a frame (%s) must follow a baud rate: DEV:BAUD:%s", spec, frame, frame);
			return -1;
		}
		is_frame(frame, &c);
	}
	if (colon && all_digits(colon + 1)) {
		if (link_serial_parse_baud(colon + 1, &c.baud, err, errlen) != 0)
			return -1;
		*colon = '\0';
	}
	if (!path[0]) {
		snprintf(err, errlen, "'%s': no device name", spec);
		return -1;
	}
	*cfg = c;
	return 0;
}

/* ---- opening ----------------------------------------------------------------------- */

/* The serial ports libserialport finds, for a message: "/dev/ttyUSB0,
 * /dev/ttyACM0" or "none" (pseudo-terminals are never listed). */
static void list_ports(char *out, size_t cap)
{
	struct sp_port **ports = NULL;
	size_t k = 0;
	int n = 0;
	out[0] = '\0';
	if (sp_list_ports(&ports) == SP_OK) {
		for (int i = 0; ports[i] && k < cap; i++, n++) {
			if (n == 8) {
				snprintf(out + k, cap - k, ", ...");
				break;
			}
			k += (size_t)snprintf(out + k, cap - k, "%s%s", n ? ", " : "", sp_get_port_name(ports[i]));
		}
		sp_free_port_list(ports);
	}
	if (!out[0])
		snprintf(out, cap, "none");
}

/* Why a device could not be opened, in the words a user looks for. */
static void open_error(const char *path, int e, char *err, size_t errlen)
{
	char ports[256];
	switch (e) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		list_ports(ports, sizeof(ports));
		snprintf(err, errlen, "no such device '%s' (serial ports found: %s)", path, ports);
		break;
	case EACCES:
	case EPERM:
		snprintf(err, errlen, "permission denied on '%s' (is this user in the group that owns it, e.g. dialout?)",
			 path);
		break;
	case EBUSY:
		snprintf(err, errlen, "'%s' is busy: another program has it open", path);
		break;
	default:
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(e));
		break;
	}
}

/* ---- pseudo-terminals -------------------------------------------------------------- */

/* UNIX 98 pty slaves (/dev/pts/N) have majors 136 to 143. */
static int is_pty(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) >= 136 && major(st->st_rdev) <= 143;
}

static int pty_open(struct link_serial *l)
{
	struct termios t;

	l->fd = open(l->path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (l->fd < 0) {
		open_error(l->path, errno, l->err, sizeof(l->err));
		return -1;
	}
	/* Raw bytes both ways; the line settings mean nothing on a pty, and
	 * software flow control would eat 0x11/0x13 from binary data. */
	if (tcgetattr(l->fd, &t) != 0) {
		snprintf(l->err, sizeof(l->err), "'%s': not a terminal: %s", l->path, strerror(errno));
		return -1;
	}
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(l->fd, TCSANOW, &t) != 0) {
		snprintf(l->err, sizeof(l->err), "'%s': cannot set raw mode: %s", l->path, strerror(errno));
		return -1;
	}
	return 0;
}

static long ms_left(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

static ssize_t pty_read(struct link_serial *l, void *buf, size_t n, unsigned timeout_ms)
{
	struct pollfd pfd = { l->fd, POLLIN, 0 };
	int r = poll(&pfd, 1, (int)timeout_ms);
	ssize_t k;

	if (r < 0) {
		if (errno == EINTR)
			return 0;
		snprintf(l->err, sizeof(l->err), "'%s': %s", l->path, strerror(errno));
		return -1;
	}
	if (r == 0)
		return 0;
	k = read(l->fd, buf, n);
	if (k > 0)
		return k;
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (k == 0 || errno == EIO)
		snprintf(l->err, sizeof(l->err), "'%s': the other end of the pseudo-terminal was closed", l->path);
	else
		snprintf(l->err, sizeof(l->err), "'%s': %s", l->path, strerror(errno));
	return -1;
}

static int pty_write(struct link_serial *l, const void *buf, size_t n, unsigned timeout_ms)
{
	const char *p = buf;
	struct timespec deadline;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	while (n) {
		ssize_t k = write(l->fd, p, n);

		if (k > 0) {
			p += k;
			n -= (size_t)k;
			continue;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR) {
			snprintf(l->err, sizeof(l->err), "'%s': write failed: %s", l->path, strerror(errno));
			return -1;
		}
		long left = timeout_ms ? ms_left(&deadline) : -1;
		if (timeout_ms && left <= 0) {
			snprintf(l->err, sizeof(l->err), "'%s': write timed out after %u ms (%zu bytes not sent)",
				 l->path, timeout_ms, n);
			return -1;
		}
		struct pollfd pfd = { l->fd, POLLOUT, 0 };
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
			snprintf(l->err, sizeof(l->err), "'%s': %s", l->path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* ---- real ports (libserialport) ----------------------------------------------------- */

/* libserialport's error text for a failed call. */
static void sp_err(struct link_serial *l, enum sp_return r, const char *what)
{
	char *m = NULL;

	switch (r) {
	case SP_ERR_FAIL:
		m = sp_last_error_message();
		snprintf(l->err, sizeof(l->err), "'%s': %s: %s", l->path, what, m ? m : "failed");
		sp_free_error_message(m);
		break;
	case SP_ERR_SUPP:
		snprintf(l->err, sizeof(l->err), "'%s': %s: not supported by the port or driver", l->path, what);
		break;
	case SP_ERR_MEM:
		snprintf(l->err, sizeof(l->err), "'%s': %s: out of memory", l->path, what);
		break;
	default:
		snprintf(l->err, sizeof(l->err), "'%s': %s: invalid argument", l->path, what);
		break;
	}
}

/* Read back what the driver took: a UART whose clock cannot make the rate
 * gets the nearest one it can, silently (a 16550 stops at 115200).  And
 * libserialport 0.1.1 was seen to leave CRTSCTS as it found it whatever
 * the flow control asked (its RTS/CTS settings did not reach termios), so
 * hardware flow control is set or cleared through termios here. */
static int sp_verify(struct link_serial *l, const struct link_serial_cfg *cfg, struct sp_port_config *c)
{
	int want = cfg->flow == LINK_SERIAL_FLOW_RTSCTS;
	enum sp_return r;
	struct termios t;
	int baud = 0, fd = -1;

	if ((r = sp_get_config(l->port, c)) != SP_OK || (r = sp_get_config_baudrate(c, &baud)) != SP_OK) {
		sp_err(l, r, "reading the line settings back");
		return -1;
	}
	if (baud != (int)cfg->baud) {
		snprintf(l->err, sizeof(l->err),
			 "'%s': the port runs at %d baud, not %u: a rate its UART or driver cannot make", l->path,
			 baud, cfg->baud);
		return -1;
	}
	if (sp_get_port_handle(l->port, &fd) != SP_OK || tcgetattr(fd, &t) != 0)
		goto no_flow;
	if (!!(t.c_cflag & CRTSCTS) == want)
		return 0;
	t.c_cflag = want ? t.c_cflag | CRTSCTS : t.c_cflag & ~(tcflag_t)CRTSCTS;
	if (tcsetattr(fd, TCSANOW, &t) != 0 || tcgetattr(fd, &t) != 0 || !!(t.c_cflag & CRTSCTS) != want)
		goto no_flow;
	return 0;
no_flow:
	snprintf(l->err, sizeof(l->err), "'%s': cannot %s RTS/CTS flow control", l->path, want ? "set" : "clear");
	return -1;
}

static int sp_configure(struct link_serial *l, const struct link_serial_cfg *cfg)
{
	static const enum sp_parity par[] = { SP_PARITY_NONE, SP_PARITY_ODD, SP_PARITY_EVEN, SP_PARITY_MARK,
					      SP_PARITY_SPACE };
	static const enum sp_flowcontrol flow[] = { SP_FLOWCONTROL_NONE, SP_FLOWCONTROL_XONXOFF,
						    SP_FLOWCONTROL_RTSCTS, SP_FLOWCONTROL_DTRDSR };
	struct sp_port_config *c = NULL;
	enum sp_return r;
	char what[64];
	int rc = -1;

	if ((r = sp_new_config(&c)) != SP_OK) {
		sp_err(l, r, "configuration");
		return -1;
	}
	if ((r = sp_get_config(l->port, c)) != SP_OK) {
		sp_err(l, r, "reading the line settings");
		goto out;
	}
	snprintf(what, sizeof(what), "setting %u baud", cfg->baud);
	if ((r = sp_set_config_baudrate(c, (int)cfg->baud)) != SP_OK)
		goto fail;
	snprintf(what, sizeof(what), "setting %u data bits", cfg->data_bits);
	if ((r = sp_set_config_bits(c, (int)cfg->data_bits)) != SP_OK)
		goto fail;
	snprintf(what, sizeof(what), "setting %s parity", link_serial_parity_name(cfg->parity));
	if ((r = sp_set_config_parity(c, par[cfg->parity])) != SP_OK)
		goto fail;
	snprintf(what, sizeof(what), "setting %u stop bits", cfg->stop_bits);
	if ((r = sp_set_config_stopbits(c, (int)cfg->stop_bits)) != SP_OK)
		goto fail;
	snprintf(what, sizeof(what), "setting flow control %s", link_serial_flow_name(cfg->flow));
	if ((r = sp_set_config_flowcontrol(c, flow[cfg->flow])) != SP_OK)
		goto fail;
	snprintf(what, sizeof(what), "applying %u baud %u%c%u", cfg->baud, cfg->data_bits,
		 "NOEMS"[cfg->parity], cfg->stop_bits);
	if ((r = sp_set_config(l->port, c)) != SP_OK)
		goto fail;
	rc = sp_verify(l, cfg, c);
	goto out;
fail:
	sp_err(l, r, what);
out:
	sp_free_config(c);
	return rc;
}

static int sp_open_port(struct link_serial *l, const struct link_serial_cfg *cfg)
{
	enum sp_return r = sp_get_port_by_name(l->path, &l->port);

	if (r != SP_OK) {
		l->port = NULL;
		sp_err(l, r, "not usable as a serial port");
		return -1;
	}
	if ((r = sp_open(l->port, SP_MODE_READ_WRITE)) != SP_OK) {
		sp_err(l, r, "cannot open");
		return -1;
	}
	l->port_open = 1;
	return sp_configure(l, cfg);
}

/* ---- the link ----------------------------------------------------------------------- */

static int cfg_check(const struct link_serial_cfg *cfg, char *err, size_t errlen)
{
	if (!cfg->path[0])
		snprintf(err, errlen, "no serial device given");
	else if (cfg->baud < 1 || cfg->baud > LINK_SERIAL_MAX_BAUD)
		snprintf(err, errlen, "baud rate %u: expected 1 to %u", cfg->baud, LINK_SERIAL_MAX_BAUD);
	else if (cfg->data_bits < 5 || cfg->data_bits > 8)
		snprintf(err, errlen, "%u data bits: expected 5 to 8", cfg->data_bits);
	else if (cfg->stop_bits < 1 || cfg->stop_bits > 2)
		snprintf(err, errlen, "%u stop bits: expected 1 or 2", cfg->stop_bits);
	else if ((unsigned)cfg->parity > LINK_SERIAL_PARITY_SPACE || (unsigned)cfg->flow > LINK_SERIAL_FLOW_DTRDSR)
		snprintf(err, errlen, "invalid parity or flow control");
	else
		return 0;
	return -1;
}

struct link_serial *link_serial_open(const struct link_serial_cfg *cfg, char *err, size_t errlen)
{
	struct link_serial *l;
	struct stat st;

	if (cfg_check(cfg, err, errlen) != 0)
		return NULL;
	if (stat(cfg->path, &st) != 0) {
		open_error(cfg->path, errno, err, errlen);
		return NULL;
	}
	if (!S_ISCHR(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a serial port (not a character device)", cfg->path);
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	strcpy(l->path, cfg->path);
	l->fd = -1;
	l->pty = is_pty(&st);
	if ((l->pty ? pty_open(l) : sp_open_port(l, cfg)) != 0) {
		snprintf(err, errlen, "%s", l->err);
		link_serial_close(l);
		return NULL;
	}
	return l;
}

ssize_t link_serial_read(struct link_serial *l, void *buf, size_t n, unsigned timeout_ms)
{
	int r;

	if (l->pty)
		return pty_read(l, buf, n, timeout_ms);
	/* sp_blocking_read_next() waits forever on a 0 timeout */
	r = timeout_ms ? sp_blocking_read_next(l->port, buf, n, timeout_ms) : sp_nonblocking_read(l->port, buf, n);
	if (r < 0) {
		sp_err(l, (enum sp_return)r, "read failed");
		return -1;
	}
	return r;
}

int link_serial_write(struct link_serial *l, const void *buf, size_t n, unsigned timeout_ms)
{
	int r;

	if (l->pty)
		return pty_write(l, buf, n, timeout_ms);
	r = sp_blocking_write(l->port, buf, n, timeout_ms);
	if (r < 0) {
		sp_err(l, (enum sp_return)r, "write failed");
		return -1;
	}
	if ((size_t)r < n) {
		snprintf(l->err, sizeof(l->err), "'%s': write timed out after %u ms (%zu bytes not sent)", l->path,
			 timeout_ms, n - (size_t)r);
		return -1;
	}
	return 0;
}

int link_serial_flush_input(struct link_serial *l)
{
	enum sp_return r;

	if (l->pty) {
		if (tcflush(l->fd, TCIFLUSH) != 0) {
			snprintf(l->err, sizeof(l->err), "'%s': flush: %s", l->path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if ((r = sp_flush(l->port, SP_BUF_INPUT)) != SP_OK) {
		sp_err(l, r, "flush");
		return -1;
	}
	return 0;
}

const char *link_serial_error(const struct link_serial *l)
{
	return l->err;
}

int link_serial_fd(const struct link_serial *l)
{
	int fd = -1;

	if (l->pty)
		return l->fd;
	if (sp_get_port_handle(l->port, &fd) != SP_OK)
		return -1;
	return fd;
}

int link_serial_is_pty(const struct link_serial *l)
{
	return l->pty;
}

const char *link_serial_path(const struct link_serial *l)
{
	return l->path;
}

void link_serial_close(struct link_serial *l)
{
	if (!l)
		return;
	if (l->port) {
		if (l->port_open)
			sp_close(l->port);
		sp_free_port(l->port);
	}
	if (l->fd >= 0)
		close(l->fd);
	free(l);
}
