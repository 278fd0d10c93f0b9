/*
 * sink_speedscope.c -- `--format speedscope`: speedscope's own JSON
 * (https://www.speedscope.app), one evented profile per task, per core's
 * code outside tasks ("No task") and per core's interrupts ("ISRs"), and,
 * with -o speedscope.idle=1 (or -o idle=1, --idle), the idle loop.
 *
 * The lanes and their nested slices are the timeline model of the Perfetto
 * and Chrome exports (trackmap.c): a task's root frame is the task, its
 * function calls nest below it; an ISR lane nests the ISRs and what they
 * call.  What speedscope adds up must be CPU time, so a task's (or no
 * task's, or idle's) open frames are closed while an interrupt runs on its
 * core and reopened when the last one returns: the interrupt's time is in
 * the ISRs profile only, as `sonde stats` and `--format profile` count it.
 * Options: speedscope.idle=0|1 (idle=), speedscope.max_depth=N (slices
 * drawn per lane, default 64), speedscope.name=NAME (the document's name).
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "speedscope_writer.h"
#include "trackmap.h"
#include "core/opts.h"

enum { ORD_TASK, ORD_NOTASK, ORD_ISR, ORD_IDLE }; /* profiles in the file in this order */

/* A thread lane of the model and its profile. */
struct ss_lane {
	int prof;           /* writer's profile, -1 if none */
	int is_isr;
	uint32_t core;
	uint32_t *stk;      /* frames open on the lane, outermost first */
	uint32_t depth, cap;
	int shown;          /* the open frames are open in the profile too */
};

struct sink_ss {
	struct sw *w;
	struct tmap *m;
	const char *name;
	int idle;
	struct ss_lane **lane; /* by track uuid; NULL: not a profiled lane */
	uint32_t nlane;
	uint64_t end;          /* latest time seen */
};

static struct ss_lane *ss_lane_of(struct sink_ss *s, const struct tmap_track *t)
{
	return t->uuid < s->nlane ? s->lane[t->uuid] : NULL;
}

/* Does an interrupt run on core (its ISRs lane has a frame open)? */
static int ss_isr_active(const struct sink_ss *s, uint32_t core)
{
	for (uint32_t i = 0; i < s->nlane; i++) {
		const struct ss_lane *l = s->lane[i];
		if (l && l->is_isr && l->core == core && l->depth)
			return 1;
	}
	return 0;
}

static void ss_track(void *vs, const struct tmap_track *t)
{
	struct sink_ss *s = vs;
	const char *lane = tmap_lane(t);
	int order;

	if (strcmp(lane, "task") == 0)
		order = ORD_TASK;
	else if (strcmp(lane, "notask") == 0)
		order = ORD_NOTASK;
	else if (strcmp(lane, "isr") == 0)
		order = ORD_ISR;
	else if (strcmp(lane, "idle") == 0 && s->idle)
		order = ORD_IDLE;
	else
		return;
	if (ss_lane_of(s, t)) { /* declared again: its name arrived late */
		sw_rename(s->w, ss_lane_of(s, t)->prof, t->name);
		return;
	}
	if (t->uuid >= s->nlane) {
		uint32_t n = s->nlane ? s->nlane : 64;
		while (n <= t->uuid)
			n *= 2;
		struct ss_lane **nl = realloc(s->lane, n * sizeof(*nl));
		if (!nl)
			return;
		memset(nl + s->nlane, 0, (n - s->nlane) * sizeof(*nl));
		s->lane = nl;
		s->nlane = n;
	}
	struct ss_lane *l = calloc(1, sizeof(*l));
	if (!l)
		return;
	l->prof = sw_profile(s->w, t->name, t->core, order);
	l->is_isr = order == ORD_ISR;
	l->core = t->core;
	/* a task first seen inside an interrupt starts paused, like the others */
	l->shown = l->is_isr || !ss_isr_active(s, t->core);
	s->lane[t->uuid] = l;
}

/* Open the lane's frames in its profile (from the outermost), or close them
 * (from the innermost). */
static void ss_show(struct sink_ss *s, struct ss_lane *l, int show, uint64_t at)
{
	if (l->shown == show)
		return;
	l->shown = show;
	if (show)
		for (uint32_t i = 0; i < l->depth; i++)
			sw_open(s->w, l->prof, l->stk[i], at);
	else
		for (uint32_t i = l->depth; i-- > 0;)
			sw_close(s->w, l->prof, l->stk[i], at);
}

/* An interrupt starts or ends on core: the other lanes of the core pause or
 * go on. */
static void ss_isr_edge(struct sink_ss *s, uint32_t core, int running, uint64_t at)
{
	for (uint32_t i = 0; i < s->nlane; i++) {
		struct ss_lane *l = s->lane[i];
		if (l && !l->is_isr && l->core == core)
			ss_show(s, l, running, at);
	}
}

static void ss_slice(void *vs, enum tmap_type type, uint64_t ns, const struct tmap_track *t,
		     const struct tmap_slice *sl)
{
	struct sink_ss *s = vs;
	struct ss_lane *l = ss_lane_of(s, t);

	if (ns > s->end)
		s->end = ns;
	if (!l || type == TMAP_INSTANT)
		return;
	if (type == TMAP_BEGIN) {
		/* a task's outermost slice ("Running") is the task itself */
		uint32_t f = sw_frame(s->w, l->depth == 0 && t->is_task ? t->name : sl->name);
		if (l->depth == l->cap) {
			uint32_t nc = l->cap ? l->cap * 2 : 16;
			uint32_t *ns_ = realloc(l->stk, nc * sizeof(*ns_));
			if (!ns_)
				return;
			l->stk = ns_;
			l->cap = nc;
		}
		if (l->is_isr && l->depth == 0)
			ss_isr_edge(s, l->core, 0, ns);
		l->stk[l->depth++] = f;
		if (l->shown)
			sw_open(s->w, l->prof, f, ns);
		return;
	}
	if (!l->depth)
		return;
	l->depth--;
	if (l->shown)
		sw_close(s->w, l->prof, l->stk[l->depth], ns);
	if (l->is_isr && l->depth == 0)
		ss_isr_edge(s, l->core, 1, ns);
}

/* Counters have no place in a profile. */
static void ss_counter(void *vs, uint64_t ns, const struct tmap_track *t, int64_t value)
{
	struct sink_ss *s = vs;

	(void)t;
	(void)value;
	if (ns > s->end)
		s->end = ns;
}

static const struct tmap_writer_ops ss_ops = {
	.track = ss_track,
	.slice = ss_slice,
	.counter = ss_counter,
	.task_state = NULL,
};

static void sink_ss_destroy(void *vs)
{
	struct sink_ss *s = vs;

	if (!s)
		return;
	tmap_free(s->m);
	for (uint32_t i = 0; i < s->nlane; i++)
		if (s->lane[i]) {
			free(s->lane[i]->stk);
			free(s->lane[i]);
		}
	free(s->lane);
	sw_free(s->w);
	free(s);
}

static void *sink_ss_create(FILE *out, sonde_opts opts)
{
	struct tmap_config cfg;
	struct sink_ss *s;
	int idle = sonde_opt_bool(opts, "speedscope.idle", -2);

	if (idle == -2)
		idle = sonde_opt_bool(opts, "idle", 0);
	if (idle < 0 || tmap_config_from_opts(&cfg, opts, "speedscope") < 0)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->idle = idle;
	s->name = cfg.name ? cfg.name : "sonde trace";
	cfg.name = NULL;
	s->w = sw_new(out);
	s->m = s->w ? tmap_new(&ss_ops, s, &cfg) : NULL;
	if (!s->m) {
		sink_ss_destroy(s);
		return NULL;
	}
	return s;
}

static void sink_ss_event(void *vs, const struct sonde_event *ev, const struct sonde_session *ss)
{
	struct sink_ss *s = vs;

	tmap_event(s->m, ev, ss);
}

/* A loss cuts what is open (core/loss.h). */
static void sink_ss_diag(void *vs, const struct sonde_diag *d, const struct sonde_session *ss)
{
	struct sink_ss *s = vs;

	(void)ss;
	tmap_diag(s->m, d);
}

static int sink_ss_finish(void *vs, const struct sonde_session *ss)
{
	struct sink_ss *s = vs;

	(void)ss;
	/* what is still open ends with the trace */
	for (uint32_t i = 0; i < s->nlane; i++)
		if (s->lane[i])
			ss_show(s, s->lane[i], 0, s->end);
	return sw_finish(s->w, s->name, s->end);
}

const struct sonde_sink_ops sonde_sink_speedscope = {
	.name = "speedscope",
	.desc = "speedscope JSON: an evented profile per task and ISR lane (idle with -o idle=1)",
	.create = sink_ss_create,
	.event = sink_ss_event,
	.diag = sink_ss_diag,
	.finish = sink_ss_finish,
	.destroy = sink_ss_destroy,
};
