/*
 * event.h -- the one event model of the sonde host tool.
 *
 * Every decoder (Sonde's own protocol, QS, SyS-T, Tonbandgeraet, ...) turns
 * its input into a stream of struct sonde_event; every sink (text, JSONL,
 * CSV, Perfetto, profiles, ...) reads only these.  An event is valid only for
 * the duration of the callback that receives it: strings and argument arrays
 * point into the decoder's buffers, so a sink that keeps anything copies it.
 */
#ifndef SONDE_EVENT_H
#define SONDE_EVENT_H

#include <stddef.h>
#include <stdint.h>

/* The one display name of the context outside any task (bare metal, before
 * the scheduler starts): the timeline lane, the analyses' rows, the profile
 * and every export say it the same way. */
#define SONDE_NOTASK_NAME "No task"

/* What happened.  Decoders map their own records onto these; anything with
 * no better home is SONDE_EV_RECORD (a named record with typed arguments). */
enum sonde_ev_kind {
	SONDE_EV_INFO,        /* target/session information (fields: args) */
	SONDE_EV_DICT,        /* a dictionary entry: obj = id, obj2 = dict kind, text = name */
	SONDE_EV_TIME_SYNC,   /* time re-anchored: ts is the absolute time */
	SONDE_EV_DROPS,       /* target-reported loss: value = overwritten total, obj2 = refused total */
	SONDE_EV_ISR_ENTER,   /* obj = ISR id, value = nesting depth after entering (1 = outermost) */
	SONDE_EV_ISR_EXIT,    /* obj = ISR id if known, value = depth before leaving */
	SONDE_EV_TASK_CREATE, /* obj = task id, obj2 = priority */
	SONDE_EV_TASK_IN,     /* obj = task id: starts running */
	SONDE_EV_TASK_OUT,    /* obj = task id, obj2 = reason (SONDE_TASK_*: preempted, delayed, waiting
			       * to receive ..., suspended, deleted), ref = the object it waits on
			       * (SONDE_EVF_REF) and op its kind (SONDE_OBJK_*, 0 unknown: a wait on
			       * a semaphore is a take); also for a task that is not running when
			       * another suspends or deletes it */
	SONDE_EV_TASK_READY,  /* obj = task id */
	SONDE_EV_IDLE,        /* no task runs (but the idle task): ref = the idle task when the
			       * decoder knows it (SONDE_EVF_REF), which then stands for idle */
	SONDE_EV_MARK,        /* obj = marker id: instant */
	SONDE_EV_MARK_BEGIN,  /* obj = marker id: span starts */
	SONDE_EV_MARK_END,    /* obj = marker id: span ends */
	SONDE_EV_COUNTER,     /* obj = counter id, value = signed value */
	SONDE_EV_FUNC_ENTER,  /* obj = function id or address (flags say which) */
	SONDE_EV_FUNC_EXIT,   /* obj = function id/address if known */
	SONDE_EV_LOG,         /* level, text = formatted message, args = raw arguments */
	SONDE_EV_RECORD,      /* user/application or protocol-specific record: rec_name + args */
	SONDE_EV_STATE,       /* state machine: obj = machine, obj2 = state; text = "entry"/"exit"/"tran" ... */
	SONDE_EV_QUEUE,       /* queue/pool fill level: obj = queue, value = level */
	/* RTOS kernel objects (queues, semaphores, mutexes, event groups,
	 * stream buffers, timers; tasks too).  obj2 is the object's kind
	 * (SONDE_OBJK_* of sonde_proto.h, 0 when unknown), op the operation
	 * (SONDE_OP_* with SONDE_OP_F_FAILED / _ISR). */
	SONDE_EV_OBJECT,      /* an object appears or goes: obj = object, value = capacity (queue
			       * length, maximum count, bytes, timer period, a task's priority);
			       * op = SONDE_OBJ_CREATED / _ANNOUNCED (exists already) / _DELETED /
			       * _CREATE_FAILED */
	SONDE_EV_OBJ_OP,      /* an operation on object obj: value = the fill level after it
			       * (SONDE_EVF_LEVEL: items, a semaphore's count, 1 = mutex free,
			       * bytes) or the operation's own value (bits, notification index,
			       * timer command, a task's free stack in bytes); ref = a task it
			       * concerns (the task notified); the heap (obj SONDE_OBJ_HEAP): value
			       * = bytes in use after an allocation or free, args its address and
			       * size */
	SONDE_EV_TASK_PRIO,   /* obj = task, value = its priority from now on, op = SONDE_OP_PRIO_SET,
			       * _INHERIT (from a task waiting for a mutex it holds) or _DISINHERIT */
	SONDE_EV_KIND_COUNT
};

/* Argument value types.  Sonde's wire codes (sonde_proto.h) map 1:1 onto
 * the first fifteen; foreign decoders may use the rest. */
enum sonde_arg_type {
	SONDE_A_NONE = 0,
	SONDE_A_U8, SONDE_A_U16, SONDE_A_U32, SONDE_A_U64,
	SONDE_A_I8, SONDE_A_I16, SONDE_A_I32, SONDE_A_I64,
	SONDE_A_F32, SONDE_A_F64,
	SONDE_A_STR,  /* v.mem = characters, not NUL-terminated */
	SONDE_A_MEM,  /* v.mem = bytes */
	SONDE_A_OBJ,  /* v.u = object id / pointer; name resolved if known */
	SONDE_A_FUNC, /* v.u = function address/id; name resolved if known */
	SONDE_A_ENUM, /* v.u = value, group in 'group'; name resolved if known */
	SONDE_A_HEX,  /* v.u shown in hexadecimal (foreign formats) */
	SONDE_A_BOOL
};

struct sonde_arg {
	enum sonde_arg_type type;
	const char *name;     /* argument name, NULL if the format has none */
	const char *resolved; /* dictionary name for OBJ/FUNC/ENUM, else NULL */
	uint32_t group;       /* ENUM group */
	union {
		uint64_t u;
		int64_t i;
		double f;
		struct { const uint8_t *p; size_t n; } mem;
	} v;
};

/* Timestamp flags. */
#define SONDE_TS_VALID     0x01u /* ts is meaningful */
#define SONDE_TS_ESTIMATED 0x02u /* ts could not be anchored exactly (see docs/protocol.md §5) */

/* Event flags. */
#define SONDE_EVF_ADDR     0x01u /* FUNC_*: obj is an address, not a dictionary id */
#define SONDE_EVF_MALFORMED 0x02u /* the record was cut short; args hold what could be read */
#define SONDE_EVF_NO_OBJ   0x04u /* obj is not known (e.g. ISR_EXIT/FUNC_EXIT after a loss) */
#define SONDE_EVF_REF      0x08u /* ref (and ref_name) is meaningful */
#define SONDE_EVF_LEVEL    0x10u /* OBJ_OP: value is the object's fill level after the operation */
#define SONDE_EVF_PART     0x20u /* one record gave several events: this is not the record's own
				* (e.g. the TASK_OUT half of a task switch); counted once */

/* The obj of the heap's operations (OBJ_OP with op SONDE_OP_HEAP_ALLOC or
 * _FREE, named "heap"): the RTOS heap, outside the object ids 0..255. */
#define SONDE_OBJ_HEAP 0x100u

/* SONDE_EV_OBJECT operations (op). */
#define SONDE_OBJ_CREATED   1u
#define SONDE_OBJ_ANNOUNCED 2u
#define SONDE_OBJ_DELETED   3u
#define SONDE_OBJ_CREATE_FAILED 4u /* could not be created: obj2 = the kind, no obj (NO_OBJ) */

struct sonde_event {
	enum sonde_ev_kind kind;
	uint32_t flags;       /* SONDE_EVF_* */
	uint64_t ts;          /* ticks of the stream's clock (session->ts_freq) */
	uint32_t ts_flags;    /* SONDE_TS_* */
	uint32_t core;        /* core / stream id */
	uint32_t rec_id;      /* the protocol's own record id */
	const char *rec_name; /* the protocol's record name ("ISR_ENTER", "AO-Post", user record name) */
	uint64_t obj;         /* subject (see kind) */
	const char *obj_name; /* dictionary name of obj, NULL if unknown */
	uint64_t obj2;        /* second operand (see kind) */
	const char *obj2_name;/* its name if it has one (e.g. a state, a task-out reason) */
	int64_t value;        /* counter value, nesting depth, queue level, drop totals */
	uint32_t op;          /* OBJECT, OBJ_OP, TASK_PRIO: the operation (see the kinds) */
	uint64_t ref;         /* a third object (SONDE_EVF_REF; see the kinds) */
	const char *ref_name; /* its name if known */
	uint32_t level;       /* LOG level (SONDE_LVL_*), 0 otherwise */
	const char *text;     /* formatted text (LOG, DICT name), NULL otherwise */
	size_t nargs;
	const struct sonde_arg *args;
	/* The record as the protocol's reference tool prints it (a QSPY line, a
	 * systprint CSV row), when the decoder renders one; else NULL.  Sinks
	 * named after a reference tool's format print this. */
	const char *native;
	size_t native_len;    /* strlen(native) when the decoder knows it; 0: not given */
	/* where it came from, for messages and exports */
	uint64_t offset;      /* byte offset of the frame's first byte in the input */
	uint64_t frame;       /* frame number in the input, from 0 */
	uint32_t seq;         /* the frame's sequence number if the protocol has one */
};

/* Make *ev a blank event (every field 0).  Decoders start each event with
 * this rather than memset or a designated initializer: gcc makes those a
 * 'rep stos' for a struct of this size, and that one instruction took 4-5 %
 * of the whole time of the QS, SyS-T and Tonbandgeraet decoders (x86-64,
 * docs/performance.md); a copy of a constant is plain moves. */
static inline void sonde_event_clear(struct sonde_event *ev)
{
	static const struct sonde_event blank;
	*ev = blank;
}

/* Records a decoder counted instead of delivering their events.  When no
 * consumer of a pipeline needs the events of some kinds (struct sonde_out's
 * tally_kinds: `sonde stats` reads its figures from here), a decoder may
 * skip building them and count the records here instead.  It tallies a
 * record only when
 *   - its event would have had an exact time (ts_flags == SONDE_TS_VALID);
 *   - an event of the same core with a valid time was delivered before it;
 *   - all records tallied between two delivered events are of one core;
 * so a consumer that keeps time can catch up whenever 'n' has changed
 * (before the next event or diagnostic it receives, and at the end): the
 * latest record was at 'last', the latest time so far on 'core' is 'hi',
 * and 'behind' records came earlier than a time before them on their core
 * (after a TIME_SYNC that went back, a target reset). */
struct sonde_tally {
	uint64_t n;               /* records tallied */
	uint64_t count[256];      /* per record id */
	uint64_t at[256];         /* per record id: n after its latest record was tallied */
	const char *name[256];    /* the name (rec_name) of its latest record, valid while the
				   * decoder lives (a name that can change is in storage that
				   * changes with the next record of that id) */
	int have_time;
	uint64_t t_min, t_max;    /* the earliest and latest times of records tallied */
	uint64_t last;            /* the time of the latest record tallied */
	uint32_t core;            /*   its core */
	uint64_t hi;              /*   the latest time of any event or record on that core so far */
	uint64_t behind;          /* records tallied with a time earlier than 'hi' was before them */
};

/* The bit of an event kind in a set of kinds (tally_kinds). */
static inline uint32_t sonde_kind_bit(enum sonde_ev_kind k)
{
	return (uint32_t)1 << k;
}
#define SONDE_KINDS_ALL (((uint32_t)1 << SONDE_EV_KIND_COUNT) - 1)

/* Stream-wide facts a decoder learns (TARGET_INFO and the like). */
struct sonde_session {
	const char *proto;    /* "sonde", "qs", "syst", "tband", ... */
	uint64_t ts_freq;     /* ticks per second, 0 when unknown */
	uint32_t addr_size;   /* bytes in an address */
	uint32_t build_id;
	uint32_t buffer_size;
	int buffer_mode;      /* SONDE_MODE_*, -1 unknown */
	uint32_t version;     /* protocol version reported by the target */
	const char *variant;  /* which version or variant the decoder met, for people ("v2"), or NULL */
	/* What an event's core is to people when it is not a CPU core (STP:
	 * a master and a channel, core = master << 16 | channel): its name in
	 * buf[0..n), e.g. for a timeline's process; NULL: "Core N". */
	void (*core_name)(uint32_t core, char *buf, size_t n);
	int big_endian;
	/* Loss accounting (decoders with sequence numbers fill what they can;
	 * cumulative over the whole input, across target resets). */
	uint64_t frames;            /* frames seen, good and bad */
	uint64_t drops_overwritten; /* records the target reported overwritten (sum of DROPS increases) */
	uint64_t drops_refused;     /* records the target reported refused (sum of DROPS increases) */
	uint64_t lost_link;         /* frames of sequence gaps a DROPS settled as lost on the link */
	uint64_t lost_unexplained;  /* frames of sequence gaps no DROPS came to explain (end of input, restart) */
	uint64_t stopped_records;   /* records the target did not make while tracing was stopped on
				     * purpose: not a loss, counted apart */
	/* Time origin, set by the pipe (core/pipe.c): ts of the first timed
	 * record of the session.  Timelines count from it. */
	int have_origin;
	uint64_t origin;
	/* The records the decoder counted instead of delivering (set by the
	 * pipe, core/pipe.c), NULL when it delivers every event. */
	const struct sonde_tally *tally;
	/* The names a decoder hands out with its events (rec_name, obj_name,
	 * ...): 0 = the text at a name's pointer may change at any time, so
	 * names are compared by their text; otherwise that text changes only
	 * together with names_gen, so a consumer that saw a pointer under the
	 * same names_gen has seen its text. */
	uint64_t names_gen;
};

#endif /* SONDE_EVENT_H */
