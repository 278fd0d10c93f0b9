/*
 * sonde_config.h -- every compile-time setting of the Sonde target library,
 * with its default.
 *
 * An application overrides any of them by defining it on the compiler command
 * line (-DSONDE_STR_MAX=63) or in its own header named by SONDE_CONFIG_FILE
 * (-DSONDE_CONFIG_FILE='"my_sonde_cfg.h"'), which is included first so that
 * its definitions win.  The library, the port and the application must all be
 * compiled with the same settings.
 */
#ifndef SONDE_CONFIG_H
#define SONDE_CONFIG_H

#include <stdint.h>

#ifdef SONDE_CONFIG_FILE
#include SONDE_CONFIG_FILE
#endif

/* 1: tracing compiled in.  0: every API call is an empty inline function
 * (arguments are still type-checked) and the library sources compile to
 * nothing. */
#ifndef SONDE_ENABLED
#define SONDE_ENABLED 1
#endif

/* 1 (default): every timed record has a fast path of its own shape (about
 * 45 to 110 Cortex-M3 instructions a record, docs/performance.md) -- the
 * library is then about 3 KB of code.  0: every record is written by the
 * slow path's byte-by-byte writer (a few hundred instructions a record),
 * and the library is half that size (for a very small flash). */
#ifndef SONDE_CFG_FAST_PATH
#define SONDE_CFG_FAST_PATH 1
#endif

/* Longest string sent (DICT names, STR arguments), in characters without the
 * NUL.  Longer strings are cut.  At most 255 (docs/protocol.md section 4). */
#ifndef SONDE_STR_MAX
#define SONDE_STR_MAX 255u
#endif

/* Application-defined build id carried in TARGET_INFO (a firmware CRC, a
 * VCS hash prefix, ...). */
#ifndef SONDE_BUILD_ID
#define SONDE_BUILD_ID 0u
#endif

/* Bytes in an address (FUNC_ENTER_A, FUNC argument, TARGET_INFO addr_size):
 * 4 or 8.  Defaults to the size of a data pointer. */
#ifndef SONDE_ADDR_SIZE
#if UINTPTR_MAX > 0xFFFFFFFFu
#define SONDE_ADDR_SIZE 8u
#else
#define SONDE_ADDR_SIZE 4u
#endif
#endif

/* 1 when the CPU is big-endian.  Only reported in TARGET_INFO: the wire is
 * little-endian whatever the CPU, and the library writes it byte by byte. */
#ifndef SONDE_BIG_ENDIAN
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SONDE_BIG_ENDIAN 1
#else
#define SONDE_BIG_ENDIAN 0
#endif
#endif

/* Largest DATA, after the timestamp, of a user or log record built with
 * sonde_user_begin()/sonde_log_begin() ... sonde_user_end().  The record is
 * assembled in a static buffer of this size (so that it is written whole or
 * not at all); arguments that do not fit make the record refused, except a
 * string, which is cut to fit.  The one-call forms (sonde_user_u32x2, ...)
 * do not use it. */
#ifndef SONDE_RECORD_MAX
#define SONDE_RECORD_MAX 128u
#endif

/* Bytes sonde_drain() copies per critical section: the longest time it masks
 * interrupts is the time to copy this many bytes. */
#ifndef SONDE_DRAIN_CHUNK
#define SONDE_DRAIN_CHUNK 32u
#endif

/* SONDE_ASSERT(c): the ring's invariants (rp and wp inside the buffer, the
 * fast path's limit leaving room for its worst case, room made when asked,
 * a drain that takes only what was written) stated where they are relied
 * on.  Off by default: nothing is compiled, the target pays no byte.  A
 * port may define it (to a breakpoint, or a function that logs and halts);
 * SONDE_CHECKS=1 (the project's Debug, sanitizer and fuzz builds of the
 * host-side tests) makes it trap. */
#ifndef SONDE_ASSERT
#if defined(SONDE_CHECKS) && SONDE_CHECKS
#define SONDE_ASSERT(c) ((c) ? (void)0 : __builtin_trap())
#else
#define SONDE_ASSERT(c) ((void)0)
#endif
#endif

/* Removed in protocol version 2: every gap below 2^28 ticks is written by
 * the fast path, so it needs no tick hook (sonde_tick() is optional). */
#ifdef SONDE_CFG_TICK_HOOK
#error "SONDE_CFG_TICK_HOOK is gone: records need no tick hook any more (sonde.h, sonde_tick)"
#endif

#if SONDE_STR_MAX > 255
#error "SONDE_STR_MAX must be at most 255 (docs/protocol.md section 4)"
#endif
#if SONDE_ADDR_SIZE != 4 && SONDE_ADDR_SIZE != 8
#error "SONDE_ADDR_SIZE must be 4 or 8"
#endif
#if SONDE_RECORD_MAX < 16 || SONDE_RECORD_MAX > 1000
#error "SONDE_RECORD_MAX must be 16..1000 (a receiver drops frames over 1024 bytes)"
#endif
#if SONDE_DRAIN_CHUNK < 1
#error "SONDE_DRAIN_CHUNK must be at least 1"
#endif

/* ==== receive channel (docs/protocol.md section 9) =======================
 * The command parser (sonde_rx_byte/sonde_rx_feed) and the commands it
 * executes.  RAM: SONDE_CFG_RX_MAX + 4 bytes of parser state, and a
 * pointer, a size and a flag byte per region. */

/* 1: the receive channel is compiled in.  0: sonde_rx_* are empty inline
 * functions and sonde_rx.c/sonde_cmd.c compile to nothing. */
#ifndef SONDE_CFG_RX
#define SONDE_CFG_RX 1
#endif

/* Longest command frame taken, in un-escaped bytes (SEQ, CMD, DATA, CHK).
 * Longer frames are answered TOO_LONG.  At least 35 (LOC_FILTER), at most
 * 255. */
#ifndef SONDE_CFG_RX_MAX
#define SONDE_CFG_RX_MAX 40u
#endif

/* Memory regions the host may PEEK (and POKE) that sonde_rx_region() can
 * register. */
#ifndef SONDE_CFG_RX_REGIONS
#define SONDE_CFG_RX_REGIONS 4u
#endif

/* 1: the POKE command is compiled in (writes only inside regions registered
 * with SONDE_RX_WRITE).  0: POKE is answered NOT_SUPPORTED. */
#ifndef SONDE_CFG_POKE
#define SONDE_CFG_POKE 0
#endif

#if SONDE_CFG_RX_MAX < 35 || SONDE_CFG_RX_MAX > 255
#error "SONDE_CFG_RX_MAX must be 35..255 (LOC_FILTER is 35 bytes; the parser counts in a byte)"
#endif
#if SONDE_CFG_RX_REGIONS < 1 || SONDE_CFG_RX_REGIONS > 255
#error "SONDE_CFG_RX_REGIONS must be 1..255"
#endif

/* ==== debug-probe transport (sonde_rtt.h, docs/live.md) ==================
 * A control block in the layout of SEGGER's RTT with one up buffer (the
 * trace) and one down buffer (commands).  RAM: 72 bytes of control block
 * plus the two buffers.  It costs nothing in an image that does not call
 * sonde_rtt_*() and links with --gc-sections (or from a library). */

/* 1: sonde_rtt_* compiled in.  0: they are empty inline functions. */
#ifndef SONDE_CFG_RTT
#define SONDE_CFG_RTT 1
#endif

/* Bytes of the up buffer (target -> probe); it holds one byte less.  With
 * Sonde's own ring buffer it is what the target can hold while the host
 * does not read: at T bytes/s of trace, a host that polls every P seconds
 * loses nothing while T * P stays below the two sizes together. */
#ifndef SONDE_RTT_UP_SIZE
#define SONDE_RTT_UP_SIZE 1024u
#endif

/* Bytes of the down buffer (probe -> target): commands, which the host
 * writes in pieces when they do not fit. */
#ifndef SONDE_RTT_DOWN_SIZE
#define SONDE_RTT_DOWN_SIZE 64u
#endif

#if SONDE_RTT_UP_SIZE < 16 || SONDE_RTT_DOWN_SIZE < 4
#error "SONDE_RTT_UP_SIZE must be at least 16 and SONDE_RTT_DOWN_SIZE at least 4"
#endif

#endif /* SONDE_CONFIG_H */
