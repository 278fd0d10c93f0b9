/*
 * FreeRTOSConfig.h -- kernel configuration of the FreeRTOS Cortex-M3
 * example (portable/GCC/ARM_CM3 on QEMU's mps2-an385, 25 MHz): 1 kHz tick,
 * the features the shared example application uses (examples/freertos-app),
 * and, at the end, Sonde's trace macros.
 *
 * Interrupt priorities (smaller is more urgent; QEMU keeps all 8 bits, the
 * board has 3, so only multiples of 0x20 are used): the kernel (SysTick,
 * PendSV) at 0xE0, interrupts that call the kernel's FromISR API at 0x40 or
 * below in urgency (TIMER0 at 0x60), the UART that carries the trace at
 * 0xC0.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configCPU_CLOCK_HZ                      25000000u
#define configTICK_RATE_HZ                      1000
#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configUSE_IDLE_HOOK                     1
#define configUSE_TICK_HOOK                     1
#define configMAX_PRIORITIES                    8
#define configMINIMAL_STACK_SIZE                256 /* words */
#define configMAX_TASK_NAME_LEN                 16
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TASK_NOTIFICATIONS            1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configQUEUE_REGISTRY_SIZE               8
#define configUSE_QUEUE_SETS                    0
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configSUPPORT_STATIC_ALLOCATION         0
#define configTOTAL_HEAP_SIZE                   (48 * 1024)
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configUSE_TRACE_FACILITY                1 /* Sonde: the objects' trace numbers */
#define configGENERATE_RUN_TIME_STATS           0
#define configUSE_CO_ROUTINES                   0
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               5
#define configTIMER_QUEUE_LENGTH                8
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)

#define configPRIO_BITS                         3
#define configKERNEL_INTERRUPT_PRIORITY         0xE0
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0x40

#define INCLUDE_vTaskPrioritySet                1
#define INCLUDE_uxTaskPriorityGet               1
#define INCLUDE_vTaskDelete                     1
#define INCLUDE_vTaskSuspend                    1
#define INCLUDE_vTaskDelay                      1
#define INCLUDE_xTaskDelayUntil                 1
#define INCLUDE_eTaskGetState                   1
#define INCLUDE_xTaskGetIdleTaskHandle          1
#define INCLUDE_xTimerGetTimerDaemonTaskHandle  1
#define INCLUDE_xTaskGetCurrentTaskHandle       1
#define INCLUDE_xTimerPendFunctionCall          1

/* The port's exception handlers under the names of the vector table
 * (examples/qemu-mps2/startup.c); SysTick_Handler is main.c's, which
 * traces the kernel tick and calls xPortSysTickHandler(). */
#define vPortSVCHandler    SVC_Handler
#define xPortPendSVHandler PendSV_Handler

void app_assert(const char *file, int line);
#define configASSERT(x) do { if (!(x)) app_assert(__FILE__, __LINE__); } while (0)

/* The application's own counting hooks, then Sonde's trace macros: the
 * one include that adds Sonde, at the end.  (The switch hook cannot ask the
 * kernel for the outgoing task's state from PendSV: APP_COUNT_STATES 0,
 * examples/freertos-app/app.c.) */
#define APP_COUNT_STATES 0
#include "app_hooks.h"
#include "sonde_freertos.h"

#endif /* FREERTOS_CONFIG_H */
