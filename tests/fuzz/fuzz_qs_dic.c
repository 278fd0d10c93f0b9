/*
 * fuzz_qs_dic.c -- libFuzzer harness: QSPY dictionary files (-o qs.dic=FILE,
 * proto/qs/qs_dicfile.c) and the QS decoder using what they define.
 *
 * Input: the dictionary file's text, a NUL byte, then a QS stream decoded
 * with that dictionary into the qspy sink (seeds: the dpp capture's .dic and
 * the start of that capture without its TARGET_INFO, so names resolve).  The
 * file reaches the decoder by name, as on the command line: an in-memory
 * file (memfd).
 */
#include <string.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t dic_len = nul ? (size_t)(nul - data) : size;
	char opt[128];
	snprintf(opt, sizeof(opt), "qs.dic=%s", fuzz_memfile(data, dic_len));
	const char *opts[] = { opt, NULL };
	struct fuzz_decode d = { .proto = "qs", .opts = opts, .sink = "qspy" };
	struct fuzz_result r;
	size_t skip = nul ? dic_len + 1 : size;
	fuzz_decode_run(&d, data + skip, size - skip, &r);
	fuzz_result_free(&r);
	return 0;
}
