/*
 * sonde_mp_config.h -- every compile-time setting of the MiniProfiler
 * device module (sonde_mp.h), with its default.
 *
 * Override them like Sonde's own settings: -D on the compiler command line,
 * or in the header named by SONDE_CONFIG_FILE (included by sonde_config.h,
 * which this file includes first).  The module, the port and the
 * application must be compiled with the same settings.
 */
#ifndef SONDE_MP_CONFIG_H
#define SONDE_MP_CONFIG_H

#include "sonde_config.h"

/* 1: the module is compiled in.  0: its functions are empty inline
 * functions and its sources compile to nothing. */
#ifndef SONDE_MP_ENABLED
#define SONDE_MP_ENABLED 1
#endif

/* Finished calls the ring holds until the drain sends them (a power of 2).
 * 16 bytes each.  A call that finds it full is lost and counted
 * (buffer_overflows in STATUS). */
#ifndef SONDE_MP_RECORDS
#define SONDE_MP_RECORDS 64u
#endif

/* Deepest call nesting followed, interrupts nesting into the code they
 * interrupt included.  9 bytes a level.  A call deeper than this is not
 * recorded (and counted as an overflow while profiling); the ones around
 * it are. */
#ifndef SONDE_MP_DEPTH
#define SONDE_MP_DEPTH 32u
#endif

/* Records in one PROFILE_DATA packet at most (the protocol document's
 * example sends 20: 291 bytes).  A packet takes what is there, up to this:
 * fewer records go out at once rather than waiting. */
#ifndef SONDE_MP_PACKET_RECORDS
#define SONDE_MP_PACKET_RECORDS 20u
#endif

/* Answers (ACK, NACK, METADATA, STATUS) waiting for the drain.  16 bytes
 * each.  A command answered while the queue is full gets no answer (the
 * host times out; counted). */
#ifndef SONDE_MP_REPLIES
#define SONDE_MP_REPLIES 4u
#endif

/* Ticks of the port's clock (SONDE_PORT_TS) per microsecond: the wire's
 * times are microseconds.  Default: SONDE_PORT_TS_HZ / 1000000, which must
 * then be a whole number (25 MHz: 25). */
#ifndef SONDE_MP_TICKS_PER_US
#define SONDE_MP_TICKS_PER_US (SONDE_PORT_TS_HZ / 1000000u)
#endif

/* A command whose bytes come more than this many microseconds apart is
 * dropped at the gap (the host that sent it went away mid-packet), so the
 * next host's command is read from its start. */
#ifndef SONDE_MP_RX_GAP_US
#define SONDE_MP_RX_GAP_US 100000u
#endif

/* 1: sonde_mp_init() queues a METADATA packet, as the protocol says a
 * device does on start-up.  0: only in answer to GET_METADATA. */
#ifndef SONDE_MP_META_AT_INIT
#define SONDE_MP_META_AT_INIT 1
#endif

/* METADATA's mcu_clock_hz: the CPU clock.  Default: the port's clock
 * rate. */
#ifndef SONDE_MP_CPU_HZ
#define SONDE_MP_CPU_HZ SONDE_PORT_TS_HZ
#endif

#if SONDE_MP_RECORDS < 2 || (SONDE_MP_RECORDS & (SONDE_MP_RECORDS - 1u)) != 0
#error "SONDE_MP_RECORDS must be a power of 2, at least 2"
#endif
#if SONDE_MP_DEPTH < 1 || SONDE_MP_DEPTH > 65535
#error "SONDE_MP_DEPTH must be 1..65535 (the wire's depth is 16 bits)"
#endif
#if SONDE_MP_PACKET_RECORDS < 1 || SONDE_MP_PACKET_RECORDS > 4000
#error "SONDE_MP_PACKET_RECORDS must be 1..4000 (a packet's length is 16 bits)"
#endif
#if SONDE_MP_REPLIES < 1 || SONDE_MP_REPLIES > 255
#error "SONDE_MP_REPLIES must be 1..255"
#endif

#endif /* SONDE_MP_CONFIG_H */
