/*
 * bench.c -- instructions per FreeRTOS kernel event with Sonde's trace
 * macros (sonde_freertos.h) on the Cortex-M3, counted exactly by
 * examples/fw-common/insn_count.py from a QEMU execution log (`make insns`).
 *
 * Each case is one trace macro, expanded as the kernel expands it, with real
 * kernel objects (created, the scheduler not started), in a function of its
 * own (h_*) that a loop calls BENCH_N times.  insn_count.py counts the
 * instructions of each iteration and takes off those of the group's empty
 * loop, which calls an empty hook (h_nothing) instead: what remains is the
 * macro's own code, the kernel API it calls for the object's id or level,
 * and Sonde's record.  Loops b_gk_* share the base b_gk_empty; the switch
 * loops (b_gs_*) set the running task before each call and have their own
 * base, b_gs_empty, that does the same.  Each case starts from an empty
 * 128 KiB buffer, so no record overwrites; the TIME_SYNC Sonde writes once
 * per 256 frames is part of the mean.  The trace clock is the real one
 * (the dual timer), so the records are 1-byte-timestamp back to back.
 *
 * The context switch macro reads pxCurrentTCB, the task the kernel has
 * chosen; here it is this file's own variable, set to the other task before
 * every call, so that every call is a real switch (h_switch), or left alone
 * (h_switch_same: the same task runs on, nothing is written).  With
 * SONDE_FRTOS_STACK (the example's default) each switch also marks the
 * outgoing task for the next stack poll (TRACE_OPTS=-DSONDE_FRTOS_STACK=0:
 * the switch alone); b_gs_stack_poll is a switch and a poll that looks at
 * the task switched out (its stack unused: the scan's longest), so the
 * poll's cost is that less the switch's.
 */
#include <stddef.h>
#include <stdint.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#include "board.h"
#include "sonde.h"
#include "sonde_freertos.h"

#ifndef BENCH_N
#define BENCH_N 256u
#endif

static uint8_t big_buf[128 * 1024];
static TaskHandle_t ta, tb;
static QueueHandle_t q;
static SemaphoreHandle_t mutex;
static TimerHandle_t timer;
static EventGroupHandle_t evts;
static QueueSetHandle_t qset;
static TaskHandle_t pxCurrentTCB;

void app_assert(const char *file, int line);
void app_assert(const char *file, int line)
{
	board_uart_puts("bench: assertion failed at ");
	board_uart_puts(file);
	board_uart_putc(':');
	board_uart_put_u32((uint32_t)line);
	board_uart_putc('\n');
	board_exit(3);
}

void app_fault(uint32_t pc, uint32_t cause)
{
	(void)cause;
	board_uart_puts("bench: fault at pc ");
	board_uart_put_u32(pc);
	board_uart_putc('\n');
}

/* FreeRTOSConfig.h chains the example's counting hooks in front of Sonde's
 * macros; the benchmark uses Sonde's own (SONDE_FRTOS_*) and these stay
 * unused. */
void app_hook_switched_in(const void *tcb)
{
	(void)tcb;
}
void app_hook_inherit(void)
{
}
void app_hook_disinherit(void)
{
}
void app_hook_malloc(const void *p, size_t size)
{
	(void)p;
	(void)size;
}
void app_hook_free(const void *p)
{
	(void)p;
}
void app_hook_low_power(void)
{
}
void vApplicationTickHook(void)
{
}
void vApplicationIdleHook(void)
{
}

static void task_fn(void *arg)
{
	(void)arg;
	for (;;)
		;
}

static void timer_fn(TimerHandle_t t)
{
	(void)t;
}

/* unused where the macros are empty (SONDE_ENABLED 0: the benchmark of
 * tracing compiled out, every case its base) */
__attribute__((unused)) static void pend_fn(void *p1, uint32_t p2)
{
	(void)p1;
	(void)p2;
}

/* The kernel's own locals that some macros read, declared as the kernel
 * has them; unused where the macros are empty (SONDE_ENABLED 0). */
#define KLOCAL __attribute__((unused))

/* Every hook starts with the empty hook's barrier: where a macro is empty
 * (SONDE_ENABLED 0) its hook is the empty one, a call the compiler keeps,
 * so the case measures 0 instructions, as it should. */
#define HOOK(name, body)                                   \
	__attribute__((noinline)) static void name(void)   \
	{                                                  \
		__asm__ __volatile__("" ::: "memory");     \
		body;                                      \
	}

HOOK(h_nothing, (void)0)
HOOK(h_switch, SONDE_FRTOS_TASK_SWITCHED_OUT(); SONDE_FRTOS_TASK_SWITCHED_IN())
HOOK(h_switch_same, __asm__ __volatile__("@ same" ::: "memory"); SONDE_FRTOS_TASK_SWITCHED_OUT(); SONDE_FRTOS_TASK_SWITCHED_IN())
HOOK(h_ready, SONDE_FRTOS_MOVED_TASK_TO_READY_STATE(tb))
HOOK(h_delay, SONDE_FRTOS_TASK_DELAY())
HOOK(h_block_queue, SONDE_FRTOS_BLOCKING_ON_QUEUE_RECEIVE(q))
HOOK(h_queue_send, SONDE_FRTOS_QUEUE_SEND(q))
HOOK(h_queue_receive, SONDE_FRTOS_QUEUE_RECEIVE(q))
HOOK(h_give_from_isr, SONDE_FRTOS_QUEUE_SEND_FROM_ISR(mutex))
HOOK(h_prio_inherit, SONDE_FRTOS_TASK_PRIORITY_INHERIT(tb, 4))
/* the notify macros read the notify functions' parameters and result */
HOOK(h_notify, KLOCAL TaskHandle_t xTaskToNotify = tb; KLOCAL eNotifyAction eAction = eIncrement; KLOCAL uint32_t ulValue = 0;
     KLOCAL BaseType_t xReturn = pdPASS; SONDE_FRTOS_TASK_NOTIFY(0))
HOOK(h_notify_value, KLOCAL TaskHandle_t xTaskToNotify = tb; KLOCAL eNotifyAction eAction = eSetValueWithOverwrite;
     KLOCAL uint32_t ulValue = 0x1234; KLOCAL BaseType_t xReturn = pdPASS; SONDE_FRTOS_TASK_NOTIFY(0))
HOOK(h_timer_expired, SONDE_FRTOS_TIMER_EXPIRED(timer))
HOOK(h_event_set, SONDE_FRTOS_EVENT_GROUP_SET_BITS(evts, 1))
HOOK(h_tick, SONDE_FRTOS_TASK_INCREMENT_TICK(0))
/* the set macro reads its function's parameter pxQueue, the member */
HOOK(h_set_send, KLOCAL QueueHandle_t pxQueue = q; SONDE_FRTOS_QUEUE_SET_SEND(qset))
HOOK(h_pend, SONDE_FRTOS_PEND_FUNC_CALL(pend_fn, NULL, 0, pdPASS))
HOOK(h_create_failed, SONDE_FRTOS_QUEUE_CREATE_FAILED(0))
HOOK(h_api_enter, SONDE_FRTOS_API_ENTER(SONDE_FRTOS_API_xQueueReceive))
HOOK(h_api_return, SONDE_FRTOS_API_RETURN(SONDE_FRTOS_API_xQueueReceive, pdPASS))
HOOK(h_api_return_void, SONDE_FRTOS_API_RETURN_VOID(SONDE_FRTOS_API_vTaskDelay))
/* the heap's (SONDE_FRTOS_HEAP) with an address as heap_4 returns them; tickless idle's, which
 * reads prvIdleTask()'s xExpectedIdleTime */
HOOK(h_malloc, SONDE_FRTOS_MALLOC((void *)(uintptr_t)0x20004410u, 72u))
HOOK(h_free, SONDE_FRTOS_FREE((void *)(uintptr_t)0x20004410u, 72u))
HOOK(h_low_power_begin, KLOCAL TickType_t xExpectedIdleTime = 7; SONDE_FRTOS_LOW_POWER_IDLE_BEGIN())
HOOK(h_low_power_end, SONDE_FRTOS_LOW_POWER_IDLE_END())
HOOK(h_stack_poll, sonde_frtos_stack_poll())

/* One loop per case, the same structure in each; the asm comment keeps the
 * compiler from merging them (insn_count.py tells them apart by name). */
#define BENCH_LOOP(name, body)                                      \
	__attribute__((noinline)) static void name(void)            \
	{                                                           \
		uint32_t i;                                         \
		for (i = BENCH_N; i != 0; i--) {                    \
			body;                                       \
			__asm__ __volatile__("@ " #name ::: "memory"); \
		}                                                   \
	}

BENCH_LOOP(b_gk_empty, h_nothing())
BENCH_LOOP(b_gs_empty, pxCurrentTCB = (i & 1u) ? ta : tb; h_nothing())
BENCH_LOOP(b_gs_switch, pxCurrentTCB = (i & 1u) ? ta : tb; h_switch())
BENCH_LOOP(b_gs_stack_poll, pxCurrentTCB = (i & 1u) ? ta : tb; h_switch(); h_stack_poll())
BENCH_LOOP(b_gk_switch_same, h_switch_same())
BENCH_LOOP(b_gk_ready, h_ready())
BENCH_LOOP(b_gk_delay, h_delay())
BENCH_LOOP(b_gk_block_queue, h_block_queue())
BENCH_LOOP(b_gk_queue_send, h_queue_send())
BENCH_LOOP(b_gk_queue_receive, h_queue_receive())
BENCH_LOOP(b_gk_give_from_isr, h_give_from_isr())
BENCH_LOOP(b_gk_prio_inherit, h_prio_inherit())
BENCH_LOOP(b_gk_notify, h_notify())
BENCH_LOOP(b_gk_notify_value, h_notify_value())
BENCH_LOOP(b_gk_timer_expired, h_timer_expired())
BENCH_LOOP(b_gk_event_set, h_event_set())
BENCH_LOOP(b_gk_tick, h_tick())
BENCH_LOOP(b_gk_set_send, h_set_send())
BENCH_LOOP(b_gk_pend, h_pend())
BENCH_LOOP(b_gk_create_failed, h_create_failed())
BENCH_LOOP(b_gk_api_enter, h_api_enter())
BENCH_LOOP(b_gk_api_return, h_api_return())
BENCH_LOOP(b_gk_api_return_void, h_api_return_void())
BENCH_LOOP(b_gk_malloc, h_malloc())
BENCH_LOOP(b_gk_free, h_free())
BENCH_LOOP(b_gk_low_power_begin, h_low_power_begin())
BENCH_LOOP(b_gk_low_power_end, h_low_power_end())

static void fail(const char *why)
{
	board_uart_puts("bench: ");
	board_uart_puts(why);
	board_uart_putc('\n');
	board_exit(2);
}

static void fresh(void)
{
	sonde_init(big_buf, sizeof big_buf, SONDE_MODE_OVERWRITE);
}

/* Each case from an empty buffer. */
static void (*const cases[])(void) = {
	b_gk_empty, b_gs_empty, b_gs_switch, b_gs_stack_poll, b_gk_switch_same, b_gk_ready, b_gk_delay, b_gk_block_queue,
	b_gk_queue_send, b_gk_queue_receive, b_gk_give_from_isr, b_gk_prio_inherit, b_gk_notify, b_gk_notify_value,
	b_gk_timer_expired, b_gk_event_set, b_gk_tick, b_gk_set_send, b_gk_pend, b_gk_create_failed,
	b_gk_api_enter, b_gk_api_return, b_gk_api_return_void,
	b_gk_malloc, b_gk_free, b_gk_low_power_begin, b_gk_low_power_end,
};

int main(void)
{
	unsigned i;

	arch_irq_off();
	board_init(); /* UART0, the trace clock */
	fresh();
	if (xTaskCreate(task_fn, "a", configMINIMAL_STACK_SIZE, NULL, 2, &ta) != pdPASS ||
	    xTaskCreate(task_fn, "b", configMINIMAL_STACK_SIZE, NULL, 1, &tb) != pdPASS)
		fail("tasks not created");
	q = xQueueCreate(8, sizeof(uint32_t));
	mutex = xSemaphoreCreateBinary();
	timer = xTimerCreate("t", 10, pdTRUE, NULL, timer_fn);
	evts = xEventGroupCreate();
	qset = xQueueCreateSet(8);
	if (!q || !mutex || !timer || !evts || !qset)
		fail("objects not created");
	/* a task is running (the first switch-in asks the kernel for its
	 * idle task, which exists only once the scheduler starts) */
#if SONDE_ENABLED
	sonde_frtos_run.tcb = ta;
	sonde_frtos_run.id = (uint8_t)uxTaskGetTaskNumber(ta);
#endif

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fresh();
		cases[i]();
	}
	board_uart_puts("bench: done\n");
	board_exit(0);
}
