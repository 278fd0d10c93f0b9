/*
 * sink_folded.c -- "--format folded": folded call stacks for flame graphs
 * (flamegraph.pl, inferno-flamegraph, speedscope).
 *
 * One line per distinct stack, "root;caller;callee <self ticks>", where root
 * is the task ("No task", "(idle)" outside tasks) or "isr:<name>" for code in
 * an interrupt, and the number is the time with exactly that stack running.
 * Lines are sorted bytewise, so the output is the same for the same input.
 * Option -o elf=FILE names addresses.  Notes (lost exits, caps hit) go to
 * stderr so the output stays machine-readable.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "profile_model.h"
#include "profile_text.h"
#include "core/msg.h"

struct fsink {
	FILE *out;
	struct prof_model *m;
};

struct fline {
	char *stack;
	uint64_t ticks;
};

/* Append a frame name; ';' would split the frame and control characters
 * would break the line, so both are replaced. */
static size_t fold_put(char *dst, const char *name)
{
	size_t n = 0;

	for (const char *s = name; *s; s++, n++)
		if (dst)
			dst[n] = (*s == ';') ? ':' : ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
	return n;
}

static const char *fold_label(const struct prof_model *m, const struct prof_node *nd,
			      char *buf, size_t n)
{
	char tmp[120];

	if (nd->func != PROF_NONE)
		return prof_func_at(m, nd->func)->name;
	if (nd->isr != PROF_NONE) {
		snprintf(buf, n, "isr:%s", prof_isr_label(prof_isr_at(m, nd->isr), tmp, sizeof(tmp)));
		return buf;
	}
	return prof_ctx_label(prof_ctx_at(m, nd->ctx), buf, n);
}

/* The stack of node i as "root;f1;f2", malloc'd. */
static char *fold_stack(const struct prof_model *m, uint32_t i)
{
	size_t len = 0, pos;
	char buf[128];
	char *s;
	uint32_t j;

	/* each frame's name, and after it a ';' or, for the last, the NUL */
	for (j = i; j != PROF_NONE; j = prof_node_at(m, j)->parent)
		len += fold_put(NULL, fold_label(m, prof_node_at(m, j), buf, sizeof(buf))) + 1;
	if (!len)
		return NULL;
	s = malloc(len);
	if (!s)
		return NULL;
	pos = len - 1;
	s[pos] = '\0';
	/* filled from the leaf backwards */
	for (j = i; j != PROF_NONE; j = prof_node_at(m, j)->parent) {
		const char *name = fold_label(m, prof_node_at(m, j), buf, sizeof(buf));
		size_t l = fold_put(NULL, name);

		pos -= l;
		fold_put(s + pos, name);
		if (pos)
			s[--pos] = ';';
	}
	return s;
}

static int fold_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->stack, ((const struct fline *)b)->stack);
}

static int fsink_write(struct fsink *p)
{
	const struct prof_model *m = p->m;
	uint32_t nn = prof_node_count(m);
	struct fline *lines = malloc((nn + 1) * sizeof(*lines));
	size_t n = 0;
	int rc = 0;

	if (!lines)
		return -1;
	for (uint32_t i = 0; i < nn; i++) {
		if (!prof_node_at(m, i)->self)
			continue;
		lines[n].stack = fold_stack(m, i);
		if (!lines[n].stack) {
			rc = -1;
			break;
		}
		lines[n++].ticks = prof_node_at(m, i)->self;
	}
	if (rc == 0) {
		qsort(lines, n, sizeof(*lines), fold_cmp);
		/* distinct nodes can print alike (two functions of one name) */
		for (size_t i = 0; i < n; i++) {
			uint64_t t = lines[i].ticks;

			while (i + 1 < n && strcmp(lines[i].stack, lines[i + 1].stack) == 0)
				t += lines[++i].ticks;
			fprintf(p->out, "%s %" PRIu64 "\n", lines[i].stack, t);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i].stack);
	free(lines);
	return rc;
}

static void *fsink_create(FILE *out, sonde_opts opts)
{
	struct fsink *p = calloc(1, sizeof(*p));

	if (!p) {
		sonde_err("folded: out of memory");
		return NULL;
	}
	p->out = out;
	p->m = prof_create_from_opts(opts, "folded", 1);
	if (!p->m) {
		free(p);
		return NULL;
	}
	return p;
}

static void fsink_event(void *sink, const struct sonde_event *ev, const struct sonde_session *s)
{
	(void)s;
	prof_event(((struct fsink *)sink)->m, ev);
}

static void fsink_diag(void *sink, const struct sonde_diag *d, const struct sonde_session *s)
{
	(void)s;
	prof_diag(((struct fsink *)sink)->m, d);
}

static int fsink_finish(void *sink, const struct sonde_session *s)
{
	struct fsink *p = sink;
	int rc;

	(void)s;
	prof_finish(p->m);
	rc = fsink_write(p);
	if (rc < 0)
		sonde_err("folded: out of memory");
	char pfx[64];
	snprintf(pfx, sizeof(pfx), "%s: folded: ", sonde_msg_prog());
	prof_write_notes(p->m, stderr, pfx);
	if (fflush(p->out) != 0 || ferror(p->out))
		rc = -1;
	return rc;
}

static void fsink_destroy(void *sink)
{
	struct fsink *p = sink;

	if (!p)
		return;
	prof_destroy(p->m);
	free(p);
}

const struct sonde_sink_ops sonde_sink_folded = {
	.name = "folded",
	.desc = "folded call stacks with self ticks, for flamegraph.pl / inferno / speedscope (-o elf=FILE)",
	.create = fsink_create,
	.event = fsink_event,
	.diag = fsink_diag,
	.finish = fsink_finish,
	.destroy = fsink_destroy,
};
