/*
 * stp_enc.h -- a MIPI STPv2 encoder for the tests: writes the packets the
 * decoder (host/src/proto/syst/stp_packet.c) reads, with its own opcode
 * table, so that the tests can make what the reference sample lacks (M8,
 * C8, DnM endings, FLAG_TS, other timestamp sizes, Gray timestamps,
 * USER, TIME, XSYNC and FREQ_40 packets, damaged streams).  Two nibbles per byte, the earlier in the low half.
 */
#ifndef SONDE_TEST_STP_ENC_H
#define SONDE_TEST_STP_ENC_H

#include <stddef.h>
#include <stdint.h>

struct stp_enc {
	uint8_t *buf;
	size_t cap;
	uint64_t nib;  /* nibbles written */
	int msn;       /* fields most significant nibble first */
};

void stp_enc_init(struct stp_enc *e, int msn);
void stp_enc_free(struct stp_enc *e);
/* Bytes written so far (a half byte at the end counts as one). */
size_t stp_enc_len(const struct stp_enc *e);

void stp_enc_nibble(struct stp_enc *e, unsigned x);
/* Opcode nibbles in stream order, e.g. "F6" for D32TS. */
void stp_enc_op(struct stp_enc *e, const char *op);
/* An n-nibble field in the encoder's nibble order. */
void stp_enc_field(struct stp_enc *e, uint64_t v, unsigned n);
/* A timestamp of n nibbles (0..12, 14 or 16): its size nibble, then it. */
void stp_enc_ts(struct stp_enc *e, unsigned n, uint64_t ts);

void stp_enc_async(struct stp_enc *e);
void stp_enc_version(struct stp_enc *e, unsigned v);
/* FREQ (bits 32) or FREQ_40 (bits 40). */
void stp_enc_freq(struct stp_enc *e, unsigned bits, uint64_t hz);
void stp_enc_master(struct stp_enc *e, unsigned bits, uint16_t m);
void stp_enc_channel(struct stp_enc *e, unsigned bits, uint16_t c);

/* Data packet variants. */
enum stp_enc_var { STP_ENC_PLAIN, STP_ENC_M, STP_ENC_TS, STP_ENC_MTS };
/* D4..D64 (bits 4..64); ts_nibs and ts for the TS variants. */
void stp_enc_data(struct stp_enc *e, unsigned bits, enum stp_enc_var var, uint64_t v, unsigned ts_nibs,
		  uint64_t ts);
void stp_enc_flag(struct stp_enc *e, int with_ts, unsigned ts_nibs, uint64_t ts);
/* Packets of no payload, with_ts: their TS form (a timestamp of ts_nibs
 * nibbles).  Sizes after Zephyr's mipi_stp_decoder table, the one public
 * decoder that gives them (docs/proto-syst.md). */
enum stp_enc_bare { STP_ENC_USER, STP_ENC_TIME, STP_ENC_XSYNC };
void stp_enc_bare(struct stp_enc *e, enum stp_enc_bare kind, int with_ts, unsigned ts_nibs, uint64_t ts);
/* A NULL nibble if needed to reach a byte boundary. */
void stp_enc_pad(struct stp_enc *e);

/* One SyS-T message of n bytes as STP packets:
 *   n is 4 or 8 and short: D32MTS / D64MTS;
 *   else a DnTS of start_bits (32 or 64) with the first bytes, body
 *   packets of at most body_bits each (largest first), then the end. */
enum stp_enc_end { STP_ENC_END_FLAG, STP_ENC_END_FLAG_TS, STP_ENC_END_MARKED };
struct stp_enc_msg {
	int is_short;
	int extras;    /* a long message: USER, XSYNC and TIME after its start */
	unsigned start_bits, body_bits;
	enum stp_enc_end end;
	unsigned ts_nibs;
	uint64_t ts;
};
void stp_enc_msg(struct stp_enc *e, const uint8_t *m, size_t n, const struct stp_enc_msg *how);

#endif /* SONDE_TEST_STP_ENC_H */
