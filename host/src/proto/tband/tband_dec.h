/*
 * tband_dec.h -- the state of the tband decoder, shared by its two halves:
 * tband_decoder.c (byte stream, framing, errors, the decoder_ops) and
 * tband_map.c (one parsed frame onto the event model), which calls only
 * tband_diag.c (reporting) below it.
 */
#ifndef TBAND_DEC_H
#define TBAND_DEC_H

#include <stdint.h>

#include "pipeline.h"
#include "tband_dict.h"
#include "tband_wire.h"

/* Longest encoded frame accepted (delimiter excluded).  tband's largest event
 * is 26 bytes plus its string (tband_configMAX_STR_LEN, 20 by default), so
 * 8 KiB leaves room for any sensible configuration and bounds memory. */
#define TBAND_FRAME_MAX 8192
/* tband supports at most 4 cores (tband_portNUMBER_OF_CORES). */
#define TBAND_CORES 4
/* Name table: 2^12 slots, 3072 objects. */
#define TBAND_DICT_LOG2 12

/* Object ids of the event model for things tband numbers per task (see
 * docs/proto-tband.md): task-local markers and per-task priority counters
 * live above the 32-bit ids of global markers. */
#define TBAND_OBJ_TASKLOCAL (1ull << 63)

/* Why the running task will stop running (for the inferred TASK_OUT). */
enum tband_why {
	TBAND_WHY_NONE,        /* preempted */
	TBAND_WHY_DELAY,       /* arg = ticks */
	TBAND_WHY_DELAY_UNTIL, /* arg = tick to wake */
	TBAND_WHY_PEEK,        /* blocked on queue arg */
	TBAND_WHY_SEND,
	TBAND_WHY_RECEIVE,
	TBAND_WHY_SUSPENDED,
	TBAND_WHY_DELETED
};

struct tband_core {
	uint32_t task;       /* running task, 0 = none known */
	int task_idle;       /* ... and it is this core's idle task */
	uint32_t idle_task;  /* from task_is_idle_task, 0 = unknown */
	enum tband_why why;  /* pending reason for the running task */
	uint64_t why_arg;
	int64_t isr_depth;
	uint64_t last_ts;    /* raw ticks, for the order check */
	int have_ts;
};

/* The names of a task-local marker as its events show them, kept while no
 * name changes: the object's "<task>: <marker>" and the marker's own. */
#define TBAND_TLNAMES 16
struct tband_tlname {
	uint64_t gen;        /* the dictionary's gen when made, 0 = empty */
	uint32_t task, id;
	uint8_t kind;        /* enum tband_dkind */
	const char *marker;  /* the marker's name, NULL while unknown */
	char text[2 * TBAND_NAME_MAX + 64];
};

struct tband_dec {
	struct sonde_out out;
	enum tband_mode mode;
	uint32_t core;               /* current core */
	uint64_t ns_per_ts;
	int ns_known;                /* resolution came from the stream */
	struct tband_core cores[TBAND_CORES];
	struct tband_dict dict;
	int dict_full_told;
	uint64_t names_gen;          /* the session's (struct sonde_session), from 1 */
	uint64_t drops_last;         /* last dropped_evt_cnt */

	/* framing */
	uint64_t in_off;             /* input offset of the next byte */
	uint64_t frame_off;          /* offset of the current frame's first byte */
	uint64_t frame_no;           /* number of the current frame */
	const uint8_t *rawp;         /* the current frame's bytes: raw[], or the input
				      * chunk when the whole frame is in it */
	size_t raw_n;                /* bytes of the current frame kept */
	uint64_t raw_len;            /* bytes of the current frame seen */
	uint64_t empty_run;          /* lone 0x00 not reported yet ... */
	uint64_t empty_off, empty_frame; /* ... from here */

	/* per-frame scratch */
	struct sonde_arg args[TBAND_MAX_FIELDS];
	char msg[256];
	struct tband_tlname tlnames[TBAND_TLNAMES];
	char why[TBAND_NAME_MAX + 64];
	char str[3 * TBAND_FRAME_MAX + 1];   /* the string field, valid UTF-8 */
	uint8_t raw[TBAND_FRAME_MAX];
	uint8_t payload[TBAND_FRAME_MAX + TBAND_PAD];
	char native[];                       /* tband_json_size(sizeof(str) - 1) */
};

/* Report a problem at input offset 'offset' (frame 'frame'); the message
 * is d->msg (tband_diag.c). */
void tband_diag(struct tband_dec *d, enum sonde_diag_code code,
		uint64_t offset, uint64_t frame, uint64_t count);
/* The same for the current frame, at its encoded byte 'at'. */
void tband_diag_at(struct tband_dec *d, enum sonde_diag_code code, size_t at);

/* Deliver the event(s) of a record parsed without a hard error. */
void tband_record(struct tband_dec *d, struct tband_rec *rec);

#endif /* TBAND_DEC_H */
