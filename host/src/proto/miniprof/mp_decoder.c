/*
 * mp_decoder.c -- the MiniProfiler decoder (`--proto miniprof`): a recorded
 * or live stream of the device's responses onto the event model.
 *
 *   METADATA      INFO (mcu_clock_hz, timer_freq, elf_build_id, fw_version);
 *                 the session's build_id
 *   STATUS        RECORD "STATUS"; a rise of buffer_overflows also gives
 *                 DROPS (refused_total = buffer_overflows)
 *   ACK, NACK     RECORD "ACK" / "NACK"
 *   PROFILE_DATA  one FUNC_ENTER + FUNC_EXIT per record, in time order
 *                 (mp_calls.c), timestamps in microseconds
 *
 * rec_id is the response type of the packet an event came from, so a
 * listener can follow the conversation (the `sonde miniprof` command does).
 * Options: miniprof.header=aa55|55aa, miniprof.crc=le|be (byte orders the
 * document leaves open), miniprof.window=N (reorder window, calls),
 * miniprof.ts_freq=HZ (the records' time unit, default 1000000).  The
 * mapping and its reasons: docs/proto-miniprof.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_calls.h"
#include "mp_opts.h"
#include "mp_parser.h"
#include "mp_wire.h"

struct mp_dec {
	struct sonde_out out;
	struct mp_parser *parser;
	struct mp_calls *calls;
	uint64_t ts_freq;
	int have_overflows;
	uint32_t overflows;   /* the last buffer_overflows */
	struct sonde_arg args[5];
	char msg[256];
};

static void dec_diag(struct mp_dec *d, enum sonde_diag_code code, uint64_t off, uint64_t frame)
{
	sonde_diag_put(&d->out, code, off, frame, 1, d->msg);
}

static void ev_init(struct sonde_event *ev, enum sonde_ev_kind kind, const struct mp_packet *pk)
{
	sonde_event_clear(ev);
	ev->kind = kind;
	ev->rec_id = pk->type;
	ev->rec_name = mp_rsp_name(pk->type);
	ev->offset = pk->offset;
	ev->frame = pk->frame;
}

static struct sonde_arg *arg(struct mp_dec *d, size_t i, const char *name, enum sonde_arg_type t,
			     uint64_t v)
{
	struct sonde_arg *a = &d->args[i];

	memset(a, 0, sizeof(*a));
	a->type = t;
	a->name = name;
	a->v.u = v;
	return a;
}

static void emit(struct mp_dec *d, struct sonde_event *ev, size_t nargs)
{
	ev->args = nargs ? d->args : NULL;
	ev->nargs = nargs;
	if (d->out.event)
		d->out.event(d->out.ctx, ev);
}

static void on_metadata(struct mp_dec *d, const struct mp_packet *pk)
{
	struct mp_metadata m;
	struct sonde_event ev;
	struct sonde_arg *fw;

	mp_metadata_decode(pk->payload, pk->len, &m);
	if (d->out.session)
		d->out.session->build_id = m.elf_build_id;
	if (!m.fw_terminated) {
		snprintf(d->msg, sizeof(d->msg), "METADATA: fw_version fills its 16 bytes without a NUL");
		dec_diag(d, SONDE_D_MALFORMED, pk->offset + MP_RSP_HDR_LEN + 12, pk->frame);
	}
	if (m.timer_freq != d->ts_freq) {
		snprintf(d->msg, sizeof(d->msg),
			 "METADATA: timer_freq is %" PRIu32 " Hz, but record times are read as ticks of %" PRIu64
			 " Hz (the protocol documents microseconds; -o miniprof.ts_freq=HZ changes it)",
			 m.timer_freq, d->ts_freq);
		dec_diag(d, SONDE_D_TIME, pk->offset + MP_RSP_HDR_LEN + 4, pk->frame);
	}
	ev_init(&ev, SONDE_EV_INFO, pk);
	arg(d, 0, "mcu_clock_hz", SONDE_A_U32, m.mcu_clock_hz);
	arg(d, 1, "timer_freq", SONDE_A_U32, m.timer_freq);
	arg(d, 2, "elf_build_id", SONDE_A_HEX, m.elf_build_id);
	fw = arg(d, 3, "fw_version", SONDE_A_STR, 0);
	fw->v.mem.p = pk->payload + 12; /* the packet's own bytes: valid for the callback */
	fw->v.mem.n = m.fw_len;
	emit(d, &ev, 4);
}

static void on_status(struct mp_dec *d, const struct mp_packet *pk)
{
	struct mp_status s;
	struct sonde_event ev;

	mp_status_decode(pk->payload, pk->len, &s);
	if (s.is_profiling > 1 || s.buffer_usage_percent > 100) {
		snprintf(d->msg, sizeof(d->msg),
			 "STATUS: is_profiling %u (0 or 1) / buffer_usage_percent %u (0..100) out of range",
			 s.is_profiling, s.buffer_usage_percent);
		dec_diag(d, SONDE_D_MALFORMED, pk->offset + MP_RSP_HDR_LEN, pk->frame);
	}
	ev_init(&ev, SONDE_EV_RECORD, pk);
	arg(d, 0, "is_profiling", SONDE_A_BOOL, s.is_profiling);
	arg(d, 1, "buffer_overflows", SONDE_A_U32, s.buffer_overflows);
	arg(d, 2, "records_captured", SONDE_A_U32, s.records_captured);
	arg(d, 3, "buffer_usage_percent", SONDE_A_U8, s.buffer_usage_percent);
	emit(d, &ev, 4);

	/* The device's count of overflows is the only loss it reports: each
	 * rise is a DROPS (the counter restarts at 0 on RESET_BUFFERS). */
	uint32_t prev = d->have_overflows && s.buffer_overflows >= d->overflows ? d->overflows : 0;
	if (s.buffer_overflows > prev) {
		ev_init(&ev, SONDE_EV_DROPS, pk);
		ev.rec_name = "OVERFLOW";
		ev.obj2 = s.buffer_overflows;
		arg(d, 0, "new_overflows", SONDE_A_U32, s.buffer_overflows - prev);
		if (d->out.session)
			d->out.session->drops_refused += s.buffer_overflows - prev;
		emit(d, &ev, 1);
	}
	d->have_overflows = 1;
	d->overflows = s.buffer_overflows;
}

static void on_profile(struct mp_dec *d, const struct mp_packet *pk)
{
	size_t avail = (pk->len - MP_PROFILE_HDR_LEN) / MP_RECORD_LEN;
	size_t count = mp_le16(pk->payload + 1);
	struct mp_record r;

	if (d->out.session)
		d->out.session->version = pk->payload[0];
	if (count != avail) {
		snprintf(d->msg, sizeof(d->msg),
			 "PROFILE_DATA: record_count %zu but the payload holds %zu record%s: %zu decoded", count,
			 avail, avail == 1 ? "" : "s", count < avail ? count : avail);
		dec_diag(d, SONDE_D_MALFORMED, pk->offset + MP_RSP_HDR_LEN + 1, pk->frame);
		if (count > avail)
			count = avail;
	}
	for (size_t i = 0; i < count; i++) {
		mp_record_decode(pk->payload + MP_PROFILE_HDR_LEN + i * MP_RECORD_LEN, &r);
		mp_calls_add(d->calls, &r, pk->offset, pk->frame);
	}
}

static void on_packet(void *ctx, const struct mp_packet *pk)
{
	struct mp_dec *d = ctx;
	struct sonde_event ev;

	if (d->out.session)
		d->out.session->frames = pk->frame + 1;
	switch (pk->type) {
	case MP_RSP_METADATA:
		on_metadata(d, pk);
		break;
	case MP_RSP_STATUS:
		on_status(d, pk);
		break;
	case MP_RSP_PROFILE_DATA:
		on_profile(d, pk);
		break;
	default: /* ACK, NACK: the parser passes known types only */
		ev_init(&ev, SONDE_EV_RECORD, pk);
		emit(d, &ev, 0);
		break;
	}
}

static void on_diag(void *ctx, const struct sonde_diag *g)
{
	struct mp_dec *d = ctx;

	if (d->out.session && g->code != SONDE_D_GARBAGE && g->frame + 1 > d->out.session->frames)
		d->out.session->frames = g->frame + 1;
	if (d->out.diag)
		d->out.diag(d->out.ctx, g);
}

/* ---- the decoder_ops -------------------------------------------------------- */

static void mp_destroy(void *p)
{
	struct mp_dec *d = p;

	if (!d)
		return;
	mp_parser_free(d->parser);
	mp_calls_free(d->calls);
	free(d);
}

static void *mp_create(const struct sonde_out *out, sonde_opts opts)
{
	struct mp_dec *d = calloc(1, sizeof(*d));
	struct mp_opts o;

	if (!d)
		return NULL;
	d->out = *out;
	if (mp_opts_read(&o, opts) != 0) {
		free(d);
		return NULL;
	}
	d->ts_freq = o.ts_freq;
	struct mp_parser_cb cb = { on_packet, on_diag, d };
	struct sonde_out cout = { .event = out->event, .diag = out->diag, .ctx = out->ctx, .session = NULL,
				  .needs.omit = out->needs.omit & (SONDE_OMIT_NATIVE | SONDE_OMIT_TEXT) };
	d->parser = mp_parser_new(&o.wire, &cb);
	d->calls = mp_calls_new(&cout, o.window);
	if (!d->parser || !d->calls) {
		mp_destroy(d);
		return NULL;
	}
	if (d->out.session) {
		d->out.session->proto = "miniprof";
		d->out.session->ts_freq = d->ts_freq;
		d->out.session->addr_size = 4;
		d->out.session->buffer_mode = -1;
	}
	return d;
}

static void mp_feed(void *p, const uint8_t *buf, size_t n)
{
	struct mp_dec *d = p;

	mp_parser_feed(d->parser, buf, n);
}

static void mp_finish(void *p)
{
	struct mp_dec *d = p;

	mp_parser_finish(d->parser);
	mp_calls_finish(d->calls);
}

/* A whole packet with a good CRC among the first bytes is certain; a
 * plausible header (known type, possible length) alone is a hint. */
static int mp_probe(const uint8_t *buf, size_t n)
{
	int best = 0;

	for (size_t i = 0; i + MP_RSP_HDR_LEN <= n && best < 95; i++) {
		size_t len, want;

		if (buf[i] != 0xAA || buf[i + 1] != 0x55 || !mp_rsp_name(buf[i + 2]))
			continue;
		len = mp_le16(buf + i + 3);
		if (mp_rsp_len_check(buf[i + 2], len, &want) != MP_LEN_OK)
			continue;
		if (i + MP_RSP_OVERHEAD + len > n) {
			if (best < 40)
				best = 40;
			continue;
		}
		const uint8_t *crc = buf + i + MP_RSP_HDR_LEN + len;

		if (mp_crc16(MP_CRC_INIT, buf + i, MP_RSP_HDR_LEN + len) == mp_le16(crc) && crc[2] == MP_RSP_END)
			best = i == 0 ? 95 : 85;
	}
	return best;
}

const struct sonde_decoder_ops sonde_decoder_miniprof = {
	.name = "miniprof",
	.desc = "MiniProfiler device responses (PROFILE_DATA v1 calls, METADATA, STATUS)",
	.probe = mp_probe,
	.create = mp_create,
	.feed = mp_feed,
	.finish = mp_finish,
	.destroy = mp_destroy,
};
