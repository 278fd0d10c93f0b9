/*
 * profile_text.c -- the words of the profile: display names of contexts and
 * ISRs, flag letters, and the notes that tell the reader what made the
 * numbers uncertain.  Shared by the "profile" and "folded" sinks so both say
 * the same thing the same way.
 */
#include "profile_text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/event.h"

const char *prof_ctx_label(const struct prof_ctx *c, char *buf, size_t n)
{
	const char *base;

	switch (c->kind) {
	case PROF_CTX_MAIN: base = SONDE_NOTASK_NAME; break;
	case PROF_CTX_IDLE: base = "(idle)"; break;
	case PROF_CTX_OTHER: base = "(other tasks)"; break;
	case PROF_CTX_ISR:
		snprintf(buf, n, "(isr level %" PRIu64 ")", c->id);
		return buf;
	default:
		if (c->name)
			snprintf(buf, n, "%s", c->name);
		else
			snprintf(buf, n, "task#%" PRIu64, c->id);
		return buf;
	}
	if (c->core)
		snprintf(buf, n, "%s@%" PRIu32, base, c->core);
	else
		snprintf(buf, n, "%s", base);
	return buf;
}

const char *prof_isr_label(const struct prof_isr *r, char *buf, size_t n)
{
	if (r->other)
		snprintf(buf, n, "(other ISRs)");
	else if (r->name)
		snprintf(buf, n, "%s", r->name);
	else
		snprintf(buf, n, "isr#%" PRIu64, r->id);
	return buf;
}

const char *prof_flag_letters(unsigned flags, char buf[8])
{
	char *p = buf;

	if (flags & PROF_F_ESTIMATED)
		*p++ = 'E';
	if (flags & PROF_F_UNTIMED)
		*p++ = 'U';
	if (flags & PROF_F_OPEN)
		*p++ = 'O';
	if (flags & PROF_F_MISSING_EXIT)
		*p++ = 'M';
	if (flags & PROF_F_LOST)
		*p++ = 'L';
	*p = '\0';
	return buf;
}

/* One note line, when count is not 0; f NULL only counts. */
__attribute__((format(printf, 4, 5)))
static int prof_note(FILE *f, const char *prefix, uint64_t count, const char *fmt, ...)
{
	va_list ap;

	if (!count)
		return 0;
	if (f) {
		fputs(prefix, f);
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
		fputc('\n', f);
	}
	return 1;
}

int prof_write_notes(const struct prof_model *m, FILE *f, const char *prefix)
{
	const struct prof_counts *n = prof_counts(m);
	const struct prof_limits *l = prof_limits_of(m);
	int lines = 0;

	lines += prof_note(f, prefix, n->stream_errors,
		"%" PRIu64 " damaged or lost frames reported by the decoder: calls around them may be mis-attributed",
		n->stream_errors);
	lines += prof_note(f, prefix, n->drops,
		"%" PRIu64 " loss reports (DROPS) in the trace: stacks around them may be wrong",
		n->drops);
	lines += prof_note(f, prefix, n->cut_by_loss,
		"%" PRIu64 " calls and ISR activations cut by a loss, closed there (flag L)",
		n->cut_by_loss);
	lines += prof_note(f, prefix, n->untimed,
		"%" PRIu64 " events without a valid timestamp, taken at the time of the event before (flag U)",
		n->untimed);
	lines += prof_note(f, prefix, n->estimated,
		"%" PRIu64 " events with an estimated timestamp (flag E)",
		n->estimated);
	lines += prof_note(f, prefix, n->backwards,
		"%" PRIu64 " timestamps earlier than the one before, ignored for timing",
		n->backwards);
	lines += prof_note(f, prefix, n->unmatched_exits,
		"%" PRIu64 " function exits without a matching enter, ignored",
		n->unmatched_exits);
	lines += prof_note(f, prefix, n->missing_exits,
		"%" PRIu64 " function calls without an exit, closed when their caller or ISR ended (flag M)",
		n->missing_exits);
	lines += prof_note(f, prefix, n->open_at_end,
		"%" PRIu64 " function calls still active at the end of the trace, closed at the last timestamp (flag O)",
		n->open_at_end);
	lines += prof_note(f, prefix, n->func_resyncs,
		"%" PRIu64 " function entries at a lower depth than tracked (the decoder lost track): the calls above closed (flag M)",
		n->func_resyncs);
	lines += prof_note(f, prefix, n->unmatched_isr_exits,
		"%" PRIu64 " ISR exits without an enter, ignored",
		n->unmatched_isr_exits);
	lines += prof_note(f, prefix, n->isr_resyncs,
		"%" PRIu64 " ISR entries at a lower nesting than tracked: lost ISR exits assumed (flag M)",
		n->isr_resyncs);
	lines += prof_note(f, prefix, n->isrs_open_at_end,
		"%" PRIu64 " ISRs still active at the end of the trace, closed at the last timestamp (flag O)",
		n->isrs_open_at_end);
	lines += prof_note(f, prefix, n->too_deep,
		"%" PRIu64 " calls deeper than %" PRIu32 " levels: their time counts toward their caller",
		n->too_deep, l->max_depth);
	lines += prof_note(f, prefix, n->isr_too_deep,
		"%" PRIu64 " ISR entries nested deeper than %" PRIu32 " levels: their time counts toward the ISR below",
		n->isr_too_deep, l->max_isr_nesting);
	lines += prof_note(f, prefix, n->other_funcs,
		"more than %" PRIu32 " distinct functions: %" PRIu64 " calls of further ones counted as \"(other functions)\"",
		l->max_functions, n->other_funcs);
	lines += prof_note(f, prefix, n->other_ctx,
		"more than %" PRIu32 " tasks and ISRs: %" PRIu64 " events of further ones counted as \"(other tasks)\" / \"(other ISRs)\"",
		l->max_contexts, n->other_ctx);
	lines += prof_note(f, prefix, n->cut_stacks,
		"more than %" PRIu32 " distinct call stacks: %" PRIu64 " calls counted in their caller's stack",
		l->max_nodes, n->cut_stacks);
	lines += prof_note(f, prefix, n->other_cores,
		"more than %" PRIu32 " cores: %" PRIu64 " events of further cores ignored",
		l->max_cores, n->other_cores);
	return lines;
}
