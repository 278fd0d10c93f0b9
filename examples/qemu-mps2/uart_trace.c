/*
 * uart_trace.c -- the Sonde trace out of UART0 (uart_trace.h).
 */
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "sonde.h"
#include "uart_trace.h"

void uart_trace_irq(void)
{
	UART0_INTSTATUS = UART_INT_TX;
	while (!(UART0_STATE & UART_STATE_TXFULL)) {
		int b = sonde_drain_byte();

		if (b < 0)
			break;
		UART0_DATA = (uint32_t)b;
	}
}

void uart_trace_kick(void)
{
	NVIC_ISPR = 1u << IRQ_UART0_TX;
}

void uart_trace_drain(void)
{
	uint8_t chunk[64];
	size_t n, i;

	while ((n = sonde_drain(chunk, sizeof chunk)) > 0)
		for (i = 0; i < n; i++)
			board_uart_putc(chunk[i]);
}
