/*
 * rtos_stats.h -- the RTOS figures of `sonde stats`: per task the time it
 * spent running, ready, blocked and suspended and how often it was switched
 * in and blocked (CPU load and ready-to-run latency are the timing
 * analyses', analysis/an.h); per kernel object (queue, semaphore, mutex,
 * event group, stream buffer) its operations, highest level, how often and
 * how long tasks waited on it, and for a mutex how long it was held; the
 * heap (allocations, failures and frees by task, the most in use, the
 * blocks still allocated at the end), each task's least free stack and the
 * idle task's time in low power.  A
 * listener on the pipeline (core/pipe.h): it works on every decoder that
 * produces the event model's RTOS events (Sonde's own, Tonbandgeraet).
 *
 * Memory is bounded: at most RTOS_STATS_MAX tasks and objects are
 * followed (per core); those beyond are counted, not followed.
 */
#ifndef SONDE_RTOS_STATS_H
#define SONDE_RTOS_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "core/heapmap.h"
#include "core/pipe.h"

#define RTOS_STATS_MAX 1024

/* A task's states, as the figures count them. */
enum rtos_st { RTOS_ST_UNKNOWN, RTOS_ST_RUNNING, RTOS_ST_READY, RTOS_ST_BLOCKED, RTOS_ST_SUSPENDED,
	       RTOS_ST_DELETED, RTOS_ST_COUNT };

/* What a task or an object is known by; the first member of both, so one
 * lookup serves the two tables. */
struct rtos_key {
	uint32_t core;
	uint64_t id;
};

struct rtos_task {
	struct rtos_key key;
	char name[48];
	enum rtos_st st;
	uint64_t since;            /* time the current state began */
	int since_valid;
	uint64_t in_state[RTOS_ST_COUNT];
	uint64_t switches, blocks;
	int waiting;               /* blocked on wait_obj */
	uint64_t wait_obj, wait_from;
	uint64_t stack_min;        /* least free stack seen, bytes (stack_seen) */
	int stack_seen;
	uint64_t lp_count, lp_sum, lp_from; /* low power: times, time, since (lp_on) */
	int lp_on;
};

/* Heap operations of one task (or of no task). */
struct rtos_heap_use {
	uint64_t allocs, failed, frees, bytes_alloc, bytes_freed;
};

struct rtos_obj {
	struct rtos_key key;
	char name[48];
	uint64_t kind;
	uint64_t ops[3][2];        /* put / get / peek; ok, failed */
	uint64_t other_ops;        /* the rest: timer expiries and commands, event bits, ... */
	int64_t max_level;
	int have_level;
	uint64_t waits, wait_sum, wait_max;
	uint64_t holds, hold_sum, hold_max;
	uint64_t held_by, held_from;
	int held;
};

#define RTOS_KINDS 16  /* object kinds counted (failed creations) */
#define RTOS_APIS 128  /* API ids (RTOS_API_FN) counted */

struct rtos_api {
	uint64_t calls, rets, zero;
};

struct rtos_stats {
	struct rtos_task *tasks;
	struct rtos_obj *objs;
	size_t ntasks, nobjs;
	uint64_t untracked;        /* events about tasks/objects beyond the limit */
	int seen;                  /* any RTOS event: print the section */
	uint64_t create_failed[RTOS_KINDS]; /* by kind (0: unknown) */
	struct rtos_api api[RTOS_APIS];     /* by API id */
	uint64_t running[8];       /* per core (0..7): index + 1 of the running task, 0 none */
	/* the heap: blocks allocated (task: index + 1 in tasks, 0 none; ts:
	 * since the trace's origin), by task (heap_use[] beside tasks[]) */
	struct heapmap heap;
	struct rtos_heap_use *heap_use, notask_heap;
	uint64_t heap_max;
	int heap_seen;
	uint64_t idle[8];          /* per core: id + 1 of the idle task (OBJECT), 0 unknown */
	uint64_t last_ts;
	/* the records the decoder tallied instead of delivering (none of the
	 * kinds above): the latest may be later than the latest event */
	const struct sonde_tally *tally;
	uint64_t tally_seen;
};

void rtos_stats_init(struct rtos_stats *rs);
void rtos_stats_free(struct rtos_stats *rs);
struct sonde_listener rtos_stats_listener(struct rtos_stats *rs);
/* The section, if the trace had RTOS events (else nothing).  ts_freq: the
 * session's clock (0: times in ticks).  Returns 0, -1 on a write error. */
int rtos_stats_print(const struct rtos_stats *rs, uint64_t ts_freq, FILE *out);
/* The same figures as JSON lines (`sonde stats --format jsonl`; docs/
 * analysis.md): a line "rtos", one per task, object, API function and heap
 * user, "rtos_heap" and one per block still allocated.  Times in ticks, as
 * the analysis lines (their "analysis" line has ts_freq).  Nothing without
 * RTOS events.  Returns 0, -1 on a write error. */
int rtos_stats_json(const struct rtos_stats *rs, FILE *out);

#endif /* SONDE_RTOS_STATS_H */
