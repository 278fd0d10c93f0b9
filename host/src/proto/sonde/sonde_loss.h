/*
 * sonde_loss.h -- who lost the frames missing from a Sonde stream: the
 * target (overwritten in its ring) or the link.  docs/protocol.md section 4
 * (DROPS) gives the rule and why it is exact; this is its bookkeeping.
 *
 * Frames are numbered by the host as they arrive ("host index": one per
 * sequence slot, gaps included), and by the target since sonde_init()
 * ("frame number", 32 bits; a version-3 DROPS carries its own and the
 * first one that can still be overwritten, "oldest").  Each sequence gap
 * is queued with its host index.  A version-3 report settles the gaps
 * below oldest: of them exactly the reported increase of "overwritten" was
 * overwritten, the rest was lost on the link.  Gaps from oldest on wait
 * for a later report (the target writes one once they have all left its
 * ring).  Version 1 and 2 reports carry no frame numbers: their overwrites
 * are matched to the oldest waiting gaps and nothing is charged to the
 * link, since a report cannot say which gaps it covers (frames older than
 * it may be overwritten after it was written).  Gaps no report explains
 * are "unexplained" at the end of the input or at a break in the record.
 */
#ifndef SONDE_PROTO_LOSS_H
#define SONDE_PROTO_LOSS_H

#include <stddef.h>
#include <stdint.h>

#define SLOSS_MAX_GAPS 4096

/* The first host index.  Not 0: placing a run of frames the sequence
 * numbers hid moves the waiting gaps before it back (sonde_loss.c), and
 * they must not pass below zero. */
#define SLOSS_FIRST_INDEX ((uint64_t)1 << 40)

struct sloss_gap {
	uint64_t first;  /* host index of the first missing frame */
	uint64_t count;
};

/* What a DROPS report is found to say, for its event and the totals. */
struct sloss_totals {
	uint32_t overwritten, refused, stopped; /* the report's totals */
	uint8_t resets;
	int has_frames;                         /* version 3: frame and oldest below */
	uint32_t frame, oldest;
};

struct sloss_result {
	uint64_t overwritten, refused, stopped; /* increases since the previous report */
	uint64_t link;          /* frames settled now as lost on the link */
	uint64_t unexplained;   /* frames given up now: the report is a new baseline */
	uint64_t pending;       /* frames of gaps still waiting for a report */
	uint64_t unseen;        /* whole-256 runs of frames the sequence numbers hid */
	uint64_t before;        /* frames the target had sent before the first one received
				 * (a capture joined mid-way): no loss of the capture */
	int counters_reset;     /* the target's totals restarted (RESET_CTRS) */
	int baseline;           /* first report of a stream joined mid-way, or after a
				 * break the frame numbers do not bridge */
};

struct sloss {
	struct sloss_gap q[SLOSS_MAX_GAPS]; /* circular, oldest first */
	size_t first, n;
	uint64_t credit;        /* a report's overwrites not yet matched to a gap (within
				 * sloss_report only) */
	int anchored;           /* frame number = host index + anchor (mod 2^32) */
	uint32_t anchor;
	int rejoined;           /* the link was reconnected since */
	int started;            /* a report or a target reset was seen */
	uint64_t lead_first;    /* frames [lead_first, SLOSS_FIRST_INDEX) (host indexes) came */
	uint64_t lead;          /*   before the first one received: lead of them, waiting */
	int base_valid;         /* the totals below are those of the previous report */
	uint32_t base_over, base_ref, base_stop;
	uint8_t base_resets;
	unsigned version;       /* protocol version of the reports */
};

void sloss_init(struct sloss *l);

/* A sequence gap of count frames, the first of them at host index first.
 * Returns frames given up as unexplained (the queue was full). */
uint64_t sloss_gap(struct sloss *l, uint64_t first, uint64_t count);

/* The target restarted (TARGET_INFO with the reset flag, frame number 1,
 * at host index h): its totals count from 0.  Returns the frames of
 * waiting gaps given up as unexplained. */
uint64_t sloss_target_reset(struct sloss *l, uint64_t h);

/* The input continued after a break.  Version 3: the next report says
 * whether the frame numbers bridge it (and so how many frames the gap
 * across it really has).  Earlier versions, or no report before the break:
 * gaps before it are given up (returned) and the next report is a
 * baseline. */
uint64_t sloss_rejoin(struct sloss *l, unsigned version);

/* A DROPS report at host index h. */
void sloss_report(struct sloss *l, unsigned version, uint64_t h, const struct sloss_totals *t,
		  struct sloss_result *r);

/* The end of the input: the waiting gaps, less what reported overwrites
 * still cover, are unexplained (returned). */
uint64_t sloss_finish(struct sloss *l);

/* Frames of gaps waiting for a report. */
uint64_t sloss_pending(const struct sloss *l);

#endif /* SONDE_PROTO_LOSS_H */
