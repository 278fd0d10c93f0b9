/*
 * link_file.c -- standard input and files as live links.  A file without
 * --follow is read to its end, like `sonde decode`.  With --follow it is
 * read from the start and then watched as it grows (the caller polls on a
 * timer: a regular file is always "readable" to poll(2)).  When the file
 * shrinks below what was read, it was truncated and is read again from
 * the start; when the path names another file (rotated, re-created), the
 * rest of the old one is read and then the new one from its start.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "link_impl.h"

static int open_file(struct sonde_link *l)
{
	int fd = open(l->spec.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return link_fail(l, "cannot open %s: %s", l->spec.path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) == 0) {
		l->ino = (uint64_t)st.st_ino;
		l->dev = (uint64_t)st.st_dev;
	}
	l->fd = fd;
	l->offset = 0;
	return 0;
}

int link_file_open(struct sonde_link *l)
{
	if (l->spec.kind == SONDE_LINK_STDIN) {
		l->fd = STDIN_FILENO;
		return 0;
	}
	return open_file(l);
}

/* At the end of a followed file: truncated?  replaced? */
static ssize_t follow_check(struct sonde_link *l)
{
	struct stat st, now;
	if (fstat(l->fd, &st) == 0 && (uint64_t)st.st_size < l->offset) {
		link_note(l, "%s was truncated (now %" PRIu64 " bytes, %" PRIu64 " were read): reading it from the start",
			  l->spec.path, (uint64_t)st.st_size, l->offset);
		lseek(l->fd, 0, SEEK_SET);
		l->offset = 0;
		return 0;
	}
	if (stat(l->spec.path, &now) == 0 && ((uint64_t)now.st_ino != l->ino || (uint64_t)now.st_dev != l->dev)) {
		int old = l->fd;
		if (open_file(l) == 0) {
			close(old);
			link_note(l, "%s was replaced: reading the new file from the start", l->spec.path);
		}
	}
	return 0;
}

ssize_t link_file_read(struct sonde_link *l, void *buf, size_t n)
{
	ssize_t r;
	do
		r = read(l->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r > 0) {
		l->offset += (uint64_t)r;
		return r;
	}
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (r == 0 && l->spec.kind == SONDE_LINK_FILE && l->spec.follow)
		return follow_check(l);
	if (r == 0)
		link_fail(l, "end of input");
	else
		link_fail(l, "read error: %s", strerror(errno));
	l->ended = 1;
	return -1;
}
