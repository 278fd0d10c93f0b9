/*
 * link_gdb.h -- the debug-probe link: `gdb://HOST:PORT[?OPTIONS]` reads a
 * target's RTT up buffer and writes its down buffer through any GDB
 * remote-protocol server (QEMU's -gdb, OpenOCD, pyOCD, J-Link GDB server;
 * docs/live.md).  What link.c dispatches to, and the link's own figures
 * for the link budget.
 */
#ifndef SONDE_LINK_GDB_H
#define SONDE_LINK_GDB_H

#include "link.h"

/* The options after the '?' of "gdb://HOST:PORT?elf=FILE&poll=5" (""
 * when there are none) into spec->gdb, defaults for the others.  Returns
 * 0, or -1 with a reason in why. */
int link_gdb_parse_options(const char *query, struct sonde_link_spec *spec, char *why, size_t wl);

int link_gdb_connect(struct sonde_link *l);
ssize_t link_gdb_read(struct sonde_link *l, void *buf, size_t n);
int link_gdb_write(struct sonde_link *l, const void *buf, size_t n);
void link_gdb_drop(struct sonde_link *l);
void link_gdb_free(struct sonde_link *l);
/* How long the live loop waits after a poll that found nothing: the poll=
 * option's interval, shorter while polls after a wait find the up buffer
 * half full or more (halved each time), back up as they find it nearly
 * empty. */
int link_gdb_poll_ms(const struct sonde_link *l);

/* What the link can carry, measured: bytes per second if every poll took a
 * full up buffer, and a description ("RTT via GDB (...)")
 * for the budget line.  0 when nothing was measured yet.  whole: since
 * the first connect; else since the previous call with whole 0. */
int link_gdb_capacity(const struct sonde_link *l, int whole, double *bytes_per_s, char *what, size_t wl);

#endif /* SONDE_LINK_GDB_H */
