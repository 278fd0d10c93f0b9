/*
 * syst_dec.h -- the SyS-T decoder's state, shared by its files:
 *   syst_decoder.c  the sonde_decoder_ops, options, probe
 *   syst_stream.c   framing: length-prefixed container, raw stream, hex lines,
 *                   STPv2 (stp_packet.c packets, stp_msg.c messages)
 *   syst_render.c   one message -> a sonde_event and the printer's CSV row
 */
#ifndef SYST_DEC_H
#define SYST_DEC_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"
#include "stp_msg.h"
#include "stp_packet.h"
#include "syst_coll.h"
#include "syst_msg.h"
#include "syst_sb.h"

enum syst_container {
	SYST_C_AUTO,
	SYST_C_LEN, /* { u32 LE N ; N bytes = one message } */
	SYST_C_RAW, /* self-delimiting concatenation (LEN bit on every message) */
	SYST_C_HEX, /* "SYS-T RAW DATA: <hex>" lines */
	SYST_C_STP  /* MIPI STPv2 nibble stream */
};

/* Nibble order of STP fields (-o stp.order=). */
enum syst_stp_order {
	SYST_STP_AUTO, /* decided from the first SYST_DETECT_BYTES bytes */
	SYST_STP_LSN,  /* least significant first: the MIPI library's STP platform */
	SYST_STP_MSN   /* most significant first: the STP spec, CoreSight STM */
};

#define SYST_MAX_ARGS 64
#define SYST_TEXT_CAP (128u * 1024u)                /* formatted payload */
#define SYST_ROW_CAP (2u * SYST_TEXT_CAP + 4096u)   /* one CSV row */
/* "SYS-T RAW DATA: " + two digits per byte of the largest message + CR LF */
#define SYST_HEX_PREFIX "SYS-T RAW DATA: "
#define SYST_HEX_LINE_MAX (16u + 2u * SYST_MSG_MAX + 2u)
/* Container autodetection looks at exactly this many first bytes (fewer
 * only if the input is shorter), so chunking cannot change its answer. */
#define SYST_DETECT_BYTES 4096u

/* A string and its length. */
struct syst_name {
	const char *s;
	size_t n;
};

struct syst_dec {
	struct sonde_out out;
	struct syst_coll *coll;
	char *coll_path;                  /* as given: the Collateral column */
	int have_short_guid;              /* syst.guid given (the printer's -g) */
	uint8_t short_guid[16];
	const struct syst_client *short_client;

	/* framing */
	enum syst_container mode;
	uint8_t *buf;                     /* bytes of an unfinished unit */
	size_t blen, bcap;
	uint64_t off;                     /* stream offset of the next unconsumed byte */
	uint64_t msgno;                   /* messages so far, good and bad */
	uint64_t ctx_count;               /* messages of 4 bytes or more: the printer's
					   * context counter (it counts no shorter one) */
	char ctx_text[2 + 16];            /* its Context TimeStamp column, 0x%016X
					   * (0 without syst.guid), counted up as text */
	uint64_t skip_start, skip_count;  /* resynchronising: bytes being dropped */
	int hex_skipping;                 /* dropping an overlong line */
	size_t hex_scanned;               /* bytes of buf known to hold no newline */
	uint8_t *msg;                     /* a message decoded from a hex line */

	/* STPv2 (allocated when the container is STP) */
	enum syst_stp_order stp_order;
	struct stp_dec *stp;
	struct stp_msg *stpm;
	uint64_t stp_freq;                /* FREQ packet, Hz; 0 before one */
	const struct stp_msg_src *src;    /* the transport of the message being
					   * emitted, NULL outside STP */

	/* rendering */
	char *text, *row;
	struct syst_sb tsb, rsb;
	struct sonde_arg args[SYST_MAX_ARGS];
	struct syst_name type;            /* the Type column (rec_name) */
	char raw_type[96];                /* a RAW message's type: "RAW:" and the protocol */
	size_t coll_path_len;
	struct syst_name sev_names[8], status_names[SYST_MISSING_COLLATERAL + 1];
	/* the sender of the last message with an origin (messages come in
	 * runs from one client): its GUID, collateral client and name */
	int have_sender;
	uint8_t sender_guid[16];
	const struct syst_client *sender;
	struct syst_name sender_name;     /* the client's name, else origin */
	char origin[40];                  /* the GUID as text when no client matches */
};

/* Names of the CSV columns with their lengths, looked up once
 * (syst_render_init). */
void syst_render_init(struct syst_dec *d);

/* "syst", the session's protocol name as the decoder sets it: the
 * syst-csv sink knows it by its address before comparing text. */
extern const char syst_proto_name[];

/* Decode and deliver one complete message p[0..n) that starts at stream
 * offset off (framing decided its extent). */
void syst_emit(struct syst_dec *d, const uint8_t *p, size_t n, uint64_t off);

/* Report a problem through the diag callback. */
void syst_diag(struct syst_dec *d, enum sonde_diag_code code, uint64_t off, uint64_t count,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Framing. */
void syst_stream_feed(struct syst_dec *d, const uint8_t *p, size_t n);
void syst_stream_finish(struct syst_dec *d);

/* Which container the first n bytes of a stream look like, and how sure
 * (0..100) that it is SyS-T at all. */
enum syst_container syst_detect(const uint8_t *p, size_t n, int *confidence);

/* For an STPv2 stream: the nibble order under which more messages start
 * with a plausible SyS-T header (LSN on a tie), and how sure (0..100) that
 * the stream is SyS-T over STP. */
enum syst_stp_order syst_detect_stp(const uint8_t *p, size_t n, int *confidence);

#endif /* SYST_DEC_H */
