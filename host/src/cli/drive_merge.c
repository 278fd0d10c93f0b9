/*
 * drive_merge.c -- several inputs (FILE[@SPEC] operands, docs/cli.md
 * section 1), decoded and merged into one stream (drive.h); and the
 * helpers drive.c shares with it.  Below drive.c: nothing here calls it.
 *
 * Each input is decoded by a pipe of its own whose only listener feeds
 * core/merge.c; the merged stream goes to the sinks and listeners of one
 * more pipe, which has no decoder (core/pipe.h's sonde_pipe_emit_*).  The
 * inputs are read 4 KiB at a time, always the one the merge waits for, so
 * the merge's queues stay short.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "drive_merge.h"
#include "merge.h"
#include "opts.h"
#include "pipe.h"
#include "sources/source.h"
#include "core/msg.h"

void sonde_drive_print_inputs(FILE *out)
{
	fprintf(out,
		"Several inputs (one trace file per core, or any traces sharing one clock) are\n"
		"decoded each by a decoder of its own and merged into one stream in time order;\n"
		"each input's events get its core: its position (0, 1, ...) or FILE@N.  SPEC is\n"
		"N or KEY=VALUE[,KEY=VALUE...]: core=N, proto=NAME (instead of --proto), or an\n"
		"option for that input's decoder alone.  -o merge.max_queue=N: events held per\n"
		"input while waiting for the others (default %u).  See docs/cli.md section 1.\n",
		SONDE_MERGE_DEFAULT_EVENTS);
}

static int worst(int a, int b)
{
	return a > b ? a : b;
}

#define MERGE_READ 4096u /* bytes read at a time: queues grow by little */

struct minput {
	const char *arg;        /* as given */
	const char *name;       /* in messages */
	char *path;             /* owned */
	char *spec;             /* owned copy of what follows '@', cut at commas */
	const char *own[SONDE_DRIVE_MAX_OPTS + 1]; /* its decoder options */
	unsigned char own_used[SONDE_DRIVE_MAX_OPTS];
	size_t nown;
	const char *proto;
	uint32_t core;
	char core_kv[24];       /* "core=N", handed to the decoder */
	const char *kv[2 * SONDE_DRIVE_MAX_OPTS + 2]; /* the common options, its own, core=N */
	struct sonde_source src;
	int opened, ended;
	uint8_t *head;          /* the first bytes, read to probe the protocol */
	size_t nhead;
	int probe_error;        /* reading the head failed */
	const struct sonde_decoder_ops *dec;
	struct sonde_pipe pipe; /* its decoder; listeners[0] feeds the merge */
	struct mrun *run;
	size_t idx;
};

struct mrun {
	const struct sonde_drive *d;
	const struct sonde_drive_hooks *h;
	void *ctx;
	size_t n;
	struct minput *in;
	struct sonde_merge *m;
	struct sonde_pipe out;  /* the merged stream's sinks, listeners, totals */
	FILE *diag_out;
	uint64_t ndiags;        /* diagnostics of all inputs, printed or not */
	unsigned char used[SONDE_DRIVE_MAX_OPTS]; /* common options somebody looked up */
	char total_name[48];
	char protos[160];
};

/* s is one or more decimal digits and nothing else. */
static int is_number(const char *s)
{
	return s[0] && s[strspn(s, "0123456789")] == '\0';
}

static int parse_u32(const char *s, uint32_t *v)
{
	if (!is_number(s) || strlen(s) > 10)
		return -1;
	unsigned long long x = strtoull(s, NULL, 10);
	if (x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* The '@' that starts the SPEC of "FILE@SPEC": the last one, if what
 * follows is empty, a number or holds a '='; else NULL (an '@' that is
 * part of the file's name). */
const char *sonde_drive_spec_at(const char *arg)
{
	const char *at = strrchr(arg, '@');
	if (at && at[1] && !is_number(at + 1) && !strchr(at + 1, '='))
		return NULL;
	return at;
}

/* Split "FILE@SPEC" and read SPEC's keys.  pos is the input's position,
 * its core unless SPEC says otherwise.  Returns 0, or -1 after a message. */
static int input_parse(const struct sonde_drive *d, struct minput *in, const char *arg, size_t pos)
{
	const char *at = sonde_drive_spec_at(arg);
	in->arg = arg;
	in->core = (uint32_t)pos;
	in->proto = d->proto;
	in->path = at ? strndup(arg, (size_t)(at - arg)) : strdup(arg);
	in->spec = at ? strdup(at + 1) : NULL;
	if (!in->path || (at && !in->spec)) {
		sonde_err("out of memory");
		return -1;
	}
	in->name = strcmp(in->path, "-") == 0 ? "<stdin>" : arg;
	if (!*in->path) {
		sonde_err("'%s': no file name before '@'", arg);
		return -1;
	}
	if (!in->spec || !*in->spec)
		return 0;
	if (is_number(in->spec)) {
		if (parse_u32(in->spec, &in->core) != 0)
			goto bad_core;
		return 0;
	}
	for (char *item = in->spec, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		char *eq = strchr(item, '=');
		if (!eq || eq == item) {
			sonde_err("'%s': expected FILE@N or FILE@KEY=VALUE[,KEY=VALUE...], got '%s'",
				arg, item);
			return -1;
		}
		if (strncmp(item, "core=", 5) == 0) {
			if (parse_u32(eq + 1, &in->core) != 0)
				goto bad_core;
		} else if (strncmp(item, "proto=", 6) == 0) {
			in->proto = eq + 1;
			if (strcmp(in->proto, "auto") != 0 && !sonde_decoder_find(in->proto)) {
				char why[512];
				sonde_pipe_choose(sonde_decoders, in->proto, NULL, 0, why, sizeof(why));
				sonde_err("'%s': %s", arg, why);
				return -1;
			}
		} else if (in->nown == SONDE_DRIVE_MAX_OPTS) {
			sonde_err("'%s': too many options (at most %d)", arg, SONDE_DRIVE_MAX_OPTS);
			return -1;
		} else {
			in->own[in->nown++] = item;
		}
	}
	return 0;
bad_core:
	sonde_err("'%s': the core must be a number from 0 to 4294967295", arg);
	return -1;
}

int sonde_drive_spec_check(const struct sonde_drive *d, const char *arg, size_t pos)
{
	struct minput in;
	memset(&in, 0, sizeof(in));
	int rc = input_parse(d, &in, arg, pos);
	free(in.path);
	free(in.spec);
	return rc;
}

/* Where the diagnostics of the inputs are printed, under one --max-diags. */
static void mrun_print(struct mrun *r, size_t i, const struct sonde_diag *d)
{
	r->ndiags++;
	if (r->diag_out && (r->d->max_diags == 0 || r->ndiags <= r->d->max_diags))
		sonde_diag_print(r->diag_out, r->in[i].name, d);
}

/* Listener on an input's pipe: what its decoder says goes to the merge. */
static void tap_event(void *ctx, const struct sonde_event *ev, const struct sonde_session *s)
{
	struct minput *in = ctx;
	sonde_merge_event(in->run->m, in->idx, ev, s->ts_freq);
}

static void tap_diag(void *ctx, const struct sonde_diag *d, const struct sonde_session *s)
{
	struct minput *in = ctx;
	(void)s;
	mrun_print(in->run, in->idx, d);
	sonde_merge_diag(in->run->m, in->idx, d);
}

/* The merged stream, to the sinks and listeners of r->out. */
static void merged_event(void *ctx, size_t i, const struct sonde_event *ev, uint64_t freq)
{
	struct mrun *r = ctx;
	struct sonde_pipe *p = &r->out;
	(void)i;
	p->session.ts_freq = freq;
	sonde_pipe_emit_event(p, ev);
}

/* Counted in r->out's totals and handed on, but not printed again
 * (r->out.diag_out is NULL): the tap printed it under its input's name. */
static void merged_diag(void *ctx, size_t i, const struct sonde_diag *d)
{
	struct mrun *r = ctx;
	(void)i;
	sonde_pipe_emit_diag(&r->out, d);
}

/* The merge's own diagnostic on input i: printed and counted as that
 * input's (its listeners but the tap see it too). */
static void merged_raised(void *ctx, size_t i, const struct sonde_diag *d)
{
	struct mrun *r = ctx;
	struct sonde_pipe *p = &r->in[i].pipe;
	mrun_print(r, i, d);
	p->ndiags++;
	p->diags[d->code]++;
	for (size_t k = 1; k < p->nlisteners; k++)
		if (p->listeners[k].diag)
			p->listeners[k].diag(p->listeners[k].ctx, d, &p->session);
}

static void merged_note(void *ctx, const char *msg)
{
	struct mrun *r = ctx;
	if (r->diag_out)
		fprintf(r->diag_out, "sonde %s: note: %s\n", r->d->cmd, msg);
}

/* Pick an input's decoder: its protocol, or probe its head (read into
 * in->head) for auto.  Returns 0, or an exit status after a message. */
static int input_choose(struct minput *in)
{
	char why[512];
	if (!in->proto || strcmp(in->proto, "auto") == 0) {
		if (sonde_source_read_full(&in->src, in->head, SONDE_PROBE_BYTES, &in->nhead) < 0) {
			sonde_err("%s: read error at offset %zu: %s", in->name, in->nhead,
				strerror(errno));
			in->probe_error = 1;
		}
	}
	in->dec = sonde_pipe_choose(sonde_decoders, in->proto, in->head, in->nhead, why, sizeof(why));
	if (!in->dec) {
		sonde_err("%s: %s", in->name, why);
		return in->probe_error ? SONDE_EXIT_IO : SONDE_EXIT_USAGE;
	}
	return 0;
}

/* Create the input's decoder, tracking which options it looks up.
 * Returns 0 or an exit status (the decoder said why). */
static int input_start(struct mrun *r, struct minput *in)
{
	const struct sonde_drive *d = r->d;
	sonde_opt_track(in->kv);
	int rc = sonde_pipe_begin(&in->pipe, in->name, in->dec->name, NULL, 0);
	for (size_t k = 0; k < d->nkv; k++)
		r->used[k] |= (unsigned char)sonde_opt_was_used(in->kv, k);
	for (size_t k = 0; k < in->nown; k++)
		in->own_used[k] = (unsigned char)sonde_opt_was_used(in->kv, d->nkv + k);
	return rc;
}

/* The input has no more to give: finish its decoder, tell the merge. */
static int input_end(struct mrun *r, struct minput *in)
{
	in->ended = 1;
	int rc = sonde_pipe_end(&in->pipe);
	sonde_merge_end(r->m, in->idx);
	return rc;
}

/* The merged session: the clock of the merge, the inputs' protocols and
 * loss counters summed up. */
static void mrun_totals(struct mrun *r)
{
	struct sonde_session *t = &r->out.session;
	size_t k = 0;
	r->protos[0] = '\0';
	t->ts_freq = sonde_merge_freq(r->m);
	for (size_t i = 0; i < r->n; i++) {
		const struct sonde_session *s = &r->in[i].pipe.session;
		int seen = 0;
		for (size_t j = 0; j < i && s->proto; j++)
			seen |= r->in[j].pipe.session.proto && strcmp(r->in[j].pipe.session.proto, s->proto) == 0;
		if (s->proto && !seen && k < sizeof(r->protos))
			k += (size_t)snprintf(r->protos + k, sizeof(r->protos) - k, "%s%s", k ? ", " : "", s->proto);
		r->out.bytes += r->in[i].pipe.bytes;
		t->frames += s->frames;
		t->drops_overwritten += s->drops_overwritten;
		t->drops_refused += s->drops_refused;
		t->lost_link += s->lost_link;
		t->lost_unexplained += s->lost_unexplained;
		t->stopped_records += s->stopped_records;
	}
	t->proto = r->protos;
	t->addr_size = r->in[0].pipe.session.addr_size;
	t->big_endian = r->in[0].pipe.session.big_endian;
}

/* Read the inputs as the merge needs them, until all have ended. */
static int mrun_loop(struct mrun *r, uint8_t *buf)
{
	int rc = SONDE_EXIT_OK;
	size_t next = 0, left = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (r->in[i].pipe.io_error) /* the probe read failed */
			rc = worst(rc, input_end(r, &r->in[i]));
		else
			left++;
	}
	while (left) {
		/* the input that holds the merge up; round robin among several */
		size_t i = next, k;
		for (k = 0; k < r->n; k++, i = (i + 1) % r->n)
			if (!r->in[i].ended && sonde_merge_needs(r->m, i))
				break;
		if (k == r->n) /* cannot happen: some input always holds it up */
			for (i = 0; r->in[i].ended; i++)
				;
		next = (i + 1) % r->n;
		struct minput *in = &r->in[i];
		ssize_t got = in->src.read(&in->src, buf, MERGE_READ);
		if (got > 0) {
			sonde_pipe_feed(&in->pipe, buf, (size_t)got);
			continue;
		}
		if (got < 0) {
			sonde_err("%s: read error at offset %" PRIu64 ": %s", in->name, in->pipe.bytes,
				strerror(errno));
			in->pipe.io_error = 1;
		}
		rc = worst(rc, input_end(r, in));
		left--;
	}
	return rc;
}

static int mrun_config(struct mrun *r, struct sonde_merge_config *cfg)
{
	uint64_t n = 0;
	memset(cfg, 0, sizeof(*cfg));
	if (sonde_opt_uint(r->d->kv, "merge.max_queue", 1, 10000000, &n) < 0)
		return -1;
	cfg->max_events = (size_t)n;
	return 0;
}

/* Parse the inputs, open them, build each one's options, choose each
 * one's decoder. */
static int mrun_inputs(struct mrun *r)
{
	const struct sonde_drive *d = r->d;
	const char *stdin_arg = NULL;
	if (sonde_opt_get(d->kv, "core")) {
		sonde_err("-o core=N applies to one input; with several, give each its core as FILE@core=N");
		return SONDE_EXIT_USAGE;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct minput *in = &r->in[i];
		in->run = r;
		in->idx = i;
		if (input_parse(d, in, d->inputs[i], i) != 0)
			return SONDE_EXIT_USAGE;
		if (strcmp(in->path, "-") == 0) {
			if (stdin_arg) {
				sonde_err("standard input can be read once only ('%s' and '%s')", stdin_arg, in->arg);
				return SONDE_EXIT_USAGE;
			}
			stdin_arg = in->arg;
		}
		size_t k = 0;
		for (size_t j = 0; j < d->nkv; j++)
			in->kv[k++] = d->kv[j];
		for (size_t j = 0; j < in->nown; j++)
			in->kv[k++] = in->own[j];
		snprintf(in->core_kv, sizeof(in->core_kv), "core=%" PRIu32, in->core);
		in->kv[k++] = in->core_kv;
		in->kv[k] = NULL;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct minput *in = &r->in[i];
		if (sonde_source_open_file(&in->src, in->path) != 0) {
			sonde_err("cannot open '%s': %s", in->path, strerror(errno));
			return SONDE_EXIT_IO;
		}
		in->opened = 1;
	}
	for (size_t i = 0; i < r->n; i++) {
		int rc = input_choose(&r->in[i]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Everything after the inputs are open and the output is created: set the
 * pipes and the merge up, decode, report. */
static int mrun_decode(struct mrun *r, FILE *out, uint8_t *buf)
{
	const struct sonde_drive *d = r->d;
	const struct sonde_drive_hooks *h = r->h;
	const char *names[SONDE_DRIVE_MAX_INPUTS];
	struct sonde_merge_config cfg;

	sonde_opt_track(d->kv);
	int rc = h->setup ? h->setup(r->ctx, &r->out, out) : 0;
	if (rc == 0 && mrun_config(r, &cfg) != 0)
		rc = SONDE_EXIT_USAGE;
	if (rc != 0)
		return rc;
	for (size_t k = 0; k < d->nkv; k++)
		r->used[k] = (unsigned char)sonde_opt_was_used(d->kv, k);
	struct sonde_merge_out mo = { merged_event, merged_diag, merged_raised, merged_note, r };
	for (size_t i = 0; i < r->n; i++)
		names[i] = r->in[i].name;
	r->m = sonde_merge_new(r->n, names, &cfg, &mo);
	if (!r->m) {
		sonde_err("out of memory");
		return SONDE_EXIT_IO;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct minput *in = &r->in[i];
		struct sonde_listener tap = { .event = tap_event, .diag = tap_diag, .ctx = in, .no_text = 1 };
		sonde_pipe_init(&in->pipe, in->kv, sonde_decoders);
		in->pipe.io_error = in->probe_error; /* then it ends at once */
		in->pipe.diag_out = NULL; /* printed by the tap, under one --max-diags */
		in->pipe.output_name = r->out.output_name;
		in->pipe.native = r->out.native; /* the merged stream's sinks may print them */
		in->pipe.text = r->out.text || r->out.select; /* ... or read the text */
		sonde_pipe_add_listener(&in->pipe, &tap);
		sonde_merge_set_core(r->m, i, in->core);
		if (h->setup_input && (rc = h->setup_input(r->ctx, i, &in->pipe)) != 0)
			return rc;
	}
	/* every decoder is created before any byte is decoded: an input that
	 * cannot be decoded stops everything before any output */
	for (size_t i = 0; i < r->n; i++)
		if ((rc = input_start(r, &r->in[i])) != 0)
			return rc;
	sonde_opt_track(d->kv);
	for (size_t i = 0; i < r->n; i++)
		if (r->in[i].nhead)
			sonde_pipe_feed(&r->in[i].pipe, r->in[i].head, r->in[i].nhead);
	rc = mrun_loop(r, buf);
	if (r->diag_out && d->max_diags && r->ndiags > d->max_diags)
		fprintf(r->diag_out, "sonde %s: %" PRIu64 " more diagnostics not shown (--max-diags)\n", d->cmd,
			r->ndiags - d->max_diags);
	mrun_totals(r);
	sonde_pipe_finish_sinks(&r->out);
	if (r->out.io_error)
		rc = SONDE_EXIT_IO;
	else if (r->out.ndiags)
		rc = worst(rc, SONDE_EXIT_STREAM);
	for (size_t k = 0; k < d->nkv; k++)
		if (!r->used[k])
			sonde_drive_warn_unused(d, k);
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->in[i].nown; k++)
			if (!r->in[i].own_used[k])
				sonde_err("warning: option '%s' of input '%s' was not used by its decoder",
					r->in[i].own[k], r->in[i].arg);
	for (size_t i = 0; i < r->n && h->report_input; i++)
		rc = worst(rc, h->report_input(r->ctx, i, &r->in[i].pipe, out));
	if (h->report)
		rc = worst(rc, h->report(r->ctx, &r->out, out));
	return rc;
}

int sonde_drive_merged(struct sonde_drive *d)
{
	struct mrun r;
	size_t n = d->ninputs;
	memset(&r, 0, sizeof(r));
	r.d = d;
	r.h = d->h;
	r.ctx = d->ctx;
	r.n = n;
	r.diag_out = d->diag_out;
	r.in = calloc(n, sizeof(*r.in));
	uint8_t *buf = malloc(MERGE_READ);
	uint8_t *heads = malloc(n * SONDE_PROBE_BYTES);
	sonde_pipe_init(&r.out, d->kv, sonde_decoders);
	sonde_drive_stage(d, &r.out);
	r.out.diag_out = NULL; /* the taps print, each under its input's name */
	snprintf(r.total_name, sizeof(r.total_name), "total (%zu inputs)", n);
	r.out.input_name = r.total_name;
	int rc;
	for (size_t i = 0; r.in && heads && i < n; i++)
		r.in[i].head = heads + i * SONDE_PROBE_BYTES;
	if (!r.in || !buf || !heads) {
		sonde_err("out of memory");
		rc = SONDE_EXIT_IO;
	} else if ((rc = mrun_inputs(&r)) == 0) {
		d->out = d->open_output(d->out_ctx, &d->out_name);
		if (!d->out) {
			rc = SONDE_EXIT_IO;
		} else {
			r.out.output_name = d->out_name;
			rc = mrun_decode(&r, d->out, buf);
		}
	}
	d->write_error = r.out.write_error;
	sonde_pipe_destroy(&r.out);
	for (size_t i = 0; r.in && i < n; i++) {
		struct minput *in = &r.in[i];
		sonde_pipe_destroy(&in->pipe);
		if (in->opened)
			in->src.close(&in->src);
		free(in->path);
		free(in->spec);
	}
	sonde_merge_free(r.m);
	sonde_opt_track(d->kv);
	free(r.in);
	free(buf);
	free(heads);
	return rc;
}

void sonde_drive_stage(const struct sonde_drive *d, struct sonde_pipe *p)
{
	p->select = d->select;
	p->symbols = d->symbols;
	p->output_path = d->output_path;
}

void sonde_drive_warn_unused(const struct sonde_drive *d, size_t i)
{
	sonde_err("warning: option '-o %s' was not used by the decoder or the output format",
		d->kv[i]);
}
