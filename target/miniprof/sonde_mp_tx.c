/*
 * sonde_mp_tx.c -- the response packets, built while the drain sends them
 * (sonde_mp.h): AA 55, type, length (u16), payload, CRC-16/CCITT of all
 * that (u16), 0x0A; little-endian throughout (docs/proto-miniprof.md).
 *
 * An answer is built whole into a small staging buffer.  A PROFILE_DATA
 * packet is too long for that: its header is staged, then one record at a
 * time -- read from the ring, turned into microseconds, and only then is
 * the ring's slot given back -- then its CRC and end.  The CRC is summed
 * over the bytes as they are staged, so the hooks never pay for it.
 *
 * Order: an answer goes out once every record that was in the ring when
 * its command ran has gone out (its mark), so the host reads the calls
 * recorded before STOP_PROFILING ahead of the ACK, and GET_STATUS's
 * figures after the calls they count.
 *
 * Times: the ring holds the clock at exit and the duration in ticks.  Exit
 * times never go back along the ring, so each is unwrapped against a base
 * (a tick count and the microsecond it is, kept on a whole microsecond)
 * that follows the last exit sent -- and the clock itself whenever the
 * ring is empty, so the base never falls 2^32 ticks behind while the
 * drain runs at least once per 2^32 ticks (171 s at 25 MHz).  Entry and
 * exit are both turned into microseconds and the duration is their
 * difference, so a callee never starts before or ends after its caller.
 */
#include "sonde_mp_internal.h"

#if SONDE_MP_ENABLED

#define TX_K SONDE_MP_TICKS_PER_US

static struct {
	uint8_t b[5 + SONDE_MP_META_LEN + 3]; /* staged bytes: the longest is a METADATA packet */
	uint8_t pos, len;
	uint16_t crc;
	uint8_t in_data;                   /* a PROFILE_DATA packet is on its way */
	uint16_t left;                     /* ... with this many records still to stage */
	uint32_t base_tick, base_us;
} tx;

uint16_t sonde_mp_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	/* The byte-wise form of the 0x1021 polynomial's division: no table. */
	while (n--) {
		uint32_t x = ((uint32_t)crc >> 8 ^ *p++) & 0xFFu;

		x ^= x >> 4;
		crc = (uint16_t)((uint32_t)crc << 8 ^ x << 12 ^ x << 5 ^ x);
	}
	return crc;
}

/* Stage n bytes of a packet (summed into its CRC). */
static void stage(const uint8_t *p, uint8_t n)
{
	uint8_t i;

	for (i = 0; i < n; i++)
		tx.b[i] = p[i];
	tx.crc = sonde_mp_crc16(tx.crc, p, n);
	tx.pos = 0;
	tx.len = n;
}

static void stage_header(uint8_t type, uint16_t len)
{
	uint8_t h[5];

	h[0] = SONDE_MP_HDR0;
	h[1] = SONDE_MP_HDR1;
	h[2] = type;
	sonde_mp_put16(h + 3, len);
	tx.crc = 0xFFFFu;
	stage(h, sizeof h);
}

/* The CRC and the end marker, after the staged bytes. */
static void stage_end(void)
{
	sonde_mp_put16(tx.b + tx.len, tx.crc);
	tx.b[tx.len + 2u] = SONDE_MP_END;
	tx.len = (uint8_t)(tx.len + 3u);
}

/* An answer, whole. */
static void stage_reply(const struct sonde_mp_reply *q)
{
	const struct sonde_mp_state *g = &sonde_mp_g;
	uint8_t p[SONDE_MP_META_LEN], n = 0;
	unsigned i;

	if (q->type == SONDE_MP_RSP_METADATA) {
		sonde_mp_put32(p, SONDE_MP_CPU_HZ);
		sonde_mp_put32(p + 4, 1000000u); /* the times are microseconds */
		sonde_mp_put32(p + 8, g->build_id);
		for (i = 0; i < 16u; i++)
			p[12 + i] = (uint8_t)g->fw_version[i];
		n = SONDE_MP_META_LEN;
	} else if (q->type == SONDE_MP_RSP_STATUS) {
		for (i = 0; i < SONDE_MP_STATUS_LEN; i++)
			p[i] = q->status[i];
		n = SONDE_MP_STATUS_LEN;
	}
	stage_header(q->type, n);
	for (i = 0; i < n; i++)
		tx.b[5 + i] = p[i];
	tx.crc = sonde_mp_crc16(tx.crc, p, n);
	tx.len = (uint8_t)(5u + n);
	stage_end();
}

/* The base moved up to the clock (read with the ring empty), by whole
 * microseconds: the microseconds keep counting across the clock's wrap. */
static void base_to(uint32_t now)
{
	uint32_t q = (now - tx.base_tick) / TX_K;

	tx.base_tick += q * TX_K;
	tx.base_us += q;
}

void sonde_mp_tx_init(uint32_t now)
{
	tx.pos = tx.len = 0;
	tx.in_data = 0;
	tx.left = 0;
	tx.base_tick = now - now % TX_K;
	tx.base_us = now / TX_K;
}

/* The next record, from the ring into microseconds. */
static void stage_record(void)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	const struct sonde_mp_rec *r = &g->rec[g->r & (SONDE_MP_RECORDS - 1u)];
	uint32_t off = r->exit - tx.base_tick, dur = r->dur, exit_us, entry_us, q;
	uint8_t p[SONDE_MP_REC_LEN];

	exit_us = tx.base_us + off / TX_K;
	if (dur <= off)
		entry_us = tx.base_us + (off - dur) / TX_K;
	else
		entry_us = tx.base_us - (dur - off + TX_K - 1u) / TX_K;
	sonde_mp_put32(p, r->fn);
	sonde_mp_put32(p + 4, entry_us);
	sonde_mp_put32(p + 8, exit_us - entry_us);
	sonde_mp_put16(p + 12, r->depth);
	g->r++; /* the slot is copied: the hooks may use it again */
	q = off / TX_K;
	tx.base_tick += q * TX_K;
	tx.base_us += q;
	stage(p, sizeof p);
	if (--tx.left == 0u) {
		stage_end();
		tx.in_data = 0;
	}
}

/* What to send next, when nothing is staged: 1 when something was. */
static int stage_next(void)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	uint32_t w, n;
	int empty;
	SONDE_PORT_CRIT_DECL;

	if (tx.in_data) {
		stage_record();
		return 1;
	}
	SONDE_PORT_CRIT_ENTER();
	if ((int32_t)(g->discard - g->r) > 0) /* RESET_BUFFERS: these are not sent */
		g->r = g->discard;
	w = g->w;
	empty = w == g->r;
	if (empty)
		base_to(SONDE_PORT_TS()); /* in the same critical section: every later exit is later */
	SONDE_PORT_CRIT_EXIT();
	if (g->rq_r != g->rq_w) {
		const struct sonde_mp_reply *q = &g->rq[g->rq_r % SONDE_MP_REPLIES];

		SONDE_MP_BARRIER(); /* the slot is read after the index that published it */
		if ((int32_t)(q->mark - g->r) <= 0) {
			stage_reply(q);
			g->rq_r++;
			return 1;
		}
		w = q->mark; /* the records before the answer, then the answer */
	}
	if (empty)
		return 0;
	n = w - g->r;
	if (n > SONDE_MP_PACKET_RECORDS)
		n = SONDE_MP_PACKET_RECORDS;
	{
		uint8_t h[3];

		stage_header(SONDE_MP_RSP_PROFILE_DATA, (uint16_t)(3u + n * SONDE_MP_REC_LEN));
		h[0] = 1; /* version */
		sonde_mp_put16(h + 1, n);
		for (w = 0; w < 3u; w++)
			tx.b[5 + w] = h[w];
		tx.crc = sonde_mp_crc16(tx.crc, h, 3);
		tx.len = 8;
	}
	tx.in_data = 1;
	tx.left = (uint16_t)n;
	return 1;
}

size_t sonde_mp_drain(uint8_t *dst, size_t max)
{
	size_t n = 0;

	while (n < max) {
		if (tx.pos == tx.len && !stage_next())
			break;
		while (tx.pos < tx.len && n < max)
			dst[n++] = tx.b[tx.pos++];
	}
	return n;
}

int sonde_mp_drain_byte(void)
{
	uint8_t b;

	return sonde_mp_drain(&b, 1) ? (int)b : -1;
}

#else
typedef int sonde_mp_tx_disabled_t;
#endif /* SONDE_MP_ENABLED */
