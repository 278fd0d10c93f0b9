/*
 * sonde_rx.c -- the receive channel's frame parser (docs/protocol.md §9):
 * un-escapes the host's command frames into one small buffer as the bytes
 * arrive, and at each flag hands a checked frame to sonde_cmd.c.
 *
 * Any byte sequence is safe: the buffer index never passes
 * SONDE_CFG_RX_MAX (a longer frame is remembered as too long and answered
 * TOO_LONG at its flag), and a flag always ends the frame, whatever came
 * before it, so the parser is back in step after every flag.  Frames of
 * fewer than 3 bytes (SEQ, CMD, CHK), empty frames included, are dropped
 * without a reply.  An escape directly before the flag (7D 7E, an aborted
 * frame, which a sender never produces) makes the frame's checksum
 * unverifiable: it is answered BAD_CHECKSUM.
 *
 * The state below belongs to the one context that feeds the parser; it has
 * no lock (sonde.h: one context at a time).
 */
#include "sonde_internal.h"
#include "sonde_cmd.h"

#if SONDE_ENABLED && SONDE_CFG_RX

static struct {
	uint8_t f[SONDE_CFG_RX_MAX]; /* the frame so far, un-escaped */
	uint8_t n;                   /* bytes in f */
	uint8_t sum;                 /* their sum, mod 256 */
	uint8_t esc;                 /* the previous byte was 0x7D */
	uint8_t over;                /* the frame outgrew f: discard to the flag */
} rx;

/* The flag: answer or run the frame, and start the next one.  The state is
 * reset first; rx.f keeps the frame until the next byte arrives. */
static void rx_flag(void)
{
	unsigned n = rx.n;
	int bad = rx.esc || rx.sum != SONDE_GOOD_SUM, over = rx.over;

	rx.n = 0;
	rx.sum = 0;
	rx.esc = 0;
	rx.over = 0;
	if (over) /* n == SONDE_CFG_RX_MAX >= 3 */
		sonde_cmd_status(rx.f[0], rx.f[1], SONDE_ST_TOO_LONG);
	else if (n < 3u)
		return;
	else if (bad)
		sonde_cmd_status(rx.f[0], rx.f[1], SONDE_ST_BAD_CHECKSUM);
	else
		sonde_cmd_exec(rx.f, n - 1u);
}

void sonde_rx_byte(uint8_t b)
{
	if (b == SONDE_FLAG) {
		rx_flag();
		return;
	}
	if (rx.esc) {
		b ^= SONDE_ESC_XOR;
		rx.esc = 0;
	} else if (b == SONDE_ESC) {
		rx.esc = 1;
		return;
	}
	if (rx.n < SONDE_CFG_RX_MAX) {
		rx.f[rx.n++] = b;
		rx.sum = (uint8_t)(rx.sum + b);
	} else {
		rx.over = 1;
	}
}

void sonde_rx_feed(const uint8_t *p, size_t n)
{
	while (n--)
		sonde_rx_byte(*p++);
}

#else
typedef int sonde_rx_disabled_t;
#endif /* SONDE_ENABLED && SONDE_CFG_RX */
