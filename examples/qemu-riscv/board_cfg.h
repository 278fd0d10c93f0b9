/*
 * board_cfg.h -- QEMU 7.2's RISC-V `virt` machine (RV32, one hart, machine
 * mode, -bios none) for the shared firmware (fw-common/board.h): the CLINT
 * (machine timer, software interrupt), the PLIC, the NS16550A UART, the
 * goldfish RTC and the sifive_test exit device (hw/riscv/virt.c), which
 * source plays which role, and the priorities the trap handler (board.c)
 * gives them in software.
 */
#ifndef BOARD_CFG_H
#define BOARD_CFG_H

#include <stdint.h>

#include "arch.h"

#define BOARD_NAME "RV32IMAC (QEMU virt)"

/* ---- CLINT: mtime at 10 MHz, mtimecmp and msip of hart 0 -------------- */
#define CLINT_MSIP        ARCH_REG(0x02000000u)
#define CLINT_MTIMECMP_LO ARCH_REG(0x02004000u)
#define CLINT_MTIMECMP_HI ARCH_REG(0x02004004u)
#define CLINT_MTIME_LO    ARCH_REG(0x0200BFF8u)
#define CLINT_MTIME_HI    ARCH_REG(0x0200BFFCu)
#define MTIME_HZ 10000000u

/* ---- PLIC: 7 priority levels; context 0 is hart 0's machine mode ------- */
#define PLIC_PRIORITY(src) ARCH_REG(0x0C000000u + 4u * (src))
#define PLIC_ENABLE        ARCH_REG(0x0C002000u)
#define PLIC_THRESHOLD     ARCH_REG(0x0C200000u)
#define PLIC_CLAIM         ARCH_REG(0x0C200004u)
#define PLIC_UART0 10u
#define PLIC_RTC   11u

/* ---- NS16550A UART at 0x10000000, registers a byte apart -------------- */
#define UART_BASE 0x10000000u
#define UART_REG(o) (*(volatile uint8_t *)(UART_BASE + (o)))
#define UART_RBR UART_REG(0u)
#define UART_THR UART_REG(0u)
#define UART_IER UART_REG(1u)
#define UART_FCR UART_REG(2u)
#define UART_LCR UART_REG(3u)
#define UART_LSR UART_REG(5u)
#define UART_IER_RX  0x01u
#define UART_IER_THR 0x02u
#define UART_LSR_DR   0x01u
#define UART_LSR_THRE 0x20u

/* ---- goldfish RTC at 0x101000: nanoseconds, one alarm ------------------ */
#define RTC_TIME_LOW   ARCH_REG(0x00101000u)
#define RTC_TIME_HIGH  ARCH_REG(0x00101004u)
#define RTC_ALARM_LOW  ARCH_REG(0x00101008u)
#define RTC_ALARM_HIGH ARCH_REG(0x0010100Cu)
#define RTC_IRQ_ENABLED ARCH_REG(0x00101010u)
#define RTC_CLEAR_ALARM ARCH_REG(0x00101014u)
#define RTC_CLEAR_INTERRUPT ARCH_REG(0x0010101Cu)

/* ---- sifive_test: a write ends QEMU ------------------------------------- */
#define TEST_FINISHER ARCH_REG(0x00100000u)
#define TEST_PASS 0x5555u
#define TEST_FAIL 0x3333u /* | status << 16 */

/* ---- roles and priorities (larger is more urgent; board.c nests them) --
 *   sample  goldfish RTC alarm, PLIC priority 4
 *   work    machine software interrupt (CLINT msip), raised by the tick
 *           every other tick: virt has only two timers
 *   tick    machine timer (mtimecmp), 1 kHz
 *   uart    PLIC priority 1
 *   switch  supervisor software interrupt (mip.SSIP): the scheduler's
 *           PendSV, only taken at task level */
#define LEVEL_UART   1u
#define LEVEL_TICK   2u
#define LEVEL_WORK   3u
#define LEVEL_SAMPLE 4u

/* ---- the shared firmware's view (fw-common/board.h) ------------------- */
#define BOARD_TS_HZ        SONDE_RV_TS_HZ
#define BOARD_STOPWATCH_HZ 1000000000u /* minstret: one per instruction */
#define BOARD_TICK_NAME    "MTIMER"
#define BOARD_WORK_NAME    "MSOFT"
#define BOARD_SAMPLE_NAME  "RTC"
#define BOARD_UART_RX_NAME "UART0_RX"
#define BOARD_TRACE_BUF    8192u
#define BOARD_STACK_WORDS  512u
#define BOARD_BENCH_BUF    (160u * 1024u)
#define BOARD_BENCH_N      2048u

#define TICK_PERIOD      (MTIME_HZ / 1000u)
#define SAMPLE_PERIOD_NS 770089u /* 1298.55 Hz: its phase drifts against the others */

#endif /* BOARD_CFG_H */
