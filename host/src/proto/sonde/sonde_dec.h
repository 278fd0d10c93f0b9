/*
 * sonde_dec.h -- internals of the Sonde protocol decoder, shared by its
 * files, each calling only those below it: sonde_decoder.c (the decoder
 * ops: framing, sequence numbers, losses, holding for time
 * reconstruction), sonde_probe.c; sonde_records.c (one frame -> one
 * event), sonde_rtosrec.c (the RTOS records, for sonde_records.c);
 * sonde_state.c (diagnostics, protocol version);
 * sonde_layout.c (what each record id looks like).  Not a public
 * interface; the tests include it.
 */
#ifndef SONDE_DEC_H
#define SONDE_DEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "sonde_args.h"
#include "sonde_fields.h"
#include "sonde_dict.h"
#include "sonde_hold.h"
#include "sonde_logfmt.h"
#include "sonde_loss.h"
#include "sonde_rtosrec.h"
#include "sonde_stacks.h"
#include "sonde_ts.h"

#define SDEC_FRAME_MAX 1024 /* un-escaped bytes, SEQ..CHK (protocol §1) */

/* A frame on its way through srec_process. */
struct sdec_frame {
	/* offset and frame apart: both are copied into every event, and read
	 * together they became one 16-byte load of two 8-byte stores just
	 * made, which the CPU cannot forward (a stall of the whole path) */
	const uint8_t *b;        /* SEQ, ID, DATA..., CHK */
	uint64_t offset;         /* of its first byte */
	size_t len;
	uint64_t frame;          /* number in the input */
	uint64_t idx;            /* host index: its sequence slot (sonde_loss.h) */
	const uint16_t *esc;     /* un-escaped indexes of escaped bytes */
	size_t nesc;
	int forced;              /* time decided by the hold logic: */
	uint64_t t;              /*   this time */
	uint32_t tflags;         /*   these SONDE_TS_* flags */
	const struct sts *split; /* the arrival side's split of a timed record
				  * (srec_time_field > 0), NULL = none */
};

struct sdec {
	struct sonde_out out;
	struct sonde_session *ses;
	struct sonde_session own_session; /* when the caller gives none */

	/* arrival side: framing, sequence numbers, holding */
	struct hdlc_framer fr;
	uint8_t frbuf[SDEC_FRAME_MAX];
	uint16_t escbuf[SDEC_FRAME_MAX];
	uint64_t nframes;
	uint64_t anext;          /* host index of the next sequence slot (sonde_loss.h) */
	int have_seq;
	uint8_t last_seq;
	int t_known;             /* a frame arriving now can be timed forwards */
	int brk;                 /* a loss since the last held item */
	int rejoin;              /* the input rejoined after a break: the next sequence gap is link loss */
	struct shold hold;

	/* processing side: the state the records build */
	uint64_t T;              /* 64-bit time of the latest timed record */
	uint32_t tflags;         /* its SONDE_TS_* flags, 0 = never known */
	unsigned version;        /* protocol version in use: 1 or 2 (both sides: a TARGET_INFO
				  * that changes it is never held) */
	unsigned assumed;        /* the version before any TARGET_INFO (-o version=, default 2) */
	unsigned met;            /* bit v: a TARGET_INFO of version v was decoded */
	int rejected;            /* unsupported protocol version: skip frames */
	unsigned addr_size;
	/* valid lengths of each record's own fields in this version and
	 * address size (srec_len_ok, as a table: srec_set_lengths) */
	uint16_t len_lo[256], len_hi[256];
	uint8_t timed[256];      /* 1: a timed record's id (its layout says so) */
	/* Tallying instead of building events (struct sonde_tally's rules):
	 * the ids whose events nobody needs; per core, the latest time of any
	 * event delivered or record tallied, and whether an event with a valid
	 * time was delivered (the current core's in t_hi and timed_out). */
	uint8_t tally_id[256];   /* SREC_TALLY_*: how, 0 = never */
	uint64_t t_hi;
	int timed_out;
	uint64_t core_t_hi[256];
	uint8_t core_timed_out[256];
	uint32_t core;
	struct sdict dict;
	int dict_full_reported;
	struct sstk stk;
	struct srtos rtos;       /* RTOS objects (sonde_rtosrec.c) */
	struct sloss loss;       /* who lost the missing frames (sonde_loss.h) */

	const struct sdec_frame *cur; /* frame being processed, for offsets */
	struct sonde_arg args[SARGS_MAX];
	char text[SLOG_TEXT_MAX];
	char user_names[64][12];
	struct sfields fields[64];  /* user records' names and field names */
	const char *user_rec[64];   /* each one's name (user_name, sonde_records.c) */
	uint8_t user_named[64];     /*   from the dictionary, with its fields */
	uint64_t user_gen[64];      /*   as of this generation of the dictionary */
};

/* sonde_layout.c */
struct srec_layout {
	const char *name;
	uint8_t timed;
	uint16_t min, max;      /* bytes of the record's own fields (DATA without the
				 * timestamp field of a timed record), version 2;
				 * max SREC_VAR = no limit */
};
#define SREC_VAR 0xFFFFu
#define SREC_ADDR 0xFFFEu   /* min/max: addr_size (FUNC_ENTER_A) */
#define SREC_PEEK 0xFFFDu   /* min/max: addr_size + 1 + 1..64 (PEEK_DATA) */

/* Layout of a record id, NULL if the id is not a record of this protocol. */
const struct srec_layout *srec_layout(uint8_t id);
/* 1 if n is a valid length of the fields of record id in this protocol
 * version; else 0 and *lo, *hi set to the valid range (*hi = SIZE_MAX when
 * unbounded). */
int srec_len_ok(unsigned version, uint8_t id, size_t n, unsigned addr_size, size_t *lo, size_t *hi);
/* Fill d->len_lo/len_hi for d->version and d->addr_size. */
void srec_set_lengths(struct sdec *d);
/* The fields of a record of layout l: for a timed record the DATA around
 * its timestamp field (sts_split), for the others all of DATA (width 0).
 * STS_OK, or why a timed record's timestamp field cannot be read. */
enum sts_status srec_fields(unsigned version, const struct srec_layout *l, const uint8_t *data, size_t dlen,
			    struct sts *fl);
/* Does this frame step the time (and where by)?  1: yes, *ts says by what;
 * 0: no (not a timed record, or in version 1 one of the wrong length or an
 * unknown id, as version 1 always did); -1: version 2, a timed record whose
 * timestamp field cannot be read, or a record of an unknown id (which may
 * have had one), either of which breaks the chain of deltas like a lost
 * frame. */
int srec_time_field(unsigned version, uint8_t id, const uint8_t *data, size_t dlen, unsigned addr_size,
		    struct sts *ts);

/* sonde_records.c */
/* Turn one good frame into its event (and diagnostics). */
void srec_process(struct sdec *d, const struct sdec_frame *f);
/* The same for a frame whose time is taken (srec_take_time, for a timed
 * record) and whose own fields q[0..n), at DATA index off, have a length
 * its layout accepts: what srec_process does after its checks, and what
 * the arrival side's fast path (sonde_decoder.c) calls directly.  d->cur
 * must be f. */
void srec_record(struct sdec *d, const struct sdec_frame *f, uint8_t id, const uint8_t *q, size_t n, size_t off);

/* Fill d->tally_id from d->out (at create). */
void srec_set_tally(struct sdec *d);
/* Tally a record of SREC_TALLY_SIMPLE whose time is taken (d->T): the
 * stacks change as for its event, given its fields q. */
void srec_tally_simple(struct sdec *d, uint8_t id, const uint8_t *q);

/* The 64-bit time of a timed record whose timestamp field holds v
 * (protocol §5; §10 for version 1).  Inline: every timed record takes it. */
static inline void srec_take_time(struct sdec *d, const struct sdec_frame *f, uint32_t v)
{
	if (f->forced) {
		d->T = f->t;
		d->tflags = f->tflags;
	} else if (d->tflags & SONDE_TS_VALID) {
		d->T += sts_forward(d->version, d->T, v);
	} else { /* cannot happen when the hold logic did its job; stay safe */
		d->T = sts_forward(d->version, 0, v);
		d->tflags = SONDE_TS_VALID | SONDE_TS_ESTIMATED;
	}
}

/* Building an event, for sonde_records.c and the record families decoded
 * in their own files (sonde_rtosrec.c); inline, since every record takes
 * them.  A fresh event of kind k for frame f at the current time: */
static inline void srec_ev_init(struct sdec *d, struct sonde_event *ev, const struct sdec_frame *f,
				enum sonde_ev_kind k, const char *name)
{
	/* Copied from a zeroed template rather than memset: this runs for every
	 * record, and a copy of a known size becomes a few vector moves where
	 * memset became a slow "rep stos". */
	static const struct sonde_event zero;
	*ev = zero;
	ev->kind = k;
	ev->rec_id = f->b[1];
	ev->rec_name = name;
	ev->core = d->core;
	ev->offset = f->offset;
	ev->frame = f->frame;
	ev->seq = f->b[0];
	ev->ts = d->T;
	ev->ts_flags = d->tflags;
}

/* An argument added to it (its address, to complete): */
static inline struct sonde_arg *srec_add_arg(struct sdec *d, struct sonde_event *ev, const char *name,
					     enum sonde_arg_type t, uint64_t v)
{
	struct sonde_arg *a = &d->args[ev->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.u = v;
	ev->args = d->args;
	return a;
}

/* Delivered (and what the tally's rules need to know of it noted): */
static inline void srec_emit(struct sdec *d, const struct sonde_event *ev)
{
	if (ev->ts_flags & SONDE_TS_VALID) {
		if (ev->ts > d->t_hi)
			d->t_hi = ev->ts;
		d->timed_out = 1;
	}
	if (d->out.event)
		d->out.event(d->out.ctx, ev);
}

/* May a record whose event nobody needs be tallied now (its time being
 * exact, after an event of its core with a valid time)? */
static inline int srec_may_tally_now(const struct sdec *d)
{
	return d->tflags == SONDE_TS_VALID && d->timed_out;
}

/* May record id, about to be processed at the current time, be tallied
 * instead of delivered (struct sonde_tally)? */
static inline int srec_may_tally(const struct sdec *d, uint8_t id)
{
	return d->tally_id[id] && srec_may_tally_now(d);
}

/* How a record id is tallied: by srec_tally_simple from its fields alone
 * (what it changes is the stacks), or by srec_record (a LOG, whose
 * arguments are checked with the frame at hand for the diagnostic's
 * offset). */
#define SREC_TALLY_SIMPLE 1
#define SREC_TALLY_RECORD 2

/* Tallied: */
static inline void srec_tally(struct sdec *d, uint8_t id)
{
	struct sonde_tally *t = d->out.needs.tally;
	uint64_t T = d->T;
	t->n++;
	t->count[id]++;
	t->at[id] = t->n;
	if (!t->have_time) {
		t->have_time = 1;
		t->t_min = t->t_max = T;
	}
	t->t_min = T < t->t_min ? T : t->t_min;
	t->t_max = T > t->t_max ? T : t->t_max;
	t->behind += T < d->t_hi;
	d->t_hi = T > d->t_hi ? T : d->t_hi;
	t->hi = d->t_hi;
	t->last = T;
	t->core = d->core;
}

/* sonde_state.c */
/* A diagnostic about byte idx of the frame being processed. */
void sdec_diag_at(struct sdec *d, enum sonde_diag_code code, size_t idx, uint64_t count, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sdec_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The protocol version in use changed (TARGET_INFO), or was first met. */
void sdec_set_version(struct sdec *d, unsigned version, int from_info);

/* sonde_probe.c */
int sdec_probe(const uint8_t *buf, size_t n);

#endif /* SONDE_DEC_H */
