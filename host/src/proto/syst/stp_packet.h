/*
 * stp_packet.h -- a MIPI STPv2 packet decoder over the nibble stream, the
 * transport that SyS-T trace hardware, the MIPI reference library's STP
 * platform and ARM CoreSight STM emit.
 *
 * Two nibbles per byte, the earlier in the low half.  Packets are an opcode
 * of 1-4 nibbles (0..E, F1..FE, F00..F0E, F0F0..F0FF), a payload and, for the TS
 * variants, a timestamp (a size nibble, then that many nibbles).  ASYNC
 * (21 F nibbles and a 0) synchronises; after any error the decoder drops
 * nibbles until the next ASYNC and reports them.  Streaming: bytes come in
 * chunks of any size, the state is a few words (no buffer), and a packet
 * is reported the moment its last nibble arrives, so chunking cannot
 * change what is reported.  See docs/proto-syst.md.
 */
#ifndef STP_PACKET_H
#define STP_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"

enum stp_kind {
	STP_K_NULL,    /* NULL, NULL_TS */
	STP_K_ASYNC,
	STP_K_VERSION, /* value = version nibble */
	STP_K_FREQ,    /* FREQ, FREQ_TS, FREQ_40: value = timestamp frequency, Hz */
	STP_K_MASTER,  /* M8, M16: value = the new master */
	STP_K_CHANNEL, /* C8, C16: value = the new channel */
	STP_K_DATA,    /* D4..D64 with the M / TS / MTS variants */
	STP_K_FLAG,    /* FLAG, FLAG_TS */
	STP_K_TRIG,    /* TRIG, TRIG_TS: value = the trigger byte */
	STP_K_MERR,    /* master error: value = error byte */
	STP_K_GERR,    /* global error: value = error byte */
	/* The public decoders (Zephyr's mipi_stp_decoder) give these no
	 * payload: they carry at most a timestamp (docs/proto-syst.md). */
	STP_K_USER,    /* USER, USER_TS: on the current master and channel */
	STP_K_TIME,    /* TIME, TIME_TS: TIME_TS's timestamp is the stream's time */
	STP_K_XSYNC    /* XSYNC, XSYNC_TS: a synchronisation marker */
};

struct stp_packet {
	enum stp_kind kind;
	const char *name;  /* "D32TS", "FLAG", ... */
	uint8_t bits;      /* payload width: DATA 4, 8, 16, 32 or 64; FREQ_40 40 */
	uint8_t marked;    /* DATA: M or MTS */
	uint8_t has_ts;    /* the packet carried a timestamp */
	uint16_t master;   /* current master and channel (after M/C packets: the new ones) */
	uint16_t channel;
	uint64_t value;
	uint64_t ts;       /* the stream's time after this packet (its own if has_ts) */
	uint64_t nib;      /* nibble offset of the opcode's first nibble */
	uint32_t nibs;     /* length in nibbles */
};

enum stp_err {
	STP_E_GARBAGE,   /* nibbles dropped while looking for ASYNC */
	STP_E_RESERVED,  /* reserved or unsupported opcode: sync lost */
	STP_E_BAD,       /* bad ASYNC, timestamp size F: sync lost */
	STP_E_CUT,       /* a packet cut by an ASYNC */
	STP_E_TRUNCATED, /* input ends inside a packet */
	STP_E_VERSION    /* VERSION with a number the decoder does not know */
};

/* The diagnostic code a decoder reports an error under. */
enum sonde_diag_code stp_err_code(enum stp_err e);

/* nib, nibs: where the problem starts and how many nibbles it concerns. */
typedef void (*stp_packet_fn)(void *ctx, const struct stp_packet *p);
typedef void (*stp_error_fn)(void *ctx, enum stp_err code, uint64_t nib, uint64_t nibs, const char *msg);

struct stp_dec {
	stp_packet_fn on_packet;
	stp_error_fn on_error;
	void *ctx;
	int msn;            /* fields most significant nibble first (STP spec,
			     * CoreSight STM); 0: least first (MIPI library's
			     * STP simulation platform) */
	uint64_t nib;       /* nibbles consumed */
	int synced;
	uint64_t skip_nib;  /* unsynced: first nibble dropped */
	int skip_data;      /*   a dropped nibble was neither NULL nor F */
	uint64_t skip_f;    /*   F nibbles dropped (an ASYNC's among them) */
	uint32_t frun;      /* consecutive F nibbles up to here */
	/* the packet being read */
	int st;
	uint16_t op;        /* opcode nibbles so far, first in the low bits */
	uint32_t need, got; /* nibbles of the current field */
	uint64_t acc;
	int gray;           /* timestamps in Gray code (VERSION 4) */
	struct stp_packet pk;
	/* a packet that ended in F nibbles, held until it is sure they were
	 * not the start of an ASYNC */
	int have_pend;
	struct stp_packet pend;
	uint64_t pend_ts;
	uint64_t ts;        /* the stream's time */
	uint16_t master, channel;
};

/* Start a decoder (unsynchronised: it waits for ASYNC). */
void stp_init(struct stp_dec *d, int msn, stp_packet_fn on_packet, stp_error_fn on_error, void *ctx);

/* Decode n bytes; callbacks run from here. */
void stp_feed(struct stp_dec *d, const uint8_t *p, size_t n);

/* Bytes were missed before the next ones (a live link reconnected): the
 * packet in flight is reported cut, and decoding waits for an ASYNC. */
void stp_rejoin(struct stp_dec *d);

/* End of input: report a packet cut short or nibbles dropped. */
void stp_finish(struct stp_dec *d);

/* Nibble offset -> byte offset, and the text "byte B nibble N" used in
 * every report (buf of STP_WHERE_CAP). */
#define STP_WHERE_CAP 64
const char *stp_where(uint64_t nib, char *buf);

/* How the n bytes at p decode as STPv2: the packets seen, the errors after
 * the first ASYNC (what precedes it is no error: a capture may start
 * anywhere), and how many timestamped 32- or 64-bit data packets (where a
 * SyS-T message starts) carry a low word that plausible() accepts. */
struct stp_scan {
	uint32_t asyncs, packets, data, errors;
	uint32_t starts, plausible_starts;
	uint64_t first_async; /* nibble of the first ASYNC */
	int (*plausible)(uint32_t word);
};
void stp_scan(const uint8_t *p, size_t n, int msn, int (*plausible)(uint32_t), struct stp_scan *out);

/* The name of a source, core = master << 16 | channel, for people
 * ("STP master 128, channel 1"): struct sonde_session's core_name of the
 * decoders that read STP. */
void stp_core_name(uint32_t core, char *buf, size_t n);

#endif /* STP_PACKET_H */
