/*
 * profile_model.h -- the function profile built from the event model.
 *
 * Shared by the "profile" and "folded" sinks.  Fed struct sonde_event one at
 * a time, it keeps per execution context (each task, the code outside any
 * task "No task", the idle loop "(idle)", and each ISR nesting level of each
 * core) a call stack of FUNC_ENTER/FUNC_EXIT, and accumulates:
 *
 *   per function  calls, inclusive and self time, min/max/sum of inclusive
 *                 time per call;
 *   per context   running time (CPU time) and how often it was switched in;
 *   per ISR       activations, total and longest activation;
 *   per stack     self time of every distinct call stack (optional, for
 *                 flame graphs).
 *
 * Times are CPU time of the context: the interval between two timed events
 * is charged to whatever ran in it (the innermost ISR if one is active, else
 * the current task), so time in an ISR or in another task is never part of a
 * preempted function's self or inclusive time.  A recursive function's
 * inclusive total counts only its outermost activation (no double counting);
 * its per-call min/max/mean cover every activation.
 *
 * Memory grows with the number of distinct functions, contexts and stacks,
 * never with the length of the trace; each has a cap (struct prof_limits)
 * beyond which input is folded into an overflow bucket and a note says so.
 */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "pipeline.h"

struct elfsym;

#define PROF_NONE UINT32_MAX

/* Flags on functions, contexts and ISRs: what makes their numbers uncertain. */
#define PROF_F_ESTIMATED    0x01u /* some time came from ESTIMATED timestamps */
#define PROF_F_UNTIMED      0x02u /* some event had no valid timestamp (taken at the time before it) */
#define PROF_F_OPEN         0x04u /* still active at the end of the trace: closed at the last timestamp */
#define PROF_F_MISSING_EXIT 0x08u /* an exit never came: closed when an outer frame or the ISR ended */
#define PROF_F_LOST         0x10u /* cut by a loss (core/loss.h): closed at the loss */

struct prof_limits {
	uint32_t max_functions;   /* distinct functions; more go to "(other functions)" */
	uint32_t max_contexts;    /* tasks + ISRs; more go to "(other tasks)" / "(other ISRs)" */
	uint32_t max_depth;       /* call depth per context; deeper calls count toward their caller */
	uint32_t max_nodes;       /* distinct call stacks; deeper ones are cut */
	uint32_t max_isr_nesting; /* ISR nesting levels per core */
	uint32_t max_cores;       /* events of further cores are ignored */
};

#define PROF_DEFAULT_MAX_FUNCTIONS   100000u
#define PROF_DEFAULT_MAX_CONTEXTS    4096u
#define PROF_DEFAULT_MAX_DEPTH       1024u
#define PROF_DEFAULT_MAX_NODES       1000000u
#define PROF_DEFAULT_MAX_ISR_NESTING 64u
#define PROF_DEFAULT_MAX_CORES       64u

enum prof_fkind {
	PROF_FK_NAME,  /* named by the decoder (dictionary) */
	PROF_FK_SYM,   /* address resolved through the ELF symbol table; key = symbol start */
	PROF_FK_ADDR,  /* address with no symbol */
	PROF_FK_ID,    /* function id with no name */
	PROF_FK_OTHER  /* the overflow bucket */
};

struct prof_func {
	enum prof_fkind kind;
	uint64_t key;        /* address, symbol start or id */
	char *name;          /* display name (owned) */
	uint64_t calls;      /* FUNC_ENTERs */
	uint64_t incl;       /* inclusive time, outermost activations only */
	uint64_t self;       /* time with this function on top of the stack */
	uint64_t sum;        /* inclusive time summed over every activation */
	uint64_t closed;     /* activations measured (== calls after finish, unless too deep) */
	uint64_t min, max;   /* inclusive time of one activation */
	unsigned flags;      /* PROF_F_* */
};

enum prof_ctx_kind {
	PROF_CTX_MAIN,  /* no task: bare-metal main loop, startup, between TASK_OUT and TASK_IN */
	PROF_CTX_IDLE,  /* after IDLE until the next TASK_IN */
	PROF_CTX_TASK,
	PROF_CTX_OTHER, /* tasks beyond max_contexts */
	PROF_CTX_ISR    /* one ISR nesting level of a core (not listed in reports) */
};

struct prof_frame;

struct prof_ctx {
	enum prof_ctx_kind kind;
	uint64_t id;         /* task id; nesting level for PROF_CTX_ISR */
	uint32_t core;
	char *name;          /* task name from the decoder, or NULL */
	uint64_t run;        /* CPU time: also the clock frames are timed with */
	uint64_t est_clock;  /* how many estimated intervals were charged */
	uint64_t switches;   /* times switched in (TASK_IN, IDLE, ISR entries) */
	unsigned flags;
	uint32_t root;       /* stack tree root of what runs here, PROF_NONE without tree */
	/* call stack */
	struct prof_frame *stack;
	uint32_t depth, cap;
	uint64_t too_deep;   /* enters beyond max_depth not yet exited */
	/* PROF_CTX_ISR: the activation at this level */
	uint32_t isr;        /* index into the ISR table, PROF_NONE when idle */
	uint64_t isr_start;  /* run at ISR_ENTER */
	uint64_t isr_est;    /* est_clock at ISR_ENTER */
	unsigned isr_flags;
};

struct prof_isr {
	uint64_t id;
	char *name;          /* from the decoder, or NULL */
	int other;           /* the overflow bucket */
	uint64_t count;      /* activations */
	uint64_t total;      /* CPU time, without nested ISRs */
	uint64_t max;        /* longest activation (CPU time) */
	unsigned flags;
	uint32_t root;       /* stack tree root */
};

/* A node of the stack tree (calling-context tree).  A root stands for a
 * context (ctx >= 0) or an ISR (isr >= 0) and has func == PROF_NONE. */
struct prof_node {
	uint32_t parent;     /* PROF_NONE for roots */
	uint32_t func;       /* index into the function table, PROF_NONE for roots */
	uint32_t ctx;        /* roots: context index, else PROF_NONE */
	uint32_t isr;        /* roots: ISR index, else PROF_NONE */
	uint64_t self;       /* time with exactly this stack running */
};

/* Things worth telling the reader, counted over the whole trace. */
struct prof_counts {
	uint64_t events;           /* events fed */
	uint64_t untimed;          /* profiled events without a valid timestamp */
	uint64_t estimated;        /* events with an ESTIMATED timestamp */
	uint64_t backwards;        /* timestamps earlier than the one before (ignored for timing) */
	uint64_t unmatched_exits;  /* FUNC_EXIT with no matching FUNC_ENTER (ignored) */
	uint64_t missing_exits;    /* frames closed because an outer frame or their ISR ended */
	uint64_t open_at_end;      /* frames closed at the end of the trace */
	uint64_t cut_by_loss;      /* frames and ISR activations a loss ended (core/loss.h) */
	uint64_t func_resyncs;     /* FUNC_ENTER depth lower than tracked: frames above closed */
	uint64_t unmatched_isr_exits;
	uint64_t isr_resyncs;      /* ISR_ENTER nesting lower than tracked: lost exits */
	uint64_t isrs_open_at_end;
	uint64_t too_deep;         /* calls beyond max_depth */
	uint64_t isr_too_deep;     /* ISR entries beyond max_isr_nesting */
	uint64_t other_funcs;      /* calls of functions beyond max_functions */
	uint64_t other_ctx;        /* events for tasks/ISRs beyond max_contexts */
	uint64_t cut_stacks;       /* frames whose stack could not get a tree node */
	uint64_t other_cores;      /* events of cores beyond max_cores (ignored) */
	uint64_t drops;            /* DROPS events reporting lost records */
	uint64_t stream_errors;    /* decoder diagnostics that mean lost or damaged records */
};

struct prof_model;

/* A call as it ends, for exports that list every one (the SQLite sink,
 * prof_set_call_hook).  Times as in the model: incl is the CPU time of its
 * context while it was on the stack (its inclusive time), self the part of
 * it not spent in callees; start and end are the ticks of the FUNC_ENTER and
 * of the event that ended it (the last timestamp of its core for a call
 * closed at the end of the trace). */
struct prof_call {
	uint32_t func;               /* index into the function table */
	const struct prof_ctx *ctx;  /* where it ran; for an ISR level, ctx->isr is the ISR */
	uint32_t core;               /* the core it was entered on */
	uint32_t depth;              /* 1 = outermost call of its context */
	uint64_t start, end;
	uint64_t incl, self;
	unsigned flags;              /* PROF_F_* */
};
typedef void prof_call_fn(void *ctx, const struct prof_model *m, const struct prof_call *c);

/* lim NULL: the defaults.  syms (may be NULL) names addresses; the model
 * does not take ownership.  want_tree: also build the stack tree. */
struct prof_model *prof_create(const struct prof_limits *lim, const struct elfsym *syms, int want_tree);
void prof_event(struct prof_model *m, const struct sonde_event *ev);
/* A decoder diagnostic: those that mean lost records are counted, since
 * the stacks around them may be wrong. */
void prof_diag(struct prof_model *m, const struct sonde_diag *d);
/* Receive every call as it ends (fn NULL: none). */
void prof_set_call_hook(struct prof_model *m, prof_call_fn *fn, void *ctx);
/* End of trace: close what is still open at the last timestamp.  Further
 * calls do nothing. */
void prof_finish(struct prof_model *m);
void prof_destroy(struct prof_model *m);

/* Results (valid until prof_destroy). */
uint32_t prof_func_count(const struct prof_model *m);
const struct prof_func *prof_func_at(const struct prof_model *m, uint32_t i);
uint32_t prof_ctx_count(const struct prof_model *m);
const struct prof_ctx *prof_ctx_at(const struct prof_model *m, uint32_t i);
uint32_t prof_isr_count(const struct prof_model *m);
const struct prof_isr *prof_isr_at(const struct prof_model *m, uint32_t i);
uint32_t prof_node_count(const struct prof_model *m);
const struct prof_node *prof_node_at(const struct prof_model *m, uint32_t i);
const struct prof_counts *prof_counts(const struct prof_model *m);
const struct prof_limits *prof_limits_of(const struct prof_model *m);
/* Traced time: the sum over cores of last minus first timestamp. */
uint64_t prof_total_time(const struct prof_model *m);

/* Build a model from sink options: -o elf=FILE loads symbols.  On error
 * prints "sonde CMD: <sink>: ..." (core/msg.h) to stderr and returns NULL.  The model owns
 * the symbol table. */
struct prof_model *prof_create_from_opts(sonde_opts opts, const char *sink, int want_tree);

#endif /* PROF_MODEL_H */
