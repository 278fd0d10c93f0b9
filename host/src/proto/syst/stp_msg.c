/*
 * stp_msg.c -- SyS-T message reassembly from STPv2 packets (stp_msg.h).
 * One slot per master/channel with a message open; the last slot used is
 * tried first, since a message's packets come in a run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stp_msg.h"
#include "syst_msg.h"
#include "util/bytes.h"

void stp_msg_init(struct stp_msg *a, stp_msg_fn on_msg, stp_msg_diag_fn on_diag, void *ctx)
{
	memset(a, 0, sizeof(*a));
	a->on_msg = on_msg;
	a->on_diag = on_diag;
	a->ctx = ctx;
}

void stp_msg_free(struct stp_msg *a)
{
	for (unsigned i = 0; i < a->nslots; i++)
		free(a->slot[i].buf);
	a->nslots = 0;
}

static void diag(struct stp_msg *a, enum sonde_diag_code code, uint64_t nib, uint64_t count, const char *fmt,
		 const struct stp_slot *s, const char *what)
{
	char where[STP_WHERE_CAP], msg[320];
	snprintf(msg, sizeof(msg), fmt, (unsigned)s->master, (unsigned)s->channel, what);
	size_t l = strlen(msg);
	snprintf(msg + l, sizeof(msg) - l, " (STP: %s)", stp_where(nib, where));
	if (a->on_diag)
		a->on_diag(a->ctx, code, nib, count, msg);
}

static void report_stray(struct stp_msg *a, struct stp_slot *s)
{
	if (!s->stray)
		return;
	char n[32];
	snprintf(n, sizeof(n), "%" PRIu64, s->stray);
	diag(a, SONDE_D_GARBAGE, s->stray_nib, s->stray,
	     "master %u channel %u: %s data bytes outside any message (its start was lost) dropped", s, n);
	s->stray = 0;
}

static void deliver(struct stp_msg *a, struct stp_slot *s)
{
	s->open = 0;
	if (s->over) {
		char n[32];
		snprintf(n, sizeof(n), "%" PRIu64, s->over_bytes);
		diag(a, SONDE_D_TOO_LONG, s->src.nib, s->over_bytes,
		     "master %u channel %u: message longer than the largest SyS-T message: its last %s bytes dropped",
		     s, n);
		s->over = 0;
	}
	if (a->on_msg)
		a->on_msg(a->ctx, s->buf, s->len, &s->src);
}

/* A message that did not end: decoded as far as it goes (the SyS-T
 * decoder reports what is missing if it can tell) and said here. */
static void cut(struct stp_msg *a, struct stp_slot *s, const char *why)
{
	char n[160];
	snprintf(n, sizeof(n), "%zu bytes; %s", s->len, why);
	diag(a, SONDE_D_TRUNCATED, s->src.nib, s->len,
	     "master %u channel %u: message not ended by FLAG or a marked packet after %s", s, n);
	deliver(a, s);
}

static struct stp_slot *find(struct stp_msg *a, uint16_t master, uint16_t channel)
{
	struct stp_slot *s = &a->slot[a->last];
	if (a->nslots && s->master == master && s->channel == channel)
		return s;
	unsigned victim = 0;
	for (unsigned i = 0; i < a->nslots; i++) {
		s = &a->slot[i];
		if (s->master == master && s->channel == channel) {
			a->last = i;
			return s;
		}
		if (a->slot[i].used < a->slot[victim].used)
			victim = i;
	}
	if (a->nslots < STP_MSG_SLOTS) {
		victim = a->nslots++;
	} else {
		/* every slot busy: the source idle longest gives its slot up */
		s = &a->slot[victim];
		report_stray(a, s);
		if (s->open)
			cut(a, s, "more sources than Sonde follows at once took its place");
	}
	s = &a->slot[victim];
	s->master = master;
	s->channel = channel;
	s->open = s->over = 0;
	s->len = 0;
	s->stray = 0;
	a->last = victim;
	return s;
}

static void append(struct stp_slot *s, const struct stp_packet *p)
{
	size_t n = p->bits / 8;
	if (s->len + n > SYST_MSG_MAX) {
		s->over = 1;
		s->over_bytes += n;
		return;
	}
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 256;
		while (cap < s->len + n)
			cap *= 2;
		if (cap > SYST_MSG_MAX)
			cap = SYST_MSG_MAX;
		uint8_t *b = realloc(s->buf, cap);
		if (!b) {
			s->over = 1;
			s->over_bytes += n;
			return;
		}
		s->buf = b;
		s->cap = cap;
	}
	bytes_put_le(s->buf + s->len, p->value, n); /* the value's bytes, lowest first */
	s->len += n;
}

static void open_msg(struct stp_slot *s, const struct stp_packet *p)
{
	s->open = 1;
	s->over = 0;
	s->over_bytes = 0;
	s->len = 0;
	s->src.master = p->master;
	s->src.channel = p->channel;
	s->src.ts = p->ts;
	s->src.nib = p->nib;
}

void stp_msg_packet(struct stp_msg *a, const struct stp_packet *p)
{
	if (p->kind != STP_K_DATA && p->kind != STP_K_FLAG)
		return;
	struct stp_slot *s = find(a, p->master, p->channel);
	s->used = ++a->clock;
	if (p->kind == STP_K_FLAG) {
		if (s->open)
			deliver(a, s);
		else
			report_stray(a, s);
		return;
	}
	if (p->bits == 4) {
		diag(a, SONDE_D_MALFORMED, p->nib, 0,
		     "master %u channel %u: %s packet (half a byte) cannot be part of a SyS-T message: ignored", s,
		     p->name);
		return;
	}
	if (p->has_ts) { /* DnTS or DnMTS: a message starts */
		if (s->open)
			cut(a, s, "the next message started");
		report_stray(a, s);
		open_msg(s, p);
		append(s, p);
		if (p->marked) /* DnMTS: the whole (short) message */
			deliver(a, s);
		return;
	}
	if (!s->open) {
		if (!s->stray)
			s->stray_nib = p->nib;
		s->stray += p->bits / 8;
		if (p->marked)
			report_stray(a, s);
		return;
	}
	append(s, p);
	if (p->marked) /* DnM ends it */
		deliver(a, s);
}

void stp_msg_cut_all(struct stp_msg *a, const char *why)
{
	for (unsigned i = 0; i < a->nslots; i++) {
		report_stray(a, &a->slot[i]);
		if (a->slot[i].open)
			cut(a, &a->slot[i], why);
	}
}

void stp_msg_finish(struct stp_msg *a)
{
	stp_msg_cut_all(a, "the input ended");
}
