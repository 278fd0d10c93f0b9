/*
 * test_live_pipe.c -- the driver's incremental interface used by `sonde
 * live` (sonde_pipe_begin / feed / end, core/pipe.h): decoding a stream fed
 * one byte at a time, or in uneven chunks, gives exactly the output of
 * sonde_pipe_run over the same bytes; the probe decides from a head; a bad
 * protocol is a usage error; a rejoin (a reconnected link) reaches the
 * decoder.
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

/* A protocol-version-2 stream; starts[i] is where frame i starts. */
static size_t starts[400];

static size_t make_stream(uint8_t *out)
{
	static const uint8_t info[18] = { 2, 2, 4, 0, 0, 0, 0x40, 0x42, 0x0F, 0, 0, 0x10, 0, 0, 0x78, 0x56, 0x34, 0x12 };
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
	uint8_t delta = 0; /* the record right after a TIME_SYNC has its time */
	for (int i = 0; i < 300; i++) {
		size_t n = 0;
		if (i % 2 == 0)
			d[n++] = 5;
		d[n++] = delta; /* a 1-byte timestamp field: 0x7D needs escaping */
		starts[i] = k;
		k += hdlc_encode(seq++, i % 2 ? SONDE_REC_ISR_EXIT : SONDE_REC_ISR_ENTER, d, n, out + k);
		t += 0x7D;
		delta = 0x7D;
		if (seq == 0xFF) {
			uint32_t since = 0x7D; /* the previous record was 0x7D ticks ago */
			memcpy(d, &t, 8);
			memcpy(d + 8, &since, 4);
			k += hdlc_encode(seq++, SONDE_REC_TIME_SYNC, d, 12, out + k);
			delta = 0;
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
	sonde_pipe_init(&p, NULL, sonde_decoders);
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
		sonde_pipe_init(&p, NULL, sonde_decoders);
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
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "nosuch", NULL, 0), SONDE_EXIT_USAGE);
	sonde_pipe_destroy(&p);
	static const uint8_t noise[64] = { 1, 2, 3 };
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "auto", noise, sizeof(noise)), SONDE_EXIT_USAGE);
	assert_int_equal(p.bytes, sizeof(noise));
	sonde_pipe_destroy(&p);
	/* nothing arrived at all: decoded (to nothing) by the sonde decoder */
	sonde_pipe_init(&p, NULL, sonde_decoders);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "auto", NULL, 0), 0);
	assert_string_equal(p.dec->name, "sonde");
	assert_int_equal(sonde_pipe_end(&p), SONDE_EXIT_OK);
	sonde_pipe_destroy(&p);
}

/* The link breaks between records 99 and 103 and comes back: 3 records
 * lost on the link (the decoder counts the gap across the rejoin so), none
 * unexplained, and the records after the rejoin, held until the next
 * TIME_SYNC, get exact times.  Before begin, a rejoin does nothing. */
static void test_rejoin(void **state)
{
	(void)state;
	static uint8_t s[16384];
	size_t n = make_stream(s);
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, NULL, sonde_decoders);
	sonde_pipe_rejoin(&p);
	assert_int_equal(sonde_pipe_add_sink(&p, sonde_sink_find("jsonl"), out), 0);
	assert_int_equal(sonde_pipe_begin(&p, "<test>", "sonde", s, starts[100]), 0);
	sonde_pipe_rejoin(&p);
	sonde_pipe_feed(&p, s + starts[103], n - starts[103]);
	assert_int_equal(sonde_pipe_end(&p), SONDE_EXIT_STREAM);
	assert_int_equal(p.session.lost_link, 3);
	assert_int_equal(p.session.lost_unexplained, 0);
	assert_int_equal(p.diags[SONDE_D_SEQ_GAP], 1);
	assert_int_equal(p.diags[SONDE_D_TIME], 0);
	sonde_pipe_destroy(&p);
	fclose(out);
	assert_null(strstr(buf, "\"estimated\":true"));
	assert_non_null(strstr(buf, "\"seq\":107,\"ts\":1012875,")); /* record 103: 1000000 + 103 * 0x7D */
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_begin_errors),
		cmocka_unit_test(test_rejoin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
