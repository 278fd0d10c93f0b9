/*
 * stp_packet.c -- the MIPI STPv2 packet decoder (stp_packet.h): a state
 * machine fed one nibble at a time.  Opcodes are looked up in one table;
 * the payload and the timestamp are read into an accumulator, so a packet
 * split across chunks needs no buffer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stp_packet.h"
#include "util/bytes.h"

/* ASYNC: at least this many F nibbles, then a 0. */
#define STP_ASYNC_F 21u

enum {
	ST_SYNC,  /* dropping nibbles until ASYNC */
	ST_OP,    /* the first opcode nibble */
	ST_OP2,   /* after F */
	ST_OP3,   /* after F0 */
	ST_OP4,   /* after F0F */
	ST_ASYNC, /* after FF: the rest of an ASYNC */
	ST_FIELD, /* payload nibbles */
	ST_TSLEN, /* the timestamp's size nibble */
	ST_TS     /* timestamp nibbles */
};

struct op_info {
	const char *name;   /* NULL: reserved or not supported (note says why) */
	enum stp_kind kind;
	uint8_t field;      /* payload nibbles */
	uint8_t marked, ts;
	const char *note;
};

/* Index: one-nibble opcodes 0..E at 0..14, F1..FE at 16 + n, F00..F0E at
 * 32 + n, F0F0..F0FF at 48 + n.  Payload sizes after the MIPI STPv2
 * opcode table as the public decoders read it: OpenCSD, Zephyr's
 * mipi_stp_decoder and the stm-rs crate.  USER, TIME and XSYNC (and their
 * TS forms) have sizes in Zephyr's table only, none of payload; OpenCSD
 * and stm-rs reject them as reserved.  TRIG has a byte of payload in
 * OpenCSD and none in Zephyr's table (which does not decode it): the byte
 * is taken, as OpenCSD does (docs/proto-syst.md, "Limits"). */
static const struct op_info ops[64] = {
	[0x0] = { "NULL", STP_K_NULL, 0, 0, 0, NULL },
	[0x1] = { "M8", STP_K_MASTER, 2, 0, 0, NULL },
	[0x2] = { "MERR", STP_K_MERR, 2, 0, 0, NULL },
	[0x3] = { "C8", STP_K_CHANNEL, 2, 0, 0, NULL },
	[0x4] = { "D8", STP_K_DATA, 2, 0, 0, NULL },
	[0x5] = { "D16", STP_K_DATA, 4, 0, 0, NULL },
	[0x6] = { "D32", STP_K_DATA, 8, 0, 0, NULL },
	[0x7] = { "D64", STP_K_DATA, 16, 0, 0, NULL },
	[0x8] = { "D8MTS", STP_K_DATA, 2, 1, 1, NULL },
	[0x9] = { "D16MTS", STP_K_DATA, 4, 1, 1, NULL },
	[0xA] = { "D32MTS", STP_K_DATA, 8, 1, 1, NULL },
	[0xB] = { "D64MTS", STP_K_DATA, 16, 1, 1, NULL },
	[0xC] = { "D4", STP_K_DATA, 1, 0, 0, NULL },
	[0xD] = { "D4MTS", STP_K_DATA, 1, 1, 1, NULL },
	[0xE] = { "FLAG_TS", STP_K_FLAG, 0, 0, 1, NULL },
	[16 + 0x1] = { "M16", STP_K_MASTER, 4, 0, 0, NULL },
	[16 + 0x2] = { "GERR", STP_K_GERR, 2, 0, 0, NULL },
	[16 + 0x3] = { "C16", STP_K_CHANNEL, 4, 0, 0, NULL },
	[16 + 0x4] = { "D8TS", STP_K_DATA, 2, 0, 1, NULL },
	[16 + 0x5] = { "D16TS", STP_K_DATA, 4, 0, 1, NULL },
	[16 + 0x6] = { "D32TS", STP_K_DATA, 8, 0, 1, NULL },
	[16 + 0x7] = { "D64TS", STP_K_DATA, 16, 0, 1, NULL },
	[16 + 0x8] = { "D8M", STP_K_DATA, 2, 1, 0, NULL },
	[16 + 0x9] = { "D16M", STP_K_DATA, 4, 1, 0, NULL },
	[16 + 0xA] = { "D32M", STP_K_DATA, 8, 1, 0, NULL },
	[16 + 0xB] = { "D64M", STP_K_DATA, 16, 1, 0, NULL },
	[16 + 0xC] = { "D4TS", STP_K_DATA, 1, 0, 1, NULL },
	[16 + 0xD] = { "D4M", STP_K_DATA, 1, 1, 0, NULL },
	[16 + 0xE] = { "FLAG", STP_K_FLAG, 0, 0, 0, NULL },
	[32 + 0x0] = { "VERSION", STP_K_VERSION, 1, 0, 0, NULL },
	[32 + 0x1] = { "NULL_TS", STP_K_NULL, 0, 0, 1, NULL },
	[32 + 0x2] = { "USER", STP_K_USER, 0, 0, 0, NULL },
	[32 + 0x3] = { "USER_TS", STP_K_USER, 0, 0, 1, NULL },
	[32 + 0x4] = { "TIME", STP_K_TIME, 0, 0, 0, NULL },
	[32 + 0x5] = { "TIME_TS", STP_K_TIME, 0, 0, 1, NULL },
	[32 + 0x6] = { "TRIG", STP_K_TRIG, 2, 0, 0, NULL },
	[32 + 0x7] = { "TRIG_TS", STP_K_TRIG, 2, 0, 1, NULL },
	[32 + 0x8] = { "FREQ", STP_K_FREQ, 8, 0, 0, NULL },
	[32 + 0x9] = { "FREQ_TS", STP_K_FREQ, 8, 0, 1, NULL },
	[32 + 0xA] = { "XSYNC", STP_K_XSYNC, 0, 0, 0, NULL },
	[32 + 0xB] = { "XSYNC_TS", STP_K_XSYNC, 0, 0, 1, NULL },
	[48 + 0x0] = { "FREQ_40", STP_K_FREQ, 10, 0, 0, NULL },
	[48 + 0x1] = { NULL, STP_K_NULL, 0, 0, 0,
		       "FREQ_40_TS (its payload: 10 nibbles in stm-rs, none in Zephyr's decoder)" },
	[48 + 0x2] = { NULL, STP_K_NULL, 0, 0, 0, "DIP (no public decoder reads it)" },
};

enum sonde_diag_code stp_err_code(enum stp_err e)
{
	static const enum sonde_diag_code map[] = {
		[STP_E_GARBAGE] = SONDE_D_GARBAGE,     [STP_E_RESERVED] = SONDE_D_UNKNOWN_RECORD,
		[STP_E_BAD] = SONDE_D_MALFORMED,       [STP_E_CUT] = SONDE_D_TRUNCATED,
		[STP_E_TRUNCATED] = SONDE_D_TRUNCATED, [STP_E_VERSION] = SONDE_D_VERSION,
	};
	return map[e];
}

const char *stp_where(uint64_t nib, char *buf)
{
	snprintf(buf, STP_WHERE_CAP, "nibble %" PRIu64 " (byte %" PRIu64 ", %s half)", nib, nib / 2,
		 (nib & 1) ? "high" : "low");
	return buf;
}

/* "STP: <what> <prep> nibble N (byte B, ... half)<tail>" */
static void report(struct stp_dec *d, enum stp_err code, uint64_t nib, uint64_t nibs, const char *what,
		   const char *prep, const char *tail)
{
	char where[STP_WHERE_CAP], msg[400];
	if (!d->on_error)
		return;
	snprintf(msg, sizeof(msg), "STP: %s %s %s%s", what, prep, stp_where(nib, where), tail);
	d->on_error(d->ctx, code, nib, nibs, msg);
}

static void deliver(struct stp_dec *d, struct stp_packet *pk, uint64_t ts);

/* An error in a synchronised stream: what follows cannot be delimited
 * until the next ASYNC. */
static void lose_sync(struct stp_dec *d, enum stp_err code, const char *what)
{
	if (d->have_pend) {
		d->have_pend = 0;
		deliver(d, &d->pend, d->pend_ts);
	}
	report(d, code, d->pk.nib, d->nib - d->pk.nib, what, "at", "; decoding resumes at the next ASYNC");
	d->synced = 0;
	d->st = ST_SYNC;
	d->skip_nib = d->nib;
	d->skip_data = 0;
	d->skip_f = 0;
}

void stp_init(struct stp_dec *d, int msn, stp_packet_fn on_packet, stp_error_fn on_error, void *ctx)
{
	memset(d, 0, sizeof(*d));
	d->msn = msn;
	d->on_packet = on_packet;
	d->on_error = on_error;
	d->ctx = ctx;
	d->st = ST_SYNC;
}

static uint64_t gray_to_bin(uint64_t g)
{
	for (unsigned s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

/* A packet takes effect (master, channel, time) and is reported. */
static void deliver(struct stp_dec *d, struct stp_packet *pk, uint64_t ts)
{
	d->ts = ts;
	switch (pk->kind) {
	case STP_K_MASTER:
		/* M8 replaces the low byte; either opens channel 0 */
		d->master = pk->bits == 8 ? (uint16_t)((d->master & 0xFF00u) | pk->value) : (uint16_t)pk->value;
		d->channel = 0;
		break;
	case STP_K_CHANNEL:
		d->channel = pk->bits == 8 ? (uint16_t)((d->channel & 0xFF00u) | pk->value) : (uint16_t)pk->value;
		break;
	case STP_K_VERSION:
		d->master = d->channel = 0;
		d->gray = pk->value == 4;
		if (pk->value != 3 && pk->value != 4) {
			char what[96];
			snprintf(what, sizeof(what),
				 "VERSION %u not known (3: binary timestamps, 4: Gray code): timestamps read as binary;",
				 (unsigned)pk->value);
			report(d, STP_E_VERSION, pk->nib, pk->nibs, what, "at", "");
		}
		break;
	case STP_K_MERR:
		d->channel = 0;
		break;
	case STP_K_GERR:
		d->master = d->channel = 0;
		break;
	default:
		break;
	}
	pk->master = d->master;
	pk->channel = d->channel;
	pk->ts = d->ts;
	if (d->on_packet)
		d->on_packet(d->ctx, pk);
}

/* The packet's last nibble was at 'last'; ts is the stream's time after
 * it.  A packet that ends in F nibbles may be the start of an ASYNC read
 * as payload (a packet cut short, then ASYNC): it is held until a nibble
 * other than F shows it is not (async_found decides otherwise). */
static void complete(struct stp_dec *d, uint64_t last, uint64_t ts)
{
	d->pk.nibs = (uint32_t)(last - d->pk.nib + 1);
	d->st = ST_OP;
	if (d->frun) {
		d->pend = d->pk;
		d->pend_ts = ts;
		d->have_pend = 1;
	} else {
		deliver(d, &d->pk, ts);
	}
}

/* The opcode is complete: read its payload and timestamp next. */
static void start(struct stp_dec *d, unsigned idx, uint64_t at)
{
	const struct op_info *o = &ops[idx];
	struct stp_packet *pk = &d->pk;
	if (!o->name) {
		char what[160];
		/* the opcode's nibbles in stream order */
		static const char *const prefix[] = { "", "F", "F0", "F0F" };
		snprintf(what, sizeof(what), "opcode %s%X %s not supported", prefix[idx / 16], idx % 16,
			 o->note ? o->note : "(reserved)");
		lose_sync(d, STP_E_RESERVED, what);
		return;
	}
	pk->kind = o->kind;
	pk->name = o->name;
	pk->bits = (uint8_t)(4 * o->field);
	pk->marked = o->marked;
	pk->has_ts = o->ts;
	pk->value = 0;
	d->acc = 0;
	d->got = 0;
	if (o->field) {
		d->need = o->field;
		d->st = ST_FIELD;
	} else if (o->ts) {
		d->st = ST_TSLEN;
	} else {
		complete(d, at, d->ts);
	}
}

static void async_found(struct stp_dec *d, uint64_t at)
{
	uint64_t start_nib = at - STP_ASYNC_F;
	char what[96];
	int reported = 0;
	if (d->have_pend) {
		/* it ended in F nibbles: were they the ASYNC's? */
		d->have_pend = 0;
		if (d->pend.nib + d->pend.nibs <= start_nib) {
			deliver(d, &d->pend, d->pend_ts);
		} else {
			snprintf(what, sizeof(what), "%s packet cut short by an ASYNC (which it took for payload),",
				 d->pend.name);
			report(d, STP_E_CUT, d->pend.nib, start_nib - d->pend.nib, what, "from", "");
			reported = 1;
		}
	}
	if (!d->synced) {
		/* NULL nibbles (idle) are no loss; anything else is */
		if (start_nib > d->skip_nib && (d->skip_data || d->skip_f > STP_ASYNC_F)) {
			snprintf(what, sizeof(what), "%" PRIu64 " nibbles dropped while looking for an ASYNC,",
				 start_nib - d->skip_nib);
			report(d, STP_E_GARBAGE, d->skip_nib, start_nib - d->skip_nib, what, "from", "");
		}
	} else if (d->st != ST_OP && d->pk.nib < start_nib && !reported) {
		if (d->st == ST_ASYNC)
			snprintf(what, sizeof(what), "%" PRIu64 " F nibbles more than an ASYNC has,",
				 start_nib - d->pk.nib);
		else
			snprintf(what, sizeof(what), "%s packet cut short by an ASYNC,",
				 d->st == ST_OP2 || d->st == ST_OP3 || d->st == ST_OP4 ? "a" : d->pk.name);
		report(d, d->st == ST_ASYNC ? STP_E_GARBAGE : STP_E_CUT, d->pk.nib, start_nib - d->pk.nib, what,
		       "from", "");
	}
	d->synced = 1;
	d->pk.kind = STP_K_ASYNC;
	d->pk.name = "ASYNC";
	d->pk.nib = start_nib;
	d->pk.bits = d->pk.marked = d->pk.has_ts = 0;
	d->pk.value = 0;
	d->pk.nibs = STP_ASYNC_F + 1;
	d->st = ST_OP;
	deliver(d, &d->pk, d->ts);
}

static inline void field_nibble(struct stp_dec *d, unsigned x)
{
	if (d->msn)
		d->acc = d->acc << 4 | x;
	else
		d->acc |= (uint64_t)x << (4 * d->got);
	d->got++;
}

static void ts_done(struct stp_dec *d, uint64_t at)
{
	unsigned n = d->need;
	uint64_t ts = d->ts;
	if (n >= 16) {
		ts = d->gray ? gray_to_bin(d->acc) : d->acc;
	} else if (n) {
		/* a shorter timestamp replaces the low nibbles of the last one */
		uint64_t mask = ((uint64_t)1 << (4 * n)) - 1;
		uint64_t base = d->gray ? ts ^ (ts >> 1) : ts;
		base = (base & ~mask) | (d->acc & mask);
		ts = d->gray ? gray_to_bin(base) : base;
	}
	complete(d, at, ts);
}

static inline void step(struct stp_dec *d, unsigned x)
{
	uint64_t at = d->nib++;
	if (x == 0xF) {
		d->frun++;
	} else {
		if (x == 0 && d->frun >= STP_ASYNC_F) {
			d->frun = 0;
			async_found(d, at);
			return;
		}
		d->frun = 0;
		if (d->have_pend) { /* not an ASYNC after all */
			d->have_pend = 0;
			deliver(d, &d->pend, d->pend_ts);
		}
	}
	switch (d->st) {
	case ST_SYNC:
		/* F nibbles count when no ASYNC follows them (async_found) */
		d->skip_data |= x != 0 && x != 0xF;
		d->skip_f += x == 0xF;
		return;
	case ST_OP:
		d->pk.nib = at;
		d->pk.name = NULL;
		if (x == 0xF)
			d->st = ST_OP2;
		else
			start(d, x, at);
		return;
	case ST_OP2:
		if (x == 0)
			d->st = ST_OP3;
		else if (x == 0xF)
			d->st = ST_ASYNC;
		else
			start(d, 16 + x, at);
		return;
	case ST_OP3:
		if (x == 0xF)
			d->st = ST_OP4;
		else
			start(d, 32 + x, at);
		return;
	case ST_OP4:
		start(d, 48 + x, at);
		return;
	case ST_ASYNC:
		if (x != 0xF) /* a 0 after enough F nibbles was taken above */
			lose_sync(d, STP_E_BAD,
				  x == 0 ? "ASYNC with too few F nibbles" : "FF not followed by an ASYNC");
		return;
	case ST_FIELD:
		field_nibble(d, x);
		if (d->got == d->need) {
			d->pk.value = d->acc;
			if (d->pk.has_ts)
				d->st = ST_TSLEN;
			else
				complete(d, at, d->ts);
		}
		return;
	case ST_TSLEN:
		if (x == 0xF) {
			lose_sync(d, STP_E_BAD, "timestamp size nibble F (reserved)");
			return;
		}
		d->need = x == 0xD ? 14 : x == 0xE ? 16 : x;
		d->got = 0;
		d->acc = 0;
		if (d->need)
			d->st = ST_TS;
		else
			ts_done(d, at);
		return;
	case ST_TS:
		field_nibble(d, x);
		if (d->got == d->need)
			ts_done(d, at);
		return;
	}
}

void stp_rejoin(struct stp_dec *d)
{
	if (d->have_pend) {
		d->have_pend = 0;
		deliver(d, &d->pend, d->pend_ts);
	}
	if (d->synced && d->st != ST_OP) {
		char what[96];
		snprintf(what, sizeof(what), "%s packet cut by a break in the input (bytes were missed),",
			 d->pk.name ? d->pk.name : "a");
		report(d, STP_E_TRUNCATED, d->pk.nib, d->nib - d->pk.nib, what, "from", "");
	}
	/* packets cannot be delimited until the next ASYNC */
	d->synced = 0;
	d->st = ST_SYNC;
	d->frun = 0;
	d->skip_nib = d->nib;
	d->skip_data = 0;
	d->skip_f = 0;
}

/* k nibbles (2..16) from nibble j of p[0..n) on, the first in the low
 * bits. */
static inline uint64_t nibbles_at(const uint8_t *p, size_t n, size_t j, unsigned k)
{
	const uint8_t *q = p + j / 2;
	unsigned sh = (unsigned)(j & 1) * 4, nb = (sh / 4 + k + 1) / 2;
	uint64_t v = 0;
	if (j / 2 + 8 <= n) /* one load where the bytes are there */
		v = bytes_word(q);
	else
		v = bytes_le(q, nb < 8 ? nb : 8);
	v >>= sh;
	if (nb > 8)
		v |= (uint64_t)q[8] << 60;
	return k < 16 ? v & (((uint64_t)1 << (4 * k)) - 1) : v;
}

/* The k nibbles of v (first in the low bits) in reverse order. */
static inline uint64_t nibbles_reversed(uint64_t v, unsigned k)
{
	v = (v & 0x0F0F0F0F0F0F0F0Full) << 4 | (v >> 4 & 0x0F0F0F0F0F0F0F0Full);
	v = __builtin_bswap64(v);
	return v >> (64 - 4 * k);
}

/* The rest of a payload or timestamp field at once: the same as k calls
 * of step(), which the caller has made sure no ASYNC can end inside
 * (fewer than 22 nibbles from the start of the current run of F on). */
static void field_bulk(struct stp_dec *d, uint64_t v, unsigned k)
{
	uint64_t mask = k < 16 ? ((uint64_t)1 << (4 * k)) - 1 : ~(uint64_t)0;
	if (d->msn)
		d->acc = (k < 16 ? d->acc << (4 * k) : 0) | nibbles_reversed(v, k);
	else
		d->acc |= v << (4 * d->got);
	d->got += k;
	d->nib += k;
	uint64_t notf = ~v & mask; /* the F nibbles at the end (the top) continue the run */
	if (!notf)
		d->frun += k;
	else
		d->frun = (uint32_t)(__builtin_clzll(notf) - (64 - 4 * k)) / 4;
	uint64_t at = d->nib - 1;
	if (d->got < d->need)
		return;
	if (d->st == ST_TS) {
		ts_done(d, at);
	} else {
		d->pk.value = d->acc;
		if (d->pk.has_ts)
			d->st = ST_TSLEN;
		else
			complete(d, at, d->ts);
	}
}

void stp_feed(struct stp_dec *d, const uint8_t *p, size_t n)
{
	size_t j = 0, end = 2 * n;
	while (j < end) {
		if (d->st == ST_FIELD || d->st == ST_TS) {
			unsigned k = d->need - d->got;
			if (k > 1 && end - j >= k && d->frun + k < STP_ASYNC_F + 1) {
				field_bulk(d, nibbles_at(p, n, j, k), k);
				j += k;
				continue;
			}
		}
		step(d, (p[j / 2] >> (4 * (j & 1))) & 0xFu);
		j++;
	}
}

void stp_finish(struct stp_dec *d)
{
	char what[96];
	if (d->have_pend) {
		d->have_pend = 0;
		deliver(d, &d->pend, d->pend_ts);
	}
	if (!d->synced) {
		if (d->nib > d->skip_nib && (d->skip_data || d->skip_f)) {
			snprintf(what, sizeof(what), "%" PRIu64 " nibbles dropped while looking for an ASYNC (none came),",
				 d->nib - d->skip_nib);
			report(d, STP_E_GARBAGE, d->skip_nib, d->nib - d->skip_nib, what, "from", "");
		}
		d->skip_nib = d->nib;
		d->skip_data = 0;
		d->skip_f = 0;
		return;
	}
	if (d->st != ST_OP) {
		snprintf(what, sizeof(what), "input ends inside %s packet, %" PRIu64 " nibbles into it,",
			 d->pk.name ? d->pk.name : d->st == ST_ASYNC ? "an ASYNC" : "a", d->nib - d->pk.nib);
		report(d, STP_E_TRUNCATED, d->pk.nib, d->nib - d->pk.nib, what, "from", "");
		d->st = ST_OP;
	}
}

static void scan_packet(void *ctx, const struct stp_packet *p)
{
	struct stp_scan *s = ctx;
	if (p->kind == STP_K_ASYNC && !s->asyncs++)
		s->first_async = p->nib;
	s->packets++;
	if (p->kind != STP_K_DATA)
		return;
	s->data++;
	if (p->has_ts && p->bits >= 32) { /* how a SyS-T message starts */
		s->starts++;
		if (s->plausible && s->plausible((uint32_t)p->value))
			s->plausible_starts++;
	}
}

static void scan_error(void *ctx, enum stp_err code, uint64_t nib, uint64_t nibs, const char *msg)
{
	struct stp_scan *s = ctx;
	(void)nib;
	(void)nibs;
	(void)msg;
	/* nibbles before the first ASYNC are no error: a capture may start
	 * anywhere */
	if (s->asyncs && code != STP_E_TRUNCATED)
		s->errors++;
}

void stp_scan(const uint8_t *p, size_t n, int msn, int (*plausible)(uint32_t), struct stp_scan *out)
{
	struct stp_dec d;
	memset(out, 0, sizeof(*out));
	out->plausible = plausible;
	stp_init(&d, msn, scan_packet, scan_error, out);
	stp_feed(&d, p, n);
}

void stp_core_name(uint32_t core, char *buf, size_t n)
{
	snprintf(buf, n, "STP master %u, channel %u", (unsigned)(core >> 16), (unsigned)(core & 0xFFFFu));
}
