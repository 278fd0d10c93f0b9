/*
 * qs_fe.h -- QSPY's front-end ("back-end" in QSPY's sources) interface:
 * the packets QUTest and QView exchange with QSPY over UDP, without the
 * socket (cli/qspy_*.c owns that).  docs/proto-qs.md, "Front-ends".
 *
 * Every packet starts with a sequence byte and a packet id:
 *   id < 128   a QS-RX record for the target (rec = id): forwarded with the
 *              host's QS-RX sequence number, escaped and checksummed
 *   128..141   QSPY's own: ATTACH (payload: channels), DETACH (payload:
 *              exit), SAVE_DICT, TEXT_OUT/BIN_OUT/MATLAB_OUT/SEQUENCE_OUT
 *              (payload: off 0, on 1, toggle 2), SEND_EVENT/AO_FILTER/
 *              CURR_OBJ/COMMAND/TEST_PROBE (a QS-RX record whose signal,
 *              object, command or function is a name QSPY looks up in its
 *              dictionaries), CLEAR_SCREEN, SHOW_NOTE
 * To the front-end go: ATTACH (the confirmation) and DETACH (QSPY exits),
 * the target's records (binary channel: seq, id, payload; without it
 * TARGET_INFO only), and the text lines QSPY prints for them (text
 * channel: seq, 0, the record id, the line without its newline).
 */
#ifndef SONDE_QS_FE_H
#define SONDE_QS_FE_H

#include <stddef.h>
#include <stdint.h>

enum qs_fe_pkt {
	QS_FE_ATTACH = 128, QS_FE_DETACH, QS_FE_SAVE_DICT, QS_FE_TEXT_OUT, QS_FE_BIN_OUT,
	QS_FE_MATLAB_OUT, QS_FE_SEQUENCE_OUT, QS_FE_SEND_EVENT, QS_FE_SEND_AO_FILTER,
	QS_FE_SEND_CURR_OBJ, QS_FE_SEND_COMMAND, QS_FE_SEND_TEST_PROBE, QS_FE_CLEAR_SCREEN,
	QS_FE_SHOW_NOTE
};

enum qs_fe_chan { QS_FE_BINARY = 1, QS_FE_TEXT = 2 };

/* Actions of the *_OUT packets (QSPY's CMD_OPT_*). */
enum qs_fe_action { QS_FE_OFF, QS_FE_ON, QS_FE_TOGGLE };

/* The kinds of lines QSPY prints: regular record lines and errors go to
 * an attached front-end's text channel, the others only to the screen
 * and the -o file. */
enum qs_fe_line_kind { QS_FE_LINE_REG, QS_FE_LINE_ERR, QS_FE_LINE_INFO, QS_FE_LINE_NOTE };

struct qs_fe_io {
	void *ctx;
	/* send a packet to the attached front-end */
	void (*to_fe)(void *ctx, const uint8_t *pkt, size_t n);
	/* send an encoded QS-RX frame to the target: 0, or -1 if it could not */
	int (*to_target)(void *ctx, const uint8_t *frame, size_t n);
	/* print a line of QSPY's own (INFO, NOTE: not for the front-end; ERR:
	 * the caller also passes it to qs_fe_line) */
	void (*say)(void *ctx, enum qs_fe_line_kind kind, const char *line);
	/* QSPY's own command from a packet: 'd' save dictionaries, 'o' text
	 * file, 's' binary file, 'm' Matlab, 'g' sequence diagram, 'c' clear */
	void (*command)(void *ctx, char cmd, enum qs_fe_action act);
	/* the front-end detached (forget its address); exit: it asked QSPY to end */
	void (*detached)(void *ctx, int exit);
};

struct qs_fe {
	struct qs_fe_io io;
	void *dec;          /* the QS decoder (its dictionaries and sizes), may be NULL */
	uint8_t channels;   /* 0: no front-end attached */
	uint8_t rx_seq;     /* last packet's sequence number from the front-end */
	uint8_t tx_seq;     /* last packet's sequence number to the front-end */
	uint8_t target_seq; /* QS-RX sequence number of the last frame to the target */
	uint8_t cur_rec;    /* record id of QSPY's current output line */
	int have_sm;        /* sm: the state machine of the last CURR_OBJ (signals of events) */
	uint64_t sm;
	uint64_t pkts_in, pkts_out, frames_to_target;
};

void qs_fe_init(struct qs_fe *fe, const struct qs_fe_io *io);
/* The decoder whose dictionaries the name lookups use (the state a
 * sonde_decoder_qs creates), and whose sizes the packets are laid out in. */
void qs_fe_set_decoder(struct qs_fe *fe, void *qs_decoder_state);
/* A packet from the front-end (one UDP datagram).  pkt may be changed. */
void qs_fe_packet(struct qs_fe *fe, uint8_t *pkt, size_t n);
/* A good frame from the target, un-escaped, before it is decoded: seq,
 * record id, payload (len bytes, no checksum). */
void qs_fe_target_frame(struct qs_fe *fe, const uint8_t *frame, size_t len);
/* A line QSPY prints for the current record (kind REG or ERR): to the
 * text channel, unless it is one of the records QSPY never forwards
 * (QS_EMPTY, dictionaries, TARGET_INFO).  rec < 0: the current record. */
void qs_fe_line(struct qs_fe *fe, int rec, enum qs_fe_line_kind kind, const char *line, size_t n);
/* The target link was (re)connected: the QS-RX sequence restarts. */
void qs_fe_target_reset(struct qs_fe *fe);
/* QSPY is ending: tell an attached front-end (DETACH). */
void qs_fe_close(struct qs_fe *fe);

#endif /* SONDE_QS_FE_H */
