/*
 * fuzz_qs.c -- libFuzzer harness: the QS (QP/Spy) decoder (registry name
 * "qs") into its native qspy sink.
 *
 * Input: byte 0 picks the chunk size, byte 1 the configuration, the rest is
 * the stream.  Configurations: nothing given (sizes learned from a
 * TARGET_INFO in the stream, or QSPY's defaults without one), the sizes of
 * the 32-bit and of the 64-bit reference captures given up front (a stream
 * joined without its TARGET_INFO), and the dictionary file of the dpp
 * capture (data/dpp_posix-qv_x86.dic) -- each with or without a small
 * record limit.  The seeds hold the captures with and without their
 * TARGET_INFO.  Events, output, diagnostics and counters must not depend
 * on the chunking.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dic[4200];
	static const char *opt_sets[8][12] = {
		{ NULL },
		{ "qs.T=4", "qs.O=4", "qs.F=4", "qs.S=2", "qs.E=2", "qs.Q=2", "qs.P=2", "qs.B=2", "qs.C=4", NULL },
		{ "qs.ts=4", "qs.obj=8", "qs.fun=8", "qs.sig=2", "qs.evt=2", "qs.eqc=2", NULL },
		{ dic, NULL },
		{ "qs.max_record=16", NULL },
		{ "qs.max_record=64", "qs.T=2", "qs.O=2", "qs.F=2", "qs.S=1", "qs.E=1", "qs.Q=1", "qs.P=1",
		  "qs.B=1", "qs.C=1", NULL },
		{ "qs.version=700", "qs.obj=8", "qs.fun=8", "qs.ts_freq=10000000", NULL },
		{ dic, "qs.max_record=40", NULL },
	};
	if (!dic[0])
		snprintf(dic, sizeof(dic), "qs.dic=%s", fuzz_data("dpp_posix-qv_x86.dic"));
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	struct fuzz_decode d = { .proto = "qs", .opts = opt_sets[fuzz_take(&in) % 8], .sink = "qspy" };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
