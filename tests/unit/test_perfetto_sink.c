/*
 * test_perfetto_sink.c -- the perfetto sink (sink_perfetto.c, trackmap.c,
 * perfetto_writer.c): event sequences built by hand go through the sink into
 * a temporary file, which is unpacked with the protobuf-c code generated from
 * the same .proto and rendered one line per packet (interning resolved,
 * tracks shown by name), then compared with the exact expected lines.  The
 * file is also decoded by protoc, an independent parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfetto_trace.pb-c.h"
#include "pipeline.h"
#include "sink_run.h"
#include "sinks/perfetto_writer.h"
#include "sinks/trackmap.h"
#include "sonde_proto.h"

extern const struct sonde_sink_ops sonde_sink_perfetto;

/* ---- running the sink (tests/unit/support/sink_run.h) -------------------- */

static struct sonde_event E2(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name,
			     uint64_t obj2, int64_t value)
{
	struct sonde_event e = sink_ev(k, ts, obj, name);

	e.obj2 = obj2;
	e.value = value;
	return e;
}

/* ---- rendering a trace as lines ----------------------------------------- */

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->n++] = strdup(buf);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* iid -> string, for one interning table; each iid defined exactly once */
struct itab {
	char **s;
	size_t n;
};

static void itab_def(struct itab *t, uint64_t iid, const char *s)
{
	assert_true(iid > 0 && iid < 10000000);
	if (iid >= t->n) {
		size_t n = t->n ? t->n : 64;

		while (n <= iid)
			n *= 2;
		t->s = realloc(t->s, n * sizeof(*t->s));
		assert_non_null(t->s);
		memset(t->s + t->n, 0, (n - t->n) * sizeof(*t->s));
		t->n = n;
	}
	assert_null(t->s[iid]); /* never redefined */
	t->s[iid] = strdup(s);
}

static const char *itab_get(const struct itab *t, uint64_t iid)
{
	assert_true(iid < t->n && t->s[iid] != NULL); /* defined before use */
	return t->s[iid];
}

static void itab_free(struct itab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
}

static size_t render_args(char *buf, size_t cap, Perfetto__Protos__DebugAnnotation **a, size_t n,
			  const struct itab *names)
{
	size_t o = 0;

	if (!n)
		return 0;
	o += snprintf(buf + o, cap - o, " {");
	for (size_t i = 0; i < n && o < cap; i++) {
		const char *k = a[i]->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID
			? itab_get(names, a[i]->name_iid) : a[i]->name;

		o += snprintf(buf + o, cap - o, "%s%s=", i ? ", " : "", k);
		switch (a[i]->value_case) {
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
			o += snprintf(buf + o, cap - o, "%s", a[i]->bool_value ? "true" : "false");
			break;
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
			o += snprintf(buf + o, cap - o, "%" PRIu64, a[i]->uint_value);
			break;
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
			o += snprintf(buf + o, cap - o, "%" PRId64, a[i]->int_value);
			break;
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
			o += snprintf(buf + o, cap - o, "%.17g", a[i]->double_value);
			break;
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
			o += snprintf(buf + o, cap - o, "\"%s\"", a[i]->string_value);
			break;
		case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
			o += snprintf(buf + o, cap - o, "ptr:0x%" PRIx64, a[i]->pointer_value);
			break;
		default:
			fail_msg("annotation without a value");
		}
	}
	o += snprintf(buf + o, cap - o, "}");
	return o;
}

struct decoded {
	struct lines l;
	size_t packets, interned_names, descriptors;
};

/* Unpack the trace at path and render it; checks the sequence rules on the
 * way (sequence id, flags, iids defined once and before use, descriptors
 * before the events that use them). */
static void decode(const char *path, struct decoded *d)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	Perfetto__Protos__Trace *tr;
	struct itab names = { 0 }, cats = { 0 }, annos = { 0 }, tracks = { 0 };

	memset(d, 0, sizeof(*d));
	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	buf = malloc(st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, st.st_size, f), (size_t)st.st_size);
	fclose(f);
	tr = perfetto__protos__trace__unpack(NULL, st.st_size, buf);
	assert_non_null(tr);
	/* the writer is hand-made: its bytes must be exactly what protobuf-c
	 * packs for the same message (field order, shortest varints) */
	{
		size_t n = perfetto__protos__trace__get_packed_size(tr);
		uint8_t *again = malloc(n + 1);

		assert_non_null(again);
		assert_int_equal(n, (size_t)st.st_size);
		assert_int_equal(perfetto__protos__trace__pack(tr, again), n);
		assert_memory_equal(again, buf, n);
		free(again);
	}
	d->packets = tr->n_packet;
	for (size_t i = 0; i < tr->n_packet; i++) {
		Perfetto__Protos__TracePacket *p = tr->packet[i];
		char line[2048];
		size_t o = 0;

		assert_true(p->has_trusted_packet_sequence_id);
		assert_int_equal(p->trusted_packet_sequence_id, PFW_SEQ_ID);
		if (i == 0) {
			assert_true(p->has_sequence_flags && (p->sequence_flags & 1));
			assert_true(p->has_first_packet_on_sequence && p->first_packet_on_sequence);
		} else {
			assert_false(p->has_first_packet_on_sequence);
			assert_false(p->has_sequence_flags && (p->sequence_flags & 1));
		}
		if (p->interned_data) {
			Perfetto__Protos__InternedData *in = p->interned_data;

			for (size_t k = 0; k < in->n_event_names; k++)
				itab_def(&names, in->event_names[k]->iid, in->event_names[k]->name);
			for (size_t k = 0; k < in->n_event_categories; k++)
				itab_def(&cats, in->event_categories[k]->iid, in->event_categories[k]->name);
			for (size_t k = 0; k < in->n_debug_annotation_names; k++)
				itab_def(&annos, in->debug_annotation_names[k]->iid,
					 in->debug_annotation_names[k]->name);
			d->interned_names += in->n_event_names;
		}
		switch (p->data_case) {
		case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR: {
			Perfetto__Protos__TrackDescriptor *td = p->track_descriptor;
			const char *name;

			d->descriptors++;
			assert_false(p->has_timestamp);
			assert_true(td->has_uuid);
			if (td->process) {
				name = td->process->process_name;
				lines_add(&d->l, "track process pid=%d \"%s\"", td->process->pid, name);
			} else if (td->thread) {
				name = td->thread->thread_name;
				lines_add(&d->l, "track thread pid=%d tid=%d \"%s\"", td->thread->pid,
					  td->thread->tid, name);
			} else if (td->counter) {
				name = td->name;
				lines_add(&d->l, "track counter parent=[%s] unit=%d \"%s\"",
					  itab_get(&tracks, td->parent_uuid),
					  td->counter->has_unit ? (int)td->counter->unit : -1, name);
			} else {
				name = td->name;
				lines_add(&d->l, "track parent=[%s] \"%s\"", itab_get(&tracks, td->parent_uuid), name);
			}
			if (td->uuid < tracks.n && tracks.s[td->uuid]) {
				free(tracks.s[td->uuid]); /* a rename */
				tracks.s[td->uuid] = NULL;
			}
			itab_def(&tracks, td->uuid, name);
			break;
		}
		case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT: {
			Perfetto__Protos__TrackEvent *te = p->track_event;
			static const char type[] = "?BEIC";

			assert_true(p->has_timestamp);
			assert_true(p->has_sequence_flags && (p->sequence_flags & 2));
			assert_true(te->has_type && te->type >= 1 && te->type <= 4);
			o += snprintf(line + o, sizeof(line) - o, "@%" PRIu64 " %c [%s]", p->timestamp,
				      type[te->type], itab_get(&tracks, te->track_uuid));
			if (te->type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER) {
				o += snprintf(line + o, sizeof(line) - o, " %" PRId64, te->counter_value);
			} else {
				for (size_t k = 0; k < te->n_category_iids; k++)
					o += snprintf(line + o, sizeof(line) - o, " %s:",
						      itab_get(&cats, te->category_iids[k]));
				if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
					o += snprintf(line + o, sizeof(line) - o, "\"%s\"",
						      itab_get(&names, te->name_iid));
				else if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
					o += snprintf(line + o, sizeof(line) - o, "'%s'", te->name);
				o += render_args(line + o, sizeof(line) - o, te->debug_annotations,
						 te->n_debug_annotations, &annos);
			}
			for (size_t k = 0; k < te->n_flow_ids; k++)
				o += snprintf(line + o, sizeof(line) - o, " flow>%" PRIu64, te->flow_ids[k]);
			for (size_t k = 0; k < te->n_terminating_flow_ids; k++)
				o += snprintf(line + o, sizeof(line) - o, " >flow%" PRIu64, te->terminating_flow_ids[k]);
			lines_add(&d->l, "%s", line);
			break;
		}
		case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT: {
			Perfetto__Protos__GenericKernelTaskStateEvent *g = p->generic_kernel_task_state_event;

			assert_true(p->has_timestamp);
			o += snprintf(line + o, sizeof(line) - o, "@%" PRIu64 " sched tid=%" PRId64 " state=%d",
				      p->timestamp, g->tid, (int)g->state);
			if (g->has_cpu)
				o += snprintf(line + o, sizeof(line) - o, " cpu=%d", g->cpu);
			if (g->has_prio)
				o += snprintf(line + o, sizeof(line) - o, " prio=%d", g->prio);
			lines_add(&d->l, "%s", line);
			break;
		}
		case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_PROCESS_TREE: {
			Perfetto__Protos__GenericKernelProcessTree *g = p->generic_kernel_process_tree;

			for (size_t k = 0; k < g->n_threads; k++)
				lines_add(&d->l, "@%" PRIu64 " thread tid=%" PRId64 " pid=%" PRId64 " \"%s\"",
					  p->timestamp, g->threads[k]->tid, g->threads[k]->pid, g->threads[k]->comm);
			break;
		}
		default:
			fail_msg("packet %zu has no payload", i);
		}
	}
	perfetto__protos__trace__free_unpacked(tr, NULL);
	free(buf);
	itab_free(&names);
	itab_free(&cats);
	itab_free(&annos);
	itab_free(&tracks);
}

static void expect_lines(const struct lines *got, const char *const *want, size_t n)
{
	int ok = got->n == n;

	for (size_t i = 0; ok && i < n; i++)
		ok = strcmp(got->v[i], want[i]) == 0;
	if (!ok) {
		for (size_t i = 0; i < got->n || i < n; i++)
			fprintf(stderr, "%s %-70s | %s\n",
				i < got->n && i < n && strcmp(got->v[i], want[i]) == 0 ? " " : "!",
				i < got->n ? got->v[i] : "-", i < n ? want[i] : "-");
		fail_msg("rendered trace differs (got %zu lines, want %zu)", got->n, n);
	}
}

#define EXPECT(d, ...) do { \
	static const char *const want_[] = { __VA_ARGS__ }; \
	expect_lines(&(d)->l, want_, sizeof(want_) / sizeof(want_[0])); \
} while (0)

/* The whole file decodes with protoc against our .proto (an independent
 * parser); returns its text output in out. */
static void protoc_decode(const char *path, char *out, size_t cap)
{
	char cmd[2048], proto[512];
	const char *src = __FILE__; /* .../tests/unit/test_perfetto_sink.c */
	const char *cut = strstr(src, "tests/unit/");
	FILE *p;
	size_t n;

	assert_non_null(cut);
	snprintf(proto, sizeof(proto), "%.*shost/src/sinks", (int)(cut - src), src);
	if (access(proto, F_OK) != 0 || access("/usr/bin/protoc", X_OK) != 0)
		fail_msg("protoc or %s missing (scripts/deps.sh installs protobuf-compiler)", proto);
	snprintf(cmd, sizeof(cmd), "protoc --proto_path=%s --decode=perfetto.protos.Trace %s/perfetto_trace.proto < %s",
		 proto, proto, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	assert_int_equal(pclose(p), 0);
}

/* ---- tests -------------------------------------------------------------- */

/* Tasks, a preempted function, an ISR, log, idle, counters, queue, markers. */
static void test_mapping(void **state)
{
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;
	struct sonde_arg arg = { .type = SONDE_A_U32, .name = "n", .v.u = 5 };

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000); /* 1 MHz: 1 tick = 1000 ns */
	sink_run_put(&r, E2(SONDE_EV_TASK_CREATE, 10, 1, "blinky", 3, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 20, 1, "blinky"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 25, 7, "compute"));
	sink_run_put(&r, E2(SONDE_EV_ISR_ENTER, 30, 2, "SysTick", 0, 1));
	sink_run_put(&r, E2(SONDE_EV_ISR_EXIT, 35, 2, NULL, 0, 1));
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 40, 1, "blinky", SONDE_TASK_PREEMPTED, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 40, 2, "worker"));
	e = sink_ev(SONDE_EV_LOG, 45, 0, NULL);
	e.level = SONDE_LVL_INFO;
	e.text = "hello 5";
	e.nargs = 1;
	e.args = &arg;
	sink_run_put(&r, e);
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 50, 2, "worker", SONDE_TASK_BLOCKED, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 60, 1, "blinky"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 65, 0, NULL));
	sink_run_put(&r, sink_ev(SONDE_EV_IDLE, 70, 0, NULL));
	sink_run_put(&r, E2(SONDE_EV_COUNTER, 71, 9, "adc", 0, -5));
	sink_run_put(&r, E2(SONDE_EV_QUEUE, 72, 4, "rxq", 0, 3));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK_BEGIN, 73, 3, "frame"));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK_BEGIN, 74, 3, "frame"));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK_END, 75, 3, "frame"));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK_END, 76, 3, "frame"));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK, 77, 3, "frame"));
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 80, 2, "worker", SONDE_TASK_DELETED, 0));
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1001 \"blinky\"",
	       "track parent=[Core 0] \"blinky state\"",
	       "@10000 I [blinky state] state:\"Created\" {priority=3}",
	       "@10000 B [blinky state] state:\"Ready\"",
	       "@10000 thread tid=1001 pid=1 \"blinky\"",
	       "@10000 sched tid=1001 state=2 prio=3",
	       "@20000 E [blinky state]",
	       "@20000 B [blinky state] state:\"Running\"",
	       "@20000 sched tid=1001 state=3 cpu=0 prio=3",
	       "@20000 B [blinky] sched:\"Running\"",
	       "@25000 B [blinky] func:\"compute\"",
	       "track thread pid=1 tid=1003 \"ISRs\"",
	       "@30000 B [ISRs] isr:\"SysTick\"",
	       "@35000 E [ISRs]",
	       /* switched out inside compute: compute and Running end... */
	       "@40000 E [blinky]",
	       "@40000 E [blinky]",
	       "@40000 E [blinky state]",
	       "@40000 B [blinky state] state:\"Ready\"",
	       "@40000 sched tid=1001 state=2 prio=3",
	       "track thread pid=1 tid=1004 \"worker\"",
	       "track parent=[Core 0] \"worker state\"",
	       "@40000 B [worker state] state:\"Running\"",
	       "@40000 thread tid=1004 pid=1 \"worker\"",
	       "@40000 sched tid=1004 state=3 cpu=0",
	       "@40000 B [worker] sched:\"Running\"",
	       "@45000 I [worker] log:'hello 5' {n=5, level=\"info\"}",
	       "@50000 E [worker]",
	       "@50000 E [worker state]",
	       "@50000 B [worker state] state:\"Blocked\"",
	       "@50000 sched tid=1004 state=4",
	       "@60000 E [blinky state]",
	       "@60000 B [blinky state] state:\"Running\"",
	       "@60000 sched tid=1001 state=3 cpu=0 prio=3",
	       /* ...and are reopened when blinky runs again */
	       "@60000 B [blinky] sched:\"Running\"",
	       "@60000 B [blinky] func:\"compute\" {resumed=true}",
	       "@65000 E [blinky]",
	       "track thread pid=1 tid=1006 \"Idle\"",
	       "@70000 E [blinky]",
	       "@70000 E [blinky state]",
	       "@70000 B [blinky state] state:\"Ready\"",
	       "@70000 sched tid=1001 state=2 prio=3",
	       "@70000 B [Idle] sched:\"Idle\"",
	       "track counter parent=[Core 0] unit=-1 \"adc\"",
	       "@71000 C [adc] -5",
	       "track counter parent=[Core 0] unit=2 \"rxq\"",
	       "@72000 C [rxq] 3",
	       "track parent=[Core 0] \"frame\"",
	       "@73000 B [frame] mark:\"frame\"",
	       "@74000 B [frame] mark:\"frame\"",
	       "@75000 E [frame]",
	       "@76000 E [frame]",
	       "@77000 I [frame] mark:\"frame\"",
	       "@80000 E [worker state]",
	       "@80000 sched tid=1004 state=7",
	       "@80000 I [worker state] state:\"Deleted\"");
	lines_free(&d.l);
	unlink(r.path);
}

/* RTOS events: a blocked task names what it waits on; queue levels are
 * counters; a send starts a flow that the receive of its item ends; a mutex
 * shows its holder; priority inheritance is a priority counter and an
 * instant on the task's state track. */
static void test_rtos_mapping(void **state)
{
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000);
	sink_run_put(&r, E2(SONDE_EV_TASK_CREATE, 10, 1, "ctrl", 4, 0));
	sink_run_put(&r, E2(SONDE_EV_TASK_CREATE, 10, 2, "log", 1, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 20, 2, "log"));
	e = E2(SONDE_EV_OBJ_OP, 21, 7, "bus", SONDE_OBJK_MUTEX, 0); /* log takes the mutex */
	e.op = SONDE_OP_RECEIVE;
	e.flags = SONDE_EVF_LEVEL;
	sink_run_put(&r, e);
	e = E2(SONDE_EV_OBJ_OP, 22, 8, "q", SONDE_OBJK_QUEUE, 1); /* and sends an item */
	e.op = SONDE_OP_SEND;
	e.flags = SONDE_EVF_LEVEL;
	sink_run_put(&r, e);
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 30, 2, "log", SONDE_TASK_PREEMPTED, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 30, 1, "ctrl"));
	e = E2(SONDE_EV_TASK_PRIO, 31, 2, "log", SONDE_OP_PRIO_INHERIT, 4);
	e.op = SONDE_OP_PRIO_INHERIT;
	sink_run_put(&r, e);
	e = E2(SONDE_EV_TASK_OUT, 32, 1, "ctrl", SONDE_TASK_WAIT_RECV, 0);
	e.flags = SONDE_EVF_REF;
	e.ref = 7;
	e.ref_name = "bus";
	sink_run_put(&r, e);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 32, 2, "log"));
	e = E2(SONDE_EV_OBJ_OP, 40, 7, "bus", SONDE_OBJK_MUTEX, 1); /* log gives it */
	e.op = SONDE_OP_SEND;
	e.flags = SONDE_EVF_LEVEL;
	sink_run_put(&r, e);
	e = E2(SONDE_EV_TASK_PRIO, 40, 2, "log", SONDE_OP_PRIO_DISINHERIT, 1);
	e.op = SONDE_OP_PRIO_DISINHERIT;
	sink_run_put(&r, e);
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 41, 2, "log", SONDE_TASK_DELAYED, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 41, 1, "ctrl"));
	e = E2(SONDE_EV_OBJ_OP, 42, 8, "q", SONDE_OBJK_QUEUE, 0); /* ctrl gets the item */
	e.op = SONDE_OP_RECEIVE;
	e.flags = SONDE_EVF_LEVEL;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1001 \"ctrl\"",
	       "track parent=[Core 0] \"ctrl state\"",
	       "@10000 I [ctrl state] state:\"Created\" {priority=4}",
	       "@10000 B [ctrl state] state:\"Ready\"",
	       "@10000 thread tid=1001 pid=1 \"ctrl\"",
	       "@10000 sched tid=1001 state=2 prio=4",
	       "track thread pid=1 tid=1003 \"log\"",
	       "track parent=[Core 0] \"log state\"",
	       "@10000 I [log state] state:\"Created\" {priority=1}",
	       "@10000 B [log state] state:\"Ready\"",
	       "@10000 thread tid=1003 pid=1 \"log\"",
	       "@10000 sched tid=1003 state=2 prio=1",
	       "@20000 E [log state]",
	       "@20000 B [log state] state:\"Running\"",
	       "@20000 sched tid=1003 state=3 cpu=0 prio=1",
	       "@20000 B [log] sched:\"Running\"",
	       "track counter parent=[Core 0] unit=2 \"bus\"",
	       "@21000 C [bus] 0",
	       "track parent=[Core 0] \"bus holder\"",
	       "@21000 B [bus holder] rtos:\"log\"",
	       "@21000 I [log] rtos:\"take bus\" {level=0}",
	       "track counter parent=[Core 0] unit=2 \"q\"",
	       "@22000 C [q] 1",
	       "@22000 I [log] rtos:\"send q\" {level=1} flow>1",
	       "@30000 E [log]",
	       "@30000 E [log state]",
	       "@30000 B [log state] state:\"Ready\"",
	       "@30000 sched tid=1003 state=2 prio=1",
	       "@30000 E [ctrl state]",
	       "@30000 B [ctrl state] state:\"Running\"",
	       "@30000 sched tid=1001 state=3 cpu=0 prio=4",
	       "@30000 B [ctrl] sched:\"Running\"",
	       "track counter parent=[Core 0] unit=2 \"log priority\"",
	       "@31000 C [log priority] 4",
	       "@31000 I [log state] state:\"priority inherit\" {priority=4}",
	       "@32000 E [ctrl]",
	       "@32000 E [ctrl state]",
	       "@32000 B [ctrl state] state:\"Blocked: receive bus\"",
	       "@32000 sched tid=1001 state=4 prio=4",
	       "@32000 E [log state]",
	       "@32000 B [log state] state:\"Running\"",
	       "@32000 sched tid=1003 state=3 cpu=0 prio=4",
	       "@32000 B [log] sched:\"Running\"",
	       "@40000 C [bus] 1",
	       "@40000 E [bus holder]",
	       "@40000 I [log] rtos:\"give bus\" {level=1} flow>2",
	       "@40000 C [log priority] 1",
	       "@40000 I [log state] state:\"priority disinherit\" {priority=1}",
	       "@41000 E [log]",
	       "@41000 E [log state]",
	       "@41000 B [log state] state:\"Delayed\"",
	       "@41000 sched tid=1003 state=4 prio=1",
	       "@41000 E [ctrl state]",
	       "@41000 B [ctrl state] state:\"Running\"",
	       "@41000 sched tid=1001 state=3 cpu=0 prio=4",
	       "@41000 B [ctrl] sched:\"Running\"",
	       "@42000 C [q] 0",
	       "@42000 I [ctrl] rtos:\"receive q\" {level=0} >flow1");
	lines_free(&d.l);
	unlink(r.path);
}

/* protoc, an independent parser, reads the same file. */
static void test_protoc(void **state)
{
	struct sink_run r;
	struct decoded d;
	char *text = malloc(1 << 20);
	size_t packets = 0;

	(void)state;
	assert_non_null(text);
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 1, 1, "main task"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 2, 7, "f"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 3, 0, NULL));
	sink_run_put(&r, E2(SONDE_EV_COUNTER, 4, 9, "temp", 0, -1));
	assert_int_equal(sink_run_close(&r), 0);
	protoc_decode(r.path, text, 1 << 20);
	for (const char *p = text; (p = strstr(p, "\npacket {")) != NULL; p++)
		packets++;
	decode(r.path, &d);
	assert_int_equal(packets + 1, d.packets); /* the first has no newline before it */
	assert_non_null(strstr(text, "process_name: \"Core 0\""));
	assert_non_null(strstr(text, "thread_name: \"main task\""));
	assert_non_null(strstr(text, "name: \"f\""));
	assert_non_null(strstr(text, "type: TYPE_COUNTER"));
	assert_non_null(strstr(text, "counter_value: -1"));
	assert_non_null(strstr(text, "state: TASK_STATE_RUNNING"));
	assert_non_null(strstr(text, "first_packet_on_sequence: true"));
	lines_free(&d.l);
	free(text);
	unlink(r.path);
}

/* Names are interned once; perfetto.intern=0 writes them inline. */
static void test_interning(void **state)
{
	static const char *const no_intern[] = { "perfetto.intern=0", "perfetto.sched=off", NULL };
	struct sink_run r;
	struct decoded d;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		sink_run_open(&r, &sonde_sink_perfetto, pass ? no_intern : NULL, 0);
		for (int i = 0; i < 3; i++) {
			sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 10 * i, 1, "alpha"));
			sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 10 * i + 1, 2, "beta"));
			sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 10 * i + 2, 0, NULL));
			sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 10 * i + 3, 0, NULL));
		}
		assert_int_equal(sink_run_close(&r), 0);
		decode(r.path, &d);
		assert_int_equal(d.l.n, 16);
		if (!pass) {
			/* alpha, beta and the clock note: each defined once */
			assert_int_equal(d.interned_names, 3);
			assert_string_equal(d.l.v[4], "@0 B [No task] func:\"alpha\"");
			assert_string_equal(d.l.v[13], "@21 B [No task] func:\"beta\"");
		} else {
			assert_int_equal(d.interned_names, 0);
			assert_string_equal(d.l.v[4], "@0 B [No task]'alpha'");
			assert_string_equal(d.l.v[13], "@21 B [No task]'beta'");
		}
		lines_free(&d.l);
		unlink(r.path);
	}
}

/* Events before any task, exits without enters, lost frames. */
static void test_unmatched(void **state)
{
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 1, 0, NULL));          /* before anything */
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 2, 0x8000100, NULL)); /* unnamed, in no task */
	e = sink_ev(SONDE_EV_FUNC_ENTER, 3, 0x8000200, NULL);
	e.flags = SONDE_EVF_ADDR;
	sink_run_put(&r, e);
	sink_run_put(&r, E2(SONDE_EV_ISR_EXIT, 4, 0, NULL, 0, 0));    /* no ISR entered */
	sink_run_put(&r, E2(SONDE_EV_ISR_ENTER, 5, 1, "A", 0, 1));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 6, 3, "in_isr"));
	sink_run_put(&r, E2(SONDE_EV_ISR_ENTER, 7, 2, NULL, 0, 1));   /* depth 1 again: A's exit was lost */
	sink_run_put(&r, E2(SONDE_EV_ISR_EXIT, 8, 0, NULL, 0, 1));
	sink_run_put(&r, sink_ev(SONDE_EV_MARK_END, 9, 4, "m"));            /* end without begin */
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 10, 0x9999, NULL));    /* names a function not open */
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 11, 0x8000100, NULL)); /* closes the inner one too */
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1 \"No task\"",
	       "@1 I [No task] diag:\"FUNC exit without enter\"",
	       "@2 B [No task] func:\"func 0x8000100\"",
	       "@3 B [No task] func:\"func 0x8000200\"",
	       "track thread pid=1 tid=1001 \"ISRs\"",
	       /* no ISR open to hold it: beside the losses */
	       "track parent=[Core 0] \"Trace diagnostics\"",
	       "@4 I [Trace diagnostics] diag:\"ISR exit without enter\"",
	       "@5 B [ISRs] isr:\"A\"",
	       "@6 B [ISRs] func:\"in_isr\"",
	       "@7 E [ISRs] {unterminated=true}",
	       "@7 E [ISRs] {unterminated=true}",
	       "@7 B [ISRs] isr:\"ISR #2\"",
	       "@8 E [ISRs]",
	       "track parent=[Core 0] \"m\"",
	       "@9 I [m] diag:\"MARK_END without MARK_BEGIN\"",
	       "@10 I [No task] diag:\"FUNC exit without enter\"",
	       "@11 E [No task] {unterminated=true}",
	       "@11 E [No task]");
	lines_free(&d.l);
	unlink(r.path);
}

/* Quotes, newlines, UTF-8 and invalid bytes in names and strings. */
static void test_weird_names(void **state)
{
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;
	static const uint8_t raw[] = { 'a', 0x00, 'b', 0xFF, 'c' };
	struct sonde_arg arg = { .type = SONDE_A_STR, .name = "s\"k", .v.mem = { raw, sizeof(raw) } };

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 1, 1, "say \"hi\"\nnext\tline"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 2, 2, "Tonbandger\xC3\xA4t \xE2\x9C\x93"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 3, 3, "bad\xC3(\xED\xA0\x80"));
	e = sink_ev(SONDE_EV_RECORD, 4, 0, NULL);
	e.rec_name = "rec\\";
	e.nargs = 1;
	e.args = &arg;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	assert_string_equal(d.l.v[1], "track thread pid=1 tid=1001 \"say \"hi\"\nnext\tline\"");
	assert_string_equal(d.l.v[2], "track parent=[Core 0] \"say \"hi\"\nnext\tline state\"");
	assert_string_equal(d.l.v[7], "@2 B [say \"hi\"\nnext\tline] func:\"Tonbandger\xC3\xA4t \xE2\x9C\x93\"");
	/* invalid UTF-8 (a cut sequence, a surrogate) becomes U+FFFD per byte */
	assert_string_equal(d.l.v[8], "@3 B [say \"hi\"\nnext\tline] func:\"bad\xEF\xBF\xBD("
			    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
	/* so do NUL bytes inside a string argument */
	assert_string_equal(d.l.v[9], "@4 I [say \"hi\"\nnext\tline] record:\"rec\\\" "
			    "{s\"k=\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\"}");
	assert_int_equal(d.l.n, 10);
	lines_free(&d.l);
	unlink(r.path);
}

/* ts_freq 0: ticks are ns, and the trace says so; estimated and malformed
 * records are flagged. */
static void test_clock(void **state)
{
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 0);
	e = sink_ev(SONDE_EV_MARK, 123456789, 1, "m");
	e.ts_flags |= SONDE_TS_ESTIMATED;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_MARK, 123456790, 1, "m");
	e.flags = SONDE_EVF_MALFORMED;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_MARK, 0, 1, "m");
	e.ts_flags = 0; /* no time: the last one */
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track parent=[Core 0] \"Trace diagnostics\"",
	       "@123456789 I [Trace diagnostics] diag:\"Clock rate unknown: 1 tick is shown as 1 ns\"",
	       "track parent=[Core 0] \"m\"",
	       "@123456789 I [m] mark:\"m\" {ts_estimated=true}",
	       "@123456790 I [m] mark:\"m\" {malformed=true}",
	       "@123456790 I [m] mark:\"m\"");
	lines_free(&d.l);
	unlink(r.path);

	/* 32768 Hz: 1 tick = 30517.578125 ns, rounded down */
	assert_int_equal(tmap_ticks_to_ns(1, 32768), 30517);
	assert_int_equal(tmap_ticks_to_ns(32768, 32768), 1000000000);
	assert_int_equal(tmap_ticks_to_ns(32769, 32768), 1000030517);
	assert_int_equal(tmap_ticks_to_ns(7, 0), 7);
	assert_int_equal(tmap_ticks_to_ns(7, 1000000000), 7);
	assert_int_equal(tmap_ticks_to_ns(3, 3000000000u), 1);
	/* a clock faster than 18 GHz takes the long-double path */
	assert_int_equal(tmap_ticks_to_ns(40000000000ull + 20, 20000000000ull), 2000000001ull);
	assert_true(tmap_ticks_to_ns(UINT64_MAX, 1) == UINT64_MAX); /* saturates */
	assert_true(tmap_ticks_to_ns(UINT64_MAX, 1000000) == UINT64_MAX);
	assert_true(tmap_ticks_to_ns(18446744073709551ull, 1000000) == 18446744073709551000ull);
}

/* Every argument type becomes the matching annotation value. */
static void test_arg_types(void **state)
{
	static const uint8_t mem[] = { 0x7D, 0x7E, 0x00 };
	struct sonde_arg args[] = {
		{ .type = SONDE_A_U8, .v.u = 255 },
		{ .type = SONDE_A_I64, .name = "i", .v.i = INT64_MIN },
		{ .type = SONDE_A_F32, .name = "f", .v.f = 0.5 },
		{ .type = SONDE_A_F64, .name = "g", .v.f = -1e300 },
		{ .type = SONDE_A_STR, .name = "empty", .v.mem = { NULL, 0 } },
		{ .type = SONDE_A_MEM, .name = "mem", .v.mem = { mem, 3 } },
		{ .type = SONDE_A_OBJ, .name = "obj", .resolved = "ao_table", .v.u = 0x20001000 },
		{ .type = SONDE_A_OBJ, .name = "obj2", .v.u = 0x20001004 },
		{ .type = SONDE_A_FUNC, .name = "fn", .v.u = 0x8000123 },
		{ .type = SONDE_A_ENUM, .name = "e", .resolved = "ON", .v.u = 1 },
		{ .type = SONDE_A_ENUM, .name = "e2", .v.u = 9 },
		{ .type = SONDE_A_HEX, .name = "h", .v.u = 0xBEEF },
		{ .type = SONDE_A_BOOL, .name = "b", .v.u = 1 },
		{ .type = SONDE_A_NONE, .name = "none" },
		{ .type = SONDE_A_U64, .v.u = UINT64_MAX },
	};
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	e = sink_ev(SONDE_EV_RECORD, 5, 0, NULL);
	e.rec_id = 0x41;
	e.nargs = sizeof(args) / sizeof(args[0]);
	e.args = args;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1 \"No task\"",
	       "@5 I [No task] record:\"record 0x41\" {arg0=255, i=-9223372036854775808, f=0.5, "
	       "g=-1.0000000000000001e+300, empty=\"\", mem=\"7d7e00\", obj=\"ao_table\", "
	       "obj2=ptr:0x20001004, fn=ptr:0x8000123, e=\"ON\", e2=9, h=ptr:0xbeef, b=true, "
	       "arg14=18446744073709551615}");
	lines_free(&d.l);
	unlink(r.path);
}

/* Fields and messages of 128 bytes and more, whose lengths take two or
 * three bytes: a long task name, a long string and a long memory dump. */
static void test_long_fields(void **state)
{
	static char name[301], text[201], want[4096];
	static uint8_t mem[600];
	struct sonde_arg args[2] = {
		{ .type = SONDE_A_STR, .name = "text" },
		{ .type = SONDE_A_MEM, .name = "mem", .v.mem = { mem, sizeof(mem) } },
	};
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;
	char *hex = malloc(2 * sizeof(mem) + 1);

	(void)state;
	assert_non_null(hex);
	memset(name, 'n', sizeof(name) - 1);
	memset(text, 't', sizeof(text) - 1);
	args[0].v.mem.p = (const uint8_t *)text;
	args[0].v.mem.n = strlen(text);
	for (size_t i = 0; i < sizeof(mem); i++) {
		mem[i] = (uint8_t)(i * 7);
		snprintf(hex + 2 * i, 3, "%02x", mem[i]);
	}
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 1, 1, name));
	e = sink_ev(SONDE_EV_RECORD, 5, 0, NULL);
	e.rec_id = 0x42;
	e.nargs = 2;
	e.args = args;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	snprintf(want, sizeof(want), "track thread pid=1 tid=1001 \"%s\"", name);
	size_t k = 0;
	while (k < d.l.n && strcmp(d.l.v[k], want) != 0)
		k++;
	assert_true(k < d.l.n); /* the task's thread, with its whole name */
	/* the last line is the record: its text, then the dump */
	const char *last = d.l.v[d.l.n - 1];
	assert_non_null(strstr(last, text));
	assert_non_null(strstr(last, "mem=\""));
	assert_int_equal(strncmp(strstr(last, "mem=\"") + 5, hex, strlen(hex)), 0);
	lines_free(&d.l);
	unlink(r.path);
	free(hex);
}

/* DROPS reports carry totals: only a report whose totals changed draws the
 * counters, and only one that says records were lost since the last report
 * draws "Records lost" (Tonbandgeraet reports "0 dropped" periodically; a
 * total that goes down is a target that started counting again). */
static void test_drops_only_when_lost(void **state)
{
	static const int64_t ovw[] = { 0, 0, 0, 0, 0, 0, 3 };
	static const uint64_t ref[] = { 0, 5, 5, 7, 0, 2, 2 };
	struct sink_run r;
	struct decoded d;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	for (int i = 0; i < 7; i++)
		sink_run_put(&r, E2(SONDE_EV_DROPS, 10 * (i + 1), 0, NULL, ref[i], ovw[i]));
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track parent=[Core 0] \"Trace diagnostics\"",
	       "@20 I [Trace diagnostics] drops:\"Records lost\" {overwritten=0, refused=5}",
	       "track counter parent=[Core 0] unit=2 \"Records overwritten\"",
	       "track counter parent=[Core 0] unit=2 \"Records refused\"",
	       "@20 C [Records overwritten] 0",
	       "@20 C [Records refused] 5",
	       "@40 I [Trace diagnostics] drops:\"Records lost\" {overwritten=0, refused=7}",
	       "@40 C [Records overwritten] 0",
	       "@40 C [Records refused] 7",
	       "@50 C [Records overwritten] 0",
	       "@50 C [Records refused] 0",
	       "@60 I [Trace diagnostics] drops:\"Records lost\" {overwritten=0, refused=2}",
	       "@60 C [Records overwritten] 0",
	       "@60 C [Records refused] 2",
	       "@70 I [Trace diagnostics] drops:\"Records lost\" {overwritten=3, refused=2}",
	       "@70 C [Records overwritten] 3",
	       "@70 C [Records refused] 2");
	lines_free(&d.l);
	unlink(r.path);
}

/* DROPS, INFO, STATE and the decoder's diagnostics, on two cores. */
static void test_drops_diag_cores(void **state)
{
	static const char *const opts[] = { "perfetto.name=board", NULL };
	struct sink_run r;
	struct decoded d;
	struct sonde_event e;
	struct sonde_diag diag = { SONDE_D_SEQ_GAP, 1234, 56, 3, "3 frames missing" };

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, opts, 1000000000);
	e = E2(SONDE_EV_DROPS, 100, 0, NULL, 2, 7);
	sink_run_put(&r, e);
	e = E2(SONDE_EV_ISR_ENTER, 101, 5, "UART", 0, 1);
	e.core = 1;
	sink_run_put(&r, e);
	sonde_sink_perfetto.diag(r.sink, &diag, &r.ss);
	e = sink_ev(SONDE_EV_STATE, 102, 0x100, "Philo[0]");
	e.core = 1;
	e.rec_name = "SM-Tran";
	e.obj2 = 3;
	e.obj2_name = "thinking";
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_INFO, 0, 0, NULL);
	e.ts_flags = 0;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"board core 0\"",
	       "track parent=[board core 0] \"Trace diagnostics\"",
	       "@100 I [Trace diagnostics] drops:\"Records lost\" {overwritten=7, refused=2}",
	       "track counter parent=[board core 0] unit=2 \"Records overwritten\"",
	       "track counter parent=[board core 0] unit=2 \"Records refused\"",
	       "@100 C [Records overwritten] 7",
	       "@100 C [Records refused] 2",
	       "track process pid=2 \"board core 1\"",
	       "track thread pid=2 tid=2001 \"ISRs\"",
	       "@101 B [ISRs] isr:\"UART\"",
	       "track parent=[board core 1] \"Trace diagnostics\"",
	       "@101 I [Trace diagnostics] diag:\"Sequence gap\" "
	       "{message=\"3 frames missing\", offset=1234, frame=56, count=3}",
	       /* the gap cuts the open ISR (core/loss.h) */
	       "@101 E [ISRs] {unterminated=true}",
	       "track thread pid=2 tid=2 \"No task\"",
	       "@102 I [No task] state:\"SM-Tran\" {object=\"Philo[0]\", state=\"thinking\"}",
	       "@102 I [Trace diagnostics] info:\"Target info\"");
	lines_free(&d.l);
	unlink(r.path);
}

/* A task seen first without a name is renamed when its name arrives. */
static void test_rename(void **state)
{
	static const char *const opts[] = { "perfetto.sched=0", NULL };
	struct sink_run r;
	struct decoded d;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, opts, 1000000000);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_READY, 1, 5, NULL));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_READY, 2, 5, "net"));
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1001 \"Task #5\"",
	       "track parent=[Core 0] \"Task #5 state\"",
	       "@1 B [Task #5 state] state:\"Ready\"",
	       "track thread pid=1 tid=1001 \"net\"",
	       "track parent=[Core 0] \"net state\"",
	       "@2 E [net state]",
	       "@2 B [net state] state:\"Ready\"");
	lines_free(&d.l);
	unlink(r.path);
}

/* A deleted task's open functions are not resumed by a new task with its id. */
static void test_deleted_task(void **state)
{
	static const char *const opts[] = { "perfetto.sched=0", NULL };
	struct sink_run r;
	struct decoded d;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, opts, 1000000000);
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 1, 5, "t"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 2, 1, "f"));
	sink_run_put(&r, E2(SONDE_EV_TASK_OUT, 3, 5, "t", SONDE_TASK_DELETED, 0));
	sink_run_put(&r, sink_ev(SONDE_EV_TASK_IN, 4, 5, "t"));
	sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 5, 0, NULL));
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	EXPECT(&d,
	       "track process pid=1 \"Core 0\"",
	       "track thread pid=1 tid=1001 \"t\"",
	       "track parent=[Core 0] \"t state\"",
	       "@1 B [t state] state:\"Running\"",
	       "@1 B [t] sched:\"Running\"",
	       "@2 B [t] func:\"f\"",
	       "@3 E [t]",
	       "@3 E [t]",
	       "@3 E [t state]",
	       "@3 I [t state] state:\"Deleted\"",
	       "@4 B [t state] state:\"Running\"",
	       "@4 B [t] sched:\"Running\"",
	       "@5 I [t] diag:\"FUNC exit without enter\"");
	lines_free(&d.l);
	unlink(r.path);
}

/* The track and depth limits hold; nothing is written out of order. */
static void test_limits(void **state)
{
	static const char *const opts[] = { "perfetto.max_tracks=16", "perfetto.max_depth=4", NULL };
	struct sink_run r;
	struct decoded d;
	size_t begins = 0, ends = 0;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, opts, 1000000000);
	for (uint64_t i = 0; i < 100; i++)
		sink_run_put(&r, sink_ev(SONDE_EV_TASK_READY, i, i, NULL));
	for (uint64_t i = 0; i < 10; i++)
		sink_run_put(&r, sink_ev(SONDE_EV_FUNC_ENTER, 200 + i, i, "deep"));
	for (uint64_t i = 0; i < 10; i++)
		sink_run_put(&r, sink_ev(SONDE_EV_FUNC_EXIT, 300 + i, 0, NULL));
	assert_int_equal(sink_run_close(&r), 0);
	decode(r.path, &d);
	assert_int_equal(d.descriptors, 16);
	for (size_t i = 0; i < d.l.n; i++) {
		begins += strstr(d.l.v[i], " B [No task]") != NULL;
		ends += strstr(d.l.v[i], " E [No task]") != NULL;
	}
	assert_int_equal(begins, 4);
	assert_int_equal(ends, 4);
	assert_string_equal(d.l.v[d.l.n - 1], "@309 E [No task]");
	lines_free(&d.l);
	unlink(r.path);
}

/* Memory stays bounded: a million events with unique names and objects. */
static void test_bounded(void **state)
{
	FILE *f = fopen("/dev/null", "wb");
	struct pfw_config pc = { 1, 1 };
	struct pfw *w;
	struct tmap *m;
	struct tmap_stats ts;
	struct pfw_stats ps;
	struct sonde_session ss = { .ts_freq = 1000000000 };
	char name[32];

	(void)state;
	assert_non_null(f);
	w = pfw_new(f, &pc);
	m = tmap_new(&pfw_ops, w, NULL);
	assert_non_null(m);
	for (uint64_t i = 0; i < 1000000; i++) {
		struct sonde_event e = sink_ev(SONDE_EV_FUNC_ENTER, i, i, name);

		snprintf(name, sizeof(name), "f%" PRIu64, i);
		tmap_event(m, &e, &ss);
		e = sink_ev(SONDE_EV_FUNC_EXIT, i, 0, NULL);
		tmap_event(m, &e, &ss);
		e = sink_ev(i & 1 ? SONDE_EV_TASK_IN : SONDE_EV_MARK, i, i, NULL);
		tmap_event(m, &e, &ss);
	}
	tmap_get_stats(m, &ts);
	pfw_get_stats(w, &ps);
	assert_int_equal(ts.tracks, TMAP_DEFAULT_MAX_TRACKS);
	assert_true(ts.unmapped > 900000);
	assert_true(ps.interned <= 3 * 65536);
	assert_true(ps.inlined > 900000); /* the rest were written inline */
	assert_int_equal(pfw_finish(w), 0);
	tmap_free(m);
	pfw_free(w);
	fclose(f);
}

/* Packets are written as events come, not at the end. */
static void test_streaming(void **state)
{
	struct sink_run r;
	long before, start;

	(void)state;
	sink_run_open(&r, &sonde_sink_perfetto, NULL, 1000000000);
	/* the sink's flush op (live views) hands every packet to the file */
	sink_run_put(&r, sink_ev(SONDE_EV_MARK, 1, 1, "m"));
	assert_int_equal(r.ops->flush(r.sink), 0);
	fflush(r.f);
	before = ftell(r.f);
	assert_true(before > 0);
	for (int i = 0; i < 100; i++) {
		sink_run_put(&r, sink_ev(SONDE_EV_MARK, 2 + i, 1, "m"));
		assert_int_equal(r.ops->flush(r.sink), 0);
		fflush(r.f);
		assert_true(ftell(r.f) > before);
		before = ftell(r.f);
	}
	/* without flushes the output still goes out as it is made, in pieces
	 * of at most a few hundred KiB: memory does not grow with the trace */
	start = ftell(r.f);
	for (int i = 0; i < 100000; i++)
		sink_run_put(&r, sink_ev(SONDE_EV_MARK, 200 + i, 1, "m"));
	fflush(r.f);
	assert_true(ftell(r.f) - start > 1000000);
	assert_int_equal(sink_run_close(&r), 0);
	unlink(r.path);
}

/* A write error is reported by finish. */
static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "wb");
	void *s;
	struct sonde_session ss = { .ts_freq = 1000 };
	struct sonde_event e = sink_ev(SONDE_EV_MARK, 1, 1, "m");

	(void)state;
	if (!f)
		skip();
	s = sonde_sink_perfetto.create(f, NULL);
	assert_non_null(s);
	for (int i = 0; i < 10000; i++) /* more than stdio buffers */
		sonde_sink_perfetto.event(s, &e, &ss);
	assert_int_equal(sonde_sink_perfetto.finish(s, &ss), -1);
	sonde_sink_perfetto.destroy(s);
	fclose(f);
}

/* Malformed options make create fail. */
static void test_bad_options(void **state)
{
	static const char *const bad1[] = { "perfetto.max_tracks=lots", NULL };
	static const char *const bad2[] = { "perfetto.sched=maybe", NULL };
	static const char *const bad3[] = { "perfetto.max_depth=0", NULL };
	FILE *f = fopen("/dev/null", "wb");

	(void)state;
	assert_null(sonde_sink_perfetto.create(f, bad1));
	assert_null(sonde_sink_perfetto.create(f, bad2));
	assert_null(sonde_sink_perfetto.create(f, bad3));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_rtos_mapping),
		cmocka_unit_test(test_protoc),
		cmocka_unit_test(test_interning),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_weird_names),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_arg_types),
		cmocka_unit_test(test_long_fields),
		cmocka_unit_test(test_drops_diag_cores),
		cmocka_unit_test(test_drops_only_when_lost),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_deleted_task),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_bad_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
