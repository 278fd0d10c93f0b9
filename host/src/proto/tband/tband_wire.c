/*
 * tband_wire.c -- the Tonbandgeraet event table, varlen / sign-magnitude /
 * UTF-8 field decoding and the parser of one decoded frame (tband_wire.h).
 *
 * Hand-written: the format is tband's own; the table is transcribed from the
 * fact sheet (../shared/notes/tband.md section 4), not from tband's sources.
 */
#include <string.h>

#include "tband_wire.h"
#include "util/bytes.h"

#define F(n, t, r) { n, TBAND_F_##t, TBAND_REF_##r }
#define NOF { 0, 0, 0 }

/* Base group: decoded in every mode. */
static const struct tband_evdesc tband_base[] = {
	{ TBAND_ID_CORE_ID, TBAND_G_BASE, 0, 1, "core_id", "CoreId",
	  { F("core_id", U32, CORE), NOF, NOF } },
	{ TBAND_ID_DROPPED_EVT_CNT, TBAND_G_BASE, 0, 1, "dropped_evt_cnt", "DroppedEvtCnt",
	  { F("cnt", U32, NONE), NOF, NOF } },
	{ TBAND_ID_TS_RESOLUTION_NS, TBAND_G_BASE, 1, 1, "ts_resolution_ns", "TsResolutionNs",
	  { F("ns_per_ts", U64, NONE), NOF, NOF } },
	{ TBAND_ID_ISR_NAME, TBAND_G_BASE, 1, 2, "isr_name", "IsrName",
	  { F("isr_id", U32, ISR), F("name", STR, NONE), NOF } },
	{ TBAND_ID_ISR_ENTER, TBAND_G_BASE, 0, 1, "isr_enter", "IsrEnter",
	  { F("isr_id", U32, ISR), NOF, NOF } },
	{ TBAND_ID_ISR_EXIT, TBAND_G_BASE, 0, 1, "isr_exit", "IsrExit",
	  { F("isr_id", U32, ISR), NOF, NOF } },
	{ TBAND_ID_EVTMARKER_NAME, TBAND_G_BASE, 1, 2, "evtmarker_name", "EvtmarkerName",
	  { F("evtmarker_id", U32, MARKER), F("name", STR, NONE), NOF } },
	{ TBAND_ID_EVTMARKER, TBAND_G_BASE, 0, 2, "evtmarker", "Evtmarker",
	  { F("evtmarker_id", U32, MARKER), F("msg", STR, NONE), NOF } },
	{ TBAND_ID_EVTMARKER_BEGIN, TBAND_G_BASE, 0, 2, "evtmarker_begin", "EvtmarkerBegin",
	  { F("evtmarker_id", U32, MARKER), F("msg", STR, NONE), NOF } },
	{ TBAND_ID_EVTMARKER_END, TBAND_G_BASE, 0, 1, "evtmarker_end", "EvtmarkerEnd",
	  { F("evtmarker_id", U32, MARKER), NOF, NOF } },
	{ TBAND_ID_VALMARKER_NAME, TBAND_G_BASE, 1, 2, "valmarker_name", "ValmarkerName",
	  { F("valmarker_id", U32, VALMARKER), F("name", STR, NONE), NOF } },
	{ TBAND_ID_VALMARKER, TBAND_G_BASE, 0, 2, "valmarker", "Valmarker",
	  { F("valmarker_id", U32, VALMARKER), F("val", S64, NONE), NOF } },
};

#define RTOS(id, meta, nf, name, json, a, b, c) \
	{ id, TBAND_G_FREERTOS, meta, nf, name, json, { a, b, c } }

/* FreeRTOS group: decoded in FreeRTOS mode only.  Ids 0x54-0x70, 0x7A-0x7F. */
static const struct tband_evdesc tband_freertos[] = {
	RTOS(TBAND_ID_TASK_SWITCHED_IN, 0, 1, "task_switched_in", "TaskSwitchedIn",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_TO_RDY_STATE, 0, 1, "task_to_rdy_state", "TaskToRdyState",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_RESUMED, 0, 1, "task_resumed", "TaskResumed",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_RESUMED_FROM_ISR, 0, 1, "task_resumed_from_isr", "TaskResumedFromIsr",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_SUSPENDED, 0, 1, "task_suspended", "TaskSuspended",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_CURTASK_DELAY, 0, 1, "curtask_delay", "CurtaskDelay",
	     F("ticks", U32, NONE), NOF, NOF),
	RTOS(TBAND_ID_CURTASK_DELAY_UNTIL, 0, 1, "curtask_delay_until", "CurtaskDelayUntil",
	     F("time_to_wake", U32, NONE), NOF, NOF),
	RTOS(TBAND_ID_TASK_PRIORITY_SET, 0, 2, "task_priority_set", "TaskPrioritySet",
	     F("task_id", U32, TASK), F("priority", U32, NONE), NOF),
	RTOS(TBAND_ID_TASK_PRIORITY_INHERIT, 0, 2, "task_priority_inherit", "TaskPriorityInherit",
	     F("task_id", U32, TASK), F("priority", U32, NONE), NOF),
	RTOS(TBAND_ID_TASK_PRIORITY_DISINHERIT, 0, 2, "task_priority_disinherit", "TaskPriorityDisinherit",
	     F("task_id", U32, TASK), F("priority", U32, NONE), NOF),
	RTOS(TBAND_ID_TASK_CREATED, 0, 1, "task_created", "TaskCreated",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_NAME, 1, 2, "task_name", "TaskName",
	     F("task_id", U32, TASK), F("name", STR, NONE), NOF),
	RTOS(TBAND_ID_TASK_IS_IDLE_TASK, 1, 2, "task_is_idle_task", "TaskIsIdleTask",
	     F("task_id", U32, TASK), F("core_id", U32, CORE), NOF),
	RTOS(TBAND_ID_TASK_IS_TIMER_TASK, 1, 1, "task_is_timer_task", "TaskIsTimerTask",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_TASK_DELETED, 0, 1, "task_deleted", "TaskDeleted",
	     F("task_id", U32, TASK), NOF, NOF),
	RTOS(TBAND_ID_QUEUE_CREATED, 0, 1, "queue_created", "QueueCreated",
	     F("queue_id", U32, QUEUE), NOF, NOF),
	RTOS(TBAND_ID_QUEUE_NAME, 1, 2, "queue_name", "QueueName",
	     F("queue_id", U32, QUEUE), F("name", STR, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_KIND, 1, 2, "queue_kind", "QueueKind",
	     F("queue_id", U32, QUEUE), F("kind", U8ENUM, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_SEND, 0, 2, "queue_send", "QueueSend",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_SEND_FROM_ISR, 0, 2, "queue_send_from_isr", "QueueSendFromIsr",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_OVERWRITE, 0, 2, "queue_overwrite", "QueueOverwrite",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_OVERWRITE_FROM_ISR, 0, 2, "queue_overwrite_from_isr", "QueueOverwriteFromIsr",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_RECEIVE, 0, 2, "queue_receive", "QueueReceive",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_RECEIVE_FROM_ISR, 0, 2, "queue_receive_from_isr", "QueueReceiveFromIsr",
	     F("queue_id", U32, QUEUE), F("len_after", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_RESET, 0, 1, "queue_reset", "QueueReset",
	     F("queue_id", U32, QUEUE), NOF, NOF),
	RTOS(TBAND_ID_CURTASK_BLOCK_ON_QUEUE_PEEK, 0, 2, "curtask_block_on_queue_peek", "CurtaskBlockOnQueuePeek",
	     F("queue_id", U32, QUEUE), F("ticks_to_wait", U32, NONE), NOF),
	RTOS(TBAND_ID_CURTASK_BLOCK_ON_QUEUE_SEND, 0, 2, "curtask_block_on_queue_send", "CurtaskBlockOnQueueSend",
	     F("queue_id", U32, QUEUE), F("ticks_to_wait", U32, NONE), NOF),
	RTOS(TBAND_ID_CURTASK_BLOCK_ON_QUEUE_RECEIVE, 0, 2, "curtask_block_on_queue_receive", "CurtaskBlockOnQueueReceive",
	     F("queue_id", U32, QUEUE), F("ticks_to_wait", U32, NONE), NOF),
	RTOS(TBAND_ID_QUEUE_CUR_LENGTH, 0, 2, "queue_cur_length", "QueueCurLength",
	     F("queue_id", U32, QUEUE), F("length", U32, NONE), NOF),
	RTOS(TBAND_ID_TASK_EVTMARKER_NAME, 1, 3, "task_evtmarker_name", "TaskEvtmarkerName",
	     F("evtmarker_id", U32, MARKER), F("task_id", U32, TASK), F("name", STR, NONE)),
	RTOS(TBAND_ID_TASK_EVTMARKER, 0, 2, "task_evtmarker", "TaskEvtmarker",
	     F("evtmarker_id", U32, MARKER), F("msg", STR, NONE), NOF),
	RTOS(TBAND_ID_TASK_EVTMARKER_BEGIN, 0, 2, "task_evtmarker_begin", "TaskEvtmarkerBegin",
	     F("evtmarker_id", U32, MARKER), F("msg", STR, NONE), NOF),
	RTOS(TBAND_ID_TASK_EVTMARKER_END, 0, 1, "task_evtmarker_end", "TaskEvtmarkerEnd",
	     F("evtmarker_id", U32, MARKER), NOF, NOF),
	RTOS(TBAND_ID_TASK_VALMARKER_NAME, 1, 3, "task_valmarker_name", "TaskValmarkerName",
	     F("valmarker_id", U32, VALMARKER), F("task_id", U32, TASK), F("name", STR, NONE)),
	RTOS(TBAND_ID_TASK_VALMARKER, 0, 2, "task_valmarker", "TaskValmarker",
	     F("valmarker_id", U32, VALMARKER), F("val", S64, NONE), NOF),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* tband_parse's copy is inlined: it runs for every frame. */
static inline const struct tband_evdesc *tband_event_at(unsigned id, enum tband_mode mode)
{
	if (id < COUNT(tband_base))
		return &tband_base[id];
	if (mode != TBAND_MODE_FREERTOS)
		return NULL;
	/* the FreeRTOS table lists two runs of consecutive ids in order:
	 * index straight into it, and search only if that ever stops being so */
	size_t at = id >= 0x54 && id <= 0x70 ? id - 0x54u : id >= 0x7A && id <= 0x7F ? 29u + (id - 0x7Au) : 0;
	if (at < COUNT(tband_freertos) && tband_freertos[at].id == id)
		return &tband_freertos[at];
	for (size_t i = 0; i < COUNT(tband_freertos); i++)
		if (tband_freertos[i].id == id)
			return &tband_freertos[i];
	return NULL;
}

const struct tband_evdesc *tband_event_find(unsigned id, enum tband_mode mode)
{
	return tband_event_at(id, mode);
}

static const char *const tband_qkind_json[] = {
	"FrqkQueue", "FrqkCountingSemphr", "FrqkBinarySemphr",
	"FrqkMutex", "FrqkRecursiveMutex", "FrqkQueueSet",
};
static const char *const tband_qkind_name[] = {
	"queue", "counting semaphore", "binary semaphore",
	"mutex", "recursive mutex", "queue set",
};

const char *tband_queue_kind_json(uint64_t kind)
{
	return kind < COUNT(tband_qkind_json) ? tband_qkind_json[kind] : NULL;
}

const char *tband_queue_kind_name(uint64_t kind)
{
	return kind < COUNT(tband_qkind_name) ? tband_qkind_name[kind] : NULL;
}

/* Eight bytes loaded at once: the first byte without a continuation flag
 * ends the varlen, and its 7-bit groups are gathered by three shifts.  No
 * branch depends on the length, which varies from frame to frame (a
 * timestamp takes 3 to 5 bytes) and so is mispredicted by a loop.  Only a
 * value that cannot overflow (at most 4 bytes for 32 bits, 8 for 64) that
 * ends within p[0..n) is taken; 0 means: use the loop. */
static inline int tband_varlen_word(const uint8_t *p, size_t n, size_t *pos,
				    unsigned bits, uint64_t *out)
{
	uint64_t w = bytes_word(p + *pos), stop, x;
	unsigned len;

	stop = bytes_word_high(~w);
	if (!stop)
		return 0;
	len = bytes_first_lane(stop) + 1;
	if ((bits == 32 && len > 4) || *pos + len > n)
		return 0;
	x = w & (~0ull >> (64 - 8 * len)) & 0x7F7F7F7F7F7F7F7Full;
	x = (x & 0x007F007F007F007Full) | ((x & 0x7F007F007F007F00ull) >> 1);
	x = (x & 0x00003FFF00003FFFull) | ((x & 0x3FFF00003FFF0000ull) >> 2);
	x = (x & 0x000000000FFFFFFFull) | ((x & 0x0FFFFFFF00000000ull) >> 4);
	*out = x;
	*pos += len;
	return 1;
}

/* tband_parse's copy is inlined: it runs for every field of every frame.
 * With 'padded', p[n..n+8) may be read (tband_parse_padded). */
static inline enum tband_perr tband_varlen_at(const uint8_t *p, size_t n, size_t *pos,
					      unsigned bits, uint64_t *out, int padded)
{
	/* 7 bits per byte, least significant group first, MSB = more. */
	unsigned maxbytes = (bits + 6) / 7;
	uint64_t v = 0;

	/* one byte: ids, counts, small values */
	if (*pos < n && p[*pos] < 0x80) {
		*out = p[(*pos)++];
		return TBAND_OK;
	}
	if (padded && *pos < n && tband_varlen_word(p, n, pos, bits, out))
		return TBAND_OK;
	for (unsigned k = 0; k < maxbytes; k++) {
		size_t at = *pos + k;
		uint8_t b;

		if (at >= n) {
			*pos = at;
			return TBAND_E_TRUNCATED;
		}
		b = p[at];
		/* The last possible byte may only carry the bits that are
		 * left, and no continuation flag. */
		if (k == maxbytes - 1 && (b >> (bits - 7 * k)) != 0) {
			*pos = at;
			return TBAND_E_OVERFLOW;
		}
		v |= (uint64_t)(b & 0x7F) << (7 * k);
		if (!(b & 0x80)) {
			*pos = at + 1;
			*out = v;
			return TBAND_OK;
		}
	}
	return TBAND_E_OVERFLOW; /* not reached: the last byte is checked above */
}

enum tband_perr tband_varlen(const uint8_t *p, size_t n, size_t *pos,
			     unsigned bits, uint64_t *out)
{
	return tband_varlen_at(p, n, pos, bits, out, 0);
}

int64_t tband_s64(uint64_t bin)
{
	uint64_t mag = bin >> 1;

	if (!(bin & 1))
		return (int64_t)mag;
	if (mag == 0)
		return INT64_MIN;
	return -(int64_t)mag;
}

size_t tband_utf8_seq(const uint8_t *s, size_t n)
{
	uint8_t b = s[0], lo = 0x80, hi = 0xBF;
	size_t len;

	if (b < 0x80)
		return 1;
	if (b >= 0xC2 && b <= 0xDF)
		len = 2;
	else if (b >= 0xE0 && b <= 0xEF)
		len = 3;
	else if (b >= 0xF0 && b <= 0xF4)
		len = 4;
	else
		return 0;
	/* The second byte's range excludes overlongs, surrogates and code
	 * points above U+10FFFF. */
	if (b == 0xE0)
		lo = 0xA0;
	else if (b == 0xED)
		hi = 0x9F;
	else if (b == 0xF0)
		lo = 0x90;
	else if (b == 0xF4)
		hi = 0x8F;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

size_t tband_utf8_check(const uint8_t *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k;

		/* ASCII (most strings are) eight bytes at a time */
		if (i + 8 <= n) {
			if (!bytes_word_high(bytes_word(s + i))) {
				i += 8;
				continue;
			}
		}
		k = s[i] < 0x80 ? 1 : tband_utf8_seq(s + i, n - i);
		if (!k)
			return i;
		i += k;
	}
	return n;
}

static enum tband_perr tband_fail(struct tband_rec *rec, enum tband_perr e,
				  size_t pos, const char *field)
{
	rec->err = e;
	rec->err_pos = pos;
	rec->err_field = field;
	return e;
}

/* tband_parse and tband_parse_padded: one body, compiled twice. */
static inline enum tband_perr tband_parse_at(const uint8_t *p, size_t n, enum tband_mode mode,
					     struct tband_rec *rec, int padded)
{
	const struct tband_evdesc *d;
	enum tband_perr soft = TBAND_OK;
	size_t pos = 1, soft_pos = 0;
	const char *soft_field = NULL;
	enum tband_perr e;

	rec->desc = NULL;
	rec->ts = 0;
	rec->str = NULL;
	rec->str_len = 0;
	rec->err = TBAND_OK;
	rec->err_pos = 0;
	rec->err_field = NULL;
	for (unsigned i = 0; i < TBAND_MAX_FIELDS; i++)
		rec->v[i].u = 0;

	if (n == 0)
		return tband_fail(rec, TBAND_E_EMPTY, 0, NULL);
	d = tband_event_at(p[0], mode);
	if (!d)
		return tband_fail(rec, TBAND_E_UNKNOWN_ID, 0, "id");
	rec->desc = d;

	if (!d->meta) {
		size_t at = pos;

		e = tband_varlen_at(p, n, &pos, 64, &rec->ts, padded);
		if (e != TBAND_OK)
			return tband_fail(rec, e, e == TBAND_E_TRUNCATED ? at : pos, "ts");
	}
	for (unsigned i = 0; i < d->nfields; i++) {
		const struct tband_field *f = &d->f[i];
		size_t at = pos;
		uint64_t v = 0;

		switch (f->type) {
		case TBAND_F_U8ENUM:
			if (pos >= n)
				return tband_fail(rec, TBAND_E_TRUNCATED, pos, f->name);
			v = p[pos++];
			if (!tband_queue_kind_json(v) && soft == TBAND_OK) {
				soft = TBAND_E_ENUM;
				soft_pos = at;
				soft_field = f->name;
			}
			rec->v[i].u = v;
			break;
		case TBAND_F_U32:
		case TBAND_F_U64:
		case TBAND_F_S64:
			e = tband_varlen_at(p, n, &pos, f->type == TBAND_F_U32 ? 32 : 64, &v,
					    padded);
			if (e != TBAND_OK)
				return tband_fail(rec, e, e == TBAND_E_TRUNCATED ? at : pos,
						  f->name);
			if (f->type == TBAND_F_S64)
				rec->v[i].i = tband_s64(v);
			else
				rec->v[i].u = v;
			break;
		case TBAND_F_STR: {
			size_t bad;

			/* The varlen field is always last: it runs to the end
			 * of the frame. */
			rec->str = p + pos;
			rec->str_len = n - pos;
			bad = tband_utf8_check(rec->str, rec->str_len);
			if (bad < rec->str_len && soft == TBAND_OK) {
				soft = TBAND_E_UTF8;
				soft_pos = pos + bad;
				soft_field = f->name;
			}
			pos = n;
			break;
		}
		}
	}
	if (pos < n && soft == TBAND_OK) {
		soft = TBAND_E_TRAILING;
		soft_pos = pos;
		soft_field = NULL;
	}
	if (soft != TBAND_OK)
		return tband_fail(rec, soft, soft_pos, soft_field);
	return TBAND_OK;
}

enum tband_perr tband_parse(const uint8_t *p, size_t n, enum tband_mode mode,
			    struct tband_rec *rec)
{
	return tband_parse_at(p, n, mode, rec, 0);
}

enum tband_perr tband_parse_padded(const uint8_t *p, size_t n, enum tband_mode mode,
				   struct tband_rec *rec)
{
	return tband_parse_at(p, n, mode, rec, 1);
}
