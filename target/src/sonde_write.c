/*
 * sonde_write.c -- the slow path: every rule of docs/protocol.md for writing
 * a record (TIME_SYNC rules 1-4 of section 5, DROPS of section 4, buffer
 * modes, room), and the loss report.  Always called inside the critical
 * section, with the caller's one reading of the tick counter.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

#define SYNC_WORST SONDE_WORST(8u)

void sonde_observe(uint32_t now)
{
	if (now < sonde_g.ext_ts)
		sonde_g.ts_hi++;
	sonde_g.ext_ts = now;
}

/* A timed record or TIME_SYNC is written at now: rule 2 counts from here. */
static void note_time(uint32_t now)
{
	sonde_observe(now);
	sonde_g.last_ts.w = now;
	sonde_g.flags &= (uint8_t)~SONDE_F_TIME;
}

static void put_sync(uint32_t now)
{
	uint8_t d[8];

	sonde_st32(d, now);
	sonde_st32(d + 4, sonde_g.ts_hi);
	sonde_fw_begin(SONDE_REC_TIME_SYNC, NULL);
	sonde_fw_bytes(d, sizeof d);
	sonde_fw_end();
	sonde_g.flags &= (uint8_t)~SONDE_F_SYNC;
}

void sonde_report(uint32_t now)
{
	uint8_t d[10];

	note_time(now);
	sonde_st16(d, now);
	sonde_st32(d + 2, sonde_g.overwritten);
	sonde_st32(d + 6, sonde_g.refused);
	sonde_fw_begin(SONDE_REC_DROPS, NULL);
	sonde_fw_bytes(d, sizeof d);
	sonde_fw_end();
	put_sync(now); /* rule 3: the TIME_SYNC follows the DROPS */
	sonde_g.flags &= (uint8_t)~SONDE_F_DROPS;
	sonde_g.rep_refused = sonde_g.refused;
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
	int report = 0, sync = 0;
	uint8_t seq, ts[2];

	if (g->buf == NULL)
		return;
	if (g->flags & SONDE_F_REFUSE) {
		sonde_refuse();
		goto out;
	}
	/* A pending loss report goes before the next record that fits with it.
	 * Refused records left a gap right here, so then the record waits for
	 * the report (or makes room for both by overwriting).  Overwritten
	 * records left their gap at the old end of the buffer instead: while
	 * the buffer overflows, records overwrite and the report waits until it
	 * fits in free space (its counts are cumulative, nothing is lost by
	 * waiting); otherwise every record would drag 22+ bytes of report
	 * along and an overflowing buffer would hold mostly reports. */
	if (g->flags & SONDE_F_DROPS)
		report = sonde_ring_free() >= SONDE_REPORT_WORST + need || !overwriting() ||
			 g->refused != g->rep_refused;
	if (report)
		need += SONDE_REPORT_WORST; /* its TIME_SYNC serves the record too */
	else if ((kind & SONDE_W_SYNC) || ((kind & SONDE_W_TIMED) && sync_needed(now)))
		sync = 1, need += SYNC_WORST;
	if (sonde_ring_free() < need && !(overwriting() && sonde_ring_make_room(need))) {
		sonde_refuse();
		if (g->mode == SONDE_MODE_SNAPSHOT)
			g->flags |= SONDE_F_FROZEN;
		goto out;
	}
	if (report)
		sonde_report(now);
	else if (sync) {
		note_time(now);
		put_sync(now);
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
	/* Rule 4, deferred: an untimed record took SEQ 0. */
	if (seq == 0u && !(kind & SONDE_W_TIMED))
		g->flags |= SONDE_F_SYNC;
out:
	sonde_ring_relimit();
}

void sonde_slow(uint32_t id_n, uint32_t now)
{
	sonde_write((uint8_t)id_n, SONDE_W_TIMED, now, sonde_g.xd, id_n >> 8, NULL, 0u);
}

#endif /* SONDE_ENABLED */
