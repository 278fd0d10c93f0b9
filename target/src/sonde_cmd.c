/*
 * sonde_cmd.c -- the receive channel's commands (docs/protocol.md §9.1):
 * checking a command's DATA, doing what it asks, writing its replies; the
 * memory regions PEEK and POKE may touch; the application's callback.
 *
 * A command is checked completely (DATA length, region, range of n) before
 * anything is done, so a malformed one changes nothing but the trace, which
 * gets its CMD_STATUS.
 *
 * Replies go through the library's slow-path writer like its other system
 * records: never filtered, with every rule of docs/protocol.md (TIME_SYNC,
 * DROPS, room, buffer mode).  One difference: the host waits for them, so
 * they are written even while the buffer refuses records (after STOP, or
 * frozen) -- but then only into free space, never over what a frozen
 * buffer holds; without room a reply is refused and counted like any
 * record (the writer's SONDE_W_REPLY).  INFO is not a reply: its
 * TARGET_INFO and dictionary are ordinary records, so while the buffer
 * refuses records INFO answers BAD_STATE.
 *
 * Order and atomicity: a command's own records come before its CMD_STATUS.
 * STOP, TRIGGER and READOUT write CMD_STATUS first and take effect in the
 * same critical section, so the reply is the last record before the buffer
 * stops (in post-mortem mode, the newest record of the frozen buffer).
 * Commands that run application code (INFO, APP) do so outside the
 * critical section; everything else, reply included, runs in one.
 */
#include "sonde_internal.h"
#include "sonde_cmd.h"

#if SONDE_ENABLED && SONDE_CFG_RX

#define ADDR SONDE_ADDR_SIZE
#define PEEK_MAX 64u /* docs/protocol.md §9.1 */

struct rx_region {
	uintptr_t start;
	size_t len;
	uint8_t flags; /* SONDE_RX_*; 0: a free slot */
};

static struct rx_region regions[SONDE_CFG_RX_REGIONS];
static int (*app_cb)(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c);

/* DATA bytes of each command, by id; VAR: checked by the command. */
#define VAR 0xFFu
static const uint8_t data_len[SONDE_CMD_STATS + 1u] = {
	VAR,      /* 0x00: no such command */
	0u,       /* INFO */
	16u,      /* GLB_FILTER */
	32u,      /* LOC_FILTER */
	0u,       /* START */
	0u,       /* STOP */
	0u,       /* TRIGGER */
	0u,       /* READOUT */
	0u,       /* RESET_CTRS */
	13u,      /* APP: u8 cmd, u32 a, b, c */
	ADDR + 1u, /* PEEK: addr, u8 n */
	VAR,      /* POKE: addr, u8 n, n bytes */
	0u,       /* STATS */
};

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A wire address (SONDE_ADDR_SIZE bytes) as a pointer-sized number; 0 if
 * it is beyond this CPU's address space (high bytes a pointer cannot hold
 * must be 0). */
static int get_addr(const uint8_t *p, uintptr_t *out)
{
	uintptr_t a = 0;
	unsigned i;

	for (i = ADDR; i-- > 0;) {
		if (i >= sizeof a) {
			if (p[i] != 0u)
				return 0;
		} else {
			a = a << 8 | p[i];
		}
	}
	*out = a;
	return 1;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	unsigned i;

	for (i = 0; i < 4u; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* ---- replies (inside the critical section) ------------------------------ */

/* A timed reply record, DATA d1[n1] d2[n2] after the timestamp. */
static void put_reply(uint8_t id, const uint8_t *d1, size_t n1, const uint8_t *d2, size_t n2)
{
	sonde_write(id, SONDE_W_TIMED | SONDE_W_REPLY, SONDE_PORT_TS(), d1, n1, d2, n2);
}

static void put_status(uint8_t seq, uint8_t cmd, uint8_t status)
{
	uint8_t d[3];

	d[0] = seq;
	d[1] = cmd;
	d[2] = status;
	put_reply(SONDE_REC_CMD_STATUS, d, sizeof d, NULL, 0u);
}

void sonde_cmd_status(uint8_t seq, uint8_t cmd, uint8_t status)
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	put_status(seq, cmd, status);
	SONDE_PORT_CRIT_EXIT();
}

/* ---- regions ------------------------------------------------------------- */

int sonde_rx_region(const void *start, size_t len, uint8_t flags)
{
	uintptr_t s = (uintptr_t)start;
	struct rx_region *slot = NULL;
	unsigned i;
	int ret = 0;
	SONDE_PORT_CRIT_DECL;

	flags &= SONDE_RX_READ | SONDE_RX_WRITE;
	/* The last byte, s + len - 1, must not pass the top of the address
	 * space (written so that nothing overflows). */
	if (flags != 0u && (len == 0u || len - 1u > UINTPTR_MAX - s))
		return -1;
	SONDE_PORT_CRIT_ENTER();
	for (i = 0; i < SONDE_CFG_RX_REGIONS; i++) {
		struct rx_region *r = &regions[i];

		if (r->flags != 0u && r->start == s) {
			slot = r;
			break;
		}
		if (r->flags == 0u && slot == NULL)
			slot = r;
	}
	if (slot != NULL && (slot->flags != 0u || flags != 0u)) {
		slot->start = s;
		slot->len = len;
		slot->flags = flags;
	} else if (slot == NULL && flags != 0u) {
		ret = -1;
	}
	SONDE_PORT_CRIT_EXIT();
	return ret;
}

/* The n bytes at the wire address p[0..SONDE_ADDR_SIZE), if they lie
 * inside one region registered with flag: 1 and their address in *out.
 * a - start wraps round to a huge value when a is below start, so one
 * compare tests both ends of the region and no sum can overflow, however
 * close to the top of the address space the numbers are. */
static int in_region(const uint8_t *p, unsigned n, uint8_t flag, uintptr_t *out)
{
	uintptr_t a;
	unsigned i;

	if (!get_addr(p, &a))
		return 0;
	for (i = 0; i < SONDE_CFG_RX_REGIONS; i++) {
		const struct rx_region *r = &regions[i];

		if ((r->flags & flag) && a - r->start < r->len && n <= r->len - (a - r->start)) {
			*out = a;
			return 1;
		}
	}
	return 0;
}

/* ---- commands ------------------------------------------------------------ */

void sonde_rx_set_app_callback(int (*cb)(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c))
{
	SONDE_PORT_CRIT_DECL;

	SONDE_PORT_CRIT_ENTER();
	app_cb = cb;
	SONDE_PORT_CRIT_EXIT();
}

/* Malformed or impossible whatever the state: DATA length, unknown id,
 * POKE compiled out. */
static uint8_t check(uint8_t cmd, const uint8_t *d, size_t len)
{
	if (cmd == 0u || cmd > SONDE_CMD_STATS)
		return SONDE_ST_UNKNOWN_CMD;
	if (cmd == SONDE_CMD_POKE) {
#if SONDE_CFG_POKE
		return len >= ADDR + 1u && len == ADDR + 1u + d[ADDR] ? SONDE_ST_OK : SONDE_ST_BAD_LENGTH;
#else
		(void)d;
		return SONDE_ST_NOT_SUPPORTED;
#endif
	}
	return len == data_len[cmd] ? SONDE_ST_OK : SONDE_ST_BAD_LENGTH;
}

/* A callback's value as a status: 0, or 0x80..0xFF (anything else 0xFF). */
static uint8_t app_status(int r)
{
	if (r == 0)
		return SONDE_ST_OK;
	return r >= (int)SONDE_ST_APP_FIRST && r <= 0xFF ? (uint8_t)r : 0xFFu;
}

/* Commands that run application code: outside the critical section. */
static uint8_t run_open(uint8_t cmd, const uint8_t *d)
{
	int (*cb)(uint8_t, uint32_t, uint32_t, uint32_t) = app_cb;

	switch (cmd) {
	case SONDE_CMD_INFO:
		if (!sonde_is_running())
			return SONDE_ST_BAD_STATE;
		sonde_send_info();
		break;
	case SONDE_CMD_APP:
		if (cb == NULL)
			return SONDE_ST_NOT_SUPPORTED;
		return app_status(cb(d[0], get_le32(d + 1), get_le32(d + 5), get_le32(d + 9)));
	default:
		break;
	}
	return SONDE_ST_OK;
}

static uint8_t peek(const uint8_t *d)
{
	uint8_t mem[PEEK_MAX];
	unsigned n = d[ADDR];
	uintptr_t a;

	if (n < 1u || n > PEEK_MAX || !in_region(d, n, SONDE_RX_READ, &a))
		return SONDE_ST_OUT_OF_REGION;
	/* A copy first: the reply must not read memory its own writing
	 * changes (a region could cover the trace buffer). */
	sonde_copy(mem, (const uint8_t *)a, n);
	put_reply(SONDE_REC_PEEK_DATA, d, ADDR + 1u, mem, n); /* addr, n, bytes */
	return SONDE_ST_OK;
}

#if SONDE_CFG_POKE
static uint8_t poke(const uint8_t *d)
{
	unsigned n = d[ADDR];
	uintptr_t a;

	if (n < 1u || !in_region(d, n, SONDE_RX_WRITE, &a))
		return SONDE_ST_OUT_OF_REGION;
	sonde_copy((uint8_t *)a, d + ADDR + 1u, n);
	return SONDE_ST_OK;
}
#endif

static void put_stats(void)
{
	sonde_stats_t s;
	uint8_t d[SONDE_STATS_BYTES];

	sonde_get_stats(&s);
	put_le32(d, s.records);
	put_le32(d + 4, s.overwritten);
	put_le32(d + 8, s.refused);
	put_le32(d + 12, s.bytes);
	put_le32(d + 16, s.stopped);
	put_reply(SONDE_REC_TARGET_STATS, d, sizeof d, NULL, 0u);
}

/* RESET_CTRS: the loss report (TIME_SYNC, DROPS) with the new totals,
 * after the reply.  Into free space, or by overwriting in a running
 * overwrite mode; otherwise it stays pending and goes out by the usual
 * rules (docs/protocol.md §4, DROPS). */
static void report_totals(void)
{
	struct sonde_state *g = &sonde_g;

	if (g->buf == NULL)
		return;
	if (sonde_ring_free() >= SONDE_REPORT_WORST ||
	    (!(g->flags & SONDE_F_REFUSE) &&
	     (g->mode == SONDE_MODE_OVERWRITE || g->mode == SONDE_MODE_POSTMORTEM) &&
	     sonde_ring_make_room(SONDE_REPORT_WORST)))
		sonde_report(SONDE_PORT_TS());
	else
		g->flags |= SONDE_F_DROPS;
	sonde_ring_relimit();
}

static int streaming(void)
{
	return sonde_g.mode == SONDE_MODE_OVERWRITE || sonde_g.mode == SONDE_MODE_DROP_NEW;
}

/* Inside the critical section, before the reply. */
static uint8_t run_locked(uint8_t cmd, const uint8_t *d)
{
	switch (cmd) {
	case SONDE_CMD_START:
		sonde_start();
		break;
	case SONDE_CMD_TRIGGER:
	case SONDE_CMD_READOUT:
		if (streaming())
			return SONDE_ST_BAD_STATE;
		break;
	case SONDE_CMD_GLB_FILTER:
		sonde_filter_set_records(d);
		break;
	case SONDE_CMD_LOC_FILTER:
		sonde_filter_set_objects(d);
		break;
	case SONDE_CMD_RESET_CTRS:
		sonde_stats_reset(SONDE_PORT_TS());
		break;
	case SONDE_CMD_PEEK:
		return peek(d);
#if SONDE_CFG_POKE
	case SONDE_CMD_POKE:
		return poke(d);
#endif
	case SONDE_CMD_STATS:
		put_stats();
		break;
	default:
		break;
	}
	return SONDE_ST_OK;
}

/* Inside the critical section, after a reply with status OK. */
static void run_after(uint8_t cmd)
{
	switch (cmd) {
	case SONDE_CMD_STOP:
		sonde_stop();
		break;
	case SONDE_CMD_TRIGGER:
	case SONDE_CMD_READOUT:
		sonde_trigger();
		break;
	case SONDE_CMD_RESET_CTRS:
		report_totals();
		break;
	default:
		break;
	}
}

void sonde_cmd_exec(const uint8_t *f, size_t n)
{
	const uint8_t seq = f[0], cmd = f[1], *d = f + 2;
	uint8_t st = check(cmd, d, n - 2u);
	SONDE_PORT_CRIT_DECL;

	if (st == SONDE_ST_OK)
		st = run_open(cmd, d);
	SONDE_PORT_CRIT_ENTER();
	if (st == SONDE_ST_OK)
		st = run_locked(cmd, d);
	put_status(seq, cmd, st);
	if (st == SONDE_ST_OK)
		run_after(cmd);
	SONDE_PORT_CRIT_EXIT();
}

#else
typedef int sonde_cmd_disabled_t;
#endif /* SONDE_ENABLED && SONDE_CFG_RX */
