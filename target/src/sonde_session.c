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
	d[5] = SONDE_TS_BYTES;
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
	memset(g, 0, sizeof *g);
	g->seq = 0xFFu; /* the first frame has SEQ 0 */
	if (buf != NULL && size >= SONDE_MIN_BUFFER) {
		g->buf = g->wp = g->rp = buf;
		g->end = buf + size;
		g->size = size;
		g->mode = mode <= SONDE_MODE_POSTMORTEM ? mode : SONDE_MODE_OVERWRITE;
		g->flags = SONDE_F_SYNC;
		sonde_filter_reset();
		g->last_ts = SONDE_PORT_TS();
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

/* Also ends a trigger's freeze; rule 1 asks for a TIME_SYNC. */
void sonde_start(void)
{
	set_flags(SONDE_F_SYNC, SONDE_F_REFUSE);
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

void sonde_get_stats(sonde_stats_t *out)
{
	const struct sonde_state *g = &sonde_g;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	out->records = g->frames_hi * 256u + (uint8_t)(g->seq + 1u);
	out->overwritten = g->overwritten;
	out->refused = g->refused;
	out->bytes = g->bytes_out + g->bytes_lost + (uint32_t)(g->buf != NULL ? sonde_ring_used() : 0u);
	SONDE_PORT_CRIT_EXIT();
}

#endif /* SONDE_ENABLED */
