/*
 * board.h -- board services of the MPS2 AN385 example: UART0, the CMSDK
 * timers, and leaving QEMU.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#include "mps2.h"

/* UART0 at 115200 8N1 (QEMU ignores the rate: a byte leaves as soon as the
 * host side of -serial takes it).  tx_irq: enable the TX interrupt. */
void board_uart_init(int tx_irq);
/* Receive on UART0 with its RX interrupt (IRQ_UART0_RX; enable that in the
 * NVIC too).  The handler reads UART0_DATA while UART_STATE_RXFULL is set
 * and clears UART_INT_RX. */
void board_uart_rx_start(void);
/* Polled output: waits while the one-byte TX buffer is full. */
void board_uart_putc(uint8_t c);
void board_uart_puts(const char *s);
void board_uart_put_u32(uint32_t v); /* decimal */
void board_uart_flush(void);         /* until the TX buffer is free */

/* A CMSDK APB timer counting down from period-1, interrupting at 0 when
 * irq is set. */
void board_timer_start(uint32_t base, uint32_t period, int irq);
void board_timer_stop(uint32_t base);

/* Dual timer 1 free-running over 32 bits, no interrupt: a clock that
 * counts down at 25 MHz (SONDE_CM_TS_TIMER reads it). */
void board_dualtimer_free_run(void);

/* SysTick on the core clock with its interrupt, for a tick when the trace
 * clock is not SysTick (otherwise sonde_cm_ts_init() starts it). */
void board_systick_start(uint32_t period);

/* Leave QEMU with a semihosting SYS_EXIT: status 0 when code is 0, 1
 * otherwise.  Without -semihosting the BKPT faults and the fault entry
 * parks the core instead (startup.c). */
__attribute__((noreturn)) void board_exit(int code);

/* Provided by the application: called (interrupts masked) for a fault or an
 * unclaimed exception, with the stacked frame r0-r3, r12, lr, pc, xpsr. */
void app_fault(const uint32_t *frame, uint32_t exc_return);

#endif /* BOARD_H */
