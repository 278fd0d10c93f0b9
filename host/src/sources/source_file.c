/*
 * source_file.c -- a regular file, a pipe or stdin as a byte source.
 * Plain read(2) in the caller's chunks: nothing is ever slurped, so a
 * capture of any size (or an endless pipe) runs in constant memory.  A
 * stop (Ctrl-C, core/stop.h) ends the input: what was read is decoded and
 * the outputs are finished.  A read blocked on a silent pipe is
 * interrupted by the stop's timer, so that takes no longer.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/stop.h"
#include "source.h"

static ssize_t file_read(struct sonde_source *src, void *buf, size_t n)
{
	for (;;) {
		if (sonde_stop_signal())
			return 0;
		ssize_t r = read(src->fd, buf, n);
		if (r >= 0 || errno != EINTR)
			return r;
	}
}

static void file_close(struct sonde_source *src)
{
	if (src->fd > STDERR_FILENO)
		close(src->fd);
	src->fd = -1;
}

int sonde_source_open_file(struct sonde_source *src, const char *path)
{
	memset(src, 0, sizeof(*src));
	if (strcmp(path, "-") == 0) {
		src->name = "<stdin>";
		src->fd = STDIN_FILENO;
	} else {
		src->name = path;
		src->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (src->fd < 0)
			return -1;
	}
	src->read = file_read;
	src->close = file_close;
	return 0;
}
