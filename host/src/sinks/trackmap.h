/*
 * trackmap.h -- maps the Sonde event stream onto timeline tracks, slices,
 * instants and counters: the model shared by the Perfetto and Chrome JSON
 * exporters, which differ only in how they write what this module decides.
 *
 * Layout (docs/exports.md has the full table):
 *   one process per core ("Core N", pid N + 1), holding
 *     thread "No task"    work outside any task (bare metal, before the
 *                         scheduler starts); the process's main thread
 *     thread "ISRs"       interrupt handlers as nested slices
 *     thread "Idle"       IDLE periods
 *     thread per task     "Running" slices while it runs
 *     track  "<task> state"  Ready / Running / Blocked / Suspended slices
 *     track per marker    MARK instants, MARK_BEGIN..END slices
 *     counters            COUNTER, QUEUE levels, lost records
 *     track  "Trace diagnostics"  INFO, DROPS, decoder diagnostics
 *   FUNC_ENTER/EXIT nest on the running context's track (innermost ISR,
 *   else the running task or Idle, else No task); LOG, RECORD and STATE
 *   events are instants there.  A task that is switched out closes its open
 *   function slices and reopens them ("resumed") when it runs again, so that
 *   slices on every track nest strictly, as both formats require.
 *
 * Memory is bounded: at most max_tracks tracks, max_depth open slices per
 * track (deeper nesting is counted, not drawn) and a bounded name pool.
 */
#ifndef SONDE_TRACKMAP_H
#define SONDE_TRACKMAP_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "pipeline.h"

enum tmap_kind {
	TMAP_PROCESS,  /* one per core */
	TMAP_THREAD,   /* a thread of a process (tasks, ISRs, no task, idle) */
	TMAP_SLICES,   /* a named track under a process (markers, task states) */
	TMAP_COUNTER   /* a counter track under a process */
};

enum tmap_unit { TMAP_UNIT_NONE, TMAP_UNIT_COUNT };

enum tmap_type { TMAP_BEGIN, TMAP_END, TMAP_INSTANT };

/* Task states for writers that feed a scheduler view (Perfetto). */
enum tmap_tstate {
	TMAP_T_RUNNABLE,
	TMAP_T_RUNNING,
	TMAP_T_BLOCKED,
	TMAP_T_SUSPENDED,
	TMAP_T_DEAD
};

struct tmap_track {
	uint64_t uuid;        /* 1, 2, ... in order of creation; unique */
	uint64_t parent;      /* the process track's uuid; 0 for a process */
	enum tmap_kind kind;
	int32_t pid;
	int32_t tid;          /* THREAD and SLICES tracks; tid == pid: main thread */
	const char *name;
	enum tmap_unit unit;  /* COUNTER only */
	int is_task;          /* THREAD of an RTOS task */
	uint32_t core;
	int32_t prio;         /* task priority, -1 if unknown */
};

/* A slice begin, slice end or instant. */
struct tmap_slice {
	const char *cat;      /* category: a string constant (writers may know it
			       * by its address); NULL on an end */
	const char *name;     /* NULL on an end */
	int name_is_text;     /* a message, unlikely to repeat: not worth interning */
	uint32_t name_id;     /* when not 0: the name's id in this trackmap's name
			       * table, which always names the same string, so a
			       * writer may remember what it made of it */
	const struct sonde_arg *args; /* annotations; see tmap_arg_name() */
	size_t nargs;
	const char *ended;    /* TMAP_END: the name of the slice it ends, for
			       * formats that repeat it (Chrome JSON "E") */
	uint64_t flow_out;    /* a flow starts here (e.g. a send), 0 none */
	uint64_t flow_in;     /* the flow of that id ends here (its receive), 0 none */
};

struct tmap_writer_ops {
	/* Declare a track before its first use; called again when its name
	 * changes (a dictionary entry arrived late). */
	void (*track)(void *w, const struct tmap_track *t);
	void (*slice)(void *w, enum tmap_type type, uint64_t ns,
		      const struct tmap_track *t, const struct tmap_slice *s);
	void (*counter)(void *w, uint64_t ns, const struct tmap_track *t, int64_t value);
	/* Task state changes (t is a task thread); NULL if not wanted. */
	void (*task_state)(void *w, uint64_t ns, const struct tmap_track *t,
			   enum tmap_tstate st);
};

#define TMAP_DEFAULT_MAX_TRACKS 4096u
#define TMAP_DEFAULT_MAX_DEPTH  64u
#define TMAP_DEFAULT_MAX_NAMES  65536u

struct tmap_config {
	const char *name;     /* target name for process names; NULL: none */
	uint32_t max_tracks;  /* 0: default */
	uint32_t max_depth;   /* 0: default */
	uint32_t max_names;   /* 0: default */
};

/* Fill cfg from "<prefix>.name", "<prefix>.max_tracks", "<prefix>.max_depth".
 * Returns 0, or -1 (with a message on stderr) for a malformed number. */
int tmap_config_from_opts(struct tmap_config *cfg, sonde_opts opts, const char *prefix);

/* A yes/no option: def if absent, -1 (with a message on stderr) if malformed. */

struct tmap;

struct tmap *tmap_new(const struct tmap_writer_ops *ops, void *w, const struct tmap_config *cfg);
void tmap_event(struct tmap *m, const struct sonde_event *ev, const struct sonde_session *s);
void tmap_diag(struct tmap *m, const struct sonde_diag *d);
void tmap_free(struct tmap *m);

struct tmap_stats {
	uint64_t events;      /* events received */
	uint64_t unmapped;    /* events left out because the track limit was hit */
	uint64_t hidden;      /* slices not drawn because of the depth limit */
	uint32_t tracks;      /* tracks created */
	int ticks_as_ns;      /* ts_freq was 0: ticks were written as ns */
};
void tmap_get_stats(const struct tmap *m, struct tmap_stats *st);

/* What a track shows: "process", "task", "isr", "idle", "notask" (the
 * threads), "state", "marker", "diag" (named slice tracks), "counter". */
const char *tmap_lane(const struct tmap_track *t);

/* The annotation name of args[i]: its own, or "arg<i>" written into buf. */
const char *tmap_arg_name(const struct sonde_arg *a, size_t i, char buf[24]);

/* Ticks at freq Hz to ns (freq 0: ticks are ns); saturates. */
uint64_t tmap_ticks_to_ns(uint64_t ticks, uint64_t freq);

#endif /* SONDE_TRACKMAP_H */
