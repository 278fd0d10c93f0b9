/*
 * sonde_rtt.c -- the debug-probe transport (sonde_rtt.h): an RTT-layout
 * control block with one up buffer, which sonde_rtt_drain() fills from
 * Sonde's ring buffer, and one down buffer, whose bytes go to the command
 * parser.
 *
 * Lock-free between one writer and the probe: the writer keeps its own
 * offset in a private copy and publishes it after the data it covers (with
 * a barrier in between), and only reads the offset the probe owns.  An
 * offset the probe leaves out of range (a confused host, a stray write) is
 * never used to index the buffers: the call then does nothing until the
 * probe writes a valid one.
 */
#include "sonde_internal.h"
#include "sonde_rtt.h"

#if SONDE_ENABLED && SONDE_CFG_RTT

/* Orders the data stores before the store of the offset that publishes
 * them, as the probe sees memory: DMB on Arm (ARMv6-M has it too), FENCE on
 * RISC-V, a compiler barrier elsewhere.  A port may define its own. */
#ifndef SONDE_PORT_BARRIER
#if defined(__GNUC__) && defined(__arm__)
#define SONDE_PORT_BARRIER() __asm__ volatile("dmb" ::: "memory")
#elif defined(__GNUC__) && defined(__riscv)
#define SONDE_PORT_BARRIER() __asm__ volatile("fence rw, rw" ::: "memory")
#elif defined(__GNUC__)
#define SONDE_PORT_BARRIER() __asm__ volatile("" ::: "memory")
#else
#define SONDE_PORT_BARRIER() ((void)0)
#endif
#endif

struct sonde_rtt_cb sonde_rtt_cb;

static uint8_t up_buf[SONDE_RTT_UP_SIZE];
static uint8_t down_buf[SONDE_RTT_DOWN_SIZE];
static uint32_t up_wr;   /* the up buffer's write offset: ours */
static uint32_t down_rd; /* the down buffer's read offset: ours */

/* The id, backwards: the string a probe searches for then exists only in
 * the control block, never as a constant it could find first when the
 * constants are in the RAM it scans. */
static const char id_backwards[] = "TTR REGGES";
#define ID_LEN (sizeof id_backwards - 1u)

void sonde_rtt_init(void)
{
	struct sonde_rtt_cb *cb = &sonde_rtt_cb;
	unsigned i;

	cb->id[0] = '\0'; /* a block from before a warm reset is not valid while it changes */
	SONDE_PORT_BARRIER();
	cb->max_up = 1;
	cb->max_down = 1;
	cb->up.name = "Sonde";
	cb->up.buf = up_buf;
	cb->up.size = SONDE_RTT_UP_SIZE;
	cb->up.wr = 0;
	cb->up.rd = 0;
	cb->up.flags = 0; /* no room: write nothing, wait for none */
	cb->down.name = "Sonde";
	cb->down.buf = down_buf;
	cb->down.size = SONDE_RTT_DOWN_SIZE;
	cb->down.wr = 0;
	cb->down.rd = 0;
	cb->down.flags = 0;
	up_wr = 0;
	down_rd = 0;
	for (i = 1; i < sizeof cb->id; i++)
		cb->id[i] = i < ID_LEN ? id_backwards[ID_LEN - 1u - i] : '\0';
	SONDE_PORT_BARRIER();
	cb->id[0] = id_backwards[ID_LEN - 1u];
}

size_t sonde_rtt_fill(size_t (*src)(uint8_t *dst, size_t max))
{
	const uint32_t size = SONDE_RTT_UP_SIZE;
	uint32_t rd = sonde_rtt_cb.up.rd, wr = up_wr;
	size_t total = 0;

	if (rd >= size)
		return 0;
	for (;;) {
		/* Contiguous room from wr: up to rd - 1, or to the end (but not
		 * onto rd == 0, which would look empty). */
		uint32_t room = rd > wr ? rd - wr - 1u : size - wr - (rd == 0u ? 1u : 0u);
		size_t n;

		if (room == 0u)
			break;
		n = src(up_buf + wr, room);
		if (n == 0u)
			break;
		if (n > room) /* a source that ignores max: never past the room */
			n = room;
		wr += (uint32_t)n;
		if (wr == size)
			wr = 0;
		up_wr = wr;
		SONDE_PORT_BARRIER();
		sonde_rtt_cb.up.wr = wr;
		total += n;
	}
	return total;
}

size_t sonde_rtt_drain(void)
{
	return sonde_rtt_fill(sonde_drain);
}

size_t sonde_rtt_unread(void)
{
	uint32_t rd = sonde_rtt_cb.up.rd, wr = up_wr;

	if (rd >= SONDE_RTT_UP_SIZE)
		return 0;
	return wr >= rd ? wr - rd : SONDE_RTT_UP_SIZE - rd + wr;
}

size_t sonde_rtt_read(uint8_t *dst, size_t max)
{
	uint32_t wr = sonde_rtt_cb.down.wr, rd = down_rd;
	size_t n = 0;

	if (wr >= SONDE_RTT_DOWN_SIZE)
		return 0;
	SONDE_PORT_BARRIER(); /* the data the host wrote before wr, read after it */
	while (n < max && rd != wr) {
		dst[n++] = down_buf[rd];
		if (++rd == SONDE_RTT_DOWN_SIZE)
			rd = 0;
	}
	if (n > 0u) {
		down_rd = rd;
		SONDE_PORT_BARRIER();
		sonde_rtt_cb.down.rd = rd;
	}
	return n;
}

size_t sonde_rtt_rx(void)
{
	uint8_t chunk[16];
	size_t n, total = 0;

	while ((n = sonde_rtt_read(chunk, sizeof chunk)) > 0u) {
		sonde_rx_feed(chunk, n);
		total += n;
	}
	return total;
}

#else
typedef int sonde_rtt_disabled_t;
#endif /* SONDE_ENABLED && SONDE_CFG_RTT */
