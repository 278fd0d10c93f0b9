/*
 * test_qs_fe.c -- QSPY's front-end packets (proto/qs/qs_fe.c) without
 * sockets: what goes to the front-end and to the target for each packet
 * kind, byte for byte against ../shared/notes/qs.md §18 and QSPY 7.4's
 * behaviour, with a target of 8-byte objects and functions and 4-byte
 * signals (the e2e test, test_qspy_frontend.sh, has 4/4/2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "proto/qs/qs_fe.h"

extern const struct sonde_decoder_ops sonde_decoder_qs;

/* ---- what qs_fe.c sends, collected ------------------------------------------ */

struct io {
	uint8_t fe[32][600]; /* packets to the front-end */
	size_t fe_len[32], nfe;
	uint8_t tgt[16][200]; /* frames to the target, un-escaped (seq, rec, payload) */
	size_t tgt_len[16], ntgt;
	char said[16][300]; /* lines QSPY prints itself */
	int said_kind[16];
	size_t nsaid;
	char cmd[8];
	int act[8];
	size_t ncmd;
	int detached, exit_req;
};

static void to_fe(void *ctx, const uint8_t *p, size_t n)
{
	struct io *io = ctx;
	assert_true(io->nfe < 32 && n <= 600);
	memcpy(io->fe[io->nfe], p, n);
	io->fe_len[io->nfe++] = n;
}

static struct io *framer_io;
static void on_frame(void *ctx, enum hdlc_status st, const uint8_t *f, size_t len, uint64_t off, size_t raw)
{
	(void)ctx, (void)off, (void)raw;
	assert_int_equal(st, HDLC_OK);
	struct io *io = framer_io;
	memcpy(io->tgt[io->ntgt], f, len - 1);
	io->tgt_len[io->ntgt++] = len - 1;
}

/* A frame to the target must be one good frame, whole. */
static int to_target(void *ctx, const uint8_t *frame, size_t n)
{
	struct io *io = ctx;
	uint8_t buf[600];
	struct hdlc_framer f;
	framer_io = io;
	size_t before = io->ntgt;
	assert_int_equal(frame[n - 1], 0x7E);
	hdlc_init(&f, buf, sizeof(buf), on_frame, NULL);
	hdlc_feed(&f, frame, n);
	assert_int_equal(io->ntgt, before + 1);
	return 0;
}

static void say(void *ctx, enum qs_fe_line_kind kind, const char *line)
{
	struct io *io = ctx;
	snprintf(io->said[io->nsaid], sizeof(io->said[0]), "%s", line);
	io->said_kind[io->nsaid++] = kind;
}

static void command(void *ctx, char cmd, enum qs_fe_action act)
{
	struct io *io = ctx;
	io->cmd[io->ncmd] = cmd;
	io->act[io->ncmd++] = act;
}

static void detached(void *ctx, int exit)
{
	struct io *io = ctx;
	io->detached++;
	io->exit_req = exit;
}

/* ---- a decoder that has seen the target's dictionaries -------------------------- */

static void no_event(void *ctx, const struct sonde_event *ev)
{
	(void)ctx, (void)ev;
}

static void no_diag(void *ctx, const struct sonde_diag *d)
{
	(void)ctx;
	fail_msg("diagnostic: %s", d->msg);
}

static struct sonde_session sess;
static uint8_t seq;

static void feed(void *dec, uint8_t rec, const uint8_t *p, size_t n)
{
	uint8_t out[600];
	size_t len = hdlc_encode(++seq, rec, p, n, out);
	sonde_decoder_qs.feed(dec, out, len);
}

#define FEED(dec, rec, ...) feed((dec), (rec), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void *target(void)
{
	struct sonde_out out = { .event = no_event, .diag = no_diag, .session = &sess };
	void *d = sonde_decoder_qs.create(&out, NULL);
	assert_non_null(d);
	seq = 0;
	FEED(d, 0, 0);
	/* TARGET_INFO, reset: QP 740; sig 4 / evt 2, eqc 1 / tec 4, mps 2 / mpc 2, obj 8 / fun 8, ts 4 */
	FEED(d, 64, 0xFF, 0xE4, 0x02, 0x24, 0x41, 0x22, 0x88, 0x04, 8, 0x13, 1, 2, 3, 4, 5, 26);
	/* Obj-Dict 0x1122334455667788 "AO_Table", Fun-Dict 0x0A0B "probe", Sig-Dict 9 (global) and
	 * 10 (of the AO) and 10 (of another object: not the current one), enum 4 in group 7 */
	FEED(d, 61, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 'A', 'O', '_', 'T', 'a', 'b', 'l', 'e', 0);
	FEED(d, 62, 0x0B, 0x0A, 0, 0, 0, 0, 0, 0, 'p', 'r', 'o', 'b', 'e', 0);
	FEED(d, 60, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'G', 'O', 0);
	FEED(d, 60, 12, 0, 0, 0, 0x99, 0, 0, 0, 0, 0, 0, 0, 'E', 'A', 'T', 0);
	FEED(d, 60, 10, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 'E', 'A', 'T', 0);
	FEED(d, 54, 4, 7, 'C', 'M', 'D', 0);
	FEED(d, 54, 5, 3, 'N', 'O', 'T', 'C', 'M', 'D', 0);
	return d;
}

static void setup_fe(struct qs_fe *fe, struct io *io, void *dec)
{
	memset(io, 0, sizeof(*io));
	struct qs_fe_io fio = { .ctx = io, .to_fe = to_fe, .to_target = to_target, .say = say, .command = command,
				.detached = detached };
	qs_fe_init(fe, &fio);
	qs_fe_set_decoder(fe, dec);
}

static void pkt(struct qs_fe *fe, const uint8_t *p, size_t n)
{
	uint8_t b[600];
	memcpy(b, p, n);
	qs_fe_packet(fe, b, n);
}

#define PKT(fe, ...) pkt((fe), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

/* a packet with a name after it, NUL-terminated as qutest.py sends it */
static void named(struct qs_fe *fe, const uint8_t *p, size_t n, const char *name)
{
	uint8_t b[600];
	memcpy(b, p, n);
	memcpy(b + n, name, strlen(name) + 1);
	qs_fe_packet(fe, b, n + strlen(name) + 1);
}

#define NAMED(fe, name, ...) named((fe), (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }), (name))

#define WANT(got, n, ...)                                                                        \
	do {                                                                                     \
		const uint8_t w_[] = { __VA_ARGS__ };                                            \
		assert_int_equal((n), sizeof(w_));                                               \
		assert_memory_equal((got), w_, sizeof(w_));                                      \
	} while (0)

/* ---- tests ---------------------------------------------------------------------- */

static void test_attach_and_lines(void **state)
{
	(void)state;
	struct qs_fe fe;
	struct io io;
	setup_fe(&fe, &io, NULL);
	/* nothing goes to a front-end that is not attached */
	qs_fe_line(&fe, 100, QS_FE_LINE_REG, "x", 1);
	assert_int_equal(io.nfe, 0);
	/* an old front-end attaches without channels: binary */
	PKT(&fe, 5, 128);
	WANT(io.fe[0], io.fe_len[0], 1, 128);
	assert_int_equal(fe.channels, QS_FE_BINARY);
	assert_string_equal(io.said[0], "   <F-END> Attached Chan=00000001");
	/* QUTest: text; the confirmation restarts QSPY's sequence */
	PKT(&fe, 6, 128, 2);
	WANT(io.fe[1], io.fe_len[1], 1, 128);
	assert_int_equal(io.nsaid, 1); /* "Attached" only when none was */
	qs_fe_line(&fe, 100, QS_FE_LINE_REG, "0000000001 USER+000 5", 21);
	WANT(io.fe[2], io.fe_len[2], 2, 0, 100, '0', '0', '0', '0', '0', '0', '0', '0', '0', '1', ' ', 'U', 'S', 'E',
	     'R', '+', '0', '0', '0', ' ', '5');
	/* never forwarded: QS_EMPTY, dictionaries, TARGET_INFO; nor info lines */
	static const int quiet[] = { 0, 54, 60, 61, 62, 63, 64 };
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		qs_fe_line(&fe, quiet[i], QS_FE_LINE_REG, "d", 1);
	qs_fe_line(&fe, 100, QS_FE_LINE_INFO, "i", 1);
	qs_fe_line(&fe, 65, QS_FE_LINE_ERR, "e", 1);
	assert_int_equal(io.nfe, 4);
	WANT(io.fe[3], io.fe_len[3], 3, 0, 65, 'e');
	/* the front-end's sequence: 6 then 7 expected; 9 is a discontinuity (an error line,
	 * forwarded, with QSPY's current record: the last packet's, ATTACH) */
	PKT(&fe, 9, 140);
	assert_string_equal(io.said[1], "   <F-END> ERROR    Data Discontinuity Seq=7->9");
	WANT(io.fe[4], io.fe_len[4], 4, 0, 128, ' ', ' ', ' ', '<', 'F', '-', 'E', 'N', 'D', '>', ' ', 'E', 'R', 'R', 'O',
	     'R', ' ', ' ', ' ', ' ', 'D', 'a', 't', 'a', ' ', 'D', 'i', 's', 'c', 'o', 'n', 't', 'i', 'n', 'u', 'i',
	     't', 'y', ' ', 'S', 'e', 'q', '=', '7', '-', '>', '9');
	assert_int_equal(io.ncmd, 1); /* CLEAR_SCREEN */
	assert_int_equal(io.cmd[0], 'c');
	/* detach; then with an exit request; QSPY's close sends DETACH only when attached */
	PKT(&fe, 10, 129);
	assert_int_equal(fe.channels, 0);
	assert_int_equal(io.detached, 1);
	assert_int_equal(io.exit_req, 0);
	PKT(&fe, 0, 128, 3);
	PKT(&fe, 1, 129, 1);
	assert_int_equal(io.exit_req, 1);
	assert_string_equal(io.said[io.nsaid - 1], "   <F-END> Forced EXIT ###################################");
	size_t n = io.nfe;
	PKT(&fe, 0, 128, 3);
	qs_fe_close(&fe);
	WANT(io.fe[n + 1], io.fe_len[n + 1], 2, 129);
}

static void test_own_commands(void **state)
{
	(void)state;
	struct qs_fe fe;
	struct io io;
	setup_fe(&fe, &io, NULL);
	PKT(&fe, 0, 130);      /* SAVE_DICT */
	PKT(&fe, 1, 131, 1);   /* TEXT_OUT on */
	PKT(&fe, 2, 132);      /* BIN_OUT, no action: toggle */
	PKT(&fe, 3, 133, 0);   /* MATLAB_OUT off */
	PKT(&fe, 4, 134, 2);   /* SEQUENCE_OUT toggle */
	assert_int_equal(io.ncmd, 5);
	assert_memory_equal(io.cmd, "dosmg", 5);
	static const int acts[] = { QS_FE_TOGGLE, QS_FE_ON, QS_FE_TOGGLE, QS_FE_OFF, QS_FE_TOGGLE };
	for (int i = 0; i < 5; i++)
		assert_int_equal(io.act[i], acts[i]);
	NAMED(&fe, "hello", 0, 141, 0xFF);
	assert_string_equal(io.said[0], "hello");
	assert_int_equal(io.said_kind[0], QS_FE_LINE_NOTE);
	PKT(&fe, 0, 142);
	assert_string_equal(io.said[1], "   <F-END> ERROR    Unrecognized command Rec=142");
	PKT(&fe, 0); /* too short to be a packet */
	assert_int_equal(io.nsaid, 2);
	assert_int_equal(io.ntgt, 0);
}

static void test_direct_to_target(void **state)
{
	(void)state;
	struct qs_fe fe;
	struct io io;
	setup_fe(&fe, &io, NULL);
	/* the front-end's sequence byte is replaced by the host's QS-RX sequence */
	PKT(&fe, 0x55, 1, 5, 0x7E, 0, 0, 0, 0x7D, 0, 0, 0, 3, 0, 0, 0);
	WANT(io.tgt[0], io.tgt_len[0], 1, 1, 5, 0x7E, 0, 0, 0, 0x7D, 0, 0, 0, 3, 0, 0, 0);
	PKT(&fe, 0x56, 7);
	WANT(io.tgt[1], io.tgt_len[1], 2, 7);
	/* a new connection restarts it */
	qs_fe_target_reset(&fe);
	PKT(&fe, 0x57, 3, 1);
	WANT(io.tgt[2], io.tgt_len[2], 1, 3, 1);
	/* so does a target reset (TARGET_INFO with the reset flag), after the record is forwarded */
	PKT(&fe, 0x58, 14);
	assert_int_equal(fe.target_seq, 2);
	static const uint8_t ti[] = { 9, 64, 0x00, 0xE4, 0x02, 0x22, 0x41, 0x22, 0x44, 4, 8, 0x13, 1, 2, 3, 4, 5, 26 };
	qs_fe_target_frame(&fe, ti, sizeof(ti));
	assert_int_equal(fe.target_seq, 2); /* isReset 0: a reply to INFO */
	uint8_t rst[sizeof(ti)];
	memcpy(rst, ti, sizeof(ti));
	rst[2] = 0xFF;
	qs_fe_target_frame(&fe, rst, sizeof(rst));
	assert_int_equal(fe.target_seq, 0);
	/* a record longer than QSPY's frame limit is refused */
	uint8_t big[600] = { 0, 16 };
	qs_fe_packet(&fe, big, sizeof(big));
	assert_int_equal(io.ntgt, 4);
	assert_string_equal(io.said[io.nsaid - 1], "   <COMMS> ERROR    Target packet too big Len=600");
}

static void test_target_records(void **state)
{
	(void)state;
	struct qs_fe fe;
	struct io io;
	setup_fe(&fe, &io, NULL);
	static const uint8_t empty[] = { 1, 0 }, user[] = { 3, 100, 1, 2, 3 };
	static const uint8_t ti[] = { 2, 64, 0xFF, 0xE4, 0x02, 0x22, 0x41, 0x22, 0x44, 4, 8, 0x13, 1, 2, 3, 4, 5, 26 };
	PKT(&fe, 0, 128, 2); /* text only: TARGET_INFO alone, in binary */
	qs_fe_target_frame(&fe, empty, sizeof(empty));
	qs_fe_target_frame(&fe, ti, sizeof(ti));
	qs_fe_target_frame(&fe, user, sizeof(user));
	assert_int_equal(io.nfe, 2);
	WANT(io.fe[1], io.fe_len[1], 2, 64, 0xFF, 0xE4, 0x02, 0x22, 0x41, 0x22, 0x44, 4, 8, 0x13, 1, 2, 3, 4, 5, 26);
	PKT(&fe, 1, 128, 1); /* binary: every record but QS_EMPTY, with the target's sequence */
	qs_fe_target_frame(&fe, empty, sizeof(empty));
	qs_fe_target_frame(&fe, user, sizeof(user));
	assert_int_equal(io.nfe, 4);
	WANT(io.fe[3], io.fe_len[3], 3, 100, 1, 2, 3);
	/* the current record names error lines */
	qs_fe_line(&fe, -1, QS_FE_LINE_ERR, "E", 1);
	qs_fe_line(&fe, -1, QS_FE_LINE_ERR, "E", 1); /* binary only: no text */
	assert_int_equal(io.nfe, 4);
}

static void test_named_records(void **state)
{
	(void)state;
	void *dec = target();
	struct qs_fe fe;
	struct io io;
	setup_fe(&fe, &io, dec);
	/* EVENT by name before any current object: only global signals */
	NAMED(&fe, "GO", 0, 135, 3, 0, 0, 0, 0, 2, 0, 0xAB, 0xCD);
	WANT(io.tgt[0], io.tgt_len[0], 1, 16, 3, 9, 0, 0, 0, 2, 0, 0xAB, 0xCD);
	NAMED(&fe, "EAT", 1, 135, 0, 0, 0, 0, 0, 0, 0);
	assert_string_equal(io.said[0], "   <F-END> ERROR    Signal Dictionary not found for Sig=EAT");
	/* CURR_OBJ (SM) by name, 8-byte address; then the AO's own signal */
	NAMED(&fe, "AO_Table", 2, 137, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	WANT(io.tgt[1], io.tgt_len[1], 2, 13, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
	NAMED(&fe, "EAT", 3, 135, 255, 0, 0, 0, 0, 0, 0);
	WANT(io.tgt[2], io.tgt_len[2], 3, 16, 255, 10, 0, 0, 0, 0, 0);
	/* AO_FILTER by name */
	NAMED(&fe, "AO_Table", 4, 136, 1, 0, 0, 0, 0, 0, 0, 0, 0);
	WANT(io.tgt[3], io.tgt_len[3], 4, 12, 1, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
	/* COMMAND by name: group 7 only */
	NAMED(&fe, "CMD", 5, 138, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0);
	WANT(io.tgt[4], io.tgt_len[4], 5, 1, 4, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0);
	NAMED(&fe, "NOTCMD", 6, 138, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0);
	assert_string_equal(io.said[1], "   <F-END> ERROR    Command Dictionary not found for Name=NOTCMD");
	/* TEST_PROBE by name: u32 data, 8-byte function */
	NAMED(&fe, "probe", 7, 139, 0x2A, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	WANT(io.tgt[5], io.tgt_len[5], 6, 9, 0x2A, 0, 0, 0, 0x0B, 0x0A, 0, 0, 0, 0, 0, 0);
	/* an object kind QSPY does not know: said, and sent anyway */
	NAMED(&fe, "AO_Table", 8, 137, 9, 0, 0, 0, 0, 0, 0, 0, 0);
	assert_string_equal(io.said[2], "   <F-END> ERROR    Incorrect Object Kind=9");
	assert_int_equal(io.ntgt, 7);
	/* unknown object and function; an event whose parameters leave no room for a name */
	NAMED(&fe, "nobody", 9, 136, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	NAMED(&fe, "nofun", 10, 139, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	PKT(&fe, 11, 135, 0, 0, 0, 0, 0, 200, 0);
	assert_string_equal(io.said[3], "   <F-END> ERROR    Object Dictionary not found for Name=nobody");
	assert_string_equal(io.said[4], "   <F-END> ERROR    Function Dictionary not found for Name=nofun");
	assert_string_equal(io.said[5], "   <F-END> ERROR    command 'SEND_EVENT' incorrect");
	assert_int_equal(io.ntgt, 7);
	sonde_decoder_qs.destroy(dec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_and_lines),
		cmocka_unit_test(test_own_commands),
		cmocka_unit_test(test_direct_to_target),
		cmocka_unit_test(test_target_records),
		cmocka_unit_test(test_named_records),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
