/*
 * pipe_hint.c -- the hint after a stream decoded with the wrong protocol:
 * `sonde decode --proto qs` on a Sonde capture decodes every frame into
 * nonsense and a diagnostic, and nothing says why.  When the protocol was
 * named (not probed), errors hit at least one frame in SONDE_HINT_FRAMES,
 * and the probes of `--proto auto` (sonde_pipe_choose) reject the named
 * protocol and pick another one by their usual rule, the user is told
 * which (docs/cli.md, "Protocol detection").  The probes see the first
 * SONDE_PROBE_BYTES of the input, kept by sonde_pipe_feed.  Sequence gaps
 * and estimated times are losses, not a wrong reading: they are left out
 * of the count.
 */
#include <inttypes.h>
#include <stdio.h>

#include "pipe.h"

int sonde_pipe_hint(const struct sonde_pipe *p, char *out, size_t cap)
{
	if (!p->proto_named || !p->dec || p->nhead == 0)
		return 0;
	uint64_t failed = p->ndiags - p->diags[SONDE_D_SEQ_GAP] - p->diags[SONDE_D_TIME];
	uint64_t frames = p->session.frames;
	if (failed == 0 || failed * SONDE_HINT_FRAMES < frames)
		return 0;
	if (p->dec->probe && p->dec->probe(p->head, p->nhead) >= SONDE_PROBE_MIN_SCORE)
		return 0; /* it does look like the named protocol: a damaged stream */
	char why[512];
	const struct sonde_decoder_ops *d = sonde_pipe_choose(p->decoders, "auto", p->head, p->nhead, why, sizeof(why));
	if (!d || d == p->dec)
		return 0;
	snprintf(out, cap, "%" PRIu64 " error%s in %" PRIu64 " frame%s decoded as %s; the input looks like %s: try --proto %s",
		 failed, failed == 1 ? "" : "s", frames, frames == 1 ? "" : "s", p->dec->name, d->name, d->name);
	return 1;
}
