/*
 * select.h -- host-side selection: the pipeline stage that decides which
 * events reach the sinks and listeners (core/pipe.c asks it for each event).
 *
 *   --from T / --to T   a time window: T in seconds (a number, or with the
 *                       unit s, ms, us or ns) counts from the first timed
 *                       record of the session, as the timelines show it;
 *                       T with the unit t is in ticks of the target's clock,
 *                       as the text/JSONL/CSV outputs show `ts`.
 *   --core LIST         only these cores ("0", "0,2", "1-3").
 *   --filter EXPR       [!]FIELD=GLOB[,GLOB...] with FIELD kind (isr_enter,
 *                       task_*, ...), name (the record's name) or obj (the
 *                       object's id or name); repeatable: every filter must
 *                       hold, one of its globs must match; '!' negates.
 *
 * Events without a time of their own (TARGET_INFO, DICT, ...) are inside
 * the window; diagnostics always pass.  docs/cli.md section 2 tells the rest.
 */
#ifndef SONDE_SELECT_H
#define SONDE_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

#define SONDE_SELECT_MAX_FILTERS 16
#define SONDE_SELECT_MAX_CORES 64 /* core ranges given */

enum sel_field { SEL_KIND, SEL_NAME, SEL_OBJ };

struct sel_filter {
	enum sel_field field;
	int negate;
	char *globs;        /* owned, NUL-separated, double-NUL-terminated */
};

struct sel_bound {
	int set;
	int ticks;          /* value in ticks (absolute) rather than ns from the start */
	uint64_t v;         /* ticks, or ns from the session's first timed record */
};

struct sonde_select {
	int active;         /* anything to do at all */
	struct sel_bound from, to;
	uint32_t core_lo[SONDE_SELECT_MAX_CORES], core_hi[SONDE_SELECT_MAX_CORES];
	size_t ncores;
	struct sel_filter filt[SONDE_SELECT_MAX_FILTERS];
	size_t nfilt;
	uint64_t passed, rejected; /* events */
};

void sonde_select_init(struct sonde_select *s);
void sonde_select_free(struct sonde_select *s);

/* Take one option: name is "from", "to", "core" or "filter".  Returns 0, or
 * -1 with the reason in err (no trailing newline). */
int sonde_select_option(struct sonde_select *s, const char *name, const char *val, char *err, size_t errlen);

/* Parse a time "1.5", "250ms", "10us", "123t".  Returns 0 or -1. */
int sonde_select_parse_time(const char *val, struct sel_bound *b);

/* Does ev pass?  The session gives the clock rate and the time origin. */
int sonde_select_accept(struct sonde_select *s, const struct sonde_event *ev, const struct sonde_session *ss);

#endif /* SONDE_SELECT_H */
