/*
 * app_hooks.h -- the example's own counting of kernel events, chained in
 * front of Sonde's trace macros.  Included by each example's
 * FreeRTOSConfig.h just before sonde_freertos.h, so that the kernel calls
 * both: the application counts what the kernel did (switches, priority
 * inheritance, allocations and frees) without Sonde, and the checker
 * compares the two.
 *
 * This is also the pattern for adding your own code to a trace macro:
 * define the kernel's macro, call Sonde's SONDE_FRTOS_* from it.
 */
#ifndef APP_HOOKS_H
#define APP_HOOKS_H

#if !defined(__ASSEMBLER__)

#include <stddef.h>

void app_hook_switched_in(const void *tcb);
void app_hook_malloc(const void *p, size_t size);
void app_hook_free(const void *p);
void app_hook_low_power(void);
void app_hook_inherit(void);
void app_hook_disinherit(void);

#define traceTASK_SWITCHED_IN()                              \
	do {                                                 \
		app_hook_switched_in(pxCurrentTCB);          \
		SONDE_FRTOS_TASK_SWITCHED_IN();              \
	} while (0)
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)           \
	do {                                                                          \
		app_hook_inherit();                                                   \
		SONDE_FRTOS_TASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority); \
	} while (0)
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)          \
	do {                                                                           \
		app_hook_disinherit();                                                 \
		SONDE_FRTOS_TASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority); \
	} while (0)

/* The heap (heap_3.c, heap_4.c): every allocation, failed or not, and
 * every free, by the task that runs. */
#define traceMALLOC(pvAddress, uiSize)                         \
	do {                                                   \
		app_hook_malloc((pvAddress), (size_t)(uiSize)); \
		SONDE_FRTOS_MALLOC(pvAddress, uiSize);          \
	} while (0)
#define traceFREE(pvAddress, uiSize)                           \
	do {                                                   \
		app_hook_free(pvAddress);                      \
		SONDE_FRTOS_FREE(pvAddress, uiSize);            \
	} while (0)

/* Tickless idle (configUSE_TICKLESS_IDLE): each sleep. */
#define traceLOW_POWER_IDLE_BEGIN()                     \
	do {                                            \
		app_hook_low_power();                   \
		SONDE_FRTOS_LOW_POWER_IDLE_BEGIN();     \
	} while (0)

#endif

#endif /* APP_HOOKS_H */
