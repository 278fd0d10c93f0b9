/*
 * link_impl.h -- what the kinds of live link (link_net.c, link_file.c,
 * link_tty.c) provide to the dispatch in link.c, and the helpers they
 * share (link_util.c).  Not for users of links:
 * they include link.h.
 */
#ifndef SONDE_LINK_IMPL_H
#define SONDE_LINK_IMPL_H

#include "link.h"

void link_note(struct sonde_link *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int link_fail(struct sonde_link *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Write all of buf to a non-blocking descriptor, waiting up to timeout_ms
 * for room; 0 or -1 (l->why set). */
int link_write_fd(struct sonde_link *l, int fd, const void *buf, size_t n, int timeout_ms);
/* Close the link's descriptor (not standard input) and mark it closed. */
void link_fd_drop(struct sonde_link *l);

/* link_net.c */
int link_net_open(struct sonde_link *l);
int link_net_connect(struct sonde_link *l);
ssize_t link_net_read(struct sonde_link *l, void *buf, size_t n);
int link_net_write(struct sonde_link *l, const void *buf, size_t n);

/* link_file.c */
int link_file_open(struct sonde_link *l);
ssize_t link_file_read(struct sonde_link *l, void *buf, size_t n);

/* link_tty.c */
int link_tty_connect(struct sonde_link *l);
ssize_t link_tty_read(struct sonde_link *l, void *buf, size_t n);
int link_tty_write(struct sonde_link *l, const void *buf, size_t n);
void link_tty_drop(struct sonde_link *l);

#endif /* SONDE_LINK_IMPL_H */
