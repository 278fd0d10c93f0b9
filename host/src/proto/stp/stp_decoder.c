/*
 * stp_decoder.c -- `--proto stp`: a MIPI STPv2 stream shown as the channel
 * writes it carries, whatever the payload (an STM channel written by
 * software that does not speak SyS-T).  The packet decoder is SyS-T's
 * (proto/syst/stp_packet.c); SyS-T messages over STP are `--proto syst`.
 *
 * Events: every data packet and FLAG is a RECORD named after its packet
 * (D32TS, FLAG, ...) with args master, channel, size (bits), value,
 * marked, and ts when it carried a timestamp; core = master << 16 |
 * channel; ts = the STP time (FREQ gives its rate).  TRIG is a MARK, MERR
 * and GERR (errors the trace hardware reports) RECORDs and diagnostics.
 * USER and TIME packets are RECORDs with no value (the public decoders
 * give them no payload), XSYNC a MARK; their TS forms add ts.
 * Options: stp.order=lsn|msn (default lsn), the fields' nibble order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "proto/syst/stp_packet.h"
#include "core/opts.h"

struct stpd {
	struct sonde_out out;
	struct stp_dec dec;
	uint64_t frame;
	int have_ts;         /* a timestamp has come: times are known */
	struct sonde_arg args[6];
};

static void stpd_error(void *ctx, enum stp_err code, uint64_t nib, uint64_t nibs, const char *msg)
{
	struct stpd *d = ctx;
	sonde_diag_put(&d->out, stp_err_code(code), nib / 2, d->frame, (nibs + 1) / 2, msg);
}

static void put_arg(struct sonde_event *ev, struct sonde_arg *a, enum sonde_arg_type t, const char *name,
		    uint64_t v)
{
	a = &a[ev->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.u = v;
}

static void stpd_packet(void *ctx, const struct stp_packet *p)
{
	struct stpd *d = ctx;
	struct sonde_event ev;
	if (p->has_ts)
		d->have_ts = 1;
	switch (p->kind) {
	case STP_K_FREQ:
		if (d->out.session)
			d->out.session->ts_freq = p->value;
		return;
	case STP_K_DATA:
	case STP_K_FLAG:
	case STP_K_TRIG:
	case STP_K_MERR:
	case STP_K_GERR:
	case STP_K_USER:
	case STP_K_TIME:
	case STP_K_XSYNC:
		break;
	default:
		return;
	}
	sonde_event_clear(&ev);
	ev.kind = p->kind == STP_K_TRIG || p->kind == STP_K_XSYNC ? SONDE_EV_MARK : SONDE_EV_RECORD;
	ev.rec_name = p->name;
	ev.core = (uint32_t)p->master << 16 | p->channel;
	ev.offset = p->nib / 2;
	ev.frame = d->frame++;
	if (d->have_ts) {
		ev.ts = p->ts;
		ev.ts_flags = SONDE_TS_VALID;
	}
	ev.args = d->args;
	put_arg(&ev, d->args, SONDE_A_U32, "master", p->master);
	put_arg(&ev, d->args, SONDE_A_U32, "channel", p->channel);
	if (p->kind == STP_K_DATA) {
		put_arg(&ev, d->args, SONDE_A_U32, "size", p->bits);
		put_arg(&ev, d->args, SONDE_A_HEX, "value", p->value);
		put_arg(&ev, d->args, SONDE_A_BOOL, "marked", p->marked);
		ev.value = (int64_t)p->value;
	} else if (p->kind == STP_K_TRIG || p->kind == STP_K_MERR || p->kind == STP_K_GERR) {
		put_arg(&ev, d->args, SONDE_A_HEX, "value", p->value);
		ev.obj = p->value;
		ev.value = (int64_t)p->value;
	}
	if (p->has_ts)
		put_arg(&ev, d->args, SONDE_A_U64, "ts", p->ts);
	if (d->out.session)
		d->out.session->frames++;
	if (d->out.event)
		d->out.event(d->out.ctx, &ev);
	if (p->kind == STP_K_MERR || p->kind == STP_K_GERR) {
		char msg[128], where[STP_WHERE_CAP];
		snprintf(msg, sizeof(msg), "STP: %s 0x%02X (the trace hardware lost data) at %s", p->name,
			 (unsigned)p->value, stp_where(p->nib, where));
		sonde_diag_put(&d->out, SONDE_D_OTHER, p->nib / 2, ev.frame, 1, msg);
	}
}

static void *stpd_create(const struct sonde_out *out, sonde_opts opts)
{
	struct stpd *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->out = *out;
	static const char *const orders[] = { "lsn", "msn", NULL };
	int msn = sonde_opt_word(opts, "stp.order", orders, 0);
	if (msn < 0) {
		free(d);
		return NULL;
	}
	if (out->session) {
		out->session->proto = "stp";
		out->session->variant = msn ? "STPv2 (fields most significant nibble first)"
					    : "STPv2 (fields least significant nibble first)";
		out->session->core_name = stp_core_name;
	}
	stp_init(&d->dec, msn, stpd_packet, stpd_error, d);
	return d;
}

static void stpd_feed(void *p, const uint8_t *buf, size_t n)
{
	struct stpd *d = p;
	stp_feed(&d->dec, buf, n);
}

static void stpd_finish(void *p)
{
	struct stpd *d = p;
	stp_finish(&d->dec);
}

static void stpd_rejoin(void *p)
{
	struct stpd *d = p;
	stp_rejoin(&d->dec);
}

static void stpd_destroy(void *p)
{
	free(p);
}

/* An STPv2 stream: an ASYNC and packets after it without errors.  Below
 * the SyS-T decoder's score for SyS-T over STP, above its score for STP
 * carrying anything else. */
static int stpd_probe(const uint8_t *buf, size_t n)
{
	struct stp_scan s;
	stp_scan(buf, n < 4096 ? n : 4096, 0, NULL, &s);
	return s.asyncs && s.packets >= 4 && s.errors * 10 <= s.packets ? 60 : 0;
}

const struct sonde_decoder_ops sonde_decoder_stp = {
	.name = "stp",
	.desc = "MIPI STPv2 channel writes (master, channel, data), any payload",
	.probe = stpd_probe,
	.create = stpd_create,
	.feed = stpd_feed,
	.finish = stpd_finish,
	.destroy = stpd_destroy,
	.rejoin = stpd_rejoin,
};
