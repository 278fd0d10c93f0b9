/*
 * board.c -- the MPS2 boards (AN385/AN386/AN500, and AN505 in the secure
 * world) for the shared firmware (fw-common/board.h): CMSDK UART0 and
 * timers, SysTick, and the trace clock.
 *
 * Roles: SysTick is the tick, TIMER0 the work interrupt, TIMER1 the sample
 * interrupt, dual timer 1 the trace clock (free-running; with TS=systick
 * the port extends SysTick instead), TIMER0 again the benchmark's
 * stopwatch (free-running there).
 */
#include "board.h"
#include "sonde.h"
#include "sonde_cm.h"

#define UART_BAUD 115200u

static void timer_start(uint32_t base, uint32_t period, int irq)
{
	TIMER_CTRL(base) = 0;
	TIMER_RELOAD(base) = period - 1u;
	TIMER_VALUE(base) = period - 1u;
	TIMER_INTCLEAR(base) = 1u;
	TIMER_CTRL(base) = TIMER_CTRL_EN | (irq ? TIMER_CTRL_IRQEN : 0u);
}

static void timer_stop(uint32_t base)
{
	TIMER_CTRL(base) = 0;
	TIMER_INTCLEAR(base) = 1u;
}

void board_init(void)
{
	UART0_CTRL = 0;
	UART0_BAUDDIV = MPS2_SYSCLK_HZ / UART_BAUD;
	UART0_INTSTATUS = UART_INT_TX | UART_INT_RX;
	UART0_CTRL = UART_CTRL_TX_EN;
#if SONDE_CM_TS == SONDE_CM_TS_TIMER
	DUALTIMER1_CONTROL = 0;
	DUALTIMER1_LOAD = 0xFFFFFFFFu;
	DUALTIMER1_CONTROL = DUALTIMER_CTRL_EN | DUALTIMER_CTRL_32BIT; /* free-running */
#endif
	sonde_cm_ts_init();
}

void board_tick_start(void)
{
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	/* sonde_cm_ts_init() started SysTick: trace clock and tick at once
	 * (SONDE_CM_SYSTICK_PERIOD is the tick period). */
#else
	SYST_CSR = 0;
	SYST_RVR = MPS2_SYSCLK_HZ / 1000u - 1u;
	SYST_CVR = 0;
	SYST_CSR = 7u; /* enable, interrupt, core clock */
#endif
	arch_set_prio_systick(PRIO_SYSTICK);
}

void board_timers_start(void)
{
	timer_start(TIMER0_BASE, TIMER0_PERIOD, 1);
	timer_start(TIMER1_BASE, TIMER1_PERIOD, 1);
	arch_irq_enable(IRQ_TIMER0, PRIO_TIMER0);
	arch_irq_enable(IRQ_TIMER1, PRIO_TIMER1);
}

void board_uart_irqs_start(int tx_irq)
{
	UART0_INTSTATUS = UART_INT_RX | UART_INT_TX;
	UART0_CTRL |= UART_CTRL_RX_EN | UART_CTRL_RX_INTEN | (tx_irq ? UART_CTRL_TX_INTEN : 0u);
	arch_irq_enable(IRQ_UART0_RX, PRIO_UART);
	if (tx_irq)
		arch_irq_enable(IRQ_UART0_TX, PRIO_UART);
}

void board_stop(void)
{
	arch_irq_disable(IRQ_TIMER0);
	arch_irq_disable(IRQ_TIMER1);
	arch_irq_disable(IRQ_UART0_TX);
	arch_irq_disable(IRQ_UART0_RX);
	timer_stop(TIMER0_BASE);
	timer_stop(TIMER1_BASE);
}

void board_tick_ack(void)
{
}

void board_work_ack(void)
{
	TIMER_INTCLEAR(TIMER0_BASE) = 1u;
}

void board_sample_ack(void)
{
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
}

void board_trace_tick(void)
{
	sonde_cm_systick_tick();
}

/* ---- UART0 ---------------------------------------------------------------
 * A byte leaves the moment it is written if QEMU's backend takes it;
 * TXFULL stays set while a slow TCP client has not (so it is polled). */

void board_uart_putc(uint8_t c)
{
	while (UART0_STATE & UART_STATE_TXFULL)
		;
	UART0_DATA = c;
}

void board_uart_flush(void)
{
	while (UART0_STATE & UART_STATE_TXFULL)
		;
}

void board_uart_tx_ack(void)
{
	UART0_INTSTATUS = UART_INT_TX;
}

int board_uart_tx_ready(void)
{
	return !(UART0_STATE & UART_STATE_TXFULL);
}

void board_uart_tx_put(uint8_t b)
{
	UART0_DATA = b;
}

/* The TX interrupt comes after each byte sent: with none sent, none comes
 * until the next kick. */
void board_uart_tx_idle(void)
{
}

void board_uart_tx_kick(void)
{
	arch_irq_pend(IRQ_UART0_TX);
}

void board_uart_rx_ack(void)
{
	UART0_INTSTATUS = UART_INT_RX;
}

int board_uart_rx_avail(void)
{
	return (UART0_STATE & UART_STATE_RXFULL) != 0;
}

uint8_t board_uart_rx_get(void)
{
	return (uint8_t)UART0_DATA;
}

/* ---- benchmark stopwatch: TIMER0 free-running, no interrupt ---------- */

void board_stopwatch_start(void)
{
	timer_start(TIMER0_BASE, 0, 0); /* reload 0xFFFFFFFF */
}

uint32_t board_stopwatch(void)
{
	return ~TIMER_VALUE(TIMER0_BASE);
}
