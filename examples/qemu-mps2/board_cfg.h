/*
 * board_cfg.h -- the MPS2 boards as QEMU 7.2 models them, for the shared
 * firmware (fw-common/board.h): registers, interrupt numbers, priorities
 * and which peripheral plays which role.
 *
 *   mps2-an385 Cortex-M3, mps2-an386 Cortex-M4, mps2-an500 Cortex-M7: the
 *     same memory map and peripherals (QEMU hw/arm/mps2.c): UART0 RX 0 /
 *     TX 1, TIMER0 8, TIMER1 9, dual timer 10; 25 MHz.
 *   mps2-an505 Cortex-M33 (MPS2_AN505): the IoT kit (SSE-200) memory map;
 *     the firmware runs in the secure world, where reset leaves it, and
 *     uses the secure aliases (0x5xxxxxxx) of the same CMSDK peripherals:
 *     TIMER0 3, TIMER1 4, dual timer 5 (inside the kit), UART0 RX 32 /
 *     TX 33 (hw/arm/mps2-tz.c); 20 MHz.
 */
#ifndef BOARD_CFG_H
#define BOARD_CFG_H

#include <stdint.h>

#include "arch.h"

/* MPS2_MACHINE: 385, 386, 500 or 505 (the Makefile's MACHINE). */
#if MPS2_MACHINE == 505
#define MPS2_AN505 1
#define BOARD_NAME "Cortex-M33 (QEMU mps2-an505, secure)"
#elif MPS2_MACHINE == 500
#define BOARD_NAME "Cortex-M7 (QEMU mps2-an500)"
#elif MPS2_MACHINE == 386
#define BOARD_NAME "Cortex-M4 (QEMU mps2-an386)"
#else
#define BOARD_NAME "Cortex-M3 (QEMU mps2-an385)"
#endif

#if defined(MPS2_AN505)
#define MPS2_SYSCLK_HZ 20000000u
#define MPS2_APB_BASE  0x50000000u /* secure alias */
#define UART0_BASE     0x50200000u
#define IRQ_UART0_RX   32
#define IRQ_UART0_TX   33
#define IRQ_TIMER0     3
#define IRQ_TIMER1     4
#define IRQ_DUALTIMER  5
#else
#define MPS2_SYSCLK_HZ 25000000u
#define MPS2_APB_BASE  0x40000000u
#define UART0_BASE     0x40004000u
#define IRQ_UART0_RX   0
#define IRQ_UART0_TX   1
#define IRQ_TIMER0     8
#define IRQ_TIMER1     9
#define IRQ_DUALTIMER  10
#endif

/* ---- CMSDK APB UART0 ---------------------------------------------------- */
#define UART0_DATA      ARCH_REG(UART0_BASE + 0x00u)
#define UART0_STATE     ARCH_REG(UART0_BASE + 0x04u)
#define UART0_CTRL      ARCH_REG(UART0_BASE + 0x08u)
#define UART0_INTSTATUS ARCH_REG(UART0_BASE + 0x0Cu) /* write 1 to clear */
#define UART0_BAUDDIV   ARCH_REG(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL 0x01u
#define UART_STATE_RXFULL 0x02u
#define UART_CTRL_TX_EN    0x01u
#define UART_CTRL_RX_EN    0x02u
#define UART_CTRL_TX_INTEN 0x04u
#define UART_CTRL_RX_INTEN 0x08u
#define UART_INT_TX 0x01u
#define UART_INT_RX 0x02u

/* ---- CMSDK APB timers ------------------------------------------------- */
#define TIMER0_BASE (MPS2_APB_BASE + 0x0000u)
#define TIMER1_BASE (MPS2_APB_BASE + 0x1000u)
#define TIMER_CTRL(b)     ARCH_REG((b) + 0x00u)
#define TIMER_VALUE(b)    ARCH_REG((b) + 0x04u)
#define TIMER_RELOAD(b)   ARCH_REG((b) + 0x08u)
#define TIMER_INTCLEAR(b) ARCH_REG((b) + 0x0Cu)
#define TIMER_CTRL_EN    0x01u
#define TIMER_CTRL_IRQEN 0x08u

/* CMSDK APB dual timer, timer 1: the trace clock (SONDE_CM_TS_TIMER reads
 * its VALUE at DUALTIMER1_BASE + 4; the Makefile passes that address). */
#define DUALTIMER1_BASE    (MPS2_APB_BASE + 0x2000u)
#define DUALTIMER1_LOAD    ARCH_REG(DUALTIMER1_BASE + 0x00u)
#define DUALTIMER1_VALUE   ARCH_REG(DUALTIMER1_BASE + 0x04u)
#define DUALTIMER1_CONTROL ARCH_REG(DUALTIMER1_BASE + 0x08u)
#define DUALTIMER_CTRL_EN    0x80u
#define DUALTIMER_CTRL_32BIT 0x02u

/* Priorities: the boards implement 3 bits (QEMU keeps 8), so only
 * multiples of 0x20 are used; smaller is more urgent. */
#define PRIO_TIMER1  0x40u
#define PRIO_TIMER0  0x60u
#define PRIO_SYSTICK 0x80u
#define PRIO_UART    0xC0u
#define BOARD_PRIO_PENDSV 0xE0u

/* ---- the shared firmware's view (fw-common/board.h) ------------------- */
#define BOARD_TS_HZ        MPS2_SYSCLK_HZ /* the trace clock: dual timer or SysTick */
#define BOARD_STOPWATCH_HZ MPS2_SYSCLK_HZ /* TIMER0, free-running, in the benchmark */
#define BOARD_TICK_NAME    "SysTick"
#define BOARD_WORK_NAME    "TIMER0"
#define BOARD_SAMPLE_NAME  "TIMER1"
#define BOARD_UART_RX_NAME "UART0_RX"
#define BOARD_TRACE_BUF    8192u
#define BOARD_STACK_WORDS  256u
#define BOARD_BENCH_BUF    (160u * 1024u)
#define BOARD_BENCH_N      2048u

#define TIMER0_PERIOD (MPS2_SYSCLK_HZ / 500u)
/* 1298.6 Hz at 25 MHz: its phase drifts against the others. */
#define TIMER1_PERIOD (MPS2_SYSCLK_HZ / 25000u * 19251u / 1000u)

#endif /* BOARD_CFG_H */
