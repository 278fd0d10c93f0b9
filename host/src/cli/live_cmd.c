/*
 * live_cmd.c -- commands that `sonde live` sends from its keys, the
 * acknowledgements (CMD_STATUS, matched by SEQ) and replies it shows; the
 * INFO it asks for by itself when it joins a running target (a Sonde
 * stream without TARGET_INFO: no names, no seconds until one comes); and
 * the link budget: when the link's capacity is known (a baud rate, or what
 * a gdb:// link measured), whether the link is what limits the trace, from
 * figures the target itself reported (DROPS,
 * TARGET_STATS) and the byte rate measured here -- nothing is assumed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "live.h"
#include "sonde_proto.h"
#include "util/bytes.h"

#define LIVE_REPLY_MS 3000      /* a command without a reply after this is reported */
#define LIVE_BUDGET_MS 2000     /* window of the budget check */
#define LIVE_BUDGET_QUIET_MS 10000
#define LIVE_BUDGET_BUSY 0.85   /* "the link is full" from this share of its capacity */
#define LIVE_JOIN_FRAMES 16     /* a target that starts sends TARGET_INFO within its first frames... */
#define LIVE_JOIN_MS 1000       /* ...and within a second of its first frame */

void live_cmd_init(struct live *lv)
{
	rxwatch_init(&lv->rw, live_cmd_frame, lv);
	lv->seq = (uint8_t)(live_now_ms() ^ (int64_t)getpid());
	lv->produced_rate = -1;
	qs_tx_init(&lv->qs_tx, 4);
}

/* Replies mean something only in a Sonde stream. */
static int sonde_stream(const struct live *lv)
{
	if (lv->began > 0)
		return strcmp(lv->pipe->dec->name, "sonde") == 0;
	return strcmp(lv->proto, "sonde") == 0 || strcmp(lv->proto, "auto") == 0;
}

void live_cmd_send(struct live *lv, const char *word)
{
	if (!sonde_link_writable(&lv->link)) {
		live_msg(lv, "sonde live: %s cannot carry commands", lv->link.name);
		return;
	}
	if (!sonde_stream(lv)) {
		live_msg(lv, "sonde live: the keys send Sonde commands; this is a %s stream (use 'sonde send --proto qs')",
			 lv->pipe->dec->name);
		return;
	}
	if (!lv->up) {
		live_msg(lv, "sonde live: %s is down; %s not sent", lv->link.name, word);
		return;
	}
	struct rxcmd c;
	char why[256];
	char *words[1] = { (char *)word };
	if (rxcmd_parse(words, 1, lv->rw.addr_size, &c, why, sizeof(why)) != 0) {
		live_msg(lv, "sonde live: %s", why);
		return;
	}
	uint8_t frame[RXCMD_FRAME_MAX];
	uint8_t seq = lv->seq++;
	size_t n = rxcmd_frame(&c, seq, 0, frame);
	if (sonde_link_write(&lv->link, frame, n) != 0) {
		live_msg(lv, "sonde live: %s: %s", lv->link.name, lv->link.why);
		return;
	}
	struct live_pending *p = &lv->pend[seq % LIVE_PENDING];
	p->used = 1;
	p->seq = seq;
	p->cmd = c.id;
	p->sent_ms = live_now_ms();
	live_msg(lv, "-> %s (seq %u)", rxcmd_name(c.id), seq);
}

/* Joined a running target?  Then ask it for INFO (once), or say why not. */
void live_cmd_join(struct live *lv, int64_t now)
{
	if (lv->join_done || lv->rw.info_seen || !lv->good_frames || lv->began <= 0 || !sonde_stream(lv))
		return;
	if (lv->good_frames < LIVE_JOIN_FRAMES && now - lv->first_frame_ms < LIVE_JOIN_MS)
		return;
	lv->join_done = 1;
	if (!sonde_link_writable(&lv->link)) {
		live_msg(lv, "sonde live: joined a running target (no TARGET_INFO in its first %" PRIu64 " frames); %s cannot "
			     "carry commands: names and times in seconds stay unknown until a TARGET_INFO comes "
			     "(-o ts_freq=HZ gives the seconds)", lv->good_frames, lv->link.name);
		return;
	}
	live_msg(lv, "sonde live: joined a running target (no TARGET_INFO in its first %" PRIu64 " frames): asking it for "
		     "INFO, for the names and the times in seconds", lv->good_frames);
	live_cmd_send(lv, "info");
}

void live_cmd_frame(void *ctx, uint8_t fseq, uint8_t id, const uint8_t *d, size_t n)
{
	struct live *lv = ctx;
	(void)fseq;
	if (!sonde_stream(lv))
		return;
	if (!lv->good_frames++)
		lv->first_frame_ms = live_now_ms();
	live_cmd_join(lv, live_now_ms());
	if (!lv->rw.info_seen && lv->began > 0) /* the decoder's version: -o version=, or assumed */
		lv->rw.version = lv->pipe->session.version;
	if (rxwatch_fields(&lv->rw, id, &d, &n) != 0)
		return;
	if (id == SONDE_REC_CMD_STATUS) {
		uint8_t seq, cmd, st;
		if (rxcmd_status(d, n, &seq, &cmd, &st) != 0)
			return;
		struct live_pending *p = &lv->pend[seq % LIVE_PENDING];
		if (!p->used || p->seq != seq || p->cmd != cmd)
			return; /* someone else's command (a --control client) */
		p->used = 0;
		if (st == SONDE_ST_OK && cmd == SONDE_CMD_STOP)
			lv->stopped = 1;
		if (st == SONDE_ST_OK && cmd == SONDE_CMD_START)
			lv->stopped = 0;
		/* the data that came before the status goes with it: on a busy
		 * terminal the line stays in the status area until the next one */
		live_msg(lv, "<- %s (seq %u): %s%s%s", rxcmd_name(cmd), seq, rxcmd_status_name(st),
			 cmd == SONDE_CMD_STATS && lv->reply[0] ? ": " : "", cmd == SONDE_CMD_STATS ? lv->reply : "");
		if (cmd == SONDE_CMD_STATS)
			lv->reply[0] = '\0';
	} else if (id == SONDE_REC_TARGET_STATS && (n == SONDE_STATS_BYTES_V2 || n == SONDE_STATS_BYTES)) {
		uint32_t bytes = bytes_le32(d + 12);
		int64_t now = live_now_ms();
		if (lv->have_tstats && now - lv->tstats_t >= 200 && bytes >= lv->tstats_bytes)
			lv->produced_rate = (double)(bytes - lv->tstats_bytes) * 1000.0 / (double)(now - lv->tstats_t);
		lv->have_tstats = 1;
		lv->tstats_bytes = bytes;
		lv->tstats_t = now;
		int mine = 0; /* shown when one of the keys asked for it */
		for (int i = 0; i < LIVE_PENDING; i++)
			mine |= lv->pend[i].used && lv->pend[i].cmd == SONDE_CMD_STATS;
		if (mine) /* said with the CMD_STATUS that follows it */
			snprintf(lv->reply, sizeof(lv->reply),
				 "TARGET_STATS records=%" PRIu32 " overwritten=%" PRIu32 " refused=%" PRIu32 " bytes=%" PRIu32,
				 bytes_le32(d), bytes_le32(d + 4), bytes_le32(d + 8), bytes);
	}
}

void live_cmd_tick(struct live *lv, int64_t now)
{
	live_cmd_join(lv, now);
	for (int i = 0; i < LIVE_PENDING; i++) {
		struct live_pending *p = &lv->pend[i];
		if (p->used && now - p->sent_ms > LIVE_REPLY_MS) {
			p->used = 0;
			live_msg(lv, "sonde live: no reply to %s (seq %u) within %d s", rxcmd_name(p->cmd), p->seq,
				 LIVE_REPLY_MS / 1000);
		}
	}
}

static uint64_t target_drops(const struct live *lv)
{
	return lv->pipe->session.drops_overwritten + lv->pipe->session.drops_refused;
}

/* The budget finding, cut to its buffer when it must be. */
__attribute__((format(printf, 2, 3))) static void note(struct live *lv, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(lv->budget_note, sizeof(lv->budget_note), fmt, ap);
	va_end(ap);
}

static void kb(char *out, size_t cap, double bytes_per_s)
{
	snprintf(out, cap, "%.1f kB/s", bytes_per_s / 1000.0);
}

/* What the link carries at most, and its name in the finding: a baud rate
 * (--baud, or the serial link's), or what the link measured itself
 * (gdb://: a full up buffer at every poll). */
static int link_capacity(struct live *lv, int whole, double *cap, char *what, size_t wl)
{
	uint32_t baud = lv->o.baud ? lv->o.baud : lv->link.spec.kind == SONDE_LINK_SERIAL ? lv->link.spec.baud : 0;
	if (!baud)
		return sonde_link_capacity(&lv->link, whole, cap, what, wl);
	*cap = (double)baud / (double)sonde_link_bits_per_byte(&lv->link.spec);
	snprintf(what, wl, "%" PRIu32 " baud", baud);
	return 1;
}

/* One finding over a window: dt ms, bytes, records, drops in it. */
static int budget_note(struct live *lv, int64_t dt, uint64_t bytes, uint64_t records, uint64_t drops, int final)
{
	double cap;
	char what[160];
	if (dt <= 0 || !link_capacity(lv, final, &cap, what, sizeof(what)))
		return 0;
	double rate = (double)bytes * 1000.0 / (double)dt;
	int busy = rate >= LIVE_BUDGET_BUSY * cap;
	char c[32], r[32], p[96] = "";
	kb(c, sizeof(c), cap);
	kb(r, sizeof(r), rate);
	if (lv->produced_rate >= 0) {
		char pr[32];
		kb(pr, sizeof(pr), lv->produced_rate);
		snprintf(p, sizeof(p), "; the target produced %s (TARGET_STATS)", pr);
	}
	if (drops && busy) {
		note(lv, "%s carries ~%s; the link ran at %s (%.0f%%)%s; %.0f%% of the target's records "
			 "were dropped on the target (DROPS: %" PRIu64 " of %" PRIu64 "): the link is the bottleneck",
			 what, c, r, 100.0 * rate / cap, p, 100.0 * (double)drops / (double)(drops + records), drops,
			 drops + records);
		return 1;
	}
	if (final)
		note(lv, "%s carries ~%s; the link ran at %s on average (%.0f%%)%s; %" PRIu64
			 " records dropped on the target",
			 what, c, r, 100.0 * rate / cap, p, drops);
	return 0;
}

void live_budget_tick(struct live *lv, int64_t now, int final)
{
	uint64_t records = lv->stats->records, drops = target_drops(lv);
	if (final) {
		budget_note(lv, now - lv->t_start, lv->rx_bytes, records, drops, 1);
		return;
	}
	if (now - lv->budget_t < LIVE_BUDGET_MS)
		return;
	int warn = budget_note(lv, now - lv->budget_t, lv->rx_bytes - lv->budget_bytes, records - lv->budget_records,
			       drops - lv->budget_drops, 0);
	if (warn && (!lv->budget_warned || now - lv->budget_warned >= LIVE_BUDGET_QUIET_MS)) {
		live_msg(lv, "sonde live: warning: %s", lv->budget_note);
		memcpy(lv->budget_warning, lv->budget_note, sizeof(lv->budget_warning));
		lv->budget_warned = now;
	}
	lv->budget_t = now;
	lv->budget_bytes = lv->rx_bytes;
	lv->budget_records = records;
	lv->budget_drops = drops;
}
