/*
 * sonde_decoder.c -- the decoder of Sonde's own protocol (docs/protocol.md),
 * exported as sonde_decoder_sonde.
 *
 * This file is the arrival side: HDLC framing, sequence numbers, losses and
 * the hold queue of time reconstruction (§5).  After a loss the 64-bit time
 * is unknown; frames are then held (bounded, sonde_hold.h) until the next
 * TIME_SYNC, whose full time and since_prev let their times be computed
 * backwards exactly, and are then replayed through srec_process
 * (sonde_records.c) in stream order, interleaved with the diagnostics that
 * arrived between them.  A stream that ends first, a TIME_SYNC that cannot
 * anchor them, or a hold that outgrows its caps, releases frames with
 * estimated times and says so.
 *
 * Protocol versions 1 and 2 differ here only in the timestamp field of
 * timed records (sonde_ts.h): its place, and whether it holds the low bits
 * of the tick counter or a delta.  The version is chosen by TARGET_INFO;
 * before one, version 2 is assumed unless -o version=1 says otherwise.
 *
 * The input may rejoin the stream after a break (a live link that was
 * reconnected, sonde_decoder_ops.rejoin): the bytes are still framed as one
 * stream (so that a raw capture of the link decodes the same), but the
 * sequence gap at the rejoin is counted as lost on the link and the next
 * DROPS is taken as a new baseline (the target may have been reset, or be
 * another one, while the link was down).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sonde_dec.h"
#include "sonde_proto.h"
#include "core/msg.h"
#include "util/bytes.h"
#include "core/opts.h"

/* A diagnostic that marks a loss, on the processing side: it resets the
 * nesting state and, for a sequence gap (its first frame at host index
 * idx), queues the frames for a DROPS to explain (sonde_loss.h).  The gap
 * where the input rejoined the stream (rejoin): version 3 learns its true
 * size from the next DROPS; earlier versions charge it to the link. */
static void process_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame,
			 uint64_t count, int rejoin, uint64_t idx, const char *msg)
{
	if (code == SONDE_D_SEQ_GAP && rejoin && d->version < 3)
		d->ses->lost_link += count;
	else if (code == SONDE_D_SEQ_GAP)
		d->ses->lost_unexplained += sloss_gap(&d->loss, idx, count);
	sstk_reset(&d->stk);
	srtos_loss(&d->rtos);
	sdec_diag(d, code, offset, frame, count, "%s", msg);
}

/* The input rejoined the stream after a break, on the processing side:
 * sonde_loss.h says what becomes of the gaps no DROPS explained yet. */
static void process_rejoin(struct sdec *d)
{
	d->ses->lost_unexplained += sloss_rejoin(&d->loss, d->version);
	sstk_reset(&d->stk);
	srtos_loss(&d->rtos);
}

/* ---- the hold queue ------------------------------------------------------ */

static void release_one(struct sdec *d)
{
	struct shold_item *it = shold_at(&d->hold, 0);
	uint8_t *data = shold_data(&d->hold, it);
	if (it->type == SHOLD_DIAG) {
		process_diag(d, (enum sonde_diag_code)it->code, it->offset, it->frame, it->count, it->link, it->idx,
			     (const char *)data);
	} else if (it->type == SHOLD_REJOIN) {
		process_rejoin(d);
	} else {
		uint16_t esc[SDEC_FRAME_MAX];
		memcpy(esc, data + it->len, it->nesc * sizeof(uint16_t)); /* the ring is byte-aligned */
		struct sdec_frame f = { .b = data, .len = it->len, .offset = it->offset, .frame = it->frame,
					.idx = it->idx, .esc = esc, .nesc = it->nesc, .forced = it->timed, .t = it->t,
					.tflags = it->tflags };
		srec_process(d, &f);
	}
	shold_pop(&d->hold);
}

/* Give the oldest held item an estimated time (forwards from the last time
 * known) and release it. */
static void release_estimated(struct sdec *d)
{
	struct shold_item *it = shold_at(&d->hold, 0);
	if (it->type == SHOLD_FRAME && it->timed) {
		uint64_t from = d->tflags & SONDE_TS_VALID ? d->T : 0;
		it->t = from + sts_forward(d->version, from, it->tv);
		it->tflags = SONDE_TS_VALID | SONDE_TS_ESTIMATED;
	}
	release_one(d);
}

static uint64_t count_timed(struct sdec *d)
{
	uint64_t n = 0;
	for (size_t i = 0; i < shold_count(&d->hold); i++)
		n += shold_at(&d->hold, i)->timed;
	return n;
}

/* Release everything held with estimated times; why says why. */
static void release_all_estimated(struct sdec *d, const char *why)
{
	if (!shold_count(&d->hold))
		return;
	struct shold_item *first = shold_at(&d->hold, 0);
	uint64_t n = count_timed(d);
	if (n)
		sdec_diag(d, SONDE_D_TIME, first->offset, first->frame, n,
			  "%llu records after a loss have estimated times: %s", (unsigned long long)n, why);
	while (shold_count(&d->hold))
		release_estimated(d);
}

/* A TIME_SYNC with absolute time abs arrived, written since_prev ticks
 * after the target's previous timed frame.  The held frames were written
 * consecutively before it, so their times follow backwards exactly: the
 * newest at abs - since_prev, each earlier one at T_next minus the ticks
 * between it and the next one (version 2: the next one's delta; version 1:
 * the difference of their compact times, exact by rule 2) -- up to the
 * latest loss among them.
 *
 * Estimates instead, computed the same way but with a guess for the
 * newest (sts_back_to_sync):
 * - for every frame when since_prev is unknown (the target had written no
 *   timed frame since it started, or not for 2^32 - 1 ticks);
 * - for every frame when frames were lost between the newest held one and
 *   this TIME_SYNC (brk): since_prev then counts from a frame we never
 *   got;
 * - for the frames before a loss among them (the chain is broken there).
 * The decoder used to check the result against the last exact time before
 * the loss, because backward times could come out too late by a multiple
 * of 65536 when the TIME_SYNC followed a long silence (rule 2); since_prev
 * answers that exactly, so the check is gone.  What still needs a guard is
 * the second case, which that check caught only by chance. */
static void release_synced(struct sdec *d, uint64_t abs, uint32_t since_prev, int brk)
{
	int unknown = since_prev == SONDE_SYNC_SINCE_UNKNOWN;
	int est = brk || unknown, newest = 1;
	uint64_t tn = abs;
	uint32_t vn = 0; /* the timestamp field of the held record after this one */
	uint64_t n_est = 0;
	size_t first_est = 0;
	for (size_t i = shold_count(&d->hold); i-- > 0;) {
		struct shold_item *it = shold_at(&d->hold, i);
		if (it->type == SHOLD_FRAME && it->timed) {
			uint64_t back = !newest ? sts_back(d->version, it->tv, vn)
				      : est  ? sts_back_to_sync(d->version, it->tv, abs, since_prev)
					     : since_prev;
			int under = back > tn;
			it->t = under ? 0 : tn - back;
			it->tflags = SONDE_TS_VALID | (est || under ? SONDE_TS_ESTIMATED : 0);
			if (est || under) {
				n_est++;
				first_est = i;
			}
			tn = it->t;
			vn = it->tv;
			newest = 0;
		}
		if (it->after_break)
			est = 1;
	}
	if (n_est) {
		struct shold_item *it = shold_at(&d->hold, first_est);
		const char *why = unknown ? "the next TIME_SYNC does not know how long before it the last of them "
					    "was written (since_prev unknown)"
				  : brk ? "frames were lost between them and the next TIME_SYNC"
					: "no TIME_SYNC between two losses";
		sdec_diag(d, SONDE_D_TIME, it->offset, it->frame, n_est,
			  "%llu records after a loss have estimated times: %s", (unsigned long long)n_est, why);
	}
	while (shold_count(&d->hold))
		release_one(d);
}

/* Room for one more item.  When a cap is hit, the older half of what is
 * held is released early with estimated times, under one diagnostic that
 * counts them (so that every estimate is accounted for by a diagnostic). */
static struct shold_item *hold_push(struct sdec *d, size_t len)
{
	struct shold_item *it;
	while (!(it = shold_push(&d->hold, len))) {
		size_t n = shold_count(&d->hold);
		if (!n)
			return NULL; /* cannot happen: one item always fits */
		size_t batch = n > 1 ? n / 2 : 1;
		uint64_t timed = 0;
		for (size_t i = 0; i < batch; i++)
			timed += shold_at(&d->hold, i)->timed;
		struct shold_item *first = shold_at(&d->hold, 0);
		if (timed)
			sdec_diag(d, SONDE_D_TIME, first->offset, first->frame, timed,
				  "%llu records after a loss have estimated times: no TIME_SYNC within %d records "
				  "(or %u KiB) to anchor them",
				  (unsigned long long)timed, SHOLD_MAX_ITEMS, SHOLD_RING_BYTES >> 10);
		while (batch--)
			release_estimated(d);
	}
	it->after_break = (uint8_t)d->brk;
	d->brk = 0;
	return it;
}

/* ---- arrival ------------------------------------------------------------- */

static void submit_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
			int link, const char *msg)
{
	if (!shold_count(&d->hold)) {
		process_diag(d, code, offset, frame, count, link, d->anext, msg);
		return;
	}
	size_t len = strlen(msg) + 1;
	struct shold_item *it = hold_push(d, len);
	if (!it)
		return;
	it->type = SHOLD_DIAG;
	it->link = (uint8_t)link;
	it->code = code;
	it->offset = offset;
	it->frame = frame;
	it->idx = d->anext;
	it->count = count;
	it->len = (uint32_t)len;
	memcpy(shold_data(&d->hold, it), msg, len);
}

static void mark_loss(struct sdec *d)
{
	d->t_known = 0;
	d->brk = 1;
}

/* Process a frame now, or hold it (while anything is held, or when it is
 * timed and the time is unknown); tv is its timestamp field's value. */
static void hold_or_process(struct sdec *d, const struct sdec_frame *f, int timed, uint32_t tv)
{
	size_t len = f->len;
	if (!shold_count(&d->hold) && (d->t_known || !timed)) {
		srec_process(d, f);
		return;
	}
	size_t esc_bytes = f->nesc * sizeof(uint16_t);
	struct shold_item *it = hold_push(d, len + esc_bytes);
	if (!it)
		return;
	it->type = SHOLD_FRAME;
	it->timed = (uint8_t)timed;
	it->tv = timed ? tv : 0;
	it->offset = f->offset;
	it->frame = f->frame;
	it->idx = f->idx;
	it->len = (uint32_t)len;
	it->nesc = (uint32_t)f->nesc;
	uint8_t *dst = shold_data(&d->hold, it);
	memcpy(dst, f->b, len);
	memcpy(dst + len, f->esc, esc_bytes);
}

static void submit_frame(struct sdec *d, const uint8_t *b, size_t len, uint64_t offset, uint64_t frame)
{
	uint8_t id = b[1];
	size_t dlen = len - 3;
	const uint8_t *p = b + 2;
	struct sdec_frame f = { .b = b, .len = len, .offset = offset, .frame = frame, .idx = d->anext++,
				.esc = d->fr.esc_pos,
				.nesc = d->fr.esc_n };

	if (id == SONDE_REC_TIME_SYNC && !d->rejected) {
		if (dlen != SONDE_SYNC_BYTES) {
			/* Malformed (reported when processed): the time it carried
			 * is lost, and with it the chain of times across it. */
			hold_or_process(d, &f, 0, 0);
			mark_loss(d);
			return;
		}
		if (shold_count(&d->hold))
			release_synced(d, bytes_le(p, 8), (uint32_t)bytes_le(p + 8, 4), d->brk);
		srec_process(d, &f);
		d->t_known = 1;
		d->brk = 0;
		return;
	}
	/* A restart or a change of protocol version ends the timeline: what is
	 * held cannot be anchored by a TIME_SYNC of the new one.  Processed at
	 * once, so the new version applies to the frames that follow. */
	if (id == SONDE_REC_TARGET_INFO && dlen >= 1 &&
	    (p[0] != d->version || d->rejected || (dlen == 18 && (p[1] & SONDE_INFO_F_RESET)))) {
		release_all_estimated(d, "the target restarted before a TIME_SYNC");
		srec_process(d, &f);
		return;
	}
	struct sts ts;
	int timed = d->rejected ? 0 : srec_time_field(d->version, id, p, dlen, d->addr_size, &ts);
	if (timed > 0)
		f.split = &ts; /* processed at once: srec_process need not split it again */
	hold_or_process(d, &f, timed > 0, timed > 0 ? ts.v : 0);
	if (timed < 0) /* its delta is unknown: the chain of times breaks here */
		mark_loss(d);
}

static const char *status_text(enum hdlc_status st)
{
	switch (st) {
	case HDLC_BAD_CHECKSUM: return "bad checksum";
	case HDLC_TOO_SHORT: return "frame too short";
	case HDLC_TOO_LONG: return "frame longer than 1024 bytes";
	case HDLC_ABORTED: return "frame aborted (escape byte before the flag)";
	case HDLC_TRUNCATED: return "input ends inside a frame";
	default: return "bad frame";
	}
}

static enum sonde_diag_code status_code(enum hdlc_status st)
{
	switch (st) {
	case HDLC_BAD_CHECKSUM: return SONDE_D_BAD_CHECKSUM;
	case HDLC_TOO_SHORT: return SONDE_D_TOO_SHORT;
	case HDLC_TOO_LONG: return SONDE_D_TOO_LONG;
	case HDLC_ABORTED: return SONDE_D_ABORTED;
	default: return SONDE_D_TRUNCATED;
	}
}

/* ---- the fast path ------------------------------------------------------- */

/* The common case, decided on arrival: a good frame in sequence, of a
 * timed record whose timestamp field and length are right, while the time
 * runs (fast_ok).  It goes straight to the record parser -- what on_frame,
 * submit_frame, hold_or_process and srec_process would do with it, without
 * their other cases -- or, when its event is not needed, is tallied here
 * (srec_tally_simple).  Returns 0 (nothing done) for any other frame. */
static inline __attribute__((always_inline)) int fast_frame(struct sdec *d, const uint8_t *b, size_t len,
								uint64_t offset, const uint16_t *esc, size_t nesc)
{
	uint8_t seq = b[0], id = b[1];
	if (!d->timed[id] || seq != (uint8_t)(d->last_seq + 1))
		return 0;
	struct sts ts;
	if (sts_split_frame(d->version, b, len, &ts) != STS_OK || ts.n < d->len_lo[id] || ts.n > d->len_hi[id])
		return 0;
	d->ses->frames++;
	d->rejoin = 0;
	d->last_seq = seq;
	uint64_t fno = d->nframes++, idx = d->anext++;
	const uint8_t *q = b + 2 + ts.off;
	if (d->tally_id[id] == SREC_TALLY_SIMPLE && srec_may_tally_now(d)) {
		d->T += sts_forward(d->version, d->T, ts.v); /* srec_take_time, forwards */
		srec_tally_simple(d, id, q);
		return 1;
	}
	struct sdec_frame f = { .b = b, .len = len, .offset = offset, .frame = fno, .idx = idx,
				.esc = esc, .nesc = nesc, .split = &ts };
	d->cur = &f;
	srec_take_time(d, &f, ts.v);
	srec_record(d, &f, id, q, ts.n, ts.off);
	return 1;
}

/* fast_frame may take frames: the time runs (known, nothing held, a
 * supported version) and the sequence has begun.  Only frames fast_frame
 * does not take change that. */
static int fast_ok(const struct sdec *d)
{
	return d->t_known && !d->rejected && !shold_count(&d->hold) && d->have_seq;
}

/* The framer's hot loop (hdlc_fast_run) offers each good frame here. */
static int fast_take(void *ctx, const uint8_t *b, size_t len, uint64_t offset, const uint16_t *esc, size_t nesc)
{
	return fast_frame(ctx, b, len, offset, esc, nesc);
}

/* The frames at data[0..n) that need nothing else, while the framer is
 * between frames (hdlc_fast_run): up to the first one fast_frame leaves
 * (an escape no longer sends a frame there: it is un-escaped in place). */
static size_t fast_run(void *ctx, const uint8_t *data, size_t n)
{
	struct sdec *d = ctx;
	return fast_ok(d) ? hdlc_fast_run(&d->fr, data, n, SDEC_FRAME_MAX, fast_take, d) : 0;
}

/* ---- the framer's frames ---------------------------------------------------- */

static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *b, size_t len, uint64_t offset, size_t raw)
{
	struct sdec *d = ctx;
	if (st == HDLC_OK && fast_ok(d) && fast_frame(d, b, len, offset, d->fr.esc_pos, d->fr.esc_n))
		return;
	uint64_t fno = d->nframes++;
	d->ses->frames++;
	if (st != HDLC_OK) {
		char msg[160];
		enum sonde_diag_code code = status_code(st);
		if (fno == 0 && st != HDLC_TRUNCATED) {
			/* no opening flag: whatever precedes the first flag of a
			 * stream joined mid-way is the tail of a frame */
			code = SONDE_D_GARBAGE;
			snprintf(msg, sizeof(msg), "%zu bytes before the first frame boundary discarded (%s; "
				 "stream joined mid-way?)", raw, status_text(st));
		} else {
			snprintf(msg, sizeof(msg), "%s: %zu bytes discarded", status_text(st), raw);
		}
		submit_diag(d, code, offset, fno, raw, 0, msg);
		mark_loss(d);
		return;
	}
	uint8_t seq = b[0], id = b[1];
	/* An EMPTY frame starts a session (sonde_init) and resets the sequence
	 * silently, as QSPY does. */
	if (d->have_seq && id != SONDE_REC_EMPTY && seq != (uint8_t)(d->last_seq + 1)) {
		char msg[160];
		uint8_t missing = (uint8_t)(seq - d->last_seq - 1);
		snprintf(msg, sizeof(msg), "sequence gap: %u frames lost (seq %u after %u)", missing, seq,
			 d->last_seq);
		submit_diag(d, SONDE_D_SEQ_GAP, offset, fno, missing, d->rejoin, msg);
		d->anext += missing;
		mark_loss(d);
	}
	d->rejoin = 0;
	d->have_seq = 1;
	d->last_seq = seq;
	submit_frame(d, b, len, offset, fno);
}

/* ---- the decoder ops ------------------------------------------------------ */

static void *sdec_create(const struct sonde_out *out, sonde_opts opts)
{
	uint64_t freq = 0, asz = 4, version = SONDE_PROTO_VERSION;
	if (sonde_opt_uint(opts, "ts_freq", 1, UINT32_MAX, &freq) < 0 || sonde_opt_uint(opts, "addr_size", 1, 8, &asz) < 0 ||
	    sonde_opt_uint(opts, "version", SONDE_PROTO_VERSION_1, SONDE_PROTO_VERSION, &version) < 0)
		return NULL;
	struct sdec *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (shold_init(&d->hold) != 0) {
		free(d);
		return NULL;
	}
	d->out = *out;
	d->ses = out->session ? out->session : &d->own_session;
	d->ses->ts_freq = freq;
	d->ses->addr_size = (uint32_t)asz;
	d->addr_size = (unsigned)asz;
	d->assumed = (unsigned)version;
	sdec_set_version(d, d->assumed, 0);
	srec_set_tally(d);
	hdlc_init(&d->fr, d->frbuf, sizeof(d->frbuf), on_frame, d);
	hdlc_track_escapes(&d->fr, d->escbuf, SDEC_FRAME_MAX);
	sdict_init(&d->dict);
	/* names are static, dictionary entries (a new one is a new copy) or a
	 * user record's name parsed from one: their text changes only with
	 * the dictionary */
	d->ses->names_gen = d->dict.gen;
	sstk_init(&d->stk);
	sloss_init(&d->loss);
	d->anext = SLOSS_FIRST_INDEX;
	srtos_reset(&d->rtos);
	for (int i = 0; i < 64; i++)
		snprintf(d->user_names[i], sizeof(d->user_names[i]), "USER_0x%02X", SONDE_REC_USER_FIRST + i);
	return d;
}

/* Frames that need nothing else are taken in the framer's hot loop
 * (fast_run); each other one goes through the framer and on_frame. */
static void sdec_feed(void *dec, const uint8_t *buf, size_t n)
{
	struct sdec *d = dec;
	hdlc_feed_fast(&d->fr, buf, n, fast_run, d);
}

/* The input continues after a break (a reconnected link): in stream order
 * behind what is held, the accounting notes it (process_rejoin); on the
 * arrival side it is a loss like any other, and the next sequence gap is
 * the one across the break. */
static void sdec_rejoin(void *dec)
{
	struct sdec *d = dec;
	if (!shold_count(&d->hold)) {
		process_rejoin(d);
	} else {
		struct shold_item *it = hold_push(d, 0);
		if (it)
			it->type = SHOLD_REJOIN;
	}
	mark_loss(d);
	d->rejoin = 1;
}

static void sdec_finish(void *dec)
{
	struct sdec *d = dec;
	hdlc_finish(&d->fr);
	release_all_estimated(d, "the input ended before a TIME_SYNC");
	d->ses->lost_unexplained += sloss_finish(&d->loss); /* no DROPS came to explain them */
}

static void sdec_destroy(void *dec)
{
	struct sdec *d = dec;
	if (!d)
		return;
	shold_free(&d->hold);
	sdict_free(&d->dict);
	sstk_free(&d->stk);
	srtos_free(&d->rtos);
	free(d);
}

const struct sonde_decoder_ops sonde_decoder_sonde = {
	.name = "sonde",
	.desc = "Sonde's own protocol (docs/protocol.md)",
	.probe = sdec_probe,
	.create = sdec_create,
	.feed = sdec_feed,
	.finish = sdec_finish,
	.destroy = sdec_destroy,
	.rejoin = sdec_rejoin,
};
