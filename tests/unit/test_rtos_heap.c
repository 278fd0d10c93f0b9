/*
 * test_rtos_heap.c -- the heap, stack and tickless-idle records
 * (docs/protocol.md section 4.1: HEAP_ALLOC, HEAP_FREE, OBJ_OP STACK_FREE
 * and LOW_POWER_BEGIN/END) end to end on the host: written by the real
 * target library, decoded (the heap in use after each operation, from the
 * blocks allocated: a free that does not say its size, a failed
 * allocation, a free of a block never seen), counted by `sonde stats`
 * (allocations, failures and frees by task, the blocks still allocated at
 * the end with the task and time, the least free stack, the time in low
 * power, and the printed section), and drawn by the Chrome JSON export
 * (counters `heap` and `<task> stack free`, `Low power` slices).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/rtos_stats.h"
#include "sink_run.h"
#include "sonde.h"
#include "sonde_posix.h"
#include "tgt_frames.h" /* the fake clock */
#include "sonde_rtos.h"
#include "test_sonde_helpers.h"

extern const struct sonde_sink_ops sonde_sink_chrome;

#define CTRL 40
#define IDLE 41


static const struct tev *next_ev(const struct trec *r, size_t *i)
{
	while (*i < r->nev && (r->ev[*i].ev.kind == SONDE_EV_TIME_SYNC || r->ev[*i].ev.kind == SONDE_EV_INFO ||
			       r->ev[*i].ev.kind == SONDE_EV_DICT))
		(*i)++;
	assert_true(*i < r->nev);
	return &r->ev[(*i)++];
}

static const struct targ *arg(const struct tev *e, const char *name)
{
	for (size_t i = 0; i < e->nargs; i++)
		if (e->args[i].has_name && strcmp(e->args[i].name, name) == 0)
			return &e->args[i];
	return NULL;
}

/* A heap event: its operation, the bytes in use after it, the block. */
static void expect_heap(const struct tev *e, uint64_t ts, uint32_t op, int64_t in_use, uint64_t addr, uint64_t size)
{
	assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
	assert_int_equal(e->ev.ts, ts);
	assert_int_equal(e->ev.obj, SONDE_OBJ_HEAP);
	assert_string_equal(e->obj_name, "heap");
	assert_int_equal(e->ev.obj2, 0);
	assert_string_equal(e->obj2_name, "heap");
	assert_int_equal(e->ev.op, op);
	assert_true(e->ev.flags & SONDE_EVF_LEVEL);
	assert_int_equal(e->ev.value, in_use);
	assert_int_equal(arg(e, "address")->u, addr);
	assert_int_equal(arg(e, "size")->u, size);
	assert_int_equal(arg(e, "failed") != NULL, (op & SONDE_OP_F_FAILED) != 0);
}

static void expect_task_op(const struct tev *e, uint64_t ts, uint64_t task, uint32_t op, int64_t value,
			   const char *name)
{
	const struct targ *a = arg(e, "op");

	assert_int_equal(e->ev.kind, SONDE_EV_OBJ_OP);
	assert_int_equal(e->ev.ts, ts);
	assert_int_equal(e->ev.obj, task);
	assert_int_equal(e->ev.op, op);
	assert_int_equal(e->ev.value, value);
	assert_int_equal(e->ev.ref, task); /* an operation on the task */
	assert_non_null(a);
	assert_int_equal(a->memn, strlen(name));
	assert_memory_equal(a->mem, name, a->memn);
}

/* The target library writes the records (0x7D and 0x7E in the fields, to
 * be escaped); the decoder keeps the heap in use. */
static void test_target_roundtrip(void **state)
{
	static uint8_t ring[4096];
	uint8_t wire[4096];
	uint64_t t[10];
	struct trec r;
	size_t n, i = 0;

	(void)state;
	tgt_fake_clock(1000);
	sonde_init(ring, sizeof ring, SONDE_MODE_DROP_NEW);
	sonde_dict(SONDE_DICT_TASK, CTRL, "ctrl");
	sonde_obj_create(CTRL, SONDE_OBJK_TASK, 4);
	sonde_obj_create(IDLE, SONDE_OBJK_IDLE_TASK, 0);
	tgt_tick(5);
	sonde_heap_alloc((const void *)(uintptr_t)0x20007E00u, 0x7D);
	t[0] = tgt_now64;
	tgt_tick(5);
	sonde_heap_alloc((const void *)(uintptr_t)0x20001000u, 300);
	t[1] = tgt_now64;
	tgt_tick(5);
	sonde_heap_alloc(NULL, 100000); /* failed */
	t[2] = tgt_now64;
	tgt_tick(5);
	sonde_heap_free((const void *)(uintptr_t)0x20007E00u, 0); /* heap_3: no size */
	t[3] = tgt_now64;
	tgt_tick(5);
	sonde_heap_free((const void *)(uintptr_t)0x30000000u, 64); /* allocated before the trace */
	t[4] = tgt_now64;
	tgt_tick(5);
	sonde_obj_op16(SONDE_OP_STACK_FREE, CTRL, 0x7E7D);
	t[5] = tgt_now64;
	tgt_tick(5);
	sonde_obj_op32(SONDE_OP_STACK_FREE, CTRL, 70000);
	t[6] = tgt_now64;
	tgt_tick(5);
	sonde_obj_op32(SONDE_OP_LOW_POWER_BEGIN, IDLE, 25);
	t[7] = tgt_now64;
	tgt_tick(25000);
	sonde_obj_op(SONDE_OP_LOW_POWER_END, IDLE);
	t[8] = tgt_now64;
	n = sonde_drain(wire, sizeof wire);
	sonde_posix_set_clock(NULL);

	t_decode(wire, n, T_BYTES, &r);
	assert_int_equal(r.ndg, 0);
	next_ev(&r, &i); /* the two OBJ_CREATEs */
	next_ev(&r, &i);
	expect_heap(next_ev(&r, &i), t[0], SONDE_OP_HEAP_ALLOC, 0x7D, 0x20007E00u, 0x7D);
	expect_heap(next_ev(&r, &i), t[1], SONDE_OP_HEAP_ALLOC, 0x7D + 300, 0x20001000u, 300);
	expect_heap(next_ev(&r, &i), t[2], SONDE_OP_HEAP_ALLOC | SONDE_OP_F_FAILED, 0x7D + 300, 0, 100000);
	/* the size is the allocation's */
	expect_heap(next_ev(&r, &i), t[3], SONDE_OP_HEAP_FREE, 300, 0x20007E00u, 0x7D);
	/* an unknown block: its own size said, nothing in use changes */
	expect_heap(next_ev(&r, &i), t[4], SONDE_OP_HEAP_FREE, 300, 0x30000000u, 64);
	expect_task_op(next_ev(&r, &i), t[5], CTRL, SONDE_OP_STACK_FREE, 0x7E7D, "stack free");
	expect_task_op(next_ev(&r, &i), t[6], CTRL, SONDE_OP_STACK_FREE, 70000, "stack free");
	expect_task_op(next_ev(&r, &i), t[7], IDLE, SONDE_OP_LOW_POWER_BEGIN, 25, "low power begin");
	expect_task_op(next_ev(&r, &i), t[8], IDLE, SONDE_OP_LOW_POWER_END, 0, "low power end");
	assert_int_equal(i, r.nev);
	trec_free(&r);
}

/* ---- sonde stats -------------------------------------------------------- */

static struct rtos_stats rs;
static struct sonde_listener li;
static struct sonde_session ses;

static void send(const struct sonde_event *e)
{
	li.event(li.ctx, e, &ses);
}

static void put_task(enum sonde_ev_kind k, uint64_t ts, uint64_t task, const char *name)
{
	struct sonde_event e = sink_ev(k, ts, task, name);

	send(&e);
}

/* A heap event as the decoder makes it. */
static void put_heap(uint64_t ts, uint32_t op, int64_t in_use, uint64_t addr, uint64_t size)
{
	struct sonde_arg a[2] = {
		{ .type = SONDE_A_HEX, .name = "address", .v.u = addr },
		{ .type = SONDE_A_U32, .name = "size", .v.u = size },
	};
	struct sonde_event e = sink_ev(SONDE_EV_OBJ_OP, ts, SONDE_OBJ_HEAP, "heap");

	e.op = op;
	e.value = in_use;
	e.flags = SONDE_EVF_LEVEL;
	e.args = a;
	e.nargs = 2;
	send(&e);
}

static void put_task_op(uint64_t ts, uint64_t task, const char *name, uint32_t op, int64_t value)
{
	struct sonde_event e = sink_ev(SONDE_EV_OBJ_OP, ts, task, name);

	e.op = op;
	e.value = value;
	e.flags = SONDE_EVF_REF;
	e.ref = task;
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

static void leak(const struct heap_block *b, void *ctx)
{
	char *s = ctx;

	snprintf(s + strlen(s), 256 - strlen(s), "%llx:%llu:%llu:%llu;", (unsigned long long)b->addr,
		 (unsigned long long)b->size, (unsigned long long)b->task, (unsigned long long)b->ts);
}

static void test_stats(void **state)
{
	char leaks[256] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	rtos_stats_init(&rs);
	li = rtos_stats_listener(&rs);
	memset(&ses, 0, sizeof(ses));
	ses.have_origin = 1;
	ses.origin = 100;
	/* before the scheduler: no task */
	put_heap(110, SONDE_OP_HEAP_ALLOC, 40, 0x1000, 40);
	put_task(SONDE_EV_TASK_IN, 200, CTRL, "ctrl");
	put_heap(210, SONDE_OP_HEAP_ALLOC, 140, 0x2000, 100);
	put_heap(220, SONDE_OP_HEAP_ALLOC | SONDE_OP_F_FAILED, 140, 0, 5000);
	put_heap(230, SONDE_OP_HEAP_ALLOC, 172, 0x3000, 32);
	put_heap(240, SONDE_OP_HEAP_FREE, 140, 0x3000, 32);
	put_heap(250, SONDE_OP_HEAP_FREE, 140, 0x9000, 0); /* never seen allocated */
	put_task_op(260, CTRL, "ctrl", SONDE_OP_STACK_FREE, 800);
	put_task_op(270, CTRL, "ctrl", SONDE_OP_STACK_FREE, 600);
	put_task_op(280, CTRL, "ctrl", SONDE_OP_STACK_FREE, 700); /* a host that joined late: the least stays */
	{
		struct sonde_event e = sink_ev(SONDE_EV_IDLE, 300, 0, NULL);

		e.flags = SONDE_EVF_REF;
		e.ref = IDLE;
		e.ref_name = "IDLE";
		send(&e);
	}
	put_heap(310, SONDE_OP_HEAP_FREE, 40, 0x2000, 0); /* the idle task frees ctrl's block */
	put_task_op(400, IDLE, "IDLE", SONDE_OP_LOW_POWER_BEGIN, 10);
	put_task_op(1400, IDLE, "IDLE", SONDE_OP_LOW_POWER_END, 0);
	put_task_op(2000, IDLE, "IDLE", SONDE_OP_LOW_POWER_END, 0); /* no begin: nothing */
	put_task_op(3000, IDLE, "IDLE", SONDE_OP_LOW_POWER_BEGIN, 10);
	put_task_op(3500, IDLE, "IDLE", SONDE_OP_LOW_POWER_END, 0);

	const struct rtos_task *c = task(CTRL), *idle = task(IDLE);
	const struct rtos_heap_use *uc = &rs.heap_use[c - rs.tasks], *ui = &rs.heap_use[idle - rs.tasks];

	assert_int_equal(rs.notask_heap.allocs, 1);
	assert_int_equal(rs.notask_heap.bytes_alloc, 40);
	assert_int_equal(uc->allocs, 2);
	assert_int_equal(uc->failed, 1);
	assert_int_equal(uc->frees, 2);
	assert_int_equal(uc->bytes_alloc, 132);
	assert_int_equal(uc->bytes_freed, 32);
	assert_int_equal(ui->frees, 1);
	assert_int_equal(rs.heap_max, 172);
	/* still allocated: the block from before the scheduler, no task,
	 * at 10 ticks into the trace */
	assert_int_equal(rs.heap.n, 1);
	assert_int_equal(rs.heap.bytes, 40);
	heapmap_each(&rs.heap, leak, leaks);
	assert_string_equal(leaks, "1000:40:0:10;");
	assert_true(c->stack_seen);
	assert_int_equal(c->stack_min, 600);
	assert_false(idle->stack_seen);
	assert_int_equal(idle->lp_count, 2);
	assert_int_equal(idle->lp_sum, 1500);

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(rtos_stats_print(&rs, 1000000, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "stack min\n"));
	assert_non_null(strstr(text, "low power: IDLE 2 times, 1500.0 us in all\n"));
	assert_non_null(strstr(text, "RTOS heap, bytes: in use at the end 40, most in use 172\n"));
	assert_non_null(strstr(text, "\nNo task                 1        0        0           40            0\n"));
	assert_non_null(strstr(text, "\nctrl                    2        1        2          132           32\n"));
	assert_non_null(strstr(text, "still allocated at the end: 1 blocks, 40 bytes"));
	assert_non_null(strstr(text, "\n0x00001000         40  No task                    10.0\n"));
	free(text);

	/* the same figures as JSON lines (sonde stats --format jsonl), times in ticks */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(rtos_stats_json(&rs, f), 0);
	fclose(f);
	assert_string_equal(text,
		"{\"type\":\"rtos\",\"tasks\":2,\"objects\":0,\"untracked\":0,\"create_failed\":{}}\n"
		/* ctrl ran 200..300, then was ready (preempted by IDLE) to the last event at 3500 */
		"{\"type\":\"rtos_task\",\"name\":\"ctrl\",\"id\":40,\"core\":0,\"running\":100,\"ready\":3200,"
		"\"blocked\":0,\"suspended\":0,\"switches\":1,\"blocks\":0,\"stack_min\":600,"
		"\"low_power\":{\"count\":0,\"time\":0}}\n"
		"{\"type\":\"rtos_task\",\"name\":\"IDLE\",\"id\":41,\"core\":0,\"running\":3200,\"ready\":0,"
		"\"blocked\":0,\"suspended\":0,\"switches\":1,\"blocks\":0,\"stack_min\":null,"
		"\"low_power\":{\"count\":2,\"time\":1500}}\n"
		"{\"type\":\"rtos_heap\",\"in_use\":40,\"max_in_use\":172,\"blocks\":1,\"blocks_not_followed\":0}\n"
		"{\"type\":\"rtos_heap_task\",\"task\":\"No task\",\"task_id\":null,\"allocs\":1,\"failed\":0,\"frees\":0,"
		"\"allocated\":40,\"freed\":0}\n"
		"{\"type\":\"rtos_heap_task\",\"task\":\"ctrl\",\"task_id\":40,\"allocs\":2,\"failed\":1,\"frees\":2,"
		"\"allocated\":132,\"freed\":32}\n"
		"{\"type\":\"rtos_heap_task\",\"task\":\"IDLE\",\"task_id\":41,\"allocs\":0,\"failed\":0,\"frees\":1,"
		"\"allocated\":0,\"freed\":0}\n"
		"{\"type\":\"rtos_heap_block\",\"address\":4096,\"size\":40,\"task\":\"No task\",\"task_id\":null,\"ts\":10}\n");
	free(text);
	rtos_stats_free(&rs);
}

/* ---- the Chrome JSON export ----------------------------------------------- */

static void test_chrome(void **state)
{
	struct sink_run r;
	struct sonde_event e;
	char *out;

	(void)state;
	sink_run_open(&r, &sonde_sink_chrome, NULL, 1000000);
	e = sink_ev(SONDE_EV_TASK_CREATE, 100, CTRL, "ctrl");
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_TASK_IN, 110, CTRL, "ctrl");
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_OBJ_OP, 120, SONDE_OBJ_HEAP, "heap");
	e.op = SONDE_OP_HEAP_ALLOC;
	e.value = 4321;
	e.flags = SONDE_EVF_LEVEL;
	sink_run_put(&r, e);
	e = sink_ev(SONDE_EV_OBJ_OP, 130, CTRL, "ctrl");
	e.op = SONDE_OP_STACK_FREE;
	e.value = 1234;
	e.flags = SONDE_EVF_REF;
	e.ref = CTRL;
	sink_run_put(&r, e);
	e.op = SONDE_OP_LOW_POWER_BEGIN;
	e.ts = 140;
	e.value = 10;
	sink_run_put(&r, e);
	e.op = SONDE_OP_LOW_POWER_END;
	e.ts = 150;
	sink_run_put(&r, e);
	assert_int_equal(sink_run_close(&r), 0);
	out = sink_run_read(r.path, NULL);
	unlink(r.path);
	assert_non_null(out);
	/* the heap in use and the free stack as counters, the malloc an
	 * instant on the task that called, low power a slice */
	assert_non_null(strstr(out, "{\"ph\":\"C\",\"pid\":1,\"ts\":120.000,\"name\":\"heap\",\"args\":{\"value\":4321}}"));
	assert_non_null(strstr(out, "{\"ph\":\"i\",\"pid\":1,\"tid\":1001,\"ts\":120.000,\"s\":\"t\",\"cat\":\"rtos\","
				   "\"name\":\"malloc heap\""));
	assert_non_null(strstr(out, "{\"ph\":\"C\",\"pid\":1,\"ts\":130.000,\"name\":\"ctrl stack free\","
				   "\"args\":{\"value\":1234}}"));
	assert_non_null(strstr(out, "\"tid\":1003,\"name\":\"thread_name\",\"args\":{\"name\":\"ctrl low power\"}}"));
	assert_non_null(strstr(out, "{\"ph\":\"B\",\"pid\":1,\"tid\":1003,\"ts\":140.000,\"cat\":\"rtos\","
				   "\"name\":\"Low power\",\"args\":{\"expected_ticks\":10}}"));
	assert_non_null(strstr(out, "{\"ph\":\"E\",\"pid\":1,\"tid\":1003,\"ts\":150.000,\"name\":\"Low power\"}"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_roundtrip),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_chrome),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
