/*
 * trackmap_tracks.c -- the track table of the trackmap model (trackmap.h):
 * creates tracks on first use (processes per core, threads, named slice
 * tracks, counters), finds them again by (role, core, object), names and
 * renames them, allocates pids/tids and enforces the track limit; and the
 * model's life cycle (tmap_new, tmap_free, tmap_get_stats).
 */
#include "trackmap_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "namepool.h"

/* The display name of an object: its dictionary name, else "<what> #id"
 * (or a hex address for large ids and FUNC addresses). */
const char *tmap_label(char *buf, size_t n, const char *what,
		       const char *name, uint64_t obj, int addr)
{
	if (name && name[0])
		return name;
	if (addr || obj > 0xFFFF)
		snprintf(buf, n, "%s 0x%" PRIx64, what, obj);
	else
		snprintf(buf, n, "%s #%" PRIu64, what, obj);
	return buf;
}

/* ---- tracks ------------------------------------------------------------- */

static uint32_t tmap_key_hash(enum tmap_role role, uint32_t core, uint64_t obj)
{
	uint64_t h = obj * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)core << 8 | role) * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	return (uint32_t)h;
}

struct tmap_node *tmap_lookup(struct tmap *m, enum tmap_role role, uint32_t core, uint64_t obj)
{
	if (!m->slot)
		return NULL;
	for (uint32_t i = tmap_key_hash(role, core, obj) & m->slot_mask; m->slot[i];
	     i = (i + 1) & m->slot_mask) {
		struct tmap_node *n = m->slot[i];

		if (n->role == role && n->t.core == core && n->obj == obj)
			return n;
	}
	return NULL;
}

static int tmap_insert(struct tmap *m, struct tmap_node *n)
{
	if (m->nnodes == m->nodes_cap) {
		uint32_t cap = m->nodes_cap ? m->nodes_cap * 2 : 64;
		void *p = realloc(m->nodes, (size_t)cap * sizeof(*m->nodes));

		if (!p)
			return -1;
		m->nodes = p;
		m->nodes_cap = cap;
	}
	if (!m->slot || (m->nnodes + 1) * 2 > m->slot_mask + 1) {
		uint32_t mask = m->slot ? m->slot_mask * 2 + 1 : 127;
		struct tmap_node **slot = calloc((size_t)mask + 1, sizeof(*slot));

		if (!slot)
			return -1;
		for (uint32_t k = 0; k < m->nnodes; k++) {
			struct tmap_node *o = m->nodes[k];
			uint32_t i = tmap_key_hash(o->role, o->t.core, o->obj) & mask;

			while (slot[i])
				i = (i + 1) & mask;
			slot[i] = o;
		}
		free(m->slot);
		m->slot = slot;
		m->slot_mask = mask;
	}
	uint32_t i = tmap_key_hash(n->role, n->t.core, n->obj) & m->slot_mask;

	while (m->slot[i])
		i = (i + 1) & m->slot_mask;
	m->slot[i] = n;
	m->nodes[m->nnodes++] = n;
	return 0;
}

static int tmap_set_name(struct tmap_node *n, const char *name)
{
	size_t len = strlen(name);
	char *s;

	if (len > TMAP_NAME_MAX)
		len = TMAP_NAME_MAX;
	s = malloc(len + 1);
	if (!s)
		return -1;
	memcpy(s, name, len);
	s[len] = '\0';
	free(n->name);
	n->name = s;
	n->t.name = s;
	n->name_gen++;
	return 0;
}

static int32_t tmap_alloc_tid(struct tmap *m, struct tmap_core *c)
{
	if (c->proc->t.pid < TMAP_PID_MAX && c->next_idx < 999)
		return c->proc->t.pid * 1000 + (int32_t)++c->next_idx;
	return TMAP_TID_FALLBACK + m->next_tid++;
}

/* Create a track and declare it to the writer.  NULL at the track limit. */
struct tmap_node *tmap_node_new(struct tmap *m, struct tmap_core *c, enum tmap_role role,
				uint32_t core, uint64_t obj, enum tmap_kind kind,
				const char *name)
{
	struct tmap_node *n;

	if (m->nnodes >= m->max_tracks)
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->role = role;
	n->obj = obj;
	n->core = c;
	n->t.uuid = ++m->next_uuid;
	n->t.kind = kind;
	n->t.core = core;
	n->t.prio = -1;
	n->t.is_task = role == R_TASK;
	n->t.unit = (role == R_QUEUE || role == R_LOST || role == R_REFUSED || role == R_PRIO ||
		       role == R_STACK)
		? TMAP_UNIT_COUNT : TMAP_UNIT_NONE;
	if (role == R_PROCESS) {
		n->t.pid = core < TMAP_PID_MAX - 1 ? (int32_t)core + 1 : TMAP_PID_MAX + m->next_pid++;
	} else {
		n->t.pid = c->proc->t.pid;
		n->t.parent = c->proc->t.uuid;
		if (kind != TMAP_COUNTER)
			n->t.tid = role == R_NOTASK ? n->t.pid : tmap_alloc_tid(m, c);
	}
	if (tmap_set_name(n, name) < 0 || tmap_insert(m, n) < 0) {
		free(n->name);
		free(n);
		return NULL;
	}
	m->st.tracks++;
	m->ops->track(m->w, &n->t);
	return n;
}

struct tmap_core *tmap_core_get(struct tmap *m, uint32_t id)
{
	struct tmap_node *p = tmap_lookup(m, R_PROCESS, id, 0);
	struct tmap_core *c;
	char name[256], who[128];

	if (p)
		return p->core;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->id = id;
	/* a CPU core by its number, or a source that is not one by the
	 * decoder's name for it (STP: master and channel) */
	if (m->core_name)
		m->core_name(id, who, sizeof(who));
	else
		snprintf(who, sizeof(who), "%s %" PRIu32, m->name ? "core" : "Core", id);
	if (m->name)
		snprintf(name, sizeof(name), "%s %s", m->name, who);
	else
		snprintf(name, sizeof(name), "%s", who);
	p = tmap_node_new(m, c, R_PROCESS, id, 0, TMAP_PROCESS, name);
	if (!p) {
		free(c);
		return NULL;
	}
	p->core = c;
	c->proc = p;
	return c;
}

const char *tmap_lane(const struct tmap_track *t)
{
	/* every track the writers see is the first member of its node */
	const struct tmap_node *n = (const struct tmap_node *)t;

	switch (n->role) {
	case R_PROCESS: return "process";
	case R_TASK:    return "task";
	case R_ISR:     return "isr";
	case R_IDLE:    return "idle";
	case R_NOTASK:  return "notask";
	case R_TSTATE:  return "state";
	case R_MARKER:  return "marker";
	case R_DIAG:    return "diag";
	default:
		/* the RTOS's slice tracks (a mutex's holder, the idle task's low
		 * power) are drawn as a marker's spans; the rest are counters
		 * (counters, queues, lost records, priorities, free stacks) */
		return t->kind == TMAP_SLICES ? "marker" : "counter";
	}
}

/* The per-core tracks that exist once per core. */
struct tmap_node *tmap_core_track(struct tmap *m, struct tmap_core *c, enum tmap_role role)
{
	struct tmap_node **pp;
	enum tmap_kind kind = TMAP_THREAD;
	const char *name;

	switch (role) {
	case R_DIAG:    pp = &c->diag;   name = "Trace diagnostics"; kind = TMAP_SLICES; break;
	case R_ISR:     pp = &c->isr;    name = "ISRs"; break;
	case R_NOTASK:  pp = &c->notask; name = SONDE_NOTASK_NAME; break;
	case R_IDLE:    pp = &c->idle;   name = "Idle"; break;
	default:        return NULL;
	}
	if (!*pp)
		*pp = tmap_node_new(m, c, role, c->id, 0, kind, name);
	return *pp;
}

int tmap_rename(struct tmap *m, struct tmap_node *n, const char *name)
{
	if (strncmp(n->name, name, TMAP_NAME_MAX) == 0)
		return 0;
	if (tmap_set_name(n, name) < 0)
		return -1;
	m->ops->track(m->w, &n->t);
	return 0;
}

/* A track per object (task, marker, counter, queue): created on first use,
 * renamed when the event carries a different dictionary name. */
struct tmap_node *tmap_obj_track(struct tmap *m, struct tmap_core *c, enum tmap_role role,
				 const struct sonde_event *ev)
{
	static const char *const what[] = {
		[R_TASK] = "Task", [R_MARKER] = "Marker", [R_COUNTER] = "Counter", [R_QUEUE] = "Queue",
	};
	struct tmap_node *n = tmap_lookup(m, role, c->id, ev->obj);
	enum tmap_kind kind = role == R_COUNTER || role == R_QUEUE ? TMAP_COUNTER
			      : role == R_TASK ? TMAP_THREAD : TMAP_SLICES;
	char buf[64], sbuf[TMAP_NAME_MAX + 8];

	if (n) {
		/* the text behind a pointer seen under the same names_gen is
		 * the one compared then: not compared again */
		if (!ev->obj_name || (ev->obj_name == n->seen_name && m->names_gen && m->names_gen == n->seen_gen))
			return n;
		n->seen_name = ev->obj_name;
		n->seen_gen = m->names_gen;
		if (ev->obj_name[0] && strncmp(n->name, ev->obj_name, TMAP_NAME_MAX)
		    && tmap_set_name(n, ev->obj_name) == 0) {
			m->ops->track(m->w, &n->t);
			if (n->state) {
				snprintf(sbuf, sizeof(sbuf), "%s state", n->name);
				if (tmap_set_name(n->state, sbuf) == 0)
					m->ops->track(m->w, &n->state->t);
			}
		}
		return n;
	}
	if (role == R_TASK && m->nnodes + 2 > m->max_tracks)
		return NULL;    /* a task needs its state track too */
	n = tmap_node_new(m, c, role, c->id, ev->obj, kind,
			  tmap_label(buf, sizeof(buf), what[role], ev->obj_name, ev->obj, 0));
	if (n && role == R_TASK) {
		snprintf(sbuf, sizeof(sbuf), "%s state", n->name);
		n->state = tmap_node_new(m, c, R_TSTATE, c->id, ev->obj, TMAP_SLICES, sbuf);
	}
	return n;
}

/* ---- life cycle --------------------------------------------------------- */

struct tmap *tmap_new(const struct tmap_writer_ops *ops, void *w, const struct tmap_config *cfg)
{
	struct tmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->ops = ops;
	m->w = w;
	m->max_tracks = cfg && cfg->max_tracks ? cfg->max_tracks : TMAP_DEFAULT_MAX_TRACKS;
	m->max_depth = cfg && cfg->max_depth ? cfg->max_depth : TMAP_DEFAULT_MAX_DEPTH;
	sonde_loss_init(&m->loss);
	m->names = namepool_new(cfg && cfg->max_names ? cfg->max_names : TMAP_DEFAULT_MAX_NAMES,
				(size_t)8 << 20);
	if (cfg && cfg->name && cfg->name[0])
		m->name = strdup(cfg->name);
	if (!m->names || (cfg && cfg->name && cfg->name[0] && !m->name)) {
		tmap_free(m);
		return NULL;
	}
	return m;
}

/* The track that FUNC, LOG, RECORD and STATE events of this core go to. */
struct tmap_node *tmap_context(struct tmap *m, struct tmap_core *c)
{
	if (c->isr_depth && c->isr)
		return c->isr;
	if (c->cur)
		return c->cur;
	return tmap_core_track(m, c, R_NOTASK);
}

void tmap_free(struct tmap *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nnodes; i++) {
		struct tmap_node *n = m->nodes[i];

		if (n->role == R_PROCESS)
			free(n->core);
		free(n->stk);
		free(n->name);
		free(n->robj); /* its RTOS object state (trackmap_rtos.c), if any */
		free(n);
	}
	free(m->nodes);
	free(m->slot);
	free(m->args);
	free(m->name);
	namepool_free(m->names);
	free(m);
}

void tmap_get_stats(const struct tmap *m, struct tmap_stats *st)
{
	*st = m->st;
}
