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
#include "sonde_stacks.h"
#include "sonde_ts.h"

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
	uint32_t core;
	struct sdict dict;
	int dict_full_reported;
	struct sstk stk;
	int drops_base_valid;    /* DROPS totals are known since a reset or a first DROPS */
	uint32_t base_over, base_ref;
	uint8_t base_resets;     /* v2: the counter resets the last DROPS reported */
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
/* Turn one good frame into its event (and diagnostics). */
void srec_process(struct sdec *d, const struct sdec_frame *f);

/* sonde_decoder.c */
/* A diagnostic about byte idx of the frame being processed. */
void sdec_diag_at(struct sdec *d, enum sonde_diag_code code, size_t idx, uint64_t count, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sdec_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
	       const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The target restarted: forget dictionaries, timing and nesting. */
void sdec_target_reset(struct sdec *d);
/* The protocol version in use changed (TARGET_INFO), or was first met. */
void sdec_set_version(struct sdec *d, unsigned version, int from_info);

/* sonde_probe.c */
int sdec_probe(const uint8_t *buf, size_t n);

#endif /* SONDE_DEC_H */
