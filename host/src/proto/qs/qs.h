/*
 * qs.h -- internals of the QS (QP/Spy, QP/C 7.x) decoder, shared by its
 * files: the decoder state, the field sizes, the field reader and the
 * entry points of the record decoders.
 *
 * File map of this folder, each file calling only those below it:
 *   qs_fe.c        QSPY's UDP front-end packets (qs_fe.h; `sonde qspy`): reads the
 *                  decoder's dictionaries and sizes, builds QS-RX frames
 *   qs_decoder.c   decoder ops: framing (frames found 64 bytes at a time), sequence
 *                  check, dispatch, options, probe
 *   qs_records.c   the predefined records, one table row each
 *   qs_target.c    QS_TARGET_INFO (7.x and 8.x layouts)
 *   qs_user.c      application records with typed arguments
 *   qs_ctl.c       commands while decoding (save dictionaries, sequence file on/off)
 *   qs_dicwrite.c  writing QSPY's .dic files (-d: at QF_RUN and on request)
 *   qs_dicfile.c   QSPY's .dic dictionary files; resetting the dictionaries
 *   qs_seq.c       QSPY's sequence diagrams (-g)
 *   qs_render.c    QSPY's renderings of values, compiled line templates
 *   qs_out.c       diagnostics, notices, active objects (events, timestamps and
 *                  argument slots: inline in this header)
 *   qs_sizes.c     field sizes: defaults, option letters, the decoder's size tables
 *   qs_dict.c      signal/object/function/user/enum dictionaries
 *   qs_line.c      the line buffer; bounded text builder for the rare lines
 *   qs_read.c      little-endian field reader (its hot part inline here)
 *   qs_tx.c        QS-RX frames (host -> target), see qs_tx.h
 *   sink_qspy.c    --format qspy: prints the QSPY lines
 */
#ifndef SONDE_QS_H
#define SONDE_QS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "event.h"
#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "qs_dict.h"
#include "qs_line.h"

/* Record ids (QS 7.4) used by name in the code; the full list is the table
 * in qs_records.c. */
enum {
	QS_EMPTY = 0,
	QS_ENUM_DICT = 54,
	QS_QEP_TRAN_EP = 56, /* 56, 57: reserved in QS 8.x */
	QS_QEP_TRAN_XP = 57,
	QS_SIG_DICT = 60,
	QS_OBJ_DICT = 61,
	QS_FUN_DICT = 62,
	QS_USR_DICT = 63,
	QS_TARGET_INFO = 64,
	QS_RX_STATUS = 66,
	QS_QUERY_DATA = 67,
	QS_PEEK_DATA = 68,
	QS_QF_RUN = 70,
	QS_DEFER_8X = 81,   /* QS 8.x: QS_QF_ACTIVE_DEFER_ATTEMPT; unknown in 7.x */
	QS_USER = 100,     /* first application record */
	QS_USER_LAST = 124 /* 125..127 are never enabled */
};

#define QS_MAX_AOS 256            /* active objects announced as tasks */
#define QS_RECORD_SIZE_MAX 512u   /* QSPY's limit on SEQ..CHK, our default */
#define QS_RECORD_SIZE_LIMIT 65535u /* largest value of -o qs.max_record */

/* Dictionary kind of signal entries in SONDE_EV_DICT events (the event
 * model's kinds, SONDE_DICT_* in sonde_proto.h, have none for signals). */
#define QS_DICT_SIGNAL 0x80u
/* 'group' of SONDE_A_ENUM arguments that hold a signal. */
#define QS_SIG_GROUP 0x100u

/* Field sizes in bytes; QSPY's option letters in brackets. */
struct qs_sizes {
	uint8_t ts;  /* [-T] timestamp */
	uint8_t obj; /* [-O] object pointer */
	uint8_t fun; /* [-F] function pointer */
	uint8_t sig; /* [-S] signal */
	uint8_t evt; /* [-E] event size */
	uint8_t eqc; /* [-Q] event-queue counter */
	uint8_t mpc; /* [-P] memory-pool counter */
	uint8_t mps; /* [-B] memory-pool block size (reported only) */
	uint8_t tec; /* [-C] time-event counter */
};

/* QSPY 7.4's defaults. */
extern const struct qs_sizes qs_default_sizes;

/* Bytes that may be read beyond the end of every frame the record
 * decoders see (the field reader loads 8 bytes at a time). */
#define QS_READ_PAD 8

/* The frame being decoded. */
struct qs_frame {
	const uint8_t *data; /* payload: after SEQ and record id, before CHK (and QS_READ_PAD more) */
	size_t len;
	uint8_t seq;
	uint8_t rec;
	uint64_t offset;     /* input offset of the frame's first byte */
	uint64_t number;     /* frame number, from 0 */
	const uint16_t *esc; /* un-escaped indexes of its escaped bytes (hdlc_offset_of) */
	size_t nesc;
};

/* Little-endian field reader over one payload.  After the first read that
 * runs past the end every read returns 0 and 'missing'/'what' describe the
 * failed one. */
struct qs_rd {
	const uint8_t *p;
	size_t n;
	size_t pos;
	size_t missing;   /* bytes the failed read lacked, 0 = no failure */
	const char *what; /* type name of the failed read */
};

static inline void qs_rd_init(struct qs_rd *r, const uint8_t *p, size_t n)
{
	r->p = p;
	r->n = n;
	r->pos = 0;
	r->missing = 0;
	r->what = NULL;
}
/* The failure of a read of size bytes: sets missing/what, returns 0. */
uint64_t qs_rd_fail(struct qs_rd *r, unsigned size, const char *what);
/* An unsigned field of size bytes (1, 2, 4 or 8); what names its type in
 * the message if it is missing (NULL: the C type of that size). */
static inline uint64_t qs_rd_uint(struct qs_rd *r, unsigned size, const char *what)
{
	if (r->missing || size > r->n - r->pos)
		return qs_rd_fail(r, size, what);
	const uint8_t *p = r->p + r->pos;
	r->pos += size;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* one load and a mask (the frame has QS_READ_PAD bytes beyond its
	 * end): no branch on the size, which changes from field to field */
	uint64_t w;
	memcpy(&w, p, 8);
	return size >= 8 ? w : w & ((1ull << (8 * size)) - 1);
#endif
	switch (size) {
	case 1: return p[0];
	case 2: return (uint64_t)p[0] | (uint64_t)p[1] << 8;
	case 4: return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
	default: {
		uint64_t v = 0;
		for (unsigned i = 0; i < size && i < 8; i++)
			v |= (uint64_t)p[i] << (8 * i);
		return v;
	}
	}
}
/* A NUL-terminated string: returns its start and length (NUL excluded);
 * on a missing NUL sets the failure with missing = 1. */
const uint8_t *qs_rd_str(struct qs_rd *r, size_t *len);
/* The C type name QSPY uses for an unsigned field of this size. */
const char *qs_uint_name(unsigned size);

struct qs_dec {
	struct sonde_out out;
	struct sonde_session own_session; /* when the caller gives none */
	struct sonde_session *session;

	struct hdlc_framer fr;
	uint8_t *frame_buf;  /* max_rec + QS_READ_PAD bytes */
	uint16_t *esc_pos;
	size_t max_rec;

	struct qs_sizes sz;     /* set with qs_use_sizes, which keeps fsz in step */
	uint8_t fsz[128];       /* size of a field by its layout letter (qs_records.c), 0 = 'Z' */
	uint8_t fargt[128];     /* the argument type (enum sonde_arg_type) of a field, by letter */
	unsigned version;  /* QP version (e.g. 740); 0 until TARGET_INFO or -o qs.version */
	struct qs_dicts dict;
	char *dic_text;    /* contents of -o qs.dic=FILE, reloaded after a reset */
	unsigned dic_version; /* its -v line, 0 if none */
	size_t dic_len;
	char *dic_path;
	char *dic_save;    /* -o qs.dic_save=DIR: where QSPY's -d writes (qs_dicwrite.c) */
	struct qs_seq *seq; /* -o qs.seq=LIST: the sequence diagram (qs_seq.c), NULL none */
	char *seq_path;    /* -o qs.seq_file, NULL: QSPY's qspy<time>.seq */
	char seq_note[400]; /* QSPY's notice about the list, said at the start */

	/* How QSPY prints a pointer it has no name for (its dictionaries' key
	 * sizes): from qs.obj/qs.fun (QSPY's -O/-F, default 4) or the .dic
	 * file's sections, never from TARGET_INFO (QSPY 7.4 sets them once). */
	uint8_t key_obj, key_fun, key_sig;

	/* stream state */
	uint64_t frames;   /* frames seen so far (the next frame's number) */
	int synced;        /* a good frame has been seen */
	uint8_t last_seq;
	uint8_t rec1;      /* byte 1 of the last frame that had one: QSPY names the
			    * record of a broken frame from it */
	int have_ti;       /* ti[] holds the last TARGET_INFO's configuration */
	uint8_t ti[18];
	size_t ti_len;

	/* timestamps: raw values unwrapped into 64 bits */
	int have_ts;
	uint64_t ts_raw;
	uint64_t ts64;

	/* active objects announced as tasks (bounded) */
	uint64_t *aos;
	size_t n_aos;

	/* per-record scratch, valid during the event callback */
	const struct qs_frame *fr_cur;
	struct qs_line line;
	struct sonde_arg *args; /* max_args: enough for any record of max_rec bytes */
	size_t max_args;
	size_t nargs;
	char *str_buf;     /* max_rec + 1 bytes: a NUL-terminated copy of a name */
	char name_buf[32]; /* the record name of the event (rendered tag, USER+NNN) */
	char build[16];
};

/* Reporting (qs_out.c).  qs_diag's offset is the current frame's start
 * plus the un-escaped index idx (mapped through the escapes). */
void qs_diag(struct qs_dec *d, enum sonde_diag_code code, size_t idx, uint64_t count,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Fill in where the event came from and deliver it (inline: once per
 * record). */
static inline void qs_emit(struct qs_dec *d, struct sonde_event *ev)
{
	if (d->fr_cur) {
		ev->offset = d->fr_cur->offset;
		ev->frame = d->fr_cur->number;
		ev->seq = d->fr_cur->seq;
		ev->rec_id = d->fr_cur->rec;
	}
	if (d->out.event)
		d->out.event(d->out.ctx, ev);
}
/* Timestamp handling: turns a raw record timestamp into event time.  Raw
 * timestamps are QS_TIME_SIZE bytes and wrap (the posix port's 100 ns
 * clock every 7 minutes); events get them unwrapped into 64 bits.  A step
 * of more than half the range backwards is taken as a wrap forwards.
 * Inline, as qs_arg below: once per record or argument. */
static inline void qs_set_ts(struct qs_dec *d, struct sonde_event *ev, int has_ts, uint64_t raw)
{
	if (has_ts) {
		unsigned bits = 8u * d->sz.ts;
		uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
		raw &= mask;
		if (!d->have_ts) {
			d->ts64 = raw;
		} else {
			uint64_t delta = (raw - d->ts_raw) & mask;
			if (delta <= mask / 2) {
				d->ts64 += delta;
			} else {
				uint64_t back = mask - delta + 1;
				d->ts64 = d->ts64 >= back ? d->ts64 - back : 0;
			}
		}
		d->ts_raw = raw;
		d->have_ts = 1;
		ev->ts = d->ts64;
		ev->ts_flags = SONDE_TS_VALID;
	} else if (d->have_ts) {
		/* records without a timestamp happened after the last one seen */
		ev->ts = d->ts64;
		ev->ts_flags = SONDE_TS_VALID | SONDE_TS_ESTIMATED;
	}
}

/* A new argument slot (NULL when all max_args are in use). */
static inline struct sonde_arg *qs_arg(struct qs_dec *d, enum sonde_arg_type t, const char *name)
{
	if (d->nargs >= d->max_args)
		return NULL;
	struct sonde_arg *a = &d->args[d->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	return a;
}

/* Announce obj as an active object (SONDE_EV_TASK_CREATE) the first time
 * it appears, at the time of the event that names it. */
void qs_note_ao(struct qs_dec *d, uint64_t obj, const struct sonde_event *cause);
/* Clear the dictionaries and reload -o qs.dic if given (qs_dicfile.c). */
void qs_reset_dicts(struct qs_dec *d);
/* Read -o qs.dic again, saying so as QSPY does. */
void qs_dic_reload(struct qs_dec *d);

/* Compile the predefined records' line templates (once per process, at
 * the first decoder; qs_records.c); -1 if a row does not compile. */
int qs_records_compile(void);

/* Record decoders. */
void qs_decode_record(struct qs_dec *d, const struct qs_frame *f);   /* qs_records.c */
void qs_decode_user(struct qs_dec *d, const struct qs_frame *f);     /* qs_user.c */
void qs_decode_target_info(struct qs_dec *d, const struct qs_frame *f); /* qs_target.c */
/* QSPY 7.4's name of a record id in its error lines: its table's name below
 * 100 ("QS_EMPTY", "QS_QEP_TRAN", "QS_RESERVED" for 81..99), else "USER+N"
 * with N as QSPY prints it there: %u (pad 0) or %3u (pad 3). */
const char *qs_err_rec_name(unsigned rec, int pad, char *buf);
/* Emit a QSPY notice ("   <QSPY-> ...") as an INFO event: information,
 * not an error of the stream. */
void qs_notice(struct qs_dec *d, const char *text);

/* Size options (qs_sizes.c) and .dic files (qs_dicfile.c). */
int qs_size_valid(char letter, unsigned v);
int qs_set_size(struct qs_sizes *sz, char letter, unsigned v);
/* Make *sz the decoder's sizes. */
void qs_use_sizes(struct qs_dec *d, const struct qs_sizes *sz);
/* The size field for a QSPY option letter, NULL for another letter. */
uint8_t *qs_size_of(struct qs_sizes *sz, char letter);
int qs_dicfile_load(struct qs_dec *d, const char *text, size_t len, int check_sizes);

/* Write the dictionaries as QSPY's -d does (qs_dicwrite.c): the file
 * qspy<build>.dic in dir (NULL: the current directory), with QSPY's notice
 * (also copied to msg, cap bytes).  0 ok, -1 not written. */
int qs_dic_write(struct qs_dec *d, const char *dir, char *msg, size_t cap);

#endif /* SONDE_QS_H */
