/*
 * sonde_mp_rx.c -- the host's command packets, byte by byte (sonde_mp.h):
 * 0x55, the command, the payload length, 8 payload bytes, and the sum of
 * the 11 bytes before, & 0xFF.
 *
 * Any byte sequence is safe: bytes before a 0x55 are skipped (counted); a
 * packet whose checksum is wrong is answered NACK, and reading resumes at
 * the next 0x55 inside it, so a byte lost or added in one command costs
 * that command, not the ones after it; a length over 8 or an unknown code
 * with a good checksum is answered NACK (sonde_mp.c).  A packet whose
 * bytes stop for SONDE_MP_RX_GAP_US (its host went away mid-packet) is
 * dropped at the pause, so the next host's command starts afresh.
 *
 * The state belongs to the one context that feeds the parser.
 */
#include "sonde_mp_internal.h"

#if SONDE_MP_ENABLED

#define RX_LEN 12u
#define RX_HDR 0x55u
#define RX_GAP ((uint32_t)SONDE_MP_RX_GAP_US * SONDE_MP_TICKS_PER_US)

static struct {
	uint8_t p[RX_LEN];
	uint8_t n;
	uint32_t last;  /* clock at the last byte taken */
} rx;

/* A whole packet: run it, or NACK it and look for a header after its
 * first byte. */
static void packet(void)
{
	uint8_t sum = 0;
	unsigned i, k;

	for (i = 0; i + 1u < RX_LEN; i++)
		sum = (uint8_t)(sum + rx.p[i]);
	if (sum == rx.p[RX_LEN - 1u]) {
		rx.n = 0;
		sonde_mp_command(rx.p);
		return;
	}
	sonde_mp_nack();
	for (k = 1; k < RX_LEN && rx.p[k] != RX_HDR; k++)
		sonde_mp_g.st.rx_garbage++;
	for (i = k; i < RX_LEN; i++)
		rx.p[i - k] = rx.p[i];
	rx.n = (uint8_t)(RX_LEN - k);
}

void sonde_mp_rx_byte(uint8_t b)
{
	uint32_t now = SONDE_PORT_TS();

	if (rx.n > 0u && now - rx.last > RX_GAP) {
		rx.n = 0;
		sonde_mp_g.st.rx_gaps++;
	}
	rx.last = now;
	if (rx.n == 0u && b != RX_HDR) {
		sonde_mp_g.st.rx_garbage++;
		return;
	}
	rx.p[rx.n++] = b;
	if (rx.n == RX_LEN)
		packet();
}

void sonde_mp_rx_feed(const uint8_t *p, size_t n)
{
	while (n--)
		sonde_mp_rx_byte(*p++);
}

#else
typedef int sonde_mp_rx_disabled_t;
#endif /* SONDE_MP_ENABLED */
