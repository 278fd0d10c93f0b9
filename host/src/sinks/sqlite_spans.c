/*
 * sqlite_spans.c -- `slices` and the entity tables of the SQLite export
 * (sqlite_spans.h).  The timing analyses and the function profile report
 * each span and call as it ends (an_model.on_span, prof_set_call_hook);
 * this file turns them into rows, and matches MARK_BEGIN/MARK_END itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/an.h"
#include "profile_model.h"
#include "sqlite_spans.h"
#include "core/msg.h"

struct sqls_mark {
	uint32_t core;
	uint32_t depth;     /* 1 = outermost span of this marker on this core */
	uint64_t marker;
	uint64_t start;
	uint64_t epoch;     /* the analyses' loss epoch at the begin */
	char *name;         /* NULL if none */
};

/* Column values of one slice. */
struct sqls_row {
	const char *kind;
	uint32_t core;
	int have_obj;
	uint64_t obj;
	const char *name;
	uint64_t start, stop;
	int have_cpu;
	uint64_t cpu;
	int have_self;
	uint64_t self;
	uint32_t depth;
	const char *ctx_kind;
	int have_ctx;
	uint64_t ctx;
	int complete;
	unsigned flags;
};

static void sqls_put(struct sqls *x, const struct sqls_row *s)
{
	struct sqlw *w = x->w;
	struct sqlw_row r = sqlw_row(w, SQLW_SLICES);

	sqlw_text(w, &r, 1, s->kind);
	sqlw_u64(w, &r, 2, s->core);
	sqlw_u64_if(w, &r, 3, s->have_obj, s->obj);
	sqlw_text(w, &r, 4, s->name);
	sqlw_u64(w, &r, 5, s->start);
	sqlw_u64(w, &r, 6, s->stop);
	sqlw_u64(w, &r, 7, s->stop >= s->start ? s->stop - s->start : 0);
	sqlw_u64_if(w, &r, 8, s->have_cpu, s->cpu);
	sqlw_u64_if(w, &r, 9, s->have_self, s->self);
	sqlw_u64(w, &r, 10, s->depth);
	sqlw_text(w, &r, 11, s->ctx_kind);
	sqlw_u64_if(w, &r, 12, s->have_ctx, s->ctx);
	sqlw_i64(w, &r, 13, s->complete);
	sqlw_u64(w, &r, 14, s->flags);
	sqlw_row_end(w, &r);
}

static const char *const an_kind_name[] = {
	[AN_TASK] = "task", [AN_ISR] = "isr", [AN_IDLE] = "idle", [AN_NOTASK] = "notask"
};

static void sqls_on_span(void *ctx, const struct an_model *m, const struct an_span *sp)
{
	struct sqls *x = ctx;
	const struct an_ent *e = sp->ent;
	char label[64];
	struct sqls_row r = {
		/* the RTOS's idle task: an idle period that names its task */
		.kind = an_kind_name[e->idle_task ? AN_IDLE : e->kind], .core = sp->core,
		.have_obj = e->kind == AN_TASK || e->kind == AN_ISR, .obj = e->id,
		.name = an_label(e, label, sizeof(label)), .start = sp->start, .stop = sp->end,
		.have_cpu = 1, .cpu = sp->cpu, .depth = sp->depth, .complete = sp->complete,
	};

	(void)m;
	sqls_put(x, &r);
}

/* Where a call ran: the kind of its context and the task's or ISR's id. */
static const char *sqls_ctx(const struct prof_model *m, const struct prof_ctx *c, int *have, uint64_t *id)
{
	*have = 0;
	switch (c->kind) {
	case PROF_CTX_TASK:
		*have = 1;
		*id = c->id;
		return "task";
	case PROF_CTX_OTHER:
		return "task";
	case PROF_CTX_IDLE:
		return "idle";
	case PROF_CTX_ISR:
		if (c->isr != PROF_NONE && !prof_isr_at(m, c->isr)->other) {
			*have = 1;
			*id = prof_isr_at(m, c->isr)->id;
		}
		return "isr";
	default:
		return "notask";
	}
}

static void sqls_on_call(void *ctx, const struct prof_model *m, const struct prof_call *c)
{
	struct sqls *x = ctx;
	struct sqls_row r = {
		.kind = "func", .core = c->core, .have_obj = 1, .obj = c->func,
		.name = prof_func_at(m, c->func)->name, .start = c->start, .stop = c->end,
		.have_cpu = 1, .cpu = c->incl, .have_self = 1, .self = c->self, .depth = c->depth,
		.complete = !(c->flags & (PROF_F_ESTIMATED | PROF_F_UNTIMED | PROF_F_OPEN | PROF_F_MISSING_EXIT | PROF_F_LOST)),
		.flags = c->flags,
	};

	r.ctx_kind = sqls_ctx(m, c->ctx, &r.have_ctx, &r.ctx);
	sqls_put(x, &r);
}

int sqls_init(struct sqls *x, struct sqlw *w)
{
	struct an_config cfg = { 0, 0, 1 };

	memset(x, 0, sizeof(*x));
	x->w = w;
	x->an = an_new(&cfg);
	x->prof = prof_create(NULL, NULL, 0);
	if (!x->an || !x->prof) {
		sonde_err("sqlite: out of memory");
		return -1;
	}
	x->an->on_span = sqls_on_span;
	x->an->span_ctx = x;
	prof_set_call_hook(x->prof, sqls_on_call, x);
	return 0;
}

/* ---- marker spans --------------------------------------------------------- */

static void sqls_mark_put(struct sqls *x, struct sqls_mark *k, uint64_t stop, int complete)
{
	char label[48];
	struct sqls_row r = {
		.kind = "mark", .core = k->core, .have_obj = 1, .obj = k->marker, .name = k->name,
		.start = k->start, .stop = stop, .depth = k->depth, .complete = complete,
	};

	if (!r.name) {
		snprintf(label, sizeof(label), "marker #%llu", (unsigned long long)k->marker);
		r.name = label;
	}
	sqls_put(x, &r);
	free(k->name);
}

static void sqls_mark_begin(struct sqls *x, const struct sonde_event *ev, uint64_t t)
{
	uint32_t depth = 1;

	if (x->nmarks == SQLS_MAX_OPEN_MARKS) {
		x->marks_dropped++;
		return;
	}
	if (x->nmarks == x->capmarks) {
		uint32_t nc = x->capmarks ? x->capmarks * 2 : 16;
		struct sqls_mark *nm = realloc(x->marks, nc * sizeof(*nm));
		if (!nm) {
			x->marks_dropped++;
			return;
		}
		x->marks = nm;
		x->capmarks = nc;
	}
	for (uint32_t i = x->nmarks; i-- > 0;)
		if (x->marks[i].core == ev->core && x->marks[i].marker == ev->obj) {
			depth = x->marks[i].depth + 1;
			break;
		}
	x->marks[x->nmarks++] = (struct sqls_mark){
		ev->core, depth, ev->obj, t, x->an->epoch, ev->obj_name ? strdup(ev->obj_name) : NULL
	};
}

/* The innermost open span of the marker (any marker of the core when the
 * end does not say which) ends. */
static void sqls_mark_end(struct sqls *x, const struct sonde_event *ev, uint64_t t)
{
	int any = (ev->flags & SONDE_EVF_NO_OBJ) != 0;

	for (uint32_t i = x->nmarks; i-- > 0;) {
		struct sqls_mark *k = &x->marks[i];
		if (k->core != ev->core || (!any && k->marker != ev->obj))
			continue;
		sqls_mark_put(x, k, t, k->epoch == x->an->epoch);
		memmove(k, k + 1, (x->nmarks - i - 1) * sizeof(*k));
		x->nmarks--;
		return;
	}
}

/* ---- the stream ------------------------------------------------------------- */

void sqls_event(struct sqls *x, const struct sonde_event *ev, const struct sonde_session *s)
{
	uint64_t t;

	an_event(x->an, ev, s);
	prof_event(x->prof, ev);
	if (ev->ts_flags & SONDE_TS_VALID)
		x->last_ts = ev->ts;
	t = ev->core < AN_MAX_CORES && x->an->core[ev->core] ? x->an->core[ev->core]->last : x->last_ts;
	if (ev->kind == SONDE_EV_MARK_BEGIN)
		sqls_mark_begin(x, ev, t);
	else if (ev->kind == SONDE_EV_MARK_END)
		sqls_mark_end(x, ev, t);
}

void sqls_diag(struct sqls *x, const struct sonde_diag *d)
{
	an_diag(x->an, d);
	prof_diag(x->prof, d);
}

/* ---- the end ------------------------------------------------------------------ */

static void sqls_entities(struct sqls *x)
{
	static const char *const fkind[] = {
		[PROF_FK_NAME] = "name", [PROF_FK_SYM] = "symbol", [PROF_FK_ADDR] = "address",
		[PROF_FK_ID] = "id", [PROF_FK_OTHER] = "other"
	};
	struct sqlw *w = x->w;
	struct sqlw_row r;

	for (uint32_t i = 0; i < x->an->nent; i++) {
		const struct an_ent *e = &x->an->ent[i];
		int task = e->kind == AN_TASK;
		if (!task && e->kind != AN_ISR)
			continue;
		r = sqlw_row(w, task ? SQLW_TASKS : SQLW_ISRS);
		sqlw_u64(w, &r, 1, e->id);
		sqlw_text(w, &r, 2, e->name);
		if (task) {
			sqlw_u64_if(w, &r, 3, e->prio >= 0, (uint64_t)e->prio);
			sqlw_u64(w, &r, 4, e->core);
		}
		sqlw_row_end(w, &r);
	}
	for (uint32_t i = 0; i < prof_func_count(x->prof); i++) {
		const struct prof_func *f = prof_func_at(x->prof, i);
		r = sqlw_row(w, SQLW_FUNCTIONS);
		sqlw_u64(w, &r, 1, i);
		sqlw_text(w, &r, 2, f->name);
		sqlw_text(w, &r, 3, fkind[f->kind]);
		sqlw_u64_if(w, &r, 4, f->kind != PROF_FK_NAME && f->kind != PROF_FK_OTHER, f->key);
		sqlw_row_end(w, &r);
	}
	for (uint32_t k = 0; k < AN_MAX_CORES; k++) {
		const struct an_core *c = x->an->core[k];
		if (!c || !c->have_time)
			continue;
		r = sqlw_row(w, SQLW_CORES);
		sqlw_u64(w, &r, 1, c->id);
		sqlw_u64(w, &r, 2, c->first);
		sqlw_u64(w, &r, 3, c->last);
		sqlw_u64(w, &r, 4, c->last - c->first);
		sqlw_row_end(w, &r);
	}
}

void sqls_finish(struct sqls *x)
{
	an_finish(x->an);
	prof_finish(x->prof);
	while (x->nmarks) {
		struct sqls_mark *k = &x->marks[--x->nmarks];
		const struct an_core *c = k->core < AN_MAX_CORES ? x->an->core[k->core] : NULL;
		sqls_mark_put(x, k, c ? c->last : x->last_ts, 0);
	}
	sqls_entities(x);
	if (x->marks_dropped)
		sonde_err("sqlite: %llu marker spans left out: more than %u open at once",
			(unsigned long long)x->marks_dropped, SQLS_MAX_OPEN_MARKS);
}

void sqls_free(struct sqls *x)
{
	for (uint32_t i = 0; i < x->nmarks; i++)
		free(x->marks[i].name);
	free(x->marks);
	an_free(x->an);
	prof_destroy(x->prof);
	memset(x, 0, sizeof(*x));
}
