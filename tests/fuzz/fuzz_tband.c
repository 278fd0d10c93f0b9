/*
 * fuzz_tband.c -- libFuzzer harness: the Tonbandgeraet decoder (registry
 * name "tband") into its native tband-jsonl sink, in both trace modes.
 *
 * Input: byte 0 picks the chunk size, byte 1 the configuration, the rest is
 * the stream (COBS frames ending in 0x00).  The configuration picks the mode
 * (bare-metal: event ids 0x00-0x0B only; free-rtos: also 0x54-0x7F), a core
 * number and a timestamp resolution.  Events, output, diagnostics and
 * counters must not depend on the chunking.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	uint8_t cfg = fuzz_take(&in);
	const char *opts[4];
	size_t k = 0;
	opts[k++] = cfg & 1 ? "tband.mode=bare-metal" : "tband.mode=free-rtos";
	if (cfg & 2)
		opts[k++] = "core=1";
	if (cfg & 4)
		opts[k++] = "tband.ns_per_ts=10";
	opts[k] = NULL;
	struct fuzz_decode d = { .proto = "tband", .opts = opts, .sink = "tband-jsonl" };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
