/*
 * bench_tband.c -- a long Tonbandgeraet trace for `make bench` (not a test:
 * it writes a file).
 *
 *     bench_tband IN.bin COPIES > OUT.bin
 *
 * writes IN's frames COPIES times, each copy's timestamps moved after the
 * previous copy's last one, so that the result is one valid trace whose time
 * only goes forward (the reference converter `tband-cli conv` refuses a
 * trace whose time goes back, as plain concatenation would make it).  Each
 * frame is decoded (COBS, the event table of the decoder), its timestamp
 * re-encoded, and the frame COBS-encoded again; frames without a timestamp
 * (metadata) are copied as they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/varint.h"
#include "proto/tband/tband_cobs.h"
#include "proto/tband/tband_wire.h"

/* COBS-encode p[0..n) into out (room for n + n / 254 + 2), 0x00 appended;
 * returns the bytes written. */
static size_t cobs_encode(const uint8_t *p, size_t n, uint8_t *out)
{
	size_t o = 1, code_at = 0;
	uint8_t code = 1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == 0) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
			continue;
		}
		out[o++] = p[i];
		if (++code == 0xFF && i + 1 < n) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
		}
	}
	out[code_at] = code;
	out[o++] = 0;
	return o;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_tband IN.bin COPIES > OUT.bin\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	long copies = strtol(argv[2], NULL, 10);
	if (!f || copies <= 0) {
		fprintf(stderr, "bench_tband: cannot read %s or bad count\n", argv[1]);
		return 2;
	}
	static uint8_t in[1 << 24];
	size_t n = fread(in, 1, sizeof(in), f);
	fclose(f);

	static uint8_t dec[8192], re[8192 + 16], enc[2 * 8192 + 16];
	uint64_t shift = 0, last_ts = 0;
	for (long c = 0; c < copies; c++) {
		size_t start = 0;
		for (size_t i = 0; i < n; i++) {
			if (in[i] != 0)
				continue;
			size_t len = i - start;
			const uint8_t *raw = in + start;
			start = i + 1;
			struct tband_rec rec;
			long dn = len && len <= sizeof(dec) ? tband_cobs_decode(raw, len, dec, NULL) : -1;
			if (dn <= 0 || tband_parse(dec, (size_t)dn, TBAND_MODE_FREERTOS, &rec) != TBAND_OK ||
			    rec.desc->meta) {
				fwrite(raw, 1, len + 1, stdout); /* as it is, delimiter included */
				continue;
			}
			/* id, then the timestamp's varlen: replace it */
			size_t ts_end = 1;
			while (ts_end < (size_t)dn && (dec[ts_end] & 0x80))
				ts_end++;
			ts_end++;
			uint64_t ts = rec.ts + shift;
			if (ts > last_ts)
				last_ts = ts;
			re[0] = dec[0];
			size_t k = 1 + varint_put(re + 1, ts);
			memcpy(re + k, dec + ts_end, (size_t)dn - ts_end);
			k += (size_t)dn - ts_end;
			fwrite(enc, 1, cobs_encode(re, k, enc), stdout);
		}
		shift = last_ts + 1;
	}
	return ferror(stdout) ? 1 : 0;
}
