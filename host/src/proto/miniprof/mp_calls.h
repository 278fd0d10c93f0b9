/*
 * mp_calls.h -- MiniProfiler's completed calls onto the event model.
 *
 * A ProfileRecord is one finished call: function, entry time, inclusive
 * duration, depth.  Entry and exit times are therefore both exact, and each
 * record becomes a FUNC_ENTER at entry and a FUNC_EXIT at entry + duration,
 * delivered in time order with the calls properly nested, so that the
 * profile, folded-stack and Perfetto sinks see an ordinary call trace.
 *
 * Records do not arrive in time order: a device reports a call when it
 * returns, so a caller comes after its callees.  The calls wait in a
 * reorder window until nothing that could still arrive can precede them:
 * a call is released once its entry is earlier than both the latest entry
 * received and the end of the latest finished root call (depth 0) -- which
 * holds whether the device sends records in completion order or in entry
 * order.  The window is bounded (miniprof.window calls): when it is full the
 * earliest call is released anyway, and a call that arrives after later
 * calls were released can no longer be placed; it is delivered as an
 * untimed RECORD and reported.  Calls that do not nest (a call overlapping
 * the previous one at the same or a lower depth, or outliving its caller)
 * are delivered and reported the same way.  Details: docs/proto-miniprof.md.
 */
#ifndef MP_CALLS_H
#define MP_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "mp_wire.h"
#include "pipeline.h"

#define MP_CALLS_DEFAULT_WINDOW 65536u
#define MP_CALLS_MAX_WINDOW     (16u * 1024u * 1024u)

struct mp_calls;

/* Events and diagnostics go to out (its session is not touched).  window:
 * calls held at most (1..MP_CALLS_MAX_WINDOW).  NULL when out of memory. */
struct mp_calls *mp_calls_new(const struct sonde_out *out, size_t window);
/* One record, from the packet at offset/frame. */
void mp_calls_add(struct mp_calls *c, const struct mp_record *r, uint64_t offset, uint64_t frame);
/* End of input: release everything, close what is open. */
void mp_calls_finish(struct mp_calls *c);
void mp_calls_free(struct mp_calls *c);

/* Counters, for the tests and the report. */
struct mp_calls_stats {
	uint64_t records;      /* records added */
	uint64_t released;     /* delivered as FUNC_ENTER/EXIT pairs */
	uint64_t forced;       /* released because the window was full */
	uint64_t late;         /* arrived after later calls were released */
	uint64_t unnested;     /* did not nest with their neighbours */
	size_t max_pending;    /* most calls held at once */
};
const struct mp_calls_stats *mp_calls_stats(const struct mp_calls *c);

#endif /* MP_CALLS_H */
