/*
 * test_miniprof_decoder.c -- the MiniProfiler decoder (`--proto miniprof`)
 * through its sonde_decoder_ops, and its call reordering (mp_calls.c):
 * METADATA, STATUS (with the DROPS of buffer overflows), ACK/NACK onto the
 * event model; completed calls onto FUNC_ENTER/FUNC_EXIT in time order
 * whether records come in completion or entry order; the protocol
 * document's non-nesting example; timer wrap-around; the bounded reorder
 * window and what arrives too late; calls that do not nest; payload errors;
 * options; the probe; and the same events whatever the chunking.
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
#include "proto/miniprof/mp_calls.h"
#include "proto/miniprof/mp_wire.h"
#include "core/msg.h"

extern const struct sonde_decoder_ops sonde_decoder_miniprof;

/* ---- recording ---------------------------------------------------------------------- */

struct ev {
	int is_diag;
	int kind, code;
	uint64_t ts, obj, obj2, offset, frame, count;
	uint32_t ts_flags, flags, rec_id;
	int64_t value;
	char rec_name[32];
	size_t nargs;
	char arg_name[5][24];
	int arg_type[5];
	uint64_t arg_u[5];
	char arg_str[5][20];
	char msg[256];
};

struct log {
	struct ev *e;
	size_t n, cap;
};

static struct ev *log_add(struct log *l)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->e = realloc(l->e, l->cap * sizeof(*l->e));
		assert_non_null(l->e);
	}
	memset(&l->e[l->n], 0, sizeof(l->e[0]));
	return &l->e[l->n++];
}

static void on_event(void *ctx, const struct sonde_event *ev)
{
	struct ev *e = log_add(ctx);

	e->kind = ev->kind;
	e->ts = ev->ts;
	e->ts_flags = ev->ts_flags;
	e->obj = ev->obj;
	e->obj2 = ev->obj2;
	e->value = ev->value;
	e->flags = ev->flags;
	e->rec_id = ev->rec_id;
	e->offset = ev->offset;
	e->frame = ev->frame;
	snprintf(e->rec_name, sizeof(e->rec_name), "%s", ev->rec_name ? ev->rec_name : "");
	e->nargs = ev->nargs;
	for (size_t i = 0; i < ev->nargs && i < 5; i++) {
		snprintf(e->arg_name[i], sizeof(e->arg_name[i]), "%s", ev->args[i].name);
		e->arg_type[i] = ev->args[i].type;
		if (ev->args[i].type == SONDE_A_STR)
			snprintf(e->arg_str[i], sizeof(e->arg_str[i]), "%.*s", (int)ev->args[i].v.mem.n,
				 (const char *)ev->args[i].v.mem.p);
		else
			e->arg_u[i] = ev->args[i].v.u;
	}
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct ev *e = log_add(ctx);

	e->is_diag = 1;
	e->code = d->code;
	e->offset = d->offset;
	e->frame = d->frame;
	e->count = d->count;
	snprintf(e->msg, sizeof(e->msg), "%s", d->msg);
}

static struct sonde_session ses;

/* Decode buf with options (NULL-terminated, may be NULL), fed in chunks of
 * chunk bytes (0: all at once). */
static void decode(struct log *l, const uint8_t *buf, size_t n, const char *const *opts, size_t chunk)
{
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = l, .session = &ses };
	void *d;

	memset(l, 0, sizeof(*l));
	memset(&ses, 0, sizeof(ses));
	d = sonde_decoder_miniprof.create(&out, opts);
	assert_non_null(d);
	for (size_t at = 0; at < n;) {
		size_t c = chunk && chunk < n - at ? chunk : n - at;

		sonde_decoder_miniprof.feed(d, buf + at, c);
		at += c;
	}
	sonde_decoder_miniprof.finish(d);
	sonde_decoder_miniprof.destroy(d);
}

static void log_free(struct log *l)
{
	free(l->e);
	l->e = NULL;
}

/* ---- streams ------------------------------------------------------------------------ */

struct stream {
	uint8_t b[1 << 16];
	size_t n;
};

static struct stream S;

static size_t put_rsp(struct stream *s, unsigned type, const uint8_t *p, size_t n)
{
	size_t at = s->n, k = mp_rsp_encode(s->b + s->n, sizeof(s->b) - s->n, NULL, type, p, n);

	assert_int_not_equal(k, 0);
	s->n += k;
	return at;
}

static size_t put_metadata(struct stream *s, uint32_t timer_hz, const char *fw, size_t fwlen)
{
	uint8_t p[MP_METADATA_LEN] = { 0 };
	struct mp_metadata m = { 168000000u, timer_hz, 0xDEADBEEFu, "", 0, 0 };

	mp_metadata_encode(p, &m);
	memcpy(p + 12, fw, fwlen);
	return put_rsp(s, MP_RSP_METADATA, p, sizeof(p));
}

static size_t put_status(struct stream *s, uint8_t profiling, uint32_t overflows, uint32_t captured, uint8_t usage)
{
	struct mp_status st = { profiling, overflows, captured, usage };
	uint8_t p[MP_STATUS_LEN];

	mp_status_encode(p, &st);
	return put_rsp(s, MP_RSP_STATUS, p, sizeof(p));
}

/* PROFILE_DATA with the given records; count = record_count field. */
static size_t put_records_n(struct stream *s, const struct mp_record *r, size_t n, size_t count)
{
	uint8_t p[3 + 64 * MP_RECORD_LEN];

	assert_true(n <= 64);
	p[0] = 1;
	p[1] = (uint8_t)count;
	p[2] = (uint8_t)(count >> 8);
	for (size_t i = 0; i < n; i++)
		mp_record_encode(p + 3 + i * MP_RECORD_LEN, &r[i]);
	return put_rsp(s, MP_RSP_PROFILE_DATA, p, 3 + n * MP_RECORD_LEN);
}

static size_t put_records(struct stream *s, const struct mp_record *r, size_t n)
{
	return put_records_n(s, r, n, n);
}

/* A call tree: main (0x100) 100..400 calling a (0x200) 110..160, which
 * calls c (0x400) 120..130, and b (0x300) 200..350; then main again
 * 450..500 with no callees.  Completion order and entry order. */
static const struct mp_record tree_completion[] = {
	{ 0x400, 120, 10, 2 }, { 0x200, 110, 50, 1 }, { 0x300, 200, 150, 1 }, { 0x100, 100, 300, 0 },
	{ 0x100, 450, 50, 0 },
};
static const struct mp_record tree_entry[] = {
	{ 0x100, 100, 300, 0 }, { 0x200, 110, 50, 1 }, { 0x400, 120, 10, 2 }, { 0x300, 200, 150, 1 },
	{ 0x100, 450, 50, 0 },
};

struct want_call {
	int kind;
	uint64_t ts;
	uint64_t func;
	int64_t depth;
};

static const struct want_call tree_events[] = {
	{ SONDE_EV_FUNC_ENTER, 100, 0x100, 1 }, { SONDE_EV_FUNC_ENTER, 110, 0x200, 2 },
	{ SONDE_EV_FUNC_ENTER, 120, 0x400, 3 }, { SONDE_EV_FUNC_EXIT, 130, 0x400, 3 },
	{ SONDE_EV_FUNC_EXIT, 160, 0x200, 2 },  { SONDE_EV_FUNC_ENTER, 200, 0x300, 2 },
	{ SONDE_EV_FUNC_EXIT, 350, 0x300, 2 },  { SONDE_EV_FUNC_EXIT, 400, 0x100, 1 },
	{ SONDE_EV_FUNC_ENTER, 450, 0x100, 1 }, { SONDE_EV_FUNC_EXIT, 500, 0x100, 1 },
};

/* The FUNC events of l, from index from, are exactly want[0..n). */
static void expect_calls(const struct log *l, size_t from, const struct want_call *want, size_t n)
{
	size_t k = 0;

	for (size_t i = from; i < l->n; i++) {
		const struct ev *e = &l->e[i];

		if (e->is_diag || (e->kind != SONDE_EV_FUNC_ENTER && e->kind != SONDE_EV_FUNC_EXIT))
			continue;
		assert_true(k < n);
		assert_int_equal(e->kind, want[k].kind);
		assert_int_equal(e->ts, want[k].ts);
		assert_int_equal(e->ts_flags, SONDE_TS_VALID);
		assert_int_equal(e->obj, want[k].func);
		assert_int_equal(e->flags, SONDE_EVF_ADDR);
		assert_int_equal(e->value, want[k].depth);
		assert_int_equal(e->rec_id, MP_RSP_PROFILE_DATA);
		assert_string_equal(e->rec_name, e->kind == SONDE_EV_FUNC_ENTER ? "CALL_ENTER" : "CALL_EXIT");
		k++;
	}
	assert_int_equal(k, n);
}

static size_t count_diags(const struct log *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->e[i].is_diag;
	return n;
}

/* ---- the tests ---------------------------------------------------------------------- */

static void test_metadata_status_ack(void **state)
{
	struct log l;

	(void)state;
	S.n = 0;
	put_metadata(&S, 1000000, "v1.0.0", 6);
	put_rsp(&S, MP_RSP_ACK, NULL, 0);
	put_status(&S, 1, 0, 20, 12);
	put_rsp(&S, MP_RSP_NACK, NULL, 0);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(l.n, 4);
	assert_int_equal(count_diags(&l), 0);

	const struct ev *m = &l.e[0];
	assert_int_equal(m->kind, SONDE_EV_INFO);
	assert_int_equal(m->rec_id, MP_RSP_METADATA);
	assert_string_equal(m->rec_name, "METADATA");
	assert_int_equal(m->ts_flags, 0);
	assert_int_equal(m->offset, 0);
	assert_int_equal(m->frame, 0);
	assert_int_equal(m->nargs, 4);
	assert_string_equal(m->arg_name[0], "mcu_clock_hz");
	assert_int_equal(m->arg_u[0], 168000000);
	assert_string_equal(m->arg_name[1], "timer_freq");
	assert_int_equal(m->arg_u[1], 1000000);
	assert_string_equal(m->arg_name[2], "elf_build_id");
	assert_int_equal(m->arg_type[2], SONDE_A_HEX);
	assert_int_equal(m->arg_u[2], 0xDEADBEEF);
	assert_string_equal(m->arg_name[3], "fw_version");
	assert_int_equal(m->arg_type[3], SONDE_A_STR);
	assert_string_equal(m->arg_str[3], "v1.0.0");

	assert_int_equal(l.e[1].kind, SONDE_EV_RECORD);
	assert_string_equal(l.e[1].rec_name, "ACK");
	assert_int_equal(l.e[1].rec_id, MP_RSP_ACK);
	assert_int_equal(l.e[1].offset, 36);
	assert_int_equal(l.e[1].frame, 1);
	assert_int_equal(l.e[1].nargs, 0);

	const struct ev *s = &l.e[2];
	assert_int_equal(s->kind, SONDE_EV_RECORD);
	assert_string_equal(s->rec_name, "STATUS");
	assert_int_equal(s->nargs, 4);
	assert_string_equal(s->arg_name[0], "is_profiling");
	assert_int_equal(s->arg_type[0], SONDE_A_BOOL);
	assert_int_equal(s->arg_u[0], 1);
	assert_string_equal(s->arg_name[1], "buffer_overflows");
	assert_int_equal(s->arg_u[1], 0);
	assert_string_equal(s->arg_name[2], "records_captured");
	assert_int_equal(s->arg_u[2], 20);
	assert_string_equal(s->arg_name[3], "buffer_usage_percent");
	assert_int_equal(s->arg_u[3], 12);

	assert_string_equal(l.e[3].rec_name, "NACK");
	assert_int_equal(l.e[3].rec_id, MP_RSP_NACK);

	assert_string_equal(ses.proto, "miniprof");
	assert_int_equal(ses.ts_freq, 1000000);
	assert_int_equal(ses.build_id, 0xDEADBEEF);
	assert_int_equal(ses.frames, 4);
	assert_int_equal(ses.drops_refused, 0);
	log_free(&l);
}

static void test_overflows_give_drops(void **state)
{
	struct log l;

	(void)state;
	S.n = 0;
	put_status(&S, 1, 3, 100, 100);
	put_status(&S, 1, 3, 120, 100); /* no change: no DROPS */
	put_status(&S, 1, 5, 140, 100);
	put_status(&S, 0, 2, 0, 0);     /* restarted after RESET_BUFFERS */
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	size_t k = 0;
	uint64_t want_total[] = { 3, 5, 2 }, want_new[] = { 3, 2, 2 };
	for (size_t i = 0; i < l.n; i++) {
		if (l.e[i].kind != SONDE_EV_DROPS)
			continue;
		assert_true(k < 3);
		assert_string_equal(l.e[i].rec_name, "OVERFLOW");
		assert_int_equal(l.e[i].obj2, want_total[k]);
		assert_int_equal(l.e[i].value, 0);
		assert_string_equal(l.e[i].arg_name[0], "new_overflows");
		assert_int_equal(l.e[i].arg_u[0], want_new[k]);
		/* right after its STATUS */
		assert_int_equal(l.e[i - 1].kind, SONDE_EV_RECORD);
		assert_string_equal(l.e[i - 1].rec_name, "STATUS");
		assert_int_equal(l.e[i].offset, l.e[i - 1].offset);
		k++;
	}
	assert_int_equal(k, 3);
	assert_int_equal(ses.drops_refused, 7);
	log_free(&l);
}

static void test_calls_completion_order(void **state)
{
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, tree_completion, 2);
	put_records(&S, tree_completion + 2, 3);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	assert_int_equal(l.n, 10);
	expect_calls(&l, 0, tree_events, 10);
	/* an enter carries the record's duration; events point at their packet */
	assert_int_equal(l.e[0].nargs, 1);
	assert_string_equal(l.e[0].arg_name[0], "duration_us");
	assert_int_equal(l.e[0].arg_u[0], 300);
	assert_int_equal(l.e[0].frame, 1);      /* main came in the 2nd packet */
	assert_int_equal(l.e[1].frame, 0);
	assert_int_equal(l.e[1].offset, 0);
	assert_int_equal(l.e[0].offset, 8 + 3 + 2 * 14);
	assert_int_equal(l.e[3].nargs, 0);      /* exits carry nothing */
	assert_int_equal(ses.version, 1);
	log_free(&l);
}

static void test_calls_entry_order(void **state)
{
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, tree_entry, 5);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	expect_calls(&l, 0, tree_events, 10);
	log_free(&l);
}

/* Calls are released as soon as nothing can precede them any more, not
 * all at the end: after the first main, its tree is out before the second
 * packet is even fed. */
static void test_calls_released_early(void **state)
{
	struct log l;
	struct mp_record more[] = { { 0x100, 600, 10, 0 } };

	(void)state;
	S.n = 0;
	put_records(&S, tree_completion, 5);
	size_t first = S.n;
	put_records(&S, more, 1);
	/* decode only the first packet, without finishing */
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = &l, .session = &ses };
	memset(&l, 0, sizeof(l));
	void *d = sonde_decoder_miniprof.create(&out, NULL);
	sonde_decoder_miniprof.feed(d, S.b, first);
	/* main 100..400 and its callees, and the exits up to 160: the second
	 * main (entry 450) waits for a later entry */
	size_t before = l.n;
	assert_int_equal(before, 6);
	sonde_decoder_miniprof.feed(d, S.b + first, S.n - first);
	sonde_decoder_miniprof.finish(d);
	sonde_decoder_miniprof.destroy(d);
	assert_int_equal(l.n, 12);
	log_free(&l);
}

/* The document's example: a depth-1 call (500..800) that is not inside the
 * depth-0 one (1000..3000).  Both are kept, in time order, unrelated. */
static void test_document_example(void **state)
{
	static const struct mp_record doc[] = { { 0x08000100, 1000, 2000, 0 }, { 0x08000220, 500, 300, 1 } };
	static const struct want_call want[] = {
		{ SONDE_EV_FUNC_ENTER, 500, 0x08000220, 2 }, { SONDE_EV_FUNC_EXIT, 800, 0x08000220, 2 },
		{ SONDE_EV_FUNC_ENTER, 1000, 0x08000100, 1 }, { SONDE_EV_FUNC_EXIT, 3000, 0x08000100, 1 },
	};
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, doc, 2);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	expect_calls(&l, 0, want, 4);
	log_free(&l);
}

static void test_timer_wrap(void **state)
{
	static const struct mp_record r[] = {
		{ 0x100, 0xFFFFFF00u, 0x80, 0 },       /* ends at 0xFFFFFF80 */
		{ 0x200, 0xFFFFFFF0u, 0x20, 0 },       /* ends at 2^32 + 0x10 */
		{ 0x300, 0x00000020u, 0x10, 0 },       /* after the wrap */
	};
	static const struct want_call want[] = {
		{ SONDE_EV_FUNC_ENTER, 0xFFFFFF00u, 0x100, 1 }, { SONDE_EV_FUNC_EXIT, 0xFFFFFF80u, 0x100, 1 },
		{ SONDE_EV_FUNC_ENTER, 0xFFFFFFF0u, 0x200, 1 }, { SONDE_EV_FUNC_EXIT, 0x100000010ull, 0x200, 1 },
		{ SONDE_EV_FUNC_ENTER, 0x100000020ull, 0x300, 1 }, { SONDE_EV_FUNC_EXIT, 0x100000030ull, 0x300, 1 },
	};
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, r, 3);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	expect_calls(&l, 0, want, 6);
	log_free(&l);
}

/* Same entry time: the caller enters first; zero-length calls enter then
 * exit; a call ending when the next starts exits first. */
static void test_equal_times(void **state)
{
	static const struct mp_record r[] = {
		{ 0x200, 100, 0, 1 }, { 0x300, 100, 5, 1 }, { 0x100, 100, 5, 0 }, { 0x400, 105, 1, 0 },
	};
	static const struct want_call want[] = {
		{ SONDE_EV_FUNC_ENTER, 100, 0x100, 1 }, { SONDE_EV_FUNC_ENTER, 100, 0x200, 2 },
		{ SONDE_EV_FUNC_EXIT, 100, 0x200, 2 },  { SONDE_EV_FUNC_ENTER, 100, 0x300, 2 },
		{ SONDE_EV_FUNC_EXIT, 105, 0x300, 2 },  { SONDE_EV_FUNC_EXIT, 105, 0x100, 1 },
		{ SONDE_EV_FUNC_ENTER, 105, 0x400, 1 }, { SONDE_EV_FUNC_EXIT, 106, 0x400, 1 },
	};
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, r, 4);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 0);
	expect_calls(&l, 0, want, 8);
	log_free(&l);
}

/* A window of 2 calls while the root never arrives in time: the callees
 * are released on their own, and the root, arriving last, is reported and
 * delivered as an untimed record. */
static void test_window_and_late_call(void **state)
{
	static const char *const opts[] = { "miniprof.window=2", NULL };
	static const struct mp_record r[] = {
		{ 0x200, 110, 10, 1 }, { 0x200, 130, 10, 1 }, { 0x200, 150, 10, 1 }, { 0x200, 170, 10, 1 },
		{ 0x100, 100, 100, 0 },
	};
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, r, 5);
	decode(&l, S.b, S.n, opts, 0);
	assert_int_equal(count_diags(&l), 1);
	size_t late = l.n;
	for (size_t i = 0; i < l.n; i++)
		if (l.e[i].is_diag)
			late = i;
	assert_true(late + 1 < l.n);
	assert_int_equal(l.e[late].code, SONDE_D_TIME);
	assert_int_equal(l.e[late].offset, 0);
	assert_int_equal(l.e[late].frame, 0);
	assert_string_equal(l.e[late].msg,
			    "call of 0x00000100 at depth 0 (entry 100 us, 100 us) arrived after later calls were "
			    "released (reorder window of 2 calls): not placed in the call stacks");
	const struct ev *u = &l.e[late + 1];
	assert_int_equal(u->kind, SONDE_EV_RECORD);
	assert_string_equal(u->rec_name, "PROFILE_RECORD");
	assert_int_equal(u->ts_flags, 0);
	assert_int_equal(u->nargs, 4);
	assert_string_equal(u->arg_name[0], "func");
	assert_int_equal(u->arg_type[0], SONDE_A_FUNC);
	assert_int_equal(u->arg_u[0], 0x100);
	assert_string_equal(u->arg_name[1], "entry_us");
	assert_int_equal(u->arg_u[1], 100);
	assert_string_equal(u->arg_name[2], "duration_us");
	assert_int_equal(u->arg_u[2], 100);
	assert_string_equal(u->arg_name[3], "depth");
	assert_int_equal(u->arg_u[3], 0);
	/* the four callees are still timed, in order */
	static const struct want_call want[] = {
		{ SONDE_EV_FUNC_ENTER, 110, 0x200, 2 }, { SONDE_EV_FUNC_EXIT, 120, 0x200, 2 },
		{ SONDE_EV_FUNC_ENTER, 130, 0x200, 2 }, { SONDE_EV_FUNC_EXIT, 140, 0x200, 2 },
		{ SONDE_EV_FUNC_ENTER, 150, 0x200, 2 }, { SONDE_EV_FUNC_EXIT, 160, 0x200, 2 },
		{ SONDE_EV_FUNC_ENTER, 170, 0x200, 2 }, { SONDE_EV_FUNC_EXIT, 180, 0x200, 2 },
	};
	expect_calls(&l, 0, want, 8);
	log_free(&l);
}

/* Calls that cannot nest: one overlapping another at the same depth, one
 * outliving its caller. */
static void test_unnested(void **state)
{
	static const struct mp_record r[] = {
		{ 0x100, 100, 50, 0 }, { 0x200, 120, 50, 0 }, /* overlap at depth 0 */
		{ 0x300, 300, 50, 0 }, { 0x400, 320, 100, 1 }, /* callee ends after its caller */
	};
	struct log l;

	(void)state;
	S.n = 0;
	put_records(&S, r, 4);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 2);
	size_t k = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (!l.e[i].is_diag)
			continue;
		assert_int_equal(l.e[i].code, SONDE_D_MALFORMED);
		assert_int_equal(l.e[i + 1].kind, SONDE_EV_RECORD);
		assert_int_equal(l.e[i + 1].arg_u[0], k ? 0x400 : 0x200);
		k++;
	}
	assert_string_equal(l.e[1].msg,
			    "call of 0x00000200 at depth 0 (entry 120 us, 50 us) overlaps the call of 0x00000100 "
			    "at depth 0 (entry 100 us, 50 us) without nesting in it: not placed in the call stacks");
	static const struct want_call want[] = {
		{ SONDE_EV_FUNC_ENTER, 100, 0x100, 1 }, { SONDE_EV_FUNC_EXIT, 150, 0x100, 1 },
		{ SONDE_EV_FUNC_ENTER, 300, 0x300, 1 }, { SONDE_EV_FUNC_EXIT, 350, 0x300, 1 },
	};
	expect_calls(&l, 0, want, 4);
	log_free(&l);
}

static void test_payload_errors(void **state)
{
	static const struct mp_record r[] = { { 0x100, 100, 5, 0 }, { 0x200, 200, 5, 0 } };
	struct log l;

	(void)state;
	/* record_count says 3, the payload holds 2: both decoded */
	S.n = 0;
	put_records_n(&S, r, 2, 3);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 1);
	assert_int_equal(l.e[0].code, SONDE_D_MALFORMED);
	assert_int_equal(l.e[0].offset, 6);
	assert_string_equal(l.e[0].msg, "PROFILE_DATA: record_count 3 but the payload holds 2 records: 2 decoded");
	assert_int_equal(l.n, 5);
	log_free(&l);
	/* record_count 1: only the first */
	S.n = 0;
	put_records_n(&S, r, 2, 1);
	decode(&l, S.b, S.n, NULL, 0);
	assert_string_equal(l.e[0].msg, "PROFILE_DATA: record_count 1 but the payload holds 2 records: 1 decoded");
	assert_int_equal(l.n, 3);
	log_free(&l);
	/* fw_version without its NUL; a timer that is not 1 MHz */
	S.n = 0;
	put_metadata(&S, 48000000, "0123456789abcdef", 16);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 2);
	assert_int_equal(l.e[0].code, SONDE_D_MALFORMED);
	assert_int_equal(l.e[0].offset, 17);
	assert_string_equal(l.e[0].msg, "METADATA: fw_version fills its 16 bytes without a NUL");
	assert_int_equal(l.e[1].code, SONDE_D_TIME);
	assert_int_equal(l.e[1].offset, 9);
	assert_string_equal(l.e[1].msg, "METADATA: timer_freq is 48000000 Hz, but record times are read as ticks of "
					"1000000 Hz (the protocol documents microseconds; -o miniprof.ts_freq=HZ "
					"changes it)");
	assert_string_equal(l.e[2].arg_str[3], "0123456789abcdef");
	log_free(&l);
	/* STATUS fields out of range */
	S.n = 0;
	put_status(&S, 2, 0, 0, 101);
	decode(&l, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&l), 1);
	assert_string_equal(l.e[0].msg,
			    "STATUS: is_profiling 2 (0 or 1) / buffer_usage_percent 101 (0..100) out of range");
	log_free(&l);
}

static void test_version_refused(void **state)
{
	static const struct mp_record r[] = { { 0x100, 100, 5, 0 } };
	struct log l;
	size_t at;

	(void)state;
	S.n = 0;
	at = put_records(&S, r, 1);
	S.b[at + 5] = 2; /* version 2 (the CRC does not matter: refused first) */
	put_rsp(&S, MP_RSP_ACK, NULL, 0);
	decode(&l, S.b, S.n, NULL, 0);
	assert_true(l.n >= 2);
	assert_true(l.e[0].is_diag);
	assert_int_equal(l.e[0].code, SONDE_D_VERSION);
	assert_string_equal(l.e[0].msg, "PROFILE_DATA version 2 is not supported (only version 1): header skipped");
	for (size_t i = 0; i < l.n; i++)
		assert_true(l.e[i].is_diag || (l.e[i].kind != SONDE_EV_FUNC_ENTER && l.e[i].kind != SONDE_EV_FUNC_EXIT));
	assert_string_equal(l.e[l.n - 1].rec_name, "ACK");
	log_free(&l);
}

static void test_options(void **state)
{
	static const char *const bad[][2] = {
		{ "miniprof.window=0", NULL },      { "miniprof.window=x", NULL },
		{ "miniprof.header=aa", NULL },     { "miniprof.crc=little", NULL },
		{ "miniprof.ts_freq=0", NULL },
	};
	/* said once as the tool's message (core/opts.h), not as a finding */
	static const char *const msgs[] = {
		"sonde: -o miniprof.window=0: expected a number from 1 to 16777216\n",
		"sonde: -o miniprof.window=x: expected a number from 1 to 16777216\n",
		"sonde: -o miniprof.header=aa: expected aa55 or 55aa\n",
		"sonde: -o miniprof.crc=little: expected le or be\n",
		"sonde: -o miniprof.ts_freq=0: expected a number from 1 to 4294967295\n",
	};
	static const char *const freq[] = { "miniprof.ts_freq=48000000", NULL };
	static const char *const h55[] = { "miniprof.header=55aa", "miniprof.crc=be", NULL };
	struct log l;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = &l, .session = &ses };

		char *said = NULL;
		size_t said_len = 0;
		FILE *err = open_memstream(&said, &said_len);

		assert_non_null(err);
		memset(&l, 0, sizeof(l));
		sonde_msg_to(err);
		assert_null(sonde_decoder_miniprof.create(&out, bad[i]));
		sonde_msg_to(NULL);
		fclose(err);
		assert_int_equal(l.n, 0);
		assert_string_equal(said, msgs[i]);
		free(said);
		log_free(&l);
	}
	/* ts_freq: the session's clock; matches the METADATA, so no diag */
	S.n = 0;
	put_metadata(&S, 48000000, "v", 1);
	decode(&l, S.b, S.n, freq, 0);
	assert_int_equal(count_diags(&l), 0);
	assert_int_equal(ses.ts_freq, 48000000);
	log_free(&l);
	/* other byte orders */
	struct mp_wire_cfg cfg = { 1, 1 };
	S.n = mp_rsp_encode(S.b, sizeof(S.b), &cfg, MP_RSP_ACK, NULL, 0);
	decode(&l, S.b, S.n, h55, 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.e[0].rec_name, "ACK");
	log_free(&l);
}

static void test_chunking(void **state)
{
	static const size_t chunks[] = { 1, 2, 7, 100 };
	struct log whole, l;
	size_t at;

	(void)state;
	S.n = 0;
	S.b[S.n++] = 0x42;
	put_metadata(&S, 1000000, "v1.0.0", 6);
	put_records(&S, tree_completion, 3);
	at = put_status(&S, 1, 1, 3, 50);
	S.b[at + 8] ^= 1; /* bad CRC */
	put_records(&S, tree_completion + 3, 2);
	put_status(&S, 1, 4, 5, 50);
	put_rsp(&S, MP_RSP_ACK, NULL, 0);
	S.n -= 3; /* truncated */
	decode(&whole, S.b, S.n, NULL, 0);
	assert_int_equal(count_diags(&whole), 3);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		decode(&l, S.b, S.n, NULL, chunks[c]);
		assert_int_equal(l.n, whole.n);
		for (size_t i = 0; i < l.n; i++) {
			const struct ev *a = &l.e[i], *b = &whole.e[i];

			assert_int_equal(a->is_diag, b->is_diag);
			assert_int_equal(a->kind, b->kind);
			assert_int_equal(a->code, b->code);
			assert_int_equal(a->ts, b->ts);
			assert_int_equal(a->obj, b->obj);
			assert_int_equal(a->obj2, b->obj2);
			assert_int_equal(a->value, b->value);
			assert_int_equal(a->offset, b->offset);
			assert_int_equal(a->frame, b->frame);
			assert_string_equal(a->msg, b->msg);
			assert_string_equal(a->rec_name, b->rec_name);
		}
		log_free(&l);
	}
	log_free(&whole);
}

static void test_probe(void **state)
{
	static const uint8_t junk[] = "hello world, nothing here";
	uint8_t b[64];
	size_t n;

	(void)state;
	n = mp_rsp_encode(b, sizeof(b), NULL, MP_RSP_ACK, NULL, 0);
	assert_int_equal(sonde_decoder_miniprof.probe(b, n), 95);
	memmove(b + 3, b, n);
	memcpy(b, "xyz", 3);
	assert_int_equal(sonde_decoder_miniprof.probe(b, n + 3), 85);
	assert_int_equal(sonde_decoder_miniprof.probe(b, 3 + 6), 40); /* cut: a plausible header only */
	b[3 + 5] ^= 1;                                                  /* bad CRC */
	assert_int_equal(sonde_decoder_miniprof.probe(b, n + 3), 0);
	assert_int_equal(sonde_decoder_miniprof.probe(junk, sizeof(junk)), 0);
	assert_int_equal(sonde_decoder_miniprof.probe(junk, 0), 0);
}

/* The reorder window bounds memory: records whose root never completes (a
 * main that never returns) are held at most window + 1 at a time, and all
 * come out timed, in order. */
struct counter {
	uint64_t events, last_ts;
	int bad;
};

static void count_event(void *ctx, const struct sonde_event *ev)
{
	struct counter *c = ctx;

	if ((ev->kind != SONDE_EV_FUNC_ENTER && ev->kind != SONDE_EV_FUNC_EXIT) || ev->ts < c->last_ts)
		c->bad = 1;
	c->last_ts = ev->ts;
	c->events++;
}

static void test_bounded_window(void **state)
{
	struct counter cnt = { 0, 0, 0 };
	struct sonde_out out = { .event = count_event, .diag = NULL, .ctx = &cnt, .session = NULL };
	struct mp_calls *c;

	(void)state;
	c = mp_calls_new(&out, 1000);
	assert_non_null(c);
	for (uint32_t i = 0; i < 100000; i++) {
		struct mp_record r = { 0x200, 1000 + 10 * i, 5, 1 };

		mp_calls_add(c, &r, 0, 0);
	}
	mp_calls_finish(c);
	const struct mp_calls_stats *st = mp_calls_stats(c);
	assert_int_equal(st->records, 100000);
	assert_int_equal(st->released, 100000);
	assert_int_equal(st->late, 0);
	assert_int_equal(st->unnested, 0);
	assert_int_equal(st->max_pending, 1001);
	assert_int_equal(st->forced, 99000);
	assert_int_equal(cnt.events, 200000);
	assert_false(cnt.bad);
	mp_calls_free(c);
	assert_null(mp_calls_new(&out, 0));
	assert_null(mp_calls_new(&out, MP_CALLS_MAX_WINDOW + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metadata_status_ack),
		cmocka_unit_test(test_overflows_give_drops),
		cmocka_unit_test(test_calls_completion_order),
		cmocka_unit_test(test_calls_entry_order),
		cmocka_unit_test(test_calls_released_early),
		cmocka_unit_test(test_document_example),
		cmocka_unit_test(test_timer_wrap),
		cmocka_unit_test(test_equal_times),
		cmocka_unit_test(test_window_and_late_call),
		cmocka_unit_test(test_unnested),
		cmocka_unit_test(test_payload_errors),
		cmocka_unit_test(test_version_refused),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_chunking),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_bounded_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
