/*
 * test_stp_decoder.c -- `--proto stp` (host/src/proto/stp/stp_decoder.c):
 * the events a MIPI STPv2 stream of any payload gives, for the packets the
 * reference sample lacks: USER, TIME, XSYNC (and their TS forms), FREQ_40
 * and TRIG, written by the tests' encoder (tests/unit/support/stp_enc.c).
 * Decoded whole, a byte at a time and in uneven chunks: the same events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pipeline.h"
#include "stp_enc.h"

extern const struct sonde_decoder_ops sonde_decoder_stp;

#define MAXEV 32

struct ev {
	enum sonde_ev_kind kind;
	char name[16];
	uint32_t core, ts_flags;
	uint64_t ts, obj;
	char args[160]; /* "name=value ..." */
};

struct cap {
	struct sonde_session ses;
	int nev, ndiag;
	struct ev ev[MAXEV];
};

static void on_event(void *ctx, const struct sonde_event *e)
{
	struct cap *c = ctx;
	if (c->nev < MAXEV) {
		struct ev *v = &c->ev[c->nev];
		memset(v, 0, sizeof(*v));
		v->kind = e->kind;
		snprintf(v->name, sizeof(v->name), "%s", e->rec_name ? e->rec_name : "");
		v->core = e->core;
		v->ts = e->ts;
		v->ts_flags = e->ts_flags;
		v->obj = e->obj;
		size_t n = 0;
		for (size_t i = 0; i < e->nargs; i++)
			n += (size_t)snprintf(v->args + n, sizeof(v->args) - n, "%s%s=%llx", i ? " " : "",
					      e->args[i].name, (unsigned long long)e->args[i].v.u);
	}
	c->nev++;
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct cap *c = ctx;
	print_message("diag: %s\n", d->msg);
	c->ndiag++;
}

/* chunk 0: whole */
static struct cap *run(const uint8_t *p, size_t n, int msn, size_t chunk)
{
	struct cap *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->ses };
	const char *opts[] = { msn ? "stp.order=msn" : "stp.order=lsn", NULL };
	void *dec = sonde_decoder_stp.create(&out, opts);
	assert_non_null(dec);
	for (size_t pos = 0, k = chunk ? chunk : n; pos < n; pos += k, k = chunk ? chunk + pos % 5 : n) {
		if (k > n - pos)
			k = n - pos;
		sonde_decoder_stp.feed(dec, p + pos, k);
	}
	sonde_decoder_stp.finish(dec);
	sonde_decoder_stp.destroy(dec);
	return c;
}

static struct cap *decode(const uint8_t *p, size_t n, int msn)
{
	struct cap *whole = run(p, n, msn, 0);
	for (size_t chunk = 1; chunk <= 3; chunk += 2) {
		struct cap *c = run(p, n, msn, chunk);
		assert_int_equal(c->nev, whole->nev);
		assert_int_equal(c->ndiag, whole->ndiag);
		assert_memory_equal(c->ev, whole->ev, sizeof(c->ev));
		free(c);
	}
	return whole;
}

static void test_user_time_xsync_events(void **state)
{
	(void)state;
	for (int msn = 0; msn < 2; msn++) {
		struct stp_enc e;
		stp_enc_init(&e, msn);
		stp_enc_async(&e);
		stp_enc_version(&e, 3);
		stp_enc_freq(&e, 40, 0x01DCD65000ull); /* 8 GHz: more than 32 bits */
		stp_enc_master(&e, 16, 7);
		stp_enc_channel(&e, 16, 9);
		stp_enc_data(&e, 32, STP_ENC_TS, 0xCAFE, 16, 1000);
		stp_enc_bare(&e, STP_ENC_USER, 0, 0, 0);
		stp_enc_bare(&e, STP_ENC_USER, 1, 4, 0x2000);
		stp_enc_bare(&e, STP_ENC_TIME, 1, 16, 0x500000);
		stp_enc_bare(&e, STP_ENC_TIME, 0, 0, 0);
		stp_enc_bare(&e, STP_ENC_XSYNC, 0, 0, 0);
		stp_enc_bare(&e, STP_ENC_XSYNC, 1, 2, 0x42);
		stp_enc_op(&e, "F06"); /* TRIG */
		stp_enc_field(&e, 0x3C, 2);
		stp_enc_pad(&e);
		struct cap *c = decode(e.buf, stp_enc_len(&e), msn);
		assert_int_equal(c->ndiag, 0);
		assert_true(c->ses.ts_freq == 0x01DCD65000ull);
		static const struct {
			enum sonde_ev_kind kind;
			const char *name, *args;
			uint64_t ts;
		} want[] = {
			{ SONDE_EV_RECORD, "D32TS", "master=7 channel=9 size=20 value=cafe marked=0 ts=3e8", 1000 },
			{ SONDE_EV_RECORD, "USER", "master=7 channel=9", 1000 },
			{ SONDE_EV_RECORD, "USER_TS", "master=7 channel=9 ts=2000", 0x2000 },
			{ SONDE_EV_RECORD, "TIME_TS", "master=7 channel=9 ts=500000", 0x500000 },
			{ SONDE_EV_RECORD, "TIME", "master=7 channel=9", 0x500000 },
			{ SONDE_EV_MARK, "XSYNC", "master=7 channel=9", 0x500000 },
			{ SONDE_EV_MARK, "XSYNC_TS", "master=7 channel=9 ts=500042", 0x500042 },
			{ SONDE_EV_MARK, "TRIG", "master=7 channel=9 value=3c", 0x500042 },
		};
		assert_int_equal(c->nev, sizeof(want) / sizeof(want[0]));
		for (int i = 0; i < c->nev; i++) {
			assert_int_equal(c->ev[i].kind, want[i].kind);
			assert_string_equal(c->ev[i].name, want[i].name);
			assert_string_equal(c->ev[i].args, want[i].args);
			assert_true(c->ev[i].ts == want[i].ts && (c->ev[i].ts_flags & SONDE_TS_VALID));
			assert_int_equal(c->ev[i].core, 7u << 16 | 9u);
		}
		assert_int_equal(c->ev[7].obj, 0x3C);
		free(c);
		stp_enc_free(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_time_xsync_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
