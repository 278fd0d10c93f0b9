/*
 * mp_link.h -- the link `sonde miniprof` talks to a device over: a serial
 * port with its line settings (sources/link_serial.h), or any live link of
 * sources/link.h -- tcp://HOST:PORT (QEMU's -serial tcp:...,server), a
 * tcp-listen:// port, gdb://, unix: -- with one interface: read with a
 * timeout, write all, the name and the last error.
 */
#ifndef MP_LINK_H
#define MP_LINK_H

#include <stddef.h>
#include <sys/types.h>

#include "sources/link_serial.h"

struct mp_link;

/* Open a serial port, configured, its pending input discarded.  NULL with
 * a message in err. */
struct mp_link *mp_link_open_serial(const struct link_serial_cfg *cfg, char *err, size_t errlen);
/* Open a live link (text as for `sonde live`), connected within
 * timeout_ms, what it has already delivered discarded.  NULL with a
 * message in err. */
struct mp_link *mp_link_open_live(const char *text, unsigned timeout_ms, char *err, size_t errlen);
/* 1 when text names a live link rather than a serial port: it has a
 * scheme (tcp://, tcp-listen://, udp://, gdb://) or is unix:PATH. */
int mp_link_is_live(const char *text);

/* Wait up to timeout_ms for data, then read what is there (at most n).
 * > 0 bytes, 0 nothing in time, -1 error (mp_link_error). */
ssize_t mp_link_read(struct mp_link *l, void *buf, size_t n, unsigned timeout_ms);
/* All n bytes within timeout_ms.  0 or -1. */
int mp_link_write(struct mp_link *l, const void *buf, size_t n, unsigned timeout_ms);
const char *mp_link_error(const struct mp_link *l);
const char *mp_link_name(const struct mp_link *l);
void mp_link_close(struct mp_link *l);

#endif /* MP_LINK_H */
