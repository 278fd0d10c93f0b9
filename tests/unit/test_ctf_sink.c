/*
 * test_ctf_sink.c -- the CTF sink (sink_ctf.c, ctf_stream.c, ctf_meta.c) at
 * the byte level: the packets of a stream (magic, sizes, begin/end times,
 * discarded events, sequence numbers, core), the clock of the metadata (rate
 * and the session's origin as a negative offset), times that go back or are
 * missing, target drops between packets, and what the sink does with the
 * directory it is given.  babeltrace2 reads real exports in
 * tests/e2e/test_ctf_export.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline.h"
#include "sink_run.h"
#include "sinks/ctf_meta.h"

extern const struct sonde_sink_ops sonde_sink_ctf;

struct tdir {
	char path[64];
};

static void tdir_make(struct tdir *d)
{
	strcpy(d->path, "/tmp/sonde_test_ctf_XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

static char *file_of(const struct tdir *d, const char *name, size_t *len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	return sink_run_read(path, len);
}

static void put_file(const struct tdir *d, const char *name, const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void tdir_remove(const struct tdir *d)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->path);
	assert_int_equal(system(cmd), 0);
}

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

struct packet {
	uint64_t size, content, begin, end, discarded, seq;
	uint32_t cpu;
	const uint8_t *events; /* the first event */
};

/* The packets of a stream file. */
static int packets(const uint8_t *b, size_t n, struct packet *out, int max)
{
	int k = 0;
	for (size_t at = 0; at < n; k++) {
		const uint8_t *p = b + at;
		assert_true(k < max);
		assert_int_equal(le(p, 4), CTF_MAGIC);
		assert_int_equal(le(p + 4, 4), 0); /* stream class 0 */
		out[k] = (struct packet){ le(p + 8, 8), le(p + 16, 8), le(p + 24, 8), le(p + 32, 8),
					  le(p + 40, 8), le(p + 48, 8), (uint32_t)le(p + 56, 4), p + CTF_PACKET_PREFIX };
		assert_int_equal(out[k].size % 8, 0);
		assert_int_equal(out[k].size, out[k].content);
		at += out[k].size / 8;
		assert_true(at <= n);
	}
	return k;
}

static void *open_at(const struct tdir *d, const char *const *opts)
{
	void *s = sonde_sink_ctf.create_at(d->path, opts);
	assert_non_null(s);
	return s;
}

static void put(void *s, const struct sonde_session *ss, struct sonde_event e)
{
	sonde_sink_ctf.event(s, &e, ss);
}

static void test_packets_and_clock(void **state)
{
	struct tdir d;
	struct sonde_session ss = { .proto = "sonde", .ts_freq = 1000000, .have_origin = 1, .origin = 12345678 };
	struct sonde_arg arg = { .type = SONDE_A_U32, .name = "n", .v.u = 7 };
	struct sonde_diag dg = { SONDE_D_SEQ_GAP, 99, 9, 2, "2 frames missing" };
	struct packet pk[8];
	size_t n;

	(void)state;
	tdir_make(&d);
	void *s = open_at(&d, NULL);
	struct sonde_event info = sink_ev(SONDE_EV_INFO, 0, 0, NULL);
	info.ts_flags = 0; /* before the first time */
	put(s, &ss, info);
	put(s, &ss, sink_ev(SONDE_EV_ISR_ENTER, 12345678, 3, "IRQ"));
	put(s, &ss, sink_ev(SONDE_EV_ISR_EXIT, 12345600, 3, "IRQ")); /* goes back */
	struct sonde_event drops = sink_ev(SONDE_EV_DROPS, 12345700, 0, NULL);
	drops.value = 3;  /* overwritten */
	drops.obj2 = 2;   /* refused */
	put(s, &ss, drops);
	struct sonde_event log = sink_ev(SONDE_EV_LOG, 12345800, 0, NULL);
	log.text = "hello";
	log.level = 3;
	log.nargs = 1;
	log.args = &arg;
	put(s, &ss, log);
	drops.ts = 12345900;
	put(s, &ss, drops); /* the same totals: no loss, no new packet */
	sonde_sink_ctf.diag(s, &dg, &ss);
	assert_int_equal(sonde_sink_ctf.finish(s, &ss), 0);
	sonde_sink_ctf.destroy(s);

	char *meta = file_of(&d, "metadata", NULL);
	assert_non_null(meta);
	assert_memory_equal(meta, "/* CTF 1.8 */", 13);
	/* the clock counts from the first record: -12.345678 s = -13 s + 654322 us */
	assert_non_null(strstr(meta, "\tfreq = 1000000;\n\toffset_s = -13;\n\toffset = 654322;\n"));
	assert_non_null(strstr(meta, "name = \"isr_enter\";"));
	assert_non_null(strstr(meta, "name = \"diagnostic\";"));
	assert_non_null(strstr(meta, "records = 6;"));
	free(meta);

	uint8_t *b = (uint8_t *)file_of(&d, "stream_0", &n);
	assert_non_null(b);
	assert_int_equal(packets(b, n, pk, 8), 3);
	/* 1: INFO, ISR_ENTER, ISR_EXIT; the untimed INFO took the first time,
	 * the exit that went back the time before it */
	assert_int_equal(pk[0].seq, 0);
	assert_int_equal(pk[0].cpu, 0);
	assert_int_equal(pk[0].discarded, 0);
	assert_int_equal(pk[0].begin, 12345678);
	assert_int_equal(pk[0].end, 12345678);
	assert_int_equal(le(pk[0].events, 2), SONDE_EV_INFO);
	assert_int_equal(le(pk[0].events + 2, 8), 12345678);
	/* 2: the DROPS, with the 5 lost records before it */
	assert_int_equal(pk[1].seq, 1);
	assert_int_equal(pk[1].discarded, 5);
	assert_int_equal(pk[1].begin, 12345700);
	assert_int_equal(pk[1].end, 12345700);
	assert_int_equal(le(pk[1].events, 2), SONDE_EV_DROPS);
	/* 3: LOG, the second DROPS, the diagnostic at the time before it */
	assert_int_equal(pk[2].seq, 2);
	assert_int_equal(pk[2].discarded, 5);
	assert_int_equal(pk[2].begin, 12345800);
	assert_int_equal(pk[2].end, 12345900);
	free(b);
	tdir_remove(&d);
}

/* A loss reported by the very first record: an empty packet goes before it,
 * as readers count discarded events from the second packet on. */
static void test_first_record_drops(void **state)
{
	struct tdir d;
	struct sonde_session ss = { .proto = "sonde", .ts_freq = 0 };
	struct packet pk[4];
	size_t n;

	(void)state;
	tdir_make(&d);
	void *s = open_at(&d, NULL);
	struct sonde_event drops = sink_ev(SONDE_EV_DROPS, 500, 0, NULL);
	drops.core = 2;
	drops.obj2 = 9;
	put(s, &ss, drops);
	assert_int_equal(sonde_sink_ctf.finish(s, &ss), 0);
	sonde_sink_ctf.destroy(s);
	uint8_t *b = (uint8_t *)file_of(&d, "stream_2", &n);
	assert_non_null(b);
	assert_int_equal(packets(b, n, pk, 4), 2);
	assert_int_equal(pk[0].size, CTF_PACKET_PREFIX * 8); /* no events */
	assert_int_equal(pk[0].discarded, 0);
	assert_int_equal(pk[0].cpu, 2);
	assert_int_equal(pk[1].discarded, 9);
	free(b);
	/* no rate: 1 tick shown as 1 ns */
	char *meta = file_of(&d, "metadata", NULL);
	assert_non_null(strstr(meta, "rate unknown"));
	assert_non_null(strstr(meta, "\tfreq = 1000000000;\n\toffset_s = 0;\n\toffset = 0;\n"));
	free(meta);
	tdir_remove(&d);
}

static void test_directory(void **state)
{
	struct tdir d;
	struct sonde_session ss = { .proto = "sonde", .ts_freq = 1000 };
	size_t n;

	(void)state;
	tdir_make(&d);
	/* an earlier export (with a stream this one will not have) is replaced */
	put_file(&d, "metadata", "/* CTF 1.8 */\n/* written by sonde (docs/exports.md) */\n");
	put_file(&d, "stream_7", "old");
	void *s = open_at(&d, NULL);
	assert_null(file_of(&d, "stream_7", NULL));
	assert_int_equal(sonde_sink_ctf.finish(s, &ss), 0); /* nothing decoded */
	sonde_sink_ctf.destroy(s);
	char *b = file_of(&d, "stream_0", &n); /* an empty trace still has a stream */
	assert_non_null(b);
	assert_int_equal(n, 0);
	free(b);
	/* anything else in it: left alone */
	put_file(&d, "notes.txt", "mine");
	errno = 0;
	assert_null(sonde_sink_ctf.create_at(d.path, NULL));
	assert_int_equal(errno, EEXIST);
	assert_non_null(b = file_of(&d, "metadata", NULL));
	free(b);
	tdir_remove(&d);
	/* a file where the directory should be */
	put_file(&(struct tdir){ "/tmp" }, "sonde_test_ctf_file", "x");
	errno = 0;
	assert_null(sonde_sink_ctf.create_at("/tmp/sonde_test_ctf_file", NULL));
	assert_int_equal(errno, ENOTDIR);
	unlink("/tmp/sonde_test_ctf_file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packets_and_clock),
		cmocka_unit_test(test_first_record_drops),
		cmocka_unit_test(test_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
