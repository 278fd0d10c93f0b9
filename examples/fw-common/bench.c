/*
 * bench.c -- what a Sonde record costs this CPU, in instructions and in
 * bytes on the wire, at every distance from the previous record, measured
 * under QEMU with -icount shift=0 (one instruction = 1 ns of virtual time;
 * the board's stopwatch, e.g. a 25 MHz timer, advances one tick per 40
 * instructions).  The same source runs on every board of the examples.
 * Prints its tables on the UART as text (`make bench` runs it); `make
 * insns` runs a shorter build of it under QEMU's execution log, from which
 * insn_count.py takes the exact count of every call.
 *
 * The trace clock here is a variable, sonde_bench_clock, read by the port
 * exactly as it reads its hardware clock (BENCH_DEFS in the board's
 * Makefile: on Cortex-M SONDE_CM_TS_TIMER_VAR, load of its address, load,
 * invert -- the same three instructions as the free-running timer; on
 * RISC-V SONDE_RV_TS_VAR, the two of an mtime load), so that each case can
 * put any gap between two records: 1 and 10 ticks (records back to back),
 * 1000, 70 000 and 10 000 000, and more than 2^32, where sonde_tick() runs
 * every 2^27 ticks of the silence as an RTOS tick would.
 *
 * Method: interrupts are masked and nothing else runs.  A loop of N calls
 * is timed and the same loop without the call is subtracted, so the cost is
 * what the caller sees: the inline filter test at the call site, argument
 * set-up, the call, the function and its return.  Each case starts from an
 * empty buffer large enough for all its records (no overwriting), except
 * the case that measures overwriting itself.  TIME_SYNC records the library
 * inserts (one per 256 frames) and the in-place escaping are part of the
 * averages, as in real use.  Bytes per record are read from the buffer
 * afterwards: the wire size of that record's own frames.
 */
#include <stdint.h>

#include "board.h"
#include "sonde.h"

#ifndef BENCH_N
#define BENCH_N BOARD_BENCH_N
#endif
#ifndef BENCH_N_LONG
/* Records after a silence of more than 2^32 ticks: each iteration also
 * writes 32 TIME_SYNCs (about 530 bytes), all of which must fit the buffer
 * (else the case measures overwriting). */
#define BENCH_N_LONG (BOARD_BENCH_BUF / 600u < 32u ? BOARD_BENCH_BUF / 600u : 32u)
#endif
#ifndef CAL_N
#define CAL_N 1000000u
#endif

/* The trace clock, counting like the clock it stands for: down (a Cortex-M
 * timer, read inverted; BENCH_CLOCK_DOWN) or up (RISC-V mtime). */
volatile uint32_t sonde_bench_clock;
/* A capture task's stand-in, for a clock read through a capture register
 * (SONDE_CM_TS_CAPTURE_TASK_VAR): written before each read, like the task. */
volatile uint32_t sonde_bench_capture;

static uint8_t big_buf[BOARD_BENCH_BUF];
static uint8_t small_buf[512];

#define clk() board_stopwatch()

/* 2 * n + a few instructions: a decrement and a branch per iteration. */
__attribute__((noinline)) static uint32_t cal_spin(uint32_t n)
{
	uint32_t t0 = clk();
	arch_spin(n);
	return clk() - t0;
}

/* Advance the trace clock by g ticks. */
#if defined(BENCH_CLOCK_DOWN)
#define GAP(g) (sonde_bench_clock -= (g))
#else
#define GAP(g) (sonde_bench_clock += (g))
#endif

/* The silence of more than 2^32 ticks: 32 ticks of sonde_tick(), 2^27
 * apart (each writes a TIME_SYNC), then 100 000 ticks more.  The record
 * comes before it in the loop, so that a loop without the record runs the
 * ticks exactly alike: the first tick of an iteration always finds 2^27 or
 * more ticks since the last timed frame. */
static inline void silence(void)
{
	unsigned k;

	for (k = 0; k < 32u; k++) {
		GAP(1u << 27);
		sonde_tick();
	}
	GAP(100000u);
}

/* One timed loop per case: `pre` moves the clock, `body` is the call.  The
 * asm comment keeps the compiler from folding identical loops into one
 * function (insn_count.py tells the cases apart by function name). */
#define BENCH_LOOP(name, n, pre, body)                              \
	__attribute__((noinline)) static uint32_t name(void)        \
	{                                                           \
		uint32_t i, t0 = clk();                             \
		for (i = (n); i != 0; i--) {                        \
			pre;                                        \
			body;                                       \
			ARCH_ASM_MARK(name);                        \
		}                                                   \
		return clk() - t0;                                  \
	}

/* The records measured at every gap, in the order of the table. */
#define RECORDS(X)                                                          \
	X(isr_enter, "sonde_isr_enter", SONDE_REC_ISR_ENTER, sonde_isr_enter(1))     \
	X(isr_exit, "sonde_isr_exit", SONDE_REC_ISR_EXIT, sonde_isr_exit(1))         \
	X(task_in, "sonde_task_in", SONDE_REC_TASK_IN, sonde_task_in(10))            \
	X(task_out, "sonde_task_out", SONDE_REC_TASK_OUT, sonde_task_out(10, 1))     \
	X(mark, "sonde_mark", SONDE_REC_MARK, sonde_mark(20))                        \
	X(counter, "sonde_counter (32-bit)", SONDE_REC_COUNTER, sonde_counter(30, (int32_t)i)) \
	X(func_enter, "sonde_func_enter", SONDE_REC_FUNC_ENTER, sonde_func_enter(40)) \
	X(func_exit, "sonde_func_exit", SONDE_REC_FUNC_EXIT, sonde_func_exit())      \
	X(user_u32x2, "sonde_user_u32x2", 0x40, sonde_user_u32x2(0x40, i, 0x12345678u)) \
	X(log_u32x2, "sonde_log_u32x2", SONDE_REC_LOG, sonde_log_u32x2(SONDE_LVL_INFO, 1, i, 7)) \
	X(builder, "user_begin + 2 x arg_u32 + user_end", 0x41,                       \
	  if (sonde_user_begin(0x41)) { sonde_arg_u32(i); sonde_arg_u32(0x12345678u); sonde_user_end(); })

/* The gaps, in ticks; the last is the long silence. */
#define GAPS(X)                                        \
	X(g1, "1", BENCH_N, GAP(1u))                   \
	X(g10, "10", BENCH_N, GAP(10u))                \
	X(g1k, "1000", BENCH_N, GAP(1000u))            \
	X(g70k, "70000", BENCH_N, GAP(70000u))         \
	X(g10m, "10000000", BENCH_N, GAP(10000000u))   \
	X(g2p32, ">2^32", BENCH_N_LONG, (void)0)

/* Loops: b_<gap>_empty, and b_<gap>_<record> for every record. */
#define EMPTY_LOOP(g, label, n, pre) BENCH_LOOP(b_##g##_empty, n, pre, (void)0)
GAPS(EMPTY_LOOP)
/* The long silence's loops advance the clock after the record. */
BENCH_LOOP(b_g2p32_empty_s, BENCH_N_LONG, (void)0, silence())

#define REC_LOOP_G(name, label, id, call, g, n, pre) BENCH_LOOP(b_##g##_##name, n, pre, call)
#define REC_LOOPS(name, label, id, call)                                     \
	REC_LOOP_G(name, label, id, call, g1, BENCH_N, GAP(1u))              \
	REC_LOOP_G(name, label, id, call, g10, BENCH_N, GAP(10u))            \
	REC_LOOP_G(name, label, id, call, g1k, BENCH_N, GAP(1000u))          \
	REC_LOOP_G(name, label, id, call, g70k, BENCH_N, GAP(70000u))        \
	REC_LOOP_G(name, label, id, call, g10m, BENCH_N, GAP(10000000u))     \
	BENCH_LOOP(b_g2p32_##name, BENCH_N_LONG, (void)0, { call; silence(); })
RECORDS(REC_LOOPS)

BENCH_LOOP(b_g10_filtered, BENCH_N, GAP(10u), sonde_isr_enter(1))
BENCH_LOOP(b_g10_overwrite, BENCH_N, GAP(10u), sonde_isr_enter(1))
BENCH_LOOP(b_g1k_tick, BENCH_N, GAP(1000u), board_trace_tick())

/* ---- the realistic mix -------------------------------------------------- */

#include "bench_mix.h"

/* One record of the mix, by id, with the arguments the demo uses. */
static inline void mix_call(uint32_t rec, uint32_t i)
{
	switch (rec) {
	case SONDE_REC_ISR_ENTER: sonde_isr_enter(1); break;
	case SONDE_REC_ISR_EXIT: sonde_isr_exit(1); break;
	case SONDE_REC_TASK_IN: sonde_task_in(10); break;
	case SONDE_REC_TASK_OUT: sonde_task_out(10, 0); break;
	case SONDE_REC_TASK_READY: sonde_task_ready(11); break;
	case SONDE_REC_IDLE: sonde_idle(); break;
	case SONDE_REC_MARK: sonde_mark(20); break;
	case SONDE_REC_MARK_BEGIN: sonde_mark_begin(21); break;
	case SONDE_REC_MARK_END: sonde_mark_end(21); break;
	case SONDE_REC_COUNTER: sonde_counter(30, (int32_t)i); break;
	case SONDE_REC_FUNC_ENTER: sonde_func_enter(40); break;
	case SONDE_REC_FUNC_ENTER_A: sonde_func_enter_addr((const void *)(uintptr_t)0x00001235u); break;
	case SONDE_REC_FUNC_EXIT: sonde_func_exit(); break;
	case SONDE_REC_LOG: sonde_log_u32x2(SONDE_LVL_INFO, 1, i, 7); break;
	case 0x40: sonde_user_u32(0x40, i); break;
	case 0x41: sonde_user_u32x2(0x41, i, i >> 3); break;
	default: sonde_user_u32x2(0x42, i, 0); break;
	}
}

/* The mix twice over; the empty loop walks the table and switches alike,
 * with a volatile store in place of each call. */
static volatile uint32_t mix_sink;

__attribute__((noinline)) static uint32_t b_mix(void)
{
	uint32_t i, t0 = clk();

	for (i = 0; i < 2u * BENCH_MIX_N; i++) {
		GAP(bench_mix[i % BENCH_MIX_N].gap);
		mix_call(bench_mix[i % BENCH_MIX_N].rec, i);
		ARCH_ASM_MARK(b_mix);
	}
	return clk() - t0;
}

/* ---- reporting ------------------------------------------------------------ */

static uint32_t ipt_milli; /* instructions per tick, x1000 */

static void put_fixed(uint32_t x100, unsigned width)
{
	char s[16];
	unsigned n = 0;

	s[n++] = (char)('0' + x100 % 10u);
	s[n++] = (char)('0' + x100 / 10u % 10u);
	s[n++] = '.';
	x100 /= 100u;
	do {
		s[n++] = (char)('0' + x100 % 10u);
		x100 /= 10u;
	} while (x100 != 0u);
	while (n < width) {
		board_uart_putc(' ');
		width--;
	}
	while (n > 0)
		board_uart_putc((uint8_t)s[--n]);
}

static void put_str(const char *s, unsigned width)
{
	unsigned len = 0;

	board_uart_puts(s);
	while (s[len])
		len++;
	while (len++ < width)
		board_uart_putc(' ');
}

/* Instructions per call x100: (ticks - base ticks) * instructions per tick / n. */
static uint32_t per_call(uint32_t ticks, uint32_t base, uint32_t n)
{
	int64_t d = (int64_t)ticks - (int64_t)base;

	if (d < 0)
		d = 0;
	return (uint32_t)(((uint64_t)d * ipt_milli + n * 5u) / (n * 10u));
}

/* Wire bytes x100 per frame of record id in the buffer (written since
 * fresh(), not drained, not wrapped): frames end at each flag; the id is
 * the second un-escaped byte. */
static uint32_t bytes_per_frame(uint8_t id)
{
	const uint8_t *p = big_buf, *end = big_buf + sonde_pending();
	uint32_t frames = 0, bytes = 0;

	while (p < end) {
		const uint8_t *q = p;
		uint8_t b[2];
		unsigned k = 0;

		while (q < end && *q != 0x7Eu) {
			if (k < 2u)
				b[k++] = *q == 0x7Du ? (uint8_t)(*++q ^ 0x20u) : *q;
			q++;
		}
		if (q < end && k == 2u && b[1] == id) {
			frames++;
			bytes += (uint32_t)(q + 1 - p);
		}
		p = q + 1;
	}
	return frames ? (bytes * 100u + frames / 2u) / frames : 0u;
}

/* A new buffer, and a TIME_SYNC: rule 1 done, so no case pays for it, and
 * sonde_tick() has a timed frame to count from. */
static void fresh(void)
{
	sonde_init(big_buf, sizeof big_buf, SONDE_MODE_OVERWRITE);
	sonde_time_sync();
}

void app_fault(uint32_t pc, uint32_t cause)
{
	(void)cause;
	board_uart_puts("bench: fault at pc ");
	board_uart_put_u32(pc);
	board_uart_putc('\n');
}

/* The bases: the empty loop of each gap. */
static uint32_t base_g1, base_g10, base_g1k, base_g70k, base_g10m, base_g2p32;

#define MEASURE_BASE(g, label, n, pre) \
	fresh();                       \
	base_##g = b_##g##_empty();

/* One row: the record at every gap, instructions and bytes. */
#define ROW_CELL(g, name, id, n)                                             \
	fresh();                                                             \
	t = b_##g##_##name();                                                \
	put_fixed(per_call(t, base_##g, n), 8);                              \
	board_uart_puts(" /");                                               \
	put_fixed(bytes_per_frame(id), 6);
#define ROW(name, label, id, call)                                           \
	put_str(label, 38);                                                  \
	ROW_CELL(g1, name, id, BENCH_N)                                      \
	ROW_CELL(g10, name, id, BENCH_N)                                     \
	ROW_CELL(g1k, name, id, BENCH_N)                                     \
	ROW_CELL(g70k, name, id, BENCH_N)                                    \
	ROW_CELL(g10m, name, id, BENCH_N)                                    \
	ROW_CELL(g2p32, name, id, BENCH_N_LONG)                              \
	board_uart_putc('\n');
#define HEAD(g, label, n, pre) put_str(label, 16);

int main(void)
{
	uint32_t t;
	sonde_stats_t st;
	unsigned i;

	arch_irq_off();
	board_init();
	board_stopwatch_start();

	board_uart_puts("sonde bench: " BOARD_NAME ", run with -icount shift=0\n");
	t = cal_spin(CAL_N);
	ipt_milli = (uint32_t)(((uint64_t)2u * CAL_N * 1000u + t / 2u) / t);
	board_uart_puts("calibration: ");
	board_uart_put_u32(2u * CAL_N);
	board_uart_puts(" instructions in ");
	board_uart_put_u32(t);
	board_uart_puts(" ticks\n");

	GAPS(MEASURE_BASE)
	fresh();
	base_g2p32 = b_g2p32_empty_s();

	board_uart_puts("instructions per call (filter test, call, body; loop subtracted) / wire bytes per record\n");
	put_str("gap in ticks:", 38);
	GAPS(HEAD)
	board_uart_putc('\n');
	RECORDS(ROW)

	fresh();
	sonde_filter_object(1, 0);
	put_str("sonde_isr_enter, object filtered out", 38);
	put_fixed(per_call(b_g10_filtered(), base_g10, BENCH_N), 8);
	board_uart_putc('\n');

	fresh();
	put_str("tick hook (once per tick)", 38);
	put_fixed(per_call(b_g1k_tick(), base_g1k, BENCH_N), 8);
	board_uart_putc('\n');

	/* Overwriting: a full small buffer, every record evicts old ones. */
	sonde_init(small_buf, sizeof small_buf, SONDE_MODE_OVERWRITE);
	for (i = 0; i < 200u; i++)
		sonde_isr_enter(1);
	put_str("sonde_isr_enter, overwriting (512 B)", 38);
	put_fixed(per_call(b_g10_overwrite(), base_g10, BENCH_N), 8);
	sonde_get_stats(&st);
	board_uart_puts("  (overwritten ");
	board_uart_put_u32(st.overwritten);
	board_uart_puts(")\n");

	/* The mix: its time per record against the sum of the fast paths
	 * is insn_count.py's to work out; here the average, with the table
	 * walk and switch counted in (the empty loop is not subtracted). */
	fresh();
	t = b_mix();
	put_str("demo mix, per record (incl. table walk)", 38);
	put_fixed(per_call(t, 0, 2u * BENCH_MIX_N), 8);
	board_uart_putc('\n');
	sonde_get_stats(&st);
	board_uart_puts("demo mix: ");
	board_uart_put_u32(st.bytes);
	board_uart_puts(" bytes in ");
	board_uart_put_u32(st.records);
	board_uart_puts(" frames (");
	board_uart_put_u32(2u * BENCH_MIX_N);
	board_uart_puts(" records)\n");
	(void)mix_sink;

	board_uart_puts("bench: done\n");
	board_uart_flush();
	board_exit(0);
}
