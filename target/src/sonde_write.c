/*
 * sonde_write.c -- the slow path: every rule of docs/protocol.md for writing
 * a record (TIME_SYNC rules 1-4 of section 5, DROPS of section 4, buffer
 * modes, room), and the loss report.  Always called inside the critical
 * section, with the caller's one reading of the clock.
 */
#include "sonde_internal.h"

#if SONDE_ENABLED

void sonde_observe(uint32_t now)
{
	if (now < sonde_g.ext)
		sonde_g.ts_hi++;
	sonde_g.ext = now;
}

/* The timestamp field of a timed frame written at now (its gap is below
 * 2^28: the callers wrote a TIME_SYNC otherwise); the next gap counts from
 * here. */
static void put_ts(uint32_t now)
{
	uint8_t f[4];
	uint32_t enc, w = sonde_ts_field(now - sonde_g.last, &enc);

	sonde_st32(f, enc);
	sonde_fw_bytes(f, w);
	sonde_g.last = now;
}

/* TIME_SYNC at now: the 64-bit time, and the ticks since the previous
 * timed frame (0xFFFFFFFF when there is none since sonde_init()/
 * sonde_start()). */
static void put_sync(uint32_t now)
{
	struct sonde_state *g = &sonde_g;
	uint8_t d[SONDE_SYNC_BYTES];

	sonde_observe(now);
	sonde_st32(d, now);
	sonde_st32(d + 4, g->ts_hi);
	sonde_st32(d + 8, (g->flags & SONDE_F_NOREC) ? SONDE_SYNC_SINCE_UNKNOWN : now - g->last);
	sonde_fw_begin(SONDE_REC_TIME_SYNC);
	sonde_fw_bytes(d, sizeof d);
	sonde_fw_end();
	g->last = now;
	g->flags &= (uint8_t)~(SONDE_F_SYNC | SONDE_F_NOREC);
}

/* The first frame number that can no longer be overwritten: every frame
 * below it has left the ring, drained or overwritten, and so has a partly
 * drained frame (make_room keeps it).  Modes that never overwrite: every
 * frame written so far. */
static uint32_t settled(void)
{
	const struct sonde_state *g = &sonde_g;

	if (g->mode == SONDE_MODE_OVERWRITE || g->mode == SONDE_MODE_POSTMORTEM)
		return g->removed + g->mid;
	return sonde_frames_written();
}

/* Rule 3: the TIME_SYNC goes right before the DROPS, with the same time.
 * The DROPS says which frames its totals cover: its own frame number, and
 * "oldest" -- every frame below it was overwritten (and counted in these
 * totals) or read out; frames from oldest on may still be overwritten
 * later, and the next report covers them (docs/protocol.md section 4). */
void sonde_report(uint32_t now)
{
	struct sonde_state *g = &sonde_g;
	uint8_t d[SONDE_DROPS_BYTES];
	uint32_t oldest = settled();

	put_sync(now);
	sonde_st32(d, g->overwritten);
	sonde_st32(d + 4, g->refused);
	d[8] = g->resets;
	sonde_st32(d + 9, g->stopped);
	sonde_st32(d + 13, sonde_frames_written());
	sonde_st32(d + 17, oldest);
	/* open: frames before the TIME_SYNC may still be overwritten */
	g->open = oldest + 1u != sonde_frames_written();
	sonde_fw_begin(SONDE_REC_DROPS);
	sonde_fw_bytes(d, sizeof d);
	put_ts(now);
	sonde_fw_end();
	g->flags &= (uint8_t)~SONDE_F_DROPS;
	g->rep_refused = g->refused + g->stopped;
}

void sonde_write_restart(void)
{
	sonde_g.flags |= SONDE_F_SYNC | SONDE_F_NOREC;
}

void sonde_refuse(void)
{
	if (sonde_g.flags & SONDE_F_STOP)
		sonde_g.stopped++;
	else
		sonde_g.refused++;
	sonde_g.flags |= SONDE_F_DROPS;
}

/* Rules 1 and 4 (flags, and SEQ about to wrap to 0), and rule 2 (a gap of
 * 2^28 ticks or more).  Rule 3 is the report's own TIME_SYNC. */
static int sync_needed(uint32_t now)
{
	return (sonde_g.flags & SONDE_F_SYNC) || now - sonde_g.last >= SONDE_TS_LIMIT4 ||
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
	size_t data = n1 + n2 + ((kind & SONDE_W_TIMED) ? SONDE_TS_MAX_BYTES : 0u) + ((kind & SONDE_W_STR) ? 1u : 0u);
	size_t need = (kind & SONDE_W_SYNC) ? 0u : SONDE_WORST(data);
	int report = 0, sync = 0, held, over;
	uint8_t seq;

	if (g->buf == NULL)
		return;
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
			 g->refused + g->stopped != g->rep_refused;
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
	else if (sync)
		put_sync(now);
	if (kind & SONDE_W_SYNC)
		goto out;
	seq = sonde_fw_begin(id);
	sonde_fw_bytes(d1, n1);
	sonde_fw_bytes(d2, n2);
	if (kind & SONDE_W_STR)
		sonde_fw_bytes((const uint8_t *)"", 1u);
	if (kind & SONDE_W_TIMED)
		put_ts(now);
	/* Rule 4, deferred: an untimed record took SEQ 0. */
	else if (seq == 0u)
		g->flags |= SONDE_F_SYNC;
	sonde_fw_end();
out:
	sonde_ring_relimit();
}

void sonde_slow(uint32_t id_n, uint32_t now)
{
	sonde_write((uint8_t)id_n, SONDE_W_TIMED, now, sonde_g.xd, id_n >> 8, NULL, 0u);
}

#endif /* SONDE_ENABLED */
