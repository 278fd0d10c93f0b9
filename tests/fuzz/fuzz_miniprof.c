/*
 * fuzz_miniprof.c -- libFuzzer harness: MiniProfiler device responses
 * through the host's response parser (proto/miniprof/mp_parser.c) and the
 * decoder (registry name "miniprof"), its events digested (fuzz_util.c).
 *
 * Input: byte 0 picks the chunk size, byte 1 the configuration, the rest is
 * what the device sent.  The configuration picks the byte orders the
 * protocol leaves open (header AA 55 or 55 AA, CRC little- or big-endian),
 * the reorder window of the calls and the records' time unit.  Events,
 * diagnostics and counters must not depend on the chunking (the parser
 * promises the same packets and reports for any split, mp_parser.h).
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const windows[] = { NULL, "miniprof.window=1", "miniprof.window=3",
					       "miniprof.window=1000" };
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	uint8_t cfg = fuzz_take(&in);
	const char *opts[5];
	size_t k = 0;
	if (cfg & 1)
		opts[k++] = "miniprof.header=55aa";
	if (cfg & 2)
		opts[k++] = "miniprof.crc=be";
	if (cfg & 4)
		opts[k++] = "miniprof.ts_freq=1";
	if (windows[(cfg >> 3) & 3])
		opts[k++] = windows[(cfg >> 3) & 3];
	opts[k] = NULL;
	struct fuzz_decode d = { .proto = "miniprof", .opts = opts, .sink = NULL };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
