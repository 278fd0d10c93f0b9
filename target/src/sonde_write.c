/*
 * sonde_write.c -- the slow path: every rule of docs/protocol.md for writing
 * a record (TIME_SYNC rules 1-4 of section 5, DROPS of section 4, buffer
 * modes, room), and the loss report.  Always called inside the critical
 * section, with the caller's one reading of the tick counter.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

void sonde_observe(uint32_t now)
{
	if (now < sonde_g.ext_ts)
		sonde_g.ts_hi++;
	sonde_g.ext_ts = now;
}

/* Fast-path records since the slow path's last write (SEQ moved on): the
 * newest is the last timed record, at last_ts (sonde_internal.h explains
 * why its 64-bit time follows from base_t). */
SONDE_INLINE void catch_up(void)
{
	struct sonde_state *g = &sonde_g;

	if (g->seq != g->mark_seq) {
		g->rec_t = g->base_t + (uint32_t)(g->last_ts.w - (uint32_t)g->base_t);
		g->rec_none = 0;
		g->mark_seq = g->seq;
	}
}

/* A timed record or TIME_SYNC is written at now: rule 2 counts from here. */
static void note_time(uint32_t now)
{
	struct sonde_state *g = &sonde_g;

	sonde_observe(now);
	g->base_t = (uint64_t)g->ts_hi << 32 | now;
	g->last_ts.w = now;
	g->flags &= (uint8_t)~SONDE_F_TIME;
}

/* The timed record just written (at the time note_time took) is where the
 * next TIME_SYNC's since_prev counts from. */
SONDE_INLINE void note_record(void)
{
	sonde_g.rec_t = sonde_g.base_t;
	sonde_g.rec_none = 0;
}

/* TIME_SYNC at the time note_time just took: the 64-bit time and the ticks
 * since the last timed record (0xFFFFFFFF when there is none since
 * sonde_init()/sonde_start(), or when they are 2^32 - 1 or more). */
static void put_sync(void)
{
	const struct sonde_state *g = &sonde_g;
	uint64_t since = g->base_t - g->rec_t;
	uint8_t d[SONDE_SYNC_BYTES];

	if (g->rec_none || since > SONDE_SYNC_SINCE_UNKNOWN)
		since = SONDE_SYNC_SINCE_UNKNOWN;
	sonde_st32(d, (uint32_t)g->base_t);
	sonde_st32(d + 4, (uint32_t)(g->base_t >> 32));
	sonde_st32(d + 8, (uint32_t)since);
	sonde_fw_begin(SONDE_REC_TIME_SYNC, NULL);
	sonde_fw_bytes(d, sizeof d);
	sonde_fw_end();
	sonde_g.flags &= (uint8_t)~SONDE_F_SYNC;
}

/* Rule 3: the TIME_SYNC goes right before the DROPS, with the same time. */
void sonde_report(uint32_t now)
{
	uint8_t d[10];

	catch_up();
	note_time(now);
	put_sync();
	sonde_st16(d, now);
	sonde_st32(d + 2, sonde_g.overwritten);
	sonde_st32(d + 6, sonde_g.refused);
	sonde_fw_begin(SONDE_REC_DROPS, NULL);
	sonde_fw_bytes(d, sizeof d);
	sonde_fw_end();
	note_record();
	sonde_g.flags &= (uint8_t)~SONDE_F_DROPS;
	sonde_g.rep_refused = sonde_g.refused;
	sonde_g.mark_seq = sonde_g.seq;
}

void sonde_write_restart(void)
{
	sonde_g.flags |= SONDE_F_SYNC;
	sonde_g.rec_none = 1;
	sonde_g.mark_seq = sonde_g.seq; /* records before the restart do not count */
}

void sonde_refuse(void)
{
	sonde_g.refused++;
	sonde_g.flags |= SONDE_F_DROPS;
}

/* Rules 1, 2 and 4 (rule 3 is the report's own TIME_SYNC). */
static int sync_needed(uint32_t now)
{
	return (sonde_g.flags & SONDE_F_SYNC) || now - sonde_g.last_ts.w >= 0x10000u ||
	       (uint8_t)(sonde_g.seq + 1u) == 0u;
}

static int overwriting(void)
{
	return sonde_g.mode == SONDE_MODE_OVERWRITE || sonde_g.mode == SONDE_MODE_POSTMORTEM;
}

void sonde_write(uint8_t id, unsigned kind, uint32_t now, const uint8_t *d1, size_t n1,
		 const uint8_t *d2, size_t n2)
{
	struct sonde_state *g = &sonde_g;
	size_t data = n1 + n2 + ((kind & SONDE_W_TIMED) ? SONDE_TS_BYTES : 0u) + ((kind & SONDE_W_STR) ? 1u : 0u);
	size_t need = (kind & SONDE_W_SYNC) ? 0u : SONDE_WORST(data);
	int report = 0, sync = 0, held, over;
	uint8_t seq, ts[2];

	if (g->buf == NULL)
		return;
	catch_up();
	/* While the buffer refuses records (stopped, frozen), only command
	 * replies are written -- the host waits for them -- and only into
	 * free space: never over what a frozen buffer holds. */
	held = (g->flags & SONDE_F_REFUSE) != 0;
	if (held && !(kind & SONDE_W_REPLY)) {
		sonde_refuse();
		goto out;
	}
	over = overwriting() && !held;
	/* A pending loss report goes before the next record that fits with it.
	 * Refused records left a gap right here, so then the record waits for
	 * the report (or makes room for both by overwriting).  Overwritten
	 * records left their gap at the old end of the buffer instead: while
	 * the buffer overflows, records overwrite and the report waits until it
	 * fits in free space (its counts are cumulative, nothing is lost by
	 * waiting); otherwise every record would drag 30+ bytes of report
	 * along and an overflowing buffer would hold mostly reports. */
	if (g->flags & SONDE_F_DROPS)
		report = sonde_ring_free() >= SONDE_REPORT_WORST + need || !over ||
			 g->refused != g->rep_refused;
	if (report)
		need += SONDE_REPORT_WORST; /* its TIME_SYNC serves the record too */
	else if ((kind & SONDE_W_SYNC) || ((kind & SONDE_W_TIMED) && sync_needed(now)))
		sync = 1, need += SONDE_SYNC_WORST;
	if (sonde_ring_free() < need && !(over && sonde_ring_make_room(need))) {
		sonde_refuse();
		if (g->mode == SONDE_MODE_SNAPSHOT && !held)
			g->flags |= SONDE_F_FROZEN;
		goto out;
	}
	if (report)
		sonde_report(now);
	else if (sync) {
		note_time(now);
		put_sync();
	} else if (kind & SONDE_W_TIMED) {
		note_time(now);
	}
	if (kind & SONDE_W_SYNC)
		goto out;
	sonde_st16(ts, now);
	seq = sonde_fw_begin(id, (kind & SONDE_W_TIMED) ? ts : NULL);
	sonde_fw_bytes(d1, n1);
	if (n2 != 0u)
		sonde_fw_bytes(d2, n2);
	if (kind & SONDE_W_STR)
		sonde_fw_bytes((const uint8_t *)"", 1u);
	sonde_fw_end();
	if (kind & SONDE_W_TIMED)
		note_record();
	/* Rule 4, deferred: an untimed record took SEQ 0. */
	else if (seq == 0u)
		g->flags |= SONDE_F_SYNC;
out:
	g->mark_seq = g->seq;
	sonde_ring_relimit();
}

void sonde_slow(uint32_t id_n, uint32_t now)
{
	sonde_write((uint8_t)id_n, SONDE_W_TIMED, now, sonde_g.xd, id_n >> 8, NULL, 0u);
}

#endif /* SONDE_ENABLED */
