/*
 * clock_test.c -- the Cortex-M port's trace clock against a hardware
 * stopwatch, under QEMU (-icount shift=0): SysTick extended to 32 bits (or
 * the free-running timer) read from thread mode and from interrupts around
 * SysTick's wraps must never jump or step back.  Prints "clock test: ...:
 * ok" (or FAIL) on UART0 and leaves through semihosting; the e2e test
 * (tests/e2e/test_qemu_trace.sh) runs it for each clock option.
 */
#include <stdint.h>

#include "board.h"
#include "sonde.h"
#include "sonde_cm.h"

/* The stopwatch: TIMER0 free-running (board_stopwatch). */
#define clk() board_stopwatch()

/* TIMER1 counting down from period-1, interrupting at 0. */
static void timer1_start(uint32_t period)
{
	TIMER_CTRL(TIMER1_BASE) = 0;
	TIMER_RELOAD(TIMER1_BASE) = period - 1u;
	TIMER_VALUE(TIMER1_BASE) = period - 1u;
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
	TIMER_CTRL(TIMER1_BASE) = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

static void timer1_stop(void)
{
	TIMER_CTRL(TIMER1_BASE) = 0;
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
}

/* ---- clock test: the port's clock against the stopwatch --------------
 *
 * Both count at 25 MHz, so their difference must stay constant: a SysTick
 * wrap counted twice or missed shows up as a jump of a whole period, a read
 * at the wrong moment as a step back.  Readings come from three places:
 * a thread loop with interrupts masked (the port must extend SysTick with
 * no handler running), the same loop with the SysTick handler live, and a
 * TIMER1 interrupt that preempts the SysTick handler, then TIMER1 aimed at
 * 0..15 ticks after a wrap so that it lands inside the SysTick handler
 * before its sonde_cm_systick_tick() (the case a naive "the handler adds a
 * period" extension gets wrong; the count of such reads is printed).  The
 * loop's varying delay lands reads on every phase of the SysTick count,
 * including the one tick where it reads 0. */
static volatile uint32_t ck_reads, ck_bad, ck_maxdev, ck_isr_reads;
static uint32_t ck_prev;
static int32_t ck_offset;
static int ck_have;

static void clock_check(void)
{
	uint32_t m = arch_irq_save();
	uint32_t t0 = sonde_port_ts();
	uint32_t t = sonde_port_ts(); /* a second read within the same tick, often */
	uint32_t s = clk();
	int32_t off = (int32_t)(t - s), dev;

	if (!ck_have) {
		ck_offset = off;
		ck_prev = t0;
		ck_have = 1;
	}
	dev = off - ck_offset;
	if (dev < 0)
		dev = -dev;
	if ((uint32_t)dev > ck_maxdev)
		ck_maxdev = (uint32_t)dev;
	if (dev > 2 || (int32_t)(t0 - ck_prev) < 0 || t - t0 > 1u)
		ck_bad++;
	ck_prev = t;
	ck_reads++;
	arch_irq_restore(m);
}

static void clock_loop(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t d = i % 23u;
		while (d--)
			__asm__ __volatile__("nop");
		clock_check();
	}
}

static volatile int ck_oneshot, ck_fired, ck_hooked;
static volatile uint32_t ck_race;

#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
/* The SysTick handler (the board's tick vector).  Some 200 instructions (5
 * ticks) before the hook: the window in which a preempting ISR sees the
 * wrap taken but not yet accounted by the handler. */
void app_isr_tick(void)
{
	uint32_t n = 100;

	ck_hooked = 0;
	__asm__ __volatile__("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
	sonde_cm_systick_tick();
	ck_hooked = 1;
}
#endif

#define SHCSR_SYSTICKACT (1u << 11)

/* TIMER1 (the board's sample vector). */
void app_isr_sample(void)
{
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
	if ((SCB_SHCSR & SHCSR_SYSTICKACT) && !ck_hooked)
		ck_race++;
	clock_check();
	ck_isr_reads++;
	if (ck_oneshot) {
		timer1_stop();
		ck_fired = 1;
	}
}

#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
/* TIMER1 aimed at the SysTick wrap: k ticks after it, k = 0..15. */
static void clock_aimed(void)
{
	uint32_t k, c;

	ck_oneshot = 1;
	for (k = 0; k < 16u; k++) {
		while (SYST_CVR < 2000u)
			;
		while (SYST_CVR > 1000u)
			;
		c = SYST_CVR;
		ck_fired = 0;
		timer1_start(c + k);
		while (!ck_fired)
			clock_check();
	}
	ck_oneshot = 0;
}
#endif

static void clock_test(void)
{
	const uint32_t n = 200000u; /* about 6 SysTick periods per phase */

	clock_loop(n); /* masked: no handler */
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	arch_set_prio_systick(PRIO_SYSTICK);
	SYST_CSR = 7u; /* interrupt on */
#endif
	arch_irq_on();
	clock_loop(n); /* SysTick handler live */
	timer1_start(997u);
	arch_irq_enable(IRQ_TIMER1, PRIO_TIMER1);
	clock_loop(n); /* and TIMER1 preempting it */
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	clock_aimed();
#endif
	arch_irq_disable(IRQ_TIMER1);
	timer1_stop();
	arch_irq_off();
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	SYST_CSR = 5u;
#endif
	board_uart_puts("clock test: ");
	board_uart_put_u32(ck_reads);
	board_uart_puts(" reads (");
	board_uart_put_u32(ck_isr_reads);
	board_uart_puts(" in TIMER1, ");
	board_uart_put_u32(ck_race);
	board_uart_puts(" of them inside SysTick before its hook), ");
	board_uart_put_u32(ck_bad);
	board_uart_puts(" bad, largest deviation from the stopwatch ");
	board_uart_put_u32(ck_maxdev);
	board_uart_puts(ck_bad == 0 ? " ticks: ok\n" : " ticks: FAIL\n");
}

void app_fault(uint32_t pc, uint32_t cause)
{
	(void)cause;
	board_uart_puts("clock test: fault at pc ");
	board_uart_put_u32(pc);
	board_uart_putc('\n');
}

int main(void)
{
	arch_irq_off();
	board_init(); /* the trace clock runs */
	board_stopwatch_start();
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	SYST_CSR = 5u; /* SysTick counting on the core clock, interrupt off */
#endif
	clock_test();
	board_uart_flush();
	board_exit(0);
}
