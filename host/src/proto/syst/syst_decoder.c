/*
 * syst_decoder.c -- the MIPI SyS-T decoder: `--proto syst`.
 *
 * Options (-o key=value):
 *   syst.collateral=FILE   decode collateral XML (catalogs, short formats,
 *                          source files, RAW protocol names)
 *   syst.guid={GUID}       origin of short messages (they carry none); like
 *                          systprint -g it also makes the CSV's context
 *                          timestamp a message counter
 *   syst.container=auto|len|raw|hex|stp   framing of the input (default auto)
 *   stp.order=auto|lsn|msn  nibble order of STPv2 fields (default auto)
 * See docs/proto-syst.md.
 */
#include <stdlib.h>
#include <string.h>

#include "syst_dec.h"
#include "syst_msg.h"
#include "core/opts.h"

const char syst_proto_name[] = "syst";

static void coll_warn(void *ctx, uint64_t offset, const char *msg)
{
	syst_diag(ctx, SONDE_D_MALFORMED, offset, 0, "%s", msg);
}

static void syst_destroy(void *p)
{
	struct syst_dec *d = p;
	if (!d)
		return;
	syst_coll_free(d->coll);
	free(d->coll_path);
	free(d->buf);
	free(d->msg);
	if (d->stpm)
		stp_msg_free(d->stpm);
	free(d->stpm);
	free(d->stp);
	free(d->text);
	free(d->row);
	free(d);
}

static void *syst_create(const struct sonde_out *out, sonde_opts opts)
{
	struct syst_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->out = *out;
	if (out->session)
		out->session->proto = syst_proto_name;

	/* in the order of enum syst_container and enum syst_stp_order */
	static const char *const containers[] = { "auto", "len", "raw", "hex", "stp", NULL };
	static const char *const orders[] = { "auto", "lsn", "msn", NULL };
	int mode = sonde_opt_word(opts, "syst.container", containers, SYST_C_AUTO);
	int order = sonde_opt_word(opts, "stp.order", orders, SYST_STP_AUTO);
	if (mode < 0 || order < 0)
		goto fail;
	d->mode = (enum syst_container)mode;
	d->stp_order = (enum syst_stp_order)order;
	const char *v = sonde_opt_get(opts, "syst.guid");
	if (v) {
		if (syst_guid_parse(v, d->short_guid) != 0) {
			sonde_opt_bad("syst.guid", v, "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}");
			goto fail;
		}
		d->have_short_guid = 1;
	}
	v = sonde_opt_get(opts, "syst.collateral");
	if (v) {
		d->coll = syst_coll_load(v, coll_warn, d);
		d->coll_path = strdup(v);
		if (!d->coll || !d->coll_path)
			goto fail;
	}
	if (d->have_short_guid)
		d->short_client = syst_coll_client(d->coll, d->short_guid);

	d->bcap = SYST_HEX_LINE_MAX + 1;
	d->buf = malloc(d->bcap);
	d->msg = malloc(SYST_MSG_MAX + 2);
	d->text = malloc(SYST_TEXT_CAP);
	d->row = malloc(SYST_ROW_CAP);
	if (!d->buf || !d->msg || !d->text || !d->row)
		goto fail;
	syst_sb_init(&d->tsb, d->text, SYST_TEXT_CAP);
	syst_sb_init(&d->rsb, d->row, SYST_ROW_CAP);
	syst_render_init(d);
	return d;
fail:
	syst_destroy(d);
	return NULL;
}

static void syst_feed(void *p, const uint8_t *buf, size_t n)
{
	syst_stream_feed(p, buf, n);
}

static void syst_finish(void *p)
{
	syst_stream_finish(p);
}

/* Bytes were missed (a live link reconnected): in an STP stream the
 * messages in flight miss packets.  The other containers resynchronise on
 * their own. */
static void syst_rejoin(void *p)
{
	struct syst_dec *d = p;
	if (!d->stp)
		return;
	stp_rejoin(d->stp);
	stp_msg_cut_all(d->stpm, "bytes were missed (a break in the input)");
}

static int syst_probe(const uint8_t *buf, size_t n)
{
	int conf;
	syst_detect(buf, n < SYST_DETECT_BYTES ? n : SYST_DETECT_BYTES, &conf);
	return conf;
}

const struct sonde_decoder_ops sonde_decoder_syst = {
	.name = "syst",
	.desc = "MIPI SyS-T messages (length-prefixed, raw, systprint hex lines or over MIPI STPv2)",
	.probe = syst_probe,
	.create = syst_create,
	.feed = syst_feed,
	.finish = syst_finish,
	.destroy = syst_destroy,
	.rejoin = syst_rejoin,
};
