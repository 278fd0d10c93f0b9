/*
 * sonde_rtt.h -- the debug-probe transport: Sonde's trace leaves through a
 * ring buffer in RAM that a debug probe reads while the CPU runs, and the
 * host's commands arrive through a second one (docs/live.md, "Through the
 * debug probe").
 *
 * The buffers are described by a control block in the layout that SEGGER
 * documented for its Real Time Transfer (RTT), so the probe tools that
 * already understand it (J-Link, OpenOCD's `rtt`, probe-rs, pyOCD) find and
 * read it, and `sonde live gdb://HOST:PORT` reads it through any GDB
 * server.  On a 32-bit CPU:
 *
 *   offset  size  field
 *   0       16    id: "SEGGER RTT", NUL-padded (written last by init)
 *   16      4     number of up buffers (target -> host): 1
 *   20      4     number of down buffers (host -> target): 1
 *   24      24    up buffer 0:   name, buffer, size, write offset, read offset, flags
 *   48      24    down buffer 0: name, buffer, size, write offset, read offset, flags
 *
 * Each buffer is a ring of `size` bytes; it is empty when the two offsets
 * are equal and holds at most size - 1 bytes.  The writer (the target for
 * the up buffer, the host for the down buffer) owns the write offset, the
 * reader owns the read offset: each side writes only its own offset, after
 * the data it covers, so the two need no lock.  Flags 0: a writer that
 * finds no room writes nothing and loses nothing -- the trace stays in
 * Sonde's ring buffer, whose own accounting (overwritten/refused records,
 * DROPS) says exactly what a host that polls too slowly made the target
 * drop.
 *
 * One context writes the up buffer (the one that calls sonde_rtt_drain or
 * sonde_rtt_fill) and one context reads the down buffer (sonde_rtt_rx,
 * sonde_rtt_read); the record calls stay ISR-safe as ever.  Compiled out
 * with SONDE_CFG_RTT 0; sizes in sonde_config.h.
 */
#ifndef SONDE_RTT_H
#define SONDE_RTT_H

#include <stddef.h>
#include <stdint.h>

#include "sonde_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The control block's id, as probe tools search for it. */
#define SONDE_RTT_ID "SEGGER RTT"

/* One ring buffer's descriptor: 24 bytes with 32-bit pointers. */
struct sonde_rtt_buf {
	const char *name;
	uint8_t *buf;
	uint32_t size;
	volatile uint32_t wr; /* written by the writer only */
	volatile uint32_t rd; /* written by the reader only */
	uint32_t flags;
};

struct sonde_rtt_cb {
	volatile char id[16];
	int32_t max_up;
	int32_t max_down;
	struct sonde_rtt_buf up;
	struct sonde_rtt_buf down;
};

#if SONDE_ENABLED && SONDE_CFG_RTT

/* The control block: its symbol is how `sonde live gdb://` finds it in the
 * ELF (--elf), without scanning RAM. */
extern struct sonde_rtt_cb sonde_rtt_cb;

/* Set up the control block (empty buffers; the id last, so that a probe
 * never finds a half-made block).  Call once, before the first drain;
 * calling it again (after a warm reset) starts both buffers empty. */
void sonde_rtt_init(void);

/* Move trace bytes from Sonde's ring buffer (sonde_drain) into the up
 * buffer until it is full or the ring is empty; returns the count.  Never
 * waits. */
size_t sonde_rtt_drain(void);

/* The same from any source with sonde_drain's signature (another
 * protocol's drain, e.g. sonde_mp_drain). */
size_t sonde_rtt_fill(size_t (*src)(uint8_t *dst, size_t max));

/* Bytes in the up buffer that the probe has not read yet. */
size_t sonde_rtt_unread(void);

/* Up to max bytes the host wrote into the down buffer; returns the count. */
size_t sonde_rtt_read(uint8_t *dst, size_t max);

/* Everything the host wrote into the down buffer, fed to the command
 * parser (sonde_rx_feed); returns the count.  Call from one context, the
 * one that may run commands (like a UART receive interrupt). */
size_t sonde_rtt_rx(void);

#else /* compiled out */

static inline void sonde_rtt_init(void) {}
static inline size_t sonde_rtt_drain(void) { return 0; }
static inline size_t sonde_rtt_fill(size_t (*src)(uint8_t *dst, size_t max)) { (void)src; return 0; }
static inline size_t sonde_rtt_unread(void) { return 0; }
static inline size_t sonde_rtt_read(uint8_t *dst, size_t max) { (void)dst; (void)max; return 0; }
static inline size_t sonde_rtt_rx(void) { return 0; }

#endif /* SONDE_ENABLED && SONDE_CFG_RTT */

#ifdef __cplusplus
}
#endif

#endif /* SONDE_RTT_H */
