/*
 * sonde_loss.c -- the split of lost frames between target and link
 * (sonde_loss.h; the rule: docs/protocol.md section 4, DROPS).
 *
 * The waiting gaps are a queue in host-index order.  Nothing here guesses:
 * a frame is charged to the link only when a version-3 report has said
 * that every frame below its "oldest" is either counted in the overwrite
 * total or was read out of the target's ring.  Where the host cannot place
 * something exactly (a run of 256 lost frames the sequence numbers cannot
 * show), it places it as late as it can, which only makes frames wait
 * longer for a report -- never charges the link for an overwrite.
 */
#include <string.h>

#include "sonde_loss.h"

void sloss_init(struct sloss *l)
{
	memset(l, 0, sizeof(*l));
}

static struct sloss_gap *at(struct sloss *l, size_t i)
{
	return &l->q[(l->first + i) % SLOSS_MAX_GAPS];
}

static void pop(struct sloss *l)
{
	l->first = (l->first + 1) % SLOSS_MAX_GAPS;
	l->n--;
}

/* Drop the gaps left with no frame, keeping the others in order. */
static void compact(struct sloss *l)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++)
		if (at(l, i)->count)
			*at(l, k++) = *at(l, i);
	l->n = k;
}

uint64_t sloss_pending(const struct sloss *l)
{
	uint64_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->q[(l->first + i) % SLOSS_MAX_GAPS].count;
	return n;
}

/* Reported overwrites not yet matched go to the oldest waiting gaps:
 * overwritten frames are always older than what survives them. */
static void match_credit(struct sloss *l)
{
	while (l->n && l->credit) {
		struct sloss_gap *g = at(l, 0);
		uint64_t m = g->count < l->credit ? g->count : l->credit;
		g->count -= m;
		g->first += m;
		l->credit -= m;
		if (!g->count)
			pop(l);
	}
}

/* Every waiting gap is given up: returns its frames (less what reported
 * overwrites cover). */
static uint64_t give_up(struct sloss *l)
{
	match_credit(l);
	uint64_t n = sloss_pending(l);
	l->first = l->n = 0;
	l->credit = 0;
	return n;
}

uint64_t sloss_gap(struct sloss *l, uint64_t first, uint64_t count)
{
	uint64_t lost = 0;
	if (l->n == SLOSS_MAX_GAPS) {
		/* A report is long overdue: the oldest gap cannot wait longer. */
		match_credit(l);
		if (l->n == SLOSS_MAX_GAPS) {
			lost = at(l, 0)->count;
			pop(l);
		}
	}
	struct sloss_gap *g = at(l, l->n++);
	g->first = first;
	g->count = count;
	return lost;
}

static void set_base(struct sloss *l, const struct sloss_totals *t)
{
	l->base_valid = 1;
	l->base_over = t->overwritten;
	l->base_ref = t->refused;
	l->base_stop = t->stopped;
	l->base_resets = t->resets;
}

uint64_t sloss_target_reset(struct sloss *l, uint64_t h)
{
	uint64_t lost = give_up(l);
	l->started = 1;
	l->lead = 0;
	static const struct sloss_totals zero;
	set_base(l, &zero);
	l->anchored = 1;
	l->anchor = 1u - (uint32_t)h; /* TARGET_INFO is frame 1, after EMPTY */
	l->rejoined = 0;
	return lost;
}

uint64_t sloss_rejoin(struct sloss *l, unsigned version)
{
	if (version >= 3 && l->base_valid && l->anchored) {
		l->rejoined = 1;
		return 0;
	}
	l->base_valid = 0;
	l->anchored = 0;
	l->rejoined = 0;
	return give_up(l);
}

/* The report cannot be tied to what came before (frame numbers that do not
 * follow on, a break they do not bridge, a stream joined mid-way): its
 * totals become the baseline and the waiting gaps are given up. */
static void baseline(struct sloss *l, uint64_t h, const struct sloss_totals *t, struct sloss_result *r)
{
	r->baseline = 1;
	r->unexplained = give_up(l);
	l->lead = 0;
	set_base(l, t);
	l->anchored = t->has_frames;
	l->anchor = t->frame - (uint32_t)h;
	l->rejoined = 0;
}

/* Frame numbers moved diff further than the host's indexes since the last
 * anchor: runs of 256 lost frames the sequence numbers hid (or, after a
 * rejoin, the part of the gap across the break they could not show).
 * Where they were is not known.  They are placed as late as they can have
 * been, and everything the host saw before them moves back by diff, so
 * that the waiting frames are where they are latest in one consistent
 * picture: never settled earlier than they should be, and never two
 * frames in one place.  (Leaving the waiting gaps where they were and
 * putting the runs after them overlapped the two: a report that settled
 * the overlap charged the link for a frame its totals had not yet
 * counted -- a real capture, reconnected under load, showed one.)
 *
 * Latest means: right before the report's TIME_SYNC, which the target
 * writes next to the DROPS (nothing can come between them); or, when that
 * TIME_SYNC is missing too (the newest waiting gap ends at the report),
 * right before the DROPS, joined to that gap. */
static void place_unseen(struct sloss *l, uint64_t h, uint32_t diff)
{
	uint64_t end = h - 1;
	if (l->n && at(l, l->n - 1)->first + at(l, l->n - 1)->count == h)
		end = h;
	for (size_t i = 0; i < l->n; i++)
		at(l, i)->first -= diff;
	l->lead_first -= diff;
	sloss_gap(l, end - diff, diff);
}

void sloss_report(struct sloss *l, unsigned version, uint64_t h, const struct sloss_totals *t,
		  struct sloss_result *r)
{
	memset(r, 0, sizeof(*r));
	l->version = version;
	if (!l->base_valid && !l->started && t->has_frames && t->resets == 0 && t->frame <= h - SLOSS_FIRST_INDEX / 2) {
		/* The first report of a capture that did not see the target
		 * start (its start overwritten before it was ever read out, or
		 * a capture joined mid-way): with no counter reset, the totals
		 * count from sonde_init() and the frame numbers from 0, so the
		 * frames before the first one received are a gap like any other
		 * -- but one the link never carried to this capture.  What the
		 * overwrites do not explain of it was sent before the capture
		 * began (before). */
		static const struct sloss_totals zero;
		set_base(l, &zero);
		l->anchored = 1;
		l->anchor = t->frame - (uint32_t)h;
			l->lead_first = h - t->frame;
		l->lead = l->lead_first < SLOSS_FIRST_INDEX ? SLOSS_FIRST_INDEX - l->lead_first : 0;
	}
	l->started = 1;
	if (!l->base_valid) {
		baseline(l, h, t, r);
		r->pending = sloss_pending(l);
		return;
	}
	int reset = version == 1 ? t->overwritten < l->base_over || t->refused < l->base_ref
				 : t->resets != l->base_resets;
	if (t->has_frames) {
		if (!l->anchored) {
			l->anchored = 1;
			l->anchor = t->frame - (uint32_t)h;
		}
		uint32_t diff = t->frame - ((uint32_t)h + l->anchor);
		/* A frame number behind the host's count, or a break with the
		 * totals going down without a counter reset: another target, or
		 * this one restarted while the link was down. */
		if (diff >= 0x80000000u ||
		    (l->rejoined && !reset && (t->overwritten < l->base_over || t->refused < l->base_ref))) {
			baseline(l, h, t, r);
			r->pending = sloss_pending(l);
			return;
		}
		if (diff) {
			if (!l->rejoined)
				r->unseen = diff;
			place_unseen(l, h, diff);
		}
		l->anchor = t->frame - (uint32_t)h;
			l->rejoined = 0;
	}
	r->counters_reset = reset;
	r->overwritten = reset ? t->overwritten : t->overwritten - l->base_over;
	r->refused = reset ? t->refused : t->refused - l->base_ref;
	r->stopped = reset ? t->stopped : t->stopped - l->base_stop;
	l->credit += r->overwritten;
	if (t->has_frames) {
		/* Every frame below oldest was overwritten (and counted in the
		 * totals) or read out: of the gaps there, the overwrites not yet
		 * matched are the target's, the rest the link's. */
		uint32_t back = t->frame - t->oldest;
		uint64_t oldest_h = back > h ? 0 : h - back;
		uint64_t take = 0;
		for (size_t i = 0; i < l->n; i++) {
			struct sloss_gap *g = at(l, i);
			if (g->first >= oldest_h)
				continue;
			uint64_t k = oldest_h - g->first < g->count ? oldest_h - g->first : g->count;
			g->first += k;
			g->count -= k;
			take += k;
		}
		compact(l);
		uint64_t m = take < l->credit ? take : l->credit;
		l->credit -= m;
		r->link += take - m;
		/* The frames before the first one received go last: over a
		 * lossless link every gap the capture saw was overwritten, and
		 * the rest of the overwrites were among them. */
		if (l->lead && l->lead_first < oldest_h) {
			uint64_t m = l->lead < l->credit ? l->lead : l->credit;
			l->credit -= m;
			r->before = l->lead - m;
			l->lead = 0;
		}
	}
	/* Overwrites the settled gaps did not take: frames the host placed
	 * too late (runs of 256 it could not see), or, in versions 1 and 2,
	 * simply the waiting gaps.  What is left after that was never seen
	 * missing: a report covers only frames written before it, so its
	 * count cannot explain a gap that comes later. */
	match_credit(l);
	l->credit = 0;
	set_base(l, t);
	r->pending = sloss_pending(l);
}

uint64_t sloss_finish(struct sloss *l)
{
	return give_up(l);
}
