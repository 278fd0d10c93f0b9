/*
 * board.c -- the micro:bit's nRF51822 for the shared firmware
 * (fw-common/board.h): UART0, TIMER0..2.
 *
 * Roles: TIMER0 runs free over 32 bits as the trace clock (read through
 * capture register 3) and, with compare 0 moved on by one period each time,
 * is the work interrupt; TIMER1 (16 bits, compare 0 moved on likewise) is
 * the tick; TIMER2 (16 bits) the sample interrupt.  Compares move on
 * instead of clearing the counter so that the periods stay exact whatever
 * the interrupt's latency.  The UART has one interrupt for receive and
 * transmit.
 */
#include "board.h"
#include "sonde.h"
#include "sonde_cm.h"

static void timer_init(uint32_t base, uint32_t bitmode)
{
	TIMER_STOP(base) = 1u;
	TIMER_MODE(base) = 0u; /* timer */
	TIMER_BITMODE(base) = bitmode;
	TIMER_PRESCALER(base) = NRF_TIMER_PRESCALER;
	TIMER_CLEAR(base) = 1u;
}

/* Compare 0 one period from now, with its interrupt. */
static void timer_periodic(uint32_t base, uint32_t period)
{
	TIMER_CAPTURE(base, 1) = 1u;
	TIMER_CC(base, 0) = TIMER_CC(base, 1) + period;
	TIMER_EV_COMPARE(base, 0) = 0u;
	TIMER_INTENSET(base) = TIMER_INT_COMPARE(0);
}

/* The next period's compare (the 16-bit timers wrap their CC like the
 * counter: QEMU and the hardware keep the low bits). */
static void timer_next(uint32_t base, uint32_t period)
{
	TIMER_EV_COMPARE(base, 0) = 0u;
	TIMER_CC(base, 0) = TIMER_CC(base, 0) + period;
}

void board_init(void)
{
	UART_ENABLE = UART_ENABLE_ON;
	UART_BAUDRATE = UART_BAUD_115200;
	UART_EV_TXDRDY = 0u;
	UART_STARTTX = 1u;
	timer_init(TIMER0_BASE, TIMER_BITMODE_32);
	TIMER_START(TIMER0_BASE) = 1u; /* the trace clock runs from here on */
	sonde_cm_ts_init();
}

void board_tick_start(void)
{
	timer_init(TIMER1_BASE, TIMER_BITMODE_16);
	TIMER_START(TIMER1_BASE) = 1u;
	timer_periodic(TIMER1_BASE, TICK_PERIOD);
	arch_irq_enable(IRQ_TIMER1, PRIO_TICK);
}

void board_timers_start(void)
{
	timer_init(TIMER2_BASE, TIMER_BITMODE_16);
	TIMER_START(TIMER2_BASE) = 1u;
	timer_periodic(TIMER2_BASE, SAMPLE_PERIOD);
	timer_periodic(TIMER0_BASE, WORK_PERIOD);
	arch_irq_enable(IRQ_TIMER0, PRIO_WORK);
	arch_irq_enable(IRQ_TIMER2, PRIO_SAMPLE);
}

static int uart_tx_irq;

void board_uart_irqs_start(int tx_irq)
{
	uart_tx_irq = tx_irq;
	UART_EV_RXDRDY = 0u;
	UART_STARTRX = 1u;
	UART_INTENSET = UART_INT_RXDRDY | (tx_irq ? UART_INT_TXDRDY : 0u);
	arch_irq_enable(IRQ_UART0, PRIO_UART);
}

void board_stop(void)
{
	arch_irq_disable(IRQ_TIMER0);
	arch_irq_disable(IRQ_TIMER1);
	arch_irq_disable(IRQ_TIMER2);
	arch_irq_disable(IRQ_UART0);
	UART_INTENCLR = UART_INT_RXDRDY | UART_INT_TXDRDY;
	TIMER_INTENCLR(TIMER0_BASE) = TIMER_INT_COMPARE(0);
	TIMER_STOP(TIMER1_BASE) = 1u;
	TIMER_STOP(TIMER2_BASE) = 1u;
}

void board_tick_ack(void)
{
	timer_next(TIMER1_BASE, TICK_PERIOD);
}

void board_work_ack(void)
{
	timer_next(TIMER0_BASE, WORK_PERIOD);
}

void board_sample_ack(void)
{
	timer_next(TIMER2_BASE, SAMPLE_PERIOD);
}

void board_trace_tick(void)
{
	sonde_cm_systick_tick(); /* the tick hook: sonde_tick() (any trace clock) */
}

/* ---- vectors' targets ---------------------------------------------------- */

/* One interrupt for both directions: the receive work is the traced ISR,
 * the transmit side (the drain) is not. */
void board_isr_uart(void);
void board_isr_uart(void)
{
	if (UART_EV_RXDRDY)
		app_isr_uart_rx();
	if (uart_tx_irq)
		app_isr_uart_tx();
}

/* ---- UART0 ---------------------------------------------------------------
 * TXD takes a byte when none is pending; EVENTS_TXDRDY says it has gone
 * (QEMU: at once when the backend takes it; a write while one is pending
 * is lost).  tx_busy: a byte was written and its TXDRDY not yet seen. */

static volatile int tx_busy;

int board_uart_tx_ready(void)
{
	if (tx_busy) {
		if (!UART_EV_TXDRDY)
			return 0;
		UART_EV_TXDRDY = 0u;
		tx_busy = 0;
	}
	return 1;
}

void board_uart_tx_put(uint8_t b)
{
	tx_busy = 1;
	UART_TXD = b;
}

void board_uart_putc(uint8_t c)
{
	while (!board_uart_tx_ready())
		;
	board_uart_tx_put(c);
}

void board_uart_flush(void)
{
	while (!board_uart_tx_ready())
		;
}

void board_uart_tx_ack(void)
{
}

/* TXDRDY was cleared by tx_ready: no interrupt until the next byte. */
void board_uart_tx_idle(void)
{
}

void board_uart_tx_kick(void)
{
	arch_irq_pend(IRQ_UART0);
}

/* RXDRDY stays set while the receive FIFO holds bytes: each read takes one
 * and sets it again if more are there. */
void board_uart_rx_ack(void)
{
}

int board_uart_rx_avail(void)
{
	return UART_EV_RXDRDY != 0u;
}

uint8_t board_uart_rx_get(void)
{
	UART_EV_RXDRDY = 0u;
	return (uint8_t)UART_RXD;
}

/* ---- benchmark stopwatch: TIMER0, free-running (board_init) ---------- */

void board_stopwatch_start(void)
{
}

uint32_t board_stopwatch(void)
{
	TIMER_CAPTURE(TIMER0_BASE, 2) = 1u;
	return TIMER_CC(TIMER0_BASE, 2);
}
