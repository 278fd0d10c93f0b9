/*
 * fuzz_util.c -- helpers shared by the libFuzzer harnesses (fuzz_util.h).
 */
#include "fuzz_util.h"

#include <ftw.h>
#include <sanitizer/common_interface_defs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json_tokener.h>
#include <json-c/json_object.h>

#include "analysis/an.h"
#include "analysis/rtos_stats.h"
#include "analysis/stats.h"
#include "core/pipe.h"
#include "core/select.h"
#include "perfetto_trace.pb-c.h"

uint8_t fuzz_take(struct fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

const char *fuzz_take_name(struct fuzz_in *in, char *buf, size_t cap)
{
	size_t k = 0;
	uint8_t b;
	while (in->n && (b = fuzz_take(in)) != 0)
		if (k + 1 < cap)
			buf[k++] = (char)b;
	buf[k] = '\0';
	return buf;
}

size_t fuzz_chunk_of(uint8_t b)
{
	return b == 0 ? 0 : 1u + b % 64u;
}

void fuzz_fail(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* through the sanitizers' report channel: libFuzzer keeps it open
	 * when it closes the harness's stderr (-close_fd_mask=2) */
	char line[2100];
	snprintf(line, sizeof(line), "FUZZ FINDING: %s", msg);
	__sanitizer_report_error_summary(line);
	abort();
}

static FILE *memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		fuzz_fail("open_memstream: out of memory");
	return f;
}

/* ---- a digest of every field of every event -------------------------------- */

static void h_bytes(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001B3ull;
}

static void h_u64(uint64_t *h, uint64_t v)
{
	h_bytes(h, &v, sizeof(v));
}

static void h_str(uint64_t *h, const char *s)
{
	if (!s) {
		h_u64(h, 0x5A5A5A5A5A5A5A5Aull); /* NULL differs from "" */
		return;
	}
	h_bytes(h, s, strlen(s) + 1);
}

static void digest_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct fuzz_result *r = ctx;
	uint64_t *h = &r->events_hash;
	(void)s;
	r->nevents++;
	h_u64(h, ev->kind);
	h_u64(h, ev->flags);
	h_u64(h, ev->ts);
	h_u64(h, ev->ts_flags);
	h_u64(h, ev->core);
	h_u64(h, ev->rec_id);
	h_str(h, ev->rec_name);
	h_u64(h, ev->obj);
	h_str(h, ev->obj_name);
	h_u64(h, ev->obj2);
	h_str(h, ev->obj2_name);
	h_u64(h, (uint64_t)ev->value);
	h_u64(h, ev->level);
	if (!r->no_text)
		h_str(h, ev->text);
	h_u64(h, ev->nargs);
	for (size_t i = 0; i < ev->nargs; i++) {
		const struct sonde_arg *a = &ev->args[i];
		h_u64(h, a->type);
		h_str(h, a->name);
		h_str(h, a->resolved);
		h_u64(h, a->group);
		if (a->type == SONDE_A_STR || a->type == SONDE_A_MEM) {
			h_u64(h, a->v.mem.n);
			h_bytes(h, a->v.mem.p, a->v.mem.n);
		} else {
			h_u64(h, a->v.u);
		}
	}
	h_str(h, ev->native);
	h_u64(h, ev->offset);
	h_u64(h, ev->frame);
	h_u64(h, ev->seq);
}

static void an_listen_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	an_event(ctx, ev, s);
}

static void an_listen_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	(void)s;
	an_diag(ctx, d);
}

/* The reports of `sonde stats`: text to out, JSON lines checked. */
static void stats_reports(struct sonde_stats *st, struct rtos_stats *rs, struct an_model *an, struct sonde_pipe *p,
			  FILE *out)
{
	char *json = NULL;
	size_t json_len = 0;
	FILE *js = memstream(&json, &json_len);
	if (sonde_stats_print(st, p, out) != 0 || an_write_text(an, out) != 0 ||
	    rtos_stats_print(rs, p->session.ts_freq, out) != 0 || an_write_jsonl(an, js) != 0)
		fuzz_fail("the stats reports could not be written to memory");
	if (fclose(js) != 0)
		fuzz_fail("memory stream: out of memory");
	fuzz_check_json_lines("the analyses' JSON lines", json, json_len);
	free(json);
}

/* ---- the output path of sinks that write one themselves (create_at) -------- */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	nftw(path, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

static char scratch_dir[64];

static void remove_scratch(void)
{
	remove_tree(scratch_dir);
}

/* "<dir>/out" in a directory of this process's own (in memory when
 * /dev/shm exists), emptied before each use and removed at exit. */
static const char *scratch_output(void)
{
	static char path[80];
	if (!scratch_dir[0]) {
		snprintf(scratch_dir, sizeof(scratch_dir), "%s/sonde-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(scratch_dir))
			fuzz_fail("cannot make a scratch directory for outputs that are paths");
		atexit(remove_scratch);
		snprintf(path, sizeof(path), "%s/out", scratch_dir);
	}
	remove_tree(path);
	return path;
}

void fuzz_decode_run(const struct fuzz_decode *d, const uint8_t *data, size_t n, struct fuzz_result *r)
{
	memset(r, 0, sizeof(*r));
	FILE *out = memstream(&r->out, &r->out_len);
	FILE *dg = memstream(&r->diags, &r->diags_len);
	struct sonde_pipe p;
	sonde_pipe_init(&p, d->opts, sonde_decoders);
	p.diag_out = dg;
	p.max_diags = 0;
	p.output_name = "<fuzz output>";
	const struct sonde_sink_ops *ops = d->sink ? sonde_sink_find(d->sink) : NULL;
	if (d->sink && !ops)
		fuzz_fail("no sink '%s' is registered", d->sink);
	if (ops && ops->create_at)
		p.output_path = scratch_output();
	if (strcmp(d->proto, "auto") != 0 && !sonde_decoder_find(d->proto))
		fuzz_fail("no decoder '%s' is registered", d->proto);
	struct sonde_listener digest = { .event = digest_event, .ctx = r, .no_text = d->no_text };
	r->events_hash = 0xCBF29CE484222325ull;
	r->no_text = d->no_text;
	sonde_pipe_add_listener(&p, &digest);
	struct sonde_select sel;
	sonde_select_init(&sel);
	for (size_t i = 0; d->select && d->select[i]; i += 2) {
		char err[256];
		if (sonde_select_option(&sel, d->select[i], d->select[i + 1], err, sizeof(err)) != 0)
			fuzz_fail("the harness's selection %s %s: %s", d->select[i], d->select[i + 1], err);
	}
	if (d->select)
		p.select = &sel;
	struct sonde_stats st;
	struct rtos_stats rs;
	sonde_stats_init(&st);
	rtos_stats_init(&rs);
	struct an_config acfg = { .window = d->an_window };
	struct an_model *an = d->stats ? an_new(&acfg) : NULL;
	/* The window table is capped (4 M cells, merged in pairs beyond): a
	 * 2 kB input can span 2^31 ticks and report 2 M windows, 130 MB of
	 * JSON, legitimately but too slowly for fuzzing.  A small cap keeps
	 * every path (merging more often) and the reports short. */
	if (an)
		an->max_cells = 20000;
	if (d->stats) {
		struct sonde_listener sl = sonde_stats_listener(&st), rl = rtos_stats_listener(&rs),
				      al = { .event = an_listen_event, .diag = an_listen_diag, .ctx = an, .no_text = 1 };
		if (!an)
			fuzz_fail("an_new: out of memory");
		sonde_pipe_add_listener(&p, &sl);
		sonde_pipe_add_listener(&p, &rl);
		sonde_pipe_add_listener(&p, &al);
	}
	if (ops && sonde_pipe_add_sink(&p, ops, out) != 0) {
		r->rc = SONDE_EXIT_USAGE;
	} else {
		/* --proto auto probes what sonde_pipe_begin gets: as much as
		 * sonde_pipe_run would give it, whatever the chunking. */
		size_t head = n, most = strcmp(d->proto, "auto") == 0 ? SONDE_PROBE_BYTES : d->chunk;
		if (most && head > most)
			head = most;
		r->rc = sonde_pipe_begin(&p, "<fuzz input>", d->proto, data, head);
		if (r->rc == 0) {
			for (size_t off = head; off < n;) {
				size_t k = d->chunk && d->chunk < n - off ? d->chunk : n - off;
				sonde_pipe_feed(&p, data + off, k);
				off += k;
			}
			r->rc = sonde_pipe_end(&p);
			if (an) {
				an_finish(an);
				stats_reports(&st, &rs, an, &p, out);
			}
		}
	}
	sonde_stats_free(&st);
	rtos_stats_free(&rs);
	an_free(an);
	sonde_select_free(&sel);
	r->session = p.session;
	sonde_pipe_destroy(&p);
	if (p.output_path)
		remove_tree(p.output_path);
	if (fclose(out) != 0 || fclose(dg) != 0)
		fuzz_fail("memory stream: out of memory");
}

void fuzz_result_free(struct fuzz_result *r)
{
	free(r->out);
	free(r->diags);
	memset(r, 0, sizeof(*r));
}

/* Up to 80 bytes of s from `from`, printable (other bytes as \xNN). */
static const char *excerpt(char *buf, size_t cap, const char *s, size_t n, size_t from)
{
	size_t k = 0;
	for (size_t i = from; i < n && i < from + 80 && k + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		k += (size_t)snprintf(buf + k, cap - k, c >= 0x20 && c < 0x7F ? "%c" : "\\x%02X", c);
	}
	buf[k] = '\0';
	return buf;
}

/* Abort, showing where two outputs part. */
static void differ(const char *what, const char *a, size_t na, const char *b, size_t nb, size_t chunk)
{
	char ea[400], eb[400];
	size_t i = 0;
	while (i < na && i < nb && a[i] == b[i])
		i++;
	size_t from = i > 40 ? i - 40 : 0;
	fuzz_fail("the %s depends on how the input is cut into chunks: first difference at byte %zu;\n"
		  "  whole input  (%zu bytes): ...%s\n  chunks of %zu (%zu bytes): ...%s",
		  what, i, na, excerpt(ea, sizeof(ea), a, na, from), chunk, nb, excerpt(eb, sizeof(eb), b, nb, from));
}

static void same(const char *what, const char *a, size_t na, const char *b, size_t nb, size_t chunk)
{
	if (na != nb || memcmp(a, b, na) != 0)
		differ(what, a, na, b, nb, chunk);
}

void fuzz_decode_check_chunks(const struct fuzz_decode *d, const uint8_t *data, size_t n, size_t chunk)
{
	struct fuzz_decode whole = *d, cut = *d;
	struct fuzz_result a, b;
	whole.chunk = 0;
	cut.chunk = chunk;
	fuzz_decode_run(&whole, data, n, &a);
	if (chunk == 0 || chunk >= n) {
		fuzz_result_free(&a);
		return;
	}
	fuzz_decode_run(&cut, data, n, &b);
	same("output", a.out, a.out_len, b.out, b.out_len, chunk);
	same("diagnostics", a.diags, a.diags_len, b.diags, b.diags_len, chunk);
	if (a.nevents != b.nevents || a.events_hash != b.events_hash)
		fuzz_fail("%zu events whole, %zu in chunks of %zu, or their fields differ", a.nevents, b.nevents,
			  chunk);
	if (a.rc != b.rc)
		fuzz_fail("exit status %d whole, %d in chunks of %zu", a.rc, b.rc, chunk);
	const struct sonde_session *x = &a.session, *y = &b.session;
	if (x->frames != y->frames || x->drops_overwritten != y->drops_overwritten ||
	    x->drops_refused != y->drops_refused || x->lost_link != y->lost_link ||
	    x->lost_unexplained != y->lost_unexplained)
		fuzz_fail("loss counters differ whole / in chunks of %zu", chunk);
	fuzz_result_free(&a);
	fuzz_result_free(&b);
}

const char *fuzz_data(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", FUZZ_DATA_DIR, name);
	return path;
}

const char *fuzz_memfile(const uint8_t *data, size_t n)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("sonde-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			fuzz_fail("memfd_create failed");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || (n && pwrite(fd, data, n, 0) != (ssize_t)n))
		fuzz_fail("writing the in-memory file failed");
	return path;
}

/* ---- output formats --------------------------------------------------------- */

void fuzz_check_json(const char *what, const char *text, size_t n)
{
	static struct json_tokener *tok;
	char where[200];
	if (!tok) {
		tok = json_tokener_new_ex(1000);
		if (!tok)
			fuzz_fail("json_tokener_new_ex: out of memory");
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	}
	json_tokener_reset(tok);
	if (n > INT32_MAX)
		fuzz_fail("%s: %zu bytes of JSON", what, n);
	struct json_object *o = json_tokener_parse_ex(tok, text, (int)n);
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t at = json_tokener_get_parse_end(tok);
	if (!o || e != json_tokener_success)
		fuzz_fail("%s is not valid JSON: %s at byte %zu of %zu: ...%s", what, json_tokener_error_desc(e), at, n,
			  excerpt(where, sizeof(where), text, n, at > 40 ? at - 40 : 0));
	json_object_put(o);
	for (; at < n; at++)
		if (!strchr(" \t\r\n", text[at]))
			fuzz_fail("%s: more than one JSON value (byte %zu of %zu)", what, at, n);
}

void fuzz_check_json_lines(const char *what, const char *text, size_t n)
{
	if (n && text[n - 1] != '\n')
		fuzz_fail("%s does not end with a newline", what);
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t len = (size_t)(nl - (text + i));
		fuzz_check_json(what, text + i, len);
		i += len + 1;
	}
}

void fuzz_check_perfetto(const char *what, const uint8_t *buf, size_t n)
{
	Perfetto__Protos__Trace *t = perfetto__protos__trace__unpack(NULL, n, buf);
	if (!t)
		fuzz_fail("%s: %zu bytes that do not unpack as a perfetto Trace", what, n);
	perfetto__protos__trace__free_unpacked(t, NULL);
}
