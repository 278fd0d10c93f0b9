/*
 * trackmap_slices.c -- the slice machinery of the trackmap model
 * (trackmap.h): the annotations of the slice being built, handing slices to
 * the writer, and each track's stack of open slices -- push, pop, and
 * closing / reopening a task's slices when it is switched out and in, so
 * that slices on one track always nest strictly.
 */
#include "trackmap_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "namepool.h"

const char *tmap_arg_name(const struct sonde_arg *a, size_t i, char buf[24])
{
	if (a->name && a->name[0])
		return a->name;
	snprintf(buf, 24, "arg%zu", i);
	return buf;
}

/* ---- annotations -------------------------------------------------------- */

static struct sonde_arg *tmap_arg_add(struct tmap *m, const char *name, enum sonde_arg_type type)
{
	struct sonde_arg *a;

	if (m->nargs == m->args_cap) {
		size_t cap = m->args_cap ? m->args_cap * 2 : 16;
		void *p = realloc(m->args, cap * sizeof(*m->args));

		if (!p)
			return NULL;
		m->args = p;
		m->args_cap = cap;
	}
	a = &m->args[m->nargs++];
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->name = name;
	return a;
}

void tmap_arg_bool(struct tmap *m, const char *name)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_BOOL);

	if (a)
		a->v.u = 1;
}

void tmap_arg_u(struct tmap *m, const char *name, uint64_t v)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_U64);

	if (a)
		a->v.u = v;
}

void tmap_arg_i(struct tmap *m, const char *name, int64_t v)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_I64);

	if (a)
		a->v.i = v;
}

void tmap_arg_str(struct tmap *m, const char *name, const char *s)
{
	struct sonde_arg *a = tmap_arg_add(m, name, SONDE_A_STR);

	if (a) {
		a->v.mem.p = (const uint8_t *)s;
		a->v.mem.n = strlen(s);
	}
}

/* The event's own arguments and flags. */
void tmap_args_event(struct tmap *m, const struct sonde_event *ev)
{
	for (size_t i = 0; i < ev->nargs; i++) {
		struct sonde_arg *a = tmap_arg_add(m, NULL, SONDE_A_NONE);

		if (!a)
			break;
		*a = ev->args[i];
		if (!a->name || !a->name[0])
			a->name = NULL; /* writers name it arg<i>, i = this index */
	}
	if (ev->ts_flags & SONDE_TS_ESTIMATED)
		tmap_arg_bool(m, "ts_estimated");
	if (ev->flags & SONDE_EVF_MALFORMED)
		tmap_arg_bool(m, "malformed");
}

/* ---- output ------------------------------------------------------------- */

static void tmap_emit_slice(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
			    const char *cat, const char *name, int is_text, uint32_t name_id)
{
	struct tmap_slice s = { cat, name, is_text, name_id, m->args, m->nargs, NULL, m->flow_out, m->flow_in };

	m->ops->slice(m->w, type, ns, &n->t, &s);
	m->nargs = 0;
	m->flow_out = m->flow_in = 0;
}

void tmap_emit(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
	       const char *cat, const char *name, int is_text)
{
	tmap_emit_slice(m, type, ns, n, cat, name, is_text, 0);
}

void tmap_emit_id(struct tmap *m, enum tmap_type type, uint64_t ns, struct tmap_node *n,
		  const char *cat, uint32_t name_id)
{
	tmap_emit_slice(m, type, ns, n, cat, namepool_str(m->names, name_id), 0, name_id);
}

void tmap_emit_end(struct tmap *m, uint64_t ns, struct tmap_node *n, const char *ended)
{
	struct tmap_slice s = { NULL, NULL, 0, 0, m->args, m->nargs, ended, 0, 0 };

	m->ops->slice(m->w, TMAP_END, ns, &n->t, &s);
	m->nargs = 0;
}

/* ---- slices ------------------------------------------------------------- */

static const char *tmap_frame_name(struct tmap *m, const struct tmap_frame *f, char *buf, size_t n)
{
	static const char *const what[] = { [F_ISR] = "ISR", [F_FUNC] = "func", [F_MARK] = "Marker" };

	if (f->name_id)
		return namepool_str(m->names, f->name_id);
	return tmap_label(buf, n, what[f->kind], NULL, f->obj, f->addr);
}

/* Open a slice; the annotations built so far go with it. */
void tmap_push(struct tmap *m, struct tmap_node *n, enum tmap_fkind kind, uint64_t obj,
	       int addr, const char *name, uint64_t ns, const char *cat)
{
	struct tmap_frame *f;
	int added;

	if (n->depth == n->cap && n->cap < m->max_depth) {
		uint32_t cap = n->cap ? n->cap * 2 : 4;
		void *p;

		if (cap > m->max_depth)
			cap = m->max_depth;
		p = realloc(n->stk, (size_t)cap * sizeof(*n->stk));
		if (p) {
			n->stk = p;
			n->cap = cap;
		}
	}
	if (n->depth == n->cap || n->hidden) {
		n->hidden++;
		m->st.hidden++;
		m->nargs = 0;
		return;
	}
	f = &n->stk[n->depth++];
	f->kind = (uint8_t)kind;
	f->obj = obj;
	f->addr = (uint8_t)addr;
	f->name_id = namepool_intern_str(m->names, name, &added);
	tmap_emit_slice(m, TMAP_BEGIN, ns, n, cat, name, 0, f->name_id);
}

/* Close the innermost open slice; the annotations built so far go with it. */
void tmap_pop(struct tmap *m, struct tmap_node *n, uint64_t ns)
{
	if (n->hidden) {
		n->hidden--;
		m->nargs = 0;
		return;
	}
	if (n->depth == 0) {
		m->nargs = 0;
		return;
	}
	char buf[64];

	n->depth--;
	tmap_emit_end(m, ns, n, tmap_frame_name(m, &n->stk[n->depth], buf, sizeof(buf)));
}

/* A task (or idle) stops running: close its function slices, then its root. */
void tmap_suspend(struct tmap *m, struct tmap_node *n, uint64_t ns)
{
	char buf[64];

	if (!n->running)
		return;
	for (uint32_t i = n->depth; i-- > 0;)
		tmap_emit_end(m, ns, n, tmap_frame_name(m, &n->stk[i], buf, sizeof(buf)));
	tmap_emit_end(m, ns, n, n->role == R_IDLE ? "Idle" : "Running");
	n->running = 0;
}

/* A task (or idle) runs again: reopen its root, then the function slices
 * that were open when it was switched out. */
void tmap_resume(struct tmap *m, struct tmap_node *n, uint64_t ns, const struct sonde_event *ev)
{
	char buf[64];

	tmap_args_event(m, ev);
	tmap_emit(m, TMAP_BEGIN, ns, n, "sched", n->role == R_IDLE ? "Idle" : "Running", 0);
	for (uint32_t i = 0; i < n->depth; i++) {
		tmap_arg_bool(m, "resumed");
		tmap_emit_slice(m, TMAP_BEGIN, ns, n, "func", tmap_frame_name(m, &n->stk[i], buf, sizeof(buf)), 0,
				n->stk[i].name_id);
	}
	n->running = 1;
}

/* End the function slices open on n without forgetting them (show 0), or
 * reopen them, annotated resumed (show 1). */
void tmap_frames_show(struct tmap *m, struct tmap_node *n, uint64_t ns, int show)
{
	char buf[64];

	m->nargs = 0;
	if (show) {
		for (uint32_t i = 0; i < n->depth; i++) {
			tmap_arg_bool(m, "resumed");
			tmap_emit_slice(m, TMAP_BEGIN, ns, n, "func", tmap_frame_name(m, &n->stk[i], buf, sizeof(buf)),
					0, n->stk[i].name_id);
		}
	} else {
		for (uint32_t i = n->depth; i-- > 0;)
			tmap_emit_end(m, ns, n, tmap_frame_name(m, &n->stk[i], buf, sizeof(buf)));
	}
	m->nargs = 0;
}
