/*
 * sonde_state.c -- the parts of the Sonde decoder's state that both of its
 * sides change: diagnostics (with the offset of a byte inside the frame
 * being processed) and the protocol version in use.  It calls no other
 * file of the decoder (they call it): what a target reset clears is
 * sonde_records.c's, which handles the TARGET_INFO that says so.
 */
#include <stdarg.h>
#include <stdio.h>

#include "sonde_dec.h"
#include "sonde_proto.h"

void sdec_diag(struct sdec *d, enum sonde_diag_code code, uint64_t offset, uint64_t frame, uint64_t count,
	       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sonde_vdiagf(&d->out, code, offset, frame, count, fmt, ap);
	va_end(ap);
}

void sdec_diag_at(struct sdec *d, enum sonde_diag_code code, size_t idx, uint64_t count, const char *fmt, ...)
{
	const struct sdec_frame *f = d->cur;
	va_list ap;
	va_start(ap, fmt);
	sonde_vdiagf(&d->out, code, hdlc_offset_of(f->offset, f->esc, f->nesc, idx), f->frame, count, fmt, ap);
	va_end(ap);
}

/* The versions met, for people: "v3", "v1 and v3", "v1, v2 and v3", or
 * the one assumed. */
static const char *variant(const struct sdec *d)
{
	static const char *const met[8] = { NULL, NULL, "v1", NULL, "v2", NULL, "v1 and v2", NULL };
	static const char *const met3[8] = { "v3", NULL, "v1 and v3", NULL, "v2 and v3", NULL, "v1, v2 and v3", NULL };
	static const char *const assumed[4] = { "", "v1 (no TARGET_INFO: -o version=1)",
						"v2 (no TARGET_INFO: -o version=2)", "v3 (no TARGET_INFO: assumed)" };
	unsigned m = d->met & 7u;
	const char *v = d->met & (1u << 3) ? met3[m] : met[m];
	return v ? v : assumed[d->assumed <= 3 ? d->assumed : 3];
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
