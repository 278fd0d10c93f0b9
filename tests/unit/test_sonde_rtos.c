/*
 * test_sonde_rtos.c -- the Sonde decoder's RTOS records (docs/protocol.md
 * section 4.1) from frames built by hand: TASK_SWITCH into TASK_OUT (with
 * the state and the object waited on) and TASK_IN or IDLE, OBJ_CREATE into
 * TASK_CREATE or OBJECT, OBJ_OP into OBJ_OP with the level after the
 * operation, TASK_PRIO, and OBJECT for deletion; malformed values,
 * lengths, and a target reset.  Every test runs on protocol version 2 and
 * on version 1 (the same fields after a 2-byte timestamp: the decoder
 * reads them from the split DATA either way, although no version-1 target
 * sent them).  test_target_roundtrip has the real target library write
 * them (version 2) with 0x7D/0x7E in every field, at gaps of every
 * timestamp width, and checks what the decoder makes of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sonde.h"
#include "sonde_posix.h"
#include "tgt_frames.h" /* the fake clock */
#include "rtos_desc.h"
#include "sonde_proto.h"
#include "sonde_rtos.h"
#include "test_sonde_helpers.h"

#define T0 0x1000000ULL

static unsigned version; /* of the group running */

static void start(struct tstream *s)
{
	ts_init_v(s, 0, version);
	ts_session(s, 1000000, 4);
	ts_sync(s, T0, TS_UNKNOWN);
}

static void rec(struct tstream *s, uint8_t id, uint64_t t, const uint8_t *d, size_t n)
{
	ts_timed(s, id, t, d, n);
}

#define REC(s, id, t, ...)                                        \
	do {                                                      \
		static const uint8_t d_[] = { __VA_ARGS__ };      \
		rec((s), (id), (t), d_, sizeof d_);               \
	} while (0)

/* Events after the session's EMPTY, TARGET_INFO and TIME_SYNC. */
#define FIRST 3

static const struct targ *arg(const struct tev *e, const char *name)
{
	for (size_t i = 0; i < e->nargs; i++)
		if (e->args[i].has_name && strcmp(e->args[i].name, name) == 0)
			return &e->args[i];
	return NULL;
}

static void assert_str_arg(const struct tev *e, const char *name, const char *want)
{
	const struct targ *a = arg(e, name);

	assert_non_null(a);
	assert_int_equal(a->type, SONDE_A_STR);
	assert_int_equal(a->memn, strlen(want));
	assert_memory_equal(a->mem, want, a->memn);
}

static void test_task_switch(void **state)
{
	struct tstream s;
	struct trec r;
	const struct tev *e;

	(void)state;
	start(&s);
	ts_dict(&s, SONDE_DICT_TASK, 40, "ctrl");
	ts_dict(&s, SONDE_DICT_TASK, 41, "worker");
	ts_dict(&s, SONDE_DICT_OBJECT, 32, "work_q");
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 5, 40, SONDE_TASK_WAIT_RECV, 32, 41);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 9, 41, SONDE_TASK_WAIT_NOTIFY, 2, 40);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 12, 40, SONDE_TASK_PREEMPTED, 0, 41);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 3 + 6);

	e = &r.ev[FIRST + 3];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_OUT);
	assert_string_equal(e->rec_name, "TASK_OUT");
	assert_int_equal(e->ev.rec_id, SONDE_REC_TASK_SWITCH);
	assert_int_equal(e->ev.flags, SONDE_EVF_PART | SONDE_EVF_REF);
	assert_int_equal(e->ev.ts, T0 + 5);
	assert_int_equal(e->ev.obj, 40);
	assert_string_equal(e->obj_name, "ctrl");
	assert_int_equal(e->ev.obj2, SONDE_TASK_WAIT_RECV);
	assert_string_equal(e->obj2_name, "waiting to receive");
	assert_int_equal(e->ev.ref, 32);
	assert_string_equal(e->ref_name, "work_q");
	assert_int_equal(arg(e, "waits_on")->u, 32);
	assert_string_equal(arg(e, "waits_on")->resolved, "work_q");

	e = &r.ev[FIRST + 4];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_IN);
	assert_string_equal(e->rec_name, "TASK_SWITCH");
	assert_int_equal(e->ev.flags, 0);
	assert_int_equal(e->ev.obj, 41);
	assert_string_equal(e->obj_name, "worker");
	assert_int_equal(e->ev.offset, r.ev[FIRST + 3].ev.offset); /* one frame */

	/* a notification: the index is an argument, not an object */
	e = &r.ev[FIRST + 5];
	assert_int_equal(e->ev.obj2, SONDE_TASK_WAIT_NOTIFY);
	assert_int_equal(e->ev.flags, SONDE_EVF_PART);
	assert_int_equal(arg(e, "index")->u, 2);
	assert_null(arg(e, "waits_on"));

	e = &r.ev[FIRST + 7];
	assert_int_equal(e->ev.obj2, SONDE_TASK_PREEMPTED);
	assert_string_equal(e->obj2_name, "preempted");
	assert_int_equal(e->nargs, 0);
	trec_free(&r);

	/* waiting on a semaphore or mutex is waiting to take (or give) it;
	 * the event says the object's kind */
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 13, 33, SONDE_OBJK_MUTEX, 1);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 14, 41, SONDE_TASK_WAIT_RECV, 33, 40);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 15, 40, SONDE_TASK_WAIT_SEND, 33, 41);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	e = &r.ev[r.nev - 4];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_OUT);
	assert_int_equal(e->ev.op, SONDE_OBJK_MUTEX);
	assert_string_equal(e->obj2_name, "waiting to take");
	assert_string_equal(r.ev[r.nev - 2].obj2_name, "waiting to give");
	assert_int_equal(r.ev[FIRST + 3].ev.op, 0); /* work_q: kind not known here */
	trec_free(&r);
	tb_free(&s.wire);
}

/* The idle task (announced with its kind): switching to it is IDLE,
 * leaving it is no TASK_OUT. */
static void test_idle_task(void **state)
{
	struct tstream s;
	struct trec r;
	const struct tev *e;

	(void)state;
	start(&s);
	ts_dict(&s, SONDE_DICT_TASK, 50, "IDLE");
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 1, 50, SONDE_OBJK_TASK);                      /* created: prio 0 */
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 2, 50, SONDE_OBJK_IDLE_TASK | SONDE_OBJK_ANNOUNCED);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 3, 40, SONDE_TASK_DELAYED, 0, 50);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 4, 50, SONDE_TASK_PREEMPTED, 0, 40);
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 1 + 2 + 2 + 1);

	e = &r.ev[FIRST + 1];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_CREATE);
	assert_string_equal(e->rec_name, "OBJ_CREATE");
	assert_int_equal(e->ev.obj, 50);
	assert_int_equal(e->ev.obj2, 0);
	e = &r.ev[FIRST + 2];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJECT);
	assert_int_equal(e->ev.op, SONDE_OBJ_ANNOUNCED);
	assert_int_equal(e->ev.obj2, SONDE_OBJK_IDLE_TASK);
	assert_string_equal(e->obj2_name, "idle task");
	assert_string_equal(e->obj_name, "IDLE");
	assert_str_arg(e, "op", "announced");

	assert_int_equal(r.ev[FIRST + 3].ev.kind, SONDE_EV_TASK_OUT);
	assert_int_equal(r.ev[FIRST + 3].ev.obj2, SONDE_TASK_DELAYED);
	assert_int_equal(r.ev[FIRST + 3].ev.flags, SONDE_EVF_PART);
	e = &r.ev[FIRST + 4];
	assert_int_equal(e->ev.kind, SONDE_EV_IDLE);
	assert_string_equal(e->rec_name, "TASK_SWITCH");
	assert_int_equal(arg(e, "task")->u, 50);
	assert_string_equal(arg(e, "task")->resolved, "IDLE");
	/* the idle task named as the event's ref: every output names it */
	assert_true(e->ev.flags & SONDE_EVF_REF);
	assert_int_equal(e->ev.ref, 50);
	assert_string_equal(e->ref_name, "IDLE");
	e = &r.ev[FIRST + 5];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_IN);
	assert_int_equal(e->ev.obj, 40);
	trec_free(&r);

	/* a target reset forgets which task is idle */
	ts_session(&s, 1000000, 4);
	ts_sync(&s, T0, TS_UNKNOWN);
	REC(&s, SONDE_REC_TASK_SWITCH, T0 + 3, 40, SONDE_TASK_DELAYED, 0, 50);
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	e = &r.ev[r.nev - 1];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_IN);
	assert_int_equal(e->ev.obj, 50);
	trec_free(&r);
	tb_free(&s.wire);
}

/* The capacity in 0..4 bytes; OBJECT for objects; TASK_CREATE for tasks. */
static void test_obj_create(void **state)
{
	struct tstream s;
	struct trec r;
	const struct tev *e;

	(void)state;
	start(&s);
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 1, 32, SONDE_OBJK_QUEUE, 4);
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 2, 33, SONDE_OBJK_STREAM_BUFFER, 0x45, 0x23, 0x01, 0x00);
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 3, 34, SONDE_OBJK_COUNTING_SEM, 0x2C, 0x01);
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 4, 35, SONDE_OBJK_TASK, 3);
	REC(&s, SONDE_REC_OBJ_CREATE, T0 + 5, 36, SONDE_OBJK_EVENT_GROUP);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 5);
	e = &r.ev[FIRST];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJECT);
	assert_string_equal(e->rec_name, "OBJ_CREATE");
	assert_int_equal(e->ev.op, SONDE_OBJ_CREATED);
	assert_int_equal(e->ev.obj, 32);
	assert_int_equal(e->ev.obj2, SONDE_OBJK_QUEUE);
	assert_string_equal(e->obj2_name, "queue");
	assert_int_equal(e->ev.value, 4);
	assert_str_arg(e, "op", "created");
	assert_int_equal(r.ev[FIRST + 1].ev.value, 0x12345);
	assert_string_equal(r.ev[FIRST + 1].obj2_name, "stream buffer");
	assert_int_equal(r.ev[FIRST + 2].ev.value, 300);
	e = &r.ev[FIRST + 3];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_CREATE);
	assert_int_equal(e->ev.obj, 35);
	assert_int_equal(e->ev.obj2, 3);
	assert_int_equal(r.ev[FIRST + 4].ev.value, 0);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Queue operations carry the items before them; the event has the level
 * after (send +1 unless the queue was full, which only an overwrite does;
 * receive -1; peek and failures unchanged).  Stream buffers carry the
 * bytes after.  Semaphores and mutexes give and take. */
static void test_levels(void **state)
{
	static const struct {
		uint8_t obj, op, before;
		int64_t after;
		const char *name;
		int isr, failed;
	} cases[] = {
		{ 32, SONDE_OP_SEND, 0, 1, "send", 0, 0 },
		{ 32, SONDE_OP_SEND | SONDE_OP_F_ISR, 3, 4, "send", 1, 0 },
		{ 32, SONDE_OP_SEND | SONDE_OP_F_FAILED, 4, 4, "send", 0, 1 },
		{ 33, SONDE_OP_SEND, 1, 1, "send", 0, 0 },     /* overwrite of a full 1-item queue */
		{ 32, SONDE_OP_RECEIVE, 4, 3, "receive", 0, 0 },
		{ 32, SONDE_OP_RECEIVE | SONDE_OP_F_FAILED | SONDE_OP_F_ISR, 0, 0, "receive", 1, 1 },
		{ 32, SONDE_OP_PEEK, 3, 3, "peek", 0, 0 },
		{ 34, SONDE_OP_SEND, 0, 1, "create", 0, 0 },   /* the kernel's give inside the creation */
		{ 34, SONDE_OP_RECEIVE, 1, 0, "take", 0, 0 },
		{ 34, SONDE_OP_SEND, 0, 1, "give", 0, 0 },
		{ 35, SONDE_OP_SEND, 200, 200, "send", 0, 0 }, /* stream buffer: bytes after */
		{ 36, SONDE_OP_SEND, 5, 6, "send", 0, 0 },     /* kind unknown (joined late) */
	};
	struct tstream s;
	struct trec r;
	size_t i;

	(void)state;
	start(&s);
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 32, SONDE_OBJK_QUEUE, 4);
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 33, SONDE_OBJK_QUEUE, 1);
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 34, SONDE_OBJK_MUTEX, 1);
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 35, SONDE_OBJK_STREAM_BUFFER, 0, 1);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t d[4] = { cases[i].op, cases[i].obj, cases[i].before, 0 };

		rec(&s, SONDE_REC_OBJ_OP, T0 + i, d, sizeof d);
	}
	REC(&s, SONDE_REC_OBJ_OP, T0 + 20, SONDE_OP_RESET, 32);
	t_decode(s.wire.p, s.wire.n, T_RANDOM, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 4 + sizeof cases / sizeof cases[0] + 1);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct tev *e = &r.ev[FIRST + 4 + i];

		assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
		assert_int_equal(e->ev.obj, cases[i].obj);
		assert_int_equal(e->ev.op, strcmp(cases[i].name, "create") ? cases[i].op : SONDE_OP_INIT);
		assert_true(e->ev.flags & SONDE_EVF_LEVEL);
		assert_int_equal(e->ev.value, cases[i].after);
		assert_str_arg(e, "op", cases[i].name);
		assert_int_equal(arg(e, "isr") != NULL, cases[i].isr);
		assert_int_equal(arg(e, "failed") != NULL, cases[i].failed);
	}
	{
		const struct tev *e = &r.ev[r.nev - 1];

		assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
		assert_int_equal(e->ev.value, 0);
		assert_true(e->ev.flags & SONDE_EVF_LEVEL);
		assert_str_arg(e, "op", "reset");
	}
	trec_free(&r);
	tb_free(&s.wire);
}

/* After a loss, a new mutex's first give may be any give (the creation's,
 * and the take before a later give, may be among the lost): it is one. */
static void test_create_after_loss(void **state)
{
	struct tstream s;
	struct trec r;

	(void)state;
	start(&s);
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 34, SONDE_OBJK_MUTEX, 1);
	ts_skip_seq(&s, 2);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 5, SONDE_OP_SEND, 34, 0, 0);
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	assert_int_equal(t_count_diags(&r, SONDE_D_SEQ_GAP), 1);
	assert_int_equal(r.ev[r.nev - 1].ev.kind, SONDE_EV_OBJ_OP);
	assert_int_equal(r.ev[r.nev - 1].ev.op, SONDE_OP_SEND);
	assert_str_arg(&r.ev[r.nev - 1], "op", "give");
	trec_free(&r);
	tb_free(&s.wire);
}

/* Priorities, notifications, timers, deletion. */
static void test_other_ops(void **state)
{
	struct tstream s;
	struct trec r;
	const struct tev *e;

	(void)state;
	start(&s);
	ts_dict(&s, SONDE_DICT_TASK, 42, "logger");
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 37, SONDE_OBJK_TIMER, 25);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 1, SONDE_OP_PRIO_INHERIT, 42, 4);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 2, SONDE_OP_PRIO_DISINHERIT, 42, 1);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 3, SONDE_OP_NOTIFY | SONDE_OP_F_ISR, 42, 0);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 4, SONDE_OP_TIMER_EXPIRED, 37);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 5, SONDE_OP_SET_BITS, 38, 0x01, 0x00, 0x80, 0x00);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 6, SONDE_OP_DELETE, 37);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 7, SONDE_OP_TIMER_EXPIRED, 37);
	/* notifications with their action and value; timer commands named,
	 * an older target's (FreeRTOS's code in TIMER_COMMAND) too */
	REC(&s, SONDE_REC_OBJ_OP, T0 + 8, SONDE_OP_NOTIFY_SET_VALUE_KEEP | SONDE_OP_F_FAILED, 42, 0x78, 0x56, 0x34, 0x12);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 9, SONDE_OP_NOTIFY_INCREMENT | SONDE_OP_F_ISR, 42, 0);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 10, SONDE_OP_TIMER_CHANGE_PERIOD, 39, 50, 0, 0, 0);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 11, SONDE_OP_TIMER_COMMAND | SONDE_OP_F_ISR, 39, 8);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 12, SONDE_OP_TIMER_COMMAND, 39, 5);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 2 + 7 + 5);
	e = &r.ev[FIRST + 2];
	assert_int_equal(e->ev.kind, SONDE_EV_TASK_PRIO);
	assert_int_equal(e->ev.obj, 42);
	assert_string_equal(e->obj_name, "logger");
	assert_int_equal(e->ev.value, 4);
	assert_int_equal(e->ev.op, SONDE_OP_PRIO_INHERIT);
	assert_string_equal(e->obj2_name, "priority inherit");
	assert_int_equal(r.ev[FIRST + 3].ev.op, SONDE_OP_PRIO_DISINHERIT);
	assert_int_equal(r.ev[FIRST + 3].ev.value, 1);
	e = &r.ev[FIRST + 4];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
	assert_int_equal(e->ev.flags, SONDE_EVF_REF);
	assert_int_equal(e->ev.ref, 42);
	assert_string_equal(e->ref_name, "logger");
	assert_str_arg(e, "op", "notify");
	assert_non_null(arg(e, "isr"));
	e = &r.ev[FIRST + 5];
	assert_int_equal(e->ev.obj2, SONDE_OBJK_TIMER);
	assert_str_arg(e, "op", "timer expired");
	assert_int_equal(e->ev.flags, 0);
	e = &r.ev[FIRST + 6];
	assert_int_equal(e->ev.value, 0x800001);
	assert_int_equal(e->ev.flags, 0); /* bits are no level */
	e = &r.ev[FIRST + 7];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJECT);
	assert_int_equal(e->ev.op, SONDE_OBJ_DELETED);
	assert_int_equal(e->ev.obj2, SONDE_OBJK_TIMER);
	assert_int_equal(e->ev.value, 25);
	assert_int_equal(r.ev[FIRST + 8].ev.obj2, 0); /* forgotten */
	e = &r.ev[FIRST + 9];
	assert_int_equal(e->ev.ref, 42);
	assert_string_equal(e->obj_name, "logger");
	assert_int_equal(e->ev.value, 0x12345678);
	assert_str_arg(e, "op", "notify set value no overwrite");
	assert_non_null(arg(e, "failed"));
	e = &r.ev[FIRST + 10];
	assert_str_arg(e, "op", "notify increment");
	assert_non_null(arg(e, "isr"));
	e = &r.ev[FIRST + 11];
	assert_str_arg(e, "op", "timer change period");
	assert_int_equal(e->ev.value, 50);
	e = &r.ev[FIRST + 12];
	assert_int_equal(e->ev.op, SONDE_OP_TIMER_STOP | SONDE_OP_F_ISR);
	assert_str_arg(e, "op", "timer stop");
	assert_non_null(arg(e, "isr"));
	assert_int_equal(r.ev[FIRST + 13].ev.op, SONDE_OP_TIMER_DELETE);
	assert_str_arg(&r.ev[FIRST + 13], "op", "timer delete");
	trec_free(&r);
	tb_free(&s.wire);
}

/* Queue sets, deferred calls, failed creations and API spans (records
 * 0x1A-0x1C, OBJ_OP SET_SEND). */
static void test_sets_pend_api(void **state)
{
	struct tstream s;
	struct trec r;
	const struct tev *e;

	(void)state;
	start(&s);
	ts_dict(&s, SONDE_DICT_OBJECT, 44, "qset");
	ts_dict(&s, SONDE_DICT_OBJECT, 45, "set_q");
	ts_dict(&s, SONDE_DICT_FUNCTION, 0x8000, "pend_fn"); /* named by id here, by an ELF elsewhere */
	/* a set its creation did not show as one (V10): a queue of 3 */
	REC(&s, SONDE_REC_OBJ_CREATE, T0, 44, SONDE_OBJK_QUEUE, 3);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 1, SONDE_OP_SET_SEND, 44, 45, 1, 0, 0, 0);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 2, SONDE_OP_RECEIVE, 44, 2, 0);
	REC(&s, SONDE_REC_PEND_CALL, T0 + 3, SONDE_OP_F_ISR | SONDE_OP_F_FAILED, 0x00, 0x80, 0, 0);
	REC(&s, SONDE_REC_PEND_CALL, T0 + 4, 0, 0x34, 0x12, 0, 0);
	REC(&s, SONDE_REC_CREATE_FAILED, T0 + 5, SONDE_OBJK_STREAM_BUFFER);
	/* xQueueSemaphoreTake (7) returned 1 around vTaskDelay (13): nested */
	REC(&s, SONDE_REC_API, T0 + 6, 7);
	REC(&s, SONDE_REC_API, T0 + 7, 13);
	REC(&s, SONDE_REC_API, T0 + 8, 13 | 0x80);
	REC(&s, SONDE_REC_API, T0 + 9, 7 | 0x80, 1);
	REC(&s, SONDE_REC_API, T0 + 10, 20 | 0x80, 0x01, 0x00, 0x00, 0x80); /* 4 value bytes */
	REC(&s, SONDE_REC_OBJ_OP, T0 + 11, SONDE_OP_SET_ADD | SONDE_OP_F_FAILED, 45, 44);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	assert_int_equal(r.nev, FIRST + 3 + 12);
	e = &r.ev[FIRST + 4];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
	assert_int_equal(e->ev.obj2, SONDE_OBJK_QUEUE_SET);
	assert_string_equal(e->obj2_name, "queue set");
	assert_int_equal(e->ev.value, 2); /* 1 before, one more */
	assert_true(e->ev.flags & SONDE_EVF_LEVEL);
	assert_str_arg(e, "op", "signal");
	assert_int_equal(arg(e, "member")->u, 45);
	assert_string_equal(arg(e, "member")->resolved, "set_q");
	assert_int_equal(arg(e, "before")->u, 1);
	e = &r.ev[FIRST + 5];
	assert_str_arg(e, "op", "receive");
	assert_int_equal(e->ev.value, 1);
	e = &r.ev[FIRST + 6];
	assert_int_equal(e->ev.kind, SONDE_EV_RECORD);
	assert_string_equal(e->rec_name, "PEND_CALL");
	assert_int_equal(arg(e, "function")->type, SONDE_A_FUNC);
	assert_int_equal(arg(e, "function")->u, 0x8000);
	assert_string_equal(arg(e, "function")->resolved, "pend_fn");
	assert_non_null(arg(e, "isr"));
	assert_non_null(arg(e, "failed"));
	e = &r.ev[FIRST + 7];
	assert_int_equal(arg(e, "function")->u, 0x1234);
	assert_false(arg(e, "function")->has_resolved);
	assert_null(arg(e, "isr"));
	assert_null(arg(e, "failed"));
	e = &r.ev[FIRST + 8];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJECT);
	assert_int_equal(e->ev.op, SONDE_OBJ_CREATE_FAILED);
	assert_int_equal(e->ev.obj2, SONDE_OBJK_STREAM_BUFFER);
	assert_true(e->ev.flags & SONDE_EVF_NO_OBJ);
	assert_str_arg(e, "op", "create failed");
	e = &r.ev[FIRST + 9];
	assert_int_equal(e->ev.kind, SONDE_EV_FUNC_ENTER);
	assert_int_equal(e->ev.obj, RTOS_API_FN(7));
	assert_string_equal(e->obj_name, "xQueueSemaphoreTake");
	assert_int_equal(e->ev.value, 1);
	assert_false(e->ev.flags & SONDE_EVF_ADDR);
	e = &r.ev[FIRST + 10];
	assert_string_equal(e->obj_name, "vTaskDelay");
	assert_int_equal(e->ev.value, 2);
	e = &r.ev[FIRST + 11];
	assert_int_equal(e->ev.kind, SONDE_EV_FUNC_EXIT);
	assert_string_equal(e->obj_name, "vTaskDelay");
	assert_null(arg(e, "ret")); /* it returns nothing */
	e = &r.ev[FIRST + 12];
	assert_int_equal(e->ev.kind, SONDE_EV_FUNC_EXIT);
	assert_string_equal(e->obj_name, "xQueueSemaphoreTake");
	assert_int_equal(e->ev.value, 1);
	assert_int_equal(arg(e, "ret")->u, 1);
	e = &r.ev[FIRST + 13];
	assert_string_equal(e->obj_name, "xEventGroupSetBits");
	assert_int_equal(arg(e, "ret")->u, 0x80000001u);
	e = &r.ev[FIRST + 14];
	assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
	assert_string_equal(e->obj_name, "set_q");
	assert_str_arg(e, "op", "add to set");
	assert_int_equal(arg(e, "set")->u, 44);
	assert_string_equal(arg(e, "set")->resolved, "qset");
	assert_non_null(arg(e, "failed"));
	assert_false(e->ev.flags & SONDE_EVF_LEVEL);
	trec_free(&r);

	/* unknown API ids and kinds are reported at their byte, entries
	 * with a value and OBJ_OP values of 5 bytes but SET_SEND's too */
	tb_free(&s.wire);
	start(&s);
	REC(&s, SONDE_REC_API, T0 + 1, 120);
	REC(&s, SONDE_REC_API, T0 + 2, 7, 1);
	REC(&s, SONDE_REC_CREATE_FAILED, T0 + 3, 99);
	REC(&s, SONDE_REC_OBJ_OP, T0 + 4, SONDE_OP_SEND, 5, 1, 2, 3, 4, 5);
	t_decode(s.wire.p, s.wire.n, T_BYTES, &r);
	assert_int_equal(t_count_diags(&r, SONDE_D_MALFORMED), 4);
	assert_int_equal(r.nev, FIRST + 3);
	assert_int_equal(r.ev[FIRST].ev.obj, RTOS_API_FN(120));
	assert_int_equal(r.ev[FIRST + 2].ev.obj2, 99);
	trec_free(&r);
	tb_free(&s.wire);
}

/* Unknown codes are reported at their byte and shown as numbers; wrong
 * lengths are reported and the frame skipped. */
static void test_malformed(void **state)
{
	struct tstream s;
	struct trec r;
	size_t f_state, f_kind, f_op, f_short, f_long;

	(void)state;
	start(&s);
	f_state = ts_timed(&s, SONDE_REC_TASK_SWITCH, T0 + 1, (const uint8_t[]){ 1, 99, 0, 2 }, 4);
	f_kind = ts_timed(&s, SONDE_REC_OBJ_CREATE, T0 + 2, (const uint8_t[]){ 5, 0x7F, 1 }, 3);
	f_op = ts_timed(&s, SONDE_REC_OBJ_OP, T0 + 3, (const uint8_t[]){ 0x3F, 5 }, 2);
	f_short = ts_timed(&s, SONDE_REC_TASK_SWITCH, T0 + 4, (const uint8_t[]){ 1, 0, 0 }, 3);
	f_long = ts_timed(&s, SONDE_REC_OBJ_OP, T0 + 5, (const uint8_t[]){ 1, 5, 1, 2, 3, 4, 5 }, 7);
	t_decode(s.wire.p, s.wire.n, T_WHOLE, &r);
	assert_int_equal(t_count_diags(&r, SONDE_D_MALFORMED), 5);
	assert_int_equal(r.dg[0].frame, f_state);
	/* the state byte: after SEQ, ID (and version 1's timestamp), out */
	assert_int_equal(r.dg[0].offset, s.starts[f_state] + 2 + ts_fields_at(&s) + 1);
	assert_int_equal(r.dg[1].offset, s.starts[f_kind] + 2 + ts_fields_at(&s) + 1);
	assert_int_equal(r.dg[2].offset, s.starts[f_op] + 2 + ts_fields_at(&s));
	assert_int_equal(r.dg[1].frame, f_kind);
	assert_int_equal(r.dg[2].frame, f_op);
	assert_int_equal(r.dg[3].frame, f_short);
	assert_int_equal(r.dg[4].frame, f_long);
	/* the first three still give their events, the last two none */
	assert_int_equal(r.nev, FIRST + 2 + 1 + 1);
	assert_int_equal(r.ev[FIRST].ev.obj2, 99);
	assert_false(r.ev[FIRST].has_obj2_name);
	assert_int_equal(r.ev[FIRST + 2].ev.obj2, 0x7F);
	assert_false(r.ev[FIRST + 2].has_obj2_name);
	assert_int_equal(r.ev[FIRST + 3].ev.op, 0x3F);
	assert_int_equal(arg(&r.ev[FIRST + 3], "op")->u, 0x3F);
	trec_free(&r);
	tb_free(&s.wire);
}

/* ---- the real target's records, decoded ----------------------------------- */


static const struct tev *next_ev(const struct trec *r, size_t *i)
{
	while (*i < r->nev && (r->ev[*i].ev.kind == SONDE_EV_TIME_SYNC || r->ev[*i].ev.kind == SONDE_EV_INFO ||
			       r->ev[*i].ev.kind == SONDE_EV_DICT))
		(*i)++;
	assert_true(*i < r->nev);
	return &r->ev[(*i)++];
}

static void expect_ev(const struct tev *e, enum sonde_ev_kind kind, uint64_t ts, uint64_t obj, uint64_t obj2,
		      int64_t value)
{
	assert_int_equal(e->ev.kind, kind);
	assert_int_equal(e->ev.ts_flags, SONDE_TS_VALID);
	assert_int_equal(e->ev.ts, ts);
	assert_int_equal(e->ev.obj, obj);
	assert_int_equal(e->ev.obj2, obj2);
	assert_int_equal(e->ev.value, value);
}

static void test_target_roundtrip(void **state)
{
	static uint8_t ring[4096];
	uint8_t wire[4096];
	uint64_t t[10];
	struct trec r;
	const struct tev *e;
	size_t n, i = 0;

	(void)state;
	tgt_fake_clock(0xFFFFFF00u); /* the 32-bit clock wraps on the way */
	sonde_init(ring, sizeof ring, SONDE_MODE_DROP_NEW);
	sonde_dict(SONDE_DICT_OBJECT, 0x7E, "q~");
	sonde_dict(SONDE_DICT_TASK, 0x7D, "task}");
	tgt_tick(1);
	sonde_obj_create(0x7E, SONDE_OBJK_QUEUE, 0x7E);
	t[0] = tgt_now64;
	tgt_tick(0x7E);
	sonde_obj_create(0x7D, SONDE_OBJK_TASK, 3);
	t[1] = tgt_now64;
	tgt_tick(0x7D00);
	sonde_obj_create(0x20, SONDE_OBJK_EVENT_GROUP, 0);
	t[2] = tgt_now64;
	tgt_tick(70000);
	sonde_task_switch(0x7D, SONDE_TASK_WAIT_RECV, 0x7E, 0x10);
	t[3] = tgt_now64;
	tgt_tick(0xFFFFFFF);
	sonde_obj_op16(SONDE_OP_SEND, 0x7E, 0x7D);
	t[4] = tgt_now64;
	tgt_tick(0x10000000); /* a TIME_SYNC first (rule 2) */
	sonde_obj_op16(SONDE_OP_RECEIVE | SONDE_OP_F_ISR, 0x7E, 0x7E);
	t[5] = tgt_now64;
	tgt_tick(0x7C);
	sonde_obj_op8(SONDE_OP_PRIO_INHERIT, 0x7D, 0x7E);
	t[6] = tgt_now64;
	tgt_tick(2);
	sonde_obj_op32(SONDE_OP_SET_BITS, 0x20, 0x7E7D7E7Du);
	t[7] = tgt_now64;
	tgt_tick(0x7E7D);
	sonde_obj_op(SONDE_OP_RESUME, 0x7D);
	t[8] = tgt_now64;
	tgt_tick(3);
	sonde_task_switch_w(0x7D00027Eu); /* out 0x7E (not a task known: shown by number) */
	t[9] = tgt_now64;
	n = sonde_drain(wire, sizeof wire);
	sonde_posix_set_clock(NULL);

	t_decode(wire, n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_OBJECT, t[0], 0x7E, SONDE_OBJK_QUEUE, 0x7E);
	assert_string_equal(e->obj_name, "q~");
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_TASK_CREATE, t[1], 0x7D, 3, 0);
	assert_string_equal(e->obj_name, "task}");
	expect_ev(next_ev(&r, &i), SONDE_EV_OBJECT, t[2], 0x20, SONDE_OBJK_EVENT_GROUP, 0);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_TASK_OUT, t[3], 0x7D, SONDE_TASK_WAIT_RECV, 0);
	assert_int_equal(e->ev.ref, 0x7E);
	assert_string_equal(e->ref_name, "q~");
	expect_ev(next_ev(&r, &i), SONDE_EV_TASK_IN, t[3], 0x10, 0, 0);
	/* levels after the operation: 0x7D before a send, 0x7E before a receive */
	expect_ev(next_ev(&r, &i), SONDE_EV_OBJ_OP, t[4], 0x7E, SONDE_OBJK_QUEUE, 0x7E);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_OBJ_OP, t[5], 0x7E, SONDE_OBJK_QUEUE, 0x7D);
	assert_int_equal(e->ev.op, SONDE_OP_RECEIVE | SONDE_OP_F_ISR);
	assert_int_equal(arg(e, "isr")->u, 1);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_TASK_PRIO, t[6], 0x7D, SONDE_OP_PRIO_INHERIT, 0x7E);
	expect_ev(next_ev(&r, &i), SONDE_EV_OBJ_OP, t[7], 0x20, SONDE_OBJK_EVENT_GROUP, 0x7E7D7E7D);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_OBJ_OP, t[8], 0x7D, SONDE_OBJK_TASK, 0);
	assert_int_equal(e->ev.op, SONDE_OP_RESUME);
	e = next_ev(&r, &i);
	expect_ev(e, SONDE_EV_TASK_OUT, t[9], 0x7E, SONDE_TASK_SUSPENDED, 0);
	expect_ev(next_ev(&r, &i), SONDE_EV_TASK_IN, t[9], 0x7D, 0, 0);
	assert_int_equal(i, r.nev);
	trec_free(&r);
}

static int v2(void **state)
{
	(void)state;
	version = SONDE_PROTO_VERSION;
	return 0;
}

static int v1(void **state)
{
	(void)state;
	version = SONDE_PROTO_VERSION_1;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_switch),
		cmocka_unit_test(test_idle_task),
		cmocka_unit_test(test_obj_create),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_create_after_loss),
		cmocka_unit_test(test_other_ops),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_sets_pend_api),
	};
	/* the target writes version 2 only */
	const struct CMUnitTest target[] = {
		cmocka_unit_test(test_target_roundtrip),
	};

	return cmocka_run_group_tests_name("protocol version 2", tests, v2, NULL) |
	       cmocka_run_group_tests_name("protocol version 1", tests, v1, NULL) |
	       cmocka_run_group_tests_name("the target library's records", target, v2, NULL);
}
