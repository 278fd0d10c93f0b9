/*
 * trace_uart.c -- the Sonde trace out of a board's UART (trace_uart.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "sonde.h"
#include "trace_uart.h"

void trace_uart_tx_irq(void)
{
	board_uart_tx_ack();
	while (board_uart_tx_ready()) {
		int b = sonde_drain_byte();

		if (b < 0) {
			board_uart_tx_idle();
			break;
		}
		board_uart_tx_put((uint8_t)b);
	}
}

void trace_uart_drain(void)
{
	uint8_t chunk[64];
	size_t n, i;

	while ((n = sonde_drain(chunk, sizeof chunk)) > 0)
		for (i = 0; i < n; i++)
			board_uart_putc(chunk[i]);
}
