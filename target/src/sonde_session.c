/*
 * sonde_session.c -- life cycle (init, stop, start, trigger), TARGET_INFO,
 * the dictionary, explicit TIME_SYNC and the statistics.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

/* Kept across sonde_init(), so it can be set before. */
static void (*dict_cb)(void);

static void le32(uint8_t *p, uint32_t v)
{
	sonde_st32(p, v);
}

/* TARGET_INFO, 18 bytes (docs/protocol.md section 4). */
static void put_info(uint8_t flags)
{
	uint8_t d[18];

	d[0] = SONDE_PROTO_VERSION;
	d[1] = (uint8_t)(flags | (SONDE_BIG_ENDIAN ? SONDE_INFO_F_BIG_ENDIAN : 0u));
	d[2] = SONDE_ADDR_SIZE;
	d[3] = sonde_g.mode;
	d[4] = (uint8_t)SONDE_PORT_CORE_ID();
	d[5] = SONDE_INFO_TS_VARIABLE;
	le32(d + 6, (uint32_t)SONDE_PORT_TS_HZ);
	le32(d + 10, (uint32_t)sonde_g.size);
	le32(d + 14, (uint32_t)SONDE_BUILD_ID);
	sonde_write(SONDE_REC_TARGET_INFO, 0u, 0u, d, sizeof d, NULL, 0u);
}

void sonde_init(uint8_t *buf, size_t size, uint8_t mode)
{
	struct sonde_state *g = &sonde_g;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	{
		/* A loop, not memset (sonde_copy() says why). */
		uint8_t *z = (uint8_t *)g;
		size_t i;

		for (i = 0; i < sizeof *g; i++)
			z[i] = 0;
		/* Every record filtered out until the buffer is valid: the call
		 * sites then do nothing at all. */
		z = (uint8_t *)&sonde_filters_;
		for (i = 0; i < sizeof sonde_filters_; i++)
			z[i] = 0;
	}
	g->seq = 0xFFu; /* the first frame has SEQ 0 */
	if (buf != NULL && size >= SONDE_MIN_BUFFER) {
		g->buf = g->wp = g->rp = buf;
		g->end = buf + size;
		g->size = size;
		g->mode = mode <= SONDE_MODE_POSTMORTEM ? mode : SONDE_MODE_OVERWRITE;
		sonde_filter_reset();
		g->last = g->ext = SONDE_PORT_TS();
		sonde_write_restart(); /* rule 1; since_prev unknown */
		sonde_write(SONDE_REC_EMPTY, 0u, 0u, NULL, 0u, NULL, 0u);
		put_info(SONDE_INFO_F_RESET);
	}
	sonde_ring_relimit();
	SONDE_PORT_CRIT_EXIT();
	if (g->buf != NULL && dict_cb != NULL)
		dict_cb();
}

static void set_flags(uint8_t set, uint8_t clear)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	sonde_g.flags = (uint8_t)((sonde_g.flags & ~clear) | set);
	sonde_ring_relimit();
	SONDE_PORT_CRIT_EXIT();
}

void sonde_stop(void)
{
	set_flags(SONDE_F_STOP, 0u);
}

/* Also ends a trigger's freeze; rule 1 asks for a TIME_SYNC, whose
 * since_prev is unknown (docs/protocol.md section 4). */
void sonde_start(void)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	sonde_g.flags &= (uint8_t)~SONDE_F_REFUSE;
	sonde_write_restart();
	sonde_ring_relimit();
	SONDE_PORT_CRIT_EXIT();
}

/* Freezes a post-mortem buffer, stops a snapshot early; nothing otherwise. */
void sonde_trigger(void)
{
	if (sonde_g.mode == SONDE_MODE_POSTMORTEM || sonde_g.mode == SONDE_MODE_SNAPSHOT)
		set_flags(SONDE_F_FROZEN, 0u);
}

int sonde_is_running(void)
{
	return sonde_g.buf != NULL && !(sonde_g.flags & SONDE_F_REFUSE);
}

void sonde_set_dict_callback(void (*cb)(void))
{
	dict_cb = cb;
}

void sonde_send_info(void)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	put_info(0u);
	SONDE_PORT_CRIT_EXIT();
	if (dict_cb != NULL)
		dict_cb();
}

void sonde_dict(uint8_t kind, uint32_t id, const char *name)
{
	uint8_t d[5];
	size_t len = 0;
	SONDE_PORT_CRIT_DECL;

	if (name == NULL)
		name = "";
	while (len < SONDE_STR_MAX && name[len] != '\0')
		len++;
	d[0] = kind;
	le32(d + 1, id);
	SONDE_PORT_CRIT_ENTER();
	sonde_write(SONDE_REC_DICT, SONDE_W_STR, 0u, d, sizeof d, (const uint8_t *)name, len);
	SONDE_PORT_CRIT_EXIT();
}

void sonde_time_sync(void)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	sonde_write(SONDE_REC_TIME_SYNC, SONDE_W_SYNC, SONDE_PORT_TS(), NULL, 0u, NULL, 0u);
	SONDE_PORT_CRIT_EXIT();
}

/*
 * The periodic tick (sonde.h).  It reads the clock, which counts a wrap of
 * the 32-bit clock into the 64-bit time (so the time stays exact across
 * silences of any length), and after SONDE_TICK_SYNC ticks without a timed
 * frame it writes a TIME_SYNC: the next record's gap then still fits its
 * 28-bit timestamp (docs/protocol.md section 5), however long the silence.
 * The margin: a tick at most 2^27 ticks after the previous one finds a gap
 * below 2^27 + 2^27 = 2^28.
 */
#define SONDE_TICK_SYNC 0x8000000u /* 2^27 */

void sonde_tick(void)
{
	struct sonde_state *g = &sonde_g;
	uint32_t now;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	now = SONDE_PORT_TS();
	if (g->buf != NULL) {
		sonde_observe(now);
		/* Not while refusing (a TIME_SYNC would be refused and counted),
		 * nor before the first timed frame (rule 1 takes care).  The
		 * overwriting modes make room for it like for any record; the
		 * others, when it does not fit, leave it to the next record
		 * (which is then written or refused by the usual rules) rather
		 * than count a refused TIME_SYNC or fill a snapshot with it. */
		if (now - g->last >= SONDE_TICK_SYNC && !(g->flags & (SONDE_F_NOREC | SONDE_F_REFUSE))) {
			if (sonde_ring_free() >= SONDE_REPORT_WORST || g->mode == SONDE_MODE_OVERWRITE ||
			    g->mode == SONDE_MODE_POSTMORTEM)
				sonde_write(SONDE_REC_TIME_SYNC, SONDE_W_SYNC, now, NULL, 0u, NULL, 0u);
			else
				g->flags |= SONDE_F_SYNC;
			sonde_ring_relimit();
		}
	}
	SONDE_PORT_CRIT_EXIT();
}

void sonde_stats_reset(uint32_t now)
{
	struct sonde_state *g = &sonde_g;

	/* Losses not yet reported would vanish with the counters: report
	 * them first, if there is room (else they are lost from the totals,
	 * and the host sees them as a sequence gap). */
	if ((g->flags & SONDE_F_DROPS) && sonde_ring_free() >= SONDE_REPORT_WORST)
		sonde_report(now);
	g->resets++;
	g->rec_base = sonde_frames_written();
	/* bytes = drained + overwritten + in the ring: 0 from now on (the
	 * counters are only ever summed, mod 2^32) */
	g->bytes_lost = 0;
	g->bytes_out = 0u - (uint32_t)(g->buf != NULL ? sonde_ring_used() : 0u);
	g->overwritten = 0;
	g->refused = 0;
	g->stopped = 0;
	g->rep_refused = 0;
	g->flags &= (uint8_t)~SONDE_F_DROPS;
	sonde_ring_relimit();
}

void sonde_get_stats(sonde_stats_t *out)
{
	const struct sonde_state *g = &sonde_g;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	out->records = sonde_frames_written() - g->rec_base;
	out->overwritten = g->overwritten;
	out->refused = g->refused;
	out->stopped = g->stopped;
	out->bytes = g->bytes_out + g->bytes_lost + (uint32_t)(g->buf != NULL ? sonde_ring_used() : 0u);
	SONDE_PORT_CRIT_EXIT();
}

#endif /* SONDE_ENABLED */
