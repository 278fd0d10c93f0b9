/*
 * board.c -- QEMU's RISC-V virt machine for the shared firmware
 * (fw-common/board.h): UART, CLINT, PLIC, goldfish RTC, exit; and the trap
 * handler that dispatches interrupts and lets them nest.
 *
 * RISC-V takes every machine-mode trap with MIE cleared and has no
 * priorities between the CLINT's interrupts and the PLIC's.  rv_trap() gives
 * them an order (board_cfg.h, LEVEL_*): serving one, it enables in mie only
 * the sources more urgent than it and raises the PLIC threshold to its
 * level, then sets MIE, so a more urgent interrupt nests into it as on a
 * Cortex-M NVIC.  The scheduler's switch request (mip.SSIP) is enabled only
 * at task level: it is taken when no handler runs.
 */
#include "board.h"
#include "sonde.h"
#include "sonde_riscv.h"

/* ---- the interrupt order ------------------------------------------------ */

#define MIE_TASK (MIP_MEIP | MIP_MSIP | MIP_MTIP | MIP_SSIP)

static uint32_t rv_nest; /* handlers running */
static int uart_tx_irq;

/* mie for a handler at level: the CLINT sources above it, and the PLIC,
 * whose threshold then passes only sources above it. */
static uint32_t mie_above(uint32_t level)
{
	return MIP_MEIP | (level < LEVEL_WORK ? MIP_MSIP : 0u) | (level < LEVEL_TICK ? MIP_MTIP : 0u);
}

/* Run handler at level with the more urgent interrupts let in. */
static void rv_nested(uint32_t level, void (*handler)(void))
{
	uint32_t mie_old, thr_old;

	__asm__ __volatile__("csrr %0, mie" : "=r"(mie_old));
	thr_old = PLIC_THRESHOLD;
	PLIC_THRESHOLD = level;
	CSR_WRITE(mie, mie_above(level));
	rv_nest++;
	arch_irq_on();
	handler();
	arch_irq_off();
	rv_nest--;
	CSR_WRITE(mie, mie_old);
	PLIC_THRESHOLD = thr_old;
}

static void uart_isr(void)
{
	if (UART_LSR & UART_LSR_DR)
		app_isr_uart_rx();
	if (uart_tx_irq && (UART_IER & UART_IER_THR))
		app_isr_uart_tx();
}

/* From trap.S with MIE clear; non-zero: switch tasks now (the switch
 * request, at task level). */
uint32_t rv_trap(uint32_t mcause);
uint32_t rv_trap(uint32_t mcause)
{
	uint32_t src;

	if (!(mcause & MCAUSE_INT)) {
		uint32_t mepc;

		__asm__ __volatile__("csrr %0, mepc" : "=r"(mepc));
		app_fault(mepc, mcause);
		board_exit(2);
	}
	switch (mcause & 0xFFu) {
	case IRQ_S_SOFT:
		CSR_CLEAR(mip, MIP_SSIP);
		return rv_nest == 0u;
	case IRQ_M_TIMER:
		rv_nested(LEVEL_TICK, app_isr_tick);
		break;
	case IRQ_M_SOFT:
		rv_nested(LEVEL_WORK, app_isr_work);
		break;
	case IRQ_M_EXT:
		src = PLIC_CLAIM;
		if (src == PLIC_RTC)
			rv_nested(LEVEL_SAMPLE, app_isr_sample);
		else if (src == PLIC_UART0)
			rv_nested(LEVEL_UART, uart_isr);
		if (src)
			PLIC_CLAIM = src; /* complete */
		break;
	default:
		app_fault(0, mcause);
		board_exit(2);
	}
	return 0;
}

/* ---- start and stop ------------------------------------------------------ */

void board_init(void)
{
	UART_IER = 0;
	UART_LCR = 0x03u; /* 8N1 (QEMU ignores the divisor) */
	UART_FCR = 0;     /* no FIFO: one byte at a time, as the driver expects */
	PLIC_THRESHOLD = 0;
	CSR_WRITE(mie, 0);
	sonde_rv_ts_init(); /* mtime runs from reset */
}

static void mtimecmp_set(uint64_t t)
{
	CLINT_MTIMECMP_HI = 0xFFFFFFFFu; /* no spurious match between the halves */
	CLINT_MTIMECMP_LO = (uint32_t)t;
	CLINT_MTIMECMP_HI = (uint32_t)(t >> 32);
}

static uint64_t tick_next;

void board_tick_start(void)
{
	uint32_t hi, lo;

	do {
		hi = CLINT_MTIME_HI;
		lo = CLINT_MTIME_LO;
	} while (hi != CLINT_MTIME_HI);
	tick_next = ((uint64_t)hi << 32 | lo) + TICK_PERIOD;
	mtimecmp_set(tick_next);
	CSR_SET(mie, MIP_MTIP | MIP_SSIP | MIP_MSIP);
}

static uint64_t rtc_next;

void board_timers_start(void)
{
	uint32_t lo = RTC_TIME_LOW; /* latches the high half */
	uint32_t hi = RTC_TIME_HIGH;
	uint32_t m = arch_irq_save();

	rtc_next = ((uint64_t)hi << 32 | lo) + SAMPLE_PERIOD_NS;
	RTC_ALARM_HIGH = (uint32_t)(rtc_next >> 32);
	RTC_ALARM_LOW = (uint32_t)rtc_next; /* arms it */
	RTC_IRQ_ENABLED = 1u;
	PLIC_PRIORITY(PLIC_RTC) = LEVEL_SAMPLE;
	PLIC_ENABLE |= 1u << PLIC_RTC;
	CSR_SET(mie, MIP_MEIP);
	arch_irq_restore(m);
}

void board_uart_irqs_start(int tx_irq)
{
	uart_tx_irq = tx_irq;
	UART_IER = UART_IER_RX;
	PLIC_PRIORITY(PLIC_UART0) = LEVEL_UART;
	PLIC_ENABLE |= 1u << PLIC_UART0;
	CSR_SET(mie, MIP_MEIP);
}

void board_stop(void)
{
	CSR_WRITE(mie, 0);
	PLIC_ENABLE = 0;
	RTC_IRQ_ENABLED = 0;
	RTC_CLEAR_ALARM = 1u;
	UART_IER = 0;
	CLINT_MSIP = 0;
}

/* ---- acknowledging ------------------------------------------------------- */

static uint32_t tick_count;

/* The next tick one period after this one's due time (not after now: the
 * period stays exact); the work interrupt every other tick. */
void board_tick_ack(void)
{
	tick_next += TICK_PERIOD;
	mtimecmp_set(tick_next);
	if (++tick_count % 2u == 0u)
		CLINT_MSIP = 1u;
}

void board_work_ack(void)
{
	CLINT_MSIP = 0;
}

void board_sample_ack(void)
{
	RTC_CLEAR_INTERRUPT = 1u;
	rtc_next += SAMPLE_PERIOD_NS;
	RTC_ALARM_HIGH = (uint32_t)(rtc_next >> 32);
	RTC_ALARM_LOW = (uint32_t)rtc_next;
}

void board_trace_tick(void)
{
	sonde_rv_tick();
}

/* ---- UART ------------------------------------------------------------------
 * QEMU's 16550 sends a byte written to THR at once when the backend takes
 * it; LSR.THRE says THR is free.  The THR-empty interrupt is asserted
 * while enabled and THR is empty: enabling it is the kick, disabling it
 * ends a drain. */

void board_uart_putc(uint8_t c)
{
	while (!(UART_LSR & UART_LSR_THRE))
		;
	UART_THR = c;
}

void board_uart_flush(void)
{
	while (!(UART_LSR & UART_LSR_THRE))
		;
}

void board_uart_tx_ack(void)
{
}

int board_uart_tx_ready(void)
{
	return (UART_LSR & UART_LSR_THRE) != 0;
}

void board_uart_tx_put(uint8_t b)
{
	UART_THR = b;
}

void board_uart_tx_idle(void)
{
	UART_IER = UART_IER_RX;
}

void board_uart_tx_kick(void)
{
	uint32_t m = arch_irq_save();

	UART_IER = UART_IER_RX | UART_IER_THR;
	arch_irq_restore(m);
}

void board_uart_rx_ack(void)
{
}

int board_uart_rx_avail(void)
{
	return (UART_LSR & UART_LSR_DR) != 0;
}

uint8_t board_uart_rx_get(void)
{
	return UART_RBR;
}

/* ---- benchmark stopwatch: minstret (QEMU -icount: the instruction count) */

void board_stopwatch_start(void)
{
}

uint32_t board_stopwatch(void)
{
	uint32_t n;

	__asm__ __volatile__("csrr %0, minstret" : "=r"(n));
	return n;
}

void board_exit(int code)
{
	for (;;)
		TEST_FINISHER = code ? TEST_FAIL | (uint32_t)code << 16 : TEST_PASS;
}
