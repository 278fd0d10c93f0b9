/*
 * test_syst_decode.c -- the SyS-T decoder driven through its
 * sonde_decoder_ops, with the syst-csv sink as output.
 *
 * The reference printer's CSVs in testdata/syst/ must come out row for row.
 * Where systprint is wrong (shared/notes/syst.md §14) our row differs, and
 * every such row must be explained by exactly one named bug; the number of
 * rows per bug is what the test data's README says the streams contain.
 * Also: every container (len, raw, hex lines), autodetected and explicit,
 * fed whole, 1 byte at a time and in odd chunks; event mapping; probe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "proto/syst/syst_crc.h"
#include "sonde_proto.h"
#include "core/msg.h"
#include "test_file.h"

extern const struct sonde_decoder_ops sonde_decoder_syst;
extern const struct sonde_sink_ops sonde_sink_syst_csv;

#define GUID "{494E5443-8A9C-4014-A65A-2F36A36D96E4}"
#define MAX_EV 1024

/* ------------------------------------------------------------ harness */

struct evcopy {
	enum sonde_ev_kind kind;
	uint32_t flags, level, ts_flags;
	uint64_t ts, obj, frame, offset;
	uint32_t rec_id;
	int64_t value;
	size_t nargs;
	struct sonde_arg arg0;
	char text[160], rec[64], obj_name[48];
};

struct cap {
	char *out;
	size_t outlen;
	FILE *mem;
	void *sink;
	struct sonde_session ses;
	int ndiag, diag_codes[SONDE_D_COUNT];
	struct sonde_diag diags[64];
	char diag_msgs[64][256];
	int nev;
	struct evcopy ev[MAX_EV];
};

static void on_event(void *ctx, const struct sonde_event *ev)
{
	struct cap *c = ctx;
	sonde_sink_syst_csv.event(c->sink, ev, &c->ses);
	if (c->nev < MAX_EV) {
		struct evcopy *e = &c->ev[c->nev];
		memset(e, 0, sizeof(*e));
		e->kind = ev->kind;
		e->flags = ev->flags;
		e->level = ev->level;
		e->ts = ev->ts;
		e->ts_flags = ev->ts_flags;
		e->obj = ev->obj;
		e->frame = ev->frame;
		e->offset = ev->offset;
		e->nargs = ev->nargs;
		e->rec_id = ev->rec_id;
		e->value = ev->value;
		if (ev->nargs)
			e->arg0 = ev->args[0];
		snprintf(e->text, sizeof(e->text), "%s", ev->text ? ev->text : "");
		snprintf(e->rec, sizeof(e->rec), "%s", ev->rec_name ? ev->rec_name : "");
		snprintf(e->obj_name, sizeof(e->obj_name), "%s", ev->obj_name ? ev->obj_name : "");
	}
	c->nev++;
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct cap *c = ctx;
	if (c->ndiag < 64) {
		c->diags[c->ndiag] = *d;
		snprintf(c->diag_msgs[c->ndiag], sizeof(c->diag_msgs[0]), "%s", d->msg);
		c->diags[c->ndiag].msg = c->diag_msgs[c->ndiag];
	}
	c->ndiag++;
	c->diag_codes[d->code]++;
}

static struct cap *cap_new(void)
{
	struct cap *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	c->ses.proto = "syst";
	c->mem = open_memstream(&c->out, &c->outlen);
	assert_non_null(c->mem);
	c->sink = sonde_sink_syst_csv.create(c->mem, NULL);
	assert_non_null(c->sink);
	return c;
}

static void cap_free(struct cap *c)
{
	free(c->out);
	free(c);
}

/* Decode data fed in chunks of 'chunk' bytes (0: all at once; SIZE_MAX:
 * pseudo-random sizes 1..300).  Returns NULL if the decoder refused the
 * options. */
static struct cap *decode(const uint8_t *data, size_t n, size_t chunk, const char *const *opts)
{
	struct cap *c = cap_new();
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->ses };
	void *dec = sonde_decoder_syst.create(&out, opts);
	if (!dec) {
		sonde_sink_syst_csv.destroy(c->sink);
		fclose(c->mem);
		return c;
	}
	uint32_t rnd = 12345;
	size_t pos = 0;
	while (pos < n) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			rnd = rnd * 1103515245u + 12345u;
			k = 1 + (rnd >> 16) % 300;
		}
		if (k > n - pos)
			k = n - pos;
		sonde_decoder_syst.feed(dec, data + pos, k);
		pos += k;
	}
	sonde_decoder_syst.finish(dec);
	sonde_decoder_syst.destroy(dec);
	assert_int_equal(sonde_sink_syst_csv.finish(c->sink, &c->ses), 0);
	sonde_sink_syst_csv.destroy(c->sink);
	fclose(c->mem);
	return c;
}

static const char *const opts_printer[] = {
	"syst.collateral=collateral.xml", "syst.guid=" GUID, NULL
};

/* ---------------------------------------------------------- CSV rows */

#define MAXF 16
struct row {
	int n;
	char f[MAXF][1024];
};

/* Split one CSV line; quoted fields are un-quoted. */
static void split(const char *s, struct row *r)
{
	memset(r, 0, sizeof(*r));
	for (;;) {
		char *o = r->f[r->n];
		size_t k = 0;
		if (*s == '"') {
			s++;
			while (*s && !(*s == '"' && s[1] != '"')) {
				if (*s == '"')
					s++;
				if (k < 1023)
					o[k++] = *s;
				s++;
			}
			if (*s == '"')
				s++;
		}
		while (*s && *s != ',' && *s != '\n') {
			if (k < 1023)
				o[k++] = *s;
			s++;
		}
		o[k] = 0;
		r->n++;
		if (*s != ',' || r->n == MAXF)
			break;
		s++;
	}
}

enum { C_STATUS, C_PAYLOAD, C_TYPE, C_SEV, C_ORIGIN, C_UNIT, C_MTS, C_CTS, C_LOC, C_RAWLEN,
       C_CHK, C_COLL };

/* Fields other than 'except' equal? */
static int same_except(const struct row *a, const struct row *b, int except)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (i != except && strcmp(a->f[i], b->f[i]) != 0)
			return 0;
	return 1;
}

static int is_hex(const char *s, size_t digits)
{
	if (strlen(s) != digits)
		return 0;
	for (size_t i = 0; i < digits; i++)
		if (!strchr("0123456789ABCDEF", s[i]))
			return 0;
	return 1;
}

/* The printer's hex dump (P3): every byte after the first loses its
 * leading zero. */
static void p3_dump(const char *ours, char *out)
{
	size_t k = 0;
	for (size_t i = 0; ours[i] && ours[i + 1]; i += 2) {
		if (i == 0 || ours[i] != '0')
			out[k++] = ours[i];
		out[k++] = ours[i + 1];
	}
	out[k] = 0;
}

/* Payloads equal except numbers where the printer shows a negative 32-bit
 * value of a 32-bit client as unsigned (P9)? */
static int p9_equal(const char *exp, const char *got)
{
	int diffs = 0;
	while (*exp || *got) {
		if (*exp == *got) {
			exp++;
			got++;
			continue;
		}
		char *e1, *g1;
		unsigned long long e = strtoull(exp, &e1, 10);
		long long g = strtoll(got, &g1, 10);
		if (*got != '-' || e1 == exp || g1 == got || e != (unsigned long long)(g + 4294967296LL))
			return 0;
		diffs++;
		exp = e1;
		got = g1;
	}
	return diffs > 0;
}

/* Why does our row differ from the printer's?  The name of the known
 * printer bug, or NULL if it is not explained. */
static const char *explain(const char *exp_line, const char *got_line, int client64)
{
	static struct row e, g;
	split(exp_line, &e);
	split(got_line, &g);
	const char *es = e.f[C_STATUS], *gs = g.f[C_STATUS];

	/* P7: CLOCK is decoded (README: clock 0x123456789ABC, 1 GHz) */
	if (!strcmp(es, "UNKNOWN_TYPE") && !strncmp(e.f[C_PAYLOAD], "08", 2) && !strcmp(gs, "OK") &&
	    !strcmp(g.f[C_TYPE], "CLOCK:SYNC") &&
	    !strcmp(g.f[C_PAYLOAD], "clock 0x0000123456789ABC freq 1000000000 Hz") &&
	    !strcmp(g.f[C_SEV], "MAX") && !strcmp(g.f[C_ORIGIN], "demo"))
		return "P7";
	/* P13: a string without NUL is decoded; its text is in the dump */
	if (!strcmp(es, "TOO_SHORT") && !strcmp(gs, "OK") && !strcmp(g.f[C_TYPE], "STRING:GENERIC") &&
	    g.f[C_PAYLOAD][0]) {
		char hex[600];
		size_t k = 0;
		for (const char *p = g.f[C_PAYLOAD]; *p && k < sizeof(hex) - 3; p++)
			k += (size_t)sprintf(hex + k, "%02X", (unsigned char)*p);
		if (strstr(e.f[C_PAYLOAD], hex))
			return "P13";
	}
	if (strcmp(es, gs) != 0 || e.n != 12 || g.n != 12)
		return NULL;
	/* P3: hex dumps with every byte zero-padded */
	if (!strcmp(es, "MISSING_COLLATERAL") && same_except(&e, &g, C_PAYLOAD)) {
		static char dump[2100];
		p3_dump(g.f[C_PAYLOAD], dump);
		return strcmp(dump, e.f[C_PAYLOAD]) ? NULL : "P3";
	}
	/* P2: "Undefined catalog id 0x0x..." */
	if (same_except(&e, &g, C_PAYLOAD) && strstr(e.f[C_PAYLOAD], "0x0x")) {
		char fixed[1024];
		const char *at = strstr(e.f[C_PAYLOAD], "0x0x");
		snprintf(fixed, sizeof(fixed), "%.*s%s", (int)(at - e.f[C_PAYLOAD]), e.f[C_PAYLOAD], at + 2);
		return strcmp(fixed, g.f[C_PAYLOAD]) ? NULL : "P2";
	}
	/* P1: COMPACT ids lose bits 20-21 (README: ids 0x2ABCDE, 0x2ABCDEF0123456) */
	if (!strncmp(g.f[C_TYPE], "BUILD:COMPACT", 13) && same_except(&e, &g, C_PAYLOAD)) {
		unsigned long long ev = strtoull(e.f[C_PAYLOAD], NULL, 16);
		unsigned long long gv = strtoull(g.f[C_PAYLOAD], NULL, 16);
		unsigned long long want = strcmp(g.f[C_TYPE], "BUILD:COMPACT32") ? 0x2ABCDEF0123456ull
									      : 0x2ABCDEull;
		return gv == want && (gv & ~(3ull << 20)) == ev ? "P1" : NULL;
	}
	/* P9: 32-bit client %ld negatives */
	if (same_except(&e, &g, C_PAYLOAD) && strstr(g.f[C_TYPE], "32") &&
	    p9_equal(e.f[C_PAYLOAD], g.f[C_PAYLOAD]))
		return "P9";
	/* P5: 64-bit code addresses are printed */
	if (client64 && same_except(&e, &g, C_LOC)) {
		const char *el = e.f[C_LOC], *gl = g.f[C_LOC];
		size_t l = strlen(el);
		if (l && (strncmp(gl, el, l) || gl[l] != ' '))
			return NULL;
		gl += l ? l + 1 : 0;
		return !strncmp(gl, "0x", 2) && is_hex(gl + 2, 16) ? "P5" : NULL;
	}
	return NULL;
}

struct bugcount {
	int p1, p2, p3, p5, p7, p9, p13;
};

/* Compare our CSV with X.printer.csv row by row. */
static void compare_printer(const char *ours, const char *name, int client64, struct bugcount want)
{
	char path[512];
	snprintf(path, sizeof(path), "%s.printer.csv", name);
	size_t n;
	char *exp = (char *)test_slurp(path, &n);
	struct bugcount got = { 0 };
	char *es = exp, *gs = (char *)ours;
	int rowno = 0, same = 0;
	for (;;) {
		char *ee = strchr(es, '\n'), *ge = strchr(gs, '\n');
		if (!ee || !ge) {
			assert_null(ee);
			assert_null(ge);
			break;
		}
		*ee = 0;
		*ge = 0;
		if (!strcmp(es, gs)) {
			same++;
		} else {
			const char *why = explain(es, gs, client64);
			if (!why)
				fail_msg("%s row %d differs unexplained:\n printer: %s\n sonde:   %s", name, rowno, es, gs);
			got.p1 += !strcmp(why, "P1");
			got.p2 += !strcmp(why, "P2");
			got.p3 += !strcmp(why, "P3");
			got.p5 += !strcmp(why, "P5");
			got.p7 += !strcmp(why, "P7");
			got.p9 += !strcmp(why, "P9");
			got.p13 += !strcmp(why, "P13");
		}
		*ge = '\n';
		es = ee + 1;
		gs = ge + 1;
		rowno++;
	}
	print_message("%s: %d rows, %d identical; differences: P1 %d, P2 %d, P3 %d, P5 %d, P7 %d, P9 %d, P13 %d\n",
		      name, rowno, same, got.p1, got.p2, got.p3, got.p5, got.p7, got.p9, got.p13);
	assert_int_equal(got.p1, want.p1);
	assert_int_equal(got.p2, want.p2);
	assert_int_equal(got.p3, want.p3);
	assert_int_equal(got.p5, want.p5);
	assert_int_equal(got.p7, want.p7);
	assert_int_equal(got.p9, want.p9);
	assert_int_equal(got.p13, want.p13);
	free(exp);
}

/* Decode file (all chunkings, container given and autodetected) and
 * compare with the printer. */
static void check_file(const char *file, const char *name, const char *container, int client64,
		       struct bugcount want)
{
	size_t n;
	uint8_t *data = test_slurp(file, &n);
	char copt[64];
	snprintf(copt, sizeof(copt), "syst.container=%s", container);
	const char *const opts[] = { opts_printer[0], opts_printer[1], copt, NULL };

	struct cap *whole = decode(data, n, 0, opts_printer); /* autodetected */
	assert_non_null(whole->out);
	assert_int_equal(whole->ndiag, 0);
	compare_printer(whole->out, name, client64, want);

	static const size_t chunks[] = { 0, 1, 7, 4096, SIZE_MAX };
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct cap *c = decode(data, n, chunks[i], opts);
		assert_int_equal(c->ndiag, 0);
		assert_int_equal(c->outlen, whole->outlen);
		assert_memory_equal(c->out, whole->out, whole->outlen);
		cap_free(c);
	}
	cap_free(whole);
	free(data);
}

/* ----------------------------------------------------- testdata tests */

static void test_mix64_len(void **state)
{
	(void)state;
	check_file("mix_64.bin", "mix_64", "len", 1,
		   (struct bugcount){ .p1 = 8, .p2 = 4, .p3 = 1, .p5 = 8, .p7 = 4, .p13 = 4 });
}

static void test_mix64_hex(void **state)
{
	(void)state;
	check_file("mix_64.hex.txt", "mix_64", "hex", 1,
		   (struct bugcount){ .p1 = 8, .p2 = 4, .p3 = 1, .p5 = 8, .p7 = 4, .p13 = 4 });
}

static void test_mix32len_len(void **state)
{
	(void)state;
	check_file("mix_32len.bin", "mix_32len", "len", 0,
		   (struct bugcount){ .p1 = 16, .p2 = 8, .p3 = 1, .p7 = 8, .p9 = 16, .p13 = 8 });
}

static void test_mix32len_hex(void **state)
{
	(void)state;
	check_file("mix_32len.hex.txt", "mix_32len", "hex", 0,
		   (struct bugcount){ .p1 = 16, .p2 = 8, .p3 = 1, .p7 = 8, .p9 = 16, .p13 = 8 });
}

static void test_lenonly32_len(void **state)
{
	(void)state;
	check_file("lenonly_32.bin", "lenonly_32", "len", 0,
		   (struct bugcount){ .p1 = 8, .p2 = 4, .p3 = 1, .p7 = 4, .p9 = 8, .p13 = 4 });
}

static void test_lenonly32_raw(void **state)
{
	(void)state;
	check_file("lenonly_32.raw.bin", "lenonly_32", "raw", 0,
		   (struct bugcount){ .p1 = 8, .p2 = 4, .p3 = 1, .p7 = 4, .p9 = 8, .p13 = 4 });
}


/* ------------------------------------------------------ event mapping */

static const struct evcopy *find_ev(const struct cap *c, const char *rec, const char *text)
{
	for (int i = 0; i < c->nev && i < MAX_EV; i++)
		if (!strcmp(c->ev[i].rec, rec) && (!text || !strcmp(c->ev[i].text, text)))
			return &c->ev[i];
	return NULL;
}

static void test_events(void **state)
{
	(void)state;
	size_t n;
	uint8_t *data = test_slurp("mix_32len.bin", &n);
	struct cap *c = decode(data, n, 0, opts_printer);
	assert_int_equal(c->nev, 510);
	assert_int_equal(c->ses.addr_size, 4);
	assert_int_equal(c->ses.ts_freq, 1000000000);
	assert_string_equal(c->ses.proto, "syst");

	/* every message: frame number in order; offset of its header (after
	 * the 4-byte length prefix) */
	uint64_t off = 0;
	for (int i = 0; i < c->nev; i++) {
		assert_int_equal(c->ev[i].frame, i);
		uint32_t len = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | (uint32_t)data[off + 3] << 24;
		assert_int_equal(c->ev[i].offset, off + 4);
		off += 4 + len;
	}
	assert_int_equal(off, n);

	const struct evcopy *e = &c->ev[0];
	assert_int_equal(e->kind, SONDE_EV_INFO);
	assert_string_equal(e->rec, "BUILD:LONG");
	assert_int_equal(e->arg0.v.u, 0x0001000200030004ull);
	assert_int_equal(e->ts_flags, 0);

	static const struct { const char *text; uint32_t level; } sev[] = {
		{ "severity MAX message", SONDE_LVL_INFO }, { "severity FATAL message", SONDE_LVL_ERROR },
		{ "severity ERROR message", SONDE_LVL_ERROR }, { "severity WARNING message", SONDE_LVL_WARN },
		{ "severity INFO message", SONDE_LVL_INFO }, { "severity USER1 message", SONDE_LVL_DEBUG },
		{ "severity USER2 message", SONDE_LVL_DEBUG }, { "severity DEBUG message", SONDE_LVL_DEBUG },
	};
	for (size_t i = 0; i < sizeof(sev) / sizeof(sev[0]); i++) {
		e = find_ev(c, "STRING:GENERIC", sev[i].text);
		assert_non_null(e);
		assert_int_equal(e->kind, SONDE_EV_LOG);
		assert_int_equal(e->level, sev[i].level);
		assert_string_equal(e->obj_name, "demo");
		assert_int_equal(e->obj, 1); /* unit */
	}
	e = find_ev(c, "STRING:ENTER", NULL);
	assert_non_null(e);
	assert_int_equal(e->kind, SONDE_EV_FUNC_ENTER);
	assert_string_equal(e->obj_name, "holdout_func");
	const struct evcopy *x = find_ev(c, "STRING:EXIT", NULL);
	assert_int_equal(x->kind, SONDE_EV_FUNC_EXIT);
	assert_int_equal(x->obj, e->obj); /* same function, same id */

	e = find_ev(c, "CATALOG:ID32P32", "catalog32 string 'cow' int 3");
	assert_non_null(e);
	assert_int_equal(e->kind, SONDE_EV_LOG);
	assert_int_equal(e->level, SONDE_LVL_WARN);
	assert_int_equal(e->nargs, 2);
	assert_int_equal(e->arg0.type, SONDE_A_STR);
	assert_int_equal(e->arg0.v.mem.n, 3);
	assert_int_equal(e->rec_id, 1 << 4 | 3); /* subtype << 4 | type */
	assert_int_equal(e->value, 0x1002);      /* the catalog id */

	e = find_ev(c, "SHORT32", "short32 error code 5");
	assert_non_null(e);
	assert_int_equal(e->kind, SONDE_EV_LOG);
	assert_int_equal(e->arg0.v.u, 0x0E000005);

	e = find_ev(c, "RAW:proto33", NULL);
	assert_non_null(e);
	assert_int_equal(e->rec_id, 0x21 << 4 | 6);
	assert_int_equal(e->kind, SONDE_EV_RECORD);
	assert_int_equal(e->arg0.type, SONDE_A_MEM);
	assert_int_equal(e->arg0.v.mem.n, 6);

	e = find_ev(c, "CLOCK:SYNC", NULL);
	assert_non_null(e);
	assert_int_equal(e->kind, SONDE_EV_TIME_SYNC);
	assert_int_equal(e->ts, 0x123456789ABCull);
	assert_int_equal(e->ts_flags, SONDE_TS_VALID);

	/* the first message of the TS blocks: deterministic clock base */
	e = find_ev(c, "BUILD:LONG", NULL);
	int with_ts = 0;
	for (int i = 0; i < c->nev; i++) {
		if (!strcmp(c->ev[i].rec, "BUILD:LONG") && c->ev[i].ts_flags == SONDE_TS_VALID) {
			assert_int_equal(c->ev[i].ts, 0x00060D5A3C000000ull);
			with_ts = 1;
			break;
		}
	}
	assert_true(with_ts);

	e = find_ev(c, "CATALOG:ID32P32", NULL);
	for (int i = 0; i < c->nev; i++)
		if (!strcmp(c->ev[i].obj_name, "{8887160a-c965-463b-9f43-1efe9fdfe3f9}") &&
		    !strncmp(c->ev[i].rec, "CATALOG", 7))
			e = &c->ev[i];
	assert_int_equal(e->kind, SONDE_EV_RECORD); /* MISSING_COLLATERAL */
	assert_int_equal(e->obj, 0x5A5);
	cap_free(c);
	free(data);

	data = test_slurp("mix_64.bin", &n);
	c = decode(data, n, 0, opts_printer);
	assert_int_equal(c->ses.addr_size, 8);
	cap_free(c);
	free(data);
}

/* ------------------------------------------------- synthetic messages */

static const uint8_t demo_guid[16] = { 0x49, 0x4E, 0x54, 0x43, 0x8A, 0x9C, 0x40, 0x14,
				       0xA6, 0x5A, 0x2F, 0x36, 0xA3, 0x6D, 0x96, 0xE4 };

/* A STRING/GENERIC INFO message from the demo GUID, unit 1, with LEN and
 * CHK (unless flags say otherwise). */
static size_t string_msg(uint8_t *out, const char *text, uint32_t flags)
{
	uint32_t h = 0x02u | 4u << 4 | 1u << 12 | 1u << 23 | 1u << 24 | flags;
	size_t k = 0, tl = strlen(text) + 1;
	for (int i = 0; i < 4; i++)
		out[k++] = (uint8_t)(h >> (8 * i));
	memcpy(out + k, demo_guid, 16);
	k += 16;
	if (h & (1u << 9)) {
		out[k++] = (uint8_t)tl;
		out[k++] = (uint8_t)(tl >> 8);
	}
	memcpy(out + k, text, tl);
	k += tl;
	if (h & (1u << 10)) {
		uint32_t crc = syst_crc32c(out, k);
		for (int i = 0; i < 4; i++)
			out[k++] = (uint8_t)(crc >> (8 * i));
	}
	return k;
}

#define LEN_CHK ((1u << 9) | (1u << 10))

static size_t put_len(uint8_t *out, const uint8_t *msg, size_t n)
{
	out[0] = (uint8_t)n;
	out[1] = (uint8_t)(n >> 8);
	out[2] = out[3] = 0;
	memcpy(out + 4, msg, n);
	return n + 4;
}

/* Rows of the output after the header, as one string. */
static const char *rows(const struct cap *c)
{
	const char *nl = strchr(c->out, '\n');
	return nl ? nl + 1 : "";
}

static int count_rows(const struct cap *c)
{
	int n = 0;
	for (const char *p = rows(c); *p; p++)
		n += *p == '\n';
	return n;
}

static const char *const opts_len[] = { "syst.collateral=collateral.xml", "syst.container=len", NULL };
static const char *const opts_raw[] = { "syst.collateral=collateral.xml", "syst.container=raw", NULL };
static const char *const opts_hex[] = { "syst.collateral=collateral.xml", "syst.container=hex", NULL };

static void test_bad_crc(void **state)
{
	(void)state;
	uint8_t m[256], s[1024];
	size_t k = 0, n, off1;
	n = string_msg(m, "one", LEN_CHK);
	k += put_len(s + k, m, n);
	off1 = k + 4;
	n = string_msg(m, "two", LEN_CHK);
	m[n - 6] ^= 0x01; /* a payload byte */
	k += put_len(s + k, m, n);
	n = string_msg(m, "three", LEN_CHK);
	k += put_len(s + k, m, n);
	struct cap *c = decode(s, k, 0, opts_len);
	assert_int_equal(c->ndiag, 1);
	assert_int_equal(c->diags[0].code, SONDE_D_BAD_CHECKSUM);
	assert_int_equal(c->diags[0].offset, off1);
	assert_int_equal(c->diags[0].frame, 1);
	assert_int_equal(c->nev, 3);
	assert_true(c->ev[1].flags & SONDE_EVF_MALFORMED);
	assert_string_equal(c->ev[1].rec, "CHECKSUM_ERROR");
	assert_int_equal(count_rows(c), 3);
	assert_non_null(strstr(rows(c), "\nCHECKSUM_ERROR,\"42168001494E5443"));
	assert_non_null(strstr(rows(c), "\nOK,\"three\",STRING:GENERIC,INFO,demo,1,"));
	cap_free(c);
}

static void test_truncated(void **state)
{
	(void)state;
	uint8_t m[256], s[1024];
	size_t k = 0, n, cut;
	n = string_msg(m, "one", LEN_CHK);
	k += put_len(s + k, m, n);
	cut = k;
	n = string_msg(m, "two", LEN_CHK);
	k += put_len(s + k, m, n) - 3;
	for (int mode = 0; mode < 2; mode++) {
		struct cap *c = mode ? decode(s + 4, cut - 4 + (k - cut) - 4, 1, opts_raw)
				     : decode(s, k, 1, opts_len);
		/* raw: the same two messages without length prefixes */
		if (mode) {
			uint8_t r[512];
			size_t rk = string_msg(r, "one", LEN_CHK);
			size_t part = string_msg(r + rk, "two", LEN_CHK) - 3;
			cap_free(c);
			c = decode(r, rk + part, 1, opts_raw);
			cut = rk;
			assert_int_equal(c->diags[0].count, part);
		} else {
			assert_int_equal(c->diags[0].count, k - cut);
		}
		assert_int_equal(c->ndiag, 1);
		assert_int_equal(c->diags[0].code, SONDE_D_TRUNCATED);
		assert_int_equal(c->diags[0].offset, cut);
		assert_int_equal(c->diags[0].frame, 1);
		assert_int_equal(c->nev, 1);
		cap_free(c);
	}
}

static void test_unknown_type_and_length(void **state)
{
	(void)state;
	uint8_t m[256], s[1024];
	size_t k = 0, n;
	n = string_msg(m, "one", LEN_CHK);
	m[0] = (uint8_t)((m[0] & 0xF0) | 4); /* reserved type 4 */
	uint32_t crc = syst_crc32c(m, n - 4);
	memcpy(m + n - 4, &crc, 4);
	k += put_len(s + k, m, n);
	n = string_msg(m, "two", 1u << 9); /* LEN 4, but 2 bytes more follow */
	memcpy(m + n, "xy", 2);
	k += put_len(s + k, m, n + 2);
	struct cap *c = decode(s, k, 0, opts_len);
	assert_int_equal(c->ndiag, 2);
	assert_int_equal(c->diags[0].code, SONDE_D_UNKNOWN_RECORD);
	assert_int_equal(c->diags[0].offset, 4);
	assert_int_equal(c->diags[1].code, SONDE_D_TOO_LONG);
	assert_int_equal(c->diags[1].frame, 1);
	assert_true(!strncmp(rows(c), "UNKNOWN_TYPE,\"", 14));
	/* the printer calls this UNKNOWN_STATE (P6) */
	assert_non_null(strstr(rows(c), "\nTOO_LONG,\""));
	cap_free(c);
}

static void test_bad_container_length(void **state)
{
	(void)state;
	uint8_t m[256], s[1024];
	size_t k = 0, n, bad, bad2;
	n = string_msg(m, "one", LEN_CHK);
	k += put_len(s + k, m, n);
	bad = k;
	memset(s + k, 0xFF, 5); /* an impossible length and a stray byte */
	k += 5;
	n = string_msg(m, "two", 0);
	k += put_len(s + k, m, n);
	bad2 = k;
	memcpy(s + k, "\0\0\0\0", 4); /* a zero length: a message of no bytes */
	k += 4;
	size_t two_at = k;
	memcpy(s + k, "\2\0\0\0\x32\x22", 6); /* length 2: a message too short */
	k += 6;
	n = string_msg(m, "bad crc", LEN_CHK);
	m[n - 1] ^= 0x80;
	k += put_len(s + k, m, n);
	n = string_msg(m, "three", LEN_CHK);
	k += put_len(s + k, m, n);
	static const size_t chunks[] = { 0, 1, 3 };
	for (size_t i = 0; i < 3; i++) {
		struct cap *c = decode(s, k, chunks[i], opts_len);
		assert_int_equal(c->ndiag, 5);
		assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
		assert_int_equal(c->diags[0].offset, bad);
		assert_int_equal(c->diags[1].code, SONDE_D_GARBAGE);
		assert_int_equal(c->diags[1].offset, bad);
		assert_int_equal(c->diags[1].count, 5);
		/* lengths below 4 still delimit their messages: each is too
		 * short, and the next one is found where the length says */
		assert_int_equal(c->diags[2].code, SONDE_D_TOO_SHORT);
		assert_int_equal(c->diags[2].offset, bad2 + 4);
		assert_int_equal(c->diags[2].frame, 2);
		assert_int_equal(c->diags[3].code, SONDE_D_TOO_SHORT);
		assert_int_equal(c->diags[3].offset, two_at + 4);
		/* a bad CRC is reported as such */
		assert_int_equal(c->diags[4].code, SONDE_D_BAD_CHECKSUM);
		assert_int_equal(c->diags[4].offset, two_at + 10);
		assert_int_equal(c->nev, 6);
		assert_non_null(strstr(rows(c), "\nOK,\"two\","));
		assert_non_null(strstr(rows(c), "\nTOO_SHORT,\"\",,,,,,\n"));
		assert_non_null(strstr(rows(c), "\nTOO_SHORT,\"3222\",,,,,,\n"));
		assert_non_null(strstr(rows(c), "\nCHECKSUM_ERROR,"));
		assert_non_null(strstr(rows(c), "\nOK,\"three\","));
		cap_free(c);
	}
}

/* A container length larger than its message (a corrupted length word):
 * the message says where it ends (LEN field, CRC, a string's NUL), the
 * next record starts there, and it is decoded from there, whatever the
 * chunks.  Bytes after a message inside its own container are reported. */
static void test_oversized_container(void **state)
{
	(void)state;
	static const uint32_t kinds[] = { 1u << 9, 1u << 10, 0 }; /* LEN, CHK, a bare string */
	for (size_t kd = 0; kd < 3; kd++) {
		uint8_t m[256], s[1024];
		size_t k = 0, n, bad;
		n = string_msg(m, "one", kinds[kd]);
		bad = k;
		k += put_len(s + k, m, n);
		s[bad] = (uint8_t)(n + 40); /* the length word says 40 bytes more */
		k += put_len(s + k, m, string_msg(m, "two", LEN_CHK));
		k += put_len(s + k, m, string_msg(m, "three", LEN_CHK));
		size_t last = k, nlast = string_msg(m, "four", kinds[kd]);
		k += put_len(s + k, m, nlast);
		static const size_t chunks[] = { 0, 1, 7 };
		for (size_t i = 0; i < 3; i++) {
			struct cap *c = decode(s, k, chunks[i], opts_len);
			assert_int_equal(c->ndiag, 1);
			assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
			assert_int_equal(c->diags[0].offset, bad);
			assert_non_null(strstr(c->diags[0].msg, "the length word is wrong"));
			assert_int_equal(c->nev, 4); /* none lost */
			assert_non_null(strstr(rows(c), "OK,\"one\","));
			assert_non_null(strstr(rows(c), "\nOK,\"two\","));
			assert_non_null(strstr(rows(c), "\nOK,\"four\","));
			cap_free(c);
		}
		/* the last record's length word too large: the input ends first */
		s[last] = (uint8_t)(nlast + 9);
		struct cap *c = decode(s, k, 1, opts_len);
		assert_int_equal(c->nev, 4);
		assert_int_equal(c->ndiag, 2);
		assert_int_equal(c->diags[1].offset, last);
		assert_non_null(strstr(c->diags[1].msg, "and the input 0 bytes later"));
		cap_free(c);
	}
	/* three bytes after a bare string inside its container: said */
	uint8_t m[256], s[256];
	size_t n = string_msg(m, "one", 0);
	memcpy(m + n, "xyz", 3);
	size_t k = put_len(s, m, n + 3);
	k += put_len(s + k, m, string_msg(m, "two", 0));
	struct cap *c = decode(s, k, 0, opts_len);
	assert_int_equal(c->nev, 2);
	assert_int_equal(c->ndiag, 1);
	assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
	assert_int_equal(c->diags[0].offset, 4 + n);
	assert_int_equal(c->diags[0].count, 3);
	cap_free(c);
}

static void test_raw_without_len(void **state)
{
	(void)state;
	uint8_t s[1024];
	size_t k = 0, bad;
	k += string_msg(s + k, "one", LEN_CHK);
	bad = k;
	k += string_msg(s + k, "zzzz", 0); /* not self-delimiting */
	size_t third = k;
	k += string_msg(s + k, "three", LEN_CHK);
	struct cap *c = decode(s, k, 1, opts_raw);
	assert_int_equal(c->ndiag, 2);
	assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
	assert_int_equal(c->diags[0].offset, bad);
	assert_int_equal(c->diags[1].code, SONDE_D_GARBAGE);
	assert_int_equal(c->diags[1].offset, bad);
	assert_int_equal(c->diags[1].count, third - bad);
	assert_int_equal(c->nev, 2);
	assert_int_equal(c->ev[1].offset, third);
	assert_non_null(strstr(rows(c), "\nOK,\"three\","));
	cap_free(c);
}

/* SBD (not in the test data: the printer cannot decode it, P7) and a
 * module-origin message without collateral (P4). */
static void test_sbd_and_module(void **state)
{
	(void)state;
	/* SBD, INFO, 64-bit id, name, 32-bit address; module 0x12 unit 3 */
	static const uint8_t sbd[] = {
		0x49, 0x32, 0x12, 0x0B, 0x11, 0x00,
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* id */
		0x78, 0x56, 0x34, 0x12,                         /* address */
		'n', 'm', 0, 0xA0, 0xA1                         /* name, blob */
	};
	uint8_t s[64];
	size_t k = put_len(s, sbd, sizeof(sbd));
	const char *const opts[] = { "syst.container=len", NULL };
	struct cap *c = decode(s, k, 0, opts);
	assert_int_equal(c->ndiag, 0);
	assert_string_equal(rows(c), "OK,\"sbd id=0x1122334455667788 addr=0x12345678 name=nm data=a0a1\","
			    "SBD:ID64,INFO,{00000000-0000-0012-0000-000000000000},3,,0x0000000000000000,,23,,\n");
	assert_int_equal(c->nev, 1);
	assert_int_equal(c->ev[0].kind, SONDE_EV_RECORD);
	assert_int_equal(c->ev[0].nargs, 4);
	assert_int_equal(c->ev[0].arg0.v.u, 0x1122334455667788ull);
	assert_int_equal(c->ev[0].obj, 3);
	cap_free(c);
}

static size_t hex_line(char *out, const uint8_t *m, size_t n, int lower, const char *eol)
{
	size_t k = (size_t)sprintf(out, "SYS-T RAW DATA: ");
	for (size_t i = 0; i < n; i++)
		k += (size_t)sprintf(out + k, lower ? "%02x" : "%02X", m[i]);
	return k + (size_t)sprintf(out + k, "%s", eol);
}

static void test_hex_lines(void **state)
{
	(void)state;
	static char t[4096];
	uint8_t m[256];
	size_t k = 0, n, o_blank, o_odd, o_digit;
	k += (size_t)sprintf(t + k, "IO listing: write 0x1234\n");
	n = string_msg(m, "one", 0);
	k += hex_line(t + k, m, n, 0, "\r\n");
	o_blank = k;
	k += (size_t)sprintf(t + k, " ");
	k += hex_line(t + k, m, n, 0, "\n");
	o_odd = k;
	k += (size_t)sprintf(t + k, "SYS-T RAW DATA: 021\n");
	o_digit = k;
	k += (size_t)sprintf(t + k, "SYS-T RAW DATA: 02G0\n");
	n = string_msg(m, "two", LEN_CHK);
	k += hex_line(t + k, m, n, 1, ""); /* last line: no newline */
	static const size_t chunks[] = { 0, 1, 5 };
	for (size_t i = 0; i < 3; i++) {
		struct cap *c = decode((const uint8_t *)t, k, chunks[i], opts_hex);
		assert_int_equal(c->nev, 2);
		assert_int_equal(c->ndiag, 3);
		assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
		assert_int_equal(c->diags[0].offset, o_blank);
		assert_int_equal(c->diags[1].offset, o_odd);
		assert_int_equal(c->diags[2].offset, o_digit + 18); /* the 'G' */
		assert_int_equal(c->ev[0].offset, 25);
		assert_true(!strncmp(rows(c), "OK,\"one\",STRING:GENERIC,INFO,demo,1,", 36));
		assert_non_null(strstr(rows(c), "\nOK,\"two\","));
		cap_free(c);
	}
}

static void test_hex_overlong(void **state)
{
	(void)state;
	/* a console line longer than any message is no error; a data line is */
	size_t big = 2 * 70000;
	char *t = malloc(2 * big + 1024);
	assert_non_null(t);
	memset(t, 'x', big);
	size_t k = big;
	t[k++] = '\n';
	size_t data_at = k;
	k += (size_t)sprintf(t + k, "SYS-T RAW DATA: ");
	memset(t + k, 'A', big);
	k += big;
	t[k++] = '\n';
	uint8_t m[256];
	size_t n = string_msg(m, "after", LEN_CHK);
	k += hex_line(t + k, m, n, 0, "\n");
	struct cap *whole = decode((uint8_t *)t, k, 0, opts_hex);
	struct cap *bytes = decode((uint8_t *)t, k, 1, opts_hex);
	assert_int_equal(whole->ndiag, 1);
	assert_int_equal(whole->diags[0].code, SONDE_D_TOO_LONG);
	assert_int_equal(whole->diags[0].offset, data_at);
	assert_int_equal(whole->nev, 1);
	assert_int_equal(bytes->ndiag, 1);
	assert_int_equal(bytes->diags[0].code, SONDE_D_TOO_LONG);
	assert_int_equal(bytes->diags[0].offset, data_at);
	assert_int_equal(bytes->nev, 1);
	assert_string_equal(whole->out, bytes->out);
	cap_free(whole);
	cap_free(bytes);
	free(t);
}

static void test_options(void **state)
{
	(void)state;
	static const char *const bad[][2] = {
		{ "syst.container=ascii", NULL }, { "syst.guid=494E5443", NULL },
		{ "stp.order=big", NULL }, { "syst.collateral=/nonexistent/collateral.xml", NULL },
	};
	/* a bad option is said once as the tool's message (core/opts.h); a
	 * collateral file that cannot be read is a finding about an input */
	static const char *const said_want[] = {
		"sonde: -o syst.container=ascii: expected auto, len, raw, hex or stp\n",
		"sonde: -o syst.guid=494E5443: expected {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}\n",
		"sonde: -o stp.order=big: expected auto, lsn or msn\n",
		"",
	};
	for (size_t i = 0; i < 4; i++) {
		struct cap *c = cap_new();
		struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->ses };
		char *said = NULL;
		size_t said_len = 0;
		FILE *err = open_memstream(&said, &said_len);
		assert_non_null(err);
		sonde_msg_to(err);
		assert_null(sonde_decoder_syst.create(&out, bad[i]));
		sonde_msg_to(NULL);
		fclose(err);
		assert_string_equal(said, said_want[i]);
		free(said);
		assert_int_equal(c->ndiag, said_want[i][0] ? 0 : 1);
		sonde_sink_syst_csv.destroy(c->sink);
		fclose(c->mem);
		cap_free(c);
	}
	/* not well-formed XML: refused, with the byte offset of the error */
	char path[] = "/tmp/test_syst_collXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char xml[] = "<syst:Collateral xmlns:syst=\"http://www.mipi.org/1.0/sys-t\">\n<syst:Client Name=\"x\">\n</syst:Collateral>\n";
	assert_int_equal(write(fd, xml, sizeof(xml) - 1), (ssize_t)(sizeof(xml) - 1));
	close(fd);
	char opt[64];
	snprintf(opt, sizeof(opt), "syst.collateral=%s", path);
	const char *const o[] = { opt, NULL };
	struct cap *c = cap_new();
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = c, .session = &c->ses };
	assert_null(sonde_decoder_syst.create(&out, o));
	assert_int_equal(c->ndiag, 1);
	assert_int_equal(c->diags[0].code, SONDE_D_MALFORMED);
	assert_int_equal(c->diags[0].offset, strstr(xml, "</syst:Collateral>") - xml + 2);
	assert_non_null(strstr(c->diags[0].msg, ":3:"));
	sonde_sink_syst_csv.destroy(c->sink);
	fclose(c->mem);
	cap_free(c);
	unlink(path);
}

/* ---------------------------------------------------------- robustness */

/* Mutated and random inputs in every container: no crash (the sanitizer
 * build checks memory), and feeding byte by byte or in random chunks gives
 * exactly the output and the diagnostics of one big chunk. */
static void same_every_chunking(const uint8_t *data, size_t n, const char *const *opts)
{
	struct cap *a = decode(data, n, 0, opts);
	struct cap *b = decode(data, n, 1, opts);
	struct cap *r = decode(data, n, SIZE_MAX, opts);
	assert_int_equal(a->outlen, b->outlen);
	assert_memory_equal(a->out, b->out, a->outlen);
	assert_int_equal(a->outlen, r->outlen);
	assert_memory_equal(a->out, r->out, a->outlen);
	assert_int_equal(a->ndiag, b->ndiag);
	assert_int_equal(a->ndiag, r->ndiag);
	for (int i = 0; i < a->ndiag && i < 64; i++) {
		assert_int_equal(a->diags[i].code, b->diags[i].code);
		assert_int_equal(a->diags[i].offset, b->diags[i].offset);
		assert_int_equal(a->diags[i].count, b->diags[i].count);
	}
	cap_free(a);
	cap_free(b);
	cap_free(r);
}

static void test_mutations(void **state)
{
	(void)state;
	static const char *const files[] = { "mix_32len.bin", "lenonly_32.raw.bin", "mix_64.hex.txt" };
	static const char *const *const optsets[] = { opts_len, opts_raw, opts_hex };
	static const char *const opts_auto[] = { "syst.collateral=collateral.xml", NULL };
	uint32_t rnd = 99;
	for (int f = 0; f < 3; f++) {
		size_t n;
		uint8_t *orig = test_slurp(files[f], &n);
		uint8_t *data = malloc(n + 64);
		assert_non_null(data);
		for (int round = 0; round < 12; round++) {
			memcpy(data, orig, n);
			size_t len = n;
			int edits = 1 + round % 8;
			for (int e = 0; e < edits; e++) {
				rnd = rnd * 1103515245u + 12345u;
				size_t at = (rnd >> 8) % len;
				rnd = rnd * 1103515245u + 12345u;
				data[at] ^= (uint8_t)(1u + (rnd >> 24) % 255u);
			}
			if (round % 3 == 2)
				len -= (rnd >> 4) % 200;
			same_every_chunking(data, len, optsets[f]);
			same_every_chunking(data, len, opts_auto);
		}
		free(data);
		free(orig);
	}
	/* regression: a hex file with a binary byte after its first line was
	 * detected as hex when fed byte by byte, as binary when fed whole */
	size_t hn;
	uint8_t *hex = test_slurp("mix_64.hex.txt", &hn);
	hex[300] = 0x01;
	same_every_chunking(hex, hn, opts_auto);
	free(hex);

	/* pure noise */
	size_t n = 20000;
	uint8_t *noise = malloc(n);
	assert_non_null(noise);
	for (size_t i = 0; i < n; i++) {
		rnd = rnd * 1103515245u + 12345u;
		noise[i] = (uint8_t)(rnd >> 24);
	}
	for (int f = 0; f < 3; f++)
		same_every_chunking(noise, n, optsets[f]);
	free(noise);
}

/* Decisions taken from part of a record must wait for the whole of it:
 * a header seen before its LEN field looks plausible, and what looked
 * plausible in a 1-byte feed was refused in one chunk (found by
 * fuzz_syst).  Both places: resynchronising after a bad length, and the
 * record that may follow a message inside a container longer than it. */
static void test_decide_on_whole_record(void **state)
{
	(void)state;
	uint8_t m[256], s[1024];
	size_t k = 0, n;
	/* resynchronising: a length word of 40 before a 26-byte message whose
	 * LEN field says so: not a record, whatever the chunks */
	k += put_len(s + k, m, string_msg(m, "one", LEN_CHK));
	memset(s + k, 0xFF, 5);
	k += 5;
	n = string_msg(m, "two", 1u << 9);
	k += put_len(s + k, m, n);
	s[k - n - 4] = 40;
	memset(s + k, 0, 14);
	k += 14;
	k += put_len(s + k, m, string_msg(m, "three", LEN_CHK));
	same_every_chunking(s, k, opts_len);
	struct cap *c = decode(s, k, 1, opts_len);
	assert_int_equal(c->diags[1].code, SONDE_D_GARBAGE);
	assert_int_equal(c->diags[1].count, 5 + 4 + 26 + 14);
	cap_free(c);

	/* a container 40 bytes longer than its message, and after the message
	 * a length word of 30 before a 26-byte message: no record starts there,
	 * so the container is taken as it is */
	k = 0;
	n = string_msg(m, "one", LEN_CHK);
	k += put_len(s + k, m, n);
	s[0] = (uint8_t)(n + 40);
	size_t n2 = string_msg(m, "two", 1u << 9);
	k += put_len(s + k, m, n2);
	s[k - n2 - 4] = 30;
	memset(s + k, 0, 40 - 4 - n2);
	k += 40 - 4 - n2;
	k += put_len(s + k, m, string_msg(m, "three", LEN_CHK));
	same_every_chunking(s, k, opts_len);
	c = decode(s, k, 1, opts_len);
	assert_int_equal(c->nev, 2);
	for (int i = 0; i < c->ndiag; i++)
		assert_null(strstr(c->diags[i].msg, "the length word is wrong"));
	cap_free(c);
}

/* --------------------------------------------------------------- probe */

static void test_probe(void **state)
{
	(void)state;
	static const struct { const char *file; int min; } ours[] = {
		{ "mix_64.bin", 70 }, { "mix_32len.bin", 70 }, { "lenonly_32.bin", 70 },
		{ "lenonly_32.raw.bin", 50 }, { "mix_64.hex.txt", 90 }, { "mix_32len.hex.txt", 90 },
	};
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		size_t n;
		uint8_t *d = test_slurp(ours[i].file, &n);
		assert_true(sonde_decoder_syst.probe(d, n) >= ours[i].min);
		assert_true(sonde_decoder_syst.probe(d, n < 512 ? n : 512) >= ours[i].min);
		free(d);
	}
	/* streams whose first messages are corrupt are still recognised: the
	 * container's lengths (or the messages' LEN fields) chain up and most
	 * messages check out */
	{
		size_t n;
		uint8_t *d = test_slurp("mix_64.bin", &n);
		uint8_t *e = malloc(n + 6);
		assert_non_null(e);
		memcpy(e, "\2\0\0\0\x32\x22", 6); /* a message too short */
		memcpy(e + 6, d, n);
		memset(e + 6 + 4, 0xFF, 4);        /* the next one's header broken */
		assert_true(sonde_decoder_syst.probe(e, n + 6) >= 60);
		assert_true(sonde_decoder_syst.probe(e, 512) >= 60);
		free(e);
		free(d);
		d = test_slurp("lenonly_32.raw.bin", &n);
		uint8_t m[256];
		size_t mn = string_msg(m, "crc", LEN_CHK);
		m[mn - 1] ^= 0x80;                 /* a first message whose CRC is wrong */
		e = malloc(mn + n);
		assert_non_null(e);
		memcpy(e, m, mn);
		memcpy(e + mn, d, n);
		assert_true(sonde_decoder_syst.probe(e, mn + n) >= 40);
		free(e);
		free(d);
	}
	/* QS streams and the other protocols' test data are not SyS-T */
	static const char *const theirs[] = {
		"../qs/dpp_posix-qv_x86.bin", "../qs/defer_posix-qv_x64.bin",
		"../qs/qsfmt_user_formats_x86.bin", "../qs/dpp_posix-qv_x86.qspy.txt",
		"../tband/bm_snapshot_rich.bin", "../tband/repo_examples_POSIX_FreeRTOS_log.bin",
		"collateral.xml",
	};
	for (size_t i = 0; i < sizeof(theirs) / sizeof(theirs[0]); i++) {
		size_t n;
		uint8_t *d = test_slurp(theirs[i], &n);
		assert_int_equal(sonde_decoder_syst.probe(d, n), 0);
		free(d);
	}
	/* Sonde HDLC frames (including ones whose bytes happen to look like
	 * a plausible container length) */
	uint8_t s[4096];
	size_t k = 0;
	for (int i = 0; i < 100; i++) {
		uint8_t data[8] = { (uint8_t)i, 0, 0, 0, 0x12, 0x10, 0x80, 0x01 };
		k += hdlc_encode((uint8_t)i, (uint8_t)(0x40 + i % 8), data, sizeof(data), s + k);
	}
	assert_int_equal(sonde_decoder_syst.probe(s, k), 0);
	assert_int_equal(sonde_decoder_syst.probe(s + 11, k - 11), 0);
	uint8_t zeros[256] = { 0 };
	assert_int_equal(sonde_decoder_syst.probe(zeros, sizeof(zeros)), 0);
	assert_int_equal(sonde_decoder_syst.probe(zeros, 0), 0);
}

static int setup(void **state)
{
	(void)state;
	return chdir(SONDE_TESTDATA "/syst");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix64_len),
		cmocka_unit_test(test_mix64_hex),
		cmocka_unit_test(test_mix32len_len),
		cmocka_unit_test(test_mix32len_hex),
		cmocka_unit_test(test_lenonly32_len),
		cmocka_unit_test(test_lenonly32_raw),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_bad_crc),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_unknown_type_and_length),
		cmocka_unit_test(test_bad_container_length),
		cmocka_unit_test(test_oversized_container),
		cmocka_unit_test(test_raw_without_len),
		cmocka_unit_test(test_sbd_and_module),
		cmocka_unit_test(test_hex_lines),
		cmocka_unit_test(test_hex_overlong),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_decide_on_whole_record),
		cmocka_unit_test(test_probe),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
