/*
 * profile_model.c -- the function profile built from the event model
 * (see profile_model.h for what is measured and how).
 *
 * Timing works with one clock per context: the interval between two timed
 * events of a core is added to the `run` of the context that ran in it and
 * to the self time of the function on top of that context's stack.  A frame
 * remembers `run` when it was entered, so its inclusive time at exit is the
 * difference; preemption (ISRs, other tasks) never advances a context's
 * clock, which is what keeps it out of the preempted function's times.
 */
#include "profile_model.h"
#include "loss.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/elf_symbols.h"
#include "profile_map.h"
#include "core/msg.h"

struct prof_frame {
	uint32_t func;
	uint32_t node;      /* stack tree node, PROF_NONE without tree */
	uint64_t enter;     /* ctx->run at entry */
	uint64_t est;       /* ctx->est_clock at entry */
	unsigned flags;     /* PROF_F_* from the enter event */
	int inner;          /* the function is already active below: recursion */
	/* for the call hook only */
	uint64_t t0;        /* timestamp of the enter */
	uint64_t callees;   /* inclusive time of the calls it made */
	uint32_t core;
};

/* Per core: where time goes now. */
struct prof_core {
	uint32_t core;
	int have_ts;
	uint64_t first, last;
	int last_est;          /* the last timestamp was estimated */
	uint32_t task;         /* context running when no ISR is active */
	uint32_t main, idle;   /* this core's pseudo contexts */
	uint32_t *levels;      /* ISR level contexts, [max_isr_nesting] */
	uint32_t isr_depth;    /* active levels */
	uint64_t isr_extra;    /* entries beyond max_isr_nesting not yet exited */
};

struct prof_model {
	struct prof_limits lim;
	const struct elfsym *syms;
	struct elfsym *owned_syms;
	int want_tree;
	int finished;

	struct prof_func *funcs;
	uint32_t nfuncs, capfuncs;
	struct prof_map funcmap;
	uint32_t other_func;

	struct prof_ctx **ctxs;
	uint32_t nctxs, capctxs;
	struct prof_map taskmap;
	uint32_t other_task;

	struct prof_isr *isrs;
	uint32_t nisrs, capisrs;
	struct prof_map isrmap;
	uint32_t other_isr;
	uint32_t named_entities; /* tasks + ISRs, against max_contexts */

	struct prof_core *cores;
	uint32_t ncores, capcores;

	struct prof_node *nodes;
	uint32_t nnodes, capnodes;
	uint32_t nstacks;        /* non-root nodes, against max_nodes */
	struct prof_map nodemap;

	struct prof_counts n;

	prof_call_fn *on_call;   /* prof_set_call_hook */
	void *call_ctx;
	uint64_t now;            /* timestamp of the event being processed */
	struct sonde_loss loss;  /* what cuts the open calls (core/loss.h) */
};

/* ---- small helpers ------------------------------------------------------ */

/* Grow *arr (of *cap elements of size sz) to hold need elements. */
static int prof_grow(void *arrp, uint32_t *cap, uint32_t need, size_t sz)
{
	void **arr = arrp;
	uint32_t nc;
	void *p;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 16;
	while (nc < need)
		nc = nc > UINT32_MAX / 2 ? need : nc * 2;
	p = realloc(*arr, (size_t)nc * sz);
	if (!p)
		return -1;
	*arr = p;
	*cap = nc;
	return 0;
}

static void prof_oom(void)
{
	sonde_err("profile: out of memory");
	abort();
}

static char *prof_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (!p)
		prof_oom();
	return memcpy(p, s, n);
}

/* ---- stack tree ----------------------------------------------------------- */

struct prof_nodekey { uint32_t parent, func; };

static int prof_node_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct prof_model *m = ctx;
	const struct prof_nodekey *k = key;

	return m->nodes[idx].parent == k->parent && m->nodes[idx].func == k->func;
}

static uint32_t prof_node_new(struct prof_model *m, uint32_t parent, uint32_t func,
			      uint32_t ctx, uint32_t isr)
{
	struct prof_node *nd;

	if (m->nstacks >= m->lim.max_nodes)
		return PROF_NONE;
	m->nstacks++;
	if (prof_grow(&m->nodes, &m->capnodes, m->nnodes + 1, sizeof(*m->nodes)) < 0)
		prof_oom();
	nd = &m->nodes[m->nnodes];
	nd->parent = parent;
	nd->func = func;
	nd->ctx = ctx;
	nd->isr = isr;
	nd->self = 0;
	return m->nnodes++;
}

/* The child of parent for func; parent itself when the tree is full. */
static uint32_t prof_node_child(struct prof_model *m, uint32_t parent, uint32_t func)
{
	struct prof_nodekey k = { parent, func };
	uint64_t h;
	uint32_t idx;

	if (parent == PROF_NONE)
		return PROF_NONE;
	h = prof_mix(parent, func);
	idx = prof_map_find(&m->nodemap, h, prof_node_eq, m, &k);
	if (idx != PROF_MAP_EMPTY)
		return idx;
	idx = prof_node_new(m, parent, func, PROF_NONE, PROF_NONE);
	if (idx == PROF_NONE) {
		m->n.cut_stacks++;
		return parent;
	}
	if (prof_map_add(&m->nodemap, h, idx) < 0)
		prof_oom();
	return idx;
}

static uint32_t prof_root_new(struct prof_model *m, uint32_t ctx, uint32_t isr)
{
	if (!m->want_tree)
		return PROF_NONE;
	/* roots are few (bounded by max_contexts) and must exist for the
	 * tree to mean anything, so they are not counted against max_nodes */
	if (prof_grow(&m->nodes, &m->capnodes, m->nnodes + 1, sizeof(*m->nodes)) < 0)
		prof_oom();
	m->nodes[m->nnodes] = (struct prof_node){ PROF_NONE, PROF_NONE, ctx, isr, 0 };
	return m->nnodes++;
}

/* ---- functions -------------------------------------------------------------- */

struct prof_fkey {
	enum prof_fkind kind;
	uint64_t key;
	const char *name; /* PROF_FK_NAME */
};

static int prof_func_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct prof_model *m = ctx;
	const struct prof_fkey *k = key;
	const struct prof_func *f = &m->funcs[idx];

	if (f->kind != k->kind)
		return 0;
	if (k->kind == PROF_FK_NAME)
		return strcmp(f->name, k->name) == 0;
	return f->key == k->key;
}

static uint64_t prof_fkey_hash(const struct prof_fkey *k)
{
	return prof_mix(k->kind, k->kind == PROF_FK_NAME ? prof_strhash(k->name) : k->key);
}

/* What function an event names; *symname receives the ELF name for SYM. */
static void prof_fkey_of(const struct prof_model *m, const struct sonde_event *ev,
			 struct prof_fkey *k, const char **symname)
{
	uint64_t start;
	const char *s;

	*symname = NULL;
	k->name = NULL;
	if (ev->obj_name) {
		k->kind = PROF_FK_NAME;
		k->key = 0;
		k->name = ev->obj_name;
		return;
	}
	if (!(ev->flags & SONDE_EVF_ADDR)) {
		k->kind = PROF_FK_ID;
		k->key = ev->obj;
		return;
	}
	s = elfsym_lookup(m->syms, ev->obj, &start);
	if (s) {
		k->kind = PROF_FK_SYM;
		k->key = start;
		*symname = s;
		return;
	}
	k->kind = PROF_FK_ADDR;
	k->key = ev->obj;
}

static uint32_t prof_func_add(struct prof_model *m, const struct prof_fkey *k, const char *name)
{
	struct prof_func *f;

	if (prof_grow(&m->funcs, &m->capfuncs, m->nfuncs + 1, sizeof(*m->funcs)) < 0)
		prof_oom();
	f = &m->funcs[m->nfuncs];
	memset(f, 0, sizeof(*f));
	f->kind = k->kind;
	f->key = k->key;
	f->name = prof_strdup(name);
	f->min = UINT64_MAX;
	return m->nfuncs++;
}

static uint32_t prof_func_get(struct prof_model *m, const struct sonde_event *ev)
{
	struct prof_fkey k;
	const char *symname;
	char num[32];
	const char *name;
	uint64_t h;
	uint32_t idx;

	prof_fkey_of(m, ev, &k, &symname);
	h = prof_fkey_hash(&k);
	idx = prof_map_find(&m->funcmap, h, prof_func_eq, m, &k);
	if (idx != PROF_MAP_EMPTY)
		return idx;
	if (m->nfuncs - (m->other_func != PROF_NONE) >= m->lim.max_functions) {
		if (m->other_func == PROF_NONE) {
			struct prof_fkey ok = { PROF_FK_OTHER, 0, NULL };

			m->other_func = prof_func_add(m, &ok, "(other functions)");
		}
		m->n.other_funcs++;
		return m->other_func;
	}
	switch (k.kind) {
	case PROF_FK_NAME: name = k.name; break;
	case PROF_FK_SYM: name = symname; break;
	case PROF_FK_ADDR:
		snprintf(num, sizeof(num), "0x%" PRIx64, k.key);
		name = num;
		break;
	default:
		snprintf(num, sizeof(num), "func#%" PRIu64, k.key);
		name = num;
		break;
	}
	idx = prof_func_add(m, &k, name);
	if (prof_map_add(&m->funcmap, h, idx) < 0)
		prof_oom();
	return idx;
}

/* ---- contexts and ISRs ------------------------------------------------------ */

static void prof_set_name(char **dst, const char *name)
{
	if (!name || (*dst && strcmp(*dst, name) == 0))
		return;
	free(*dst);
	*dst = prof_strdup(name);
}

static uint32_t prof_ctx_new(struct prof_model *m, enum prof_ctx_kind kind, uint64_t id, uint32_t core)
{
	struct prof_ctx *c;

	if (prof_grow(&m->ctxs, &m->capctxs, m->nctxs + 1, sizeof(*m->ctxs)) < 0)
		prof_oom();
	c = calloc(1, sizeof(*c));
	if (!c)
		prof_oom();
	c->kind = kind;
	c->id = id;
	c->core = core;
	c->isr = PROF_NONE;
	m->ctxs[m->nctxs] = c;
	c->root = kind == PROF_CTX_ISR ? PROF_NONE : prof_root_new(m, m->nctxs, PROF_NONE);
	return m->nctxs++;
}

static int prof_task_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct prof_model *m = ctx;
	return m->ctxs[idx]->id == *(const uint64_t *)key;
}

static uint32_t prof_task_get(struct prof_model *m, uint64_t id, const char *name)
{
	uint64_t h = prof_mix(1, id);
	uint32_t idx = prof_map_find(&m->taskmap, h, prof_task_eq, m, &id);

	if (idx == PROF_MAP_EMPTY) {
		if (m->named_entities >= m->lim.max_contexts) {
			m->n.other_ctx++;
			if (m->other_task == PROF_NONE)
				m->other_task = prof_ctx_new(m, PROF_CTX_OTHER, 0, 0);
			return m->other_task; /* keeps its own label, not the task's name */
		}
		idx = prof_ctx_new(m, PROF_CTX_TASK, id, 0);
		if (prof_map_add(&m->taskmap, h, idx) < 0)
		prof_oom();
		m->named_entities++;
	}
	prof_set_name(&m->ctxs[idx]->name, name);
	return idx;
}

static int prof_isr_eq(const void *ctx, uint32_t idx, const void *key)
{
	const struct prof_model *m = ctx;
	return !m->isrs[idx].other && m->isrs[idx].id == *(const uint64_t *)key;
}

static uint32_t prof_isr_new(struct prof_model *m, uint64_t id, int other)
{
	struct prof_isr *r;

	if (prof_grow(&m->isrs, &m->capisrs, m->nisrs + 1, sizeof(*m->isrs)) < 0)
		prof_oom();
	r = &m->isrs[m->nisrs];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->other = other;
	r->root = prof_root_new(m, PROF_NONE, m->nisrs);
	return m->nisrs++;
}

static uint32_t prof_isr_get(struct prof_model *m, uint64_t id, const char *name)
{
	uint64_t h = prof_mix(2, id);
	uint32_t idx = prof_map_find(&m->isrmap, h, prof_isr_eq, m, &id);

	if (idx == PROF_MAP_EMPTY) {
		if (m->named_entities >= m->lim.max_contexts) {
			m->n.other_ctx++;
			if (m->other_isr == PROF_NONE)
				m->other_isr = prof_isr_new(m, 0, 1);
			return m->other_isr; /* keeps its own label */
		}
		idx = prof_isr_new(m, id, 0);
		if (prof_map_add(&m->isrmap, h, idx) < 0)
		prof_oom();
		m->named_entities++;
	}
	prof_set_name(&m->isrs[idx].name, name);
	return idx;
}

static struct prof_core *prof_core_get(struct prof_model *m, uint32_t core)
{
	struct prof_core *c;

	for (uint32_t i = 0; i < m->ncores; i++)
		if (m->cores[i].core == core)
			return &m->cores[i];
	if (m->ncores >= m->lim.max_cores)
		return NULL;
	if (prof_grow(&m->cores, &m->capcores, m->ncores + 1, sizeof(*m->cores)) < 0)
		prof_oom();
	c = &m->cores[m->ncores++];
	memset(c, 0, sizeof(*c));
	c->core = core;
	c->levels = malloc(m->lim.max_isr_nesting * sizeof(*c->levels));
	if (!c->levels)
		prof_oom();
	for (uint32_t i = 0; i < m->lim.max_isr_nesting; i++)
		c->levels[i] = PROF_NONE;
	c->main = prof_ctx_new(m, PROF_CTX_MAIN, 0, core);
	c->idle = prof_ctx_new(m, PROF_CTX_IDLE, 0, core);
	c->task = c->main;
	return c;
}

static struct prof_ctx *prof_running(struct prof_model *m, struct prof_core *c)
{
	if (c->isr_depth)
		return m->ctxs[c->levels[c->isr_depth - 1]];
	return m->ctxs[c->task];
}

/* ---- time ------------------------------------------------------------------- */

static void prof_advance(struct prof_model *m, struct prof_core *c, uint64_t ts, int est)
{
	struct prof_ctx *x;
	uint64_t d;
	int iest;

	if (!c->have_ts) {
		c->have_ts = 1;
		c->first = c->last = ts;
		c->last_est = est;
		return;
	}
	if (ts < c->last) {
		m->n.backwards++;
		c->last_est = est;
		return;
	}
	d = ts - c->last;
	iest = est || c->last_est;
	c->last = ts;
	c->last_est = est;
	if (!d)
		return;
	x = prof_running(m, c);
	x->run += d;
	if (iest) {
		x->est_clock++;
		x->flags |= PROF_F_ESTIMATED;
	}
	if (x->depth) {
		struct prof_frame *fr = &x->stack[x->depth - 1];

		m->funcs[fr->func].self += d;
		if (iest)
			m->funcs[fr->func].flags |= PROF_F_ESTIMATED;
		if (fr->node != PROF_NONE)
			m->nodes[fr->node].self += d;
	} else if (x->root != PROF_NONE) {
		m->nodes[x->root].self += d;
	}
}

/* ---- call stacks ------------------------------------------------------------ */

/* The last timestamp of a core (calls closed at the end of the trace). */
static uint64_t prof_core_last(const struct prof_model *m, uint32_t core)
{
	for (uint32_t i = 0; i < m->ncores; i++)
		if (m->cores[i].core == core)
			return m->cores[i].last;
	return 0;
}

static void prof_report_call(struct prof_model *m, const struct prof_ctx *x, const struct prof_frame *fr,
			     uint64_t incl, unsigned flags)
{
	struct prof_call call = {
		fr->func, x, fr->core, x->depth + 1, fr->t0,
		m->finished ? prof_core_last(m, fr->core) : m->now,
		incl, incl > fr->callees ? incl - fr->callees : 0, flags
	};
	m->on_call(m->call_ctx, m, &call);
}

static void prof_close_top(struct prof_model *m, struct prof_ctx *x, unsigned flags)
{
	struct prof_frame *fr = &x->stack[--x->depth];
	struct prof_func *f = &m->funcs[fr->func];
	uint64_t incl = x->run - fr->enter;

	if (m->on_call) {
		prof_report_call(m, x, fr, incl, fr->flags | flags |
				 (x->est_clock != fr->est ? PROF_F_ESTIMATED : 0));
		if (x->depth)
			x->stack[x->depth - 1].callees += incl;
	}

	f->closed++;
	f->sum += incl;
	if (incl < f->min)
		f->min = incl;
	if (incl > f->max)
		f->max = incl;
	if (!fr->inner)
		f->incl += incl;
	f->flags |= fr->flags | flags;
	if (x->est_clock != fr->est)
		f->flags |= PROF_F_ESTIMATED;
}

/* Close every frame of x, counting them in *counter. */
static void prof_close_all(struct prof_model *m, struct prof_ctx *x, unsigned flags, uint64_t *counter)
{
	*counter += x->depth + x->too_deep;
	x->too_deep = 0;
	while (x->depth)
		prof_close_top(m, x, flags);
}

static void prof_func_enter(struct prof_model *m, struct prof_ctx *x,
			    const struct sonde_event *ev, unsigned tflags)
{
	uint32_t fi = prof_func_get(m, ev);
	struct prof_frame *fr;
	uint32_t parent;

	m->funcs[fi].calls++;
	m->funcs[fi].flags |= tflags;
	/* A decoder that tracks nesting (Sonde's) reports the depth after
	 * entering; shallower than ours means it restarted after a loss and
	 * our frames from before it will never see their exits. */
	if (ev->value >= 1 && (uint64_t)ev->value <= x->depth && !x->too_deep) {
		m->n.func_resyncs++;
		while (x->depth >= (uint64_t)ev->value) {
			m->n.missing_exits++;
			prof_close_top(m, x, PROF_F_MISSING_EXIT);
		}
	}
	if (x->depth >= m->lim.max_depth) {
		x->too_deep++;
		m->n.too_deep++;
		return;
	}
	if (prof_grow(&x->stack, &x->cap, x->depth + 1, sizeof(*x->stack)) < 0)
		prof_oom();
	parent = x->depth ? x->stack[x->depth - 1].node : x->root;
	fr = &x->stack[x->depth];
	fr->func = fi;
	fr->node = prof_node_child(m, parent, fi);
	fr->enter = x->run;
	fr->est = x->est_clock;
	fr->flags = tflags;
	fr->inner = 0;
	fr->t0 = m->now;
	fr->callees = 0;
	fr->core = ev->core;
	for (uint32_t i = 0; i < x->depth; i++)
		if (x->stack[i].func == fi)
			fr->inner = 1;
	x->depth++;
}

/* Does a FUNC_EXIT say which function returns?  On Sonde's wire it does
 * not (it ends the innermost), though the decoder may fill in what it
 * tracked; formats that name it (SyS-T) are matched by name, so a lost
 * exit closes the frames above the named one instead of the wrong one. */
static int prof_exit_names_func(const struct sonde_event *ev)
{
	if (ev->flags & SONDE_EVF_NO_OBJ)
		return 0;
	return ev->obj_name || ((ev->flags & SONDE_EVF_ADDR) && ev->obj);
}

static void prof_func_exit(struct prof_model *m, struct prof_ctx *x,
			   const struct sonde_event *ev, unsigned tflags)
{
	uint32_t i;

	if (x->too_deep) {
		x->too_deep--;
		return;
	}
	if (!x->depth) {
		m->n.unmatched_exits++;
		return;
	}
	i = x->depth - 1;
	if (prof_exit_names_func(ev)) {
		struct prof_fkey k;
		const char *symname;

		prof_fkey_of(m, ev, &k, &symname);
		for (;;) {
			if (prof_func_eq(m, x->stack[i].func, &k))
				break;
			if (i == 0) {
				m->n.unmatched_exits++;
				return;
			}
			i--;
		}
	}
	while (x->depth - 1 > i) {
		m->n.missing_exits++;
		prof_close_top(m, x, PROF_F_MISSING_EXIT);
	}
	prof_close_top(m, x, tflags);
}

/* ---- ISRs ------------------------------------------------------------------- */

/* End the innermost ISR of core c: its unfinished calls are closed with
 * fflags (and counted in *fcounter), the activation itself gets rflags. */
static void prof_isr_leave(struct prof_model *m, struct prof_core *c, unsigned fflags,
			   unsigned rflags, uint64_t *fcounter)
{
	struct prof_ctx *x = m->ctxs[c->levels[c->isr_depth - 1]];
	struct prof_isr *r = &m->isrs[x->isr];
	uint64_t d = x->run - x->isr_start;

	prof_close_all(m, x, fflags, fcounter);
	r->total += d;
	if (d > r->max)
		r->max = d;
	r->flags |= x->isr_flags | rflags;
	if (x->est_clock != x->isr_est)
		r->flags |= PROF_F_ESTIMATED;
	x->isr = PROF_NONE;
	x->root = PROF_NONE;
	c->isr_depth--;
}

static void prof_isr_enter(struct prof_model *m, struct prof_core *c,
			   const struct sonde_event *ev, unsigned tflags)
{
	struct prof_ctx *x;
	uint32_t ri;

	/* The decoder knows the nesting better after a loss (it resets its
	 * stack): a shallower depth than ours means exits were lost. */
	if (ev->value >= 1 && (uint64_t)ev->value <= c->isr_depth && !c->isr_extra) {
		m->n.isr_resyncs++;
		while (c->isr_depth >= (uint64_t)ev->value)
			prof_isr_leave(m, c, PROF_F_MISSING_EXIT, PROF_F_MISSING_EXIT,
				       &m->n.missing_exits);
	}
	if (c->isr_depth >= m->lim.max_isr_nesting) {
		c->isr_extra++;
		m->n.isr_too_deep++;
		return;
	}
	ri = prof_isr_get(m, ev->obj, ev->obj_name);
	if (c->levels[c->isr_depth] == PROF_NONE)
		c->levels[c->isr_depth] = prof_ctx_new(m, PROF_CTX_ISR, c->isr_depth + 1, c->core);
	x = m->ctxs[c->levels[c->isr_depth]];
	x->isr = ri;
	x->isr_start = x->run;
	x->isr_est = x->est_clock;
	x->isr_flags = tflags;
	x->root = m->isrs[ri].root;
	x->switches++;
	m->isrs[ri].count++;
	c->isr_depth++;
}

static void prof_isr_exit(struct prof_model *m, struct prof_core *c, unsigned tflags)
{
	if (c->isr_extra) {
		c->isr_extra--;
		return;
	}
	if (!c->isr_depth) {
		m->n.unmatched_isr_exits++;
		return;
	}
	prof_isr_leave(m, c, PROF_F_MISSING_EXIT, tflags, &m->n.missing_exits);
}

/* ---- losses ------------------------------------------------------------------ */

/* A loss cuts core c (core/loss.h): its ISR activations and every call of
 * every context of the core end now, flagged PROF_F_LOST, and the core
 * runs no task ("No task") until a record says otherwise. */
static void prof_cut(struct prof_model *m, struct prof_core *c)
{
	while (c->isr_depth)
		prof_isr_leave(m, c, PROF_F_LOST, PROF_F_LOST, &m->n.cut_by_loss);
	c->isr_extra = 0;
	for (uint32_t i = 0; i < m->nctxs; i++) {
		struct prof_ctx *x = m->ctxs[i];
		/* a task's calls are of the core they were entered on */
		if (x->kind != PROF_CTX_ISR && x->depth && x->stack[x->depth - 1].core == c->core)
			prof_close_all(m, x, PROF_F_LOST, &m->n.cut_by_loss);
	}
	c->task = c->main;
}

static void prof_cut_cores(struct prof_model *m, uint32_t core)
{
	for (uint32_t i = 0; i < m->ncores; i++)
		if (core == SONDE_LOSS_ALL || m->cores[i].core == core) {
			m->now = m->cores[i].last;
			prof_cut(m, &m->cores[i]);
		}
}

/* ---- the event entry point ---------------------------------------------------- */

static int prof_kind_matters(enum sonde_ev_kind k)
{
	switch (k) {
	case SONDE_EV_FUNC_ENTER: case SONDE_EV_FUNC_EXIT:
	case SONDE_EV_ISR_ENTER: case SONDE_EV_ISR_EXIT:
	case SONDE_EV_TASK_IN: case SONDE_EV_TASK_OUT: case SONDE_EV_IDLE:
		return 1;
	default:
		return 0;
	}
}

void prof_event(struct prof_model *m, const struct sonde_event *ev)
{
	struct prof_core *c;
	unsigned tflags = 0;
	uint32_t t, cut;

	if (m->finished)
		return;
	m->n.events++;
	c = prof_core_get(m, ev->core);
	if (!c) {
		m->n.other_cores++;
		return;
	}
	if (ev->ts_flags & SONDE_TS_VALID) {
		int est = (ev->ts_flags & SONDE_TS_ESTIMATED) != 0;

		if (est) {
			m->n.estimated++;
			tflags |= PROF_F_ESTIMATED;
		}
		prof_advance(m, c, ev->ts, est);
	} else if (prof_kind_matters(ev->kind)) {
		m->n.untimed++;
		tflags |= PROF_F_UNTIMED;
	}
	m->now = c->last;
	if (sonde_loss_event(&m->loss, ev, &cut, NULL)) {
		/* at the loss's time: a DROPS's own, else the core's last */
		prof_cut_cores(m, cut);
		m->now = c->last;
	}

	switch (ev->kind) {
	case SONDE_EV_FUNC_ENTER:
		prof_func_enter(m, prof_running(m, c), ev, tflags);
		break;
	case SONDE_EV_FUNC_EXIT:
		prof_func_exit(m, prof_running(m, c), ev, tflags);
		break;
	case SONDE_EV_ISR_ENTER:
		prof_isr_enter(m, c, ev, tflags);
		break;
	case SONDE_EV_ISR_EXIT:
		prof_isr_exit(m, c, tflags);
		break;
	case SONDE_EV_TASK_IN:
		t = prof_task_get(m, ev->obj, ev->obj_name);
		c->task = t;
		m->ctxs[t]->switches++;
		m->ctxs[t]->flags |= tflags;
		break;
	case SONDE_EV_TASK_OUT:
		(void)prof_task_get(m, ev->obj, ev->obj_name);
		c->task = c->main;
		break;
	case SONDE_EV_TASK_CREATE:
	case SONDE_EV_TASK_READY:
		(void)prof_task_get(m, ev->obj, ev->obj_name);
		break;
	case SONDE_EV_IDLE:
		c->task = c->idle;
		m->ctxs[c->idle]->switches++;
		break;
	case SONDE_EV_DROPS:
		if (ev->value || ev->obj2)
			m->n.drops++;
		break;
	default:
		break;
	}
}

void prof_diag(struct prof_model *m, const struct sonde_diag *d)
{
	if (m->finished || !sonde_loss_diag(d))
		return;
	m->n.stream_errors++;
	prof_cut_cores(m, SONDE_LOSS_ALL);
}

void prof_finish(struct prof_model *m)
{
	if (m->finished)
		return;
	m->finished = 1;
	for (uint32_t i = 0; i < m->ncores; i++) {
		struct prof_core *c = &m->cores[i];

		while (c->isr_depth) {
			m->n.isrs_open_at_end++;
			prof_isr_leave(m, c, PROF_F_OPEN, PROF_F_OPEN, &m->n.open_at_end);
		}
		c->isr_extra = 0;
	}
	for (uint32_t i = 0; i < m->nctxs; i++)
		prof_close_all(m, m->ctxs[i], PROF_F_OPEN, &m->n.open_at_end);
}

/* ---- life cycle --------------------------------------------------------------- */

struct prof_model *prof_create(const struct prof_limits *lim, const struct elfsym *syms, int want_tree)
{
	struct prof_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (lim) {
		m->lim = *lim;
	} else {
		m->lim.max_functions = PROF_DEFAULT_MAX_FUNCTIONS;
		m->lim.max_contexts = PROF_DEFAULT_MAX_CONTEXTS;
		m->lim.max_depth = PROF_DEFAULT_MAX_DEPTH;
		m->lim.max_nodes = PROF_DEFAULT_MAX_NODES;
		m->lim.max_isr_nesting = PROF_DEFAULT_MAX_ISR_NESTING;
		m->lim.max_cores = PROF_DEFAULT_MAX_CORES;
	}
	if (m->lim.max_isr_nesting == 0)
		m->lim.max_isr_nesting = 1;
	if (m->lim.max_cores == 0)
		m->lim.max_cores = 1;
	m->syms = syms;
	m->want_tree = want_tree;
	m->other_func = m->other_task = m->other_isr = PROF_NONE;
	sonde_loss_init(&m->loss);
	return m;
}

void prof_destroy(struct prof_model *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		free(m->funcs[i].name);
	free(m->funcs);
	for (uint32_t i = 0; i < m->nctxs; i++) {
		free(m->ctxs[i]->name);
		free(m->ctxs[i]->stack);
		free(m->ctxs[i]);
	}
	free(m->ctxs);
	for (uint32_t i = 0; i < m->nisrs; i++)
		free(m->isrs[i].name);
	free(m->isrs);
	for (uint32_t i = 0; i < m->ncores; i++)
		free(m->cores[i].levels);
	free(m->cores);
	free(m->nodes);
	prof_map_free(&m->funcmap);
	prof_map_free(&m->taskmap);
	prof_map_free(&m->isrmap);
	prof_map_free(&m->nodemap);
	elfsym_close(m->owned_syms);
	free(m);
}

struct prof_model *prof_create_from_opts(sonde_opts opts, const char *sink, int want_tree)
{
	const char *elf = sonde_opt_get(opts, "elf");
	struct elfsym *es = NULL;
	struct prof_model *m;

	if (elf) {
		char err[512];

		es = elfsym_open(elf, err, sizeof(err));
		if (!es) {
			sonde_err("%s: -o elf: %s", sink, err);
			return NULL;
		}
	}
	m = prof_create(NULL, es, want_tree);
	if (!m) {
		elfsym_close(es);
		sonde_err("%s: out of memory", sink);
		return NULL;
	}
	m->owned_syms = es;
	return m;
}

void prof_set_call_hook(struct prof_model *m, prof_call_fn *fn, void *ctx)
{
	m->on_call = fn;
	m->call_ctx = ctx;
}

/* ---- results -------------------------------------------------------------------- */

uint32_t prof_func_count(const struct prof_model *m) { return m->nfuncs; }
const struct prof_func *prof_func_at(const struct prof_model *m, uint32_t i) { return &m->funcs[i]; }
uint32_t prof_ctx_count(const struct prof_model *m) { return m->nctxs; }
const struct prof_ctx *prof_ctx_at(const struct prof_model *m, uint32_t i) { return m->ctxs[i]; }
uint32_t prof_isr_count(const struct prof_model *m) { return m->nisrs; }
const struct prof_isr *prof_isr_at(const struct prof_model *m, uint32_t i) { return &m->isrs[i]; }
uint32_t prof_node_count(const struct prof_model *m) { return m->nnodes; }
const struct prof_node *prof_node_at(const struct prof_model *m, uint32_t i) { return &m->nodes[i]; }
const struct prof_counts *prof_counts(const struct prof_model *m) { return &m->n; }
const struct prof_limits *prof_limits_of(const struct prof_model *m) { return &m->lim; }

uint64_t prof_total_time(const struct prof_model *m)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < m->ncores; i++)
		if (m->cores[i].have_ts)
			t += m->cores[i].last - m->cores[i].first;
	return t;
}
