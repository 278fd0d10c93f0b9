/*
 * FreeRTOSConfig.h -- kernel configuration of the FreeRTOS Cortex-M3
 * example (portable/GCC/ARM_CM3 on QEMU's mps2-an385, 25 MHz): the
 * application's features (examples/freertos-app/app_config.h), the port's
 * clock, stacks, heap and interrupt priorities, and, at the end, Sonde's
 * trace macros.
 *
 * Interrupt priorities (smaller is more urgent; QEMU keeps all 8 bits, the
 * board has 3, so only multiples of 0x20 are used): the kernel (SysTick,
 * PendSV) at 0xE0, interrupts that call the kernel's FromISR API at 0x40 or
 * below in urgency (TIMER0 at 0x60), the UART that carries the trace at
 * 0xC0; TIMER1 (0x40) calls no kernel API.  The board sets them
 * (examples/qemu-mps2/board_cfg.h).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include "app_config.h"

#define configCPU_CLOCK_HZ                      25000000u
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configMINIMAL_STACK_SIZE                256 /* words */
#define configTOTAL_HEAP_SIZE                   (48 * 1024)
#define configTIMER_TASK_STACK_DEPTH            (configMINIMAL_STACK_SIZE * 2)

#define configPRIO_BITS                         3
#define configKERNEL_INTERRUPT_PRIORITY         0xE0
#define configMAX_SYSCALL_INTERRUPT_PRIORITY    0x40

/* The port's exception handlers under the names of the board's vector
 * table (examples/qemu-mps2/vectors.c); SysTick is the board's
 * app_isr_tick(), main.c's, which traces the kernel tick and calls
 * xPortSysTickHandler(). */
#define vPortSVCHandler    SVC_Handler
#define xPortPendSVHandler PendSV_Handler

/* The application's own counting hooks, then Sonde's trace macros: the
 * one include that adds Sonde, at the end.  (The switch hook cannot ask the
 * kernel for the outgoing task's state from PendSV: APP_COUNT_STATES 0,
 * examples/freertos-app/app.c.) */
#define APP_COUNT_STATES 0
/* This port deletes another task fine (examples/freertos-app/app_sets.c);
 * the POSIX port can hang there. */
#define APP_DELETE_OTHER 1
#include "app_hooks.h"
#include "sonde_freertos.h"

#endif /* FREERTOS_CONFIG_H */
