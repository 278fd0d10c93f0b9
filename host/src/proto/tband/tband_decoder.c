/*
 * tband_decoder.c -- the Tonbandgeraet (tband) decoder: splits the byte
 * stream into COBS frames at each 0x00, decodes and parses each frame
 * (tband_cobs.c, tband_wire.c), reports what is wrong with a frame at its
 * byte offset, and hands good frames to tband_map.c, which turns them into
 * events.  Memory is fixed: one frame buffer and a bounded name table.
 *
 * Every frame yields one event whose `native` is the reference dump's JSON
 * line for it (tband_json.c); a task switch also yields an inferred TASK_OUT
 * for the task that stopped running (native NULL).  Options, the mapping and
 * the differences from the reference converter: docs/proto-tband.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tband_cobs.h"
#include "tband_dec.h"
#include "core/opts.h"
#include "tband_json.h"
#include "tband_probe.h"

/* ---- one frame ------------------------------------------------------------ */

/* What is wrong with a field (the errors reported per field). */
static const char *const tband_perr_text[] = {
	[TBAND_E_TRUNCATED] = "frame ends inside the field",
	[TBAND_E_OVERFLOW] = "varlen integer too long for its type",
	[TBAND_E_UTF8] = "string is not valid UTF-8",
	[TBAND_E_ENUM] = "undefined enumerator value",
};

static void tband_parse_error(struct tband_dec *d, const struct tband_rec *rec,
			      size_t plen)
{
	size_t at = tband_cobs_raw_index(d->rawp, d->raw_n, rec->err_pos);
	enum sonde_diag_code code;

	switch (rec->err) {
	case TBAND_E_EMPTY:
		code = SONDE_D_TOO_SHORT;
		snprintf(d->msg, sizeof(d->msg), "frame decodes to no bytes (no event id)");
		break;
	case TBAND_E_UNKNOWN_ID:
		code = SONDE_D_UNKNOWN_RECORD;
		snprintf(d->msg, sizeof(d->msg), "unknown event id 0x%02x%s", d->payload[0],
			 d->mode == TBAND_MODE_BAREMETAL &&
			 tband_event_find(d->payload[0], TBAND_MODE_FREERTOS) ?
			 " (a FreeRTOS event: try -o tband.mode=freertos)" : "");
		break;
	case TBAND_E_TRUNCATED:
		code = SONDE_D_TOO_SHORT;
		snprintf(d->msg, sizeof(d->msg), "%s: '%s': %s", rec->desc->name,
			 rec->err_field, tband_perr_text[rec->err]);
		break;
	case TBAND_E_TRAILING:
		code = SONDE_D_MALFORMED;
		snprintf(d->msg, sizeof(d->msg), "%s: %zu byte%s left after the last field",
			 rec->desc->name, plen - rec->err_pos, plen - rec->err_pos == 1 ? "" : "s");
		break;
	default:
		code = SONDE_D_MALFORMED; /* overflow, UTF-8, enum */
		snprintf(d->msg, sizeof(d->msg), "%s: '%s': %s", rec->desc->name,
			 rec->err_field, tband_perr_text[rec->err]);
		break;
	}
	tband_diag_at(d, code, at);
}

static void tband_flush_empty(struct tband_dec *d)
{
	if (!d->empty_run)
		return;
	snprintf(d->msg, sizeof(d->msg),
		 "%" PRIu64 " empty frame%s (0x00 without content)", d->empty_run,
		 d->empty_run == 1 ? "" : "s");
	tband_diag(d, SONDE_D_TOO_SHORT, d->empty_off, d->empty_frame, d->empty_run);
	d->empty_run = 0;
}

/* A 0x00 delimiter ended the current frame. */
static void tband_frame(struct tband_dec *d)
{
	struct tband_rec rec;
	size_t bad = 0;
	long n;

	if (d->raw_len == 0) {
		/* Coalesce runs of lone delimiters (zero padding) into one
		 * report. */
		if (!d->empty_run) {
			d->empty_off = d->frame_off;
			d->empty_frame = d->frame_no;
		}
		d->empty_run++;
		return;
	}
	tband_flush_empty(d);
	if (d->raw_len > TBAND_FRAME_MAX) {
		snprintf(d->msg, sizeof(d->msg),
			 "frame of %" PRIu64 " bytes longer than %d: discarded",
			 d->raw_len, TBAND_FRAME_MAX);
		tband_diag(d, SONDE_D_TOO_LONG, d->frame_off, d->frame_no, d->raw_len);
		return;
	}
	n = tband_cobs_decode_nz(d->rawp, d->raw_n, d->payload, &bad); /* split on 0x00 */
	if (n < 0) {
		snprintf(d->msg, sizeof(d->msg),
			 "bad COBS: code byte 0x%02x at frame byte %zu points past the "
			 "end of the %zu-byte frame: frame dropped", d->rawp[bad], bad, d->raw_n);
		tband_diag_at(d, SONDE_D_MALFORMED, bad);
		return;
	}
	if (tband_parse_padded(d->payload, (size_t)n, d->mode, &rec) != TBAND_OK) {
		tband_parse_error(d, &rec, (size_t)n);
		if (!TBAND_PERR_SOFT(rec.err))
			return;
	}
	tband_record(d, &rec);
}

/* ---- the decoder_ops ------------------------------------------------------ */

static void *tband_create(const struct sonde_out *out, sonde_opts opts)
{
	static const char *const modes[] = { "freertos", "free-rtos", "baremetal", "bare-metal", NULL };
	int mode = sonde_opt_word(opts, "tband.mode", modes, 0);
	uint64_t core = 0, ns_per_ts = 1;
	struct tband_dec *d;

	if (mode < 0 || sonde_opt_uint(opts, "core", 0, TBAND_CORES - 1, &core) < 0 ||
	    sonde_opt_uint(opts, "tband.ns_per_ts", 1, UINT64_MAX, &ns_per_ts) < 0)
		return NULL;
	d = calloc(1, sizeof(*d) + tband_json_size(sizeof(d->str) - 1));
	if (!d)
		return NULL;
	d->out = *out;
	d->mode = mode >= 2 ? TBAND_MODE_BAREMETAL : TBAND_MODE_FREERTOS;
	d->core = (uint32_t)core;
	d->ns_per_ts = ns_per_ts;
	if (tband_dict_init(&d->dict, TBAND_DICT_LOG2)) {
		free(d);
		return NULL;
	}
	if (d->out.session) {
		d->out.session->proto = "tband";
		d->out.session->ts_freq = 1000000000u; /* events carry ns */
		d->out.session->buffer_mode = -1;
	}
	d->names_gen = 1;
	if (d->out.session)
		d->out.session->names_gen = d->names_gen;
	return d;
}

static void tband_feed(void *p, const uint8_t *buf, size_t n)
{
	struct tband_dec *d = p;

	while (n) {
		const uint8_t *z = memchr(buf, 0, n);
		size_t k = z ? (size_t)(z - buf) : n;
		size_t keep = 0;

		if (d->raw_len == 0 && k)
			d->frame_off = d->in_off;
		if (z && d->raw_len == 0 && k <= TBAND_FRAME_MAX) {
			/* the whole frame is in this chunk: decode it where it is */
			d->rawp = buf;
			d->raw_n = k;
		} else if (d->raw_n < TBAND_FRAME_MAX) {
			keep = TBAND_FRAME_MAX - d->raw_n;
			if (keep > k)
				keep = k;
			memcpy(d->raw + d->raw_n, buf, keep);
			d->raw_n += keep;
			d->rawp = d->raw;
		}
		d->raw_len += k;
		d->in_off += k;
		buf += k;
		n -= k;
		if (z) {
			if (d->raw_len == 0)
				d->frame_off = d->in_off;
			d->in_off++;
			buf++;
			n--;
			tband_frame(d);
			d->frame_no++;
			if (d->out.session)
				d->out.session->frames++;
			d->raw_n = 0;
			d->raw_len = 0;
		}
	}
}

static void tband_finish(void *p)
{
	struct tband_dec *d = p;

	tband_flush_empty(d);
	if (d->raw_len) {
		snprintf(d->msg, sizeof(d->msg),
			 "input ends inside a frame: %" PRIu64 " bytes without a 0x00 delimiter",
			 d->raw_len);
		tband_diag(d, SONDE_D_TRUNCATED, d->frame_off, d->frame_no, d->raw_len);
		d->frame_no++;
		if (d->out.session)
			d->out.session->frames++;
		d->raw_n = 0;
		d->raw_len = 0;
	}
}

static void tband_destroy(void *p)
{
	struct tband_dec *d = p;

	if (!d)
		return;
	tband_dict_free(&d->dict);
	free(d);
}

const struct sonde_decoder_ops sonde_decoder_tband = {
	.name = "tband",
	.desc = "Tonbandgeraet COBS trace (bare-metal or FreeRTOS; -o tband.mode=, -o core=)",
	.probe = tband_probe,
	.create = tband_create,
	.feed = tband_feed,
	.finish = tband_finish,
	.destroy = tband_destroy,
};
