/*
 * uart_trace.h -- the Sonde trace out of UART0 on the MPS2 AN385: drained
 * from the UART's TX interrupt (kicked by the application), or polled.
 * Shared by the Cortex-M3 examples (qemu-mps2, freertos-mps2).
 */
#ifndef UART_TRACE_H
#define UART_TRACE_H

/* The body of UART0's TX interrupt handler: sends while the UART takes
 * bytes (on hardware one or two per interrupt; QEMU's UART takes them at
 * once, so one interrupt empties the buffer).  With nothing left it
 * returns: the next kick restarts it. */
void uart_trace_irq(void);

/* Make the TX interrupt pending, so it drains what was written meanwhile. */
void uart_trace_kick(void);

/* Polled, until the buffer is empty: idle loops without the interrupt, and
 * the end of a run (interrupts masked). */
void uart_trace_drain(void);

#endif /* UART_TRACE_H */
