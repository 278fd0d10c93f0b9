/*
 * pipe.c -- the generic driver behind every subcommand that decodes: source
 * -> decoder -> sinks + listeners.  Memory is one read buffer plus whatever
 * the decoder and sinks keep, whatever the size of the input.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "event_desc.h"
#include "opts.h"
#include "out.h"
#include "pipe.h"
#include "select.h"
#include "symbolize.h"
#include "core/source.h"
#include "core/msg.h"

void sonde_pipe_init(struct sonde_pipe *p, sonde_opts opts, const struct sonde_decoder_ops *const *decoders)
{
	memset(p, 0, sizeof(*p));
	p->opts = opts;
	p->decoders = decoders;
	p->diag_out = stderr;
	p->max_diags = 0;
	p->input_name = "<input>";
	p->session.addr_size = 4;
	p->session.buffer_mode = -1;
}

int sonde_pipe_add_sink(struct sonde_pipe *p, const struct sonde_sink_ops *ops, FILE *out)
{
	if (p->nsinks == SONDE_PIPE_MAX_SINKS) {
		sonde_err("too many output formats");
		return -1;
	}
	void *s;
	if (ops->create_at) {
		if (!p->output_path) {
			sonde_err("format '%s' cannot write to standard output: name its output with --output PATH",
				ops->name);
			return -1;
		}
		out = NULL; /* nothing to flush */
		errno = 0;
		s = ops->create_at(p->output_path, p->opts);
		if (!s && errno && errno != EINVAL)
			return -2; /* the sink said why */
	} else {
		s = ops->create(out, p->opts);
	}
	if (!s) {
		sonde_err("cannot create the '%s' output", ops->name);
		return -1;
	}
	p->sinks[p->nsinks].ops = ops;
	p->sinks[p->nsinks].sink = s;
	p->sinks[p->nsinks].out = out;
	p->nsinks++;
	if (ops->native)
		p->native = 1;
	p->text = 1;
	return 0;
}

struct sonde_needs sonde_pipe_needs(struct sonde_pipe *p)
{
	struct sonde_needs n = { 0, 0, NULL };
	/* only the native lines are read: every sink prints only them, and no
	 * selection, symbolizer or listener sees the events */
	int native_only = p->nsinks && !p->nlisteners && !p->select && !p->symbols;
	for (size_t i = 0; i < p->nsinks; i++)
		native_only &= p->sinks[i].ops->native;
	if (!p->native)
		n.omit |= SONDE_OMIT_NATIVE;
	if (!p->text && !p->select)
		n.omit |= SONDE_OMIT_TEXT;
	if (native_only)
		n.omit |= SONDE_OMIT_DETAIL;
	/* Events of a kind that no sink, selection or symbolizer sees and no
	 * listener wants need not be built: the decoder may tally them. */
	n.tally_kinds = p->nsinks || p->select || p->symbols ? 0 : SONDE_KINDS_ALL;
	for (size_t i = 0; i < p->nlisteners; i++)
		n.tally_kinds &= p->listeners[i].tally_kinds;
	n.tally = n.tally_kinds ? &p->tally : NULL;
	return n;
}

int sonde_pipe_add_listener(struct sonde_pipe *p, const struct sonde_listener *l)
{
	if (p->nlisteners == SONDE_PIPE_MAX_LISTENERS)
		return -1;
	p->listeners[p->nlisteners++] = *l;
	if (!l->no_text)
		p->text = 1;
	return 0;
}

void sonde_pipe_emit_event(struct sonde_pipe *p, const struct sonde_event *ev)
{
	if (!p->session.have_origin && (ev->ts_flags & SONDE_TS_VALID)) {
		p->session.have_origin = 1;
		p->session.origin = ev->ts;
	}
	if (p->select && !sonde_select_accept(p->select, ev, &p->session))
		return;
	if (p->symbols)
		ev = sonde_symbolize(p->symbols, ev);
	for (size_t i = 0; i < p->nsinks; i++)
		p->sinks[i].ops->event(p->sinks[i].sink, ev, &p->session);
	for (size_t i = 0; i < p->nlisteners; i++)
		if (p->listeners[i].event)
			p->listeners[i].event(p->listeners[i].ctx, ev, &p->session);
}

void sonde_diag_print(FILE *f, const char *input_name, const struct sonde_diag *d)
{
	fprintf(f, "%s: offset %" PRIu64 ", frame %" PRIu64 ": %s: %s\n", input_name, d->offset,
		d->frame, sonde_diag_name(d->code), d->msg ? d->msg : "");
}

void sonde_pipe_emit_diag(struct sonde_pipe *p, const struct sonde_diag *d)
{
	if (p->ending && p->cut_on_purpose && d->code == SONDE_D_TRUNCATED) {
		p->cut_bytes += d->count; /* the stop cut it: not an error */
		return;
	}
	p->ndiags++;
	if ((unsigned)d->code < SONDE_D_COUNT)
		p->diags[d->code]++;
	else
		p->diags[SONDE_D_OTHER]++;
	if (p->diag_out && (p->max_diags == 0 || p->ndiags <= p->max_diags))
		sonde_diag_print(p->diag_out, p->input_name, d);
	for (size_t i = 0; i < p->nsinks; i++)
		if (p->sinks[i].ops->diag)
			p->sinks[i].ops->diag(p->sinks[i].sink, d, &p->session);
	for (size_t i = 0; i < p->nlisteners; i++)
		if (p->listeners[i].diag)
			p->listeners[i].diag(p->listeners[i].ctx, d, &p->session);
}

/* The decoder's output (struct sonde_out) lands here. */
static void pipe_event(void *ctx, const struct sonde_event *ev)
{
	sonde_pipe_emit_event(ctx, ev);
}

static void pipe_diag(void *ctx, const struct sonde_diag *d)
{
	sonde_pipe_emit_diag(ctx, d);
}

static void read_error(struct sonde_pipe *p, const char *name)
{
	sonde_err("%s: read error at offset %" PRIu64 ": %s", name, p->bytes, strerror(errno));
	p->io_error = 1;
}

int sonde_pipe_begin(struct sonde_pipe *p, const char *name, const char *proto, const uint8_t *head,
		     size_t n)
{
	p->input_name = name;
	p->proto_named = proto && strcmp(proto, "auto") != 0;
	char why[512];
	p->dec = sonde_pipe_choose(p->decoders, proto, head, n, why, sizeof(why));
	if (!p->dec) {
		sonde_err("%s: %s", name, why);
		p->bytes += n;
		return p->io_error ? SONDE_EXIT_IO : SONDE_EXIT_USAGE;
	}
	p->session.proto = p->dec->name;
	struct sonde_out out = { .event = pipe_event, .diag = pipe_diag, .ctx = p, .session = &p->session,
				 .needs = sonde_pipe_needs(p) };
	p->session.tally = out.needs.tally;
	p->dec_state = p->dec->create(&out, p->opts);
	if (!p->dec_state) {
		sonde_err("cannot start the '%s' decoder (see the message above)", p->dec->name);
		p->dec = NULL;
		p->bytes += n;
		return SONDE_EXIT_USAGE;
	}
	if (n)
		sonde_pipe_feed(p, head, n);
	return 0;
}

void sonde_pipe_feed(struct sonde_pipe *p, const uint8_t *buf, size_t n)
{
	if (p->nhead < SONDE_PROBE_BYTES) { /* kept for sonde_pipe_hint */
		size_t k = SONDE_PROBE_BYTES - p->nhead < n ? SONDE_PROBE_BYTES - p->nhead : n;
		memcpy(p->head + p->nhead, buf, k);
		p->nhead += k;
	}
	p->bytes += (uint64_t)n;
	p->dec->feed(p->dec_state, buf, n);
}

void sonde_pipe_rejoin(struct sonde_pipe *p)
{
	if (p->dec && p->dec_state && p->dec->rejoin)
		p->dec->rejoin(p->dec_state);
}

int sonde_pipe_control(struct sonde_pipe *p, const char *cmd, char *msg, size_t cap)
{
	if (!p->dec || !p->dec_state) {
		snprintf(msg, cap, "the decoder is not chosen yet");
		return -2;
	}
	if (!p->dec->control) {
		snprintf(msg, cap, "the %s decoder takes no commands", p->dec->name);
		return -2;
	}
	return p->dec->control(p->dec_state, cmd, msg, cap);
}

int sonde_pipe_flush(struct sonde_pipe *p)
{
	int rc = 0;
	for (size_t i = 0; i < p->nsinks; i++) {
		/* a sink's own buffer first (sinkfmt.h), then the stream; the
		 * stream that failed is kept: it knows why (core/out.h) */
		int bad = p->sinks[i].ops->flush && p->sinks[i].ops->flush(p->sinks[i].sink) != 0;
		bad |= p->sinks[i].out && fflush(p->sinks[i].out) != 0;
		if (bad) {
			if (!p->failed_out)
				p->failed_out = p->sinks[i].out;
			rc = -1;
		}
	}
	return rc;
}

int sonde_pipe_finish_sinks(struct sonde_pipe *p)
{
	FILE *failed = NULL;
	errno = 0;
	for (size_t i = 0; i < p->nsinks; i++)
		if (p->sinks[i].ops->finish && p->sinks[i].ops->finish(p->sinks[i].sink, &p->session) != 0 && !failed)
			failed = p->sinks[i].out;
	if (!failed)
		return 0;
	if (!p->failed_out)
		p->failed_out = failed;
	/* the output stream knows the first error (core/out.h); errno here
	 * may be long past it */
	int e = errno;
	if (!p->write_error)
		sonde_err("%s: write error: %s", p->output_name ? p->output_name : "<output>",
			sonde_out_name(failed) || !e ? sonde_out_why(failed) : strerror(e));
	p->write_error = 1;
	p->io_error = 1;
	return -1;
}

int sonde_pipe_end(struct sonde_pipe *p)
{
	p->ending = 1;
	p->dec->finish(p->dec_state);
	p->ending = 0;
	if (p->diag_out && p->max_diags && p->ndiags > p->max_diags)
		fprintf(p->diag_out, "%s: %s: %" PRIu64 " more diagnostics not shown (--max-diags)\n", sonde_msg_prog(),
			p->input_name, p->ndiags - p->max_diags);
	char hint[256];
	if (p->diag_out && sonde_pipe_hint(p, hint, sizeof(hint)))
		fprintf(p->diag_out, "%s: %s: %s\n", sonde_msg_prog(), p->input_name, hint);
	sonde_pipe_finish_sinks(p);
	if (p->io_error)
		return SONDE_EXIT_IO;
	return p->ndiags ? SONDE_EXIT_STREAM : SONDE_EXIT_OK;
}

int sonde_pipe_run(struct sonde_pipe *p, struct sonde_source *src, const char *proto)
{
	uint8_t *buf = malloc(SONDE_PIPE_CHUNK);
	if (!buf) {
		sonde_err("out of memory");
		return SONDE_EXIT_IO;
	}
	p->input_name = src->name;
	size_t head = 0;
	int auto_detect = !proto || strcmp(proto, "auto") == 0;
	if (auto_detect && sonde_source_read_full(src, buf, SONDE_PROBE_BYTES, &head) < 0)
		read_error(p, src->name);
	int rc = sonde_pipe_begin(p, src->name, proto, buf, head);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	while (!p->io_error) {
		ssize_t r = src->read(src, buf, SONDE_PIPE_CHUNK);
		if (r < 0) {
			read_error(p, src->name);
			break;
		}
		if (r == 0)
			break;
		sonde_pipe_feed(p, buf, (size_t)r);
	}
	free(buf);
	return sonde_pipe_end(p);
}

void sonde_pipe_destroy(struct sonde_pipe *p)
{
	for (size_t i = 0; i < p->nsinks; i++)
		p->sinks[i].ops->destroy(p->sinks[i].sink);
	p->nsinks = 0;
	if (p->dec && p->dec_state)
		p->dec->destroy(p->dec_state);
	p->dec_state = NULL;
}
