/*
 * test_qs_frames.c -- the QS decoder on hand-built frames: every error the
 * parser reports (with offset and frame number), the user-record formats,
 * TARGET_INFO (7.x and 8.x), the options, the probe, and robustness against
 * arbitrary input.
 *
 * Expected lines come from docs/proto-qs.md and ../shared/notes/qs.md (QSPY
 * 7.4's formats).  Where Sonde deliberately differs from QSPY, the test says
 * so in a comment starting "Differs from QSPY:".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "sonde_proto.h"
#include "core/msg.h"

extern const struct sonde_decoder_ops sonde_decoder_qs;
extern const struct sonde_sink_ops sonde_sink_qspy;

/* ---- building streams ----------------------------------------------------- */

struct stream {
	uint8_t b[1 << 16];
	size_t n;
	uint8_t seq;
	uint64_t frames; /* frames written, = number of the next frame */
};

/* Returns the offset of the frame. */
static size_t frame(struct stream *s, uint8_t rec, const void *payload, size_t n)
{
	size_t at = s->n;
	assert_true(s->n + 2 * (n + 3) + 1 <= sizeof(s->b));
	s->n += hdlc_encode(++s->seq, rec, payload, n, s->b + s->n);
	s->frames++;
	return at;
}

static size_t raw(struct stream *s, const void *p, size_t n)
{
	size_t at = s->n;
	assert_true(s->n + n <= sizeof(s->b));
	memcpy(s->b + s->n, p, n);
	s->n += n;
	return at;
}

#define FRAME(s, rec, ...) frame((s), (rec), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))
#define RAW(s, ...) raw((s), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

/* TARGET_INFO of the 32-bit DPP capture: sig 2, evt 2, eqc 2, tec 4, mps 2,
 * mpc 2, obj 4, fun 4, ts 4, QP 740, built 261121_235543. */
static const uint8_t ti32[16] = { 0xff, 0xe4, 0x02, 0x22, 0x42, 0x22, 0x44, 0x04,
				  0x40, 0x13, 0x2b, 0x37, 0x17, 0x15, 0x0b, 0x1a };

/* QS_EMPTY (seq 1) and a TARGET_INFO, as a real target starts. */
static void start(struct stream *s, const uint8_t ti[16])
{
	frame(s, 0, NULL, 0);
	frame(s, 64, ti, 16);
}

/* ---- decoding ------------------------------------------------------------- */

struct ev_sum {
	enum sonde_ev_kind kind;
	uint32_t flags, ts_flags, rec_id;
	uint64_t ts, obj, obj2, frame, offset;
	int64_t value;
	size_t nargs;
	int native;
};

struct cap {
	FILE *mem;
	char *text;
	size_t len;
	void *sink;
	struct sonde_session sess;
	struct sonde_diag diag[64];
	char msg[64][300];
	size_t nd;
	struct ev_sum ev[256];
	size_t ne;
	uint64_t arg_u[8]; /* the first arguments of the last event */
};

static void on_event(void *ctx, const struct sonde_event *ev)
{
	struct cap *c = ctx;
	if (c->ne < 256) {
		struct ev_sum *e = &c->ev[c->ne++];
		e->kind = ev->kind;
		e->flags = ev->flags;
		e->ts = ev->ts;
		e->ts_flags = ev->ts_flags;
		e->rec_id = ev->rec_id;
		e->obj = ev->obj;
		e->obj2 = ev->obj2;
		e->value = ev->value;
		e->frame = ev->frame;
		e->offset = ev->offset;
		e->nargs = ev->nargs;
		e->native = ev->native != NULL;
	}
	for (size_t i = 0; i < ev->nargs && i < 8; i++)
		c->arg_u[i] = ev->args[i].v.u;
	sonde_sink_qspy.event(c->sink, ev, &c->sess);
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct cap *c = ctx;
	if (c->nd < 64) {
		c->diag[c->nd] = *d;
		snprintf(c->msg[c->nd], sizeof(c->msg[0]), "%s", d->msg);
		c->diag[c->nd].msg = c->msg[c->nd];
		c->nd++;
	}
	sonde_sink_qspy.diag(c->sink, d, &c->sess);
}

/* Decode buf in chunks of 'chunk' bytes (0 = all at once); returns 0, or -1
 * if the decoder refused the options. */
static int decode_opts(struct cap *c, const uint8_t *buf, size_t n, size_t chunk, const char **opts)
{
	memset(c, 0, sizeof(*c));
	c->mem = open_memstream(&c->text, &c->len);
	assert_non_null(c->mem);
	c->sink = sonde_sink_qspy.create(c->mem, NULL);
	assert_non_null(c->sink);
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->sess };
	void *d = sonde_decoder_qs.create(&out, opts);
	if (d) {
		if (chunk == 0)
			chunk = n ? n : 1;
		for (size_t i = 0; i < n; i += chunk)
			sonde_decoder_qs.feed(d, buf + i, n - i < chunk ? n - i : chunk);
		sonde_decoder_qs.finish(d);
		sonde_decoder_qs.destroy(d);
	}
	assert_int_equal(sonde_sink_qspy.finish(c->sink, &c->sess), 0);
	sonde_sink_qspy.destroy(c->sink);
	fclose(c->mem);
	return d ? 0 : -1;
}

static void decode(struct cap *c, const struct stream *s, const char **opts)
{
	assert_int_equal(decode_opts(c, s->b, s->n, 0, opts), 0);
	/* fed a byte at a time, everything is the same */
	struct cap *one = malloc(sizeof(*one));
	assert_non_null(one);
	assert_int_equal(decode_opts(one, s->b, s->n, 1, opts), 0);
	assert_string_equal(one->text, c->text);
	assert_int_equal(one->nd, c->nd);
	for (size_t i = 0; i < c->nd; i++) {
		assert_int_equal(one->diag[i].offset, c->diag[i].offset);
		assert_int_equal(one->diag[i].frame, c->diag[i].frame);
	}
	free(one->text);
	free(one);
}

/* Output without the start-up lines (Trg-RST). */
static const char *body(const struct cap *c)
{
	const char *p = strstr(c->text, "Trg-RST");
	if (!p)
		return c->text;
	p = strchr(p, '\n');
	return p ? p + 1 : "";
}

static void assert_diag(const struct cap *c, size_t i, enum sonde_diag_code code, uint64_t offset,
			uint64_t frame_no, uint64_t count)
{
	assert_true(i < c->nd);
	assert_int_equal(c->diag[i].code, code);
	assert_int_equal(c->diag[i].offset, offset);
	assert_int_equal(c->diag[i].frame, frame_no);
	assert_int_equal(c->diag[i].count, count);
}

/* ---- frame-level errors ----------------------------------------------- */

static void test_frame_errors(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	FRAME(s, 61, 0x00, 0x10, 0x00, 0x20, 'm', 'e', 0x00); /* seq 3: Obj-Dict */
	FRAME(s, 70);                                         /* seq 4: QF_RUN */
	/* seq 5: St-Entry with one byte changed after the checksum was made */
	size_t bad_at = FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08);
	uint64_t bad_frame = s->frames - 1;
	s->b[bad_at + 3] ^= 0x01;
	size_t bad_len = s->n - bad_at;
	size_t gap1_at = FRAME(s, 70);              /* seq 6 */
	s->seq = 8;
	size_t gap2_at = FRAME(s, 70);              /* seq 9: frames 7 and 8 lost */
	s->seq = 19;
	FRAME(s, 0);                                /* QS_EMPTY seq 20: a jump here is fine */
	FRAME(s, 70);                               /* seq 21 */
	size_t short_at = RAW(s, 0x16, 0xe9, 0x7e); /* 2 bytes, checksum good */
	uint8_t big[600];
	memset(big, 0x11, sizeof(big));
	s->seq = 22;
	size_t long_at = frame(s, 100, big, sizeof(big)); /* seq 23, over 512 bytes */
	size_t long_len = s->n - long_at;
	size_t abort_at = RAW(s, 0x18, 0x46, 0x7d, 0x7e); /* escape right before the flag */
	s->seq = 24;
	size_t after_at = FRAME(s, 70);                     /* seq 25 */
	size_t tail_at = RAW(s, 0x1a, 0x46);                /* no flag: input ends */

	struct cap c;
	decode(&c, s, NULL);
	char want[2048];
	snprintf(want, sizeof(want),
		 "           Obj-Dict 0x20001000->me\n"
		 "           QF_RUN\n"
		 "   <COMMS> ERROR    Bad checksum in Rec=QS_QEP_STATE_ENTRY(?),Seq=4\n"
		 "   <COMMS> ERROR    Discontinuity Seq=4->6\n"
		 "           QF_RUN\n"
		 "   <COMMS> ERROR    Discontinuity Seq=6->9\n"
		 "           QF_RUN\n"
		 "           QF_RUN\n"
		 /* as QSPY: the last good sequence number */
		 "   <COMMS> ERROR    Record too short at Seq=21(?),Rec=USER+133(?)\n"
		 /* Differs from QSPY: one line for a long frame (QSPY adds a bad
		  * checksum for the rest of it), saying why */
		 "   <COMMS> ERROR    Record too long at Seq=21,Rec=USER+0 (%zu bytes on the wire, limit 512)\n"
		 /* Differs from QSPY: a flag always ends a frame, so 7D 7E costs
		  * one frame, not two; and the message names the cause */
		 "   <COMMS> ERROR    Aborted frame (escape before the flag) in Rec=QS_QF_RUN(?),Seq=21\n"
		 "   <COMMS> ERROR    Discontinuity Seq=21->25\n"
		 "           QF_RUN\n"
		 /* Differs from QSPY: it drops a partial last frame silently */
		 "   <COMMS> ERROR    2 bytes of an unterminated frame at the end of the input\n",
		 long_len);
	assert_string_equal(body(&c), want);

	assert_int_equal(c.nd, 8);
	assert_diag(&c, 0, SONDE_D_BAD_CHECKSUM, bad_at, bad_frame, bad_len);
	assert_diag(&c, 1, SONDE_D_SEQ_GAP, gap1_at, bad_frame + 1, 1);
	assert_diag(&c, 2, SONDE_D_SEQ_GAP, gap2_at, bad_frame + 2, 2);
	assert_diag(&c, 3, SONDE_D_TOO_SHORT, short_at, bad_frame + 5, 3);
	assert_diag(&c, 4, SONDE_D_TOO_LONG, long_at, bad_frame + 6, long_len);
	assert_diag(&c, 5, SONDE_D_ABORTED, abort_at, bad_frame + 7, 4);
	assert_diag(&c, 6, SONDE_D_SEQ_GAP, after_at, bad_frame + 8, 3);
	assert_diag(&c, 7, SONDE_D_TRUNCATED, tail_at, bad_frame + 9, 2);
	assert_int_equal(c.sess.frames, bad_frame + 10);
	assert_int_equal(c.sess.lost_unexplained, 1 + 2 + 3);
	free(c.text);
	free(s);
}

/* A stream joined mid-frame: QSPY stays silent until the first good frame;
 * Sonde reports the skipped bytes (Differs from QSPY). */
static void test_join_mid_frame(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	RAW(s, 0x12, 0x34, 0x56, 0x7e, 0x99, 0x7e);
	s->seq = 40;
	FRAME(s, 70);
	FRAME(s, 70);
	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(c.text, "   <COMMS> ERROR    4 bytes before the first good frame skipped\n"
				    "   <COMMS> ERROR    2 bytes before the first good frame skipped\n"
				    "           QF_RUN\n"
				    "           QF_RUN\n");
	assert_diag(&c, 0, SONDE_D_GARBAGE, 0, 0, 4);
	assert_diag(&c, 1, SONDE_D_GARBAGE, 4, 1, 2);
	assert_int_equal(c.ev[0].frame, 2);
	assert_int_equal(c.ev[0].offset, 6);
	free(c.text);
	free(s);
}

/* The worked example of the QS protocol documentation: SEQ 0x7E, record
 * 0x7D and a data byte 0x7D, all escaped.  Record 125 is decoded as a user
 * record, whose timestamp is cut short. */
static void test_escaped_record_id(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	RAW(s, 0x7D, 0x5E, 0x7D, 0x5D, 0x7D, 0x5D, 0x08, 0x01, 0x7D, 0x5E, 0x7E);
	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(c.text, "   <COMMS> ERROR    1 more bytes needed for uint32_t in Rec=USER+025\n");
	assert_diag(&c, 0, SONDE_D_MALFORMED, 8, 0, 1); /* the escaped checksum: the end of the data */
	assert_int_equal(c.ne, 1);
	assert_int_equal(c.ev[0].rec_id, 0x7D);
	assert_true(c.ev[0].flags & SONDE_EVF_MALFORMED);
	free(c.text);
	/* the same with idle flags behind it: enough bytes for the decoder's
	 * own scan of 64 bytes at a time, which un-escapes the frame itself */
	while (s->n < 200)
		RAW(s, 0x7E);
	decode(&c, s, NULL);
	assert_string_equal(c.text, "   <COMMS> ERROR    1 more bytes needed for uint32_t in Rec=USER+025\n");
	assert_diag(&c, 0, SONDE_D_MALFORMED, 8, 0, 1);
	assert_int_equal(c.ne, 1);
	free(c.text);
	free(s);
}

/* ---- facts checked against QSPY 7.4 ----------------------------------------- */

/* Each line below is what QSPY 7.4.0 (qtools 6ce1c36, -u0 -k -r c0) prints
 * for this stream: the checksum is checked before the length; a broken
 * frame is named after byte 1 of QSPY's frame buffer, which a frame of one
 * byte does not overwrite; "too short" gives the last good sequence number;
 * a record with bytes left over prints only the error; the mismatch notice
 * follows the target-info line; a pointer without a name keeps the width
 * of the configured pointer size (4) when TARGET_INFO says 8; signal 0 and
 * object 0 are NULL; an unknown signal in a user record names its object
 * twice. */
static void test_qspy_facts(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	uint8_t ti[16];
	memcpy(ti, ti32, 16);
	frame(s, 0, NULL, 0);                                            /* seq 1 */
	frame(s, 64, ti, 16);                                            /* 2 */
	FRAME(s, 12, 100, 0, 0, 0, 7, 0, 0x78, 0x56, 0x34, 0x12);        /* 3: AO-Subsc, no name */
	FRAME(s, 12, 101, 0, 0, 0, 7, 0, 0, 0, 0, 0);                    /* 4: object 0 */
	FRAME(s, 12, 102, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0x99);  /* 5: 1 byte left over */
	FRAME(s, 105, 103, 0, 0, 0, 0x0A, 9, 0, 0x78, 0x56, 0x34, 0x12); /* 6: user record, SIG 9 */
	RAW(s, 0x33, 0x7e);                                              /* 1 byte, sum wrong */
	RAW(s, 0xff, 0x7e);                                              /* 1 byte, sum right */
	ti[0] = 0x00;
	ti[6] = 0x88;
	frame(s, 64, ti, 16);                                            /* 7: 8-byte pointers */
	FRAME(s, 12, 104, 0, 0, 0, 7, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11); /* 8 */
	FRAME(s, 12, 105, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0); /* 9: signal 0 */
	FRAME(s, 0);                                                     /* 10 */
	RAW(s, 0x01, 0x7e);                                              /* 1 byte after QS_EMPTY */

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(c.text,
		"           Trg-RST  QP-Ver=740,Build=261121_235543\n"
		"0000000100 AO-Subsc Obj=0x12345678,Sig=00000007,Obj=0x12345678\n"
		"0000000101 AO-Subsc Obj=NULL,Sig=00000007,Obj=0x00000000\n"
		"   <COMMS> ERROR    1 bytes unused in Rec=QS_QF_ACTIVE_SUBSCRIBE\n"
		"0000000103 USER+005 00000009,Obj=0x12345678,Obj=0x12345678\n"
		"   <COMMS> ERROR    Bad checksum in Rec=USER+5(?),Seq=6\n"
		"   <COMMS> ERROR    Record too short at Seq=6(?),Rec=USER+5(?)\n"
		"           Trg-Info QP-Ver=740,Build=261121_235543\n"
		"   <QSPY-> Target info mismatch (dictionaries discarded)\n"
		"0000000104 AO-Subsc Obj=0x55667788,Sig=00000007,Obj=0x55667788\n"
		"0000000105 AO-Subsc Obj=0x12345678,Sig=NULL\n"
		"   <COMMS> ERROR    Bad checksum in Rec=QS_EMPTY(?),Seq=10\n");
	free(c.text);
	free(s);
}

/* ---- record-level errors -------------------------------------------------- */

static void test_field_errors(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	/* St-Entry with 2 bytes too many */
	size_t extra_at = FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08, 0xAA, 0xBB);
	/* ===>Tran whose target state lacks 2 bytes */
	FRAME(s, 6, 0x64, 0, 0, 0, 0x04, 0x00, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08, 0x01, 0x02);
	/* user records cut short: U32, string without NUL, memory dump */
	FRAME(s, 101, 0x64, 0, 0, 0, 0x05, 0x01, 0x02);
	FRAME(s, 101, 0x64, 0, 0, 0, 0x08, 'a', 'b');
	FRAME(s, 101, 0x64, 0, 0, 0, 0x09, 0x05, 0xaa, 0xbb);
	/* reserved and never-sent ids */
	size_t unk_at = FRAME(s, 90, 1, 2, 3);
	FRAME(s, 43);
	/* TARGET_INFO cut short */
	FRAME(s, 64, 0xff, 0xe4, 0x02, 0x22);

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(body(&c),
			    /* as QSPY: the error instead of the record's line */
			    "   <COMMS> ERROR    2 bytes unused in Rec=QS_QEP_STATE_ENTRY\n"
			    /* Differs from QSPY: one line naming the record */
			    "   <COMMS> ERROR    2 more bytes needed for uint32_t in Rec=QS_QEP_TRAN\n"
			    /* Differs from QSPY: printed once, not twice */
			    "   <COMMS> ERROR    2 more bytes needed for uint32_t in Rec=USER+001\n"
			    "   <COMMS> ERROR    1 more bytes needed for string in Rec=USER+001\n"
			    /* Differs from QSPY: the bytes missing (3), not the bytes left (2) */
			    "   <COMMS> ERROR    3 more bytes needed for memory-dump in Rec=USER+001\n"
			    "           Unknown Rec=90,Len=3\n"
			    "           Unknown Rec=43,Len=0\n"
			    "   <COMMS> ERROR    12 more bytes needed in Rec=QS_TARGET_INFO\n");
	/* offset of the first unused byte: frame start + SEQ + REC + 8 */
	assert_diag(&c, 0, SONDE_D_MALFORMED, extra_at + 2 + 8, 2, 2);
	assert_int_equal(c.diag[5].code, SONDE_D_UNKNOWN_RECORD);
	assert_int_equal(c.diag[5].offset, unk_at + 1);
	/* the cut-short records still reach the event model, flagged */
	size_t malformed = 0;
	for (size_t i = 0; i < c.ne; i++) {
		if (c.ev[i].flags & SONDE_EVF_MALFORMED) {
			malformed++;
			assert_false(c.ev[i].native);
		}
	}
	assert_int_equal(malformed, 5); /* the 4 cut short, and the one with bytes left over */
	/* the Tran event kept what could be read: signal, machine, source */
	for (size_t i = 0; i < c.ne; i++)
		if (c.ev[i].rec_id == 6)
			assert_int_equal(c.ev[i].nargs, 3);
	free(c.text);
	free(s);
}

/* ---- TARGET_INFO ------------------------------------------------------------ */

static void test_target_info(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	FRAME(s, 61, 0x00, 0x10, 0x00, 0x20, 'm', 'e', 0x00);
	/* reply to QS_RX_INFO, same configuration: dictionaries stay */
	uint8_t info[16];
	memcpy(info, ti32, 16);
	info[0] = 0x00;
	frame(s, 64, info, 16);
	FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00);
	/* a different configuration (8-byte pointers) without reset */
	uint8_t ti64[16];
	memcpy(ti64, info, 16);
	ti64[6] = 0x88;
	frame(s, 64, ti64, 16);
	FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0, 0, 0, 0, 0x01, 0x01, 0x00, 0x08, 0, 0, 0, 0);
	FRAME(s, 61, 0x60, 0xe8, 0x40, 0, 0, 0, 0, 0, 'Q', 'S', '_', 'R', 'X', 0x00);
	/* a reset with that configuration: dictionaries cleared silently */
	ti64[0] = 0xff;
	frame(s, 64, ti64, 16);
	FRAME(s, 62, 0x01, 0x01, 0x00, 0x08, 0, 0, 0, 0, 0x00);

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(c.text,
			    "           Trg-RST  QP-Ver=740,Build=261121_235543\n"
			    "           Obj-Dict 0x20001000->me\n"
			    "           Trg-Info QP-Ver=740,Build=261121_235543\n"
			    "===RTC===> St-Entry Obj=me,State=NULL\n"
			    "           Trg-Info QP-Ver=740,Build=261121_235543\n"
			    "   <QSPY-> Target info mismatch (dictionaries discarded)\n"
			    /* as QSPY: unnamed pointers keep the width of the
			     * configured size (-O/-F), dictionary keys take the
			     * target's */
			    "===RTC===> St-Entry Obj=0x20001000,State=0x08000101\n"
			    "           Obj-Dict 0x000000000040E860->QS_RX\n"
			    "           Trg-RST  QP-Ver=740,Build=261121_235543\n"
			    "           Fun-Dict 0x0000000008000101->''\n");
	assert_int_equal(c.sess.addr_size, 8);
	assert_int_equal(c.sess.version, 740);
	assert_int_equal(c.ev[0].kind, SONDE_EV_INFO);
	assert_int_equal(c.nd, 1);
	assert_int_equal(c.diag[0].code, SONDE_D_OTHER);
	free(c.text);
	free(s);
}

/* The QS 8.x layout (inferred from the QSPY 8 parser): flags byte, inverted
 * version/date word, then the 7.x bytes 3..15. */
static void test_target_info_8x(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	uint32_t t = ~(uint32_t)(810u + 10000u * 240901u);
	uint8_t ti8[18] = { 0x42, (uint8_t)t, (uint8_t)(t >> 8), (uint8_t)(t >> 16), (uint8_t)(t >> 24) };
	memcpy(ti8 + 5, ti32 + 3, 13);
	ti8[5 + 3] = 0x88; /* 8-byte pointers */
	frame(s, 0, NULL, 0);
	frame(s, 64, ti8, sizeof(ti8));
	/* record 81 exists from 8.0 on (QS_QF_ACTIVE_DEFER_ATTEMPT) */
	FRAME(s, 81, 0x64, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0x05, 0x00, 1, 2);
	FRAME(s, 56, 0x00);

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(c.text,
			    "           Trg-RST  QP-Ver=810,Build=261121_235543\n"
			    /* unnamed pointers as QSPY 7.4 shows them: the width of
			     * the configured size (-O/-F, 4), not the target's */
			    "0000000100 AO-DefrA Obj=0x00000001,Que=0x00000002,"
			    "Evt<Sig=00000005,Obj=0x00000001,Pool=1,Ref=2>\n"
			    "           Unknown Rec=56,Len=1\n");
	assert_int_equal(c.sess.version, 810);
	assert_int_equal(c.ev[0].kind, SONDE_EV_INFO);
	assert_int_equal(c.ev[0].nargs, 18);
	free(c.text);

	/* 7.4 never sends record 81 */
	struct stream *s7 = calloc(1, sizeof(*s7));
	assert_non_null(s7);
	start(s7, ti32);
	FRAME(s7, 81, 0x64, 0, 0, 0);
	decode(&c, s7, NULL);
	assert_string_equal(body(&c), "           Unknown Rec=81,Len=4\n");
	free(c.text);
	free(s7);
	free(s);
}

/* ---- record lines ---------------------------------------------------------- */

static void test_predefined_lines(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	/* nothing in the dictionaries: raw values (notes §15.2) */
	FRAME(s, 6, 0, 0, 0, 0, 0x04, 0x00, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08, 0x01, 0x02, 0x00, 0x08);
	FRAME(s, 31, 0x01, 0, 0, 0, 0x00);          /* Tick<0> */
	FRAME(s, 68, 0x64, 0, 0, 0, 0x00, 0x00, 0x04, 0x04, 0xa0, 0xa4, 0x40, 0x00, 0, 0, 0, 0,
	      0xd0, 0x1c, 0x40, 0x00, 0, 0, 0, 0);  /* Trg-Peek */
	FRAME(s, 66, 0x03);                         /* Ack of QS_RX_TICK */
	FRAME(s, 66, 0xC1);                         /* target error 0x41 */
	FRAME(s, 66, 0x8F);                         /* QS_RX_QUERY_CURR failed */
	FRAME(s, 65, 0x64, 0, 0, 0, 0x01);          /* Trg-Done QS_RX_COMMAND */
	FRAME(s, 67, 0x64, 0, 0, 0, 0x03, 0x00, 0x10, 0x00, 0x20, 0x03, 0x00, 0x01, 0x00); /* Query-EQ */
	FRAME(s, 32, 0x64, 0, 0, 0, 0x28, 0x73, 0, 0, 0x00, 0x73, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0x01); /* TE1 */
	FRAME(s, 69, 0x64, 0, 0, 0, 0x7b, 0x00, 'm', 'o', 'd', 0x00); /* =ASSERT= */
	FRAME(s, 58);                               /* TstPause */

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(body(&c),
			    "0000000000 ===>Tran Obj=0x20001000,Sig=00000004,Obj=0x20001000,"
			    "State=0x08000101->0x08000201\n"
			    "           Tick<0>  Ctr=0000000001\n"
			    "0000000100 Trg-Peek Offs=0,Size=4,Num=4,Data=<0040A4A0,00000000,00401CD0,00000000>\n"
			    "           Trg-Ack  QS_RX_TICK\n"
			    "           Trg-ERR  0x41\n"
			    "           Trg-ERR  QS_RX_QUERY_CURR\n"
			    "0000000100 Trg-Done QS_RX_COMMAND\n"
			    "0000000100 Query-EQ Obj=0x20001000,Que<Free=3,Min=1>\n"
			    "0000000100 TE1-Arm  Obj=0x00007328,AO=0x00007300,Tim=5,Int=0\n"
			    "0000000100 =ASSERT= Mod=mod,Loc=123\n"
			    "           TstPause\n");
	assert_int_equal(c.nd, 0);
	free(c.text);
	free(s);
}

/* Kernel records map onto the event model's ISR and scheduler kinds. */
static void test_isr_and_scheduler(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	FRAME(s, 41, 0x10, 0, 0, 0, 1, 7); /* ISR entry: nest 1, prio 7 */
	FRAME(s, 42, 0x20, 0, 0, 0, 1, 7);
	FRAME(s, 52, 0x30, 0, 0, 0, 3, 0); /* next: prio 3 */
	FRAME(s, 53, 0x40, 0, 0, 0, 3);    /* idle */
	struct cap c;
	decode(&c, s, NULL);
	assert_int_equal(c.ne, 5);
	assert_int_equal(c.ev[1].kind, SONDE_EV_ISR_ENTER);
	assert_int_equal(c.ev[1].obj, 7);
	assert_int_equal(c.ev[1].value, 1);
	assert_int_equal(c.ev[1].ts, 0x10);
	assert_int_equal(c.ev[2].kind, SONDE_EV_ISR_EXIT);
	assert_int_equal(c.ev[3].kind, SONDE_EV_TASK_IN);
	assert_int_equal(c.ev[3].obj, 3);
	assert_int_equal(c.ev[4].kind, SONDE_EV_IDLE);
	assert_int_equal(c.ev[4].ts, 0x40);
	free(c.text);
	free(s);
}

static void test_user_formats(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	FRAME(s, 63, 101, 'F', 'M', 'T', 0);
	FRAME(s, 61, 0x00, 0x10, 0x00, 0x20, 'o', 'b', 'j', 'A', 0);
	FRAME(s, 62, 0x01, 0x01, 0x00, 0x08, 'f', 'u', 'n', 'A', 0);
	FRAME(s, 60, 0x05, 0x00, 0, 0, 0, 0, 'S', 'I', 'G', '5', 0);
	FRAME(s, 60, 0x06, 0x00, 0x00, 0x10, 0x00, 0x20, 'S', 'I', 'G', '6', 0);
	FRAME(s, 54, 2, 3, 'T', 'W', 'O', 0);
	/* integers: widths, hex, the legacy hex type */
	FRAME(s, 101, 0x64, 0, 0, 0, 0x31, 5, 0x01, 0xff, 0xF1, 0x0a, 0x10, 0xfb, 0x72, 0xfe, 0xff,
	      0x43, 0x34, 0x12, 0xF3, 0x34, 0x12, 0x64, 0xff, 0xff, 0xff, 0xff,
	      0xF5, 0x78, 0x56, 0x34, 0x12, 0x0F, 0x78, 0x56, 0x34, 0x12);
	/* floats: 0.125 (w0), 1.0 (w1), -2.0 as F64 (w3) */
	FRAME(s, 102, 0x64, 0, 0, 0, 0x06, 0, 0, 0, 0x3e, 0x16, 0, 0, 0x80, 0x3f,
	      0x37, 0, 0, 0, 0, 0, 0, 0, 0xc0);
	/* strings and memory dumps, with the bytes that need escaping */
	FRAME(s, 103, 0x64, 0, 0, 0, 0x08, 0, 0x08, 'a', ' ', 'b', 0, 0x09, 0, 0x09, 2, 0x7d, 0x7e);
	/* pointers and signals */
	FRAME(s, 104, 0x64, 0, 0, 0, 0x0b, 0x00, 0x10, 0x00, 0x20, 0x0b, 0, 0, 0, 0, 0x0b, 0x44, 0x33, 0x22, 0x11,
	      0x0c, 0x01, 0x01, 0x00, 0x08, 0x0c, 0xef, 0xbe, 0xad, 0xde,
	      0x0a, 0x05, 0x00, 0, 0, 0, 0, 0x0a, 0x06, 0x00, 0x00, 0x10, 0x00, 0x20,
	      0x0a, 0x09, 0x00, 0x00, 0x10, 0x00, 0x20, 0x0a, 0x05, 0x00, 0x00, 0x10, 0x00, 0x20);
	/* enums and 64-bit integers */
	FRAME(s, 105, 0x64, 0, 0, 0, 0xB0, 2, 0xB0, 7, 0x0d, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	      0x9d, 123, 0, 0, 0, 0, 0, 0, 0, 0x1d, 7, 0, 0, 0, 0, 0, 0, 0, 0x0e, 42, 0, 0, 0, 0, 0, 0, 0,
	      0xfe, 0xab, 0, 0, 0, 0, 0, 0, 0, 0x9e, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	FRAME(s, 120, 0x64, 0, 0, 0);
	FRAME(s, 124, 0x64, 0, 0, 0, 0x01, 7);

	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(body(&c),
			    "           Usr-Dict 00000101->FMT\n"
			    "           Obj-Dict 0x20001000->objA\n"
			    "           Fun-Dict 0x08000101->funA\n"
			    "           Sig-Dict 00000005,Obj=0x00000000->SIG5\n"
			    "           Sig-Dict 00000006,Obj=0x20001000->SIG6\n"
			    "           Enum-Dic 002,Grp=3->TWO\n"
			    "0000000100 FMT   5 255 0x0A -5      -2 4660 0x1234     -1 0x12345678 0x12345678\n"
			    "0000000100 USER+002   1e-01   1.0e+00  -2.000e+00\n"
			    "0000000100 USER+003 '' a b   7D 7E\n"
			    "0000000100 USER+004 objA NULL 0x11223344 funA 0xDEADBEEF SIG5 SIG6,Obj=objA "
			    "00000009,Obj=0x20001000,Obj=objA SIG5,Obj=objA\n"
			    "0000000100 USER+005 TWO 007 -5 123    7 42 0x              AB 18446744073709551615\n"
			    "0000000100 USER+020\n"
			    "0000000100 QUTEST_ON_POST 7\n");
	assert_int_equal(c.nd, 0);
	free(c.text);
	free(s);
}

/* Timestamps are unwrapped into 64 bits; records without one get the last. */
static void test_timestamps(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	uint8_t ti[16];
	memcpy(ti, ti32, 16);
	ti[7] = 2; /* 2-byte timestamps */
	start(s, ti);
	FRAME(s, 100, 0xf0, 0xff);
	FRAME(s, 100, 0x10, 0x00); /* wrapped */
	FRAME(s, 100, 0x05, 0x00); /* a little back in time */
	FRAME(s, 70);
	struct cap c;
	decode(&c, s, NULL);
	assert_string_equal(body(&c), "0000065520 USER+000\n0000000016 USER+000\n0000000005 USER+000\n"
				      "           QF_RUN\n");
	assert_int_equal(c.ev[1].ts, 0xFFF0);
	assert_int_equal(c.ev[2].ts, 0x10010);
	assert_int_equal(c.ev[3].ts, 0x10005);
	assert_int_equal(c.ev[4].ts, 0x10005);
	assert_int_equal(c.ev[4].ts_flags, SONDE_TS_VALID | SONDE_TS_ESTIMATED);
	assert_int_equal(c.ev[0].ts_flags, 0); /* nothing before the first timestamp */
	free(c.text);
	free(s);
}

/* ---- options -------------------------------------------------------------- */

static void test_options(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->seq = 10; /* joined mid-way: no TARGET_INFO */
	FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0, 0, 0, 0, 0x01, 0x01);
	FRAME(s, 81, 0x64, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0x05, 1, 2);
	struct cap c;
	const char *sizes[] = { "qs.O=8", "qs.fun=2", "qs.ts=2", "qs.sig=1", "qs.version=800",
				"qs.ts_freq=10000000", NULL };
	decode(&c, s, sizes);
	assert_string_equal(c.text, "===RTC===> St-Entry Obj=0x0000000020001000,State=0x00000101\n"
				    "0000000100 AO-DefrA Obj=0x0000000000000001,Que=0x0000000000000002,"
				    "Evt<Sig=00000005,Obj=0x0000000000000001,Pool=1,Ref=2>\n");
	assert_int_equal(c.sess.ts_freq, 10000000);
	assert_int_equal(c.sess.addr_size, 8);
	free(c.text);

	/* a bad option is a usage error, said once as the tool's message
	 * (core/opts.h); a dictionary that cannot be read is a finding */
	static const char *const bad[][2] = {
		{ "qs.obj=3", "sonde: -o qs.obj=3: expected 1, 2, 4 or 8 bytes\n" },
		{ "qs.T=8", "sonde: -o qs.T=8: expected 1, 2 or 4 bytes\n" },
		{ "qs.eqc=two", "sonde: -o qs.eqc=two: expected 1, 2 or 4 bytes\n" },
		{ "qs.max_record=5", "sonde: -o qs.max_record=5: expected a number from 16 to 65535\n" },
		{ "qs.version=-1", "sonde: -o qs.version=-1: expected a number from 0 to 9999\n" },
		{ "qs.dic=/nonexistent/x.dic", "" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *opts[] = { bad[i][0], NULL };
		char *said = NULL;
		size_t said_len = 0;
		FILE *err = open_memstream(&said, &said_len);
		assert_non_null(err);
		sonde_msg_to(err);
		assert_int_equal(decode_opts(&c, s->b, s->n, 0, opts), -1);
		sonde_msg_to(NULL);
		fclose(err);
		assert_string_equal(said, bad[i][1]);
		free(said);
		if (bad[i][1][0]) {
			assert_int_equal(c.nd, 0);
		} else {
			assert_int_equal(c.nd, 1);
			assert_string_equal(c.msg[0],
					    "Cannot open dictionary file /nonexistent/x.dic: No such file or directory");
		}
		free(c.text);
	}

	/* a larger frame limit than QSPY's 512 bytes */
	struct stream *big = calloc(1, sizeof(*big));
	assert_non_null(big);
	start(big, ti32);
	uint8_t p[700] = { 0x64, 0, 0, 0 };
	for (size_t i = 4; i + 2 <= sizeof(p); i += 2) {
		p[i] = 0x01;
		p[i + 1] = 0x11;
	}
	frame(big, 100, p, sizeof(p));
	const char *lim[] = { "qs.max_record=1024", NULL };
	decode(&c, big, lim);
	assert_int_equal(c.nd, 0);
	assert_int_equal(strlen(body(&c)), strlen("0000000100 USER+000") + 348 * 3 + 1);
	free(c.text);
	decode(&c, big, NULL);
	assert_int_equal(c.nd, 1);
	assert_int_equal(c.diag[0].code, SONDE_D_TOO_LONG);
	free(c.text);
	free(big);
	free(s);
}

/* ---- dictionary limits and .dic files ----------------------------------- */

/* 2048 objects fit; the next name is refused with a notice, and its record
 * still prints with the name. */
static void test_dictionary_full(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	for (uint32_t i = 0; i <= 2048; i++) {
		uint8_t p[12] = { (uint8_t)(i << 4), (uint8_t)(i >> 4), 0x00, 0x20, 'o', 'b', 'j', 0 };
		frame(s, 61, p, 8);
	}
	FRAME(s, 1, 0x00, 0x00, 0x00, 0x20, 0, 0, 0, 0);
	FRAME(s, 1, 0x00, 0x80, 0x00, 0x20, 0, 0, 0, 0); /* object 2048, refused */
	struct cap c;
	decode(&c, s, NULL);
	assert_int_equal(c.nd, 1);
	assert_int_equal(c.diag[0].code, SONDE_D_OTHER);
	assert_string_equal(c.msg[0], "Dictionary full, Obj-Dict->obj not stored");
	assert_non_null(strstr(c.text, "           Obj-Dict 0x20008000->obj\n"
					"===RTC===> St-Entry Obj=obj,State=NULL\n"
					"===RTC===> St-Entry Obj=0x20008000,State=NULL\n"));
	free(c.text);
	free(s);
}

static char *write_temp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/test_qs_XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_dic_file_checks(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->seq = 10;
	FRAME(s, 1, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08);
	/* sizes and names from the file; bad lines are reported and skipped */
	char *path = write_temp("-v740\n-T4\n-O4\n-F4\n-t261121_235543\n\n"
				"Obj-Dic:\n4\n0x20001000 my obj\nbroken line\n***\n"
				"Fun-Dic:\n4\n0x08000101 fun_1\r\n***\n"
				"Sig-Dic:\n4\n00000004 0x00000000 EAT_SIG\n***\n");
	char opt[128];
	snprintf(opt, sizeof(opt), "qs.dic=%s", path);
	const char *opts[] = { opt, NULL };
	struct cap c;
	decode(&c, s, opts);
	char want[1024];
	snprintf(want, sizeof(want), "   <QSPY-> Reading dictionaries from File=%s\n"
				     "   <QSPY-> %s:10: expected: 0x<key> <name>\n"
				     "===RTC===> St-Entry Obj=my obj,State=fun_1\n", path, path);
	assert_string_equal(c.text, want);
	free(c.text);

	/* a file for another target (8-byte pointers): its sizes apply until
	 * TARGET_INFO, which then disagrees, so its names are not used */
	unlink(path);
	path = write_temp("-O8\n-F8\n\nObj-Dic:\n8\n0x0000000020001000 my_obj\n***\n");
	snprintf(opt, sizeof(opt), "qs.dic=%s", path);
	struct stream *s2 = calloc(1, sizeof(*s2));
	assert_non_null(s2);
	start(s2, ti32);
	FRAME(s2, 1, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08);
	decode(&c, s2, opts);
	/* as QSPY: the file is read before the first record and again after
	 * each target info; its Obj-Dic key size (8) is how unnamed objects
	 * show.  Differs from QSPY: the target's sizes stay (QSPY takes the
	 * file's -O8 -F8 and cannot decode the record any more) */
	snprintf(want, sizeof(want), "   <QSPY-> Reading dictionaries from File=%s\n"
				     "           Trg-RST  QP-Ver=740,Build=261121_235543\n"
				     "   <QSPY-> Reading dictionaries from File=%s\n"
				     "   <QSPY-> Dictionaries mismatch the Target (discarded)\n"
				     "===RTC===> St-Entry Obj=0x0000000020001000,State=0x08000101\n", path, path);
	assert_string_equal(c.text, want);
	free(c.text);
	unlink(path);
	free(s2);
	free(s);
}

/* ---- probe -------------------------------------------------------------- */

static void test_probe(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	start(s, ti32);
	FRAME(s, 70);
	assert_int_equal(sonde_decoder_qs.probe(s->b, s->n), 100);

	/* Sonde's own start: EMPTY with SEQ 0, then its 18-byte TARGET_INFO (id 1) */
	struct stream *so = calloc(1, sizeof(*so));
	assert_non_null(so);
	so->n = hdlc_encode(0, 0, NULL, 0, so->b);
	uint8_t sti[18] = { 1, 2, 4, 0, 0, 2, 0x40, 0x42, 0x0f, 0 };
	so->n += hdlc_encode(1, 1, sti, sizeof(sti), so->b + so->n);
	assert_int_equal(sonde_decoder_qs.probe(so->b, so->n), 0);

	/* joined mid-way: plausible but not certain */
	struct stream *mid = calloc(1, sizeof(*mid));
	assert_non_null(mid);
	RAW(mid, 0x11, 0x22, 0x7e);
	mid->seq = 77;
	for (int i = 0; i < 6; i++)
		FRAME(mid, 1, 0x00, 0x10, 0x00, 0x20, 0x01, 0x01, 0x00, 0x08);
	int p = sonde_decoder_qs.probe(mid->b, mid->n);
	assert_true(p > 0 && p < 100);

	const char text[] = "hello, world\nthis is not a trace\n";
	assert_int_equal(sonde_decoder_qs.probe((const uint8_t *)text, sizeof(text) - 1), 0);
	assert_int_equal(sonde_decoder_qs.probe(NULL, 0), 0);
	free(mid);
	free(so);
	free(s);
}

/* ---- robustness ------------------------------------------------------------ */

static uint32_t lcg_next(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/* Arbitrary bytes, and real frames with random damage: no crash (ASan and
 * UBSan builds check memory), the same output whatever the chunking. */
static void test_arbitrary_input(void **state)
{
	(void)state;
	struct stream *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	uint32_t x = 1;
	for (int round = 0; round < 40; round++) {
		s->n = 0;
		s->seq = 0;
		if (round % 2)
			start(s, ti32);
		while (s->n < 3000) {
			uint32_t r = lcg_next(&x);
			if (r % 3 == 0) { /* a random frame with a valid checksum */
				uint8_t p[64];
				size_t n = lcg_next(&x) % sizeof(p);
				for (size_t i = 0; i < n; i++)
					p[i] = (uint8_t)lcg_next(&x);
				frame(s, (uint8_t)lcg_next(&x), p, n);
			} else { /* raw noise, rich in flags and escapes */
				size_t n = lcg_next(&x) % 40;
				for (size_t i = 0; i < n; i++) {
					uint32_t b = lcg_next(&x);
					s->b[s->n++] = b % 5 == 0 ? 0x7e : b % 7 == 0 ? 0x7d : (uint8_t)b;
				}
			}
		}
		struct cap c;
		decode(&c, s, NULL); /* compares with the 1-byte feed */
		free(c.text);
	}
	/* degenerate inputs */
	memset(s->b, 0x7d, 5000);
	s->n = 5000;
	struct cap c;
	decode(&c, s, NULL);
	free(c.text);
	memset(s->b, 0x7e, 5000);
	decode(&c, s, NULL);
	assert_int_equal(c.nd, 0);
	assert_int_equal(c.ne, 0);
	free(c.text);
	memset(s->b, 0x11, sizeof(s->b)); /* one endless frame */
	s->n = sizeof(s->b);
	decode(&c, s, NULL);
	assert_int_equal(c.nd, 1);
	assert_int_equal(c.diag[0].code, SONDE_D_TRUNCATED);
	assert_int_equal(c.diag[0].count, sizeof(s->b));
	free(c.text);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_errors),
		cmocka_unit_test(test_join_mid_frame),
		cmocka_unit_test(test_escaped_record_id),
		cmocka_unit_test(test_qspy_facts),
		cmocka_unit_test(test_field_errors),
		cmocka_unit_test(test_target_info),
		cmocka_unit_test(test_target_info_8x),
		cmocka_unit_test(test_predefined_lines),
		cmocka_unit_test(test_isr_and_scheduler),
		cmocka_unit_test(test_user_formats),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_dictionary_full),
		cmocka_unit_test(test_dic_file_checks),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_arbitrary_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
