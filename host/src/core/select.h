/*
 * select.h -- host-side selection: the pipeline stage that decides which
 * events reach the sinks and listeners (core/pipe.c asks it for each event).
 *
 *   --from T / --to T   a time window: T in seconds (a number, or with the
 *                       unit s, ms, us or ns) is the target's time, the
 *                       `seconds` that text/JSONL/CSV print, so a time
 *                       pasted from them selects what it says; +T counts
 *                       from the first timed record of the session, as the
 *                       timelines show it; T with the unit t is in ticks
 *                       of the target's clock (`ts`), +Tt ticks from the
 *                       first timed record.
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

/* The texts of an event that a filter of each field matches, one of them
 * enough: kind: the kind's name; name: the record's name, and a LOG's text;
 * obj: the object's id in decimal, its name, and for an address (FUNC_*
 * with SONDE_EVF_ADDR) 0x and the hex digits -- none when the kind has no
 * object or it is unknown.  NULL where absent.  The texts point into the
 * event and into num/hex: valid while both are. */
#define SEL_FIELD_TEXTS 3
struct sel_fields {
	const char *text[3][SEL_FIELD_TEXTS]; /* by enum sel_field */
	char num[24], hex[24];
};

struct sel_bound {
	int set;
	int ticks;          /* value in ticks rather than ns */
	int rel;            /* counted from the session's first timed record ("+T") */
	uint64_t v;         /* ticks, or ns */
};

struct sonde_select {
	int active;         /* anything to do at all */
	struct sel_bound from, to;
	uint32_t core_lo[SONDE_SELECT_MAX_CORES], core_hi[SONDE_SELECT_MAX_CORES];
	size_t ncores;
	struct sel_filter filt[SONDE_SELECT_MAX_FILTERS];
	size_t nfilt;
	uint64_t passed, rejected; /* events */
	/* what the window saw, to say so when it holds nothing of the trace */
	uint64_t timed, timed_in;  /* timed events; those inside the window */
	uint64_t ts_min, ts_max;   /* their earliest and latest ts */
	uint64_t freq, origin;     /* the session's clock when they were seen */
};

void sonde_select_init(struct sonde_select *s);
void sonde_select_free(struct sonde_select *s);

/* Take one option: name is "from", "to", "core" or "filter".  Returns 0, or
 * -1 with the reason in err (no trailing newline). */
int sonde_select_option(struct sonde_select *s, const char *name, const char *val, char *err, size_t errlen);

/* Parse a time "1.5", "250ms", "10us", "123t", each optionally after '+'
 * (counted from the first timed record).  Returns 0 or -1. */
int sonde_select_parse_time(const char *val, struct sel_bound *b);

/* The texts of ev the filters match (the search of the HTML report keys
 * its records by them, so that it finds what --filter selects). */
void sonde_select_fields(const struct sonde_event *ev, struct sel_fields *x);

/* Does ev pass?  The session gives the clock rate and the time origin. */
int sonde_select_accept(struct sonde_select *s, const struct sonde_event *ev, const struct sonde_session *ss);

/* After the run: 1 when a time window was given and the trace had timed
 * events but none inside it; msg then names the trace's time range in
 * every unit --from/--to take. */
int sonde_select_window_empty(const struct sonde_select *s, char *msg, size_t len);

#endif /* SONDE_SELECT_H */
