/*
 * board_text.c -- text output on any board's UART, on top of
 * board_uart_putc() (the benchmark's tables, the clock test's verdict).
 */
#include "board.h"

void board_uart_puts(const char *s)
{
	while (*s)
		board_uart_putc((uint8_t)*s++);
}

void board_uart_put_u32(uint32_t v)
{
	char d[10];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	while (n)
		board_uart_putc((uint8_t)d[--n]);
}
