/*
 * sonde_mp_internal.h -- the state of the MiniProfiler device module,
 * shared by its three parts: sonde_mp.c (the hooks, the ring of finished
 * calls, the commands' effects), sonde_mp_rx.c (the command packets) and
 * sonde_mp_tx.c (the response packets, built as the drain sends them).
 * Not a public header.
 *
 * The call stack is shared by every context: interrupts nest, so an ISR's
 * calls push above the code it interrupted and pop before it resumes.  A
 * hook reserves its level before it writes it (enter) or reads its level
 * before it gives it back (exit), so the nesting needs no lock.  The ring
 * has many writers (any context's exit hook) and one reader (the drain):
 * a record is reserved and written in one critical section, which also
 * reads the clock, so the exit times in the ring never go back; the drain
 * owns r and moves it only past records it has copied.
 */
#ifndef SONDE_MP_INTERNAL_H
#define SONDE_MP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sonde_mp.h"
#include "sonde_port.h"

#if SONDE_MP_ENABLED

#if SONDE_MP_TICKS_PER_US < 1
#error "the port's clock is slower than 1 MHz: set SONDE_MP_TICKS_PER_US (sonde_mp_config.h)"
#endif

/* A call in progress. */
struct sonde_mp_frame {
	uint32_t fn;    /* its address, as the hook got it */
	uint32_t t;     /* clock at entry */
};

/* A finished call in the ring: its exit time and its duration in clock
 * ticks (the drain turns them into microseconds). */
struct sonde_mp_rec {
	uint32_t fn;
	uint32_t exit;
	uint32_t dur;
	uint32_t depth;
};

/* An answer waiting for the drain.  It goes out once every record that was
 * in the ring when its command ran (ring index mark) has gone out. */
struct sonde_mp_reply {
	uint32_t mark;
	uint8_t type;       /* SONDE_MP_RSP_* */
	uint8_t status[10]; /* STATUS: the payload, taken when the command ran */
};

struct sonde_mp_state {
	/* the hooks */
	volatile uint32_t depth;           /* calls open, all contexts */
	volatile uint8_t run;              /* while profiling: this session's number (1..255); 0 off */
	uint8_t session;                   /* the last session number given */
	struct sonde_mp_frame stk[SONDE_MP_DEPTH];
	uint8_t stk_run[SONDE_MP_DEPTH];   /* the session each open call began in (0: none) */
	/* the ring: w written by the hooks, r by the drain (free-running) */
	struct sonde_mp_rec rec[SONDE_MP_RECORDS];
	volatile uint32_t w, r;
	volatile uint32_t discard;         /* RESET_BUFFERS: the drain skips to here */
	/* answers: rq_w by the command context, rq_r by the drain */
	struct sonde_mp_reply rq[SONDE_MP_REPLIES];
	volatile uint32_t rq_w, rq_r;
	sonde_mp_stats_t st;               /* counters (st.profiling, st.pending unused here) */
	uint32_t build_id;
	char fw_version[16];
	int (*cb)(uint8_t cmd, const uint8_t *payload, uint8_t len);
};

extern struct sonde_mp_state sonde_mp_g;

/* Keeps the compiler from moving memory accesses across it: an answer's
 * slot is written before the index that publishes it, and read after. */
#if defined(__GNUC__)
#define SONDE_MP_BARRIER() __asm__ volatile("" ::: "memory")
#else
#define SONDE_MP_BARRIER() ((void)0)
#endif

/* Packet framing (sonde_mp_tx.c). */
#define SONDE_MP_HDR0 0xAAu
#define SONDE_MP_HDR1 0x55u
#define SONDE_MP_END  0x0Au
#define SONDE_MP_META_LEN 28u
#define SONDE_MP_STATUS_LEN 10u
#define SONDE_MP_REC_LEN 14u

/* CRC-16/CCITT (polynomial 0x1021, start 0xFFFF, not reflected, no final
 * XOR) of n bytes, continuing crc. */
uint16_t sonde_mp_crc16(uint16_t crc, const uint8_t *p, size_t n);

/* The drain's state, empty, its time base on the clock now (sonde_mp_tx.c). */
void sonde_mp_tx_init(uint32_t now);

/* A command packet (12 bytes, checksum good): run it and queue its answer
 * (sonde_mp.c).  An answer of NACK alone: sonde_mp_nack(). */
void sonde_mp_command(const uint8_t *pkt);
void sonde_mp_nack(void);

/* Little-endian stores, byte by byte (the payloads are packed). */
static inline void sonde_mp_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void sonde_mp_put32(uint8_t *p, uint32_t v)
{
	sonde_mp_put16(p, v);
	sonde_mp_put16(p + 2, v >> 16);
}

#endif /* SONDE_MP_ENABLED */

#endif /* SONDE_MP_INTERNAL_H */
