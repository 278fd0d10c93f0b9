/*
 * app_config.h -- the kernel features the FreeRTOS example application
 * (app.c) uses, the same on every port.  Each example's FreeRTOSConfig.h
 * includes it first and adds what belongs to its port (clock, stacks, heap,
 * interrupt priorities), then, at its end, Sonde's trace macros.
 */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#define configUSE_PREEMPTION                    1
#define configUSE_TIME_SLICING                  1
#define configUSE_IDLE_HOOK                     1
#define configUSE_TICK_HOOK                     1
#define configTICK_RATE_HZ                      1000
#define configMAX_PRIORITIES                    8
#define configMAX_TASK_NAME_LEN                 16
#define configUSE_16_BIT_TICKS                  0
#define configIDLE_SHOULD_YIELD                 1
#define configUSE_TASK_NOTIFICATIONS            1
#define configUSE_MUTEXES                       1
#define configUSE_RECURSIVE_MUTEXES             1
#define configUSE_COUNTING_SEMAPHORES           1
#define configQUEUE_REGISTRY_SIZE               8
#define configUSE_QUEUE_SETS                    1
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configSUPPORT_STATIC_ALLOCATION         0
#define configCHECK_FOR_STACK_OVERFLOW          0
#define configUSE_MALLOC_FAILED_HOOK            0
#define configUSE_TRACE_FACILITY                1 /* Sonde: the objects' trace numbers */
#define configGENERATE_RUN_TIME_STATS           0
#define configUSE_CO_ROUTINES                   0
#define configUSE_TIMERS                        1
#define configTIMER_TASK_PRIORITY               5
#define configTIMER_QUEUE_LENGTH                8

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

/* Sonde: V11's API entry and exit hooks as spans (off by default). */
#define SONDE_FRTOS_API                         1
/* Sonde's optional FreeRTOS tracing (off by default), on in the example:
 * the heap, and the stack high-water marks of the tasks that ran, at every
 * call of sonde_frtos_stack_poll() (period 0: each port's idle hook, and
 * the report), which the checker compares with the application's own
 * uxTaskGetStackHighWaterMark() at the end.  A build may say otherwise
 * (-DSONDE_FRTOS_STACK=0: the benchmark of the plain task switch). */
#ifndef SONDE_FRTOS_HEAP
#define SONDE_FRTOS_HEAP 1
#endif
#ifndef SONDE_FRTOS_STACK
#define SONDE_FRTOS_STACK 1
#endif
#ifndef SONDE_FRTOS_STACK_PERIOD
#define SONDE_FRTOS_STACK_PERIOD 0
#endif
#define INCLUDE_uxTaskGetStackHighWaterMark     1

/* The example stops with a message on an assertion (each port's main.c). */
void app_assert(const char *file, int line);
#define configASSERT(x) do { if (!(x)) app_assert(__FILE__, __LINE__); } while (0)

#endif /* APP_CONFIG_H */
