/*
 * test_core_merge.c -- the k-way merge of several inputs (core/merge.h):
 * time order, ties in input order, events without a time and diagnostics
 * keeping their place in their own stream, waiting for an input that has
 * nothing queued, the queue limits with their diagnostic, deep copies that
 * outlive the decoder's buffers, clock conversion and the core override.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/merge.h"

/* ---- what the merge releases, recorded -------------------------------- */

#define MAXREC 4096

struct rec {
	size_t input;
	int is_diag;
	uint64_t ts;
	uint32_t ts_flags;
	uint32_t core;
	uint64_t offset;
	uint64_t freq;
	enum sonde_diag_code code;
	char text[160];
};

static struct rec recs[MAXREC];
static size_t nrecs;
static struct rec raised[16];
static size_t nraised;
static char notes[4][256];
static size_t nnotes;

static void on_event(void *ctx, size_t input, const struct sonde_event *ev, uint64_t freq)
{
	(void)ctx;
	assert_true(nrecs < MAXREC);
	struct rec *r = &recs[nrecs++];
	memset(r, 0, sizeof(*r));
	r->input = input;
	r->ts = ev->ts;
	r->ts_flags = ev->ts_flags;
	r->core = ev->core;
	r->offset = ev->offset;
	r->freq = freq;
	if (ev->text)
		snprintf(r->text, sizeof(r->text), "%s", ev->text);
}

static void on_diag(void *ctx, size_t input, const struct sonde_diag *d)
{
	(void)ctx;
	assert_true(nrecs < MAXREC);
	struct rec *r = &recs[nrecs++];
	memset(r, 0, sizeof(*r));
	r->input = input;
	r->is_diag = 1;
	r->offset = d->offset;
	r->code = d->code;
	snprintf(r->text, sizeof(r->text), "%s", d->msg ? d->msg : "");
}

static void on_raised(void *ctx, size_t input, const struct sonde_diag *d)
{
	(void)ctx;
	assert_true(nraised < 16);
	struct rec *r = &raised[nraised++];
	memset(r, 0, sizeof(*r));
	r->input = input;
	r->offset = d->offset;
	r->code = d->code;
	snprintf(r->text, sizeof(r->text), "%s", d->msg);
}

static void on_note(void *ctx, const char *msg)
{
	(void)ctx;
	assert_true(nnotes < 4);
	snprintf(notes[nnotes++], sizeof(notes[0]), "%s", msg);
}

static const char *const names[] = { "a.bin", "b.bin", "c.bin" };

static struct sonde_merge *new_merge(size_t n, size_t max_events, size_t max_bytes)
{
	struct sonde_merge_out out = { on_event, on_diag, on_raised, on_note, NULL };
	struct sonde_merge_config cfg = { max_events, max_bytes };
	nrecs = nraised = nnotes = 0;
	struct sonde_merge *m = sonde_merge_new(n, names, &cfg, &out);
	assert_non_null(m);
	return m;
}

/* A timed event (ts) or, for ts == NO_TS, one without a time; text names it. */
#define NO_TS UINT64_MAX

static uint64_t push(struct sonde_merge *m, size_t i, uint64_t ts, const char *text)
{
	static uint64_t offset;
	struct sonde_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.kind = SONDE_EV_MARK;
	ev.ts = ts == NO_TS ? 0 : ts;
	ev.ts_flags = ts == NO_TS ? 0 : SONDE_TS_VALID;
	ev.text = text;
	ev.offset = ++offset;
	sonde_merge_event(m, i, &ev, 1000);
	return offset;
}

static void push_diag(struct sonde_merge *m, size_t i, uint64_t offset, const char *msg)
{
	struct sonde_diag d = { SONDE_D_BAD_CHECKSUM, offset, 3, 7, msg };
	sonde_merge_diag(m, i, &d);
}

/* The texts of what was released, space-separated. */
static const char *released(void)
{
	static char buf[4096];
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nrecs && k < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s%s", i ? " " : "", recs[i].is_diag ? "!" : "",
				      recs[i].text);
	return buf;
}

/* ---- order ---------------------------------------------------------------- */

static void test_time_order(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	assert_true(sonde_merge_needs(m, 0));
	assert_true(sonde_merge_needs(m, 1));
	push(m, 0, 10, "a10");
	push(m, 0, 30, "a30");
	push(m, 0, 50, "a50");
	/* b has nothing yet: it might still bring an earlier event */
	assert_int_equal(nrecs, 0);
	assert_false(sonde_merge_needs(m, 0));
	assert_true(sonde_merge_needs(m, 1));
	push(m, 1, 20, "b20");
	/* a10, then b20 < a30; then b is empty again and holds the merge up */
	assert_string_equal(released(), "a10 b20");
	assert_true(sonde_merge_needs(m, 1));
	push(m, 1, 40, "b40");
	assert_string_equal(released(), "a10 b20 a30 b40");
	sonde_merge_end(m, 1);
	assert_false(sonde_merge_needs(m, 1));
	assert_string_equal(released(), "a10 b20 a30 b40 a50");
	/* a has not ended and nothing queued: it holds the merge up again */
	assert_true(sonde_merge_needs(m, 0));
	sonde_merge_end(m, 0);
	assert_string_equal(released(), "a10 b20 a30 b40 a50");
	for (size_t i = 1; i < nrecs; i++)
		assert_true(recs[i - 1].ts <= recs[i].ts);
	sonde_merge_free(m);
}

static void test_ties_in_input_order(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(3, 0, 0);
	/* pushed in the "wrong" order: c first, then b, then a */
	push(m, 2, 5, "c5");
	push(m, 2, 5, "c5'");
	push(m, 1, 5, "b5");
	push(m, 0, 7, "a7");
	push(m, 0, 5, "a5"); /* a's own order stays: a7 before a5 */
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	sonde_merge_end(m, 2);
	/* heads a7, b5, c5: b5 (smallest, b before c), then c5 c5' (a7 is
	 * still larger), then a7 and a5 in a's order */
	assert_string_equal(released(), "b5 c5 c5' a7 a5");
	sonde_merge_free(m);

	m = new_merge(3, 0, 0);
	push(m, 2, 5, "c5");
	push(m, 1, 5, "b5");
	push(m, 0, 5, "a5");
	push(m, 0, 6, "a6");
	push(m, 1, 6, "b6");
	push(m, 2, 6, "c6");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	sonde_merge_end(m, 2);
	assert_string_equal(released(), "a5 b5 c5 a6 b6 c6");
	sonde_merge_free(m);
}

static void test_untimed_keep_their_place(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	/* what comes before the first time goes out at once, without waiting */
	push(m, 1, NO_TS, "b-info");
	push(m, 1, NO_TS, "b-dict");
	assert_string_equal(released(), "b-info b-dict");
	push(m, 1, 100, "b100");
	push(m, 1, NO_TS, "b-after100");
	push_diag(m, 1, 77, "b-diag");
	push(m, 1, 300, "b300");
	assert_string_equal(released(), "b-info b-dict");
	push(m, 0, NO_TS, "a-info");
	assert_string_equal(released(), "b-info b-dict a-info");
	push(m, 0, 200, "a200");
	/* b100 goes; what follows it untimed goes right after it */
	assert_string_equal(released(), "b-info b-dict a-info b100 b-after100 !b-diag a200");
	push(m, 0, NO_TS, "a-after200");
	assert_string_equal(released(), "b-info b-dict a-info b100 b-after100 !b-diag a200 a-after200");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(),
			    "b-info b-dict a-info b100 b-after100 !b-diag a200 a-after200 b300");
	assert_int_equal(recs[5].input, 1);
	assert_int_equal(recs[5].offset, 77);
	assert_int_equal(recs[5].code, SONDE_D_BAD_CHECKSUM);
	sonde_merge_free(m);
}

/* An input that has ended holds nothing up; one without any event neither
 * once it has ended. */
static void test_end_and_empty_input(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(3, 0, 0);
	push(m, 0, 3, "a3");
	push(m, 2, 1, "c1");
	sonde_merge_end(m, 1); /* b: empty file */
	assert_string_equal(released(), "c1");
	sonde_merge_end(m, 2);
	assert_string_equal(released(), "c1 a3");
	push(m, 0, 2, "a2"); /* time goes back within a: still its order */
	assert_string_equal(released(), "c1 a3 a2");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 0); /* twice: harmless */
	assert_int_equal(nrecs, 3);
	sonde_merge_free(m);
}

/* ---- limits ------------------------------------------------------------ */

static void test_queue_limit(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 4, 0);
	push(m, 0, 10, "a10");
	push(m, 0, 20, "a20");
	push(m, 0, 30, "a30");
	push(m, 0, 40, "a40");
	assert_int_equal(nrecs, 0);
	assert_int_equal(nraised, 0);
	uint64_t off = push(m, 0, 50, "a50"); /* the fifth: a10 must go without waiting for b */
	assert_int_equal(nraised, 1);
	assert_int_equal(raised[0].input, 0);
	assert_int_equal(raised[0].code, SONDE_D_OTHER);
	assert_int_equal(raised[0].offset, off); /* the event that did not fit */
	assert_non_null(strstr(raised[0].text, "merge: queue full (4 events, "));
	assert_non_null(strstr(raised[0].text, " bytes) while waiting for b.bin: events are released without "
					       "waiting; the merged order is not guaranteed from here"));
	/* the diagnostic is in the stream too, where the order breaks */
	assert_int_equal(nrecs, 2);
	assert_true(recs[0].is_diag);
	assert_int_equal(recs[0].input, 0);
	assert_string_equal(recs[0].text, raised[0].text);
	assert_string_equal(recs[1].text, "a10");
	push(m, 0, 60, "a60");
	push(m, 0, 70, "a70");
	assert_int_equal(nraised, 1); /* once per episode */
	assert_int_equal(nrecs, 4);
	assert_string_equal(recs[3].text, "a30");
	struct sonde_merge_stats st;
	sonde_merge_get_stats(m, 0, &st);
	assert_int_equal(st.forced, 3);
	assert_int_equal(st.overflows, 1);
	assert_int_equal(st.peak, 4);
	/* b comes with an earlier time: it goes out late (the order is broken
	 * as said), then the merge is back to normal */
	push(m, 1, 15, "b15");
	assert_string_equal(recs[4].text, "b15");
	push(m, 1, 65, "b65");
	assert_string_equal(recs[5].text, "a40");
	assert_string_equal(recs[8].text, "b65");
	assert_int_equal(nrecs, 9); /* a70 waits for b again */
	/* b held the merge up and came: back to normal, so a second
	 * overflow is a new episode, reported again */
	for (int i = 0; i < 4; i++)
		push(m, 0, (uint64_t)(80 + i), "a8x");
	assert_int_equal(nraised, 2);
	assert_int_equal(raised[1].input, 0);
	sonde_merge_end(m, 1);
	assert_int_equal(nrecs, 15); /* the diagnostic, a70 (forced), a80..a83 */
	for (int i = 0; i < 6; i++)
		push(m, 0, (uint64_t)(90 + i), "a9x"); /* b has ended: nothing waits */
	assert_int_equal(nraised, 2);
	assert_int_equal(nrecs, 21);
	sonde_merge_end(m, 0);
	assert_int_equal(nrecs, 21);
	sonde_merge_get_stats(m, 0, &st);
	assert_int_equal(st.overflows, 2);
	assert_int_equal(st.forced, 4);
	sonde_merge_free(m);
}

/* The second of the pushes above checks the offset: the diagnostic names
 * the event that did not fit. */
static void test_queue_limit_offset(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 2, 0);
	struct sonde_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.ts_flags = SONDE_TS_VALID;
	for (uint64_t k = 0; k < 3; k++) {
		ev.ts = 100 + k;
		ev.offset = 1000 + k;
		ev.frame = 40 + k;
		sonde_merge_event(m, 1, &ev, 0);
	}
	assert_int_equal(nraised, 1);
	assert_int_equal(raised[0].input, 1);
	assert_int_equal(raised[0].offset, 1002);
	assert_non_null(strstr(raised[0].text, "waiting for a.bin:"));
	sonde_merge_free(m);
}

static void test_byte_limit(void **state)
{
	(void)state;
	static char big[3000];
	memset(big, 'x', sizeof(big) - 1);
	struct sonde_merge *m = new_merge(2, 0, 8000);
	push(m, 0, 1, big);
	push(m, 0, 2, big);
	assert_int_equal(nraised, 0);
	push(m, 0, 3, big); /* about 9 KB: over the 8000-byte limit */
	assert_int_equal(nraised, 1);
	assert_int_equal(nrecs, 2); /* the diagnostic and the oldest */
	assert_int_equal(strlen(recs[1].text), sizeof(recs[1].text) - 1);
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_int_equal(nrecs, 4);
	sonde_merge_free(m);
}

/* ---- copies -------------------------------------------------------------- */

static int seen_ok;

static void check_event(void *ctx, size_t input, const struct sonde_event *ev, uint64_t freq)
{
	(void)ctx;
	(void)freq;
	assert_int_equal(input, 1);
	assert_string_equal(ev->rec_name, "REC");
	assert_string_equal(ev->obj_name, "obj");
	assert_null(ev->obj2_name);
	assert_string_equal(ev->text, "hello");
	assert_string_equal(ev->native, "{\"n\":1}");
	assert_int_equal(ev->nargs, 3);
	assert_int_equal(ev->args[0].type, SONDE_A_STR);
	assert_string_equal(ev->args[0].name, "s");
	assert_int_equal(ev->args[0].v.mem.n, 4);
	assert_memory_equal(ev->args[0].v.mem.p, "ab\0c", 4);
	assert_int_equal(ev->args[1].type, SONDE_A_MEM);
	assert_memory_equal(ev->args[1].v.mem.p, "\xde\xad\x00\xef", 4);
	assert_null(ev->args[2].name);
	assert_string_equal(ev->args[2].resolved, "IDLE");
	assert_int_equal(ev->args[2].v.u, 4);
	assert_int_equal(ev->kind, SONDE_EV_RECORD);
	assert_int_equal(ev->ts, 42);
	assert_int_equal(ev->core, 1); /* set_core */
	assert_int_equal(ev->rec_id, 0x41);
	assert_int_equal(ev->obj, 9);
	assert_int_equal(ev->value, -5);
	assert_int_equal(ev->offset, 1234);
	assert_int_equal(ev->frame, 56);
	assert_int_equal(ev->seq, 7);
	seen_ok++;
}

static void test_deep_copy_fields(void **state)
{
	(void)state;
	struct sonde_merge_out out = { check_event, NULL, NULL, NULL, NULL };
	struct sonde_merge *m = sonde_merge_new(2, names, NULL, &out);
	char buf[256];
	uint8_t bytes[8];
	struct sonde_arg args[3];
	struct sonde_event ev;

	seen_ok = 0;
	sonde_merge_set_core(m, 1, 1);
	for (int round = 0; round < 3; round++) {
		memset(args, 0, sizeof(args));
		memset(&ev, 0, sizeof(ev));
		char *p = buf;
		ev.rec_name = strcpy(p, "REC"), p += 4;
		ev.obj_name = strcpy(p, "obj"), p += 4;
		ev.text = strcpy(p, "hello"), p += 6;
		ev.native = strcpy(p, "{\"n\":1}"), p += 8;
		args[0].name = strcpy(p, "s"), p += 2;
		memcpy(p, "ab\0c", 4);
		args[0].type = SONDE_A_STR;
		args[0].v.mem.p = (const uint8_t *)p;
		args[0].v.mem.n = 4;
		p += 4;
		args[2].resolved = strcpy(p, "IDLE"), p += 5;
		memcpy(bytes, "\xde\xad\x00\xef", 4);
		args[1].type = SONDE_A_MEM;
		args[1].v.mem.p = bytes;
		args[1].v.mem.n = 4;
		args[2].type = SONDE_A_OBJ;
		args[2].v.u = 4;
		ev.kind = SONDE_EV_RECORD;
		ev.ts = 42;
		ev.ts_flags = SONDE_TS_VALID;
		ev.core = 3;
		ev.rec_id = 0x41;
		ev.obj = 9;
		ev.value = -5;
		ev.args = args;
		ev.nargs = 3;
		ev.offset = 1234;
		ev.frame = 56;
		ev.seq = 7;
		sonde_merge_event(m, 1, &ev, 1000); /* input 0 has nothing: queued */
		/* the decoder reuses its buffers */
		memset(buf, 'Z', sizeof(buf));
		memset(bytes, 0x55, sizeof(bytes));
		memset(args, 0xA5, sizeof(args));
		memset(&ev, 0xA5, sizeof(ev));
	}
	assert_int_equal(seen_ok, 0);
	sonde_merge_end(m, 0);
	assert_int_equal(seen_ok, 3);
	sonde_merge_free(m);
}

/* Many events through small queues: chunks are cut, emptied and reused;
 * each copy is intact when it comes out (ASan checks the memory). */
static const char dots[] = "..................................................................."
			   ".................................";

static void event_text(char *buf, size_t len, uint64_t t)
{
	snprintf(buf, len, "%c%05llu-%.*s", (t * 7) % 3 == 0 ? 'b' : 'a', (unsigned long long)t, (int)(t % 100),
		 dots);
}

/* What came out so far is ts expect, expect+1, ... with intact texts. */
static void check_and_forget(uint64_t *expect)
{
	char want[120];
	for (size_t k = 0; k < nrecs; k++) {
		assert_int_equal(recs[k].ts, *expect);
		event_text(want, sizeof(want), *expect);
		assert_string_equal(recs[k].text, want);
		++*expect;
	}
	nrecs = 0;
}

static void test_many_events_through_chunks(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	char text[120];
	uint64_t expect = 0;
	for (uint64_t t = 0; t < 3000; t++) {
		event_text(text, sizeof(text), t);
		push(m, (t * 7) % 3 == 0, t, text);
		memset(text, '#', sizeof(text));
		if (nrecs > MAXREC / 2)
			check_and_forget(&expect);
	}
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	check_and_forget(&expect);
	assert_int_equal(expect, 3000);
	struct sonde_merge_stats st;
	sonde_merge_get_stats(m, 0, &st);
	assert_int_equal(st.forced, 0);
	assert_int_equal(st.overflows, 0);
	sonde_merge_free(m);
}

/* An event bigger than a chunk gets a chunk of its own. */
static void test_huge_event(void **state)
{
	(void)state;
	size_t n = 200 * 1024;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, 'q', n - 1);
	big[n - 1] = '\0';
	struct sonde_merge *m = new_merge(2, 0, 0);
	push(m, 0, 1, "small");
	push(m, 0, 2, big);
	push(m, 0, 3, "after");
	memset(big, 'r', n - 1);
	sonde_merge_end(m, 1);
	sonde_merge_end(m, 0);
	assert_int_equal(nrecs, 3);
	assert_string_equal(recs[0].text, "small");
	assert_int_equal(recs[1].text[0], 'q');
	assert_string_equal(recs[2].text, "after");
	free(big);
	sonde_merge_free(m);
}

/* ---- clocks and cores --------------------------------------------------- */

static void push_at(struct sonde_merge *m, size_t i, uint64_t ts, uint64_t freq, const char *text)
{
	struct sonde_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.ts_flags = SONDE_TS_VALID;
	ev.text = text;
	sonde_merge_event(m, i, &ev, freq);
}

static void test_clocks_differ(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	push_at(m, 0, 4000, 1000000, "a4ms");   /* 4 ms at 1 MHz */
	push_at(m, 1, 5, 1000, "b5ms");         /* 5 ms at 1 kHz */
	push_at(m, 1, 3, 1000, "b3ms");         /* b's order is kept */
	push_at(m, 0, 4500, 1000000, "a4.5ms");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(), "a4ms a4.5ms b5ms b3ms");
	/* the merged clock is the fastest; b's ticks are converted to it */
	assert_int_equal(sonde_merge_freq(m), 1000000);
	assert_int_equal(recs[2].ts, 5000);
	assert_int_equal(recs[3].ts, 3000);
	for (size_t i = 0; i < nrecs; i++)
		assert_int_equal(recs[i].freq, 1000000);
	assert_int_equal(nnotes, 1);
	assert_string_equal(notes[0],
			    "b.bin: its clock runs at 1000 Hz, the merged clock at 1000000 Hz: its times are converted");
	sonde_merge_free(m);
}

static void test_clocks_agree_or_unknown(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	push_at(m, 0, 7, 0, "a7");
	push_at(m, 1, 5, 0, "b5");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(), "b5 a7");
	assert_int_equal(sonde_merge_freq(m), 0);
	assert_int_equal(recs[0].ts, 5);
	assert_int_equal(nnotes, 0);
	sonde_merge_free(m);

	m = new_merge(2, 0, 0);
	push_at(m, 0, UINT64_MAX - 1, 1000000000, "a");
	push_at(m, 1, UINT64_MAX - 2, 1000000000, "b");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(), "b a");
	assert_int_equal(recs[0].ts, UINT64_MAX - 2); /* unchanged: same clock */
	assert_int_equal(recs[1].ts, UINT64_MAX - 1);
	assert_int_equal(nnotes, 0);
	sonde_merge_free(m);

	/* one input's clock unknown: its ticks are taken as they are */
	m = new_merge(2, 0, 0);
	push_at(m, 0, 30, 1000, "a30");
	push_at(m, 1, 20, 0, "b20");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(), "b20 a30");
	assert_int_equal(recs[0].freq, 1000);
	assert_int_equal(nnotes, 0);
	sonde_merge_free(m);

	/* a conversion that overflows saturates */
	m = new_merge(2, 0, 0);
	push_at(m, 0, 1, 4000000000u, "a");
	push_at(m, 1, UINT64_MAX / 2, 1, "b");
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_string_equal(released(), "a b");
	assert_int_equal(recs[1].ts, UINT64_MAX);
	sonde_merge_free(m);
}

static void test_core_override(void **state)
{
	(void)state;
	struct sonde_merge *m = new_merge(2, 0, 0);
	struct sonde_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.core = 5;
	sonde_merge_set_core(m, 1, 2);
	sonde_merge_event(m, 0, &ev, 0);
	sonde_merge_event(m, 1, &ev, 0);
	sonde_merge_end(m, 0);
	sonde_merge_end(m, 1);
	assert_int_equal(nrecs, 2);
	assert_int_equal(recs[0].core, 5); /* kept */
	assert_int_equal(recs[1].core, 2); /* set */
	sonde_merge_free(m);
}

static void test_bad_counts(void **state)
{
	(void)state;
	struct sonde_merge_out out = { on_event, on_diag, NULL, NULL, NULL };
	assert_null(sonde_merge_new(0, NULL, NULL, &out));
	assert_null(sonde_merge_new(SONDE_MERGE_MAX_INPUTS + 1, NULL, NULL, &out));
	struct sonde_merge *m = sonde_merge_new(SONDE_MERGE_MAX_INPUTS, NULL, NULL, &out);
	assert_non_null(m);
	sonde_merge_free(m);
	sonde_merge_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_ties_in_input_order),
		cmocka_unit_test(test_untimed_keep_their_place),
		cmocka_unit_test(test_end_and_empty_input),
		cmocka_unit_test(test_queue_limit),
		cmocka_unit_test(test_queue_limit_offset),
		cmocka_unit_test(test_byte_limit),
		cmocka_unit_test(test_deep_copy_fields),
		cmocka_unit_test(test_many_events_through_chunks),
		cmocka_unit_test(test_huge_event),
		cmocka_unit_test(test_clocks_differ),
		cmocka_unit_test(test_clocks_agree_or_unknown),
		cmocka_unit_test(test_core_override),
		cmocka_unit_test(test_bad_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
