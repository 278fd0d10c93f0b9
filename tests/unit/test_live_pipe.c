/*
 * test_live_pipe.c -- the driver's incremental interface used by `sonde
 * live` (sonde_pipe_begin / feed / end, core/pipe.h): decoding a stream fed
 * one byte at a time, or in uneven chunks, gives exactly the output of
 * sonde_pipe_run over the same bytes; the probe decides from a head; a bad
 * protocol is a usage error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/pipe.h"
#include "framers/framer_hdlc.h"
#include "sonde_proto.h"
#include "sources/source.h"

static size_t make_stream(uint8_t *out)
{
	static const uint8_t info[18] = { 1, 2, 4, 0, 0, 2, 0x40, 0x42, 0x0F, 0, 0, 0x10, 0, 0, 0x78, 0x56, 0x34, 0x12 };
	static const uint8_t dict[] = { 3, 5, 0, 0, 0, 'T', 'I', '~', 'K', 0 };
	size_t k = 0;
	uint8_t seq = 0, d[16];
	k += hdlc_encode(seq++, SONDE_REC_EMPTY, NULL, 0, out + k);
	k += hdlc_encode(seq++, SONDE_REC_TARGET_INFO, info, sizeof(info), out + k);
	k += hdlc_encode(seq++, SONDE_REC_DICT, dict, sizeof(dict), out + k);
	uint64_t t = 1000000;
	memcpy(d, &t, 8); /* little-endian host */
	memset(d + 8, 0xFF, 4); /* since_prev unknown: the first timed record */
	k += hdlc_encode(seq++, SONDE_REC_TIME_SYNC, d, 12, out + k);
	for (int i = 0; i < 300; i++) {
		d[0] = (uint8_t)t;
		d[1] = (uint8_t)(t >> 8);
		d[2] = 5;
		k += hdlc_encode(seq++, i % 2 ? SONDE_REC_ISR_EXIT : SONDE_REC_ISR_ENTER, d, i % 2 ? 2 : 3, out + k);
		t += 0x7D; /* escapes in the timestamps */
		if (seq == 0xFF) {
			uint32_t since = 0x7D; /* the previous record was 0x7D ticks ago */
			memcpy(d, &t, 8);
			memcpy(d + 8, &since, 4);
			k += hdlc_encode(seq++, SONDE_REC_TIME_SYNC, d, 12, out + k);
		}
	}
	return k;
}

static char *run_whole(const uint8_t *s, size_t n, size_t *len)
{
	char path[] = "/tmp/test_live_pipe_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, n), (ssize_t)n);
	close(fd);
	char *buf = NULL;
	FILE *out = open_memstream(&buf, len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL);
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("jsonl"), out), 0);
	struct sonde_source src;
	assert_int_equal(sonde_source_open_file(&src, path), 0);
	assert_int_equal(sonde_pipe_run(&p, &src, "auto"), SONDE_EXIT_OK);
	sonde_pipe_destroy(&p);
	src.close(&src);
	fclose(out);
	unlink(path);
	return buf;
}

static void test_incremental(void **state)
{
	(void)state;
	static uint8_t s[16384];
	size_t n = make_stream(s), whole_len;
	char *whole = run_whole(s, n, &whole_len);
	assert_true(whole_len > 1000);
	static const size_t steps[] = { 1, 2, 7, 64, 4096 };
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char *buf = NULL;
		size_t len;
		FILE *out = open_memstream(&buf, &len);
		struct sonde_pipe p;
		sonde_pipe_init(&p, NULL);
		assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("jsonl"), out), 0);
		/* the head decides the protocol, as `sonde live` does */
		assert_int_equal(sonde_pipe_begin(&p, "<test>", "auto", s, 100), 0);
		assert_string_equal(p.dec->name, "sonde");
		for (size_t k = 100; k < n; k += steps[i]) {
			sonde_pipe_feed(&p, s + k, k + steps[i] <= n ? steps[i] : n - k);
			assert_int_equal(sonde_pipe_flush(&p), 0);
		}
		assert_int_equal(p.bytes, n);
		assert_int_equal(sonde_pipe_end(&p), SONDE_EXIT_OK);
		sonde_pipe_destroy(&p);
		fclose(out);
		assert_int_equal(len, whole_len);
		assert_memory_equal(buf, whole, len);
		free(buf);
	}
	free(whole);
}

static void test_begin_errors(void **state)
{
	(void)state;
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "nosuch", NULL, 0), SONDE_EXIT_USAGE);
	sonde_pipe_destroy(&p);
	static const uint8_t noise[64] = { 1, 2, 3 };
	sonde_pipe_init(&p, NULL);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "auto", noise, sizeof(noise)), SONDE_EXIT_USAGE);
	assert_int_equal(p.bytes, sizeof(noise));
	sonde_pipe_destroy(&p);
	/* nothing arrived at all: decoded (to nothing) by the sonde decoder */
	sonde_pipe_init(&p, NULL);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "auto", NULL, 0), 0);
	assert_string_equal(p.dec->name, "sonde");
	assert_int_equal(sonde_pipe_end(&p), SONDE_EXIT_OK);
	sonde_pipe_destroy(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_begin_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
