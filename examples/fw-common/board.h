/*
 * board.h -- what the shared firmware (app.c, bench.c, size_min.c, sched.c)
 * needs from a board.  Each board folder (examples/qemu-*) implements these
 * in its board.c and describes itself in its board_cfg.h; the CPU family's
 * folder (fw-common/cortex-m, fw-common/riscv) supplies arch.h.
 *
 * Four interrupt sources play fixed roles in the application:
 *   tick    1 kHz, the scheduler tick and Sonde's tick hook
 *   work    500 Hz, a long handler (a CRC) that gives a semaphore
 *   sample  ~1.3 kHz, the most urgent: it nests into the others
 *   uart    the UART: receive (commands, traced) and transmit (the drain,
 *           not traced)
 * The board routes each to app_isr_*() (app.c) with its own interrupt
 * controller and priorities, and acknowledges the source when asked.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#include "arch.h"
#include "board_cfg.h"

/* Clocks, the trace clock (running before sonde_init), the UART for polled
 * output.  Interrupts stay masked. */
void board_init(void);

/* The scheduler tick, with its interrupt. */
void board_tick_start(void);
/* The work and sample interrupts (from the boot task). */
void board_timers_start(void);
/* UART interrupts: receive always, transmit when tx_irq (the drain). */
void board_uart_irqs_start(int tx_irq);
/* Every interrupt source off (the end of the run, interrupts masked). */
void board_stop(void);

/* Acknowledge a source, first thing in its handler (a periodic source also
 * schedules its next period here). */
void board_tick_ack(void);
void board_work_ack(void);
void board_sample_ack(void);

/* Sonde's per-tick call for this port (its tick hook / clock extension). */
void board_trace_tick(void);

/* UART, polled. */
void board_uart_putc(uint8_t c);
void board_uart_puts(const char *s);
void board_uart_put_u32(uint32_t v); /* decimal */
void board_uart_flush(void);         /* until the last byte has left */

/* UART, from its interrupts.  Transmit: tx_ack first, then put bytes while
 * tx_ready; tx_idle when there is nothing left (the next kick restarts
 * it); tx_kick pends the transmit interrupt from anywhere. */
void board_uart_tx_ack(void);
int board_uart_tx_ready(void);
void board_uart_tx_put(uint8_t b);
void board_uart_tx_idle(void);
void board_uart_tx_kick(void);
/* Receive: rx_ack first, then read while rx_avail. */
void board_uart_rx_ack(void);
int board_uart_rx_avail(void);
uint8_t board_uart_rx_get(void);

/* A free-running counter for timing benchmark loops, counting up at
 * BOARD_STOPWATCH_HZ. */
void board_stopwatch_start(void);
uint32_t board_stopwatch(void);

/* Leave QEMU: status 0 when code is 0, 1 otherwise. */
__attribute__((noreturn)) void board_exit(int code);

/* ---- provided by the application -------------------------------------- */

/* Interrupt handlers the board calls (or puts in its vector table). */
void app_isr_tick(void);
void app_isr_work(void);
void app_isr_sample(void);
void app_isr_uart_rx(void);
void app_isr_uart_tx(void);

/* A fault or an unclaimed exception, interrupts masked: the faulting pc and
 * the cause (IPSR on Cortex-M, mcause on RISC-V). */
void app_fault(uint32_t pc, uint32_t cause);

#endif /* BOARD_H */
