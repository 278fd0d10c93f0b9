/*
 * an.h -- the timing analyses of a trace, one module for `sonde stats`
 * (text and JSONL) and the HTML report:
 *
 *   per task    CPU time and load (ISRs excluded), run count, run time per
 *               activation (mean, percentiles, max, longest N), ready-to-run
 *               latency (TASK_READY/TASK_CREATE to TASK_IN);
 *   per ISR     activations, CPU time (nested ISRs excluded) and load,
 *               duration per activation, time between activations, deepest
 *               nesting, longest N;
 *   per core    traced time, idle share, time outside any task, deepest
 *               ISR nesting;
 *   windows     CPU load of every task/ISR/idle per time window.
 *
 * Time is charged as the profile does (docs/profiling.md §3): the interval
 * between two timed events of a core goes to the innermost active ISR, else
 * to the running task, idle, or "No task".  Loss-aware: a span (a run, an
 * ISR activation, a ready wait) during which records were lost -- a
 * sequence gap, a bad frame, a DROPS increase, an estimated time, an ISR
 * stack the decoder had to resynchronise -- or still open at the end is
 * counted as incomplete and kept out of mean, percentiles, max and longest.
 * A loss also ends what is open on its core, by the rule of core/loss.h
 * that every output follows.
 *
 * Further analyses plug in through struct an_plugin (an_plugins.c lists
 * them): they see every event after the shared state (what runs on each
 * core, the loss epoch) is updated, and write their own text and JSON.
 * Memory: bounded by tasks, ISRs and windows (struct an_config), never by
 * the length of the trace.
 */
#ifndef SONDE_AN_H
#define SONDE_AN_H

#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "hist.h"
#include "loss.h"
#include "pipeline.h"

#define AN_TOP_MAX 64
#define AN_MAX_ENTITIES 4096
#define AN_MAX_CORES 64
#define AN_MAX_NEST 64

enum an_kind { AN_TASK, AN_ISR, AN_IDLE, AN_NOTASK };

struct an_top {
	uint64_t dur, start; /* start in ticks */
};

/* A task, an ISR, or a core's idle / no-task time. */
struct an_ent {
	enum an_kind kind;
	uint64_t id;          /* task/ISR id; the core for IDLE/NOTASK */
	uint32_t core;        /* IDLE/NOTASK: their core; else the first seen */
	char *name;           /* from the decoder, NULL if none */
	const char *seen;     /* the pointer of the name last seen, */
	uint64_t seen_gen;    /*   under this names_gen (struct sonde_session) */
	int32_t prio;         /* tasks: from TASK_CREATE, -1 unknown */
	int idle_task;        /* the RTOS's idle task (IDLE named it): a task row whose time
			       * is the core's idle time */
	uint64_t cpu;         /* CPU time charged */
	uint64_t count;       /* runs (switch-ins) or activations */
	struct hist span;     /* run time / ISR duration of complete spans */
	uint64_t incomplete;  /* spans with a loss inside or open at the end */
	struct hist lat;      /* tasks: ready-to-run latency; ISRs: time between activations */
	uint64_t lat_incomplete;
	uint32_t max_nest;    /* ISRs: deepest nesting level it ran at (1 = not nested) */
	struct an_top top[AN_TOP_MAX];
	uint32_t ntop;
	/* running state */
	int ready;            /* tasks: waiting to run since ready_ts */
	uint64_t ready_ts, ready_epoch;
	uint64_t last_enter;  /* ISRs: the previous activation's start */
	int have_enter;
	uint64_t enter_epoch;
	/* per-window CPU time */
	uint64_t *win;
	uint32_t nwin;
	uint32_t capwin;      /* windows allocated */
};

struct an_frame {            /* an ISR activation in progress */
	uint32_t ent;
	uint64_t start, cpu, epoch;
};

struct an_core {
	uint32_t id;
	int have_time;
	uint64_t first, last;
	uint32_t cur;             /* entity running outside ISRs */
	uint64_t run_start, run_cpu, run_epoch; /* the current run of cur */
	int running;              /* cur is a task in a run */
	int switched;             /* cur was set once: run_start/run_cpu are its period's */
	struct an_frame isr[AN_MAX_NEST];
	uint32_t depth, hidden;   /* ISR stack; levels beyond AN_MAX_NEST */
	uint32_t max_depth;
	uint32_t idle, notask;    /* their entities, UINT32_MAX until used */
	uint64_t by_kind[4];      /* CPU time of this core per enum an_kind */
};

struct an_config {
	uint64_t window;          /* ticks per window, 0 = none */
	uint32_t max_windows;     /* windows kept; more merge pairs (width doubles); 0 = 1000000 / entities */
	uint32_t top;             /* longest N per task/ISR (default 10) */
};

struct an_model;
struct an_plugin;

/* A span as it ends, for exports that list every one (the SQLite sink,
 * an_model.on_span): a task's run, an idle or no-task period of a core, or
 * an ISR activation.  start and end are the ticks of the events that began
 * and ended it; cpu is the time charged to it (a run or period without the
 * ISRs inside, an activation without nested ISRs).  complete as in the
 * figures: no loss inside and not still open at the end.  Idle and no-task
 * periods in which no time passed are not reported. */
struct an_span {
	const struct an_ent *ent;
	uint32_t core;
	uint32_t depth;       /* ISRs: nesting level, 1 = outermost; else 0 */
	uint64_t start, end, cpu;
	int complete;
};

struct an_plugin_ops {
	const char *name;
	void *(*create)(struct an_model *m);
	void (*event)(void *p, struct an_model *m, const struct sonde_event *ev);
	void (*diag)(void *p, struct an_model *m, const struct sonde_diag *d);
	void (*finish)(void *p, struct an_model *m);
	int (*text)(void *p, const struct an_model *m, FILE *out);  /* may be NULL */
	int (*json)(void *p, const struct an_model *m, FILE *out);  /* JSON lines; may be NULL */
	void (*destroy)(void *p);
};
extern const struct an_plugin_ops *const an_plugins[]; /* an_plugins.c */

struct an_model {
	struct an_config cfg;
	uint64_t ts_freq;
	uint64_t names_gen;       /* the session's (struct sonde_session), 0 = unknown */
	int have_origin;
	uint64_t origin;          /* time 0 of windows and "start" columns */
	struct an_ent *ent;
	uint32_t nent, capent;
	uint32_t small[2][256];   /* index + 1 of the task (AN_TASK) or ISR (AN_ISR) of an id
				   * below 256, 0 none yet: most are, and every event looks one up */
	uint32_t other_ents;      /* events of entities beyond AN_MAX_ENTITIES (ignored) */
	struct an_core *core[AN_MAX_CORES];
	uint64_t other_cores;     /* events of cores beyond AN_MAX_CORES (ignored) */
	uint64_t epoch;           /* loss epoch: +1 at every loss */
	uint64_t losses;          /* loss events seen (diagnostics, DROPS increases, estimates) */
	struct sonde_loss loss;   /* what cuts the open spans (core/loss.h) */
	uint64_t backwards;       /* timestamps earlier than the core's last (not charged) */
	uint64_t resyncs;         /* ISR stacks resynchronised after a loss */
	uint64_t window;          /* current window width (ticks); may have doubled */
	uint32_t nwin;            /* windows in use */
	uint32_t merges;          /* times the windows were merged in pairs */
	uint64_t cells, max_cells;
	int finished;
	/* the records the decoder tallied instead of delivering (their time
	 * is charged as an event's would be), and how many were seen */
	const struct sonde_tally *tally;
	uint64_t tally_seen, tally_behind;
	void *plug[16];
	/* Set by the caller after an_new to receive every span as it ends;
	 * NULL: none. */
	void (*on_span)(void *ctx, const struct an_model *m, const struct an_span *s);
	void *span_ctx;
};

struct an_model *an_new(const struct an_config *cfg);
/* The kinds of events the model does without (struct sonde_listener's
 * tally_kinds): those that change nothing but the time. */
uint32_t an_tally_kinds(void);
void an_event(struct an_model *m, const struct sonde_event *ev, const struct sonde_session *s);
void an_diag(struct an_model *m, const struct sonde_diag *d);
/* End of input: close what is open (as incomplete). */
void an_finish(struct an_model *m);
void an_free(struct an_model *m);

/* Traced time: the sum over cores of last minus first timestamp. */
uint64_t an_total(const struct an_model *m);
/* A row's label: the name, or "task #3", "isr #5", "(idle)", "No task"
 * (with "@core" for cores other than 0 on idle/no task). */
const char *an_label(const struct an_ent *e, char *buf, size_t n);
/* Rows in report order: tasks (by CPU time, longest first), idle, no task,
 * then ISRs (by CPU time); returns how many indexes were written. */
uint32_t an_order(const struct an_model *m, uint32_t *idx);

/* Text for `sonde stats` (freq 0: ticks only).  0, or -1 on a write error. */
int an_write_text(struct an_model *m, FILE *out);
/* JSON lines: {"type":"task"|"isr"|"idle"|"notask",...}, {"type":"core",...},
 * {"type":"window",...}, {"type":"analysis",...}.  0, or -1. */
int an_write_jsonl(struct an_model *m, FILE *out);
/* One JSON object per row, for embedding (the report); sep between them. */
void an_json_ent(const struct an_model *m, const struct an_ent *e, uint32_t idx, FILE *out);

#endif /* SONDE_AN_H */
