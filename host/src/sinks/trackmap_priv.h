/*
 * trackmap_priv.h -- what the trackmap files share and the writers do not
 * see: the track table's records, the per-core running context, and the
 * functions that one file of the model offers the others.
 *
 *   trackmap_tracks.c  the track table: creating, finding and naming tracks,
 *                      the model's life cycle
 *   trackmap_slices.c  annotations and the per-track stacks of open slices
 *   trackmap_opts.c    the writers' options
 *   trackmap.c         the event rules: how each event kind maps onto
 *                      tracks, slices, instants and counters
 */
#ifndef SONDE_TRACKMAP_PRIV_H
#define SONDE_TRACKMAP_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "loss.h"
#include "trackmap.h"

struct namepool;

/* What a track is for; with the core and the object id it is the key. */
enum tmap_role {
	R_PROCESS, R_DIAG, R_NOTASK, R_ISR, R_IDLE, R_TASK, R_TSTATE,
	R_MARKER, R_COUNTER, R_QUEUE, R_LOST, R_REFUSED,
	R_HOLDER, R_PRIO, /* RTOS: a mutex's holder, a task's priority (trackmap_rtos.c) */
	R_STACK, R_LOWPOWER /* RTOS: a task's free stack, the idle task's low power */
};

/* An open slice on a track. */
enum tmap_fkind { F_ISR, F_FUNC, F_MARK };

struct tmap_frame {
	uint64_t obj;
	uint32_t name_id;  /* in tmap.names; 0 if the pool was full */
	uint8_t kind;
	uint8_t addr;      /* FUNC: obj is an address */
};

struct tmap_core;

struct tmap_node {
	struct tmap_track t;       /* what the writers see */
	enum tmap_role role;
	uint64_t obj;
	struct tmap_core *core;
	char *name;                /* owned; t.name points here */
	uint32_t name_gen;         /* counts the changes of name */
	const char *seen_name;     /* an event's name found equal to name, */
	uint64_t seen_gen;         /*   under this names_gen (struct sonde_session) */
	struct tmap_frame *stk;    /* open slices (the root slice not counted) */
	uint32_t depth, cap;
	uint32_t hidden;           /* slices deeper than max_depth: counted only */
	int running;               /* task/idle: its root slice is open */
	struct tmap_node *state;   /* task: its state track */
	int state_open;            /* state track: a state slice is open */
	uint32_t state_name;       /* state track: the open state's name in tmap.names */
	struct tmap_robj *robj;    /* RTOS object (queue, mutex, ...): trackmap_rtos.c */
};

struct tmap_core {
	uint32_t id;
	struct tmap_node *proc, *diag, *isr, *notask, *idle;
	struct tmap_node *cur;     /* running task or idle context, NULL if none */
	uint32_t isr_depth;        /* ISRs entered and not left (hidden included) */
	uint32_t next_idx;         /* tid allocation within the process */
	int limit_noted;
	int64_t drops_overwritten; /* the totals of the last DROPS on this core */
	uint64_t drops_refused;
	uint64_t last_ns;          /* the time of this core's latest timed event */
};

struct tmap {
	const struct tmap_writer_ops *ops;
	void *w;
	char *name;
	uint32_t max_tracks, max_depth;
	struct namepool *names;    /* frame names, so a slice can be reopened */
	struct tmap_node **nodes;  /* every track, in creation order */
	uint32_t nnodes, nodes_cap;
	struct tmap_node **slot;   /* hash table over (role, core, obj) */
	uint32_t slot_mask;
	uint64_t next_uuid;
	int32_t next_pid, next_tid;/* fallbacks for out-of-range core ids */
	struct sonde_arg *args;    /* annotations of the slice being built */
	size_t nargs, args_cap;
	uint32_t last_core;
	uint64_t last_ns;
	int origin_noted;          /* the session's time origin was announced */
	int freq_noted;
	uint64_t flow_out, flow_in; /* for the next slice written (tmap_emit) */
	uint64_t next_flow;
	uint64_t names_gen;        /* the session's of the event being mapped, 0 unknown */
	void (*core_name)(uint32_t core, char *buf, size_t n); /* the session's (event.h), or NULL */
	struct sonde_loss loss;    /* what cuts the open slices (core/loss.h) */
	struct tmap_stats st;
};

#define TMAP_NAME_MAX 1024     /* stored track names are cut to this */
#define TMAP_PID_MAX  1000000  /* pid = core + 1 below this; tid = pid * 1000 + n */
#define TMAP_TID_FALLBACK 1500000000

/* ---- trackmap_tracks.c -------------------------------------------------- */

const char *tmap_label(char *buf, size_t n, const char *what,
		       const char *name, uint64_t obj, int addr);
struct tmap_node *tmap_lookup(struct tmap *m, enum tmap_role role, uint32_t core, uint64_t obj);
struct tmap_node *tmap_node_new(struct tmap *m, struct tmap_core *c, enum tmap_role role,
				uint32_t core, uint64_t obj, enum tmap_kind kind,
				const char *name);
struct tmap_core *tmap_core_get(struct tmap *m, uint32_t id);
struct tmap_node *tmap_core_track(struct tmap *m, struct tmap_core *c, enum tmap_role role);
/* The track that FUNC, LOG, RECORD and STATE events of this core go to. */
struct tmap_node *tmap_context(struct tmap *m, struct tmap_core *c);
struct tmap_node *tmap_obj_track(struct tmap *m, struct tmap_core *c, enum tmap_role role,
				 const struct sonde_event *ev);
/* Name a track anew (the writers are told); 0 also when unchanged. */
int tmap_rename(struct tmap *m, struct tmap_node *n, const char *name);

/* ---- trackmap_slices.c -------------------------------------------------- */

void tmap_arg_bool(struct tmap *m, const char *name);
void tmap_arg_u(struct tmap *m, const char *name, uint64_t v);
void tmap_arg_i(struct tmap *m, const char *name, int64_t v);
void tmap_arg_str(struct tmap *m, const char *name, const char *s);
void tmap_args_event(struct tmap *m, const struct sonde_event *ev);
void tmap_emit(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
	       const char *cat, const char *name, int is_text);
/* The same, named by an id in m->names (writers may cache what it maps to). */
void tmap_emit_id(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
		  const char *cat, uint32_t name_id);
/* A slice end naming the slice it ends. */
void tmap_emit_end(struct tmap *m, uint64_t ns, struct tmap_node *n, const char *ended);
void tmap_push(struct tmap *m, struct tmap_node *n, enum tmap_fkind kind, uint64_t obj,
	       int addr, const char *name, uint64_t ns, const char *cat);
void tmap_pop(struct tmap *m, struct tmap_node *n, uint64_t ns);
void tmap_suspend(struct tmap *m, struct tmap_node *n, uint64_t ns);
void tmap_resume(struct tmap *m, struct tmap_node *n, uint64_t ns, const struct sonde_event *ev);
/* End the function slices open on n, keeping them (show 0), or reopen them
 * (show 1): the code outside tasks pauses while a task runs. */
void tmap_frames_show(struct tmap *m, struct tmap_node *n, uint64_t ns, int show);

/* ---- trackmap_rtos.c ------------------------------------------------------ */

/* OBJECT, OBJ_OP and TASK_PRIO events. */
void tmap_rtos_event(struct tmap *m, struct tmap_core *c, const struct sonde_event *ev, uint64_t ns);
/* A TASK_OUT's state: the state slice's name (in buf) and the scheduler
 * state, for the reasons beyond preempted, suspended and deleted. */
const char *tmap_rtos_out_state(const struct sonde_event *ev, char *buf, size_t n, enum tmap_tstate *st);

#endif /* SONDE_TRACKMAP_PRIV_H */
