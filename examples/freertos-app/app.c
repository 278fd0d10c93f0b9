/*
 * app.c -- the FreeRTOS example application (app.h): six tasks, a queue, a
 * binary semaphore given from an interrupt, a mutex that makes a
 * low-priority holder inherit a higher priority, task notifications, a
 * software timer that resumes a self-suspending task, an event group, and a
 * task that deletes itself; allocations from the heap (one fails, one
 * leaks).  It counts what it did, and what the kernel did to its tasks
 * (switches, the state each left in, inheritance, allocations and frees;
 * their stacks' high-water marks at the end), and writes the counts as user
 * records at the end.
 *
 *   task     prio  does
 *   ctrl     4     every 10 ms: take tick_sem (given by the interrupt), take
 *                  and give the mutex bus (at cycle 5 an allocation too big
 *                  for the heap fails), send to work_q (every 8th cycle a
 *                  burst that fills it: some sends fail, one waits), every
 *                  4th cycle set an event bit and notify sleeper with a
 *                  value (overwrite); ends the run: asks the other
 *                  tasks to park (suspend themselves at the top of their
 *                  loop, where their counts are complete), then reports
 *   worker   3     receive from work_q (with a work buffer from the heap
 *                  per item, freed), every 3rd item notify logger
 *   monitor  2     allocates a block it never frees (a leak), then: delay 7
 *                  ticks, peek work_q, wait up to 20 ticks for the event bit
 *   sleeper  2     suspends itself; the timer resumes it
 *   logger   1     wait up to 50 ticks for a notification, then hold bus
 *                  for 12 ticks: ctrl blocks on it, logger inherits prio 4
 *   oneshot  1     delays once, deletes itself
 *   timer "blink", 25 ticks, auto-reload: resumes sleeper
 *
 * app_sets.c adds a queue set and the task that selects from it, deferred
 * calls, failed creations and the deletion of another task.
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "app.h"
#include "sonde.h"
#include "sonde_freertos.h"

/* 1: classify the state each switched-out task leaves in with
 * eTaskGetState() from the switch hook.  That takes a kernel critical
 * section, which the POSIX port allows there; on Cortex-M the hook runs in
 * PendSV, where leaving a critical section would unmask interrupts in the
 * middle of the switch, so that port sets it to 0. */
#ifndef APP_COUNT_STATES
#define APP_COUNT_STATES 1
#endif

#define PRIO_CTRL    4
#define PRIO_WORKER  3
#define PRIO_MONITOR 2
#define PRIO_SLEEPER 2
#define PRIO_LOGGER  1
#define PRIO_ONESHOT 1

#define EV_TICK 0x01u
#define STACK   (configMINIMAL_STACK_SIZE * 2)

static QueueHandle_t work_q;
static SemaphoreHandle_t tick_sem, bus;
static EventGroupHandle_t evts;
static TimerHandle_t blink;
static TaskHandle_t t_ctrl, t_worker, t_logger, t_monitor, t_sleeper, t_oneshot;
static uint32_t n_cycles;

/* ---- counting ------------------------------------------------------------ */

/* Per task: switched in, and the state it left in (eReady, eBlocked,
 * eSuspended, eDeleted) when switched out. */
#define MAX_TASKS 12
struct heap_count {
	uint32_t allocs, failed, frees;
};
struct task_count {
	const void *h;
	uint8_t id; /* its Sonde id, kept: a deleted task has none any more */
	uint32_t in, out[4];
	struct heap_count heap;
};
static struct task_count tasks[MAX_TASKS];
static const void *running;

/* Per object: put (send, give), get (receive, take), peek; ok and failed. */
struct obj_count {
	uint32_t put_ok, put_fail, get_ok, get_fail, peek_ok, peek_fail;
};
static struct obj_count c_q, c_sem, c_bus;
static volatile uint32_t c_inherit, c_disinherit, c_notify, c_notify_take, c_expired, c_resumes,
	c_ev_set, c_ev_ok, c_ev_timeout, c_notify_set, c_notify_set_sum, c_timer_start;

/* The heap: by task (and before the scheduler, by none), the bytes the
 * allocator reported, and the block the monitor leaks on purpose. */
static struct heap_count heap_notask;
static uint32_t heap_bytes;
static void *leaked;
#define HEAP_TOO_BIG ((size_t)-1 / 2u) /* an allocation that fails on purpose, on any heap */

/* The end of the run: ctrl sets stopping, each of the four looping tasks
 * parks once (parked counts them). */
static volatile int stopping;
static volatile uint32_t parked;
#define LOOPING_TASKS 5u /* and app_sets.c's setwait */

static struct task_count *task_slot(const void *h)
{
	unsigned i;

	for (i = 0; i < MAX_TASKS; i++) {
		if (tasks[i].h == h)
			return &tasks[i];
		if (tasks[i].h == NULL) {
			tasks[i].h = h;
			tasks[i].id = (uint8_t)uxTaskGetTaskNumber((TaskHandle_t)h);
			return &tasks[i];
		}
	}
	return NULL;
}

/* Runs inside the kernel's context switch, after the new task was chosen:
 * a different task runs now (the same one running on is no switch). */
void app_hook_switched_in(const void *tcb)
{
	struct task_count *t;

	if (tcb == running)
		return;
	t = task_slot(tcb);
	if (t != NULL)
		t->in++;
#if APP_COUNT_STATES
	if (running != NULL) {
		eTaskState s = eTaskGetState((TaskHandle_t)running);
		struct task_count *p = task_slot(running);

		if (p != NULL && s >= eReady && s <= eDeleted)
			p->out[s - eReady]++;
	}
#endif
	running = tcb;
}

/* Runs inside the allocator (traceMALLOC, traceFREE), the scheduler
 * suspended: the task that runs is the one the switch hook saw last. */
static struct heap_count *heap_of_running(void)
{
	struct task_count *t = running != NULL ? task_slot(running) : NULL;

	return t != NULL ? &t->heap : &heap_notask;
}

void app_hook_malloc(const void *p, size_t size)
{
	struct heap_count *h = heap_of_running();

	if (p == NULL) {
		h->failed++;
		return;
	}
	h->allocs++;
	heap_bytes += (uint32_t)size;
}

void app_hook_free(const void *p)
{
	(void)p;
	heap_of_running()->frees++;
}

static uint32_t c_low_power;

void app_hook_low_power(void)
{
	c_low_power++;
}

void app_hook_inherit(void)
{
	c_inherit++;
}

void app_hook_disinherit(void)
{
	c_disinherit++;
}

static void count(BaseType_t ok, uint32_t *yes, uint32_t *no)
{
	if (ok == pdPASS)
		(*yes)++;
	else
		(*no)++;
}

/* ---- the interrupt ------------------------------------------------------- */

long app_isr(void)
{
	BaseType_t woken = pdFALSE;

	long more = 0;

	count(xSemaphoreGiveFromISR(tick_sem, &woken), &c_sem.put_ok, &c_sem.put_fail);
	app_sets_isr(&more);
	return (long)woken || more;
}

/* ---- tasks --------------------------------------------------------------- */

/* Busy for n ticks, preemptible. */
static void spin_ticks(TickType_t n)
{
	TickType_t t0 = xTaskGetTickCount();

	while (xTaskGetTickCount() - t0 < n)
		;
}

static void report(void);

/* At the top of a task's loop: once the run is stopping, say so (once) and
 * stay suspended. */
static void park_if_stopping(int *acked)
{
	if (!stopping)
		return;
	if (!*acked) {
		*acked = 1;
		taskENTER_CRITICAL();
		parked++;
		taskEXIT_CRITICAL();
	}
	for (;;)
		vTaskSuspend(NULL);
}

void app_park_if_stopping(int *acked)
{
	park_if_stopping(acked);
}

static void ctrl_task(void *arg)
{
	uint32_t i, k;

	(void)arg;
	for (i = 0; i < n_cycles; i++) {
		count(xSemaphoreTake(tick_sem, portMAX_DELAY), &c_sem.get_ok, &c_sem.get_fail);
		count(xSemaphoreTake(bus, portMAX_DELAY), &c_bus.get_ok, &c_bus.get_fail);
		count(xSemaphoreGive(bus), &c_bus.put_ok, &c_bus.put_fail);
		count(xQueueSend(work_q, &i, 0), &c_q.put_ok, &c_q.put_fail);
		if (i == 5u && pvPortMalloc(HEAP_TOO_BIG) != NULL) /* fails on purpose */
			port_end(2);
		if (i % 8u == 7u) {
			/* a burst: the queue (4 items) fills, some sends fail;
			 * the last one waits for room */
			for (k = 0; k < 5u; k++)
				count(xQueueSend(work_q, &k, 0), &c_q.put_ok, &c_q.put_fail);
			count(xQueueSend(work_q, &k, 5), &c_q.put_ok, &c_q.put_fail);
		}
		if (i % 4u == 3u) {
			xEventGroupSetBits(evts, EV_TICK);
			c_ev_set++;
			/* a notification with a value: sleeper never waits
			 * for one, so it only changes its notification value */
			(void)xTaskNotify(t_sleeper, i, eSetValueWithOverwrite);
			c_notify_set++;
			c_notify_set_sum += i;
		}
		app_sets_cycle(i);
	}
	stopping = 1;
	/* wake the worker, which waits on the queue without a timeout */
	count(xQueueSend(work_q, &i, portMAX_DELAY), &c_q.put_ok, &c_q.put_fail);
	while (parked < LOOPING_TASKS)
		app_delay(1);
	report();
}

static void worker_task(void *arg)
{
	uint8_t *p;
	uint32_t v, n = 0;
	int acked = 0;

	(void)arg;
	for (;;) {
		park_if_stopping(&acked);
		count(xQueueReceive(work_q, &v, portMAX_DELAY), &c_q.get_ok, &c_q.get_fail);
		/* a work buffer per item, freed when done */
		p = pvPortMalloc(8u + (v % 4u) * 8u);
		if (p == NULL)
			port_end(2);
		*p = (uint8_t)v;
		vPortFree(p);
		if (++n % 3u == 0u) {
			xTaskNotifyGive(t_logger);
			c_notify++;
		}
	}
}

static void monitor_task(void *arg)
{
	uint32_t v;
	int acked = 0;

	(void)arg;
	leaked = pvPortMalloc(100); /* never freed: the leak the trace must show */
	if (leaked == NULL)
		port_end(2);
	for (;;) {
		park_if_stopping(&acked);
		app_delay(7);
		count(xQueuePeek(work_q, &v, 0), &c_q.peek_ok, &c_q.peek_fail);
		if (xEventGroupWaitBits(evts, EV_TICK, pdTRUE, pdFALSE, 20) & EV_TICK)
			c_ev_ok++;
		else
			c_ev_timeout++;
	}
}

static void sleeper_task(void *arg)
{
	int acked = 0;

	(void)arg;
	for (;;) {
		park_if_stopping(&acked);
		vTaskSuspend(NULL);
	}
}

static void logger_task(void *arg)
{
	int acked = 0;

	(void)arg;
	for (;;) {
		park_if_stopping(&acked);
		(void)ulTaskNotifyTake(pdTRUE, 50);
		c_notify_take++;
		count(xSemaphoreTake(bus, portMAX_DELAY), &c_bus.get_ok, &c_bus.get_fail);
		spin_ticks(12);
		count(xSemaphoreGive(bus), &c_bus.put_ok, &c_bus.put_fail);
	}
}

static void oneshot_task(void *arg)
{
	(void)arg;
	app_delay(3);
	vTaskDelete(NULL);
}

static void blink_cb(TimerHandle_t t)
{
	(void)t;
	c_expired++;
	if (eTaskGetState(t_sleeper) == eSuspended) {
		c_resumes++;
		vTaskResume(t_sleeper);
	}
}

/* ---- set-up and the report ----------------------------------------------- */

void app_dict(void)
{
	sonde_dict(SONDE_DICT_ISR, APP_ISR_ID, "tick_isr");
	sonde_dict(SONDE_DICT_RECORD, APP_REC_TASK, "APP_TASK");
	sonde_dict(SONDE_DICT_RECORD, APP_REC_OBJ, "APP_OBJ");
	sonde_dict(SONDE_DICT_RECORD, APP_REC_RUN, "APP_RUN");
	app_sets_dict();
	sonde_dict(SONDE_DICT_RECORD, APP_REC_HEAP, "APP_HEAP");
	sonde_dict(SONDE_DICT_RECORD, APP_REC_THEAP, "APP_THEAP");
	sonde_dict(SONDE_DICT_RECORD, APP_REC_LOWPOWER, "APP_LOWPOWER");
}

static void must(int ok)
{
	if (!ok)
		port_end(2);
}

void app_start(uint32_t cycles)
{
	n_cycles = cycles;
	work_q = xQueueCreate(4, sizeof(uint32_t));
	tick_sem = xSemaphoreCreateBinary();
	bus = xSemaphoreCreateMutex();
	evts = xEventGroupCreate();
	blink = xTimerCreate("blink", 25, pdTRUE, NULL, blink_cb);
	must(work_q && tick_sem && bus && evts && blink);
	vQueueAddToRegistry(work_q, "work_q");
	vQueueAddToRegistry(tick_sem, "tick_sem");
	vQueueAddToRegistry(bus, "bus");
	sonde_frtos_name(evts, "events");
	must(xTaskCreate(ctrl_task, "ctrl", STACK, NULL, PRIO_CTRL, &t_ctrl) == pdPASS);
	must(xTaskCreate(worker_task, "worker", STACK, NULL, PRIO_WORKER, &t_worker) == pdPASS);
	must(xTaskCreate(monitor_task, "monitor", STACK, NULL, PRIO_MONITOR, &t_monitor) == pdPASS);
	must(xTaskCreate(sleeper_task, "sleeper", STACK, NULL, PRIO_SLEEPER, &t_sleeper) == pdPASS);
	must(xTaskCreate(logger_task, "logger", STACK, NULL, PRIO_LOGGER, &t_logger) == pdPASS);
	must(xTaskCreate(oneshot_task, "oneshot", STACK, NULL, PRIO_ONESHOT, &t_oneshot) == pdPASS);
	must(xTimerStart(blink, 0) == pdPASS);
	c_timer_start++;
	app_sets_start();
}

static void put_task(const struct task_count *t)
{
	unsigned i;

	if (sonde_user_begin(APP_REC_TASK)) {
		sonde_arg_obj(t->id);
		sonde_arg_u32(t->in);
		for (i = 0; i < 4u; i++)
			sonde_arg_u32(t->out[i]);
		sonde_user_end();
	}
}

/* A task's heap operations and its free stack now (not asked of a task
 * deleted, by itself or by another, nor of none). */
static void put_theap(uint8_t id, const void *h, const struct heap_count *c)
{
	uint32_t stack = 0xFFFFFFFFu;

	if (h != NULL && h != t_oneshot && !app_sets_deleted(h))
		stack = (uint32_t)uxTaskGetStackHighWaterMark((TaskHandle_t)h) * (uint32_t)sizeof(StackType_t);
	if (sonde_user_begin(APP_REC_THEAP)) {
		sonde_arg_obj(id);
		sonde_arg_u32(c->allocs);
		sonde_arg_u32(c->failed);
		sonde_arg_u32(c->frees);
		sonde_arg_u32(stack);
		sonde_user_end();
	}
}

static void put_heap(void)
{
	struct heap_count all = heap_notask;
	unsigned i;

	for (i = 0; i < MAX_TASKS && tasks[i].h != NULL; i++) {
		all.allocs += tasks[i].heap.allocs;
		all.failed += tasks[i].heap.failed;
		all.frees += tasks[i].heap.frees;
	}
	if (sonde_user_begin(APP_REC_HEAP)) {
		sonde_arg_u32(all.allocs);
		sonde_arg_u32(all.failed);
		sonde_arg_u32(all.frees);
		sonde_arg_u32(heap_bytes);
		sonde_arg_u32((uint32_t)(uintptr_t)leaked);
		sonde_arg_obj(sonde_frtos_id(t_monitor));
		sonde_user_end();
	}
	if (sonde_user_begin(APP_REC_LOWPOWER)) {
		sonde_arg_u32(c_low_power);
		sonde_user_end();
	}
	put_theap(0u, NULL, &heap_notask);
	for (i = 0; i < MAX_TASKS && tasks[i].h != NULL; i++)
		put_theap(tasks[i].id, tasks[i].h, &tasks[i].heap);
}

static void put_obj(const void *h, const struct obj_count *c, UBaseType_t level)
{
	if (sonde_user_begin(APP_REC_OBJ)) {
		sonde_arg_obj(sonde_frtos_id(h));
		sonde_arg_u32(c->put_ok);
		sonde_arg_u32(c->put_fail);
		sonde_arg_u32(c->get_ok);
		sonde_arg_u32(c->get_fail);
		sonde_arg_u32(c->peek_ok);
		sonde_arg_u32(c->peek_fail);
		sonde_arg_u32((uint32_t)level);
		sonde_user_end();
	}
}

/* The end: nothing else runs or records from here.  The buffer is drained
 * first, so that the report overwrites nothing and the statistics in it
 * are the totals the host must find (the loss report that a drained
 * buffer lets through comes first). */
static void report(void)
{
	sonde_stats_t st;
	unsigned i;
	const uint32_t run[] = { c_inherit, c_disinherit, c_notify, c_notify_take, c_expired,
				 c_resumes, c_ev_set, c_ev_ok, c_ev_timeout, c_notify_set, c_notify_set_sum,
				 c_timer_start };

	/* the stacks of the tasks that ran since the idle task last looked */
	sonde_frtos_stack_poll();
	taskENTER_CRITICAL();
	port_drain(1);
	/* the names again (TARGET_INFO, every object, the application's): a
	 * buffer that overflowed has lost the first ones */
	sonde_send_info();
	/* and again: the names and the report together outgrow a 1 KiB
	 * buffer (the overflow runs of the POSIX test) */
	port_drain(1);
	for (i = 0; i < MAX_TASKS && tasks[i].h != NULL; i++)
		put_task(&tasks[i]);
	put_obj(work_q, &c_q, uxQueueMessagesWaiting(work_q));
	put_obj(tick_sem, &c_sem, uxQueueMessagesWaiting(tick_sem));
	put_obj(bus, &c_bus, uxQueueMessagesWaiting(bus));
	put_heap();
	sonde_get_stats(&st);
	if (sonde_user_begin(APP_REC_RUN)) {
		sonde_arg_u32(st.records);
		sonde_arg_u32(st.overwritten);
		sonde_arg_u32(st.refused);
		sonde_arg_u32(st.bytes);
		for (i = 0; i < sizeof run / sizeof run[0]; i++)
			sonde_arg_u32(run[i]);
		sonde_user_end();
	}
	app_sets_report();
	port_drain(1);
	port_end(0);
}
