/*
 * fuzz_stp.c -- libFuzzer harness: MIPI STPv2 streams, through the SyS-T
 * decoder's STP container (packets, per master/channel reassembly,
 * messages) into its systprint-style CSV sink, or through `--proto stp`
 * (channel writes) into JSON lines.
 *
 * Input: byte 0 picks the chunk size, byte 1 the configuration, the rest is
 * the stream.  Configuration bits 0-1: the field nibble order (auto, lsn,
 * msn; 3 = lsn); bit 2: the container auto-detected instead of stp; bit 3:
 * the collateral XML of the reference captures loaded; bit 4: `--proto
 * stp` instead of syst.  Events, output, diagnostics and counters must not
 * depend on the chunking.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char coll[4200];
	static const char *const orders[] = { "stp.order=auto", "stp.order=lsn", "stp.order=msn",
					      "stp.order=lsn" };
	if (!coll[0])
		snprintf(coll, sizeof(coll), "syst.collateral=%s", fuzz_data("collateral.xml"));
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	uint8_t cfg = fuzz_take(&in);
	const char *opts[4];
	size_t k = 0;
	if (cfg & 0x10) {
		opts[k++] = (cfg & 3) == 2 ? "stp.order=msn" : "stp.order=lsn";
		opts[k] = NULL;
		struct fuzz_decode d = { .proto = "stp", .opts = opts, .sink = "jsonl" };
		fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
		return 0;
	}
	opts[k++] = orders[cfg & 3];
	if (!(cfg & 4))
		opts[k++] = "syst.container=stp";
	if (cfg & 8)
		opts[k++] = coll;
	opts[k] = NULL;
	struct fuzz_decode d = { .proto = "syst", .opts = opts, .sink = "syst-csv" };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
