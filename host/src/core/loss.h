/*
 * loss.h -- the one rule by which every output ends what a loss cuts
 * (docs/reliability.md, "A run cut by a loss").
 *
 * A loss is, in the event model:
 *   - a decoder diagnostic that means records are missing or damaged (a
 *     sequence gap, a bad checksum, a frame too short or too long, an
 *     aborted frame, discarded bytes, a truncated frame, a malformed
 *     record).  A diagnostic has no core: it cuts every core;
 *   - a DROPS event whose totals say that records were lost since the
 *     previous DROPS of its core, or that records were not made while
 *     tracing was stopped (no loss, but a hole all the same): it cuts its
 *     core;
 *   - a target reset (an INFO event whose argument "reset" is true): every
 *     core.
 * What is open on a cut core -- the running task's (or idle's, or no
 * task's) period, every ISR activation, every function call of every
 * context of that core -- ends there, as incomplete, at the loss's time:
 * a DROPS's own time (the target writes it where the refused records are
 * missing), else the last time of the core before the loss.  After it the
 * core is where a trace starts: no task, no ISR, no call, until a record
 * opens one.  The end of the input ends what is open the same way, at the
 * last time of each core.
 *
 * The stats and the report (analysis/an.c), the function profile, folded
 * stacks and SQLite calls (sinks/profile_model.c), and the timelines --
 * Perfetto, Chrome JSON, speedscope, the report's timeline
 * (sinks/trackmap.c) -- all ask this module, so they cut at the same
 * places.  It depends on which events mark a loss only, never on how the
 * decoder attributes the lost records.
 */
#ifndef SONDE_LOSS_H
#define SONDE_LOSS_H

#include <stdint.h>

#include "event.h"
#include "pipeline.h"

#define SONDE_LOSS_CORES 256          /* cores whose DROPS totals are kept apart; others share one */
#define SONDE_LOSS_ALL UINT32_MAX     /* sonde_loss_event: every core is cut */

struct sonde_loss {
	uint64_t over[SONDE_LOSS_CORES + 1], ref[SONDE_LOSS_CORES + 1]; /* latest DROPS totals */
	uint8_t have[SONDE_LOSS_CORES + 1];
};

/* A tracker with no DROPS seen. */
void sonde_loss_init(struct sonde_loss *l);

/* Does ev cut what is open?  Returns 1 with *core set to the core it cuts
 * (or SONDE_LOSS_ALL), else 0.  For a DROPS, *lost (may be NULL) gets the
 * records it reports lost since the previous DROPS of its core: the
 * increase of its totals, or the totals themselves where they went down
 * (the target's counters started again).  Call it once for every event, in
 * order: it keeps the DROPS totals of each core. */
int sonde_loss_event(struct sonde_loss *l, const struct sonde_event *ev, uint32_t *core, uint64_t *lost);

/* Does the diagnostic cut what is open (on every core)? */
int sonde_loss_diag(const struct sonde_diag *d);

/* Is ev a target reset (TARGET_INFO with its reset flag)? */
int sonde_loss_is_reset(const struct sonde_event *ev);

#endif /* SONDE_LOSS_H */
