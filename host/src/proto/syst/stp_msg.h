/*
 * stp_msg.h -- SyS-T messages reassembled from STPv2 packets, per master
 * and channel (packets of several sources interleave).  The sequences
 * (shared/seeds/mipi-syst-protocol.txt, "MIPI STPv2 Protocol Encoding"):
 *   DnMTS            a short message in one packet;
 *   DnTS Dn* DnM     a long message ended by a marked packet;
 *   DnTS Dn* FLAG    a long message ended by a FLAG (FLAG_TS).
 * Data packets are copied little-endian (a Dn value is n/8 bytes in
 * memory order).  Memory is bounded: at most STP_MSG_SLOTS sources with a
 * message open, each at most SYST_MSG_MAX bytes.
 */
#ifndef STP_MSG_H
#define STP_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"
#include "stp_packet.h"

#define STP_MSG_SLOTS 64u

/* Where a message came from: its first packet. */
struct stp_msg_src {
	uint16_t master, channel;
	uint64_t ts;   /* STP time of the first packet */
	uint64_t nib;  /* nibble offset of the first packet */
};

typedef void (*stp_msg_fn)(void *ctx, const uint8_t *p, size_t n, const struct stp_msg_src *src);
/* A problem: nib where it starts, count of bytes (see the code). */
typedef void (*stp_msg_diag_fn)(void *ctx, enum sonde_diag_code code, uint64_t nib, uint64_t count,
				const char *msg);

struct stp_slot {
	uint16_t master, channel;
	int open;             /* a message is being collected */
	int over;             /* it grew past SYST_MSG_MAX: the rest is counted */
	uint8_t *buf;
	size_t len, cap;
	uint64_t over_bytes;
	struct stp_msg_src src;
	uint64_t stray, stray_nib; /* data bytes outside any message, since stray_nib */
	uint64_t used;        /* last packet, for eviction */
};

struct stp_msg {
	struct stp_slot slot[STP_MSG_SLOTS];
	unsigned nslots, last;
	uint64_t clock;       /* packets seen */
	stp_msg_fn on_msg;
	stp_msg_diag_fn on_diag;
	void *ctx;
};

void stp_msg_init(struct stp_msg *a, stp_msg_fn on_msg, stp_msg_diag_fn on_diag, void *ctx);
/* Take one packet (every kind may be given; only data and FLAG count). */
void stp_msg_packet(struct stp_msg *a, const struct stp_packet *p);
/* The packet stream lost sync (packets are missing): messages open now
 * are decoded as far as they go and reported. */
void stp_msg_cut_all(struct stp_msg *a, const char *why);
/* End of input: as stp_msg_cut_all, and strays reported. */
void stp_msg_finish(struct stp_msg *a);
void stp_msg_free(struct stp_msg *a);

#endif /* STP_MSG_H */
