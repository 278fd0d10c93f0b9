/*
 * main.c -- example firmware for QEMU's mps2-an385 (Cortex-M3), traced with
 * Sonde over UART0.
 *
 * Five tasks on the preemptive scheduler of sched.c plus the idle task, fed
 * by three periodic interrupts:
 *   SysTick 1 kHz   scheduler tick, Sonde's tick hook (and, with TS=systick,
 *                   the trace clock)
 *   TIMER0  500 Hz  checksums a block (long enough for TIMER1 to nest into it
 *                   now and then) and gives a semaphore to "ctrl" (prio 4)
 *   TIMER1 ~1.3 kHz puts samples into a queue read by "sensor" (prio 3);
 *                   most urgent, so it nests into the others
 *   "comm" (prio 2) sends messages every 7 ms, "bg" (prio 1) burns CPU and
 *   is preempted by everything; "boot" (prio 5) starts the timers and exits.
 * Every kind of Sonde record appears, with dictionaries naming everything.
 *
 * After FW_RUN_MS ticks the idle task stops the interrupts, writes the
 * firmware's own counts (FW_COUNTS, see fw_trace.h), drains the buffer and
 * leaves QEMU through semihosting (or parks, without -semihosting).
 *
 * The trace leaves through UART0: from its TX interrupt (FW_DRAIN_IRQ 1,
 * kicked every tick and before idling) or polled from the idle task
 * (FW_DRAIN_IRQ 0).  UART0's own interrupt is not traced: its records would
 * feed themselves.
 *
 * The host can send commands back on UART0 (docs/protocol.md §9): the RX
 * interrupt feeds them to sonde_rx_byte(); the host may PEEK fw_status and
 * set the blink period of a simulated LED with APP command 1.
 */
#include <stdint.h>

#include "board.h"
#include "fw_trace.h"
#include "sched.h"
#include "sonde.h"
#include "sonde_cm.h"
#include "uart_trace.h"

#ifndef FW_RUN_MS
#define FW_RUN_MS 2000u
#endif
#ifndef FW_DRAIN_IRQ
#define FW_DRAIN_IRQ 1
#endif
#ifndef FW_TRACE_BUF
#define FW_TRACE_BUF 8192u
#endif

/* Object ids: ISRs, tasks, markers and counters share one space. */
enum {
	ISR_SYSTICK = 1, ISR_TIMER0 = 2, ISR_TIMER1 = 3, ISR_UART0_RX = 4,
	TASK_CTRL = 10, TASK_SENSOR = 11, TASK_COMM = 12, TASK_BG = 13, TASK_BOOT = 14,
	MARK_CTRL_CYCLE = 20, MARK_QUEUE_FULL = 21, MARK_BG_PASS = 22,
	CNT_QUEUE = 30, CNT_SAMPLE = 31, CNT_BG_WORK = 32
};
enum { REC_CTRL_STEP = SONDE_REC_USER_FIRST, REC_SAMPLE, REC_COMM_MSG };
enum { FMT_BOOT = 1, FMT_CTRL_LATE, FMT_SENSOR, FMT_COMM, FMT_BG, FMT_FAULT };
enum { FN_CRC = 1 };
enum { GRP_LEVEL = 1, LEVEL_LOW = 0, LEVEL_OK = 1, LEVEL_HIGH = 2 };

#define TIMER0_PERIOD (MPS2_SYSCLK_HZ / 500u)
#define TIMER1_PERIOD 19251u /* 1298.6 Hz: its phase drifts against the others */

static void bg_work(void);
/* Code addresses go out as the PC holds them: Thumb bit clear. */
#define BG_WORK_ADDR ((const void *)((uintptr_t)bg_work & ~(uintptr_t)1))

static void fw_dictionaries(void)
{
	fw_dict(SONDE_DICT_ISR, ISR_SYSTICK, "SysTick");
	fw_dict(SONDE_DICT_ISR, ISR_TIMER0, "TIMER0");
	fw_dict(SONDE_DICT_ISR, ISR_TIMER1, "TIMER1");
	fw_dict(SONDE_DICT_ISR, ISR_UART0_RX, "UART0_RX");
	fw_dict(SONDE_DICT_TASK, TASK_CTRL, "ctrl");
	fw_dict(SONDE_DICT_TASK, TASK_SENSOR, "sensor");
	fw_dict(SONDE_DICT_TASK, TASK_COMM, "comm");
	fw_dict(SONDE_DICT_TASK, TASK_BG, "bg");
	fw_dict(SONDE_DICT_TASK, TASK_BOOT, "boot");
	fw_dict(SONDE_DICT_MARKER, MARK_CTRL_CYCLE, "ctrl_cycle");
	fw_dict(SONDE_DICT_MARKER, MARK_QUEUE_FULL, "queue_full");
	fw_dict(SONDE_DICT_MARKER, MARK_BG_PASS, "bg_pass");
	fw_dict(SONDE_DICT_COUNTER, CNT_QUEUE, "queue_depth");
	fw_dict(SONDE_DICT_COUNTER, CNT_SAMPLE, "sample");
	fw_dict(SONDE_DICT_COUNTER, CNT_BG_WORK, "bg_bytes_total");
	fw_dict(SONDE_DICT_RECORD, REC_CTRL_STEP, "CTRL_STEP(cycle,latency)");
	fw_dict(SONDE_DICT_RECORD, REC_SAMPLE, "SAMPLE(seq,value,scaled,level)");
	fw_dict(SONDE_DICT_RECORD, REC_COMM_MSG, "COMM_MSG(text,payload,tag,delta,task,func)");
	fw_dict(SONDE_DICT_RECORD, FW_REC_COUNTS, "FW_COUNTS");
	fw_dict(SONDE_DICT_FORMAT, FMT_BOOT, "boot: %u tasks, tick %u Hz");
	fw_dict(SONDE_DICT_FORMAT, FMT_CTRL_LATE, "ctrl cycle %u late by %u ticks");
	fw_dict(SONDE_DICT_FORMAT, FMT_SENSOR, "sensor %d is %s");
	fw_dict(SONDE_DICT_FORMAT, FMT_COMM, "comm round %u, ratio %f");
	fw_dict(SONDE_DICT_FORMAT, FMT_BG, "bg crc %x after %u passes");
	fw_dict(SONDE_DICT_FORMAT, FMT_FAULT, "fault: pc %x, ipsr %u");
	fw_dict(SONDE_DICT_FUNCTION, FN_CRC, "crc_block");
	fw_dict(SONDE_DICT_FUNCTION, (uint32_t)(uintptr_t)BG_WORK_ADDR, "bg_work");
	fw_dict(SONDE_DICT_ENUM_GROUP, GRP_LEVEL, "level");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_LOW, "LOW");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_OK, "OK");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_HIGH, "HIGH");
}

/* ---- tasks ------------------------------------------------------------ */

#define STACK_WORDS 256
static uint32_t stacks[6][STACK_WORDS] __attribute__((aligned(8)));
static sched_task_t t_ctrl, t_sensor, t_comm, t_bg, t_boot, t_idle;

static sched_sem_t ctrl_sem;
static uint32_t sample_items[8];
static sched_queue_t sample_q = { { 0 }, sample_items, 8, 0, 0 };
static volatile uint32_t timer0_stamp; /* trace clock at the last TIMER0 */
static volatile int fw_stop;

static void boot_task(void)
{
	fw_log_u32x2(SONDE_LVL_INFO, FMT_BOOT, 5, 1000);
	board_timer_start(TIMER0_BASE, TIMER0_PERIOD, 1);
	board_timer_start(TIMER1_BASE, TIMER1_PERIOD, 1);
	mps2_irq_enable(IRQ_TIMER0, PRIO_TIMER0);
	mps2_irq_enable(IRQ_TIMER1, PRIO_TIMER1);
	/* returning deletes the task (TASK_OUT reason "deleted") */
}

static void ctrl_task(void)
{
	uint32_t cycle = 0;

	for (;;) {
		sched_sem_take(&ctrl_sem);
		fw_mark_begin(MARK_CTRL_CYCLE);
		uint32_t latency = sonde_port_ts() - timer0_stamp;
		fw_user_u32x2(REC_CTRL_STEP, cycle, latency);
		if (latency > 2000u)
			fw_log_u32x2(SONDE_LVL_WARN, FMT_CTRL_LATE, cycle, latency);
		cycle++;
		fw_mark_end(MARK_CTRL_CYCLE);
	}
}

static void sensor_task(void)
{
	uint32_t n = 0;

	for (;;) {
		uint32_t raw = sched_queue_get(&sample_q);
		int32_t v = (int32_t)(raw % 2000u) - 1000;
		uint8_t level = v < -500 ? LEVEL_LOW : v > 500 ? LEVEL_HIGH : LEVEL_OK;

		fw_counter(CNT_SAMPLE, v);
		if (fw_user_begin(REC_SAMPLE)) {
			sonde_arg_u16((uint16_t)n);
			sonde_arg_i32(v);
			sonde_arg_f32((float)v / 1000.0f);
			sonde_arg_enum(GRP_LEVEL, level);
			sonde_user_end();
		}
		if (n % 16u == 0 && fw_log_begin(SONDE_LVL_DEBUG, FMT_SENSOR)) {
			sonde_arg_i32(v);
			sonde_arg_enum(GRP_LEVEL, level);
			sonde_log_end();
		}
		fw_counter(CNT_QUEUE, sched_queue_count(&sample_q));
		n++;
	}
}

static void comm_task(void)
{
	/* '~' and '}' are the framing bytes 0x7E and 0x7D: they get escaped. */
	static const uint8_t payload[6] = { 0x7E, 0x7D, 0x00, 0xFF, 0x5E, 0x5D };
	uint32_t round = 0;

	for (;;) {
		sched_delay(7);
		if (fw_user_begin(REC_COMM_MSG)) {
			sonde_arg_str(round % 2u ? "ping" : "pong~}");
			sonde_arg_mem(payload, (uint8_t)(1u + round % sizeof payload));
			sonde_arg_u64((uint64_t)round << 33 | 0x7E7Du);
			sonde_arg_i8((int8_t)-(int32_t)(round % 100u));
			sonde_arg_obj(TASK_BG);
			sonde_arg_func(BG_WORK_ADDR);
			sonde_user_end();
		}
		if (round % 10u == 0 && fw_log_begin(SONDE_LVL_INFO, FMT_COMM)) {
			sonde_arg_u32(round);
			sonde_arg_f64((double)round / 3.0);
			sonde_log_end();
		}
		round++;
	}
}

static uint8_t bg_data[256];
static uint32_t bg_crc = 0xFFFFFFFFu;
static uint32_t timer0_crc = 0xFFFFFFFFu;

static uint32_t crc_block(const uint8_t *p, unsigned n, uint32_t crc)
{
	fw_func_enter(FN_CRC);
	while (n--) {
		int k;
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1u));
	}
	fw_func_exit();
	return crc;
}

__attribute__((noinline)) static void bg_work(void)
{
	int i;

	fw_func_enter_addr(BG_WORK_ADDR);
	for (i = 0; i < 8; i++)
		bg_crc = crc_block(bg_data, sizeof bg_data, bg_crc);
	fw_func_exit();
}

static void bg_task(void)
{
	uint32_t pass = 0;

	for (;;) {
		bg_work();
		pass++;
		fw_mark(MARK_BG_PASS);
		fw_counter64(CNT_BG_WORK, (int64_t)pass * 8 * (int64_t)sizeof bg_data + ((int64_t)1 << 32));
		if (pass % 32u == 0)
			fw_log_u32x2(SONDE_LVL_INFO, FMT_BG, bg_crc, pass);
		sched_delay(5);
	}
}

/* ---- transport --------------------------------------------------------- */

#if FW_DRAIN_IRQ
/* The trace leaves from UART0's TX interrupt, kicked by the tick and the
 * idle task (uart_trace.c). */
void UART0TX_Handler(void);
void UART0TX_Handler(void)
{
	uart_trace_irq();
}
#endif

/* ---- receive channel ------------------------------------------------------ */

/* What the host may read with PEEK (registered read-only in main): known
 * contents at a fixed address (fw.map: fw_status). */
struct fw_status {
	uint32_t magic;    /* FW_MAGIC, "SOND" in memory */
	uint32_t ticks;    /* scheduler ticks since start */
	uint32_t blink_ms; /* the LED's half period, in ticks (APP command 1) */
	uint32_t led;      /* the simulated LED: toggles every blink_ms ticks */
	uint32_t commands; /* APP commands received */
};
#define FW_MAGIC 0x444E4F53u
#define FW_APP_BLINK 1u
#define FW_APP_BAD_ARG 0x80    /* APP status: argument out of range */
#define FW_APP_UNKNOWN 0x81    /* APP status: no such application command */

static volatile struct fw_status fw_status = { FW_MAGIC, 0, 500, 0, 0 };

/* Called by sonde_rx_byte() in the UART0 RX interrupt for an APP command. */
static int fw_command(uint8_t cmd, uint32_t a, uint32_t b, uint32_t c)
{
	(void)b;
	(void)c;
	fw_status.commands++;
	if (cmd != FW_APP_BLINK)
		return FW_APP_UNKNOWN;
	if (a < 1u || a > 10000u)
		return FW_APP_BAD_ARG;
	fw_status.blink_ms = a;
	return 0;
}

/* Every received byte goes to the command parser; a command runs (and
 * writes its reply into the trace) when its closing flag arrives.  Only
 * this handler feeds the parser.  The flag is cleared before reading, so a
 * byte arriving after the loop raises the interrupt again. */
void UART0RX_Handler(void);
void UART0RX_Handler(void)
{
	fw_isr_enter(ISR_UART0_RX);
	UART0_INTSTATUS = UART_INT_RX;
	while (UART0_STATE & UART_STATE_RXFULL)
		sonde_rx_byte((uint8_t)UART0_DATA);
	fw_isr_exit(ISR_UART0_RX);
}

/* The simulated LED, from SysTick. */
static void fw_blink(void)
{
	static uint32_t n;

	fw_status.ticks++;
	if (++n >= fw_status.blink_ms) {
		n = 0;
		fw_status.led ^= 1u;
	}
}

/* ---- the end ------------------------------------------------------------ */

static void fw_finish(void)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
	mps2_irq_disable(IRQ_TIMER0);
	mps2_irq_disable(IRQ_TIMER1);
	mps2_irq_disable(IRQ_UART0_TX);
	mps2_irq_disable(IRQ_UART0_RX);
	board_timer_stop(TIMER0_BASE);
	board_timer_stop(TIMER1_BASE);
	fw_trace_report();
	uart_trace_drain();
	board_uart_flush();
	board_exit(0);
}

static void idle_task(void)
{
	for (;;) {
		if (fw_stop)
			fw_finish();
#if FW_DRAIN_IRQ
		uart_trace_kick();
#else
		uart_trace_drain();
#endif
		/* Sleep only if nothing arrived meanwhile: WFI wakes on a
		 * pending interrupt even with PRIMASK set. */
		__asm__ __volatile__("cpsid i" : : : "memory");
		if (!fw_stop && sonde_pending() == 0)
			__asm__ __volatile__("wfi");
		__asm__ __volatile__("cpsie i" : : : "memory");
	}
}

/* ---- interrupts ------------------------------------------------------- */

void SysTick_Handler(void);
void SysTick_Handler(void)
{
	sonde_cm_systick_tick(); /* SysTick clock extension and/or SONDE_CFG_TICK_HOOK */
	fw_isr_enter(ISR_SYSTICK);
	sched_tick();
	fw_blink();
	if (sched_now() == FW_RUN_MS)
		fw_stop = 1;
#if FW_DRAIN_IRQ
	uart_trace_kick();
#endif
	fw_isr_exit(ISR_SYSTICK);
}

void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
	fw_isr_enter(ISR_TIMER0);
	TIMER_INTCLEAR(TIMER0_BASE) = 1u;
	timer0_stamp = sonde_port_ts();
	timer0_crc = crc_block(bg_data, 128u, timer0_crc);
	sched_sem_give(&ctrl_sem);
	fw_isr_exit(ISR_TIMER0);
}

void TIMER1_Handler(void);
void TIMER1_Handler(void)
{
	static uint32_t lcg = 12345u;

	fw_isr_enter(ISR_TIMER1);
	TIMER_INTCLEAR(TIMER1_BASE) = 1u;
	lcg = lcg * 1103515245u + 12345u;
	if (!sched_queue_put(&sample_q, lcg >> 8))
		fw_mark(MARK_QUEUE_FULL);
	fw_isr_exit(ISR_TIMER1);
}

void app_fault(const uint32_t *frame, uint32_t exc_return)
{
	uint32_t ipsr;

	(void)exc_return;
	__asm__ __volatile__("mrs %0, ipsr" : "=r"(ipsr));
	fw_log_u32x2(SONDE_LVL_ERROR, FMT_FAULT, frame[6], ipsr);
	uart_trace_drain();
	board_uart_flush();
}

/* ---- start -------------------------------------------------------------- */

static uint8_t trace_buf[FW_TRACE_BUF];

int main(void)
{
	unsigned i;

	for (i = 0; i < sizeof bg_data; i++)
		bg_data[i] = (uint8_t)(i * 7u);
	board_uart_init(FW_DRAIN_IRQ);
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	sonde_cm_ts_init(); /* SysTick: trace clock and scheduler tick */
#else
	board_dualtimer_free_run(); /* the trace clock */
	sonde_cm_ts_init();
	board_systick_start(MPS2_SYSCLK_HZ / 1000u);
#endif
	SCB_SHPR_SYSTICK = PRIO_SYSTICK;
	sonde_init(trace_buf, sizeof trace_buf, SONDE_MODE_OVERWRITE);
	sonde_set_dict_callback(fw_dictionaries);
	fw_dictionaries();
	/* Commands: the LED's state may be read, the blink period set. */
	sonde_rx_region((const void *)&fw_status, sizeof fw_status, SONDE_RX_READ);
	sonde_rx_set_app_callback(fw_command);
	board_uart_rx_start();
	mps2_irq_enable(IRQ_UART0_RX, PRIO_UART);
#if FW_DRAIN_IRQ
	mps2_irq_enable(IRQ_UART0_TX, PRIO_UART);
#endif

	sched_task_create(&t_boot, TASK_BOOT, 5, boot_task, stacks[0], STACK_WORDS);
	sched_task_create(&t_ctrl, TASK_CTRL, 4, ctrl_task, stacks[1], STACK_WORDS);
	sched_task_create(&t_sensor, TASK_SENSOR, 3, sensor_task, stacks[2], STACK_WORDS);
	sched_task_create(&t_comm, TASK_COMM, 2, comm_task, stacks[3], STACK_WORDS);
	sched_task_create(&t_bg, TASK_BG, 1, bg_task, stacks[4], STACK_WORDS);
	sched_task_create(&t_idle, SCHED_IDLE_ID, 0, idle_task, stacks[5], STACK_WORDS);
	sched_start();
}
