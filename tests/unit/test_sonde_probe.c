/*
 * test_sonde_probe.c -- the Sonde decoder's probe (for --proto auto): sure
 * of its own streams in both protocol versions, including ones joined
 * mid-way; zero on the foreign
 * captures of the test data (QS shares the framing and the checksum) and
 * on noise; and the registry's choice built on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/pipe.h"
#include "test_sonde_helpers.h"

static int probe_buf(const uint8_t *b, size_t n)
{
	return sonde_decoder_sonde.probe(b, n < SONDE_PROBE_BYTES ? n : SONDE_PROBE_BYTES);
}

static const unsigned V1 = 1, V2 = 2;
#define VERSION (*(const unsigned *)*state)

static void stream(struct tstream *s, int with_session, unsigned version)
{
	ts_init_v(s, 0, version);
	if (with_session)
		ts_session(s, 1000, 4);
	ts_dict(s, SONDE_DICT_ISR, 1, "isr");
	ts_sync(s, 5, TS_UNKNOWN);
	for (int i = 0; i < 40; i++) {
		uint8_t o = (uint8_t)i;
		ts_timed(s, i % 2 ? SONDE_REC_ISR_EXIT : SONDE_REC_ISR_ENTER, 5 + i, &o, i % 2 ? 0 : 1);
		struct tbuf p = { 0 };
		tb_u8(&p, SONDE_ARG_U32);
		tb_u32(&p, 0x7E7D0000u + (uint32_t)i);
		ts_timed_b(s, 0x40, 6 + i, &p);
		tb_free(&p);
	}
}

static void test_own_streams(void **state)
{
	struct tstream s;
	stream(&s, 1, VERSION);
	assert_int_equal(probe_buf(s.wire.p, s.wire.n), 100);
	/* joined mid-way: no TARGET_INFO, a partial first frame */
	assert_true(probe_buf(s.wire.p + s.starts[7] + 3, s.wire.n - s.starts[7] - 3) >= 80);
	tb_free(&s.wire);
	stream(&s, 0, VERSION);
	assert_true(probe_buf(s.wire.p, s.wire.n) >= 80);
	assert_true(probe_buf(s.wire.p, s.starts[2]) < SONDE_PROBE_MIN_SCORE); /* two frames: too little */
	tb_free(&s.wire);
}

static void test_noise_and_empty(void **state)
{
	(void)state;
	assert_int_equal(sonde_decoder_sonde.probe(NULL, 0), 0);
	uint8_t b[4096];
	uint64_t rs = 3;
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)t_rand(&rs);
	assert_true(probe_buf(b, sizeof(b)) < SONDE_PROBE_MIN_SCORE);
	memset(b, 0x7E, sizeof(b));
	assert_int_equal(probe_buf(b, sizeof(b)), 0);
}

static void probe_file(const char *name, int max)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", SONDE_TESTDATA, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("missing test data %s", path);
	uint8_t b[SONDE_PROBE_BYTES];
	size_t n = fread(b, 1, sizeof(b), f);
	fclose(f);
	int score = probe_buf(b, n);
	if (score > max)
		fail_msg("%s: score %d > %d", name, score, max);
}

static void test_foreign_captures(void **state)
{
	(void)state;
	probe_file("qs/dpp_posix-qv_x86.bin", 5);
	probe_file("qs/defer_posix-qv_x64.bin", 5);
	probe_file("qs/qsfmt_user_formats_x86.bin", 5);
	probe_file("syst/mix_64.bin", 5);
	probe_file("syst/mix_32len.bin", 5);
	probe_file("tband/bm_snapshot_rich.bin", 5);
	probe_file("tband/repo_examples_POSIX_FreeRTOS_log.bin", 5);
}

static void test_registry_choice(void **state)
{
	(void)state;
	struct tstream s;
	stream(&s, 1, 2);
	char why[512];
	const struct sonde_decoder_ops *d = sonde_pipe_choose(sonde_decoders, "auto", s.wire.p, s.wire.n, why, sizeof(why));
	assert_non_null(d);
	assert_string_equal(d->name, "sonde");
	d = sonde_pipe_choose(sonde_decoders, "sonde", NULL, 0, why, sizeof(why));
	assert_ptr_equal(d, &sonde_decoder_sonde);
	d = sonde_pipe_choose(sonde_decoders, "nosuch", NULL, 0, why, sizeof(why));
	assert_null(d);
	assert_non_null(strstr(why, "unknown protocol 'nosuch' (known: "));
	assert_non_null(strstr(why, " sonde"));
	uint8_t zeros[64] = { 0 };
	d = sonde_pipe_choose(sonde_decoders, NULL, zeros, sizeof(zeros), why, sizeof(why));
	assert_null(d);
	assert_non_null(strstr(why, "cannot tell the protocol"));
	assert_non_null(strstr(why, "sonde 0"));
	assert_non_null(strstr(why, "use --proto NAME"));
	d = sonde_pipe_choose(sonde_decoders, "auto", NULL, 0, why, sizeof(why)); /* empty input */
	assert_ptr_equal(d, &sonde_decoder_sonde);
	tb_free(&s.wire);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_own_streams, (void *)&V2),
		cmocka_unit_test_prestate(test_own_streams, (void *)&V1),
		cmocka_unit_test(test_noise_and_empty),
		cmocka_unit_test(test_foreign_captures),
		cmocka_unit_test(test_registry_choice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
