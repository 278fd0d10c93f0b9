/*
 * sonde_layout.c -- what each Sonde record id looks like (docs/protocol.md
 * §4): its name, whether it is timed, the valid lengths of its own fields
 * in each protocol version, and where a timed record's timestamp field is.
 * Pure functions of the bytes, shared by the arrival side
 * (sonde_decoder.c), the processing side (sonde_records.c) and the probe.
 */
#include <stdint.h>

#include "sonde_dec.h"
#include "sonde_proto.h"

/* Lengths of the records' own fields (version 3; versions 1 and 2 differ
 * only in DROPS: srec_len_ok). */
static const struct srec_layout layouts[SONDE_REC_API + 1] = {
	[SONDE_REC_EMPTY]        = { "EMPTY",        0, 0, 0 },
	[SONDE_REC_TARGET_INFO]  = { "TARGET_INFO",  0, 18, 18 },
	[SONDE_REC_TIME_SYNC]    = { "TIME_SYNC",    0, SONDE_SYNC_BYTES, SONDE_SYNC_BYTES },
	[SONDE_REC_DROPS]        = { "DROPS",        1, SONDE_DROPS_BYTES_V2, SONDE_DROPS_BYTES },
	[SONDE_REC_DICT]         = { "DICT",         0, 6, SREC_VAR },
	[SONDE_REC_ISR_ENTER]    = { "ISR_ENTER",    1, 1, 1 },
	[SONDE_REC_ISR_EXIT]     = { "ISR_EXIT",     1, 0, 0 },
	[SONDE_REC_TASK_CREATE]  = { "TASK_CREATE",  1, 2, 2 },
	[SONDE_REC_TASK_IN]      = { "TASK_IN",      1, 1, 1 },
	[SONDE_REC_TASK_OUT]     = { "TASK_OUT",     1, 2, 2 },
	[SONDE_REC_TASK_READY]   = { "TASK_READY",   1, 1, 1 },
	[SONDE_REC_IDLE]         = { "IDLE",         1, 0, 0 },
	[SONDE_REC_MARK]         = { "MARK",         1, 1, 1 },
	[SONDE_REC_MARK_BEGIN]   = { "MARK_BEGIN",   1, 1, 1 },
	[SONDE_REC_MARK_END]     = { "MARK_END",     1, 1, 1 },
	[SONDE_REC_COUNTER]      = { "COUNTER",      1, 2, 9 },
	[SONDE_REC_FUNC_ENTER]   = { "FUNC_ENTER",   1, 2, 2 },
	[SONDE_REC_FUNC_ENTER_A] = { "FUNC_ENTER_A", 1, SREC_ADDR, SREC_ADDR },
	[SONDE_REC_FUNC_EXIT]    = { "FUNC_EXIT",    1, 0, 0 },
	[SONDE_REC_LOG]          = { "LOG",          1, 3, SREC_VAR },
	[SONDE_REC_TASK_SWITCH]  = { "TASK_SWITCH",  1, 4, 4 },  /* sonde_rtosrec.c */
	[SONDE_REC_OBJ_CREATE]   = { "OBJ_CREATE",   1, 2, 6 },
	[SONDE_REC_OBJ_OP]       = { "OBJ_OP",       1, 2, 7 },
	[SONDE_REC_HEAP_ALLOC]   = { "HEAP_ALLOC",   1, 8, 8 },
	[SONDE_REC_HEAP_FREE]    = { "HEAP_FREE",    1, 8, 8 },
	[SONDE_REC_PEND_CALL]    = { "PEND_CALL",    1, 1, 9 },  /* sonde_rtosrec.c */
	[SONDE_REC_CREATE_FAILED] = { "CREATE_FAILED", 1, 1, 1 },
	[SONDE_REC_API]          = { "API",          1, 1, 5 },
};

/* The command channel's replies (protocol §9.2).  They are timed records
 * like any other: the target's TIME_SYNC rules, and since_prev, count them,
 * so the time chain needs them even where nobody shows them. */
static const struct srec_layout replies[] = {
	[SONDE_REC_CMD_STATUS - SONDE_REC_CMD_STATUS]   = { "CMD_STATUS",   1, 3, 3 },
	[SONDE_REC_PEEK_DATA - SONDE_REC_CMD_STATUS]    = { "PEEK_DATA",    1, SREC_PEEK, SREC_PEEK },
	[SONDE_REC_TARGET_STATS - SONDE_REC_CMD_STATUS] = { "TARGET_STATS", 1, SONDE_STATS_BYTES_V2,
							    SONDE_STATS_BYTES },
};

static const struct srec_layout user_layout = { "USER", 1, 0, SREC_VAR };

const struct srec_layout *srec_layout(uint8_t id)
{
	if (id >= SONDE_REC_USER_FIRST && id <= SONDE_REC_USER_LAST)
		return &user_layout;
	if (id <= SONDE_REC_API) /* the ids in between that no record has yet: unknown */
		return layouts[id].name ? &layouts[id] : NULL;
	if (id >= SONDE_REC_CMD_STATUS && id <= SONDE_REC_TARGET_STATS)
		return &replies[id - SONDE_REC_CMD_STATUS];
	return NULL;
}

int srec_len_ok(unsigned version, uint8_t id, size_t n, unsigned addr_size, size_t *lo, size_t *hi)
{
	const struct srec_layout *l = srec_layout(id);
	if (!l)
		return 0;
	size_t mn = l->min, mx = l->max;
	if (mn == SREC_ADDR) {
		mn = mx = (size_t)addr_size;
	} else if (mn == SREC_PEEK) { /* addr, n, 1..64 bytes */
		mn = (size_t)addr_size + 1 + 1;
		mx = mn - 1 + 64;
	} else if (mx == SREC_VAR) {
		mx = SIZE_MAX;
	} else if (id == SONDE_REC_DROPS && version < 3) {
		mn = mx = version == 1 ? SONDE_DROPS_BYTES_V1 : SONDE_DROPS_BYTES_V2;
	} else if (id == SONDE_REC_TARGET_STATS && version < 3) {
		mn = mx = SONDE_STATS_BYTES_V2;
	} else if (id == SONDE_REC_DROPS || id == SONDE_REC_TARGET_STATS) {
		/* version 3, or its version-2 form where the version is only
		 * assumed (a capture without TARGET_INFO): nothing in between */
		*lo = mn;
		*hi = mx;
		return n == mn || n == mx;
	}
	*lo = mn;
	*hi = mx;
	return n >= mn && n <= mx;
}

void srec_set_lengths(struct sdec *d)
{
	for (unsigned id = 0; id < 256; id++) {
		size_t lo = 1, hi = 0; /* unknown ids: no length is good */
		srec_len_ok(d->version, (uint8_t)id, 0, d->addr_size, &lo, &hi);
		d->len_lo[id] = (uint16_t)lo;
		d->len_hi[id] = hi > UINT16_MAX ? UINT16_MAX : (uint16_t)hi; /* frames hold at most 1021 */
		const struct srec_layout *l = srec_layout((uint8_t)id);
		d->timed[id] = l && l->timed;
	}
}

enum sts_status srec_fields(unsigned version, const struct srec_layout *l, const uint8_t *data, size_t dlen,
			    struct sts *fl)
{
	if (l->timed)
		return sts_split(version, data, dlen, fl);
	fl->off = 0;
	fl->n = dlen;
	fl->width = 0;
	fl->v = 0;
	return STS_OK;
}

int srec_time_field(unsigned version, uint8_t id, const uint8_t *data, size_t dlen, unsigned addr_size,
		    struct sts *ts)
{
	const struct srec_layout *l = srec_layout(id);
	if (!l) /* version 2: it may have carried a delta, unlike version 1's absolute times */
		return version == 1 ? 0 : -1;
	if (!l->timed)
		return 0;
	enum sts_status st = sts_split(version, data, dlen, ts);
	if (version == 1) {
		size_t lo, hi;
		return st == STS_OK && srec_len_ok(version, id, ts->n, addr_size, &lo, &hi);
	}
	/* Version 2: the field describes itself, so a record whose own fields
	 * have the wrong length still says how far the time moved. */
	return st == STS_OK ? 1 : -1;
}
