/*
 * sonde_probe.c -- "is this a Sonde stream?" for --proto auto.
 *
 * Frames the first bytes and checks each good frame against the record
 * layouts of protocol §4 (known id, exact length, well-formed argument
 * lists and dictionary entries).  QS uses the same framing and checksum, so
 * a good checksum alone proves nothing; what separates the two is that QS
 * records have other ids and lengths.  Frames are judged in both protocol
 * versions (the timestamp field moved between them) and the better one
 * counts.  A TARGET_INFO of version 1 or 2 makes the decision all but
 * certain.
 */
#include <string.h>

#include "sonde_dec.h"
#include "sonde_proto.h"

struct probe_state {
	size_t seen;     /* frames, including bad ones */
	size_t judged;   /* frames that count (not a partial first one, not truncated) */
	size_t valid[SONDE_PROTO_VERSION + 1]; /* good frames of valid Sonde layout in each version */
	size_t in_order; /* good frames whose SEQ follows the previous good one */
	int info;        /* a TARGET_INFO of version 1 or 2 */
	int have_seq;
	uint8_t last_seq;
};

static int frame_valid(const uint8_t *b, size_t len, unsigned version, unsigned addr_size)
{
	uint8_t id = b[1];
	const uint8_t *p = b + 2;
	size_t dlen = len - 3, lo, hi;
	const struct srec_layout *l = srec_layout(id);
	struct sts fl;
	if (!l || srec_fields(version, l, p, dlen, &fl) != STS_OK ||
	    !srec_len_ok(version, id, fl.n, addr_size, &lo, &hi))
		return 0;
	const uint8_t *q = p + fl.off;
	size_t n = fl.n;
	if (id == SONDE_REC_DICT)
		return q[0] >= SONDE_DICT_OBJECT && q[0] <= SONDE_DICT_ENUM_GROUP && q[n - 1] == 0 &&
		       memchr(q + 5, 0, n - 5) == q + n - 1;
	if (id == SONDE_REC_LOG || id >= SONDE_REC_USER_FIRST) {
		struct sonde_arg args[SARGS_MAX];
		size_t first = id == SONDE_REC_LOG ? 3 : 0, bad;
		char why[64];
		sargs_decode(q + first, n - first, addr_size, args, SARGS_MAX, &bad, why, sizeof(why));
		return bad == SIZE_MAX;
	}
	return 1;
}

static void probe_frame(void *ctx, enum hdlc_status st, const uint8_t *b, size_t len, uint64_t offset, size_t raw)
{
	struct probe_state *ps = ctx;
	(void)offset;
	(void)raw;
	size_t idx = ps->seen++;
	if (st == HDLC_TRUNCATED || (st != HDLC_OK && idx == 0))
		return; /* cut by the probe window, or joined mid-way */
	ps->judged++;
	if (st != HDLC_OK)
		return;
	if (ps->have_seq && b[0] == (uint8_t)(ps->last_seq + 1))
		ps->in_order++;
	ps->have_seq = 1;
	ps->last_seq = b[0];
	if (b[1] == SONDE_REC_TARGET_INFO && len - 3 == 18 && (b[4] == 4 || b[4] == 8) &&
	    ((b[2] >= SONDE_PROTO_VERSION_2 && b[2] <= SONDE_PROTO_VERSION && b[7] == SONDE_INFO_TS_VARIABLE) ||
	     (b[2] == SONDE_PROTO_VERSION_1 && b[7] == SONDE_TS_BYTES_V1)))
		ps->info = 1;
	for (unsigned v = SONDE_PROTO_VERSION_1; v <= SONDE_PROTO_VERSION; v++)
		if (frame_valid(b, len, v, 4) || frame_valid(b, len, v, 8))
			ps->valid[v]++;
}

int sdec_probe(const uint8_t *buf, size_t n)
{
	uint8_t fbuf[SDEC_FRAME_MAX];
	struct probe_state ps;
	struct hdlc_framer fr;
	memset(&ps, 0, sizeof(ps));
	hdlc_init(&fr, fbuf, sizeof(fbuf), probe_frame, &ps);
	hdlc_feed(&fr, buf, n);
	hdlc_finish(&fr);
	size_t valid = 0;
	for (unsigned v = SONDE_PROTO_VERSION_1; v <= SONDE_PROTO_VERSION; v++)
		valid = ps.valid[v] > valid ? ps.valid[v] : valid;
	if (ps.judged == 0 || valid == 0)
		return 0;
	int score = (int)(90 * valid / ps.judged);
	if (valid > 1 && ps.in_order * 2 < valid - 1)
		score /= 2; /* sequence numbers all over the place */
	if (ps.judged < 3 && score > 25)
		score = 25; /* too little to go on */
	if (ps.info && valid * 10 >= ps.judged * 9)
		score = 100;
	return score;
}
