/*
 * app_sets.c -- the FreeRTOS example's queue set, deferred function calls,
 * failed creations, deletion of another task and API call counts (app.h):
 * what the kernel hooks of issue 18's second part trace, and the
 * application's own count of each, written at the end as the record
 * APP_SETS that check_freertos.py compares with the decoded trace.
 *
 *   task     prio  does
 *   setwait  2     waits up to 30 ticks on the queue set qset (members:
 *                  the queue set_q and the binary semaphore set_sem), then
 *                  receives from or takes the member the set names
 *   victim   1     delays 2 ticks, forever: ctrl deletes it (vTaskDelete of
 *                  another task) when APP_DELETE_OTHER is 1 -- the Cortex-M3
 *                  port; the POSIX port can hang in vPortCancelThread()
 *                  there (docs/freertos.md), so that example leaves it out
 *
 * ctrl (app.c) calls app_sets_cycle() every 10 ms cycle: a send to set_q
 * (cycle % 5 == 1), a give of set_sem (cycle % 5 == 3), a deferred call
 * (cycle % 6 == 2, xTimerPendFunctionCall); the interrupt makes deferred
 * calls from the ISR (app_sets_isr(): some fail).  At the start two creations fail on
 * purpose (a queue and a stream buffer larger than the heap).
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"
#include "timers.h"

#include "app.h"
#include "sonde.h"
#include "sonde_freertos.h"

#ifndef APP_DELETE_OTHER
#define APP_DELETE_OTHER 0
#endif

#define PRIO_SETWAIT 2
#define PRIO_VICTIM  1
#define STACK        (configMINIMAL_STACK_SIZE * 2)
#define DELETE_AT    20u /* the cycle at which ctrl deletes victim */

/* Far more than any heap: the creation fails, and the kernel says so. */
#define HUGE_ITEMS ((SIZE_MAX / 4u) / 16u)

static QueueSetHandle_t qset;
static QueueHandle_t set_q;
static SemaphoreHandle_t set_sem;
static TaskHandle_t t_victim;

static volatile uint32_t c_signals, c_select_ok, c_select_timeout, c_set_q_recv, c_set_sem_take,
	c_set_sem_take_ok, c_pend_ok, c_pend_failed, c_pend_isr_ok, c_pend_isr_failed, c_pend_runs, c_failed_queue,
	c_failed_stream, c_delays, c_deleted_other, c_isr_calls;

void app_delay(uint32_t ticks)
{
	c_delays++;
	vTaskDelay(ticks);
}

/* The deferred function: runs in the timer service task. */
static void pend_fn(void *p1, uint32_t p2)
{
	(void)p1;
	(void)p2;
	c_pend_runs++;
}

static void setwait_task(void *arg)
{
	int acked = 0;
	uint32_t v;

	(void)arg;
	for (;;) {
		QueueSetMemberHandle_t m;

		app_park_if_stopping(&acked);
		m = xQueueSelectFromSet(qset, 30);
		if (m == NULL) {
			c_select_timeout++;
		} else if (m == (QueueSetMemberHandle_t)set_q) {
			c_select_ok++;
			if (xQueueReceive(set_q, &v, 0) == pdPASS)
				c_set_q_recv++;
		} else if (m == (QueueSetMemberHandle_t)set_sem) {
			c_select_ok++;
			c_set_sem_take++;
			if (xSemaphoreTake(set_sem, 0) == pdPASS)
				c_set_sem_take_ok++;
		}
	}
}

static void victim_task(void *arg)
{
	(void)arg;
	for (;;)
		app_delay(2);
}

void app_sets_start(void)
{
	int ok;

	/* two creations that fail: nothing is made, the kernel's hook says so */
	if (xQueueCreate((UBaseType_t)HUGE_ITEMS, 16u) == NULL)
		c_failed_queue++;
	if (xStreamBufferCreate((size_t)HUGE_ITEMS * 16u, 1u) == NULL)
		c_failed_stream++;
	qset = xQueueCreateSet(2u + 1u); /* room for every member's items */
	set_q = xQueueCreate(2, sizeof(uint32_t));
	set_sem = xSemaphoreCreateBinary();
	if (!qset || !set_q || !set_sem)
		port_end(2);
	/* named first: the set's members are named when they are added */
	vQueueAddToRegistry(qset, "qset");
	vQueueAddToRegistry(set_q, "set_q");
	vQueueAddToRegistry(set_sem, "set_sem");
	ok = xQueueAddToSet(set_q, qset) == pdPASS && xQueueAddToSet(set_sem, qset) == pdPASS;
	ok = ok && xTaskCreate(setwait_task, "setwait", STACK, NULL, PRIO_SETWAIT, NULL) == pdPASS;
#if APP_DELETE_OTHER
	ok = ok && xTaskCreate(victim_task, "victim", STACK, NULL, PRIO_VICTIM, &t_victim) == pdPASS;
#else
	(void)victim_task;
	(void)t_victim;
#endif
	if (!ok)
		port_end(2);
}

void app_sets_cycle(uint32_t i)
{
	if (i % 5u == 1u && xQueueSend(set_q, &i, 0) == pdPASS)
		c_signals++;
	if (i % 5u == 3u && xSemaphoreGive(set_sem) == pdPASS)
		c_signals++;
	if (i % 6u == 2u) {
		if (xTimerPendFunctionCall(pend_fn, NULL, i, 0) == pdPASS)
			c_pend_ok++;
		else
			c_pend_failed++;
	}
#if APP_DELETE_OTHER
	if (i == DELETE_AT) {
		vTaskDelete(t_victim);
		c_deleted_other++;
	}
#endif
}

/* Whether h is a task app_sets_cycle() deleted (its handle is stale: the
 * kernel freed it, nothing may be asked of it). */
int app_sets_deleted(const void *h)
{
	return h != NULL && h == (const void *)t_victim && c_deleted_other > 0;
}

/* Every 16th interrupt a deferred call; the 64th makes ten at once, more
 * than the timer command queue holds (configTIMER_QUEUE_LENGTH 8): the
 * timer task cannot run in between, so the last ones fail. */
void app_sets_isr(long *woken)
{
	BaseType_t w = pdFALSE;
	unsigned n, i;

	if (++c_isr_calls % 16u != 0u)
		return;
	n = c_isr_calls == 64u ? 10u : 1u;
	for (i = 0; i < n; i++) {
		if (xTimerPendFunctionCallFromISR(pend_fn, NULL, c_isr_calls, &w) == pdPASS)
			c_pend_isr_ok++;
		else
			c_pend_isr_failed++;
	}
	if (w != pdFALSE)
		*woken = 1;
}

void app_sets_dict(void)
{
	sonde_dict(SONDE_DICT_RECORD, APP_REC_SETS, "APP_SETS");
}

void app_sets_report(void)
{
	const uint32_t v[] = { c_signals, c_select_ok, c_select_timeout, c_set_q_recv, c_set_sem_take,
			       c_set_sem_take_ok, c_pend_ok, c_pend_failed, c_pend_isr_ok, c_pend_isr_failed, c_pend_runs,
			       c_failed_queue, c_failed_stream, c_delays, c_deleted_other };
	unsigned i;

	if (sonde_user_begin(APP_REC_SETS)) {
		sonde_arg_obj(sonde_frtos_id(qset));
		sonde_arg_u64((uint64_t)(uintptr_t)pend_fn);
		for (i = 0; i < sizeof v / sizeof v[0]; i++)
			sonde_arg_u32(v[i]);
		sonde_user_end();
	}
}
