/*
 * test_tband_probe.c -- --proto auto: the tband probe recognises the real
 * tband traces, and never claims the other protocols' real captures (QS,
 * SyS-T), Sonde's HDLC frames (docs/protocol.md) or random bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pipeline.h"
#include "sonde_proto.h"

extern const struct sonde_decoder_ops sonde_decoder_tband;

/* The first 4 KiB of a test data file, as --proto auto would see them. */
static size_t head_of(const char *rel, uint8_t *buf, size_t cap)
{
	const char *td = getenv("SONDE_TESTDATA");
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", td && *td ? td : SONDE_TESTDATA, rel);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static int probe_file(const char *rel)
{
	static uint8_t buf[4096];
	size_t n = head_of(rel, buf, sizeof(buf));

	return sonde_decoder_tband.probe(buf, n);
}

static void test_recognises_tband_traces(void **state)
{
	(void)state;
	assert_true(probe_file("tband/repo_baremetal_integration_simtarget.bin") >= 75);
	assert_true(probe_file("tband/bm_snapshot_rich.bin") >= 75);
	assert_true(probe_file("tband/repo_examples_POSIX_FreeRTOS_log.bin") >= 75);
	/* two frames are not enough to be sure */
	assert_int_equal(sonde_decoder_tband.probe((const uint8_t *)"\x03\x02\x01\x00"
						   "\x02\x03\x05ISR0\x00", 12), 40);
}

static void test_rejects_other_protocols(void **state)
{
	static const char *const files[] = {
		"qs/dpp_posix-qv_x86.bin", "qs/defer_posix-qv_x64.bin",
		"qs/qsfmt_user_formats_x86.bin", "syst/mix_64.bin", "syst/mix_32len.bin",
		"syst/lenonly_32.bin", "syst/lenonly_32.raw.bin",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (probe_file(files[i]) != 0)
			fail_msg("%s probed as tband (%d)", files[i], probe_file(files[i]));
	assert_int_equal(sonde_decoder_tband.probe(NULL, 0), 0);
}

static uint32_t rng_state = 1;

static uint32_t rng(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

/* Sonde frames as docs/protocol.md §1 defines them (SEQ ID DATA CHK, 0x7D
 * escapes, 0x7E flag), starting at any sequence number, with random
 * payloads: never tband, from the stream's start or joined mid-way. */
static void test_rejects_sonde_hdlc(void **state)
{
	static uint8_t buf[4096];

	(void)state;
	/* the documented worked example, and EMPTY as the first frame */
	assert_int_equal(sonde_decoder_tband.probe((const uint8_t *)"\x7D\x5E\x7D\x5D\x7D\x5D"
						   "\x08\x01\x7D\x5E\x7E", 11), 0);
	assert_int_equal(sonde_decoder_tband.probe((const uint8_t *)"\x00\x00\xFF\x7E", 4), 0);
	for (int round = 0; round < 500; round++) {
		size_t n = 0;
		uint8_t seq = (uint8_t)rng();

		while (n < sizeof(buf) - 600) {
			uint8_t fr[300];
			size_t len = 0, dlen = rng() % 24;
			unsigned sum = 0;

			fr[len++] = seq++;
			fr[len++] = (uint8_t)(rng() % 0x80);
			for (size_t i = 0; i < dlen; i++)
				fr[len++] = rng() % 3 ? (uint8_t)(rng() % 4) : (uint8_t)rng();
			for (size_t i = 0; i < len; i++)
				sum += fr[i];
			fr[len++] = (uint8_t)~sum;
			for (size_t i = 0; i < len; i++) {
				if (fr[i] == SONDE_FLAG || fr[i] == SONDE_ESC) {
					buf[n++] = SONDE_ESC;
					buf[n++] = fr[i] ^ SONDE_ESC_XOR;
				} else {
					buf[n++] = fr[i];
				}
			}
			buf[n++] = SONDE_FLAG;
		}
		for (size_t skip = 0; skip < 40; skip += 7) {
			int p = sonde_decoder_tband.probe(buf + skip, n - skip);

			if (p >= 60)
				fail_msg("Sonde HDLC stream (round %d, +%zu) probed as tband (%d)",
					 round, skip, p);
		}
	}
}

static void test_rejects_random_bytes(void **state)
{
	static uint8_t buf[1024];

	(void)state;
	for (int round = 0; round < 2000; round++) {
		unsigned zero_every = 2 + rng() % 30;
		int p;

		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = rng() % zero_every == 0 ? 0 : (uint8_t)rng();
		p = sonde_decoder_tband.probe(buf, sizeof(buf));
		if (p >= 60)
			fail_msg("random bytes (round %d) probed as tband (%d)", round, p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recognises_tband_traces),
		cmocka_unit_test(test_rejects_other_protocols),
		cmocka_unit_test(test_rejects_sonde_hdlc),
		cmocka_unit_test(test_rejects_random_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
