/*
 * out.c -- output streams that remember their first write error and give
 * up on a stalled reader after a stop (out.h).  A cookie stream
 * (fopencookie, glibc) rather than a buffer of our own, so that every sink
 * keeps writing to a plain FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"
#include "stop.h"

#define OUT_MAX 16               /* streams open at a time */
#define OUT_BUF (64u * 1024u)    /* stdio buffer of a stream that is not a terminal */

struct out_cookie {
	int fd;
	int can_stall;   /* a pipe, socket or terminal: its reader sets the pace */
	int err;         /* errno of the first failed write */
	int gave_up;     /* the reader took nothing within the grace time after a stop */
	uint64_t lost;   /* bytes not written since then */
	int hold;        /* writes are counted, not written */
	uint64_t held_lines;
	char *buf;       /* stdio buffer, NULL: stdio's own */
	const char *name;
};

static struct {
	FILE *f;
	struct out_cookie *c;
} out_open[OUT_MAX];

static struct out_cookie *find(FILE *f)
{
	for (int i = 0; f && i < OUT_MAX; i++)
		if (out_open[i].f == f)
			return out_open[i].c;
	return NULL;
}

/* All of buf, or -1.  After a failure nothing more is written: a later
 * write that worked would leave a hole in the middle of the output.  A
 * reader that does not keep up is given up after a stop's grace time: a
 * write that blocks is interrupted by the stop's timer (EINTR, or a short
 * count when part of it went through); a file on a disk never blocks and
 * is never given up. */
static ssize_t out_write(void *vc, const char *buf, size_t n)
{
	struct out_cookie *c = vc;
	size_t done = 0;
	int held = 0; /* the reader has held us up in this call */
	if (c->hold) {
		for (const char *p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))) != NULL; p++)
			c->held_lines++;
		return (ssize_t)n;
	}
	while (done < n && !c->err && !c->gave_up) {
		if (held && c->can_stall && sonde_stop_overdue()) {
			c->gave_up = 1;
			break;
		}
		ssize_t w = write(c->fd, buf + done, n - done);
		if (w > 0) {
			held |= (size_t)w < n - done;
			done += (size_t)w;
			continue;
		}
		if (w < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
			held = 1;
			if (errno != EINTR) { /* a non-blocking descriptor we were handed */
				struct pollfd pf = { c->fd, POLLOUT, 0 };
				poll(&pf, 1, SONDE_STOP_TICK_MS);
			}
			continue;
		}
		c->err = w < 0 ? errno : EIO;
	}
	if (done == n)
		return (ssize_t)n;
	c->lost += n - done;
	errno = c->err ? c->err : EINTR;
	return -1;
}

static int out_close(void *vc)
{
	struct out_cookie *c = vc;
	int rc = 0;
	if (c->fd > STDERR_FILENO && close(c->fd) != 0 && !c->err) {
		c->err = errno;
		rc = -1;
	}
	return rc;
}

static FILE *wrap(int fd, const char *name)
{
	int slot = -1;
	for (int i = 0; i < OUT_MAX && slot < 0; i++)
		if (!out_open[i].f)
			slot = i;
	struct out_cookie *c = slot < 0 ? NULL : calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->fd = fd;
	c->name = name;
	struct stat st;
	c->can_stall = fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode);
	cookie_io_functions_t io = { NULL, out_write, NULL, out_close };
	FILE *f = fopencookie(c, "w", io);
	if (!f) {
		free(c);
		return NULL;
	}
	/* a terminal sees whole lines at once (and the diagnostics on stderr
	 * between the records they follow); anything else big writes */
	if (isatty(fd))
		setvbuf(f, NULL, _IOLBF, 0);
	else if ((c->buf = malloc(OUT_BUF)) != NULL)
		setvbuf(f, c->buf, _IOFBF, OUT_BUF);
	out_open[slot].f = f;
	out_open[slot].c = c;
	return f;
}

FILE *sonde_out_fdopen(int fd, const char *name)
{
	return wrap(fd, name);
}

FILE *sonde_out_create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return NULL;
	FILE *f = wrap(fd, path);
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

int sonde_out_errno(FILE *f)
{
	struct out_cookie *c = find(f);
	return c ? c->err : 0;
}

uint64_t sonde_out_lost(FILE *f)
{
	struct out_cookie *c = find(f);
	return c ? c->lost : 0;
}

const char *sonde_out_name(FILE *f)
{
	struct out_cookie *c = find(f);
	return c ? c->name : NULL;
}

void sonde_out_hold(FILE *f, int on)
{
	struct out_cookie *c = find(f);
	if (!c)
		return;
	fflush(f);
	if (on && !c->hold)
		c->held_lines = 0;
	c->hold = on;
}

uint64_t sonde_out_held_lines(FILE *f)
{
	struct out_cookie *c = find(f);
	return c ? c->held_lines : 0;
}

/* Why writes to c failed, for messages. */
static void reason(const struct out_cookie *c, char *why, size_t whylen)
{
	if (c->err)
		snprintf(why, whylen, "%s", strerror(c->err));
	else if (c->gave_up)
		snprintf(why, whylen, "the reader did not take the last %" PRIu64 " bytes within %.1f s of the stop",
			 c->lost, SONDE_STOP_GRACE_MS / 1000.0);
	else
		snprintf(why, whylen, "write failed");
}

const char *sonde_out_why(FILE *f)
{
	static char why[160];
	struct out_cookie *c = find(f);
	if (!c)
		return "write failed";
	reason(c, why, sizeof(why));
	return why;
}

int sonde_out_close(FILE *f, char *why, size_t whylen)
{
	struct out_cookie *c = find(f);
	errno = 0;
	int bad = fflush(f) != 0 || ferror(f);
	if (!c) {
		if (f != stdout && f != stderr)
			bad |= fclose(f) != 0;
		if (bad)
			snprintf(why, whylen, "%s", errno ? strerror(errno) : "write failed");
		return bad ? -1 : 0;
	}
	if (c->fd > STDERR_FILENO) {
		for (int i = 0; i < OUT_MAX; i++)
			if (out_open[i].f == f)
				out_open[i].f = NULL;
		bad |= fclose(f) != 0; /* out_close keeps the cookie: read below */
	}
	bad |= c->err || c->gave_up;
	if (bad)
		reason(c, why, whylen);
	if (c->fd > STDERR_FILENO) {
		free(c->buf);
		free(c);
	}
	return bad ? -1 : 0;
}
