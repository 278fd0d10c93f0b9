/*
 * bench_sonde.c -- throughput of the Sonde decoder (not a test: it prints
 * figures).  Generates a large, realistic Sonde stream in memory (ISR and
 * function enter/exit pairs, task switches, counters, marks, user records
 * and LOGs with arguments, TIME_SYNCs where the target would write them)
 * and decodes it several times:
 *
 *   decoder        events delivered to a callback that only counts them
 *   decoder+stats  through the pipeline driver with the `sonde stats`
 *                  listener (what `sonde stats` does, minus the file)
 *   decoder+text   ... with the text sink writing to /dev/null
 *
 * and prints MB/s, records/s and the peak RSS.  With --emit MB it writes a
 * stream of that many MB to stdout instead, to feed the CLI
 * (`bench_sonde --emit 2000 | sonde stats -`) and watch its memory stay flat;
 * with --emit-records N a stream of N records (rounded up to a whole scene)
 * in one piece, without the seams of --emit.
 * The stream is in protocol version 2, the target's, unless
 * --proto-version 1 comes first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/stats.h"
#include "core/pipe.h"
#include "framers/framer_hdlc.h"
#include "sources/source.h"
#include "sonde_proto.h"

extern const struct sonde_decoder_ops sonde_decoder_sonde;

/* ---- the generator --------------------------------------------------- */

struct gen {
	uint8_t *buf;
	size_t n, cap;
	uint8_t seq;
	uint64_t t, last;
	uint64_t rng;
	uint64_t records;
	unsigned version;   /* protocol version written */
};

static unsigned version = SONDE_PROTO_VERSION;

static uint32_t rnd(struct gen *g)
{
	g->rng = g->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(g->rng >> 33);
}

static void frame(struct gen *g, uint8_t id, const uint8_t *d, size_t n)
{
	g->n += hdlc_encode(g->seq++, id, d, n, g->buf + g->n);
	g->records++;
}

/* TIME_SYNC at t, since_prev ticks after the previous timed record. */
static void sync(struct gen *g, uint64_t t, uint32_t since_prev)
{
	uint8_t s[SONDE_SYNC_BYTES];
	for (int i = 0; i < 8; i++)
		s[i] = (uint8_t)(t >> (8 * i));
	for (int i = 0; i < 4; i++)
		s[8 + i] = (uint8_t)(since_prev >> (8 * i));
	frame(g, SONDE_REC_TIME_SYNC, s, sizeof(s));
}

static void timed(struct gen *g, uint8_t id, const uint8_t *extra, size_t n)
{
	uint8_t d[64];
	static const uint8_t none[1];
	if (!extra) /* memcpy from NULL is undefined even for 0 bytes (UBSan says so) */
		extra = none;
	g->t += 1 + rnd(g) % 300;
	if (g->t - g->last >= (g->version == 1 ? 65536 : SONDE_TS_LIMIT4) || g->seq == 0) { /* rules 2 and 4 */
		sync(g, g->t, (uint32_t)(g->t - g->last));
		g->last = g->t;
	}
	if (g->version == 1) { /* the low 16 bits of the time first */
		d[0] = (uint8_t)g->t;
		d[1] = (uint8_t)(g->t >> 8);
		memcpy(d + 2, extra, n);
		frame(g, id, d, n + 2);
	} else { /* the fields, then the delta in 1 or 2 bytes (it is below 0x4000) */
		uint32_t delta = (uint32_t)(g->t - g->last);
		memcpy(d, extra, n);
		if (delta < SONDE_TS_LIMIT1) {
			d[n++] = (uint8_t)delta;
		} else {
			d[n++] = (uint8_t)delta;
			d[n++] = (uint8_t)((delta | SONDE_TS_TAG2) >> 8);
		}
		frame(g, id, d, n);
	}
	g->last = g->t;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void dict(struct gen *g, uint8_t kind, uint32_t id, const char *name)
{
	uint8_t d[300];
	d[0] = kind;
	put32(d + 1, id);
	size_t l = strlen(name) + 1;
	memcpy(d + 5, name, l);
	frame(g, SONDE_REC_DICT, d, 5 + l);
}

/* One "scene": 16 records, about 8.4 bytes each on the wire (version 1: 8.9). */
static void scene(struct gen *g)
{
	uint8_t d[32];
	uint8_t isr = (uint8_t)(rnd(g) % 4), task = (uint8_t)(1 + rnd(g) % 3);
	d[0] = isr;
	timed(g, SONDE_REC_ISR_ENTER, d, 1);
	timed(g, SONDE_REC_ISR_EXIT, NULL, 0);
	d[0] = task;
	d[1] = SONDE_TASK_PREEMPTED;
	timed(g, SONDE_REC_TASK_OUT, d, 2);
	timed(g, SONDE_REC_TASK_IN, d, 1);
	for (int i = 0; i < 3; i++) {
		uint16_t fn = (uint16_t)(rnd(g) % 8);
		d[0] = (uint8_t)fn;
		d[1] = (uint8_t)(fn >> 8);
		timed(g, SONDE_REC_FUNC_ENTER, d, 2);
		timed(g, SONDE_REC_FUNC_EXIT, NULL, 0);
	}
	d[0] = 9;
	put32(d + 1, rnd(g) % 1000);
	timed(g, SONDE_REC_COUNTER, d, 5);
	d[0] = 7;
	timed(g, SONDE_REC_MARK, d, 1);
	d[0] = SONDE_ARG_U32;
	put32(d + 1, rnd(g));
	d[5] = SONDE_ARG_U32;
	put32(d + 6, rnd(g));
	timed(g, 0x40, d, 10);
	d[0] = SONDE_LVL_INFO;
	d[1] = 1;
	d[2] = 0;
	d[3] = SONDE_ARG_U32;
	put32(d + 4, rnd(g) % 5000);
	d[8] = SONDE_ARG_I32;
	put32(d + 9, (uint32_t)-(int32_t)(rnd(g) % 100));
	timed(g, SONDE_REC_LOG, d, 13);
}

/* A stream of up to `bytes` bytes or `records` records, whichever comes
 * first (whole scenes: a few records more at most). */
static void generate(struct gen *g, size_t bytes, uint64_t records)
{
	memset(g, 0, sizeof(*g));
	g->cap = bytes + 4096;
	g->buf = malloc(g->cap);
	if (!g->buf) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	g->rng = 1;
	g->version = version;
	uint8_t info[18] = { (uint8_t)version, SONDE_INFO_F_RESET, 4, 0, 0, version == 1 ? SONDE_TS_BYTES_V1 : 0,
			     0x40, 0x42, 0x0F, 0, 0, 0x10, 0, 0, 1, 2, 3, 4 };
	frame(g, SONDE_REC_EMPTY, NULL, 0);
	frame(g, SONDE_REC_TARGET_INFO, info, sizeof(info));
	dict(g, SONDE_DICT_ISR, 0, "SysTick");
	dict(g, SONDE_DICT_ISR, 1, "UART0_RX");
	dict(g, SONDE_DICT_TASK, 1, "main");
	dict(g, SONDE_DICT_TASK, 2, "net");
	dict(g, SONDE_DICT_FUNCTION, 3, "parse_packet");
	dict(g, SONDE_DICT_RECORD, 0x40, "Packet");
	dict(g, SONDE_DICT_FORMAT, 1, "rx %u bytes, rssi %d dBm");
	dict(g, SONDE_DICT_COUNTER, 9, "queue");
	dict(g, SONDE_DICT_MARKER, 7, "frame");
	g->last = 0;
	sync(g, 0, SONDE_SYNC_SINCE_UNKNOWN); /* no timed record before it */
	while (g->n + 1024 < bytes && g->records < records)
		scene(g);
}

/* ---- measuring --------------------------------------------------------- */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t counted;
static void count_event(void *ctx, const struct sonde_event *ev) { (void)ctx; (void)ev; counted++; }
static void count_diag(void *ctx, const struct sonde_diag *d) { (void)ctx; (void)d; }

/* Bare decoder, fed in 64 KiB chunks as the pipeline does. */
static void run_decoder(const struct gen *g)
{
	struct sonde_session ses = { .addr_size = 4, .buffer_mode = -1 };
	struct sonde_out out = { .event = count_event, .diag = count_diag, .ctx = NULL, .session = &ses };
	void *d = sonde_decoder_sonde.create(&out, NULL);
	for (size_t i = 0; i < g->n; i += SONDE_PIPE_CHUNK) {
		size_t k = g->n - i < SONDE_PIPE_CHUNK ? g->n - i : SONDE_PIPE_CHUNK;
		sonde_decoder_sonde.feed(d, g->buf + i, k);
	}
	sonde_decoder_sonde.finish(d);
	sonde_decoder_sonde.destroy(d);
}

/* A source over the memory buffer, so the pipeline runs without disk I/O. */
struct mem_src {
	struct sonde_source src;
	const struct gen *g;
	size_t pos;
};

static ssize_t mem_read(struct sonde_source *s, void *buf, size_t n)
{
	struct mem_src *m = (struct mem_src *)s;
	size_t k = m->g->n - m->pos < n ? m->g->n - m->pos : n;
	memcpy(buf, m->g->buf + m->pos, k);
	m->pos += k;
	return (ssize_t)k;
}

static void run_pipe(const struct gen *g, const char *sink)
{
	struct mem_src m = { { "<memory>", mem_read, NULL, -1, NULL }, g, 0 };
	struct sonde_pipe p;
	struct sonde_stats st;
	FILE *null = fopen("/dev/null", "w");
	sonde_pipe_init(&p, NULL, sonde_decoders);
	p.diag_out = stderr;
	sonde_stats_init(&st);
	struct sonde_listener l = sonde_stats_listener(&st);
	sonde_pipe_add_listener(&p, &l);
	if (sink)
		sonde_pipe_add_sink(&p, sonde_sink_find(sink), null);
	int rc = sonde_pipe_run(&p, &m.src, "sonde");
	if (rc != 0)
		fprintf(stderr, "bench: pipeline status %d\n", rc);
	counted += st.records;
	sonde_pipe_destroy(&p);
	sonde_stats_free(&st);
	fclose(null);
}

/* Best and mean of reps runs: the machine may be shared, and the best run
 * is the one least disturbed. */
static void measure(const char *what, const struct gen *g, int reps, void (*fn)(const struct gen *, const char *),
		    const char *arg)
{
	double best = 1e30, total = 0;
	uint64_t records = 0;
	for (int i = 0; i < reps; i++) {
		counted = 0;
		double t0 = now();
		fn(g, arg);
		double dt = now() - t0;
		total += dt;
		if (dt < best)
			best = dt;
		records = counted;
	}
	double mb = (double)g->n / 1e6;
	printf("%-14s best %7.1f MB/s %6.2f M records/s   mean %7.1f MB/s  (%d x %.0f MB)\n", what, mb / best,
	       (double)records / best / 1e6, mb * reps / total, reps, mb);
}

static void decoder_only(const struct gen *g, const char *unused)
{
	(void)unused;
	run_decoder(g);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--proto-version") == 0) {
		version = strcmp(argv[2], "1") == 0 ? 1 : SONDE_PROTO_VERSION;
		argv += 2;
		argc -= 2;
	}
	if (argc == 3 && strcmp(argv[1], "--emit") == 0) {
		size_t mb = strtoull(argv[2], NULL, 10);
		struct gen g;
		generate(&g, 64u << 20, UINT64_MAX);
		/* the same 64 MB again and again: sequence and time jump at the
		 * seams (a few diagnostics), which a long capture may well have */
		for (size_t done = 0; done < mb << 20; done += g.n)
			if (fwrite(g.buf, 1, g.n, stdout) != g.n)
				return 1;
		free(g.buf);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--emit-records") == 0) {
		/* one stream without seams, as a long capture of one run would be */
		uint64_t n = strtoull(argv[2], NULL, 10);
		struct gen g;
		generate(&g, (size_t)n * 12 + 8192, n);
		int ok = fwrite(g.buf, 1, g.n, stdout) == g.n;
		free(g.buf);
		return ok ? 0 : 1;
	}
	size_t mb = argc > 1 ? strtoull(argv[1], NULL, 10) : 128;
	struct gen g;
	generate(&g, mb << 20, UINT64_MAX);
	printf("stream: protocol version %u, %zu bytes, %" PRIu64 " records, %.2f bytes/record\n", version, g.n,
	       g.records, (double)g.n / (double)g.records);
	measure("decoder", &g, 5, decoder_only, NULL);
	measure("decoder+stats", &g, 5, run_pipe, NULL);
	measure("decoder+text", &g, 2, run_pipe, "text");
	measure("decoder+jsonl", &g, 2, run_pipe, "jsonl");
	measure("decoder+csv", &g, 2, run_pipe, "csv");
	free(g.buf);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS: %ld KiB (includes the %zu MB stream held in memory)\n", ru.ru_maxrss, mb);
	return 0;
}
