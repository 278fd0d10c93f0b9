/*
 * sonde_mp.c -- the MiniProfiler device module's core (sonde_mp.h): the
 * function hooks, the ring of finished calls, and what the commands do.
 *
 * What a profiled call costs (docs/performance.md): enter reserves a level
 * of the shared call stack and stores the address and the clock there; exit
 * takes the level back and, if the call began in this profiling session and
 * matches, reserves a ring slot and stores the address, the exit time, the
 * duration and the depth in one critical section.  Converting to
 * microseconds and building the packets (CRC included) is the drain's work,
 * not the hooks'.
 */
#include "sonde_mp_internal.h"

#if SONDE_MP_ENABLED

struct sonde_mp_state sonde_mp_g;

#define REC_MASK (SONDE_MP_RECORDS - 1u)

/* Queue an answer; STATUS takes its payload now. */
static void reply(uint8_t type)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	struct sonde_mp_reply *q;
	uint32_t used;
	SONDE_PORT_CRIT_DECL;

	if (g->rq_w - g->rq_r >= SONDE_MP_REPLIES) {
		g->st.replies_lost++;
		return;
	}
	q = &g->rq[g->rq_w % SONDE_MP_REPLIES];
	q->type = type;
	SONDE_PORT_CRIT_ENTER();
	q->mark = g->w;
	if (type == SONDE_MP_RSP_STATUS) {
		/* what RESET_BUFFERS discarded is not in use any more, even
		 * before the drain has skipped it */
		used = g->w - ((int32_t)(g->discard - g->r) > 0 ? g->discard : g->r);
		q->status[0] = g->run != 0u;
		sonde_mp_put32(q->status + 1, g->st.overflows);
		sonde_mp_put32(q->status + 5, g->st.captured);
		q->status[9] = (uint8_t)(used * 100u / SONDE_MP_RECORDS);
	}
	SONDE_PORT_CRIT_EXIT();
	SONDE_MP_BARRIER();
	g->rq_w++;
}

void sonde_mp_init(uint32_t build_id, const char *fw_version)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	unsigned i;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	g->run = 0;
	g->w = g->r = g->discard = 0;
	g->rq_w = g->rq_r = 0;
	for (i = 0; i < sizeof g->st; i++)
		((uint8_t *)&g->st)[i] = 0;
	g->build_id = build_id;
	for (i = 0; i < sizeof g->fw_version; i++)
		g->fw_version[i] = 0;
	for (i = 0; fw_version && fw_version[i] && i + 1u < sizeof g->fw_version; i++)
		g->fw_version[i] = fw_version[i];
	sonde_mp_tx_init(SONDE_PORT_TS());
	SONDE_PORT_CRIT_EXIT();
#if SONDE_MP_META_AT_INIT
	reply(SONDE_MP_RSP_METADATA);
#endif
}

void sonde_mp_set_command_callback(int (*cb)(uint8_t cmd, const uint8_t *payload, uint8_t len))
{
	sonde_mp_g.cb = cb;
}

/* ---- the hooks ------------------------------------------------------------ */

/* A rare event, counted exactly whatever context counts it too (and an
 * overflow as well when lost says so). */
static void count(uint32_t *c, int lost)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	(*c)++;
	if (lost)
		sonde_mp_g.st.overflows++;
	SONDE_PORT_CRIT_EXIT();
}

void sonde_mp_enter(const void *fn)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	uint32_t d = g->depth;

	/* Reserve the level first: an interrupt arriving now nests above it
	 * and gives its own levels back before this code resumes. */
	g->depth = d + 1u;
	if (d < SONDE_MP_DEPTH) {
		g->stk[d].fn = (uint32_t)(uintptr_t)fn;
		g->stk_run[d] = g->run;
		g->stk[d].t = SONDE_PORT_TS();
	}
}

void sonde_mp_exit(const void *fn)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	uint32_t d = g->depth;
	SONDE_PORT_CRIT_DECL;

	if (d == 0u) {
		count(&g->st.unmatched, 0);
		return;
	}
	d--;
	if (d >= SONDE_MP_DEPTH) {
		if (g->run)
			count(&g->st.too_deep, 1);
	} else if (g->stk_run[d] != 0u && g->stk_run[d] == g->run) {
		uint32_t f = (uint32_t)(uintptr_t)fn;

		if (g->stk[d].fn != f) {
			count(&g->st.mismatched, 0);
		} else {
			SONDE_PORT_CRIT_ENTER();
			{
				uint32_t now = SONDE_PORT_TS(), w = g->w;

				if (w - g->r < SONDE_MP_RECORDS) {
					struct sonde_mp_rec *r = &g->rec[w & REC_MASK];

					r->fn = f;
					r->exit = now;
					r->dur = now - g->stk[d].t;
					r->depth = d;
					g->w = w + 1u;
					g->st.captured++;
				} else {
					g->st.overflows++;
				}
			}
			SONDE_PORT_CRIT_EXIT();
		}
	}
	/* Give the level back last: an interrupt arriving before this nests
	 * above it. */
	g->depth = d;
}

/* ---- commands ---------------------------------------------------------------- */

void sonde_mp_nack(void)
{
	sonde_mp_g.st.nacks++;
	reply(SONDE_MP_RSP_NACK);
}

void sonde_mp_command(const uint8_t *pkt)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	uint8_t cmd = pkt[1], len = pkt[2];
	uint8_t answer = SONDE_MP_RSP_ACK;
	SONDE_PORT_CRIT_DECL;

	if (len > 8u || cmd < SONDE_MP_CMD_START || cmd > SONDE_MP_CMD_SET_CONFIG) {
		sonde_mp_nack();
		return;
	}
	switch (cmd) {
	case SONDE_MP_CMD_START:
		if (!g->run) { /* a new session: calls already open are not its own */
			g->session = (uint8_t)(g->session == 255u ? 1u : g->session + 1u);
			g->run = g->session;
		}
		break;
	case SONDE_MP_CMD_STOP:
		g->run = 0;
		break;
	case SONDE_MP_CMD_STATUS:
		answer = SONDE_MP_RSP_STATUS;
		break;
	case SONDE_MP_CMD_RESET:
		SONDE_PORT_CRIT_ENTER();
		g->discard = g->w;
		g->st.captured = 0;
		g->st.overflows = 0;
		g->st.too_deep = 0;
		SONDE_PORT_CRIT_EXIT();
		break;
	case SONDE_MP_CMD_METADATA:
		answer = SONDE_MP_RSP_METADATA;
		break;
	default: /* SET_CONFIG: the protocol reserves its payload for the application */
		if (g->cb && g->cb(cmd, pkt + 3, len) != 0) {
			sonde_mp_nack();
			return;
		}
		g->st.commands++;
		reply(answer);
		return;
	}
	g->st.commands++;
	reply(answer);
	if (g->cb)
		(void)g->cb(cmd, pkt + 3, len);
}

/* ---- counters, CRC-32 -------------------------------------------------------- */

void sonde_mp_get_stats(sonde_mp_stats_t *out)
{
	struct sonde_mp_state *g = &sonde_mp_g;
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	*out = g->st;
	out->profiling = g->run != 0u;
	out->pending = g->w - g->r;
	SONDE_PORT_CRIT_EXIT();
}

/* Bit by bit: the build id is computed once, at start-up, and a table
 * would cost 1 KiB of flash for it. */
uint32_t sonde_mp_crc32(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t crc = 0xFFFFFFFFu;
	int k;

	while (n--) {
		crc ^= *b++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

#else
typedef int sonde_mp_disabled_t;
#endif /* SONDE_MP_ENABLED */
