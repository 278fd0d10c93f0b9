/*
 * tband_diag.c -- the tband decoder's diagnostics: a problem reported at its
 * input offset and frame number (the message is in d->msg).  Below the
 * decoder's other files: it calls none of them.
 */
#include "tband_dec.h"

void tband_diag(struct tband_dec *d, enum sonde_diag_code code,
		uint64_t offset, uint64_t frame, uint64_t count)
{
	sonde_diag_put(&d->out, code, offset, frame, count, d->msg);
}

/* Report an error in the current frame at encoded index 'at'. */
void tband_diag_at(struct tband_dec *d, enum sonde_diag_code code, size_t at)
{
	tband_diag(d, code, d->frame_off + at, d->frame_no, 1);
}
