/*
 * perfetto_writer.c -- the Perfetto protobuf writer behind the perfetto sink.
 *
 * Each call of the track model becomes one TracePacket, written as field 1
 * of Trace (0x0A, varint length, bytes) into an output buffer that goes to
 * the file in large pieces, so the trace is streamed and never held in
 * memory.  All packets are on one sequence: the first carries
 * SEQ_INCREMENTAL_STATE_CLEARED, every track event SEQ_NEEDS_INCREMENTAL_STATE,
 * so that event names, categories and annotation names can be interned: each
 * is written once, in the packet that first uses it, and referred to by id
 * afterwards.  The interning tables are bounded; a name that finds no room
 * is written inline.
 *
 * The protobuf encoding is written by hand (pb_* below) rather than with
 * protobuf-c: protobuf-c needs the packet as a tree of structs, walks it
 * once for its size and once more to pack it, and its strings must first be
 * copied (cleaned to UTF-8) into scratch memory -- for packets of a few
 * dozen bytes that was two thirds of the time of a Perfetto export.  Here
 * every field is written once, in place: a nested message reserves one byte
 * for its length and moves its bytes up in the rare case it is 128 bytes or
 * longer, so the output is exactly what protobuf-c writes (fields in
 * field-number order, shortest varints).  perfetto_trace.proto stays the
 * definition of the format: the tests decode the output with protoc and
 * with the protobuf-c code generated from it.
 */
#include "perfetto_writer.h"

#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/varint.h"
#include "namepool.h"
#include "util/utf8text.h"

#define PFW_NAMES_MAX   65536u      /* interned strings per table */
#define PFW_NAMES_BYTES (8u << 20)
#define PFW_FLUSH       (256u << 10) /* write the output in pieces of this size */
#define PFW_CATS        16u          /* categories remembered by address */

/* Field numbers and values of perfetto_trace.proto. */
enum {
	F_TRACE_PACKET = 1,
	/* TracePacket */
	F_TP_TIMESTAMP = 8, F_TP_SEQ_ID = 10, F_TP_TRACK_EVENT = 11, F_TP_INTERNED = 12,
	F_TP_SEQ_FLAGS = 13, F_TP_TRACK_DESC = 60, F_TP_FIRST_ON_SEQ = 87,
	F_TP_TASK_STATE = 117, F_TP_PROCESS_TREE = 122,
	/* TrackDescriptor and its parts */
	F_TD_UUID = 1, F_TD_NAME = 2, F_TD_PROCESS = 3, F_TD_THREAD = 4, F_TD_PARENT = 5,
	F_TD_COUNTER = 8,
	F_PD_PID = 1, F_PD_NAME = 6,
	F_THD_PID = 1, F_THD_TID = 2, F_THD_NAME = 5,
	F_CD_UNIT = 3,
	/* TrackEvent */
	F_TE_CATEGORY_IIDS = 3, F_TE_ANNOTATIONS = 4, F_TE_TYPE = 9, F_TE_NAME_IID = 10,
	F_TE_TRACK_UUID = 11, F_TE_NAME = 23, F_TE_COUNTER_VALUE = 30, F_TE_FLOW_IDS = 47,
	F_TE_TERMINATING_FLOW_IDS = 48,
	/* DebugAnnotation */
	F_DA_NAME_IID = 1, F_DA_BOOL = 2, F_DA_UINT = 3, F_DA_INT = 4, F_DA_DOUBLE = 5,
	F_DA_STRING = 6, F_DA_POINTER = 7, F_DA_NAME = 10,
	/* InternedData; each entry is { iid = 1, name = 2 } */
	F_ID_CATEGORIES = 1, F_ID_NAMES = 2, F_ID_ANNO_NAMES = 3,
	F_IE_IID = 1, F_IE_NAME = 2,
	/* GenericKernelTaskStateEvent */
	F_TS_CPU = 1, F_TS_TID = 3, F_TS_STATE = 4, F_TS_PRIO = 5,
	/* GenericKernelProcessTree, Thread */
	F_PT_THREADS = 2, F_PTT_TID = 1, F_PTT_PID = 2, F_PTT_COMM = 3,
};
enum { TE_SLICE_BEGIN = 1, TE_SLICE_END = 2, TE_INSTANT = 3, TE_COUNTER = 4 };
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
enum { UNIT_COUNT = 2 };
enum { TS_RUNNABLE = 2, TS_RUNNING = 3, TS_INTERRUPTIBLE_SLEEP = 4, TS_STOPPED = 6, TS_DEAD = 7 };
enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2 };

enum pfw_table { PFW_CAT, PFW_NAME, PFW_ANNO, PFW_TABLES };

/* An interned string first used by the packet being written. */
struct pfw_new {
	uint32_t iid;
	const char *s;  /* the pool's copy */
};

struct pfw {
	FILE *out;
	int err;
	int sched, intern;
	int started;                 /* the first packet has been written */
	struct namepool *pool[PFW_TABLES];
	/* the packet's new interned entries, per table */
	struct pfw_new *fresh[PFW_TABLES];
	size_t n_fresh[PFW_TABLES], cap_fresh[PFW_TABLES];
	/* the output: whole packets, written out once PFW_FLUSH bytes are held */
	uint8_t *b;
	size_t n, cap;
	/* the iid of each trackmap name id seen (tmap_slice.name_id), 0 unknown:
	 * a repeated name is not hashed again */
	uint32_t *iid_of;
	uint32_t n_iid_of;
	/* categories (string constants, tmap_slice.cat) by address */
	struct pfw_cat {
		const char *s;
		uint64_t iid;
	} cats[PFW_CATS];
	uint32_t n_cats;
	uint8_t *sched_seen;         /* per track uuid: its thread was announced */
	size_t sched_seen_n;
	struct pfw_stats st;
};

/* ---- protobuf encoding --------------------------------------------------- */

/* Room for more bytes in the output (grown, never flushed, inside a packet:
 * the open messages refer to it by offset). */
static __attribute__((noinline)) int pb_room(struct pfw *w, size_t more)
{
	if (w->n + more <= w->cap)
		return 0;
	size_t cap = w->cap ? w->cap : PFW_FLUSH + 4096;
	while (cap < w->n + more)
		cap *= 2;
	uint8_t *b = realloc(w->b, cap);
	if (!b) {
		w->err = 1;
		return -1;
	}
	w->b = b;
	w->cap = cap;
	return 0;
}

/* The most called function of the writer (every tag, every number):
 * inline, the buffer's growth out of line, and one byte without a loop. */
static inline void pb_varint(struct pfw *w, uint64_t v)
{
	if (w->n + VARINT_MAX > w->cap && pb_room(w, VARINT_MAX) != 0)
		return;
	if (v < 0x80)
		w->b[w->n++] = (uint8_t)v;
	else
		w->n += varint_put(w->b + w->n, v);
}

static void pb_uint(struct pfw *w, unsigned field, uint64_t v)
{
	pb_varint(w, (uint64_t)field << 3 | WT_VARINT);
	pb_varint(w, v);
}

/* int32 and int64 alike: negative values as ten-byte varints. */
static void pb_int(struct pfw *w, unsigned field, int64_t v)
{
	pb_uint(w, field, (uint64_t)v);
}

/* fixed64: eight bytes, little-endian (one element of a repeated field,
 * which protobuf-c writes unpacked in proto2). */
static void pb_fixed64(struct pfw *w, unsigned field, uint64_t v)
{
	pb_varint(w, (uint64_t)field << 3 | WT_FIXED64);
	if (pb_room(w, 8) == 0)
		for (int i = 0; i < 8; i++)
			w->b[w->n++] = (uint8_t)(v >> (8 * i));
}

static void pb_double(struct pfw *w, unsigned field, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	pb_fixed64(w, field, v);
}

/* Start a length-delimited field; returns where its bytes start. */
static size_t pb_open(struct pfw *w, unsigned field)
{
	pb_varint(w, (uint64_t)field << 3 | WT_LEN);
	if (pb_room(w, 1) == 0)
		w->n++; /* the length, if it fits one byte */
	return w->n;
}

/* End it: write its length before it, moving the bytes up by what a
 * length of two bytes or more needs. */
static void pb_close(struct pfw *w, size_t start)
{
	if (w->err)
		return;
	size_t len = w->n - start;
	if (len < 0x80) {
		w->b[start - 1] = (uint8_t)len;
		return;
	}
	uint8_t v[VARINT_MAX];
	size_t k = varint_put(v, len);
	if (pb_room(w, k - 1) != 0)
		return;
	memmove(w->b + start - 1 + k, w->b + start, len);
	memcpy(w->b + start - 1, v, k);
	w->n += k - 1;
}

/* A string field, made valid UTF-8 (utf8text_clean) as it is written. */
static void pb_str(struct pfw *w, unsigned field, const void *s, size_t n)
{
	size_t at = pb_open(w, field);
	if (pb_room(w, UTF8TEXT_CLEAN_MAX(n)) == 0)
		w->n += utf8text_clean((char *)w->b + w->n, s, n);
	pb_close(w, at);
}

static void pb_cstr(struct pfw *w, unsigned field, const char *s)
{
	pb_str(w, field, s, strlen(s));
}

/* ---- interning ---------------------------------------------------------- */

/* The iid of s in a table, adding it (and queueing its definition for this
 * packet) if new; 0 if it must be written inline. */
static uint64_t pfw_iid(struct pfw *w, enum pfw_table tab, const char *s)
{
	int added;
	uint32_t id;

	if (!w->intern)
		return 0;
	id = namepool_intern_str(w->pool[tab], s, &added);
	if (!id) {
		w->st.inlined++;
		return 0;
	}
	if (!added)
		return id;
	w->st.interned++;
	if (w->n_fresh[tab] == w->cap_fresh[tab]) {
		size_t cap = w->cap_fresh[tab] ? 2 * w->cap_fresh[tab] : 8;
		struct pfw_new *f = realloc(w->fresh[tab], cap * sizeof(*f));
		if (!f) {
			/* the id exists but would never be defined: this writer
			 * can no longer be trusted */
			w->err = 1;
			return 0;
		}
		w->fresh[tab] = f;
		w->cap_fresh[tab] = cap;
	}
	w->fresh[tab][w->n_fresh[tab]++] = (struct pfw_new){ id, namepool_str(w->pool[tab], id) };
	return id;
}

/* The iid of a slice's name, remembered by its trackmap id when it has one. */
static uint64_t pfw_name_iid(struct pfw *w, const struct tmap_slice *s)
{
	uint32_t id = s->name_id;

	if (id && id < w->n_iid_of && w->iid_of[id])
		return w->iid_of[id];
	uint64_t iid = pfw_iid(w, PFW_NAME, s->name);
	if (!id || !iid || iid > UINT32_MAX)
		return iid;
	if (id >= w->n_iid_of) {
		/* the trackmap's table is bounded, so this is too */
		uint32_t n = w->n_iid_of ? w->n_iid_of : 64;
		while (n <= id)
			n *= 2;
		uint32_t *p = realloc(w->iid_of, (size_t)n * sizeof(*p));
		if (!p)
			return iid;
		memset(p + w->n_iid_of, 0, (size_t)(n - w->n_iid_of) * sizeof(*p));
		w->iid_of = p;
		w->n_iid_of = n;
	}
	w->iid_of[id] = (uint32_t)iid;
	return iid;
}

/* The iid of a category: a few string constants, known by their address. */
static uint64_t pfw_cat_iid(struct pfw *w, const char *cat)
{
	for (uint32_t i = 0; i < w->n_cats; i++)
		if (w->cats[i].s == cat)
			return w->cats[i].iid;
	uint64_t iid = pfw_iid(w, PFW_CAT, cat);
	if (iid && w->n_cats < PFW_CATS)
		w->cats[w->n_cats++] = (struct pfw_cat){ cat, iid };
	return iid;
}

/* ---- packets ------------------------------------------------------------ */

/* A packet: field 1 of Trace, then the timestamp (if any) and the sequence
 * id, the fields before 11 in number order; the caller writes its data. */
static size_t pfw_begin(struct pfw *w, int has_ts, uint64_t ns)
{
	size_t at = pb_open(w, F_TRACE_PACKET);
	if (has_ts)
		pb_uint(w, F_TP_TIMESTAMP, ns);
	pb_uint(w, F_TP_SEQ_ID, PFW_SEQ_ID);
	return at;
}

/* The interned data (field 12) and the sequence flags (13): written after
 * a track event (11), before the packet's other data. */
static void pfw_seq_fields(struct pfw *w, int needs_state)
{
	static const unsigned field[PFW_TABLES] = { F_ID_CATEGORIES, F_ID_NAMES, F_ID_ANNO_NAMES };
	uint32_t flags = needs_state ? SEQ_NEEDS_INCREMENTAL_STATE : 0;

	if (w->n_fresh[PFW_CAT] || w->n_fresh[PFW_NAME] || w->n_fresh[PFW_ANNO]) {
		size_t in = pb_open(w, F_TP_INTERNED);
		for (int t = 0; t < PFW_TABLES; t++) {
			for (size_t i = 0; i < w->n_fresh[t]; i++) {
				size_t e = pb_open(w, field[t]);
				pb_uint(w, F_IE_IID, w->fresh[t][i].iid);
				pb_cstr(w, F_IE_NAME, w->fresh[t][i].s);
				pb_close(w, e);
			}
			w->n_fresh[t] = 0;
		}
		pb_close(w, in);
	}
	if (!w->started)
		flags |= SEQ_INCREMENTAL_STATE_CLEARED;
	if (flags)
		pb_uint(w, F_TP_SEQ_FLAGS, flags);
}

/* first_packet_on_sequence (87) on the very first packet: after a track
 * descriptor (60), before scheduler data (117, 122). */
static void pfw_first_flag(struct pfw *w)
{
	if (!w->started) {
		w->started = 1;
		pb_uint(w, F_TP_FIRST_ON_SEQ, 1);
	}
}

/* The packet is complete: count it, and hand full pieces to the file. */
static void pfw_end(struct pfw *w, size_t at)
{
	size_t before = at - 2; /* Trace's tag and a one-byte length */
	pb_close(w, at);
	w->st.packets++;
	w->st.bytes += w->n - before;
	if (w->n >= PFW_FLUSH && !w->err) {
		if (fwrite(w->b, 1, w->n, w->out) != w->n)
			w->err = 1;
		w->n = 0;
	}
}

/* ---- track model callbacks --------------------------------------------- */

static void pfw_track(void *vw, const struct tmap_track *t)
{
	struct pfw *w = vw;
	size_t p = pfw_begin(w, 0, 0), td, sub;

	pfw_seq_fields(w, 0);
	td = pb_open(w, F_TP_TRACK_DESC);
	pb_uint(w, F_TD_UUID, t->uuid);
	switch (t->kind) {
	case TMAP_PROCESS:
		sub = pb_open(w, F_TD_PROCESS);
		pb_int(w, F_PD_PID, t->pid);
		pb_cstr(w, F_PD_NAME, t->name);
		pb_close(w, sub);
		break;
	case TMAP_THREAD:
		sub = pb_open(w, F_TD_THREAD);
		pb_int(w, F_THD_PID, t->pid);
		pb_int(w, F_THD_TID, t->tid);
		pb_cstr(w, F_THD_NAME, t->name);
		pb_close(w, sub);
		break;
	case TMAP_COUNTER:
	case TMAP_SLICES:
		pb_cstr(w, F_TD_NAME, t->name);
		pb_uint(w, F_TD_PARENT, t->parent);
		if (t->kind == TMAP_COUNTER) {
			sub = pb_open(w, F_TD_COUNTER);
			if (t->unit == TMAP_UNIT_COUNT)
				pb_uint(w, F_CD_UNIT, UNIT_COUNT);
			pb_close(w, sub);
		}
		break;
	}
	pb_close(w, td);
	pfw_first_flag(w);
	pfw_end(w, p);
}

/* One annotation's value; 0 if the argument has none (no annotation). */
static int pfw_anno_value(struct pfw *w, const struct sonde_arg *a)
{
	static const char hex[] = "0123456789abcdef";

	switch (a->type) {
	case SONDE_A_U8: case SONDE_A_U16: case SONDE_A_U32: case SONDE_A_U64:
		pb_uint(w, F_DA_UINT, a->v.u);
		return 1;
	case SONDE_A_I8: case SONDE_A_I16: case SONDE_A_I32: case SONDE_A_I64:
		pb_int(w, F_DA_INT, a->v.i);
		return 1;
	case SONDE_A_F32: case SONDE_A_F64:
		pb_double(w, F_DA_DOUBLE, numfmt_float_value(a->v.f, a->type == SONDE_A_F32));
		return 1;
	case SONDE_A_STR:
		pb_str(w, F_DA_STRING, a->v.mem.p ? a->v.mem.p : (const uint8_t *)"", a->v.mem.n);
		return 1;
	case SONDE_A_MEM: {
		size_t at = pb_open(w, F_DA_STRING);
		if (pb_room(w, 2 * a->v.mem.n) == 0)
			for (size_t i = 0; i < a->v.mem.n; i++) {
				w->b[w->n++] = (uint8_t)hex[a->v.mem.p[i] >> 4];
				w->b[w->n++] = (uint8_t)hex[a->v.mem.p[i] & 15];
			}
		pb_close(w, at);
		return 1;
	}
	case SONDE_A_OBJ: case SONDE_A_FUNC: case SONDE_A_ENUM:
		if (a->resolved)
			pb_cstr(w, F_DA_STRING, a->resolved);
		else if (a->type == SONDE_A_ENUM)
			pb_uint(w, F_DA_UINT, a->v.u);
		else
			pb_uint(w, F_DA_POINTER, a->v.u);
		return 1;
	case SONDE_A_HEX:
		pb_uint(w, F_DA_POINTER, a->v.u);
		return 1;
	case SONDE_A_BOOL:
		pb_uint(w, F_DA_BOOL, a->v.u != 0);
		return 1;
	default:
		return 0; /* NONE: no value */
	}
}

/* Does the argument make an annotation?  (pfw_anno_value writes one.) */
static int pfw_has_value(const struct sonde_arg *a)
{
	return a->type >= SONDE_A_U8 && a->type <= SONDE_A_BOOL;
}

static void pfw_slice(void *vw, enum tmap_type type, uint64_t ns, const struct tmap_track *t,
		      const struct tmap_slice *s)
{
	struct pfw *w = vw;
	uint64_t name_iid = 0, cat_iid = 0;

	/* interning first, in the order the entries are defined */
	if (s->name && !s->name_is_text)
		name_iid = pfw_name_iid(w, s);
	if (s->cat)
		cat_iid = pfw_cat_iid(w, s->cat);

	size_t p = pfw_begin(w, 1, ns);
	size_t te = pb_open(w, F_TP_TRACK_EVENT);
	if (cat_iid)
		pb_uint(w, F_TE_CATEGORY_IIDS, cat_iid);
	for (size_t i = 0; i < s->nargs; i++) {
		char nbuf[24];
		const char *name;
		uint64_t iid;
		size_t da;

		if (!pfw_has_value(&s->args[i]))
			continue;
		name = tmap_arg_name(&s->args[i], i, nbuf);
		iid = pfw_iid(w, PFW_ANNO, name);
		da = pb_open(w, F_TE_ANNOTATIONS);
		if (iid)
			pb_uint(w, F_DA_NAME_IID, iid);
		pfw_anno_value(w, &s->args[i]);
		if (!iid)
			pb_cstr(w, F_DA_NAME, name);
		pb_close(w, da);
	}
	pb_uint(w, F_TE_TYPE, type == TMAP_BEGIN ? TE_SLICE_BEGIN : type == TMAP_END ? TE_SLICE_END : TE_INSTANT);
	if (name_iid)
		pb_uint(w, F_TE_NAME_IID, name_iid);
	pb_uint(w, F_TE_TRACK_UUID, t->uuid);
	if (s->name && !name_iid)
		pb_cstr(w, F_TE_NAME, s->name);
	if (s->flow_out)
		pb_fixed64(w, F_TE_FLOW_IDS, s->flow_out);
	if (s->flow_in)
		pb_fixed64(w, F_TE_TERMINATING_FLOW_IDS, s->flow_in);
	pb_close(w, te);
	pfw_seq_fields(w, 1);
	pfw_first_flag(w);
	pfw_end(w, p);
}

static void pfw_counter(void *vw, uint64_t ns, const struct tmap_track *t, int64_t value)
{
	struct pfw *w = vw;
	size_t p = pfw_begin(w, 1, ns);
	size_t te = pb_open(w, F_TP_TRACK_EVENT);

	pb_uint(w, F_TE_TYPE, TE_COUNTER);
	pb_uint(w, F_TE_TRACK_UUID, t->uuid);
	pb_int(w, F_TE_COUNTER_VALUE, value);
	pb_close(w, te);
	pfw_seq_fields(w, 1);
	pfw_first_flag(w);
	pfw_end(w, p);
}

/* The first scheduler event of a task announces its thread to Perfetto's
 * generic-kernel importer (tid, pid, name), at the same time. */
static void pfw_sched_announce(struct pfw *w, uint64_t ns, const struct tmap_track *t)
{
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

	size_t p = pfw_begin(w, 1, ns);
	pfw_seq_fields(w, 0);
	pfw_first_flag(w);
	size_t tree = pb_open(w, F_TP_PROCESS_TREE);
	size_t th = pb_open(w, F_PT_THREADS);
	pb_int(w, F_PTT_TID, t->tid);
	pb_int(w, F_PTT_PID, t->pid);
	pb_cstr(w, F_PTT_COMM, t->name);
	pb_close(w, th);
	pb_close(w, tree);
	pfw_end(w, p);
}

static void pfw_task_state(void *vw, uint64_t ns, const struct tmap_track *t, enum tmap_tstate st)
{
	struct pfw *w = vw;
	static const uint8_t map[] = {
		[TMAP_T_RUNNABLE]  = TS_RUNNABLE,
		[TMAP_T_RUNNING]   = TS_RUNNING,
		[TMAP_T_BLOCKED]   = TS_INTERRUPTIBLE_SLEEP,
		[TMAP_T_SUSPENDED] = TS_STOPPED,
		[TMAP_T_DEAD]      = TS_DEAD,
	};

	if (!w->sched)
		return;
	pfw_sched_announce(w, ns, t);
	size_t p = pfw_begin(w, 1, ns);
	pfw_seq_fields(w, 0);
	pfw_first_flag(w);
	size_t ev = pb_open(w, F_TP_TASK_STATE);
	if (st == TMAP_T_RUNNING)
		pb_int(w, F_TS_CPU, (int32_t)(t->core & 0x7FFFFFFF));
	pb_int(w, F_TS_TID, t->tid);
	pb_uint(w, F_TS_STATE, map[st]);
	if (t->prio >= 0)
		pb_int(w, F_TS_PRIO, t->prio);
	pb_close(w, ev);
	pfw_end(w, p);
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
	w->pool[PFW_NAME] = namepool_new(PFW_NAMES_MAX, PFW_NAMES_BYTES);
	w->pool[PFW_CAT] = namepool_new(1024, 64u << 10);
	w->pool[PFW_ANNO] = namepool_new(PFW_NAMES_MAX, PFW_NAMES_BYTES);
	if (!w->pool[PFW_NAME] || !w->pool[PFW_CAT] || !w->pool[PFW_ANNO] || pb_room(w, 1) != 0) {
		pfw_free(w);
		return NULL;
	}
	return w;
}

int pfw_flush(struct pfw *w)
{
	if (w->n && !w->err && fwrite(w->b, 1, w->n, w->out) != w->n)
		w->err = 1;
	w->n = 0;
	return w->err ? -1 : 0;
}

int pfw_finish(struct pfw *w)
{
	pfw_flush(w);
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
	for (int t = 0; t < PFW_TABLES; t++) {
		namepool_free(w->pool[t]);
		free(w->fresh[t]);
	}
	free(w->b);
	free(w->sched_seen);
	free(w->iid_of);
	free(w);
}
