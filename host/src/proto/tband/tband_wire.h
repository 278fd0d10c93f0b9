/*
 * tband_wire.h -- the Tonbandgeraet event table and the parser of one decoded
 * (un-COBSed) frame into its fields.
 *
 * Everything here is a pure function of a byte buffer: no state, no
 * allocation, no I/O, so a fuzzer or a test can call it directly.  The
 * streaming, the state and the mapping onto the event model are in
 * tband_decoder.c.  Facts: ../shared/notes/tband.md sections 1-4.
 */
#ifndef TBAND_WIRE_H
#define TBAND_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The trace mode, which the stream does not carry: it selects which id
 * group besides the base group is decoded. */
enum tband_mode {
	TBAND_MODE_BAREMETAL, /* ids 0x00-0x0B */
	TBAND_MODE_FREERTOS   /* ids 0x00-0x0B, 0x54-0x70, 0x7A-0x7F */
};

enum tband_group { TBAND_G_BASE, TBAND_G_FREERTOS };

enum tband_ftype {
	TBAND_F_U8ENUM, /* one raw byte, an enumerator (FrQueueKind) */
	TBAND_F_U32,    /* unsigned varlen, at most 5 bytes */
	TBAND_F_U64,    /* unsigned varlen, at most 10 bytes */
	TBAND_F_S64,    /* sign-magnitude, then varlen as u64 */
	TBAND_F_STR     /* the rest of the frame, UTF-8 */
};

/* The event ids of the table (tband_wire.c), by their names in the fact
 * sheet: the table and the mapping to events (tband_map.c) name them so. */
enum tband_id {
	TBAND_ID_CORE_ID = 0x00,
	TBAND_ID_DROPPED_EVT_CNT = 0x01,
	TBAND_ID_TS_RESOLUTION_NS = 0x02,
	TBAND_ID_ISR_NAME = 0x03,
	TBAND_ID_ISR_ENTER = 0x04,
	TBAND_ID_ISR_EXIT = 0x05,
	TBAND_ID_EVTMARKER_NAME = 0x06,
	TBAND_ID_EVTMARKER = 0x07,
	TBAND_ID_EVTMARKER_BEGIN = 0x08,
	TBAND_ID_EVTMARKER_END = 0x09,
	TBAND_ID_VALMARKER_NAME = 0x0A,
	TBAND_ID_VALMARKER = 0x0B,
	TBAND_ID_TASK_SWITCHED_IN = 0x54,
	TBAND_ID_TASK_TO_RDY_STATE = 0x55,
	TBAND_ID_TASK_RESUMED = 0x56,
	TBAND_ID_TASK_RESUMED_FROM_ISR = 0x57,
	TBAND_ID_TASK_SUSPENDED = 0x58,
	TBAND_ID_CURTASK_DELAY = 0x59,
	TBAND_ID_CURTASK_DELAY_UNTIL = 0x5A,
	TBAND_ID_TASK_PRIORITY_SET = 0x5B,
	TBAND_ID_TASK_PRIORITY_INHERIT = 0x5C,
	TBAND_ID_TASK_PRIORITY_DISINHERIT = 0x5D,
	TBAND_ID_TASK_CREATED = 0x5E,
	TBAND_ID_TASK_NAME = 0x5F,
	TBAND_ID_TASK_IS_IDLE_TASK = 0x60,
	TBAND_ID_TASK_IS_TIMER_TASK = 0x61,
	TBAND_ID_TASK_DELETED = 0x62,
	TBAND_ID_QUEUE_CREATED = 0x63,
	TBAND_ID_QUEUE_NAME = 0x64,
	TBAND_ID_QUEUE_KIND = 0x65,
	TBAND_ID_QUEUE_SEND = 0x66,
	TBAND_ID_QUEUE_SEND_FROM_ISR = 0x67,
	TBAND_ID_QUEUE_OVERWRITE = 0x68,
	TBAND_ID_QUEUE_OVERWRITE_FROM_ISR = 0x69,
	TBAND_ID_QUEUE_RECEIVE = 0x6A,
	TBAND_ID_QUEUE_RECEIVE_FROM_ISR = 0x6B,
	TBAND_ID_QUEUE_RESET = 0x6C,
	TBAND_ID_CURTASK_BLOCK_ON_QUEUE_PEEK = 0x6D,
	TBAND_ID_CURTASK_BLOCK_ON_QUEUE_SEND = 0x6E,
	TBAND_ID_CURTASK_BLOCK_ON_QUEUE_RECEIVE = 0x6F,
	TBAND_ID_QUEUE_CUR_LENGTH = 0x70,
	TBAND_ID_TASK_EVTMARKER_NAME = 0x7A,
	TBAND_ID_TASK_EVTMARKER = 0x7B,
	TBAND_ID_TASK_EVTMARKER_BEGIN = 0x7C,
	TBAND_ID_TASK_EVTMARKER_END = 0x7D,
	TBAND_ID_TASK_VALMARKER_NAME = 0x7E,
	TBAND_ID_TASK_VALMARKER = 0x7F,
};

/* What a numeric field identifies, so the decoder can attach names. */
enum tband_ref {
	TBAND_REF_NONE,
	TBAND_REF_CORE,
	TBAND_REF_ISR,
	TBAND_REF_MARKER,    /* event marker */
	TBAND_REF_VALMARKER, /* value marker */
	TBAND_REF_TASK,
	TBAND_REF_QUEUE
};

#define TBAND_MAX_FIELDS 3

struct tband_field {
	const char *name;  /* as in the reference dump's JSON */
	uint8_t type;      /* enum tband_ftype */
	uint8_t ref;       /* enum tband_ref */
};

struct tband_evdesc {
	uint8_t id;
	uint8_t group;     /* enum tband_group */
	uint8_t meta;      /* metadata: no timestamp */
	uint8_t nfields;
	const char *name;  /* tband's own name, e.g. "isr_enter" */
	const char *json;  /* variant name in the reference dump, "IsrEnter" */
	struct tband_field f[TBAND_MAX_FIELDS];
};

/* The event with this id in this mode, or NULL. */
const struct tband_evdesc *tband_event_find(unsigned id, enum tband_mode mode);

/* FrQueueKind: the reference dump's name ("FrqkMutex") and a readable one
 * ("mutex"); NULL for a value the format does not define. */
const char *tband_queue_kind_json(uint64_t kind);
const char *tband_queue_kind_name(uint64_t kind);

/* Outcome of parsing a frame.  After a soft error every field was read and
 * the record is complete (the reference decoder rejects these frames). */
enum tband_perr {
	TBAND_OK,
	TBAND_E_EMPTY,      /* no byte at all */
	TBAND_E_UNKNOWN_ID, /* id not in the table for this mode */
	TBAND_E_TRUNCATED,  /* the frame ends inside a field */
	TBAND_E_OVERFLOW,   /* varlen longer than its type allows */
	TBAND_E_TRAILING,   /* soft: bytes left after the last field */
	TBAND_E_UTF8,       /* soft: the string is not valid UTF-8 */
	TBAND_E_ENUM        /* soft: enumerator value not defined */
};
#define TBAND_PERR_SOFT(e) ((e) >= TBAND_E_TRAILING)

struct tband_rec {
	const struct tband_evdesc *desc; /* NULL after EMPTY / UNKNOWN_ID */
	uint64_t ts;                     /* raw ticks (not for metadata) */
	union {
		uint64_t u;
		int64_t i;
	} v[TBAND_MAX_FIELDS];           /* numeric fields, by position */
	const uint8_t *str;              /* the string field, into the frame */
	size_t str_len;
	enum tband_perr err;
	size_t err_pos;                  /* frame index where the problem is */
	const char *err_field;           /* "id", "ts" or the field's name */
};

/* Parse the decoded frame p[0..n). Returns rec->err. */
enum tband_perr tband_parse(const uint8_t *p, size_t n, enum tband_mode mode,
			    struct tband_rec *rec);

/* The same, faster, when p[n..n + TBAND_PAD) may be read too (a buffer
 * with room behind the frame; the values there do not matter): integers
 * are read eight bytes at a time. */
#define TBAND_PAD 8
enum tband_perr tband_parse_padded(const uint8_t *p, size_t n, enum tband_mode mode,
				   struct tband_rec *rec);

/* Read an unsigned varlen of at most 'bits' (32 or 64) bits at p[*pos..n);
 * advances *pos.  Returns TBAND_OK, TBAND_E_TRUNCATED or TBAND_E_OVERFLOW
 * (then *pos is where the offending byte is). */
enum tband_perr tband_varlen(const uint8_t *p, size_t n, size_t *pos,
			     unsigned bits, uint64_t *out);

/* The signed value of a sign-magnitude word (LSB = sign): "negative zero"
 * stands for INT64_MIN. */
int64_t tband_s64(uint64_t bin);

/* Length (1-4) of the valid UTF-8 sequence starting at s[0..n), 0 if the
 * bytes there are not one (strict: no overlongs, surrogates, > U+10FFFF). */
size_t tband_utf8_seq(const uint8_t *s, size_t n);

/* Index of the first byte of s[0..n) that is not valid UTF-8, n if none. */
size_t tband_utf8_check(const uint8_t *s, size_t n);

#endif /* TBAND_WIRE_H */
