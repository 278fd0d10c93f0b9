/*
 * fuzz_syst.c -- libFuzzer harness: the MIPI SyS-T decoder (registry name
 * "syst") into its native systprint-style CSV sink.
 *
 * Input: byte 0 picks the chunk size, byte 1 the configuration, the rest is
 * the stream.  The configuration picks the container (auto, len = u32
 * length-prefixed, raw concatenation, hex = systprint "SYS-T RAW DATA:"
 * lines), whether the collateral XML of the reference captures
 * (data/collateral.xml) is loaded, and whether a GUID is given for short
 * messages.  Events, output, diagnostics and counters must not depend on the
 * chunking.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char coll[4200];
	static const char *const containers[] = { "syst.container=auto", "syst.container=len",
						  "syst.container=raw", "syst.container=hex" };
	if (!coll[0])
		snprintf(coll, sizeof(coll), "syst.collateral=%s", fuzz_data("collateral.xml"));
	struct fuzz_in in = { data, size };
	size_t chunk = fuzz_chunk_of(fuzz_take(&in));
	uint8_t cfg = fuzz_take(&in);
	const char *opts[4];
	size_t k = 0;
	opts[k++] = containers[cfg & 3];
	if (!(cfg & 4))
		opts[k++] = coll;
	if (cfg & 8)
		opts[k++] = "syst.guid={494E5443-8A9C-4014-A65A-2F36A36D96E4}";
	opts[k] = NULL;
	struct fuzz_decode d = { .proto = "syst", .opts = opts, .sink = "syst-csv" };
	fuzz_decode_check_chunks(&d, in.p, in.n, chunk);
	return 0;
}
