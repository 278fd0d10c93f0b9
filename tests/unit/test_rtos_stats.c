/*
 * test_rtos_stats.c -- the RTOS figures of `sonde stats` (analysis/
 * rtos_stats.c) from hand-built events: time per task state, switches,
 * blocks, the idle task (announced, or named by IDLE), a mutex's
 * creation, notifications, waits attributed to the
 * object waited on, mutex hold times, operation counts and levels, and a
 * sequence gap that stops time from being counted across a loss.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/rtos_stats.h"
#include "core/rtos_desc.h" /* SONDE_OP_INIT */
#include "sink_run.h" /* sink_ev */
#include "sonde_proto.h"

static struct rtos_stats rs;
static struct sonde_listener li;

static void send(const struct sonde_event *e)
{
	li.event(li.ctx, e, NULL);
}

static void put(enum sonde_ev_kind k, uint64_t ts, uint64_t obj, const char *name, uint64_t obj2)
{
	struct sonde_event e = sink_ev(k, ts, obj, name);

	e.obj2 = obj2;
	send(&e);
}

/* TASK_OUT of a task that waits on object obj. */
static void put_wait(uint64_t ts, uint64_t task, uint64_t reason, uint64_t obj)
{
	struct sonde_event e = sink_ev(SONDE_EV_TASK_OUT, ts, task, NULL);

	e.obj2 = reason;
	e.flags = SONDE_EVF_REF;
	e.ref = obj;
	send(&e);
}

static void put_op(uint64_t ts, uint64_t obj, const char *name, uint64_t kind, uint32_t op, int64_t level)
{
	struct sonde_event e = sink_ev(SONDE_EV_OBJ_OP, ts, obj, name);

	e.obj2 = kind;
	e.op = op;
	e.value = level;
	e.flags = SONDE_EVF_LEVEL;
	send(&e);
}

static const struct rtos_task *task(uint64_t id)
{
	for (size_t i = 0; i < rs.ntasks; i++)
		if (rs.tasks[i].key.id == id)
			return &rs.tasks[i];
	fail_msg("task %llu not followed", (unsigned long long)id);
	return NULL;
}

static const struct rtos_obj *obj(uint64_t id)
{
	for (size_t i = 0; i < rs.nobjs; i++)
		if (rs.objs[i].key.id == id)
			return &rs.objs[i];
	fail_msg("object %llu not followed", (unsigned long long)id);
	return NULL;
}

static void setup_run(void)
{
	rtos_stats_free(&rs);
	rtos_stats_init(&rs);
	li = rtos_stats_listener(&rs);
}

/* Two tasks and the idle task, a queue and a mutex:
 *   t=0   A (prio 2), B (prio 1), IDLE created: ready
 *   t=10  A runs
 *   t=20  A takes the mutex m, sends to q (level 1)
 *   t=30  A waits to receive from q2 ... B runs
 *   t=50  B receives from q (level 0), gives nothing yet
 *   t=60  B is preempted, idle runs
 *   t=100 A ready (its wait on q2 lasted 70), runs at 105
 *   t=110 A gives m (held 90), delays; idle runs */
static void test_states_waits_holds(void **state)
{
	const struct rtos_task *a, *b, *idle;
	const struct rtos_obj *q, *q2, *m;
	struct sonde_event e;

	(void)state;
	setup_run();
	put(SONDE_EV_TASK_CREATE, 0, 1, "A", 2);
	put(SONDE_EV_TASK_CREATE, 0, 2, "B", 1);
	put(SONDE_EV_TASK_CREATE, 0, 3, "IDLE", 0);
	put(SONDE_EV_OBJECT, 0, 3, "IDLE", SONDE_OBJK_IDLE_TASK);
	put(SONDE_EV_TASK_IN, 10, 1, "A", 0);
	put_op(20, 7, "m", SONDE_OBJK_MUTEX, SONDE_OP_RECEIVE, 0);
	put_op(20, 8, "q", SONDE_OBJK_QUEUE, SONDE_OP_SEND, 1);
	put_wait(30, 1, SONDE_TASK_WAIT_RECV, 9);
	put(SONDE_EV_TASK_IN, 30, 2, "B", 0);
	put_op(50, 8, "q", SONDE_OBJK_QUEUE, SONDE_OP_RECEIVE, 0);
	put_op(55, 8, "q", SONDE_OBJK_QUEUE, SONDE_OP_RECEIVE | SONDE_OP_F_FAILED, 0);
	put(SONDE_EV_TASK_OUT, 60, 2, "B", SONDE_TASK_PREEMPTED);
	put(SONDE_EV_IDLE, 60, 0, NULL, 0);
	put(SONDE_EV_TASK_READY, 100, 1, "A", 0);
	put(SONDE_EV_TASK_IN, 105, 1, "A", 0);
	put_op(110, 7, "m", SONDE_OBJK_MUTEX, SONDE_OP_SEND, 1);
	put(SONDE_EV_TASK_OUT, 110, 1, "A", SONDE_TASK_DELAYED);
	put(SONDE_EV_IDLE, 110, 0, NULL, 0);
	e = sink_ev(SONDE_EV_MARK, 200, 0, NULL); /* the end of the trace, at 200 */
	send(&e);
	assert_true(rs.seen);

	a = task(1);
	assert_string_equal(a->name, "A");
	assert_int_equal(a->in_state[RTOS_ST_READY], 10 + 5);
	assert_int_equal(a->in_state[RTOS_ST_RUNNING], 20 + 5);
	assert_int_equal(a->in_state[RTOS_ST_BLOCKED], 70); /* 30..100; delayed from 110 still open */
	assert_int_equal(a->switches, 2);
	assert_int_equal(a->blocks, 2);
	b = task(2);
	assert_int_equal(b->in_state[RTOS_ST_READY], 30);
	assert_int_equal(b->in_state[RTOS_ST_RUNNING], 30);
	idle = task(3);
	assert_int_equal(idle->switches, 2);
	assert_int_equal(idle->in_state[RTOS_ST_RUNNING], 45);  /* 60..105; the last run still open */
	assert_int_equal(idle->in_state[RTOS_ST_READY], 60 + 5);

	q = obj(8);
	assert_int_equal(q->ops[0][0], 1);
	assert_int_equal(q->ops[1][0], 1);
	assert_int_equal(q->ops[1][1], 1);
	assert_int_equal(q->max_level, 1);
	assert_int_equal(q->waits, 0);
	q2 = obj(9);
	assert_int_equal(q2->waits, 1);
	assert_int_equal(q2->wait_sum, 70);
	assert_int_equal(q2->wait_max, 70);
	m = obj(7);
	assert_int_equal(m->kind, SONDE_OBJK_MUTEX);
	assert_int_equal(m->holds, 1);
	assert_int_equal(m->hold_sum, 90);
	assert_int_equal(m->held_by, 1);
}

/* After a sequence gap nothing is counted until a task's next event. */
static void test_loss(void **state)
{
	struct sonde_diag d;

	(void)state;
	setup_run();
	put(SONDE_EV_TASK_CREATE, 0, 1, "A", 2);
	put(SONDE_EV_TASK_IN, 10, 1, "A", 0);
	put_wait(20, 1, SONDE_TASK_WAIT_RECV, 9);
	memset(&d, 0, sizeof(d));
	d.code = SONDE_D_SEQ_GAP;
	d.count = 5;
	li.diag(li.ctx, &d, NULL);
	put(SONDE_EV_TASK_IN, 500, 1, "A", 0);      /* ran again: the wait's end was lost */
	put(SONDE_EV_TASK_OUT, 520, 1, "A", SONDE_TASK_PREEMPTED);
	assert_int_equal(task(1)->in_state[RTOS_ST_BLOCKED], 0);
	assert_int_equal(task(1)->in_state[RTOS_ST_RUNNING], 10 + 20);
	assert_int_equal(obj(9)->waits, 0);
}

/* A mutex's creation (the kernel's give inside it) is no operation; a
 * notification is the task's, not an object's; IDLE that names the idle
 * task runs it without an OBJECT announcing it. */
static void test_create_notify_idle(void **state)
{
	struct sonde_event e;

	(void)state;
	setup_run();
	put_op(5, 7, "m", SONDE_OBJK_MUTEX, SONDE_OP_INIT, 1);
	put(SONDE_EV_TASK_IN, 10, 1, "A", 0);
	put_op(20, 7, "m", SONDE_OBJK_MUTEX, SONDE_OP_RECEIVE, 0);
	put_op(30, 7, "m", SONDE_OBJK_MUTEX, SONDE_OP_SEND, 1);
	e = sink_ev(SONDE_EV_OBJ_OP, 35, 1, "A");
	e.op = SONDE_OP_NOTIFY_SET_VALUE;
	e.value = 7;
	send(&e);
	e = sink_ev(SONDE_EV_IDLE, 40, 0, NULL);
	e.flags = SONDE_EVF_REF;
	e.ref = 3;
	e.ref_name = "IDLE";
	send(&e);
	put(SONDE_EV_TASK_IN, 70, 1, "A", 0);
	assert_int_equal(obj(7)->ops[0][0], 1); /* the give at 30 only */
	assert_int_equal(obj(7)->ops[1][0], 1);
	assert_int_equal(obj(7)->other_ops, 0);
	assert_int_equal(obj(7)->max_level, 1);
	assert_int_equal(rs.nobjs, 1);          /* the notification made no object */
	assert_int_equal(task(3)->switches, 1);
	assert_int_equal(task(3)->in_state[RTOS_ST_RUNNING], 30);
}

/* The report: both tables, names or numbers; nothing without RTOS events. */
static void test_print(void **state)
{
	char buf[4096];
	FILE *f;
	size_t n;

	(void)state;
	setup_run();
	put(SONDE_EV_TASK_IN, 10, 1, "A", 0);
	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(rtos_stats_print(&rs, 1000000, f), 0);
	assert_int_equal(ftell(f), 0);
	fclose(f);
	put_op(20, 8, NULL, SONDE_OBJK_QUEUE, SONDE_OP_SEND, 3);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(rtos_stats_print(&rs, 1000000, f), 0);
	n = (size_t)ftell(f);
	fclose(f);
	buf[n < sizeof(buf) ? n : sizeof(buf) - 1] = 0;
	assert_non_null(strstr(buf, "RTOS tasks, time in us"));
	assert_non_null(strstr(buf, "\nA "));
	assert_non_null(strstr(buf, "\n#8               queue"));
	assert_non_null(strstr(buf, " 1/0 "));

	/* the same as JSON lines (times in ticks): the queue has no name, its
	 * kind has; failed creations by kind and the API table as the
	 * listener would have counted them */
	rs.create_failed[SONDE_OBJK_QUEUE] = 2;
	rs.api[4].calls = 3; /* xQueueReceive */
	rs.api[4].rets = 2;
	rs.api[4].zero = 1;
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(rtos_stats_json(&rs, f), 0);
	n = (size_t)ftell(f);
	fclose(f);
	buf[n < sizeof(buf) ? n : sizeof(buf) - 1] = 0;
	assert_string_equal(buf,
		"{\"type\":\"rtos\",\"tasks\":1,\"objects\":1,\"untracked\":0,\"create_failed\":{\"queue\":2}}\n"
		"{\"type\":\"rtos_task\",\"name\":\"A\",\"id\":1,\"core\":0,\"running\":10,\"ready\":0,"
		"\"blocked\":0,\"suspended\":0,\"switches\":1,\"blocks\":0,\"stack_min\":null,"
		"\"low_power\":{\"count\":0,\"time\":0}}\n"
		"{\"type\":\"rtos_object\",\"name\":null,\"kind\":\"queue\",\"id\":8,\"core\":0,\"put\":[1,0],"
		"\"get\":[0,0],\"peek\":[0,0],\"other\":0,\"max_level\":3,\"waits\":0,\"wait_total\":0,"
		"\"wait_max\":0,\"holds\":0,\"hold_total\":0,\"hold_max\":0}\n"
		"{\"type\":\"rtos_api\",\"name\":\"xQueueReceive\",\"id\":4,\"calls\":3,\"returned\":2,\"zero\":1}\n");
}

static int teardown(void **state)
{
	(void)state;
	rtos_stats_free(&rs);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states_waits_holds),
		cmocka_unit_test(test_loss),
		cmocka_unit_test(test_create_notify_idle),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
