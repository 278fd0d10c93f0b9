/*
 * sonde_mp.h -- the device side of the MiniProfiler protocol
 * (docs/proto-miniprof.md, "The device side"): function profiling that the
 * MiniProfiler host tools, and `sonde miniprof`, read.
 *
 * C99, freestanding (no malloc, no stdio), built on Sonde's target
 * machinery: the port's clock and critical section (sonde_port.h), the
 * -finstrument-functions hooks Sonde's profiling uses (docs/profiling.md),
 * a ring buffer of finished calls, a byte-at-a-time receive path for the
 * host's commands like sonde_rx_byte(), and a drain with sonde_drain()'s
 * shape, so the bytes leave by any transport (a UART, the RTT up buffer:
 * sonde_rtt_fill(sonde_mp_drain)).
 *
 *     void __cyg_profile_func_enter(void *fn, void *site) { sonde_mp_enter(fn); }
 *     void __cyg_profile_func_exit(void *fn, void *site)  { sonde_mp_exit(fn); }
 *     void UART_RX_IRQHandler(void) { sonde_mp_rx_byte(UART->DATA); }
 *     idle: n = sonde_mp_drain(buf, sizeof buf); uart_write(buf, n);
 *
 * (the hooks and whatever they call built without -finstrument-functions,
 * or marked no_instrument_function).  A call is recorded when it returns,
 * if it began and ended while profiling was on (START_PROFILING, no
 * STOP_PROFILING since): entry time and duration in microseconds, its
 * depth, its address.  Interrupts nest into the calls they interrupt, so
 * one call tree holds the whole program -- which is what the protocol can
 * carry: it has no thread ids.  Under a preemptive RTOS, instrument the
 * code of one task (and interrupts) only; calls whose exit does not match
 * the latest entry are not recorded, and counted.
 *
 * Contexts: sonde_mp_enter/exit from any context, ISRs included;
 * sonde_mp_rx_byte/feed from one context at a time (it runs the commands);
 * sonde_mp_drain from one context at a time.  Settings: sonde_mp_config.h.
 */
#ifndef SONDE_MP_H
#define SONDE_MP_H

#include <stddef.h>
#include <stdint.h>

#include "sonde_mp_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Command codes (host -> device) and response types (device -> host). */
#define SONDE_MP_CMD_START      0x01u
#define SONDE_MP_CMD_STOP       0x02u
#define SONDE_MP_CMD_STATUS     0x03u
#define SONDE_MP_CMD_RESET      0x04u
#define SONDE_MP_CMD_METADATA   0x05u
#define SONDE_MP_CMD_SET_CONFIG 0x06u

#define SONDE_MP_RSP_ACK          0x01u
#define SONDE_MP_RSP_NACK         0x02u
#define SONDE_MP_RSP_METADATA     0x03u
#define SONDE_MP_RSP_STATUS       0x04u
#define SONDE_MP_RSP_PROFILE_DATA 0x05u

/* The module's counters (sonde_mp_get_stats). */
typedef struct {
	uint8_t profiling;        /* 1 between START and STOP */
	uint32_t captured;        /* calls recorded (STATUS records_captured) */
	uint32_t overflows;       /* calls lost: ring full or too deep (STATUS buffer_overflows) */
	uint32_t too_deep;        /* of which deeper than SONDE_MP_DEPTH */
	uint32_t mismatched;      /* exits that did not match the latest entry: not recorded */
	uint32_t unmatched;       /* exits without an entry (the hooks started mid-call) */
	uint32_t commands;        /* commands executed (answered ACK, METADATA or STATUS) */
	uint32_t nacks;           /* packets answered NACK */
	uint32_t rx_garbage;      /* bytes skipped looking for a command's 0x55 */
	uint32_t rx_gaps;         /* commands dropped after a pause of SONDE_MP_RX_GAP_US */
	uint32_t replies_lost;    /* answers that found the queue full */
	uint32_t pending;         /* calls in the ring, not sent yet */
} sonde_mp_stats_t;

#if SONDE_MP_ENABLED

/* Start with the ring empty and profiling off.  build_id goes out in
 * METADATA (elf_build_id: by the protocol, the CRC32 of the firmware's
 * .text section -- sonde_mp_crc32() computes it); fw_version too (up to 15
 * characters).  With SONDE_MP_META_AT_INIT, METADATA is queued. */
void sonde_mp_init(uint32_t build_id, const char *fw_version);

/* The hooks' work: a function fn was entered / is returning. */
void sonde_mp_enter(const void *fn);
void sonde_mp_exit(const void *fn);

/* The host's command bytes, in order.  A command runs when its 12th byte
 * arrives, inside this call; its answer is queued for the drain. */
void sonde_mp_rx_byte(uint8_t b);
void sonde_mp_rx_feed(const uint8_t *p, size_t n);

/* The application's view of commands: cb is called after each valid
 * command took effect, with its code and payload.  For SET_CONFIG (whose
 * payload the protocol reserves) its return value decides the answer: 0
 * ACK, other NACK; without a callback SET_CONFIG is answered ACK. */
void sonde_mp_set_command_callback(int (*cb)(uint8_t cmd, const uint8_t *payload, uint8_t len));

/* Up to max bytes of response packets: answers and PROFILE_DATA, in the
 * order the host must see them (an answer after every call recorded before
 * its command).  Returns the count, 0 when there is nothing to send.  Any
 * chunk size; never waits. */
size_t sonde_mp_drain(uint8_t *dst, size_t max);
/* One byte, or -1 (for a UART transmit interrupt). */
int sonde_mp_drain_byte(void);

void sonde_mp_get_stats(sonde_mp_stats_t *out);

/* CRC-32 (the zlib / IEEE 802.3 one: reflected polynomial 0xEDB88320,
 * initial and final XOR 0xFFFFFFFF) of n bytes: METADATA's build id is the
 * CRC32 of the .text section. */
uint32_t sonde_mp_crc32(const void *p, size_t n);

#else /* !SONDE_MP_ENABLED */

static inline void sonde_mp_init(uint32_t b, const char *v) { (void)b; (void)v; }
static inline void sonde_mp_enter(const void *f) { (void)f; }
static inline void sonde_mp_exit(const void *f) { (void)f; }
static inline void sonde_mp_rx_byte(uint8_t b) { (void)b; }
static inline void sonde_mp_rx_feed(const uint8_t *p, size_t n) { (void)p; (void)n; }
static inline void sonde_mp_set_command_callback(int (*cb)(uint8_t c, const uint8_t *p, uint8_t l)) { (void)cb; }
static inline size_t sonde_mp_drain(uint8_t *d, size_t m) { (void)d; (void)m; return 0; }
static inline int sonde_mp_drain_byte(void) { return -1; }
static inline void sonde_mp_get_stats(sonde_mp_stats_t *o) { (void)o; }
static inline uint32_t sonde_mp_crc32(const void *p, size_t n) { (void)p; (void)n; return 0; }

#endif /* SONDE_MP_ENABLED */

#ifdef __cplusplus
}
#endif

#endif /* SONDE_MP_H */
