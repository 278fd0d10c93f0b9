/*
 * board.c -- UART0, CMSDK timers and semihosting exit on the MPS2 AN385.
 */
#include "board.h"

#define UART_BAUD 115200u

void board_uart_init(int tx_irq)
{
	UART0_CTRL = 0;
	UART0_BAUDDIV = MPS2_SYSCLK_HZ / UART_BAUD;
	UART0_INTSTATUS = UART_INT_TX | UART_INT_RX;
	UART0_CTRL = UART_CTRL_TX_EN | (tx_irq ? UART_CTRL_TX_INTEN : 0u);
}

void board_uart_rx_start(void)
{
	UART0_INTSTATUS = UART_INT_RX;
	UART0_CTRL |= UART_CTRL_RX_EN | UART_CTRL_RX_INTEN;
}

void board_uart_putc(uint8_t c)
{
	while (UART0_STATE & UART_STATE_TXFULL)
		;
	UART0_DATA = c;
}

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

void board_uart_flush(void)
{
	while (UART0_STATE & UART_STATE_TXFULL)
		;
}

void board_timer_start(uint32_t base, uint32_t period, int irq)
{
	TIMER_CTRL(base) = 0;
	TIMER_RELOAD(base) = period - 1u;
	TIMER_VALUE(base) = period - 1u;
	TIMER_INTCLEAR(base) = 1u;
	TIMER_CTRL(base) = TIMER_CTRL_EN | (irq ? TIMER_CTRL_IRQEN : 0u);
}

void board_timer_stop(uint32_t base)
{
	TIMER_CTRL(base) = 0;
	TIMER_INTCLEAR(base) = 1u;
}

void board_dualtimer_free_run(void)
{
	DUALTIMER1_CONTROL = 0;
	DUALTIMER1_LOAD = 0xFFFFFFFFu;
	DUALTIMER1_CONTROL = DUALTIMER_CTRL_EN | DUALTIMER_CTRL_32BIT; /* free-running */
}

void board_systick_start(uint32_t period)
{
	SYST_CSR = 0;
	SYST_RVR = period - 1u;
	SYST_CVR = 0;
	SYST_CSR = 7u; /* enable, interrupt, core clock */
}

/* ARM semihosting: SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit
 * (0x20026) or ADP_Stopped_RunTimeErrorUnknown (0x20023). */
void board_exit(int code)
{
	register uint32_t op __asm__("r0") = 0x18u;
	register uint32_t reason __asm__("r1") = code ? 0x20023u : 0x20026u;

	for (;;)
		__asm__ __volatile__("bkpt 0xab" : : "r"(op), "r"(reason) : "memory");
}
