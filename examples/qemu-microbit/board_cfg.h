/*
 * board_cfg.h -- the BBC micro:bit (nRF51822, Cortex-M0, ARMv6-M) as QEMU
 * 7.2's `microbit` machine models it, for the shared firmware
 * (fw-common/board.h): the nRF51's own UART and TIMERs, interrupt numbers
 * (the peripheral's address bits 16:12: UART0 2, TIMER0 8, TIMER1 9,
 * TIMER2 10), priorities, and which peripheral plays which role.
 *
 * The nRF51 has no SysTick (QEMU models one anyway; it is not used), and
 * QEMU has no model of its RTCs: every clock here is a TIMER.
 */
#ifndef BOARD_CFG_H
#define BOARD_CFG_H

#include <stdint.h>

#include "arch.h"

#define BOARD_NAME "Cortex-M0 (QEMU microbit, nRF51822)"

/* ---- UART0 ---------------------------------------------------------------- */
#define UART0_BASE 0x40002000u
#define UART_STARTRX      ARCH_REG(UART0_BASE + 0x000u)
#define UART_STARTTX      ARCH_REG(UART0_BASE + 0x008u)
#define UART_EV_RXDRDY    ARCH_REG(UART0_BASE + 0x108u)
#define UART_EV_TXDRDY    ARCH_REG(UART0_BASE + 0x11Cu)
#define UART_INTENSET     ARCH_REG(UART0_BASE + 0x304u)
#define UART_INTENCLR     ARCH_REG(UART0_BASE + 0x308u)
#define UART_ENABLE       ARCH_REG(UART0_BASE + 0x500u)
#define UART_RXD          ARCH_REG(UART0_BASE + 0x518u)
#define UART_TXD          ARCH_REG(UART0_BASE + 0x51Cu)
#define UART_BAUDRATE     ARCH_REG(UART0_BASE + 0x524u)
#define UART_INT_RXDRDY   (1u << 2)
#define UART_INT_TXDRDY   (1u << 7)
#define UART_ENABLE_ON    4u
#define UART_BAUD_115200  0x01D7E000u

/* ---- TIMER0..2 -------------------------------------------------------------- */
#define TIMER0_BASE 0x40008000u
#define TIMER1_BASE 0x40009000u
#define TIMER2_BASE 0x4000A000u
#define TIMER_START(b)      ARCH_REG((b) + 0x000u)
#define TIMER_STOP(b)       ARCH_REG((b) + 0x004u)
#define TIMER_CLEAR(b)      ARCH_REG((b) + 0x00Cu)
#define TIMER_CAPTURE(b, n) ARCH_REG((b) + 0x040u + 4u * (n))
#define TIMER_EV_COMPARE(b, n) ARCH_REG((b) + 0x140u + 4u * (n))
#define TIMER_INTENSET(b)   ARCH_REG((b) + 0x304u)
#define TIMER_INTENCLR(b)   ARCH_REG((b) + 0x308u)
#define TIMER_MODE(b)       ARCH_REG((b) + 0x504u)
#define TIMER_BITMODE(b)    ARCH_REG((b) + 0x508u)
#define TIMER_PRESCALER(b)  ARCH_REG((b) + 0x510u)
#define TIMER_CC(b, n)      ARCH_REG((b) + 0x540u + 4u * (n))
#define TIMER_INT_COMPARE(n) (1u << (16 + (n)))
#define TIMER_BITMODE_16 0u
#define TIMER_BITMODE_32 3u

#define IRQ_UART0  2
#define IRQ_TIMER0 8
#define IRQ_TIMER1 9
#define IRQ_TIMER2 10

/* The TIMERs count at 16 MHz >> PRESCALER.  Prescaler 1 (8 MHz): QEMU's
 * model advances its reference point by whole nanoseconds per update, so at
 * 16 MHz (62.5 ns per tick) every capture with an odd tick count would let
 * the counter gain half a nanosecond; at 8 MHz (125 ns) it stays exact. */
#define NRF_TIMER_PRESCALER 1u
#define NRF_TIMER_HZ (16000000u >> NRF_TIMER_PRESCALER)

/* Priorities: ARMv6-M implements 2 bits (0x00, 0x40, 0x80, 0xC0). */
#define PRIO_SAMPLE 0x00u /* TIMER2 */
#define PRIO_WORK   0x40u /* TIMER0 compare 0 */
#define PRIO_TICK   0x80u /* TIMER1 */
#define PRIO_UART   0xC0u
#define BOARD_PRIO_PENDSV 0xC0u /* the lowest; equal to the UART's, which it never preempts */

/* ---- the shared firmware's view (fw-common/board.h) ------------------- */
/* The trace clock: TIMER0 running free over 32 bits, read through
 * TASKS_CAPTURE[3] / CC[3] (SONDE_CM_TS_CAPTURE; the Makefile passes the
 * addresses).  Its compare 0 is the work interrupt. */
#define BOARD_TS_HZ        NRF_TIMER_HZ
#define BOARD_STOPWATCH_HZ NRF_TIMER_HZ
#define BOARD_TICK_NAME    "TIMER1"
#define BOARD_WORK_NAME    "TIMER0"
#define BOARD_SAMPLE_NAME  "TIMER2"
#define BOARD_UART_RX_NAME "UART0_RX"
/* 16 KiB of RAM in all. */
#define BOARD_TRACE_BUF    4096u
#define BOARD_STACK_WORDS  192u
#define BOARD_BENCH_BUF    (10u * 1024u)
#define BOARD_BENCH_N      256u

#define TICK_PERIOD   (NRF_TIMER_HZ / 1000u)
#define WORK_PERIOD   (NRF_TIMER_HZ / 500u)
#define SAMPLE_PERIOD 6161u /* 1298.5 Hz: its phase drifts against the others */

#endif /* BOARD_CFG_H */
