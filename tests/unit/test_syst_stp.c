/*
 * test_syst_stp.c -- SyS-T over MIPI STPv2 through the SyS-T decoder
 * (-o syst.container=stp): the reassembly of messages per master and
 * channel (host/src/proto/syst/stp_msg.c) and what the events say.
 *
 * The reference is the syst-csv of the sample's hex form
 * (testdata/syst/stp/pub_64.hex.txt: the same 84 messages, one per line).
 * The sample's STP stream must give those rows; so must the same messages
 * written by the tests' encoder (tests/unit/support/stp_enc.c) in every
 * way the sample does not: most significant nibble first (detected), M8
 * and C8, DnM endings, FLAG_TS, D64TS starts, D8 bodies, short timestamps,
 * USER, TIME and XSYNC packets among them, messages of two channels
 * interleaved.  Damage (garbage between packets,
 * a reserved opcode inside a message, a stream cut mid-packet) is reported
 * with its offset and costs no message that was whole.  Every stream is
 * decoded whole, a byte at a time and in uneven chunks, with the same
 * output.
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
#include "test_file.h"

extern const struct sonde_decoder_ops sonde_decoder_syst;
extern const struct sonde_sink_ops sonde_sink_syst_csv;

#define NMSG 84
#define MAXEV 256
#define MAXD 32

struct ev {
	uint32_t core, ts_flags;
	uint64_t ts, offset, syst_ts;
	int has_syst_ts;
	uint64_t master, channel;
};

struct cap {
	char *out;
	size_t outlen;
	FILE *mem;
	void *sink;
	struct sonde_session ses;
	int nev, ndiag;
	struct ev ev[MAXEV];
	struct sonde_diag diag[MAXD];
	char msg[MAXD][320];
};

static void on_event(void *ctx, const struct sonde_event *e)
{
	struct cap *c = ctx;
	sonde_sink_syst_csv.event(c->sink, e, &c->ses);
	if (c->nev < MAXEV) {
		struct ev *v = &c->ev[c->nev];
		memset(v, 0, sizeof(*v));
		v->core = e->core;
		v->ts = e->ts;
		v->ts_flags = e->ts_flags;
		v->offset = e->offset;
		for (size_t i = 0; i < e->nargs; i++) {
			const char *n = e->args[i].name;
			if (!n)
				continue;
			if (!strcmp(n, "stp_master"))
				v->master = e->args[i].v.u;
			else if (!strcmp(n, "stp_channel"))
				v->channel = e->args[i].v.u;
			else if (!strcmp(n, "syst_ts")) {
				v->syst_ts = e->args[i].v.u;
				v->has_syst_ts = 1;
			}
		}
	}
	c->nev++;
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct cap *c = ctx;
	if (c->ndiag < MAXD) {
		c->diag[c->ndiag] = *d;
		snprintf(c->msg[c->ndiag], sizeof(c->msg[0]), "%s", d->msg);
		c->diag[c->ndiag].msg = c->msg[c->ndiag];
	}
	c->ndiag++;
}

static struct cap *run(const uint8_t *p, size_t n, const char *const *opts, size_t chunk)
{
	struct cap *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->ses.proto = "syst";
	c->mem = open_memstream(&c->out, &c->outlen);
	c->sink = sonde_sink_syst_csv.create(c->mem, NULL);
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->ses };
	void *dec = sonde_decoder_syst.create(&out, opts);
	assert_non_null(dec);
	uint32_t rnd = 99;
	for (size_t pos = 0; pos < n;) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			rnd = rnd * 1103515245u + 12345u;
			k = 1 + (rnd >> 16) % 500;
		}
		if (k > n - pos)
			k = n - pos;
		sonde_decoder_syst.feed(dec, p + pos, k);
		pos += k;
	}
	sonde_decoder_syst.finish(dec);
	sonde_decoder_syst.destroy(dec);
	assert_int_equal(sonde_sink_syst_csv.finish(c->sink, &c->ses), 0);
	sonde_sink_syst_csv.destroy(c->sink);
	fclose(c->mem);
	return c;
}

static void cap_free(struct cap *c)
{
	free(c->out);
	free(c);
}

/* Whole, by single bytes and in uneven chunks: the same rows and
 * diagnostics. */
static struct cap *decode(const uint8_t *p, size_t n, const char *const *opts)
{
	struct cap *whole = run(p, n, opts, 0);
	size_t chunks[] = { 1, 7, SIZE_MAX };
	for (size_t i = 0; i < 3; i++) {
		struct cap *c = run(p, n, opts, chunks[i]);
		assert_string_equal(whole->out, c->out);
		assert_int_equal(whole->ndiag, c->ndiag);
		assert_int_equal(whole->nev, c->nev);
		for (int k = 0; k < whole->ndiag && k < MAXD; k++) {
			assert_string_equal(whole->msg[k], c->msg[k]);
			assert_int_equal(whole->diag[k].offset, c->diag[k].offset);
		}
		cap_free(c);
	}
	return whole;
}

#define COLL "syst.collateral=" SONDE_TESTDATA "/syst/collateral.xml"
#define GUID "syst.guid={494E5443-8A9C-4014-A65A-2F36A36D96E4}"
static const char *const opts_hex[] = { COLL, GUID, "syst.container=hex", NULL };
static const char *const opts_stp[] = { COLL, GUID, "syst.container=stp", NULL };
static const char *const opts_auto[] = { COLL, GUID, NULL };

/* The sample's messages (from its hex form) and their rows. */
static struct {
	uint8_t *m[NMSG];
	size_t n[NMSG];
	struct cap *ref;
} S;

static int setup(void **state)
{
	(void)state;
	size_t n;
	char *hex = (char *)test_slurp(SONDE_TESTDATA "/syst/stp/pub_64.hex.txt", &n);
	S.ref = run((const uint8_t *)hex, n, opts_hex, 0);
	int k = 0;
	for (char *line = strtok(hex, "\n"); line; line = strtok(NULL, "\n")) {
		const char *h = strstr(line, "DATA: ");
		if (!h)
			continue;
		h += 6;
		size_t len = strcspn(h, "\r\n") / 2;
		assert_true(k < NMSG);
		S.m[k] = malloc(len);
		S.n[k] = len;
		for (size_t i = 0; i < len; i++) {
			unsigned b;
			assert_int_equal(sscanf(h + 2 * i, "%2x", &b), 1);
			S.m[k][i] = (uint8_t)b;
		}
		k++;
	}
	assert_int_equal(k, NMSG);
	free(hex);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NMSG; i++)
		free(S.m[i]);
	cap_free(S.ref);
	return 0;
}

/* The rows after the header line. */
static const char *rows(const struct cap *c)
{
	const char *nl = strchr(c->out, '\n');
	assert_non_null(nl);
	return nl + 1;
}

/* The first k rows of a and b are the same. */
static void same_rows(const struct cap *a, const struct cap *b, int k)
{
	const char *p = rows(a), *q = rows(b);
	for (int i = 0; i < k; i++) {
		const char *e = strchr(p, '\n'), *f = strchr(q, '\n');
		assert_non_null(e);
		assert_non_null(f);
		if (e - p != f - q || memcmp(p, q, (size_t)(e - p)) != 0)
			fail_msg("row %d differs:\n %.*s\n %.*s", i, (int)(e - p), p, (int)(f - q), q);
		p = e + 1;
		q = f + 1;
	}
}

static int nrows(const struct cap *c)
{
	int k = 0;
	for (const char *p = rows(c); (p = strchr(p, '\n')); p++)
		k++;
	return k;
}

/* ------------------------------------------------------------ sample */

static void test_sample(void **state)
{
	(void)state;
	size_t n;
	uint8_t *stp = test_slurp(SONDE_TESTDATA "/syst/stp/pub_64.stp", &n);
	const char *const *optss[] = { opts_stp, opts_auto };
	for (int o = 0; o < 2; o++) {
		struct cap *c = decode(stp, n, optss[o]);
		assert_int_equal(c->ndiag, 0);
		assert_string_equal(c->out, S.ref->out);
		assert_int_equal(c->nev, NMSG);
		assert_int_equal(c->ses.ts_freq, 60000000);
		/* message i at STP time 60000 (i + 1); masters and channels as
		 * the listing says; the first message's own timestamp kept */
		static const struct { int i; unsigned m, ch; } src[] = {
			{ 0, 128, 1 }, { 1, 128, 2 }, { 3, 128, 3 }, { 61, 129, 1 }, { 65, 129, 2 }, { 83, 128, 1 } };
		for (size_t k = 0; k < 6; k++) {
			const struct ev *v = &c->ev[src[k].i];
			assert_int_equal(v->ts, 60000u * (unsigned)(src[k].i + 1));
			assert_int_equal(v->ts_flags, 1);
			assert_int_equal(v->master, src[k].m);
			assert_int_equal(v->channel, src[k].ch);
			assert_int_equal(v->core, src[k].m << 16 | src[k].ch);
		}
		assert_true(c->ev[0].has_syst_ts && c->ev[0].syst_ts == 0x00060D5A3C0003E8ull);
		assert_false(c->ev[1].has_syst_ts);
		assert_int_equal(c->ev[0].offset, 25); /* nibble 50: the D32TS */
		cap_free(c);
	}
	free(stp);
}

/* ------------------------------------------------------ encoder-made */

struct how {
	int msn, small_ids, marked, flag_ts, start64, body8;
	int extras; /* TIME_TS (the time but the low byte) before each message,
		     * USER, XSYNC and TIME inside the long ones */
	unsigned ts_nibs;
};

/* Every message of the sample on master 128 + i % 2, channel 1 + i % 3,
 * as 'how' says; ASYNC, VERSION and FREQ before every 20th. */
static void encode_all(struct stp_enc *e, const struct how *h, int from, int to)
{
	uint16_t m = 0xFFFF, ch = 0xFFFF;
	for (int i = from; i < to; i++) {
		if (i % 20 == 0 || i == from) {
			stp_enc_async(e);
			stp_enc_version(e, 3);
			stp_enc_freq(e, 32, 60000000);
			m = ch = 0;
		}
		uint16_t want_m = (uint16_t)(128 + i % 2), want_ch = (uint16_t)(1 + i % 3);
		if (want_m != m) {
			stp_enc_master(e, h->small_ids ? 8 : 16, want_m);
			m = want_m;
			ch = 0;
		}
		if (want_ch != ch) {
			stp_enc_channel(e, h->small_ids ? 8 : 16, want_ch);
			ch = want_ch;
		}
		uint32_t hdr = (uint32_t)S.m[i][0] | (uint32_t)S.m[i][1] << 8;
		unsigned type = hdr & 0xF;
		/* short messages: SHORT32/64, BUILD COMPACT32/64 */
		int is_short = S.n[i] <= 8 && (type == 1 || type == 7 || type == 0);
		uint64_t ts = 60000ull * (uint64_t)(i + 1);
		if (h->extras)
			stp_enc_bare(e, STP_ENC_TIME, 1, 16, ts & ~(uint64_t)0xFF);
		struct stp_enc_msg how = {
			.is_short = is_short,
			.extras = h->extras,
			.start_bits = h->start64 && S.n[i] >= 8 ? 64 : 32,
			.body_bits = h->body8 ? 8 : 64,
			.end = h->marked ? STP_ENC_END_MARKED : h->flag_ts ? STP_ENC_END_FLAG_TS : STP_ENC_END_FLAG,
			.ts_nibs = h->ts_nibs,
			.ts = ts,
		};
		stp_enc_msg(e, S.m[i], S.n[i], &how);
		stp_enc_pad(e);
	}
}

static void check_variant(const struct how *h, const char *const *opts)
{
	struct stp_enc e;
	stp_enc_init(&e, h->msn);
	encode_all(&e, h, 0, NMSG);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts);
	for (int k = 0; k < c->ndiag && k < MAXD; k++)
		print_message("diag: %s\n", c->msg[k]);
	assert_int_equal(c->ndiag, 0);
	assert_string_equal(c->out, S.ref->out);
	assert_int_equal(c->nev, NMSG);
	for (int i = 0; i < NMSG; i++) {
		assert_int_equal(c->ev[i].master, 128 + i % 2);
		assert_int_equal(c->ev[i].channel, 1 + i % 3);
		if (h->ts_nibs >= 8 || h->extras) /* shorter ones keep the high part */
			assert_int_equal(c->ev[i].ts, 60000ull * (uint64_t)(i + 1));
	}
	cap_free(c);
	stp_enc_free(&e);
}

static void test_encoded_like_sample(void **state)
{
	(void)state;
	struct how h = { .ts_nibs = 16 };
	check_variant(&h, opts_stp);
	check_variant(&h, opts_auto);
}

static void test_encoded_msn_detected(void **state)
{
	(void)state;
	struct how h = { .msn = 1, .ts_nibs = 16 };
	static const char *const opts_msn[] = { COLL, GUID, "syst.container=stp", "stp.order=msn", NULL };
	check_variant(&h, opts_auto);
	check_variant(&h, opts_stp);
	check_variant(&h, opts_msn);
}

static void test_encoded_m8_c8_marked(void **state)
{
	(void)state;
	struct how h = { .small_ids = 1, .marked = 1, .ts_nibs = 8 };
	check_variant(&h, opts_stp);
	h.body8 = 1;
	h.start64 = 1;
	check_variant(&h, opts_auto);
}

static void test_encoded_flag_ts_short_ts(void **state)
{
	(void)state;
	struct how h = { .flag_ts = 1, .ts_nibs = 12 };
	check_variant(&h, opts_stp);
	h.ts_nibs = 14;
	h.msn = 1;
	check_variant(&h, opts_auto);
}

/* USER, TIME and XSYNC packets between and inside messages are no part
 * of them; a TIME_TS gives the time that a message's one-byte timestamp
 * completes (without it, times would be off: the test above checks only
 * 8 nibbles and more). */
static void test_encoded_user_time_xsync(void **state)
{
	(void)state;
	struct how h = { .extras = 1, .ts_nibs = 2 };
	check_variant(&h, opts_stp);
	h.msn = 1;
	check_variant(&h, opts_auto);
}

/* Two channels' messages interleaved packet by packet: each is whole. */
static void test_interleaved(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	stp_enc_async(&e);
	stp_enc_version(&e, 3);
	stp_enc_freq(&e, 32, 60000000);
	stp_enc_master(&e, 16, 128);
	/* messages 2 (46 bytes) and 3 (50 bytes): no short ones */
	const int a = 2, b = 3;
	stp_enc_channel(&e, 16, 1);
	stp_enc_data(&e, 32, STP_ENC_TS, S.m[a][0] | (uint64_t)S.m[a][1] << 8 | (uint64_t)S.m[a][2] << 16 |
					      (uint64_t)S.m[a][3] << 24, 16, 100);
	stp_enc_channel(&e, 16, 2);
	stp_enc_data(&e, 32, STP_ENC_TS, S.m[b][0] | (uint64_t)S.m[b][1] << 8 | (uint64_t)S.m[b][2] << 16 |
					      (uint64_t)S.m[b][3] << 24, 16, 200);
	for (size_t pos = 4; pos < S.n[a] || pos < S.n[b]; pos += 2) {
		for (int which = 0; which < 2; which++) {
			int i = which ? b : a;
			if (pos >= S.n[i])
				continue;
			stp_enc_channel(&e, 16, (uint16_t)(1 + which));
			stp_enc_data(&e, 16, STP_ENC_PLAIN, S.m[i][pos] | (uint64_t)S.m[i][pos + 1] << 8, 0, 0);
		}
	}
	stp_enc_channel(&e, 16, 1);
	stp_enc_flag(&e, 0, 0, 0);
	stp_enc_channel(&e, 16, 2);
	stp_enc_flag(&e, 0, 0, 0);
	stp_enc_pad(&e);
	/* the hex form of the same two messages, in the order they end */
	char hex[512];
	size_t hl = 0;
	for (int which = 0; which < 2; which++) {
		int i = which ? b : a;
		hl += (size_t)snprintf(hex + hl, sizeof(hex) - hl, "SYS-T RAW DATA: ");
		for (size_t k = 0; k < S.n[i]; k++)
			hl += (size_t)snprintf(hex + hl, sizeof(hex) - hl, "%02X", S.m[i][k]);
		hl += (size_t)snprintf(hex + hl, sizeof(hex) - hl, "\n");
	}
	struct cap *want = run((const uint8_t *)hex, hl, opts_hex, 0);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts_stp);
	assert_int_equal(c->ndiag, 0);
	assert_string_equal(c->out, want->out);
	assert_int_equal(c->nev, 2);
	assert_true(c->ev[0].channel == 1 && c->ev[0].ts == 100);
	assert_true(c->ev[1].channel == 2 && c->ev[1].ts == 200);
	cap_free(c);
	cap_free(want);
	stp_enc_free(&e);
}

/* ------------------------------------------------------------ damage */

static int find_diag(const struct cap *c, enum sonde_diag_code code, const char *text)
{
	for (int k = 0; k < c->ndiag && k < MAXD; k++)
		if (c->diag[k].code == code && strstr(c->msg[k], text))
			return k;
	fail_msg("no diagnostic %d with \"%s\" among %d", code, text, c->ndiag);
	return -1;
}

/* Junk between two messages, then ASYNC: reported where it is; no
 * message lost. */
static void test_garbage_between(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	struct how h = { .ts_nibs = 16 };
	encode_all(&e, &h, 0, 30);
	uint64_t junk = e.nib;
	static const char bad[] = "F0C123456789"; /* a reserved opcode and more */
	stp_enc_op(&e, bad);
	encode_all(&e, &h, 30, NMSG);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts_stp);
	assert_string_equal(c->out, S.ref->out);
	int k = find_diag(c, SONDE_D_UNKNOWN_RECORD, "opcode F0C (reserved) not supported");
	assert_int_equal(c->diag[k].offset, junk / 2);
	char where[64];
	snprintf(where, sizeof(where), "nibble %llu (byte %llu", (unsigned long long)junk,
		 (unsigned long long)junk / 2);
	assert_non_null(strstr(c->msg[k], where));
	k = find_diag(c, SONDE_D_GARBAGE, "nibbles dropped while looking for an ASYNC");
	assert_int_equal(c->diag[k].offset, (junk + 3) / 2);
	assert_int_equal(c->ndiag, 2);
	cap_free(c);
	stp_enc_free(&e);
}

/* A reserved opcode inside a message: that message is decoded as far as
 * it goes and reported; those before and after the next ASYNC are whole. */
static void test_damage_inside_message(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	struct how h = { .ts_nibs = 16 };
	encode_all(&e, &h, 0, 20);
	/* message 20 cut after its first packets by a reserved opcode */
	stp_enc_async(&e);
	stp_enc_version(&e, 3);
	stp_enc_master(&e, 16, 128);
	stp_enc_channel(&e, 16, 3);
	stp_enc_data(&e, 32, STP_ENC_TS, S.m[20][0] | (uint64_t)S.m[20][1] << 8 | (uint64_t)S.m[20][2] << 16 |
					       (uint64_t)S.m[20][3] << 24, 16, 1);
	stp_enc_op(&e, "F0C");
	encode_all(&e, &h, 21, NMSG);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts_stp);
	assert_int_equal(nrows(c), NMSG); /* the cut one as well */
	same_rows(c, S.ref, 20);
	find_diag(c, SONDE_D_UNKNOWN_RECORD, "opcode F0C (reserved) not supported");
	find_diag(c, SONDE_D_TRUNCATED, "master 128 channel 3: message not ended by FLAG or a marked packet after 4 bytes");
	/* rows 21.. are the reference's (the context counter counts the cut one too) */
	const char *p = rows(c), *q = rows(S.ref);
	for (int i = 0; i < 21; i++) {
		p = strchr(p, '\n') + 1;
		q = strchr(q, '\n') + 1;
	}
	assert_string_equal(p, q);
	cap_free(c);
	stp_enc_free(&e);
}

/* The stream cut in the middle of a packet of the last message. */
static void test_cut_mid_packet(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	struct how h = { .ts_nibs = 16 };
	encode_all(&e, &h, 0, NMSG - 1);
	size_t whole = stp_enc_len(&e);
	encode_all(&e, &h, NMSG - 1, NMSG);
	size_t cut = whole + (stp_enc_len(&e) - whole) / 2;
	struct cap *c = decode(e.buf, cut, opts_stp);
	same_rows(c, S.ref, NMSG - 1);
	assert_int_equal(nrows(c), NMSG); /* the last one as far as it goes */
	int k = find_diag(c, SONDE_D_TRUNCATED, "input ends inside");
	assert_true(c->diag[k].offset >= whole && c->diag[k].offset < cut);
	find_diag(c, SONDE_D_TRUNCATED, "message not ended by FLAG or a marked packet");
	cap_free(c);
	stp_enc_free(&e);
}

/* Data on a channel whose message start was lost, and half-byte data. */
static void test_strays(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	stp_enc_async(&e);
	stp_enc_version(&e, 3);
	stp_enc_master(&e, 16, 7);
	stp_enc_channel(&e, 16, 9);
	uint64_t at = e.nib;
	stp_enc_data(&e, 64, STP_ENC_PLAIN, 1, 0, 0);
	stp_enc_data(&e, 16, STP_ENC_PLAIN, 2, 0, 0);
	stp_enc_flag(&e, 0, 0, 0);
	stp_enc_data(&e, 4, STP_ENC_PLAIN, 3, 0, 0);
	stp_enc_pad(&e);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts_stp);
	assert_int_equal(c->nev, 0);
	int k = find_diag(c, SONDE_D_GARBAGE, "master 7 channel 9: 10 data bytes outside any message");
	assert_int_equal(c->diag[k].offset, at / 2);
	assert_int_equal(c->diag[k].count, 10);
	find_diag(c, SONDE_D_MALFORMED, "D4 packet (half a byte)");
	cap_free(c);
	stp_enc_free(&e);
}

/* Memory stays bounded: 65 sources with a message open at once (the one
 * idle longest gives its slot up, reported), and a message longer than
 * any SyS-T message (the rest counted and reported). */
static void test_bounds(void **state)
{
	(void)state;
	struct stp_enc e;
	stp_enc_init(&e, 0);
	stp_enc_async(&e);
	stp_enc_version(&e, 3);
	stp_enc_master(&e, 16, 1);
	const uint8_t *m = S.m[2]; /* 46 bytes, a string */
	uint64_t hdr = m[0] | (uint64_t)m[1] << 8 | (uint64_t)m[2] << 16 | (uint64_t)m[3] << 24;
	for (uint16_t ch = 0; ch < 65; ch++) {
		stp_enc_channel(&e, 16, ch);
		stp_enc_data(&e, 32, STP_ENC_TS, hdr, 16, ch);
	}
	for (int ch = 64; ch >= 0; ch--) { /* the sources still followed first: no more evictions */
		stp_enc_channel(&e, 16, (uint16_t)ch);
		for (size_t pos = 4; pos < S.n[2]; pos += 2)
			stp_enc_data(&e, 16, STP_ENC_PLAIN, m[pos] | (uint64_t)m[pos + 1] << 8, 0, 0);
		stp_enc_flag(&e, 0, 0, 0);
	}
	/* one message of 70000 bytes on channel 100 */
	stp_enc_channel(&e, 16, 100);
	stp_enc_data(&e, 32, STP_ENC_TS, hdr, 16, 1);
	for (int i = 0; i < 70000 / 8; i++)
		stp_enc_data(&e, 64, STP_ENC_PLAIN, 0x4141414141414141ull, 0, 0);
	stp_enc_flag(&e, 0, 0, 0);
	stp_enc_pad(&e);
	struct cap *c = decode(e.buf, stp_enc_len(&e), opts_stp);
	int k = find_diag(c, SONDE_D_TRUNCATED, "master 1 channel 0: message not ended by FLAG or a marked packet "
						 "after 4 bytes; more sources than Sonde follows at once took its place");
	(void)k;
	/* channel 0's body then has no message open: counted as stray data */
	find_diag(c, SONDE_D_GARBAGE, "master 1 channel 0: 42 data bytes outside any message");
	find_diag(c, SONDE_D_TOO_LONG, "master 1 channel 100: message longer than the largest SyS-T message");
	assert_int_equal(c->nev, 1 + 64 + 1);
	assert_int_equal(c->ev[0].channel, 0); /* the cut one, as far as it went */
	for (int i = 1; i < 65; i++)
		assert_int_equal(c->ev[i].channel, (unsigned)(65 - i));
	/* the 64 whole ones decode as the reference's message 2 */
	const char *row = rows(c), *want = rows(S.ref);
	for (int i = 0; i < 2; i++)
		want = strchr(want, '\n') + 1;
	size_t wl = (size_t)(strchr(want, '\n') - want);
	row = strchr(row, '\n') + 1;
	/* the context counter column differs; compare up to it */
	size_t upto = (size_t)(strstr(want, ",0x0000000000000002,") - want);
	assert_true(upto < wl);
	assert_memory_equal(row, want, upto);
	cap_free(c);
	stp_enc_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_encoded_like_sample),
		cmocka_unit_test(test_encoded_msn_detected),
		cmocka_unit_test(test_encoded_m8_c8_marked),
		cmocka_unit_test(test_encoded_flag_ts_short_ts),
		cmocka_unit_test(test_encoded_user_time_xsync),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_garbage_between),
		cmocka_unit_test(test_damage_inside_message),
		cmocka_unit_test(test_cut_mid_packet),
		cmocka_unit_test(test_strays),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
