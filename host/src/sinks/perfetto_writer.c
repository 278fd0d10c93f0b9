/*
 * perfetto_writer.c -- the Perfetto protobuf writer behind the perfetto sink.
 *
 * Each call of the track model becomes one TracePacket, packed with
 * protobuf-c (from perfetto_trace.proto) and written at once as field 1 of
 * Trace (0x0A, varint length, bytes), so the trace is streamed and never held
 * in memory.  All packets are on one sequence: the first carries
 * SEQ_INCREMENTAL_STATE_CLEARED, every track event SEQ_NEEDS_INCREMENTAL_STATE,
 * so that event names, categories and annotation names can be interned: each
 * is written once, in the packet that first uses it, and referred to by id
 * afterwards.  The interning tables are bounded; a name that finds no room
 * is written inline.
 */
#include "perfetto_writer.h"

#include <stdlib.h>
#include <string.h>

#include "namepool.h"
#include "perfetto_trace.pb-c.h"
#include "utf8text.h"

#define PFW_NAMES_MAX   65536u      /* interned strings per table */
#define PFW_NAMES_BYTES (8u << 20)

typedef Perfetto__Protos__TracePacket PfPacket;
typedef Perfetto__Protos__TrackEvent PfEvent;
typedef Perfetto__Protos__DebugAnnotation PfAnno;
typedef Perfetto__Protos__EventName PfName;
typedef Perfetto__Protos__EventCategory PfCat;
typedef Perfetto__Protos__DebugAnnotationName PfAnnoName;

/* Scratch memory for the strings of one packet; reset after each packet. */
struct pfw_chunk {
	struct pfw_chunk *next;
	size_t used, size;
	char data[];
};

struct pfw {
	FILE *out;
	int err;
	int sched, intern;
	int started;                 /* the first packet has been written */
	struct namepool *names, *cats, *annos;
	/* this packet's new interned entries */
	PfName *new_names;   PfName **new_names_p;   size_t n_new_names, cap_new_names;
	PfCat *new_cats;     PfCat **new_cats_p;     size_t n_new_cats, cap_new_cats;
	PfAnnoName *new_annos; PfAnnoName **new_annos_p; size_t n_new_annos, cap_new_annos;
	/* this packet's annotations */
	PfAnno *anno;        PfAnno **anno_p;        size_t cap_anno;
	struct pfw_chunk *chunks, *chunk;
	uint8_t *buf;                /* the packed packet */
	size_t buf_cap;
	uint8_t *sched_seen;         /* per track uuid: its thread was announced */
	size_t sched_seen_n;
	struct pfw_stats st;
};

/* ---- scratch memory ----------------------------------------------------- */

static void *pfw_alloc(struct pfw *w, size_t n)
{
	struct pfw_chunk *c = w->chunk;

	n = (n + 7) & ~(size_t)7;
	while (c && c->size - c->used < n)
		c = c->next;
	if (!c) {
		size_t size = n > 16384 ? n : 16384;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = w->chunks;
		w->chunks = c;
	}
	w->chunk = c;
	c->used += n;
	return c->data + c->used - n;
}

static void pfw_scratch_reset(struct pfw *w)
{
	for (struct pfw_chunk *c = w->chunks; c; c = c->next)
		c->used = 0;
	w->chunk = w->chunks;
	w->n_new_names = w->n_new_cats = w->n_new_annos = 0;
}

/* Grow a pair of arrays (structs and pointers to them) to hold n. */
static int pfw_grow(void **items, void **ptrs, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : 8;
	void *a, *p;

	if (n <= *cap)
		return 0;
	while (c < n)
		c *= 2;
	a = realloc(*items, c * size);
	if (!a)
		return -1;
	*items = a;
	p = realloc(*ptrs, c * sizeof(void *));
	if (!p)
		return -1;
	*ptrs = p;
	*cap = c;
	return 0;
}

/* A protobuf string: valid UTF-8, NUL-terminated, in scratch memory. */
static char *pfw_str(struct pfw *w, const void *s, size_t n)
{
	char *d = pfw_alloc(w, UTF8TEXT_CLEAN_MAX(n));

	if (d)
		utf8text_clean(d, s, n);
	return d;
}

static char *pfw_cstr(struct pfw *w, const char *s)
{
	return pfw_str(w, s, strlen(s));
}

/* ---- interning ---------------------------------------------------------- */

enum pfw_table { PFW_NAME, PFW_CAT, PFW_ANNO };

/* The iid of s in a table, adding it (and queueing its definition for this
 * packet) if new; 0 if it must be written inline. */
static uint64_t pfw_iid(struct pfw *w, enum pfw_table tab, const char *s)
{
	struct namepool *np = tab == PFW_NAME ? w->names : tab == PFW_CAT ? w->cats : w->annos;
	int added;
	uint32_t id;
	char *str;

	if (!w->intern)
		return 0;
	id = namepool_intern(np, s, strlen(s), &added);
	if (!id) {
		w->st.inlined++;
		return 0;
	}
	if (!added)
		return id;
	str = pfw_cstr(w, s);
	w->st.interned++;
	switch (tab) {
	case PFW_NAME:
		if (!str || pfw_grow((void **)&w->new_names, (void **)&w->new_names_p, &w->cap_new_names,
				     w->n_new_names + 1, sizeof(PfName)) < 0)
			break;
		perfetto__protos__event_name__init(&w->new_names[w->n_new_names]);
		w->new_names[w->n_new_names].has_iid = 1;
		w->new_names[w->n_new_names].iid = id;
		w->new_names[w->n_new_names].name = str;
		w->n_new_names++;
		return id;
	case PFW_CAT:
		if (!str || pfw_grow((void **)&w->new_cats, (void **)&w->new_cats_p, &w->cap_new_cats,
				     w->n_new_cats + 1, sizeof(PfCat)) < 0)
			break;
		perfetto__protos__event_category__init(&w->new_cats[w->n_new_cats]);
		w->new_cats[w->n_new_cats].has_iid = 1;
		w->new_cats[w->n_new_cats].iid = id;
		w->new_cats[w->n_new_cats].name = str;
		w->n_new_cats++;
		return id;
	case PFW_ANNO:
		if (!str || pfw_grow((void **)&w->new_annos, (void **)&w->new_annos_p, &w->cap_new_annos,
				     w->n_new_annos + 1, sizeof(PfAnnoName)) < 0)
			break;
		perfetto__protos__debug_annotation_name__init(&w->new_annos[w->n_new_annos]);
		w->new_annos[w->n_new_annos].has_iid = 1;
		w->new_annos[w->n_new_annos].iid = id;
		w->new_annos[w->n_new_annos].name = str;
		w->n_new_annos++;
		return id;
	}
	/* Out of memory while queueing the definition: the id exists but was
	 * never defined, so this writer can no longer be trusted. */
	w->err = 1;
	return 0;
}

/* ---- packets ------------------------------------------------------------ */

static size_t pfw_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Complete p (sequence, flags, interned data) and write it as one Trace
 * field-1 record. */
static void pfw_emit(struct pfw *w, PfPacket *p, int needs_state)
{
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	size_t i, n, hdr;

	p->has_trusted_packet_sequence_id = 1;
	p->trusted_packet_sequence_id = PFW_SEQ_ID;
	if (needs_state) {
		p->has_sequence_flags = 1;
		p->sequence_flags = PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	}
	if (!w->started) {
		w->started = 1;
		p->has_sequence_flags = 1;
		p->sequence_flags |= PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
		p->has_first_packet_on_sequence = 1;
		p->first_packet_on_sequence = 1;
	}
	if (w->n_new_names || w->n_new_cats || w->n_new_annos) {
		for (i = 0; i < w->n_new_names; i++)
			w->new_names_p[i] = &w->new_names[i];
		for (i = 0; i < w->n_new_cats; i++)
			w->new_cats_p[i] = &w->new_cats[i];
		for (i = 0; i < w->n_new_annos; i++)
			w->new_annos_p[i] = &w->new_annos[i];
		in.n_event_names = w->n_new_names;
		in.event_names = w->new_names_p;
		in.n_event_categories = w->n_new_cats;
		in.event_categories = w->new_cats_p;
		in.n_debug_annotation_names = w->n_new_annos;
		in.debug_annotation_names = w->new_annos_p;
		p->interned_data = &in;
	}
	n = perfetto__protos__trace_packet__get_packed_size(p);
	if (w->buf_cap < n + 11) {
		size_t cap = w->buf_cap ? w->buf_cap : 4096;
		void *b;

		while (cap < n + 11)
			cap *= 2;
		b = realloc(w->buf, cap);
		if (!b) {
			w->err = 1;
			pfw_scratch_reset(w);
			return;
		}
		w->buf = b;
		w->buf_cap = cap;
	}
	w->buf[0] = 0x0A; /* Trace.packet, length-delimited */
	hdr = 1 + pfw_varint(w->buf + 1, n);
	perfetto__protos__trace_packet__pack(p, w->buf + hdr);
	if (fwrite(w->buf, 1, hdr + n, w->out) != hdr + n)
		w->err = 1;
	w->st.packets++;
	w->st.bytes += hdr + n;
	pfw_scratch_reset(w);
}

/* ---- track model callbacks --------------------------------------------- */

static void pfw_track(void *vw, const struct tmap_track *t)
{
	struct pfw *w = vw;
	PfPacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	td.has_uuid = 1;
	td.uuid = t->uuid;
	switch (t->kind) {
	case TMAP_PROCESS:
		pd.has_pid = 1;
		pd.pid = t->pid;
		pd.process_name = pfw_cstr(w, t->name);
		td.process = &pd;
		break;
	case TMAP_THREAD:
		th.has_pid = th.has_tid = 1;
		th.pid = t->pid;
		th.tid = t->tid;
		th.thread_name = pfw_cstr(w, t->name);
		td.thread = &th;
		break;
	case TMAP_COUNTER:
		if (t->unit == TMAP_UNIT_COUNT) {
			cd.has_unit = 1;
			cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
		}
		td.counter = &cd;
		/* fall through */
	case TMAP_SLICES:
		td.has_parent_uuid = 1;
		td.parent_uuid = t->parent;
		td.name = pfw_cstr(w, t->name);
		break;
	}
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	p.track_descriptor = &td;
	pfw_emit(w, &p, 0);
}

static void pfw_anno_value(struct pfw *w, PfAnno *d, const struct sonde_arg *a)
{
	static const char hex[] = "0123456789abcdef";
	char *s;

	switch (a->type) {
	case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
		d->uint_value = a->v.u;
		break;
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
		d->int_value = a->v.i;
		break;
	case SONDE_A_F32: case SONDE_A_F64:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE;
		d->double_value = a->v.f;
		break;
	case SONDE_A_STR:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
		d->string_value = pfw_str(w, a->v.mem.p ? a->v.mem.p : (const uint8_t *)"", a->v.mem.n);
		break;
	case SONDE_A_MEM:
		s = pfw_alloc(w, 2 * a->v.mem.n + 1);
		if (!s)
			break;
		for (size_t i = 0; i < a->v.mem.n; i++) {
			s[2 * i] = hex[a->v.mem.p[i] >> 4];
			s[2 * i + 1] = hex[a->v.mem.p[i] & 15];
		}
		s[2 * a->v.mem.n] = '\0';
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
		d->string_value = s;
		break;
	case SONDE_A_OBJ: case SONDE_A_FUNC: case SONDE_A_ENUM:
		if (a->resolved) {
			d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
			d->string_value = pfw_cstr(w, a->resolved);
		} else if (a->type == SONDE_A_ENUM) {
			d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
			d->uint_value = a->v.u;
		} else {
			d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE;
			d->pointer_value = a->v.u;
		}
		break;
	case SONDE_A_HEX:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE;
		d->pointer_value = a->v.u;
		break;
	case SONDE_A_BOOL:
		d->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE;
		d->bool_value = a->v.u != 0;
		break;
	default:
		break; /* NONE: no value */
	}
}

static void pfw_slice(void *vw, enum tmap_type type, uint64_t ns, const struct tmap_track *t,
		      const struct tmap_slice *s)
{
	struct pfw *w = vw;
	PfPacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	PfEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	uint64_t cat_iid = 0;
	size_t n = 0;

	te.has_type = 1;
	te.type = type == TMAP_BEGIN ? PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
		: type == TMAP_END ? PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END
		: PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	te.has_track_uuid = 1;
	te.track_uuid = t->uuid;
	if (s->name) {
		uint64_t iid = s->name_is_text ? 0 : pfw_iid(w, PFW_NAME, s->name);

		if (iid) {
			te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
			te.name_iid = iid;
		} else {
			te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
			te.name = pfw_cstr(w, s->name);
		}
	}
	if (s->cat && (cat_iid = pfw_iid(w, PFW_CAT, s->cat)) != 0) {
		te.n_category_iids = 1;
		te.category_iids = &cat_iid;
	}
	if (s->nargs && pfw_grow((void **)&w->anno, (void **)&w->anno_p, &w->cap_anno,
				 s->nargs, sizeof(PfAnno)) == 0) {
		for (size_t i = 0; i < s->nargs; i++) {
			PfAnno *d = &w->anno[n];
			char nbuf[24];
			const char *name = tmap_arg_name(&s->args[i], i, nbuf);
			uint64_t iid;

			perfetto__protos__debug_annotation__init(d);
			pfw_anno_value(w, d, &s->args[i]);
			if (d->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE__NOT_SET)
				continue;
			iid = pfw_iid(w, PFW_ANNO, name);
			if (iid) {
				d->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
				d->name_iid = iid;
			} else {
				d->name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
				d->name = pfw_cstr(w, name);
			}
			w->anno_p[n++] = d;
		}
		te.n_debug_annotations = n;
		te.debug_annotations = w->anno_p;
	}
	if (s->flow_out) {
		te.n_flow_ids = 1;
		te.flow_ids = (uint64_t *)&s->flow_out;
	}
	if (s->flow_in) {
		te.n_terminating_flow_ids = 1;
		te.terminating_flow_ids = (uint64_t *)&s->flow_in;
	}
	p.has_timestamp = 1;
	p.timestamp = ns;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	p.track_event = &te;
	pfw_emit(w, &p, 1);
}

static void pfw_counter(void *vw, uint64_t ns, const struct tmap_track *t, int64_t value)
{
	struct pfw *w = vw;
	PfPacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	PfEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te.has_type = 1;
	te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER;
	te.has_track_uuid = 1;
	te.track_uuid = t->uuid;
	te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
	te.counter_value = value;
	p.has_timestamp = 1;
	p.timestamp = ns;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	p.track_event = &te;
	pfw_emit(w, &p, 1);
}

/* The first scheduler event of a task announces its thread to Perfetto's
 * generic-kernel importer (tid, pid, name), at the same time. */
static void pfw_sched_announce(struct pfw *w, uint64_t ns, const struct tmap_track *t)
{
	PfPacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__GenericKernelProcessTree tree = PERFETTO__PROTOS__GENERIC_KERNEL_PROCESS_TREE__INIT;
	Perfetto__Protos__GenericKernelProcessTree__Thread th = PERFETTO__PROTOS__GENERIC_KERNEL_PROCESS_TREE__THREAD__INIT;
	Perfetto__Protos__GenericKernelProcessTree__Thread *thp = &th;

	if (t->uuid >= w->sched_seen_n) {
		size_t n = w->sched_seen_n ? w->sched_seen_n : 64;
		uint8_t *s;

		while (n <= t->uuid)
			n *= 2;
		s = realloc(w->sched_seen, n);
		if (!s)
			return;
		memset(s + w->sched_seen_n, 0, n - w->sched_seen_n);
		w->sched_seen = s;
		w->sched_seen_n = n;
	}
	if (w->sched_seen[t->uuid])
		return;
	w->sched_seen[t->uuid] = 1;
	th.has_tid = th.has_pid = 1;
	th.tid = t->tid;
	th.pid = t->pid;
	th.comm = pfw_cstr(w, t->name);
	tree.n_threads = 1;
	tree.threads = &thp;
	p.has_timestamp = 1;
	p.timestamp = ns;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_PROCESS_TREE;
	p.generic_kernel_process_tree = &tree;
	pfw_emit(w, &p, 0);
}

static void pfw_task_state(void *vw, uint64_t ns, const struct tmap_track *t, enum tmap_tstate st)
{
	struct pfw *w = vw;
	PfPacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__GenericKernelTaskStateEvent ev = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__INIT;
	static const Perfetto__Protos__GenericKernelTaskStateEvent__TaskStateEnum map[] = {
		[TMAP_T_RUNNABLE]  = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_RUNNABLE,
		[TMAP_T_RUNNING]   = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_RUNNING,
		[TMAP_T_BLOCKED]   = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_INTERRUPTIBLE_SLEEP,
		[TMAP_T_SUSPENDED] = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_STOPPED,
		[TMAP_T_DEAD]      = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__TASK_STATE_ENUM__TASK_STATE_DEAD,
	};

	if (!w->sched)
		return;
	pfw_sched_announce(w, ns, t);
	ev.has_tid = 1;
	ev.tid = t->tid;
	ev.has_state = 1;
	ev.state = map[st];
	if (st == TMAP_T_RUNNING) {
		ev.has_cpu = 1;
		ev.cpu = (int32_t)(t->core & 0x7FFFFFFF);
	}
	if (t->prio >= 0) {
		ev.has_prio = 1;
		ev.prio = t->prio;
	}
	p.has_timestamp = 1;
	p.timestamp = ns;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT;
	p.generic_kernel_task_state_event = &ev;
	pfw_emit(w, &p, 0);
}

const struct tmap_writer_ops pfw_ops = {
	.track = pfw_track,
	.slice = pfw_slice,
	.counter = pfw_counter,
	.task_state = pfw_task_state,
};

/* ---- life cycle --------------------------------------------------------- */

struct pfw *pfw_new(FILE *out, const struct pfw_config *cfg)
{
	struct pfw *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->out = out;
	w->sched = cfg ? cfg->sched : 1;
	w->intern = cfg ? cfg->intern : 1;
	w->names = namepool_new(PFW_NAMES_MAX, PFW_NAMES_BYTES);
	w->cats = namepool_new(1024, 64u << 10);
	w->annos = namepool_new(PFW_NAMES_MAX, PFW_NAMES_BYTES);
	if (!w->names || !w->cats || !w->annos) {
		pfw_free(w);
		return NULL;
	}
	return w;
}

int pfw_finish(struct pfw *w)
{
	if (fflush(w->out) != 0 || ferror(w->out))
		w->err = 1;
	return w->err ? -1 : 0;
}

void pfw_get_stats(const struct pfw *w, struct pfw_stats *st)
{
	*st = w->st;
}

void pfw_free(struct pfw *w)
{
	if (!w)
		return;
	for (struct pfw_chunk *c = w->chunks, *nx; c; c = nx) {
		nx = c->next;
		free(c);
	}
	namepool_free(w->names);
	namepool_free(w->cats);
	namepool_free(w->annos);
	free(w->new_names);
	free(w->new_names_p);
	free(w->new_cats);
	free(w->new_cats_p);
	free(w->new_annos);
	free(w->new_annos_p);
	free(w->anno);
	free(w->anno_p);
	free(w->buf);
	free(w->sched_seen);
	free(w);
}
