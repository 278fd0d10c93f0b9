/*
 * mp_parser.c -- the MiniProfiler response parser (mp_parser.h).
 *
 * The live bytes are buf[head..tail); base is the stream offset of
 * buf[head].  At buf[head] there is either garbage (skipped up to the next
 * possible header byte), a header to classify, or a packet that failed and
 * is being searched for the start of another packet (fail != F_NONE; the
 * search position survives between feeds, so nothing depends on chunking).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_parser.h"

/* What the bytes at a position are. */
enum hdr_kind {
	H_NEED,    /* cannot tell yet: more bytes needed */
	H_NOT,     /* not a packet header */
	H_PREFIX,  /* at the end of the input: the start of a header */
	H_BADTYPE, /* header bytes, then a type not in the table */
	H_BADLEN,  /* known type, impossible length */
	H_BADVER,  /* PROFILE_DATA of another version */
	H_OK       /* a plausible packet header */
};

struct hdr {
	enum hdr_kind kind;
	unsigned type;
	size_t len;              /* payload length */
	size_t want;             /* H_BADLEN: the type's length (minimum) */
	enum mp_len_check why;   /* H_BADLEN */
	unsigned version;        /* H_BADVER */
};

/* A packet at head that failed its checks. */
enum fail_kind {
	F_NONE,
	F_CRC,        /* complete, end marker right, CRC wrong */
	F_BROKEN,     /* complete, end marker wrong */
	F_INCOMPLETE  /* the input ended before its last byte */
};

struct mp_parser {
	struct mp_parser_cb cb;
	struct mp_wire_cfg cfg;
	uint8_t h0, h1;
	int final;               /* inside mp_parser_finish */
	uint8_t *buf;
	size_t head, tail;
	uint64_t base;
	uint64_t frame;          /* number of the next frame */
	uint64_t garb_off, garb_n, garb_frame; /* garbage not reported yet */
	enum fail_kind fail;
	struct hdr fail_hdr;
	size_t fail_len;         /* bytes of the failed packet searched */
	uint16_t crc_got, crc_want;
	uint8_t end_got;
	size_t scan;             /* next position of the search, from head */
	size_t iscan;            /* next position of the search inside the packet at head */
	size_t ifirst;           /* ... the first plausible header it met, 0 none */
	char msg[224];
};

static void report(struct mp_parser *p, enum sonde_diag_code code, uint64_t off, uint64_t frame,
		   uint64_t count)
{
	struct sonde_diag d = { code, off, frame, count, p->msg };

	if (p->cb.diag)
		p->cb.diag(p->cb.ctx, &d);
}

static void consume(struct mp_parser *p, size_t k)
{
	p->head += k;
	p->base += k;
	p->iscan = 1;
	p->ifirst = 0;
}

static void garbage(struct mp_parser *p, size_t k)
{
	if (!p->garb_n) {
		p->garb_off = p->base;
		p->garb_frame = p->frame;
	}
	p->garb_n += k;
	consume(p, k);
}

static void flush_garbage(struct mp_parser *p)
{
	if (!p->garb_n)
		return;
	snprintf(p->msg, sizeof(p->msg), "%" PRIu64 " byte%s skipped: not part of any packet", p->garb_n,
		 p->garb_n == 1 ? "" : "s");
	report(p, SONDE_D_GARBAGE, p->garb_off, p->garb_frame, p->garb_n);
	p->garb_n = 0;
}

static const char *type_name(unsigned type)
{
	const char *s = mp_rsp_name(type);

	return s ? s : "?";
}

/* What the n bytes at b (n >= 1) are.  Each check is made as soon as its
 * byte is there, so a false header in garbage is rejected early. */
static void classify(const struct mp_parser *p, const uint8_t *b, size_t n, struct hdr *h)
{
	enum hdr_kind short_of = p->final ? H_PREFIX : H_NEED;

	memset(h, 0, sizeof(*h));
	h->kind = H_NOT;
	if (b[0] != p->h0)
		return;
	if (n < 2 || b[1] != p->h1) {
		if (n < 2)
			h->kind = short_of;
		return;
	}
	if (n < 3) {
		h->kind = short_of;
		return;
	}
	h->type = b[2];
	if (!mp_rsp_name(h->type)) {
		h->kind = H_BADTYPE;
		return;
	}
	if (n < MP_RSP_HDR_LEN) {
		h->kind = short_of;
		return;
	}
	h->len = mp_le16(b + 3);
	h->why = mp_rsp_len_check(h->type, h->len, &h->want);
	/* A PROFILE_DATA of another version may have another record size:
	 * its version is told before its length is judged. */
	if (h->type == MP_RSP_PROFILE_DATA && h->why != MP_LEN_SHORT) {
		if (n < MP_RSP_HDR_LEN + 1) {
			h->kind = short_of;
			return;
		}
		h->version = b[MP_RSP_HDR_LEN];
		if (h->version != MP_PROFILE_VERSION) {
			h->kind = H_BADVER;
			return;
		}
	}
	h->kind = h->why == MP_LEN_OK ? H_OK : H_BADLEN;
}

/* A header that is not the start of a packet: report it and skip its two
 * bytes; what follows is judged afresh. */
static void reject_header(struct mp_parser *p, const struct hdr *h)
{
	enum sonde_diag_code code = SONDE_D_MALFORMED;

	flush_garbage(p);
	switch (h->kind) {
	case H_BADTYPE:
		code = SONDE_D_UNKNOWN_RECORD;
		snprintf(p->msg, sizeof(p->msg),
			 "unknown response type 0x%02x after a packet header: header skipped", h->type);
		break;
	case H_BADVER:
		code = SONDE_D_VERSION;
		snprintf(p->msg, sizeof(p->msg),
			 "PROFILE_DATA version %u is not supported (only version %d): header skipped",
			 h->version, MP_PROFILE_VERSION);
		break;
	default: /* H_BADLEN */
		if (h->why == MP_LEN_LAYOUT) {
			snprintf(p->msg, sizeof(p->msg),
				 "PROFILE_DATA packet with a %zu-byte payload (must be 3 + 14 per record): header skipped",
				 h->len);
		} else {
			code = h->why == MP_LEN_SHORT ? SONDE_D_TOO_SHORT : SONDE_D_TOO_LONG;
			snprintf(p->msg, sizeof(p->msg),
				 "%s packet with a %zu-byte payload (a %s payload has %s%zu bytes): header skipped",
				 type_name(h->type), h->len, type_name(h->type),
				 h->type == MP_RSP_PROFILE_DATA ? "at least " : "", h->want);
		}
		break;
	}
	report(p, code, p->base, p->frame++, 2);
	consume(p, 2);
}

/* The packet at head (header h) was cut short by another starting at head + at. */
static void cut_short(struct mp_parser *p, const struct hdr *h, size_t at)
{
	flush_garbage(p);
	snprintf(p->msg, sizeof(p->msg),
		 "%s packet cut short after %zu of %zu bytes: a new packet starts at offset %" PRIu64,
		 type_name(h->type), at, MP_RSP_OVERHEAD + h->len, p->base + at);
	report(p, SONDE_D_TRUNCATED, p->base, p->frame++, at);
	consume(p, at);
}

/* Is the whole good packet of n bytes at c (header h) there? */
static int good_packet(const struct mp_parser *p, const uint8_t *c, const struct hdr *h)
{
	size_t total = MP_RSP_OVERHEAD + h->len;

	return c[total - 1] == MP_RSP_END &&
	       mp_crc16(MP_CRC_INIT, c, MP_RSP_HDR_LEN + h->len) == mp_crc_get(&p->cfg, c + MP_RSP_HDR_LEN + h->len);
}

enum inside { IN_NONE, IN_WAIT, IN_CUT };

/* Does a whole good packet lie inside the packet announced at head, before
 * its announced end?  Then that packet was cut short, and waiting for its
 * missing bytes would hold back the packets after it (an answer the host
 * waits for, say) until more data comes.  Candidates are taken in the
 * order they start and each is waited for until it is complete, so the
 * answer does not depend on how the bytes were chunked.  *at: where the
 * cut packet ends -- at the first plausible header in it, which may be
 * another packet cut short before the good one. */
static enum inside inside(struct mp_parser *p, const struct hdr *h, size_t *at)
{
	const uint8_t *b = p->buf + p->head;
	size_t n = p->tail - p->head, total = MP_RSP_OVERHEAD + h->len;

	for (; p->iscan < total && p->iscan < n; p->iscan++) {
		const uint8_t *c = b + p->iscan;
		size_t cn = n - p->iscan, ct;
		struct hdr q;

		if (*c != p->h0)
			continue;
		classify(p, c, cn, &q);
		if (q.kind == H_NEED)
			return IN_WAIT;
		if (q.kind != H_OK)
			continue;
		if (!p->ifirst)
			p->ifirst = p->iscan;
		ct = MP_RSP_OVERHEAD + q.len;
		if (p->iscan + ct > total)
			continue; /* not inside */
		if (cn < ct) {
			if (!p->final)
				return IN_WAIT;
			continue;
		}
		if (good_packet(p, c, &q)) {
			*at = p->ifirst;
			return IN_CUT;
		}
	}
	return p->iscan < total && !p->final ? IN_WAIT : IN_NONE;
}

static void start_fail(struct mp_parser *p, enum fail_kind kind, const struct hdr *h, size_t len)
{
	flush_garbage(p);
	p->fail = kind;
	p->fail_hdr = *h;
	p->fail_len = len;
	p->scan = 1;
}

/* Search the failed packet at head for the start of another packet.
 * Returns 0 when more bytes are needed, 1 when the failure was reported and
 * the parser moved on. */
static int analyse(struct mp_parser *p)
{
	const uint8_t *b = p->buf + p->head;
	size_t n = p->tail - p->head;
	const struct hdr *fh = &p->fail_hdr;
	size_t total = MP_RSP_OVERHEAD + fh->len;

	for (; p->scan < p->fail_len; p->scan++) {
		const uint8_t *c = b + p->scan;
		size_t cn = n - p->scan;
		struct hdr h;

		if (*c != p->h0)
			continue;
		classify(p, c, cn, &h);
		if (h.kind == H_NEED)
			return 0;
		if (p->fail == F_CRC) {
			/* The packet is well delimited: only a whole good
			 * packet inside it proves it was cut short, rather
			 * than damaged with a header-like pattern inside. */
			size_t ct = MP_RSP_OVERHEAD + h.len;

			if (h.kind != H_OK)
				continue;
			if (cn < ct) {
				if (!p->final)
					return 0;
				continue;
			}
			if (!good_packet(p, c, &h))
				continue;
		} else if (h.kind != H_OK && h.kind != H_PREFIX) {
			continue;
		}
		p->fail = F_NONE;
		cut_short(p, fh, p->scan);
		return 1;
	}
	switch (p->fail) {
	case F_CRC:
		snprintf(p->msg, sizeof(p->msg),
			 "%s packet: CRC 0x%04x received, 0x%04x computed: packet discarded (%zu bytes)",
			 type_name(fh->type), p->crc_got, p->crc_want, total);
		report(p, SONDE_D_BAD_CHECKSUM, p->base, p->frame++, total);
		break;
	case F_BROKEN:
		snprintf(p->msg, sizeof(p->msg),
			 "%s packet: 0x%02x instead of the end marker 0x0a at offset %" PRIu64 ": packet discarded "
			 "(%zu bytes)", type_name(fh->type), p->end_got, p->base + total - 1, total);
		report(p, SONDE_D_MALFORMED, p->base, p->frame++, total);
		break;
	default: /* F_INCOMPLETE */
		snprintf(p->msg, sizeof(p->msg), "input ends inside a %s packet after %zu of %zu bytes",
			 type_name(fh->type), p->fail_len, total);
		report(p, SONDE_D_TRUNCATED, p->base, p->frame++, p->fail_len);
		break;
	}
	consume(p, p->fail_len);
	p->fail = F_NONE;
	return 1;
}

/* A complete packet at head whose header is plausible.  The end marker is
 * checked first: it costs nothing, and a packet without it is discarded
 * whatever its CRC, so garbage that looks like a long packet's header
 * rarely costs a CRC over its whole length. */
static void complete_packet(struct mp_parser *p, const struct hdr *h)
{
	const uint8_t *b = p->buf + p->head;
	size_t total = MP_RSP_OVERHEAD + h->len;
	uint8_t end = b[total - 1];

	if (end != MP_RSP_END) {
		p->end_got = end;
		start_fail(p, F_BROKEN, h, total);
		return;
	}
	p->crc_want = mp_crc16(MP_CRC_INIT, b, MP_RSP_HDR_LEN + h->len);
	p->crc_got = mp_crc_get(&p->cfg, b + MP_RSP_HDR_LEN + h->len);
	if (p->crc_got != p->crc_want) {
		start_fail(p, F_CRC, h, total);
		return;
	}
	flush_garbage(p);
	struct mp_packet pk = { h->type, b + MP_RSP_HDR_LEN, h->len, p->base, p->frame++ };
	if (p->cb.packet)
		p->cb.packet(p->cb.ctx, &pk);
	consume(p, total);
}

static void process(struct mp_parser *p)
{
	for (;;) {
		const uint8_t *b = p->buf + p->head;
		size_t n = p->tail - p->head;
		struct hdr h;

		if (p->fail) {
			if (!analyse(p))
				return;
			continue;
		}
		if (!n)
			return;
		if (b[0] != p->h0) {
			const uint8_t *q = memchr(b, p->h0, n);

			garbage(p, q ? (size_t)(q - b) : n);
			continue;
		}
		classify(p, b, n, &h);
		switch (h.kind) {
		case H_NEED:
			return;
		case H_NOT:
			garbage(p, 1);
			break;
		case H_PREFIX:
			flush_garbage(p);
			snprintf(p->msg, sizeof(p->msg), "input ends inside a packet header after %zu byte%s", n,
				 n == 1 ? "" : "s");
			report(p, SONDE_D_TRUNCATED, p->base, p->frame++, n);
			consume(p, n);
			break;
		case H_BADTYPE:
		case H_BADLEN:
		case H_BADVER:
			reject_header(p, &h);
			break;
		case H_OK: {
			size_t at = 0;

			switch (inside(p, &h, &at)) {
			case IN_WAIT:
				return;
			case IN_CUT:
				cut_short(p, &h, at);
				continue;
			case IN_NONE:
				break;
			}
			if (n < MP_RSP_OVERHEAD + h.len)
				start_fail(p, F_INCOMPLETE, &h, n); /* only when final */
			else
				complete_packet(p, &h);
			break;
		}
		}
	}
}

struct mp_parser *mp_parser_new(const struct mp_wire_cfg *cfg, const struct mp_parser_cb *cb)
{
	struct mp_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->buf = malloc(MP_PARSER_CAP);
	if (!p->buf) {
		free(p);
		return NULL;
	}
	if (cfg)
		p->cfg = *cfg;
	p->cb = *cb;
	mp_rsp_header(&p->cfg, &p->h0, &p->h1);
	p->iscan = 1;
	return p;
}

void mp_parser_feed(struct mp_parser *p, const uint8_t *buf, size_t n)
{
	while (n) {
		size_t k;

		if (p->tail == MP_PARSER_CAP) {
			memmove(p->buf, p->buf + p->head, p->tail - p->head);
			p->tail -= p->head;
			p->head = 0;
			if (p->tail == MP_PARSER_CAP) {
				/* Cannot happen: no decision needs more than the
				 * buffer.  Decide with what is there rather than
				 * hang. */
				p->final = 1;
				process(p);
				p->final = 0;
				continue;
			}
		}
		k = MP_PARSER_CAP - p->tail;
		if (k > n)
			k = n;
		memcpy(p->buf + p->tail, buf, k);
		p->tail += k;
		buf += k;
		n -= k;
		process(p);
		if (p->head == p->tail)
			p->head = p->tail = 0;
	}
}

void mp_parser_finish(struct mp_parser *p)
{
	p->final = 1;
	process(p);
	flush_garbage(p);
	p->final = 0;
	p->head = p->tail = 0;
	p->iscan = 1;
}

void mp_parser_free(struct mp_parser *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p);
}

uint64_t mp_parser_frames(const struct mp_parser *p)
{
	return p->frame;
}

int mp_parse_buffer(const struct mp_wire_cfg *cfg, const uint8_t *buf, size_t n,
		    const struct mp_parser_cb *cb)
{
	struct mp_parser *p = mp_parser_new(cfg, cb);

	if (!p)
		return -1;
	mp_parser_feed(p, buf, n);
	mp_parser_finish(p);
	mp_parser_free(p);
	return 0;
}
