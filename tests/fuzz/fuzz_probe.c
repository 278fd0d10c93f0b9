/*
 * fuzz_probe.c -- libFuzzer harness: `--proto auto`, i.e. every registered
 * decoder's probe function and the choice among them
 * (sonde_pipe_choose in core/pipe.c), then the decode with the chosen
 * decoder, as `sonde decode` without --proto does (its events digested,
 * fuzz_util.c).
 *
 * Input: the start of a stream, as is (the probes read its first bytes; no
 * configuration byte in front).  Checked: a probe gives the same score for
 * the same bytes every time, the choice is either a decoder or a reason,
 * and the decode's result does not depend on the chunking (pieces of
 * 1 + size % 61 bytes after the probed head).
 */
#include <string.h>

#include "core/pipe.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < SONDE_PROBE_BYTES ? size : SONDE_PROBE_BYTES;
	for (size_t i = 0; sonde_decoders[i]; i++) {
		const struct sonde_decoder_ops *d = sonde_decoders[i];
		if (d->probe && d->probe(data, head) != d->probe(data, head))
			fuzz_fail("the %s probe scores the same bytes differently", d->name);
	}
	char why[512];
	const struct sonde_decoder_ops *d = sonde_pipe_choose(sonde_decoders, "auto", data, head, why, sizeof(why));
	if (!d && !why[0])
		fuzz_fail("no decoder chosen and no reason given");
	if (d && !sonde_decoder_find(d->name))
		fuzz_fail("chose decoder '%s', which is not registered", d->name);
	struct fuzz_decode dec = { .proto = "auto", .opts = NULL, .sink = NULL };
	fuzz_decode_check_chunks(&dec, data, size, 1 + size % 61);
	return 0;
}
