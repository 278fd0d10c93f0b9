/*
 * sonde_state.c -- the parts of the Sonde decoder's state that both of its
 * sides change: diagnostics (with the offset of a byte inside the frame
 * being processed), a target reset, and the protocol version in use.
 */
#include <stdarg.h>
#include <stdio.h>

#include "sonde_dec.h"
#include "sonde_proto.h"

static void vdiag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
		  const char *fmt, va_list ap)
{
	char msg[320];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	struct sonde_diag g = { code, offset, frame, count, msg };
	if (d->out.diag)
		d->out.diag(d->out.ctx, &g);
}

void sdec_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
	       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, code, offset, frame, count, fmt, ap);
	va_end(ap);
}

void sdec_diag_at(struct sdec *d, enum sonde_diag_code code, size_t idx, uint64_t count, const char *fmt, ...)
{
	const struct sdec_frame *f = d->cur;
	va_list ap;
	va_start(ap, fmt);
	vdiag(d, code, hdlc_offset_of(f->offset, f->esc, f->nesc, idx), f->frame, count, fmt, ap);
	va_end(ap);
}

void sdec_target_reset(struct sdec *d)
{
	sdict_clear(&d->dict);
	d->ses->names_gen = d->dict.gen;
	d->dict_full_reported = 0;
	sstk_reset(&d->stk);
	srtos_reset(&d->rtos);
	d->T = 0;
	d->tflags = 0;
	d->t_known = 0;
	d->ses->lost_unexplained += d->pending_gap;
	d->pending_gap = 0;
	d->drops_base_valid = 1; /* totals count from sonde_init() */
	d->base_over = d->base_ref = 0;
	d->base_resets = 0;
}

static const char *variant(const struct sdec *d)
{
	switch (d->met) {
	case 1u << 1:
		return "v1";
	case 1u << 2:
		return "v2";
	case 1u << 1 | 1u << 2:
		return "v1 and v2";
	default:
		return d->assumed == 1 ? "v1 (no TARGET_INFO: -o version=1)" : "v2 (no TARGET_INFO: assumed)";
	}
}

void sdec_set_version(struct sdec *d, unsigned version, int from_info)
{
	d->version = version;
	if (from_info)
		d->met |= 1u << version;
	d->ses->version = version;
	d->ses->variant = variant(d);
	srec_set_lengths(d);
}
