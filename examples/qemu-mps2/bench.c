/*
 * bench.c -- how many instructions a Sonde record costs on the Cortex-M3,
 * measured under QEMU with -icount shift=0 (one instruction = 1 ns of
 * virtual time; the 25 MHz timers then advance one tick per 40 executed
 * instructions).  Prints a table on UART0 as text (run with -serial stdio;
 * `make bench` does).
 *
 * Method: TIMER0 runs free (no interrupt) as the stopwatch; interrupts are
 * masked and SysTick's interrupt is off, so nothing else runs.  A loop of
 * BENCH_N calls is timed and the same loop without the call is subtracted;
 * the result, converted with the instructions-per-tick ratio measured on a
 * loop of known length, is the cost per call as the caller sees it:
 * argument set-up, the call, the function and its return.  Each case starts
 * from an empty buffer large enough for all its records (so no overwriting),
 * except the case that measures overwriting itself.  TIME_SYNC records the
 * library inserts (one per 256 frames) are part of the average, as in real
 * use.
 */
#include <stdint.h>

#include "board.h"
#include "sonde.h"
#include "sonde_cm.h"

#ifndef BENCH_N
#define BENCH_N 4096u
#endif
#ifndef CAL_N
#define CAL_N 1000000u
#endif

static uint8_t big_buf[128 * 1024];
static uint8_t small_buf[512];

static inline uint32_t clk(void)
{
	return ~TIMER_VALUE(TIMER0_BASE);
}

/* 2 * n + a few instructions: subs/bne per iteration. */
__attribute__((noinline)) static uint32_t cal_spin(uint32_t n)
{
	uint32_t t0 = clk();
	__asm__ __volatile__("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
	return clk() - t0;
}

/* One timed loop per case; the loop structure is the same in each (checked
 * in the disassembly: a down-counter in a callee-saved register, subs/bne),
 * so the empty loop's time is the loop's share.  The asm comment keeps the
 * compiler from folding identical loops into one function (insn_count.py
 * tells the cases apart by function name). */
#define BENCH_LOOP(name, body)                                      \
	__attribute__((noinline)) static uint32_t name(void)        \
	{                                                           \
		uint32_t i, t0 = clk();                             \
		for (i = BENCH_N; i != 0; i--) {                    \
			body;                                       \
			__asm__ __volatile__("@ " #name ::: "memory"); \
		}                                                   \
		return clk() - t0;                                  \
	}

BENCH_LOOP(b_empty, (void)0)
BENCH_LOOP(b_port_ts, (void)sonde_port_ts())
BENCH_LOOP(b_isr_enter, sonde_isr_enter(1))
BENCH_LOOP(b_isr_enter_7e, sonde_isr_enter(0x7E))
BENCH_LOOP(b_isr_exit, sonde_isr_exit(1))
BENCH_LOOP(b_task_in, sonde_task_in(10))
BENCH_LOOP(b_mark, sonde_mark(20))
BENCH_LOOP(b_counter, sonde_counter(30, (int32_t)i))
BENCH_LOOP(b_user_u32x2, sonde_user_u32x2(0x40, i, 0x12345678u))
BENCH_LOOP(b_user_generic, if (sonde_user_begin(0x40)) {
	sonde_arg_u32(i);
	sonde_arg_u32(0x12345678u);
	sonde_user_end();
})
BENCH_LOOP(b_log_u32x2, sonde_log_u32x2(SONDE_LVL_INFO, 1, i, 7))
BENCH_LOOP(b_isr_enter_filtered, sonde_isr_enter(1))
BENCH_LOOP(b_systick_tick, sonde_cm_systick_tick())
BENCH_LOOP(b_isr_enter_overwrite, sonde_isr_enter(1))

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
#ifndef BENCH_CLOCK_TEST
#define BENCH_CLOCK_TEST 1
#endif

#if BENCH_CLOCK_TEST
static volatile uint32_t ck_reads, ck_bad, ck_maxdev, ck_isr_reads;
static uint32_t ck_prev;
static int32_t ck_offset;
static int ck_have;

static void clock_check(void)
{
	uint32_t m = mps2_irq_save();
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
	mps2_irq_restore(m);
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
/* Some 200 instructions (5 ticks) before the hook: the window in which a
 * preempting ISR sees the wrap taken but not yet accounted by the handler. */
void SysTick_Handler(void);
void SysTick_Handler(void)
{
	uint32_t n = 100;

	ck_hooked = 0;
	__asm__ __volatile__("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
	sonde_cm_systick_tick();
	ck_hooked = 1;
}
#endif

#define SCB_SHCSR MPS2_REG(0xE000ED24u)
#define SHCSR_SYSTICKACT (1u << 11)

void TIMER1_Handler(void);
void TIMER1_Handler(void)
{
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
	if ((SCB_SHCSR & SHCSR_SYSTICKACT) && !ck_hooked)
		ck_race++;
	clock_check();
	ck_isr_reads++;
	if (ck_oneshot) {
		board_timer_stop(TIMER1_BASE);
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
		board_timer_start(TIMER1_BASE, c + k, 1);
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
	SCB_SHPR_SYSTICK = PRIO_SYSTICK;
	SYST_CSR = 7u; /* interrupt on */
#endif
	__asm__ __volatile__("cpsie i" : : : "memory");
	clock_loop(n); /* SysTick handler live */
	board_timer_start(TIMER1_BASE, 997u, 1);
	mps2_irq_enable(IRQ_TIMER1, PRIO_TIMER1);
	clock_loop(n); /* and TIMER1 preempting it */
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	clock_aimed();
#endif
	mps2_irq_disable(IRQ_TIMER1);
	board_timer_stop(TIMER1_BASE);
	__asm__ __volatile__("cpsid i" : : : "memory");
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
#endif /* BENCH_CLOCK_TEST */

static uint32_t ipt_milli; /* instructions per tick, x1000 */
static uint32_t base_ticks;

static void put_fixed2(uint32_t x100)
{
	board_uart_put_u32(x100 / 100u);
	board_uart_putc('.');
	board_uart_putc((uint8_t)('0' + x100 / 10u % 10u));
	board_uart_putc((uint8_t)('0' + x100 % 10u));
}

static void report(const char *name, uint32_t ticks)
{
	/* instructions per call x100 = (ticks - base) * ipt / N */
	uint64_t x100 = ((uint64_t)(ticks - base_ticks) * ipt_milli + BENCH_N * 5u) / (BENCH_N * 10u);
	unsigned len = 0;

	board_uart_puts(name);
	while (name[len])
		len++;
	while (len++ < 46)
		board_uart_putc(' ');
	board_uart_put_u32(ticks);
	board_uart_puts(" ticks  ");
	put_fixed2((uint32_t)x100);
	board_uart_puts(" instr/call\n");
}

static void fresh(void)
{
	sonde_init(big_buf, sizeof big_buf, SONDE_MODE_OVERWRITE);
}

void app_fault(const uint32_t *frame, uint32_t exc_return)
{
	(void)exc_return;
	board_uart_puts("bench: fault at pc ");
	board_uart_put_u32(frame[6]);
	board_uart_putc('\n');
}

int main(void)
{
	uint32_t t, i;
	sonde_stats_t st;

	__asm__ __volatile__("cpsid i" : : : "memory");
	board_uart_init(0);
	board_timer_start(TIMER0_BASE, 0, 0); /* reload 0xFFFFFFFF: free-running */
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	sonde_cm_ts_init();
	SYST_CSR = 5u; /* SysTick counting on the core clock, interrupt off */
#else
	board_dualtimer_free_run();
	sonde_cm_ts_init();
#endif

	board_uart_puts("sonde bench: Cortex-M3 (QEMU mps2-an385), run with -icount shift=0\n");
	t = cal_spin(CAL_N);
	ipt_milli = (uint32_t)(((uint64_t)2u * CAL_N * 1000u + t / 2u) / t);
	board_uart_puts("calibration: ");
	board_uart_put_u32(2u * CAL_N);
	board_uart_puts(" instructions in ");
	board_uart_put_u32(t);
	board_uart_puts(" ticks = ");
	board_uart_put_u32(ipt_milli / 1000u);
	board_uart_putc('.');
	board_uart_put_u32(ipt_milli % 1000u / 100u);
	board_uart_put_u32(ipt_milli % 100u / 10u);
	board_uart_put_u32(ipt_milli % 10u);
	board_uart_puts(" instructions/tick\n");

#if BENCH_CLOCK_TEST
	clock_test();
#endif
	board_uart_puts("case (N = ");
	board_uart_put_u32(BENCH_N);
	board_uart_puts(" calls each; cost = call + args + body, loop subtracted)\n");
	fresh();
	base_ticks = b_empty();
	report("empty loop (the baseline)", base_ticks);
	fresh();
	report("sonde_port_ts (own critical section)", b_port_ts());
	fresh();
	report("sonde_isr_enter", b_isr_enter());
	fresh();
	report("sonde_isr_enter(0x7E): always escaped, slow", b_isr_enter_7e());
	fresh();
	report("sonde_isr_exit", b_isr_exit());
	fresh();
	report("sonde_task_in", b_task_in());
	fresh();
	report("sonde_mark", b_mark());
	fresh();
	report("sonde_counter (32-bit)", b_counter());
	fresh();
	report("sonde_user_u32x2", b_user_u32x2());
	fresh();
	report("user_begin + 2 x arg_u32 + user_end", b_user_generic());
	fresh();
	report("sonde_log_u32x2", b_log_u32x2());

	/* Filtered out: one filter test. */
	fresh();
	sonde_filter_object(1, 0);
	report("sonde_isr_enter, object filtered out", b_isr_enter_filtered());

	/* The SysTick handler's share: clock extension and/or the tick hook. */
	fresh();
	report("sonde_cm_systick_tick (once per SysTick)", b_systick_tick());

	/* Overwriting: a full small buffer, every record evicts old ones. */
	sonde_init(small_buf, sizeof small_buf, SONDE_MODE_OVERWRITE);
	for (i = 0; i < 200u; i++)
		sonde_isr_enter(1);
	report("sonde_isr_enter, overwriting (512 B buffer)", b_isr_enter_overwrite());
	sonde_get_stats(&st);
	board_uart_puts("  (that buffer: records ");
	board_uart_put_u32(st.records);
	board_uart_puts(", overwritten ");
	board_uart_put_u32(st.overwritten);
	board_uart_puts(")\n");

	board_uart_puts("bench: done\n");
	board_uart_flush();
	board_exit(0);
}
