/*
 * test_qs_testdata.c -- the QS decoder on the real QP/C 7.4 captures in
 * testdata/qs/: decoded through the qspy sink, the output must equal QSPY
 * 7.4.0's decode (X.qspy.txt from line 4 on) byte for byte, whatever the
 * chunk sizes the input is fed in, with no diagnostics.  Also: the QSPY .dic
 * file (dictionaries and sizes for a stream joined mid-way), and the event
 * model the decoder builds from these streams.
 *
 * Known differences from QSPY: none occur in these three captures (every
 * line matches).  The differences Sonde makes on purpose (error reporting)
 * are tested in test_qs_frames.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "framers/framer_hdlc.h"
#include "pipeline.h"
#include "sonde_proto.h"

extern const struct sonde_decoder_ops sonde_decoder_qs;
extern const struct sonde_sink_ops sonde_sink_qspy;

static const char *const files[] = { "dpp_posix-qv_x86", "defer_posix-qv_x64", "qsfmt_user_formats_x86" };

/* ---- helpers ------------------------------------------------------------ */

static const char *testdata_dir(void)
{
	const char *env = getenv("SONDE_TESTDATA");
	return env && *env ? env : SONDE_TESTDATA;
}

static char *read_file(const char *name, size_t *n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/qs/%s", testdata_dir(), name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	char *buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	*n = (size_t)len;
	return buf;
}

static char *testdata_path(const char *name)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/qs/%s", testdata_dir(), name);
	return path;
}

/* The reference decode without QSPY's 3 banner lines. */
static char *reference(const char *base)
{
	char name[128];
	size_t n;
	snprintf(name, sizeof(name), "%s.qspy.txt", base);
	char *ref = read_file(name, &n);
	char *p = ref;
	for (int i = 0; i < 3; i++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	memmove(ref, p, strlen(p) + 1);
	return ref;
}

static size_t count_lines_with(const char *text, const char *needle)
{
	size_t k = 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *hit = strstr(line, needle);
		if (hit && hit < line + len)
			k++;
		line += len + (nl != NULL);
	}
	return k;
}

/* One decode run: the qspy sink writes into memory; events and diagnostics
 * are also counted and checked here. */
struct run {
	FILE *mem;
	char *text;
	size_t len;
	void *sink;
	struct sonde_session sess;
	size_t diags;
	size_t kinds[SONDE_EV_KIND_COUNT];
	void (*check)(struct run *r, const struct sonde_event *ev);
	size_t checked;
	char aos[16][64];
	size_t n_aos;
};

static void on_event(void *ctx, const struct sonde_event *ev)
{
	struct run *r = ctx;
	assert_true((unsigned)ev->kind < SONDE_EV_KIND_COUNT);
	r->kinds[ev->kind]++;
	if (ev->native)
		assert_null(strchr(ev->native, '\n'));
	if (r->check)
		r->check(r, ev);
	sonde_sink_qspy.event(r->sink, ev, &r->sess);
}

static void on_diag(void *ctx, const struct sonde_diag *d)
{
	struct run *r = ctx;
	r->diags++;
	sonde_sink_qspy.diag(r->sink, d, &r->sess);
}

static void run_decode(struct run *r, const uint8_t *buf, size_t n, size_t chunk, const char **opts)
{
	memset(r->kinds, 0, sizeof(r->kinds));
	memset(&r->sess, 0, sizeof(r->sess));
	r->diags = 0;
	r->text = NULL;
	r->len = 0;
	r->mem = open_memstream(&r->text, &r->len);
	assert_non_null(r->mem);
	r->sink = sonde_sink_qspy.create(r->mem, opts);
	assert_non_null(r->sink);
	struct sonde_out out = { .event = on_event, .diag = on_diag, .ctx = r, .session = &r->sess };
	void *d = sonde_decoder_qs.create(&out, opts);
	assert_non_null(d);
	uint32_t lcg = 12345;
	for (size_t i = 0; i < n;) {
		size_t k = chunk;
		if (chunk == 0) { /* random chunk sizes 1..700 */
			lcg = lcg * 1103515245u + 12345u;
			k = 1 + (lcg >> 16) % 700;
		}
		if (k > n - i)
			k = n - i;
		sonde_decoder_qs.feed(d, buf + i, k);
		i += k;
	}
	sonde_decoder_qs.finish(d);
	sonde_decoder_qs.destroy(d);
	assert_int_equal(sonde_sink_qspy.finish(r->sink, &r->sess), 0);
	sonde_sink_qspy.destroy(r->sink);
	fclose(r->mem);
}

static void assert_same_text(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return;
	size_t line = 1;
	const char *g = got, *w = want;
	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++;
		w++;
	}
	const char *gn = strchr(g, '\n'), *wn = strchr(w, '\n');
	fail_msg("output differs at line %zu:\n got: %.*s\nwant: %.*s", line,
		 (int)(gn ? gn - g : (long)strlen(g)), g, (int)(wn ? wn - w : (long)strlen(w)), w);
}

/* ---- the three captures against QSPY -------------------------------------- */

static void test_matches_qspy(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char name[128];
		size_t n;
		snprintf(name, sizeof(name), "%s.bin", files[i]);
		char *bin = read_file(name, &n);
		char *want = reference(files[i]);
		struct run r = { 0 };
		run_decode(&r, (const uint8_t *)bin, n, n, NULL);
		assert_int_equal(r.diags, 0);
		assert_same_text(r.text, want);
		free(r.text);
		free(want);
		free(bin);
	}
}

/* Fed 1 byte at a time, or in random chunks, the output is the same. */
static void test_chunking(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char name[128];
		size_t n;
		snprintf(name, sizeof(name), "%s.bin", files[i]);
		char *bin = read_file(name, &n);
		char *want = reference(files[i]);
		struct run r = { 0 };
		run_decode(&r, (const uint8_t *)bin, n, 1, NULL);
		assert_same_text(r.text, want);
		free(r.text);
		run_decode(&r, (const uint8_t *)bin, n, 0, NULL);
		assert_same_text(r.text, want);
		free(r.text);
		free(want);
		free(bin);
	}
}

/* ---- the .dic file ------------------------------------------------------- */

/* The capture re-framed without the frames QSPY needs to learn sizes and
 * names (QS_EMPTY, TARGET_INFO, all dictionary records), re-sequenced so
 * that no discontinuity shows: a stream joined after the start-up. */
struct strip {
	uint8_t *out;
	size_t n;
	uint8_t seq;
};

static void strip_frame(void *ctx, enum hdlc_status s, const uint8_t *f, size_t len, uint64_t off,
			size_t raw)
{
	struct strip *st = ctx;
	(void)off;
	(void)raw;
	assert_int_equal(s, HDLC_OK);
	uint8_t rec = f[1];
	if (rec == 0 || rec == 54 || (rec >= 60 && rec <= 64))
		return;
	st->n += hdlc_encode(++st->seq, rec, f + 2, len - 3, st->out + st->n);
}

static uint8_t *strip_setup_frames(const uint8_t *bin, size_t n, size_t *out_n)
{
	struct strip st = { malloc(2 * n + 16), 0, 0 };
	assert_non_null(st.out);
	struct hdlc_framer fr;
	uint8_t frame[1024];
	hdlc_init(&fr, frame, sizeof(frame), strip_frame, &st);
	hdlc_feed(&fr, bin, n);
	*out_n = st.n;
	return st.out;
}

static char *drop_lines(const char *text, const char *const *needles)
{
	char *out = malloc(strlen(text) + 1);
	assert_non_null(out);
	size_t k = 0;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		int drop = 0;
		for (size_t i = 0; needles[i]; i++)
			if (strncmp(line, needles[i], strlen(needles[i])) == 0)
				drop = 1;
		if (!drop) {
			memcpy(out + k, line, len);
			k += len;
		}
		line += len;
	}
	out[k] = '\0';
	return out;
}

/* QSPY with -d FILE: "Reading dictionaries from File=FILE" before the first
 * record and again after every target info line (checked with QSPY 7.4). */
static char *with_dic_notices(const char *text, const char *file)
{
	char notice[700];
	size_t nn = (size_t)snprintf(notice, sizeof(notice), "   <QSPY-> Reading dictionaries from File=%s\n", file);
	size_t lines = 1;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	char *out = malloc(strlen(text) + nn * (lines + 1) + 1);
	assert_non_null(out);
	memcpy(out, notice, nn);
	size_t k = nn;
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
		memcpy(out + k, line, len);
		k += len;
		if (strncmp(line, "           Trg-RST ", 19) == 0 || strncmp(line, "           Trg-Info ", 20) == 0) {
			memcpy(out + k, notice, nn);
			k += nn;
		}
		line += len;
	}
	out[k] = '\0';
	return out;
}

static void test_dic_file(void **state)
{
	(void)state;
	size_t n, sn;
	char *bin = read_file("dpp_posix-qv_x86.bin", &n);
	char *want = reference("dpp_posix-qv_x86");
	char opt[600];
	snprintf(opt, sizeof(opt), "qs.dic=%s", testdata_path("dpp_posix-qv_x86.dic"));
	const char *opts[] = { opt, NULL };

	/* with the whole stream: the .dic is re-read after TARGET_INFO and
	 * agrees with it, nothing changes */
	struct run r = { 0 };
	run_decode(&r, (const uint8_t *)bin, n, n, opts);
	assert_int_equal(r.diags, 0);
	char *want_dic = with_dic_notices(want, testdata_path("dpp_posix-qv_x86.dic"));
	assert_same_text(r.text, want_dic);
	free(want_dic);
	free(r.text);

	/* joined mid-way: sizes (-Q2) and names come from the .dic alone */
	uint8_t *mid = strip_setup_frames((const uint8_t *)bin, n, &sn);
	static const char *const setup[] = {
		"           Obj-Dict", "           Fun-Dict", "           Sig-Dict",
		"           Usr-Dict", "           Trg-RST", "           Trg-Info", NULL,
	};
	char *want_mid = drop_lines(want, setup);
	assert_true(strlen(want_mid) < strlen(want));
	run_decode(&r, mid, sn, sn, opts);
	assert_int_equal(r.diags, 0);
	want_dic = with_dic_notices(want_mid, testdata_path("dpp_posix-qv_x86.dic"));
	assert_same_text(r.text, want_dic);
	free(want_dic);
	free(r.text);

	/* without the .dic, QSPY's default queue-counter size (1) is wrong for
	 * this target (2): every AO-Post has 2 bytes left over (2 counters), every
	 * AO-Get 1, as with QSPY */
	run_decode(&r, mid, sn, sn, NULL);
	assert_true(count_lines_with(want, " AO-Post ") > 0);
	assert_true(count_lines_with(want, " AO-Get ") > 0);
	assert_int_equal(count_lines_with(r.text, "   <COMMS> ERROR    2 bytes unused in Rec=QS_QF_ACTIVE_POST"),
			 count_lines_with(want, " AO-Post "));
	assert_int_equal(count_lines_with(r.text, "   <COMMS> ERROR    1 bytes unused in Rec=QS_QF_ACTIVE_GET"),
			 count_lines_with(want, " AO-Get "));
	assert_int_equal(r.diags, count_lines_with(want, " AO-Post ") + count_lines_with(want, " AO-Get "));
	assert_non_null(strstr(r.text, "AO-Subsc Obj=0x08057300,Sig=00000004,Obj=0x08057300\n"));
	free(r.text);

	/* the size given as an option instead (QSPY's letter or the long name) */
	const char *q2[] = { "qs.Q=2", NULL };
	run_decode(&r, mid, sn, sn, q2);
	assert_int_equal(r.diags, 0);
	const char *eqc2[] = { "qs.eqc=2", NULL };
	char *first = r.text;
	run_decode(&r, mid, sn, sn, eqc2);
	assert_int_equal(r.diags, 0);
	assert_string_equal(first, r.text);
	free(first);
	free(r.text);

	free(want_mid);
	free(mid);
	free(want);
	free(bin);
}

/* ---- the event model ---------------------------------------------------- */

static void check_dpp(struct run *r, const struct sonde_event *ev)
{
	switch (ev->kind) {
	case SONDE_EV_TASK_CREATE:
		assert_non_null(ev->obj_name);
		assert_true(r->n_aos < 16);
		snprintf(r->aos[r->n_aos++], 64, "%s", ev->obj_name);
		assert_null(ev->native);
		break;
	case SONDE_EV_STATE:
		/* on the machine's track, names resolved */
		assert_non_null(ev->text);
		assert_non_null(ev->obj_name);
		assert_non_null(ev->obj2_name);
		if (strcmp(ev->text, "tran") == 0) {
			assert_int_equal(ev->nargs, 4);
			assert_int_equal(ev->args[0].type, SONDE_A_ENUM);
			assert_non_null(ev->args[0].resolved); /* the signal's name */
			assert_string_equal(ev->args[3].name, "target");
			assert_int_equal(ev->obj2, ev->args[3].v.u);
		}
		break;
	case SONDE_EV_RECORD:
		if (ev->native && ev->native[0] != ' ' && ev->native[0] != '=') {
			/* timed: the event time is the raw timestamp (no wrap here) */
			assert_true(ev->ts_flags & SONDE_TS_VALID);
			assert_false(ev->ts_flags & SONDE_TS_ESTIMATED);
			assert_int_equal(ev->ts, strtoull(ev->native, NULL, 10));
		}
		if (strcmp(ev->rec_name, "PHILO_STAT") == 0) {
			assert_int_equal(ev->nargs, 2);
			assert_int_equal(ev->args[0].type, SONDE_A_U8);
			assert_int_equal(ev->args[1].type, SONDE_A_STR);
			r->checked++;
		}
		break;
	case SONDE_EV_DICT:
		assert_non_null(ev->text);
		/* the key's resolved name is the entry just stored (DPP re-sends
		 * its function names: the old entry is gone by now) */
		if (ev->args[0].type == SONDE_A_OBJ || ev->args[0].type == SONDE_A_FUNC)
			assert_string_equal(ev->args[0].resolved, ev->text);
		assert_true(ev->obj2 == SONDE_DICT_OBJECT || ev->obj2 == SONDE_DICT_FUNCTION ||
			    ev->obj2 == SONDE_DICT_RECORD || ev->obj2 == 0x80 /* signal */);
		break;
	case SONDE_EV_INFO:
		assert_int_equal(r->sess.version, 740);
		assert_int_equal(r->sess.addr_size, 4);
		break;
	default:
		break;
	}
	assert_int_equal(ev->frame + 1, r->sess.frames);
}

static void test_event_model(void **state)
{
	(void)state;
	size_t n;
	char *bin = read_file("dpp_posix-qv_x86.bin", &n);
	char *want = reference("dpp_posix-qv_x86");
	struct run r = { .check = check_dpp };
	run_decode(&r, (const uint8_t *)bin, n, n, NULL);
	assert_string_equal(r.sess.proto, "qs");
	assert_int_equal(r.sess.lost_unexplained, 0);
	/* frames: every line of the reference plus the QS_EMPTY */
	assert_int_equal(r.sess.frames, count_lines_with(want, "") + 1);
	/* the five philosophers and the table became tasks, each once */
	assert_int_equal(r.kinds[SONDE_EV_TASK_CREATE], 6);
	for (int i = 0; i < 5; i++) {
		char name[32];
		snprintf(name, sizeof(name), "Philo_inst[%d]", i);
		int found = 0;
		for (size_t k = 0; k < r.n_aos; k++)
			found += strcmp(r.aos[k], name) == 0;
		assert_int_equal(found, 1);
	}
	size_t states = 0;
	static const char *const sm_tags[] = { "St-Entry", "St-Exit ", "St-Init ", "Init===>", "=>Intern",
					       "===>Tran", "=>Ignore", "Disp===>", "St-Unhnd" };
	for (size_t i = 0; i < sizeof(sm_tags) / sizeof(sm_tags[0]); i++)
		states += count_lines_with(want, sm_tags[i]);
	assert_int_equal(r.kinds[SONDE_EV_STATE], states);
	assert_int_equal(r.kinds[SONDE_EV_INFO], 2);
	assert_int_equal(r.kinds[SONDE_EV_DICT], count_lines_with(want, "-Dict "));
	assert_int_equal(r.checked, count_lines_with(want, " PHILO_STAT "));
	free(r.text);
	free(want);
	free(bin);
}

static void check_fmt(struct run *r, const struct sonde_event *ev)
{
	if (ev->kind == SONDE_EV_LOG) {
		assert_int_equal(ev->level, SONDE_LVL_ERROR);
		assert_string_equal(ev->text, "Mod=qsfmt,Loc=123");
		r->checked++;
	}
	if (ev->kind != SONDE_EV_RECORD || !ev->rec_name)
		return;
	if (strcmp(ev->rec_name, "FMT_INTS") == 0) {
		static const enum sonde_arg_type t[] = { SONDE_A_U8, SONDE_A_I8, SONDE_A_U16,
							 SONDE_A_I16, SONDE_A_U32, SONDE_A_I32 };
		assert_int_equal(ev->nargs, 6);
		for (int i = 0; i < 6; i++)
			assert_int_equal(ev->args[i].type, t[i]);
		assert_int_equal(ev->args[1].v.i, -(int64_t)ev->args[0].v.u);
		assert_int_equal(ev->args[4].v.u, ev->args[0].v.u * 100000);
		r->checked++;
	} else if (strcmp(ev->rec_name, "FMT_PTRS") == 0) {
		assert_int_equal(ev->nargs, 9); /* 5 pointers, 2 signals with their objects */
		assert_string_equal(ev->args[0].resolved, "objA");
		assert_string_equal(ev->args[1].resolved, "objB[1]");
		assert_null(ev->args[2].resolved);
		assert_int_equal(ev->args[3].type, SONDE_A_FUNC);
		assert_string_equal(ev->args[3].resolved, "funA");
		assert_string_equal(ev->args[7].resolved, "OTHER_SIG");
		assert_int_equal(ev->args[7].group, 0x100);
		assert_string_equal(ev->args[8].resolved, "objA");
		r->checked++;
	} else if (strcmp(ev->rec_name, "FMT_STRMEM") == 0) {
		assert_int_equal(ev->args[0].type, SONDE_A_STR);
		assert_int_equal(ev->args[0].v.mem.n, 5);
		assert_memory_equal(ev->args[0].v.mem.p, "hello", 5);
		assert_int_equal(ev->args[1].v.mem.n, 0);
		assert_int_equal(ev->args[2].type, SONDE_A_MEM);
		r->checked++;
	} else if (strcmp(ev->rec_name, "FMT_ENUMS") == 0) {
		assert_int_equal(ev->args[1].group, 7);
		assert_non_null(ev->args[1].resolved);
		assert_null(ev->args[2].resolved); /* group 1 has no dictionary */
		r->checked++;
	} else if (strcmp(ev->rec_name, "FMT_HEX") == 0) {
		assert_int_equal(ev->args[3].type, SONDE_A_HEX);
		assert_true(ev->args[3].v.u == 0x0123456789ABCDEFull);
		r->checked++;
	}
}

static void test_user_record_args(void **state)
{
	(void)state;
	size_t n;
	char *bin = read_file("qsfmt_user_formats_x86.bin", &n);
	char *want = reference("qsfmt_user_formats_x86");
	struct run r = { .check = check_fmt };
	run_decode(&r, (const uint8_t *)bin, n, n, NULL);
	assert_int_equal(r.checked, count_lines_with(want, " FMT_INTS ") + count_lines_with(want, " FMT_PTRS ") +
					    count_lines_with(want, " FMT_STRMEM ") +
					    count_lines_with(want, " FMT_ENUMS ") +
					    count_lines_with(want, " FMT_HEX ") + count_lines_with(want, "=ASSERT="));
	free(r.text);
	free(want);
	free(bin);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_qspy),
		cmocka_unit_test(test_chunking),
		cmocka_unit_test(test_dic_file),
		cmocka_unit_test(test_event_model),
		cmocka_unit_test(test_user_record_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
