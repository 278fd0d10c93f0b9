/*
 * sonde_dec.h -- internals of the Sonde protocol decoder, shared by its
 * files: sonde_decoder.c (framing, sequence numbers, losses, holding for
 * time reconstruction), sonde_records.c (one frame -> one event) and
 * sonde_probe.c.  Not a public interface; the tests include it.
 */
#ifndef SONDE_DEC_H
#define SONDE_DEC_H

#include <stddef.h>
#include <stdint.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "sonde_args.h"
#include "sonde_fields.h"
#include "sonde_dict.h"
#include "sonde_hold.h"
#include "sonde_logfmt.h"
#include "sonde_rtosrec.h"
#include "sonde_stacks.h"

#define SDEC_FRAME_MAX 1024 /* un-escaped bytes, SEQ..CHK (protocol §1) */

/* A frame on its way through srec_process. */
struct sdec_frame {
	const uint8_t *b;        /* SEQ, ID, DATA..., CHK */
	size_t len;
	uint64_t offset;         /* of its first byte */
	uint64_t frame;          /* number in the input */
	const uint16_t *esc;     /* un-escaped indexes of escaped bytes */
	size_t nesc;
	int forced;              /* time decided by the hold logic: */
	uint64_t t;              /*   this time */
	uint32_t tflags;         /*   these SONDE_TS_* flags */
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
	int have_seq;
	uint8_t last_seq;
	int t_known;             /* a frame arriving now can be timed forwards */
	int brk;                 /* a loss since the last held item */
	struct shold hold;

	/* processing side: the state the records build */
	uint64_t T;              /* 64-bit time of the latest timed record */
	uint32_t tflags;         /* its SONDE_TS_* flags, 0 = never known */
	int rejected;            /* unsupported protocol version: skip frames */
	unsigned addr_size;
	uint32_t core;
	struct sdict dict;
	int dict_full_reported;
	struct sstk stk;
	struct srtos rtos;       /* RTOS objects (sonde_rtosrec.c) */
	int drops_base_valid;    /* DROPS totals are known since a reset or a first DROPS */
	uint32_t base_over, base_ref;
	uint64_t pending_gap;    /* frames of gaps waiting for a DROPS to explain them */

	const struct sdec_frame *cur; /* frame being processed, for offsets */
	struct sonde_arg args[SARGS_MAX];
	char text[SLOG_TEXT_MAX];
	char user_names[64][12];
	struct sfields fields[64];  /* user records' names and field names */
};

/* sonde_records.c */
struct srec_layout {
	const char *name;
	uint8_t timed;
	uint16_t min, max;      /* DATA bytes; max SREC_VAR = no limit */
};
#define SREC_VAR 0xFFFFu
#define SREC_ADDR 0xFFFEu   /* min/max: 2 + addr_size (FUNC_ENTER_A) */
#define SREC_PEEK 0xFFFDu   /* min/max: 2 + addr_size + 1 + 1..64 (PEEK_DATA) */

/* Layout of a record id, NULL if the id is not a record of this protocol. */
const struct srec_layout *srec_layout(uint8_t id);
/* 1 if dlen is a valid DATA length for id; else 0 and *lo, *hi set to the
 * valid range (*hi = SIZE_MAX when unbounded). */
int srec_len_ok(uint8_t id, size_t dlen, unsigned addr_size, size_t *lo, size_t *hi);
/* A known, timed record of valid length. */
int srec_timed(uint8_t id, size_t dlen, unsigned addr_size);
/* Turn one good frame into its event (and diagnostics). */
void srec_process(struct sdec *d, const struct sdec_frame *f);
/* For record families decoded in their own files (sonde_rtosrec.c): a
 * fresh event of kind k for frame f at the current time, an argument added
 * to it (its address, to complete), and delivering it. */
void srec_ev_init(struct sdec *d, struct sonde_event *ev, const struct sdec_frame *f, enum sonde_ev_kind k,
		  const char *name);
struct sonde_arg *srec_add_arg(struct sdec *d, struct sonde_event *ev, const char *name, enum sonde_arg_type t,
			       uint64_t v);
void srec_emit(struct sdec *d, const struct sonde_event *ev);

/* sonde_decoder.c */
/* A diagnostic about byte idx of the frame being processed. */
void sdec_diag_at(struct sdec *d, enum sonde_diag_code code, size_t idx, uint64_t count, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sdec_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The target restarted: forget dictionaries, timing and nesting. */
void sdec_target_reset(struct sdec *d);

/* sonde_probe.c */
int sdec_probe(const uint8_t *buf, size_t n);

#endif /* SONDE_DEC_H */
