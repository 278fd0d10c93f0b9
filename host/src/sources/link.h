/*
 * link.h -- live links to a target: where `sonde live` reads a trace as it
 * is produced and where `sonde live` and `sonde send` write commands
 * (docs/protocol.md §9).  One syntax names them all (docs/live.md):
 *
 *     serial:/dev/ttyUSB0[:BAUD[:8N1]]  or a path to a tty
 *     tcp://HOST:PORT                   TCP client
 *     tcp-listen://[ADDR:]PORT          TCP server, one client at a time
 *     udp://[ADDR:]PORT                 datagrams received on ADDR:PORT
 *     unix:PATH                         Unix stream socket (a live session's --control)
 *     file:PATH                         a file (--follow: growing, like tail -f)
 *     gdb://HOST:PORT[?OPTIONS]         an RTT buffer read through a GDB server (link_gdb.h)
 *     -                                 standard input
 *
 * A link is "up" while it has a data connection (l->fd >= 0) and "down"
 * otherwise; sonde_link_connect tries to bring it up without blocking for
 * more than about a second, so a caller can retry with a backoff and stay
 * responsive.  Nothing here blocks on reading: the caller polls the
 * descriptor sonde_link_poll_fd gives it.
 */
#ifndef SONDE_LINK_H
#define SONDE_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

enum sonde_link_kind {
	SONDE_LINK_SERIAL,
	SONDE_LINK_TCP,
	SONDE_LINK_TCP_LISTEN,
	SONDE_LINK_UDP,
	SONDE_LINK_UNIX,
	SONDE_LINK_FILE,
	SONDE_LINK_STDIN,
	SONDE_LINK_GDB
};

enum sonde_link_flow { SONDE_FLOW_NONE, SONDE_FLOW_RTSCTS, SONDE_FLOW_XONXOFF };

#define SONDE_LINK_PATH_MAX 512
#define SONDE_LINK_NAME_MAX 600

/* gdb:// options (link_gdb.c; docs/live.md). */
struct sonde_link_gdb_spec {
	char elf[SONDE_LINK_PATH_MAX];  /* find the control block by its symbol */
	uint32_t cb;                    /* ... or at this address (have_cb) */
	int have_cb;
	uint32_t scan_addr, scan_size;  /* ... or by scanning this range */
	uint32_t up, down;              /* buffer numbers */
	uint32_t poll_ms;               /* between polls that found nothing */
};

struct sonde_link_spec {
	enum sonde_link_kind kind;
	char host[256];                 /* tcp, tcp-listen, udp ("" = 127.0.0.1 for servers) */
	char port[16];
	char path[SONDE_LINK_PATH_MAX]; /* serial device, file, unix socket */
	uint32_t baud;                  /* serial (default 115200); 0 = unknown */
	int data_bits;                  /* 5..8 */
	char parity;                    /* 'N', 'E', 'O' */
	int stop_bits;                  /* 1, 2 */
	enum sonde_link_flow flow;
	int follow;                     /* file: keep reading as it grows */
	struct sonde_link_gdb_spec gdb; /* gdb */
};

/* Parse a link's text.  Returns 0, or -1 with a one-line reason in why.
 * A bare path to a character device is a serial link. */
int sonde_link_parse(const char *text, struct sonde_link_spec *spec, char *why, size_t whylen);
/* Wire bits per byte of a serial framing (start + data + parity + stop). */
unsigned sonde_link_bits_per_byte(const struct sonde_link_spec *spec);

struct sonde_link;
typedef void (*sonde_link_log_fn)(void *ctx, const char *msg);

struct sonde_link {
	struct sonde_link_spec spec;
	char name[SONDE_LINK_NAME_MAX]; /* for messages: "tcp://127.0.0.1:4000" */
	int fd;                 /* data descriptor, -1 while down */
	int no_poll;            /* up, but fd cannot be waited on: read every few ms (link_tty.c) */
	int listen_fd;          /* tcp-listen: the listening socket */
	int ended;              /* stdin or a file (without --follow) reached its end */
	uint64_t offset;        /* file: bytes read from the current file */
	uint64_t ino, dev;      /* file: identity of the open file (rotation) */
	struct sockaddr_storage peer; /* udp: where the last datagram came from */
	socklen_t peer_len;
	void *serial;           /* serial: the port handle */
	void *gdb;              /* gdb: the connection's state (link_gdb.c) */
	sonde_link_log_fn log;  /* notes ("file truncated", ...); may be NULL */
	void *log_ctx;
	char why[256];          /* the last error, for messages */
};

/* Set the link up from spec.  For tcp-listen and udp this binds the local
 * address; stdin, files and udp are up at once, the others come up with
 * sonde_link_connect.  Returns 0, or -1 with l->why set (a bad address, a
 * port in use, a file that cannot be opened). */
int sonde_link_open(struct sonde_link *l, const struct sonde_link_spec *spec);
/* Try to bring a down link up: connect, accept a waiting client, open the
 * device.  Returns 0 when up, -1 when not (l->why says why). Blocks for at
 * most about a second. */
int sonde_link_connect(struct sonde_link *l);
/* Whether a link that went down may come back (tcp, tcp-listen, serial,
 * unix); stdin and files end instead. */
int sonde_link_reconnects(const struct sonde_link *l);
/* The descriptor to poll for input (POLLIN) -- the data descriptor when up,
 * the listening socket of a waiting tcp-listen -- or -1 when there is none
 * (a followed file, a link waiting for its next connection attempt); the
 * caller then polls with a timeout of its own. */
int sonde_link_poll_fd(const struct sonde_link *l);
/* When a link that is up has no descriptor to poll (a followed file, a
 * serial port), how often to read it, in ms; -1 when it has one. */
int sonde_link_poll_ms(const struct sonde_link *l);
/* Read what is there: > 0 bytes, 0 nothing now, -1 the link went down
 * (closed by the peer, device gone, end of input; l->why says which, and
 * l->ended is set when it will not come back). */
ssize_t sonde_link_read(struct sonde_link *l, void *buf, size_t n);
/* Whether commands can be written on this link (not stdin or a file). */
int sonde_link_writable(const struct sonde_link *l);
/* Write all n bytes (a command frame).  Returns 0, or -1 with l->why set
 * (down, no peer yet, timeout). */
int sonde_link_write(struct sonde_link *l, const void *buf, size_t n);
/* What a link measured it can carry, for the budget check of `sonde live`:
 * 1 with bytes per second and a description of it (gdb://: "RTT via GDB
 * (1024-B up buffer, ... reads/s, ...)"), 0 when the link knows
 * nothing of its capacity (the others: a baud rate says it for them).
 * whole: over the whole session; else since the previous such call (the
 * budget check's window). */
int sonde_link_capacity(const struct sonde_link *l, int whole, double *bytes_per_s, char *what, size_t wl);
/* Take the data connection down (after an error); the link can come up
 * again with sonde_link_connect. */
void sonde_link_drop(struct sonde_link *l);
void sonde_link_close(struct sonde_link *l);

#endif /* SONDE_LINK_H */
