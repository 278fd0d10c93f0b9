/*
 * mp_parser.h -- the MiniProfiler response parser: cuts a device's byte
 * stream into response packets, checks their CRC, and resynchronises after
 * anything else, reporting it with its byte offset and frame number:
 *
 *   garbage       bytes outside any packet (one report per run)
 *   unknown type  a header followed by a type code not in the table
 *   bad length    a known type with a payload length it cannot have
 *   version       PROFILE_DATA of a version other than 1
 *   bad CRC       a complete packet (end marker in place) with a wrong CRC
 *   cut short     a packet interrupted by the start of another one
 *   no end marker a packet without its end marker (and not cut short)
 *   truncated     the input ends inside a packet
 *
 * Every decision is taken on bytes already received and never on how they
 * were chunked, so feeding one byte at a time gives exactly the same packets
 * and reports as feeding everything at once.  Memory is one buffer of
 * MP_PARSER_CAP bytes whatever the input.  How the reports are told apart
 * (docs/proto-miniprof.md): a packet with a whole good packet inside its
 * announced length was cut short (known as soon as that packet is in, so
 * an answer behind a cut packet is not held back); a packet that fails its
 * end marker or CRC is searched for the start of another packet, and was
 * cut short if one starts there, else the failure is its own.
 */
#ifndef MP_PARSER_H
#define MP_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "mp_wire.h"
#include "pipeline.h"

/* The longest lookahead: a failed packet and a whole packet starting in it. */
#define MP_PARSER_CAP (2u * MP_RSP_MAX_LEN + 16u)

struct mp_packet {
	unsigned type;          /* MP_RSP_* */
	const uint8_t *payload; /* valid during the callback */
	size_t len;
	uint64_t offset;        /* of the header's first byte */
	uint64_t frame;         /* packet number, counting bad packets too */
};

struct mp_parser_cb {
	void (*packet)(void *ctx, const struct mp_packet *pk);
	void (*diag)(void *ctx, const struct sonde_diag *d); /* may be NULL */
	void *ctx;
};

struct mp_parser;

/* cfg NULL: the defaults.  Returns NULL when out of memory. */
struct mp_parser *mp_parser_new(const struct mp_wire_cfg *cfg, const struct mp_parser_cb *cb);
void mp_parser_feed(struct mp_parser *p, const uint8_t *buf, size_t n);
/* End of input: decide what was waiting for more bytes. */
void mp_parser_finish(struct mp_parser *p);
void mp_parser_free(struct mp_parser *p);
/* Frames (good and bad packets) seen so far. */
uint64_t mp_parser_frames(const struct mp_parser *p);

/* The whole of buf, then finish: parse a buffer in one call. */
int mp_parse_buffer(const struct mp_wire_cfg *cfg, const uint8_t *buf, size_t n,
		    const struct mp_parser_cb *cb);

#endif /* MP_PARSER_H */
