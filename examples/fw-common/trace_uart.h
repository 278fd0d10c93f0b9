/*
 * trace_uart.h -- the Sonde trace out of a board's UART (fw-common/board.h):
 * from the UART's transmit interrupt, or polled.  Shared by the example
 * firmware (app.c) and the FreeRTOS example (examples/freertos-mps2).
 */
#ifndef TRACE_UART_H
#define TRACE_UART_H

/* The body of the transmit interrupt: sends while the UART takes bytes
 * (on hardware one or a few per interrupt; QEMU's UARTs take them at
 * once, so one interrupt empties the buffer).  With nothing left the UART
 * goes idle: the next board_uart_tx_kick() restarts it. */
void trace_uart_tx_irq(void);

/* Polled, until the buffer is empty: idle loops without the interrupt, and
 * the end of a run (interrupts masked). */
void trace_uart_drain(void);

#endif /* TRACE_UART_H */
