/*
 * app.h -- the FreeRTOS example application shared by examples/freertos-posix
 * (the POSIX simulator port) and examples/freertos-mps2 (Cortex-M3 under
 * QEMU): the same tasks, queue, mutex, semaphore, notifications, timer and
 * event group on both, traced with one include (sonde_freertos.h), and the
 * application's own count of what it did, written at the end as records the
 * checker (check_freertos.py) compares with the decoded trace.
 *
 * The port (each example's main.c) supplies the trace transport, the
 * periodic interrupt that calls app_isr(), and the end of the run.
 */
#ifndef APP_H
#define APP_H

#include <stddef.h>
#include <stdint.h>

/* Object ids the application chooses itself (below SONDE_FRTOS_ID_FIRST). */
#define APP_ISR_ID 1u /* the periodic interrupt that gives the semaphore */

/* User records of the final report (check_freertos.py reads them). */
#define APP_REC_TASK  0x70u /* OBJ task, U32 switched in, U32 out ready, out blocked,
			     * out suspended, out deleted */
#define APP_REC_OBJ   0x71u /* OBJ object, U32 put ok, put failed, get ok, get failed,
			     * peek ok, peek failed, level at the end */
#define APP_REC_RUN   0x72u /* U32 records, overwritten, refused, bytes (sonde_get_stats),
			     * inherit, disinherit, notify, notify take, timer expired,
			     * resumes, event sets, event waits ok, event waits timed out,
			     * notifications with a value, the sum of those values,
			     * timer starts */
#define APP_REC_HEAP  0x78u /* U32 allocations, failed, frees, bytes allocated (the sizes the
			     * allocator reported), the leaked block's address (low 32 bits),
			     * OBJ the task that leaked it */
#define APP_REC_THEAP 0x79u /* OBJ task (0: none, before the scheduler), U32 allocations,
			     * failed, frees, its free stack in bytes at the end
			     * (uxTaskGetStackHighWaterMark; 0xFFFFFFFF: not asked) */
#define APP_REC_LOWPOWER 0x7Au /* U32 tickless idle's sleeps (traceLOW_POWER_IDLE_BEGIN) */

#define APP_REC_SETS  0x7Bu /* app_sets.c: OBJ the queue set, U64 the deferred function's
			     * address, U32 set signals, selects ok, selects timed out,
			     * set_q receives, set_sem takes, of those ok, deferred calls
			     * ok, failed,
			     * from the ISR ok, failed, run, failed creations of a queue,
			     * of a stream buffer, vTaskDelay calls, tasks deleted by
			     * another */

/* Create the objects and tasks (before vTaskStartScheduler()).  cycles:
 * how many control cycles (one per 10 ms) before the run ends. */
void app_start(uint32_t cycles);

/* The periodic interrupt, every 10 ms (the port calls it in interrupt
 * context, between sonde_isr_enter(APP_ISR_ID) and sonde_isr_exit()).
 * Returns non-zero when a higher-priority task was woken. */
long app_isr(void);

/* The application's dictionary (user records, the ISR). */
void app_dict(void);

/* Supplied by the port: move trace bytes to the host (all: until the
 * buffer is empty), and end the run (never returns). */
void port_drain(int all);
void port_end(int code);

/* app_sets.c: the queue set, deferred calls, failed creations, the
 * deletion of another task.  _start from app_start(), _cycle from each
 * control cycle, _isr from the interrupt (sets *woken when it woke a
 * task), _report from the report; app_delay() is vTaskDelay() counted. */
void app_sets_start(void);
void app_sets_cycle(uint32_t cycle);
void app_sets_isr(long *woken);
void app_sets_dict(void);
int app_sets_deleted(const void *h);
void app_sets_report(void);
void app_delay(uint32_t ticks);
/* app.c: at the top of a looping task's loop (parks it at the end). */
void app_park_if_stopping(int *acked);

/* Counting hooks, called from the kernel's trace macros (app_hooks.h). */
void app_hook_switched_in(const void *tcb);
void app_hook_inherit(void);
void app_hook_disinherit(void);
void app_hook_malloc(const void *p, size_t size);
void app_hook_free(const void *p);
void app_hook_low_power(void);

#endif /* APP_H */
