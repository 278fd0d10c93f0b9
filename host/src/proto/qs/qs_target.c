/*
 * qs_target.c -- QS_TARGET_INFO and the field sizes it sets.
 *
 * QS 7.x sends 16 payload bytes: isReset (0xFF after a reset, 0x00 in reply
 * to QS_RX_INFO), u16 QP_VERSION (bit 15: big-endian CPU), then the sizes as
 * nibbles, QF limits and the build time.  The 8.x variant (inferred from the
 * QSPY 8 parser, never seen from a real target) is recognised by
 * (byte0 & 3) == 2: byte 0 carries big-endian (bit 7), reset (bit 6) and the
 * framework (bits 2-3), then a u32 holding ~(version + 10000 * date), then
 * the same 13 bytes as 7.x bytes 3..15.
 */
#include <stdio.h>
#include <string.h>

#include "qs.h"
#include "qs_render.h"

/* Apply one size nibble from TARGET_INFO.  0 means "not configured" on the
 * target (e.g. no memory pools): the size is kept. */
static void ti_size(struct qs_dec *d, struct qs_sizes *sz, char letter, unsigned v, size_t idx)
{
	if (v == 0)
		return;
	if (qs_set_size(sz, letter, v) != 0)
		qs_diag(d, SONDE_D_MALFORMED, idx, 1,
			"Invalid size %u for -%c in Trg-Info, size kept", v, letter);
}

static void add_u(struct qs_dec *d, enum sonde_arg_type t, const char *name, uint64_t v)
{
	struct sonde_arg *a = qs_arg(d, t, name);
	if (a)
		a->v.u = v;
}

void qs_decode_target_info(struct qs_dec *d, const struct qs_frame *f)
{
	const uint8_t *p = f->data;
	int v8 = f->len >= 1 && (p[0] & 0x03) == 0x02;
	size_t need = v8 ? 18 : 16;
	if (f->len < need) {
		qs_diag(d, SONDE_D_MALFORMED, 2 + f->len, need - f->len,
			"%zu more bytes needed in Rec=QS_TARGET_INFO", need - f->len);
		return;
	}
	int reset, big_endian;
	unsigned version, framework = 0;
	uint32_t qp_date = 0;
	const uint8_t *c; /* the 13 bytes common to both layouts */
	if (v8) {
		reset = (p[0] >> 6) & 1;
		big_endian = (p[0] >> 7) & 1;
		framework = (p[0] >> 2) & 3;
		uint32_t t = ~((uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 |
			       (uint32_t)p[4] << 24);
		version = t % 10000u;
		qp_date = t / 10000u;
		c = p + 5;
	} else {
		reset = p[0] != 0;
		unsigned v = (unsigned)p[1] | (unsigned)p[2] << 8;
		big_endian = (v >> 15) & 1;
		version = v & 0x7FFFu;
		c = p + 3;
	}

	/* The configuration QSPY compares with the previous one: everything but
	 * the reset marker and the QF limits (c[5], c[6]); a mismatch counts
	 * only when the previous one had a build year (QSPY's "not the first
	 * target info"). */
	uint8_t cfg[18];
	memcpy(cfg, p, need);
	cfg[0] = v8 ? (uint8_t)(p[0] & ~0x40u) : 0;
	cfg[need - 13 + 5] = cfg[need - 13 + 6] = 0;
	int changed = d->have_ti && d->ti[d->ti_len - 1] != 0 &&
		      (d->ti_len != need || memcmp(d->ti, cfg, need) != 0);
	memcpy(d->ti, cfg, need);
	d->ti_len = need;
	d->have_ti = 1;

	size_t base = 2 + (size_t)(c - p); /* frame index of c[0], for offsets */
	struct qs_sizes sz = d->sz;
	ti_size(d, &sz, 'S', c[0] & 0x0F, base);
	ti_size(d, &sz, 'E', c[0] >> 4, base);
	ti_size(d, &sz, 'Q', c[1] & 0x0F, base + 1);
	ti_size(d, &sz, 'C', c[1] >> 4, base + 1);
	ti_size(d, &sz, 'B', c[2] & 0x0F, base + 2);
	ti_size(d, &sz, 'P', c[2] >> 4, base + 2);
	ti_size(d, &sz, 'O', c[3] & 0x0F, base + 3);
	ti_size(d, &sz, 'F', c[3] >> 4, base + 3);
	ti_size(d, &sz, 'T', c[4], base + 4);
	qs_use_sizes(d, &sz);
	d->version = version;
	d->session->version = version;
	d->session->big_endian = big_endian;
	d->session->addr_size = sz.obj;

	/* build time: c[7..12] = sec, min, hour, day, month, year % 100 */
	snprintf(d->build, sizeof(d->build), "%02u%02u%02u_%02u%02u%02u", c[12] % 100u, c[11] % 100u,
		 c[10] % 100u, c[9] % 100u, c[8] % 100u, c[7] % 100u);

	struct qs_line *l = &d->line;
	const char *tag = reset ? "Trg-RST" : "Trg-Info";
	qs_line_end(l, qs_put_prefix(l->buf, 0, 0));
	qs_line_printf(l, "%-8s ", tag);
	size_t text_at = l->len;
	qs_line_printf(l, "QP-Ver=%u,Build=%s", version, d->build);

	add_u(d, SONDE_A_U16, "qp_version", version);
	add_u(d, SONDE_A_BOOL, "reset", (uint64_t)reset);
	add_u(d, SONDE_A_BOOL, "big_endian", (uint64_t)big_endian);
	add_u(d, SONDE_A_U8, "ts_size", sz.ts);
	add_u(d, SONDE_A_U8, "obj_size", sz.obj);
	add_u(d, SONDE_A_U8, "fun_size", sz.fun);
	add_u(d, SONDE_A_U8, "sig_size", sz.sig);
	add_u(d, SONDE_A_U8, "evt_size", sz.evt);
	add_u(d, SONDE_A_U8, "eqc_size", sz.eqc);
	add_u(d, SONDE_A_U8, "mpc_size", sz.mpc);
	add_u(d, SONDE_A_U8, "mps_size", sz.mps);
	add_u(d, SONDE_A_U8, "tec_size", sz.tec);
	add_u(d, SONDE_A_U8, "max_active", c[5]);
	add_u(d, SONDE_A_U8, "max_epool", c[6] & 0x0Fu);
	add_u(d, SONDE_A_U8, "max_tick_rate", c[6] >> 4);
	struct sonde_arg *a = qs_arg(d, SONDE_A_STR, "build");
	if (a) {
		a->v.mem.p = (const uint8_t *)d->build;
		a->v.mem.n = strlen(d->build);
	}
	if (v8) {
		add_u(d, SONDE_A_U32, "qp_date", qp_date);
		add_u(d, SONDE_A_U8, "framework", framework);
	}

	struct sonde_event ev = { .kind = SONDE_EV_INFO };
	qs_set_ts(d, &ev, 0, 0);
	ev.rec_name = tag;
	ev.text = l->buf + text_at;
	ev.args = d->args;
	ev.nargs = d->nargs;
	/* with bytes left over QSPY prints the error instead of the line */
	if (f->len == need)
		ev.native = l->buf;
	else
		ev.flags |= SONDE_EVF_MALFORMED;
	qs_emit(d, &ev);
	if (f->len > need)
		qs_diag(d, SONDE_D_MALFORMED, 2 + need, f->len - need,
			"%zu bytes unused in Rec=QS_TARGET_INFO", f->len - need);
	/* after the line, as QSPY prints them */
	if (changed)
		qs_diag(d, SONDE_D_OTHER, 0, 0, "Target info mismatch (dictionaries discarded)");
	if (changed || reset || d->dic_text)
		qs_reset_dicts(d); /* QSPY reads its -d file again after every target info */
}
