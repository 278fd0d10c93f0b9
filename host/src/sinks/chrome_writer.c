/*
 * chrome_writer.c -- the Chrome JSON trace-event writer behind the chrome
 * sink.  The document is {"displayTimeUnit":"ns","traceEvents":[...],
 * "otherData":{...}}; the array is written event by event, so nothing is held
 * in memory.  Every track becomes a pid/tid pair (named by "M" metadata
 * events); counters are "C" events of the process.  Times are microseconds
 * with three decimals, printed from integer ns so that no precision is lost.
 * Strings are escaped by utf8text_json(), so any name gives valid JSON.
 *
 * speedscope opens a Chrome JSON file on its first thread in (pid, tid)
 * order, often a task that ran once at boot.  So the events wait in a
 * temporary file, one a line, and cjw_finish copies them out with the ids of
 * the busiest task, ISR or no-task thread of the first core (the most time
 * with a slice open) and of its first thread swapped: the busiest comes
 * first, each core keeps its pid.  Only ids change; names, times and
 * nesting are those of the model.  Without a temporary file the events go
 * straight out, in the model's order.
 */
#include "chrome_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "util/utf8text.h"

/* A thread's slices, to find the busiest. */
struct cjw_thread {
	int32_t pid, tid;
	uint32_t depth;   /* slices open */
	uint64_t open_at; /* when the outermost opened */
	uint64_t busy;    /* time with a slice open */
	uint64_t begins;
	int cpu;          /* a task, ISR or no-task thread: may be the busiest */
};

struct cjw {
	FILE *out;        /* where events go: the spill, or final */
	FILE *final;      /* the document */
	FILE *spill;      /* NULL: events went straight to final */
	int err;
	uint64_t events;
	uint64_t begins;  /* "B" events written */
	struct cjw_thread *thr; /* by track uuid */
	uint64_t nthr;
};

static void cjw_puts(struct cjw *w, const char *s)
{
	if (fputs(s, w->out) == EOF)
		w->err = 1;
}

static void cjw_printf(struct cjw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void cjw_printf(struct cjw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(w->out, fmt, ap) < 0)
		w->err = 1;
	va_end(ap);
}

static void cjw_str(struct cjw *w, const void *s, size_t n)
{
	if (utf8text_json(w->out, s, n) < 0)
		w->err = 1;
}

static void cjw_cstr(struct cjw *w, const char *s)
{
	cjw_str(w, s, strlen(s));
}

/* Start an event object: separator, phase, pid (and tid). */
static void cjw_open(struct cjw *w, char ph, const struct tmap_track *t, int with_tid)
{
	cjw_printf(w, "%s{\"ph\":\"%c\",\"pid\":%" PRId32, w->events ? ",\n" : "", ph, t->pid);
	if (with_tid)
		cjw_printf(w, ",\"tid\":%" PRId32, t->tid);
	w->events++;
}

static void cjw_ts(struct cjw *w, uint64_t ns)
{
	cjw_printf(w, ",\"ts\":%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void cjw_double(struct cjw *w, double v, int f32)
{
	if (isnan(v))
		cjw_puts(w, "\"NaN\"");
	else if (isinf(v))
		cjw_puts(w, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
	else {
		char t[NUMFMT_FLOAT_MAX];
		numfmt_float(t, v, f32);
		cjw_puts(w, t);
	}
}

static void cjw_value(struct cjw *w, const struct sonde_arg *a)
{
	static const char hex[] = "0123456789abcdef";

	switch (a->type) {
	case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64:
		cjw_printf(w, "%" PRIu64, a->v.u);
		break;
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		cjw_printf(w, "%" PRId64, a->v.i);
		break;
	case SONDE_A_F32: case SONDE_A_F64:
		cjw_double(w, a->v.f, a->type == SONDE_A_F32);
		break;
	case SONDE_A_STR:
		cjw_str(w, a->v.mem.p ? a->v.mem.p : (const uint8_t *)"", a->v.mem.n);
		break;
	case SONDE_A_MEM:
		cjw_puts(w, "\"");
		for (size_t i = 0; i < a->v.mem.n; i++) {
			char b[3] = { hex[a->v.mem.p[i] >> 4], hex[a->v.mem.p[i] & 15], 0 };

			cjw_puts(w, b);
		}
		cjw_puts(w, "\"");
		break;
	case SONDE_A_OBJ: case SONDE_A_FUNC: case SONDE_A_ENUM: case SONDE_A_HEX:
		if (a->resolved && a->type != SONDE_A_HEX)
			cjw_cstr(w, a->resolved);
		else if (a->type == SONDE_A_ENUM)
			cjw_printf(w, "%" PRIu64, a->v.u);
		else
			cjw_printf(w, "\"0x%" PRIx64 "\"", a->v.u);
		break;
	case SONDE_A_BOOL:
		cjw_puts(w, a->v.u ? "true" : "false");
		break;
	default:
		cjw_puts(w, "null");
	}
}

static void cjw_args(struct cjw *w, const struct sonde_arg *args, size_t n)
{
	if (!n)
		return;
	cjw_puts(w, ",\"args\":{");
	for (size_t i = 0; i < n; i++) {
		char nbuf[24];

		if (i)
			cjw_puts(w, ",");
		cjw_cstr(w, tmap_arg_name(&args[i], i, nbuf));
		cjw_puts(w, ":");
		cjw_value(w, &args[i]);
	}
	cjw_puts(w, "}");
}

/* ---- track model callbacks --------------------------------------------- */

static void cjw_track(void *vw, const struct tmap_track *t)
{
	struct cjw *w = vw;

	switch (t->kind) {
	case TMAP_PROCESS:
		cjw_open(w, 'M', t, 0);
		cjw_puts(w, ",\"name\":\"process_name\",\"args\":{\"name\":");
		break;
	case TMAP_THREAD:
	case TMAP_SLICES:
		cjw_open(w, 'M', t, 1);
		cjw_puts(w, ",\"name\":\"thread_name\",\"args\":{\"name\":");
		break;
	case TMAP_COUNTER:
		return; /* counters are named by their "C" events */
	}
	cjw_cstr(w, t->name);
	cjw_puts(w, "}}");
}

static void cjw_flow(struct cjw *w, char ph, uint64_t ns, const struct tmap_track *t, uint64_t id)
{
	cjw_open(w, ph, t, 1);
	cjw_ts(w, ns);
	cjw_printf(w, ",\"cat\":\"flow\",\"name\":\"flow\",\"id\":%" PRIu64 "%s}", id,
		   ph == 'f' ? ",\"bp\":\"e\"" : "");
}

/* Count the thread's busy time (for the order in cjw_finish).  The busiest
 * is one of the threads that take CPU time, as the speedscope export's
 * profiles (tasks, ISRs, no task): not a state, marker or idle one. */
static void cjw_busy(struct cjw *w, enum tmap_type type, uint64_t ns, const struct tmap_track *t)
{
	struct cjw_thread *h;
	const char *lane = tmap_lane(t);

	if (type == TMAP_INSTANT || !w->spill)
		return;
	if (t->uuid >= w->nthr) {
		uint64_t n = w->nthr ? w->nthr : 64;
		while (n <= t->uuid)
			n *= 2;
		struct cjw_thread *nt = realloc(w->thr, n * sizeof(*nt));
		if (!nt) {
			w->err = 1;
			return;
		}
		memset(nt + w->nthr, 0, (n - w->nthr) * sizeof(*nt));
		w->thr = nt;
		w->nthr = n;
	}
	h = &w->thr[t->uuid];
	h->pid = t->pid;
	h->tid = t->tid;
	h->cpu = strcmp(lane, "task") == 0 || strcmp(lane, "isr") == 0 || strcmp(lane, "notask") == 0;
	if (type == TMAP_BEGIN) {
		h->begins++;
		if (h->depth++ == 0)
			h->open_at = ns;
	} else if (h->depth && --h->depth == 0) {
		h->busy += ns - h->open_at;
	}
}

static void cjw_slice(void *vw, enum tmap_type type, uint64_t ns, const struct tmap_track *t,
		      const struct tmap_slice *s)
{
	struct cjw *w = vw;

	w->begins += type == TMAP_BEGIN;
	cjw_busy(w, type, ns, t);
	cjw_open(w, type == TMAP_BEGIN ? 'B' : type == TMAP_END ? 'E' : 'i', t, 1);
	cjw_ts(w, ns);
	if (type == TMAP_INSTANT)
		cjw_puts(w, ",\"s\":\"t\"");
	if (s->cat) {
		cjw_puts(w, ",\"cat\":");
		cjw_cstr(w, s->cat);
	}
	if (s->name || s->ended) {
		/* "E" events repeat the name: some readers (speedscope) need it */
		cjw_puts(w, ",\"name\":");
		cjw_cstr(w, s->name ? s->name : s->ended);
	}
	cjw_args(w, s->args, s->nargs);
	cjw_puts(w, "}");
	/* flows (v1): a start or an end bound to the slice around this point
	 * of the thread, at the same time */
	if (s->flow_out)
		cjw_flow(w, 's', ns, t, s->flow_out);
	if (s->flow_in)
		cjw_flow(w, 'f', ns, t, s->flow_in);
}

static void cjw_counter(void *vw, uint64_t ns, const struct tmap_track *t, int64_t value)
{
	struct cjw *w = vw;

	cjw_open(w, 'C', t, 0);
	cjw_ts(w, ns);
	cjw_puts(w, ",\"name\":");
	cjw_cstr(w, t->name);
	cjw_printf(w, ",\"args\":{\"value\":%" PRId64 "}}", value);
}

const struct tmap_writer_ops cjw_ops = {
	.track = cjw_track,
	.slice = cjw_slice,
	.counter = cjw_counter,
	.task_state = NULL,
};

/* ---- life cycle --------------------------------------------------------- */

struct cjw *cjw_new(FILE *out)
{
	struct cjw *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->final = w->out = out;
	cjw_puts(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	w->spill = tmpfile();
	if (w->spill)
		w->out = w->spill;
	return w;
}

/* The ids to swap so that the busiest thread is the first in (pid, tid)
 * order: pids pa <-> pb (when they differ), and tids ta <-> tb in the events
 * of process pb (its pid as the model numbered it). */
struct cjw_swap {
	int32_t pa, pb, ta, tb;
};

static int cjw_before(const struct cjw_thread *a, const struct cjw_thread *b)
{
	return a->pid < b->pid || (a->pid == b->pid && a->tid < b->tid);
}

/* 0 when the busiest thread is the first already.  The busiest of the first
 * process (core), not of the whole trace: a core keeps its pid (N + 1 for
 * core N, as docs/exports.md says and tools that merge cores rely on), only
 * threads change places within it. */
static int cjw_order(const struct cjw *w, struct cjw_swap *sw)
{
	const struct cjw_thread *best = NULL, *first = NULL;

	for (uint64_t i = 0; i < w->nthr; i++) {
		const struct cjw_thread *h = &w->thr[i];
		if (h->begins && (!first || cjw_before(h, first)))
			first = h;
	}
	for (uint64_t i = 0; first && i < w->nthr; i++) {
		const struct cjw_thread *h = &w->thr[i];
		if (h->begins && h->cpu && h->pid == first->pid &&
		    (!best || h->busy > best->busy || (h->busy == best->busy && cjw_before(h, best))))
			best = h;
	}
	if (!best || best == first)
		return 0;
	sw->pa = sw->pb = first->pid;
	sw->ta = first->tid;
	sw->tb = best->tid;
	return 1;
}

static int32_t cjw_swapped(int32_t v, int32_t a, int32_t b)
{
	return v == a ? b : v == b ? a : v;
}

/* Copy the spilled events to the document, ids swapped (cjw_order).  Each
 * line is one event that starts {"ph":"X","pid":N and maybe ,"tid":N. */
static void cjw_copy(struct cjw *w)
{
	static const size_t PREFIX = sizeof("{\"ph\":\"X\",\"pid\":") - 1;
	struct cjw_swap sw = { 0, 0, 0, 0 }; /* swapping equal ids changes nothing */
	int moved = cjw_order(w, &sw);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (fflush(w->spill) != 0 || fseek(w->spill, 0, SEEK_SET) != 0) {
		w->err = 1;
		return;
	}
	while ((n = getline(&line, &cap, w->spill)) > 0) {
		long pid, tid;
		int at = 0, at2 = 0;

		if (!moved || (size_t)n <= PREFIX || sscanf(line + PREFIX, "%ld%n", &pid, &at) != 1) {
			if (fwrite(line, 1, (size_t)n, w->final) != (size_t)n)
				w->err = 1;
			continue;
		}
		at += (int)PREFIX;
		fprintf(w->final, "%.*s%" PRId32, (int)PREFIX, line,
			cjw_swapped((int32_t)pid, sw.pa, sw.pb));
		if (sscanf(line + at, ",\"tid\":%ld%n", &tid, &at2) == 1 && at2) {
			int32_t t = (int32_t)tid;
			fprintf(w->final, ",\"tid\":%" PRId32, pid == sw.pb ? cjw_swapped(t, sw.ta, sw.tb) : t);
			at += at2;
		}
		if (fputs(line + at, w->final) == EOF)
			w->err = 1;
	}
	free(line);
	if (ferror(w->spill))
		w->err = 1;
}

int cjw_finish(struct cjw *w, int ticks_as_ns)
{
	/* speedscope hangs on a file without slices (it finds no profile to
	 * show): a trace of instants and counters only gets one empty slice
	 * that says so */
	if (!w->begins)
		for (int i = 0; i < 2; i++)
			cjw_printf(w, "%s{\"ph\":\"%c\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"cat\":\"diag\","
				   "\"name\":\"No slices in this trace\"}", w->events++ ? ",\n" : "", "BE"[i]);
	cjw_puts(w, "\n");
	if (w->spill) {
		cjw_copy(w);
		w->out = w->final;
	}
	cjw_puts(w, "],\"otherData\":{\"producer\":\"sonde " SONDE_VERSION "\",\"clock\":");
	cjw_puts(w, ticks_as_ns ? "\"target ticks shown as ns (clock rate unknown)\"}}\n"
				: "\"target time in ns\"}}\n");
	if (fflush(w->out) != 0 || ferror(w->out))
		w->err = 1;
	return w->err ? -1 : 0;
}

uint64_t cjw_events(const struct cjw *w)
{
	return w->events;
}

void cjw_free(struct cjw *w)
{
	if (!w)
		return;
	if (w->spill)
		fclose(w->spill);
	free(w->thr);
	free(w);
}
