/*
 * app.c -- the example firmware that every board of the examples runs
 * (examples/qemu-*), traced with Sonde over the board's UART.
 *
 * Five tasks on the preemptive scheduler of sched.c plus the idle task, fed
 * by three periodic interrupts (board.h names their roles; each board says
 * which peripheral plays which):
 *   tick    1 kHz   scheduler tick, Sonde's tick hook (and, with a SysTick
 *                   trace clock, its extension)
 *   work    500 Hz  checksums 1 KiB (about 45 us at one instruction per ns,
 *                   2 % of the time: the sample interrupt nests into it a
 *                   dozen times in half a second whatever the two periods)
 *                   and gives a semaphore to "ctrl" (prio 4)
 *   sample ~1.3 kHz puts samples into a queue read by "sensor" (prio 3);
 *                   most urgent, so it nests into the others
 *   "comm" (prio 2) sends messages every 7 ms, "bg" (prio 1) burns CPU and
 *   is preempted by everything; "boot" (prio 5) starts the timers and exits.
 * Every kind of Sonde record appears, with dictionaries naming everything.
 *
 * After FW_RUN_MS ticks the idle task stops the interrupts, writes the
 * firmware's own counts (FW_COUNTS, see fw_trace.h), drains the buffer and
 * leaves QEMU (board_exit).
 *
 * The trace leaves through the UART: from its transmit interrupt
 * (FW_DRAIN_IRQ 1, kicked every tick and before idling) or polled from the
 * idle task (FW_DRAIN_IRQ 0).  The transmit interrupt is not traced: its
 * records would feed themselves.  With FW_LINK_RTT 1 it leaves through the
 * debug probe instead (sonde_rtt.h): the tick moves it into the RTT up
 * buffer, which the host reads through a GDB server (`sonde live
 * gdb://...`), and the UART carries nothing.
 *
 * The host can send commands back on the UART (docs/protocol.md §9): the
 * receive interrupt feeds them to sonde_rx_byte(); the host may PEEK
 * fw_status and set the blink period of a simulated LED with APP command 1.
 * With FW_LINK_RTT they arrive in the RTT down buffer, and the tick feeds
 * them to the parser.
 */
#include <stdint.h>

#include "board.h"
#include "fw_trace.h"
#include "sched.h"
#include "sonde.h"
#include "sonde_port.h" /* sonde_port_ts(): the trace clock */
#include "sonde_rtt.h"
#include "trace_uart.h"

#ifndef FW_RUN_MS
#define FW_RUN_MS 2000u
#endif
#ifndef FW_DRAIN_IRQ
#define FW_DRAIN_IRQ 1
#endif
#ifndef FW_LINK_RTT
#define FW_LINK_RTT 0
#endif
#if FW_LINK_RTT && FW_DRAIN_IRQ
#undef FW_DRAIN_IRQ
#define FW_DRAIN_IRQ 0 /* the UART carries no trace */
#endif
/* At the end of an RTT run: how long to wait for a host that reads nothing
 * before leaving anyway (trace-clock ticks).  Long: a host that is
 * reconnecting to the GDB server on a loaded machine reads nothing for
 * seconds, and a firmware that gave up after 2 s wrote FW_COUNTS into a
 * full ring, overwriting frames after its figures were taken (issue 15: a
 * capture 37 frames short of FW_COUNTS, with no report to say why). */
#define FW_RTT_WAIT (20u * BOARD_TS_HZ)
/* The trace buffer's mode: overwrite (streaming, last is best) unless the
 * build says otherwise, e.g. -DFW_TRACE_MODE=SONDE_MODE_DROP_NEW
 * (the loss tests build each mode). */
#ifndef FW_TRACE_MODE
#define FW_TRACE_MODE SONDE_MODE_OVERWRITE
#endif
#ifndef FW_TRACE_BUF
#define FW_TRACE_BUF BOARD_TRACE_BUF
#endif
#ifndef FW_STACK_WORDS
#define FW_STACK_WORDS BOARD_STACK_WORDS
#endif

/* Object ids: ISRs, tasks, markers and counters share one space. */
enum {
	ISR_TICK = 1, ISR_WORK = 2, ISR_SAMPLE = 3, ISR_UART_RX = 4,
	TASK_CTRL = 10, TASK_SENSOR = 11, TASK_COMM = 12, TASK_BG = 13, TASK_BOOT = 14,
	MARK_CTRL_CYCLE = 20, MARK_QUEUE_FULL = 21, MARK_BG_PASS = 22,
	CNT_QUEUE = 30, CNT_SAMPLE = 31, CNT_BG_WORK = 32
};
enum { REC_CTRL_STEP = SONDE_REC_USER_FIRST, REC_SAMPLE, REC_COMM_MSG };
enum { FMT_BOOT = 1, FMT_CTRL_LATE, FMT_SENSOR, FMT_COMM, FMT_BG, FMT_FAULT, FMT_FP_LOST };
enum { FN_CRC = 1 };
enum { GRP_LEVEL = 1, LEVEL_LOW = 0, LEVEL_OK = 1, LEVEL_HIGH = 2 };

/* The work interrupt checksums bg_data (256 bytes) this many times. */
#define FW_WORK_BLOCKS 4u

/* A control step later than 80 us after its work interrupt is logged. */
#define CTRL_LATE_TICKS (BOARD_TS_HZ / 12500u)

static void bg_work(void);
static void trace_drain(void);
/* Code addresses go out as the PC holds them (Thumb bit clear). */
#define BG_WORK_ADDR ARCH_CODE_ADDR(bg_work)

static void fw_dictionaries(void)
{
	fw_dict(SONDE_DICT_ISR, ISR_TICK, BOARD_TICK_NAME);
	fw_dict(SONDE_DICT_ISR, ISR_WORK, BOARD_WORK_NAME);
	fw_dict(SONDE_DICT_ISR, ISR_SAMPLE, BOARD_SAMPLE_NAME);
	fw_dict(SONDE_DICT_ISR, ISR_UART_RX, BOARD_UART_RX_NAME);
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
	fw_dict(SONDE_DICT_FORMAT, FMT_FAULT, "fault: pc %x, cause %u");
	fw_dict(SONDE_DICT_FORMAT, FMT_FP_LOST, "task %u lost its floating-point state");
	fw_dict(SONDE_DICT_FUNCTION, FN_CRC, "crc_block");
	fw_dict(SONDE_DICT_FUNCTION, (uint32_t)(uintptr_t)BG_WORK_ADDR, "bg_work");
	fw_dict(SONDE_DICT_ENUM_GROUP, GRP_LEVEL, "level");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_LOW, "LOW");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_OK, "OK");
	fw_dict(SONDE_DICT_ENUM, GRP_LEVEL << 8 | LEVEL_HIGH, "HIGH");
}

/* ---- tasks ------------------------------------------------------------ */

static uint32_t stacks[6][FW_STACK_WORDS] __attribute__((aligned(16)));
static sched_task_t t_ctrl, t_sensor, t_comm, t_bg, t_boot, t_idle;

static sched_sem_t ctrl_sem;
static uint32_t sample_items[8];
static sched_queue_t sample_q = { { 0 }, sample_items, 8, 0, 0 };
static volatile uint32_t work_stamp; /* trace clock at the last work interrupt */
static volatile int fw_stop;

static void boot_task(void)
{
	fw_log_u32x2(SONDE_LVL_INFO, FMT_BOOT, 5, 1000);
	board_timers_start();
	/* returning deletes the task (TASK_OUT reason "deleted") */
}

static void ctrl_task(void)
{
	uint32_t cycle = 0;

	for (;;) {
		sched_sem_take(&ctrl_sem);
		fw_mark_begin(MARK_CTRL_CYCLE);
		uint32_t latency = sonde_port_ts() - work_stamp;
		fw_user_u32x2(REC_CTRL_STEP, cycle, latency);
		if (latency > CTRL_LATE_TICKS)
			fw_log_u32x2(SONDE_LVL_WARN, FMT_CTRL_LATE, cycle, latency);
		cycle++;
		fw_mark_end(MARK_CTRL_CYCLE);
	}
}

/* A floating-point sum kept across blocking calls (in a callee-saved FPU
 * register with a hard-float ABI) must still equal its integer twin after
 * every context switch; otherwise the switch lost the task's FPU state:
 * the run ends with a fault status. */
static void fp_check(int ok, uint8_t task)
{
	if (!ok) {
		arch_irq_off();
		fw_log_u32(SONDE_LVL_ERROR, FMT_FP_LOST, task);
		trace_drain();
		board_uart_flush();
		board_exit(3);
	}
}

static void sensor_task(void)
{
	uint32_t n = 0;
	float fsum = 0.0f; /* integers below 2^24: exact */
	int32_t isum = 0;

	for (;;) {
		uint32_t raw = sched_queue_get(&sample_q);
		int32_t v = (int32_t)(raw % 2000u) - 1000;
		uint8_t level = v < -500 ? LEVEL_LOW : v > 500 ? LEVEL_HIGH : LEVEL_OK;

		fp_check((int32_t)fsum == isum, TASK_SENSOR);
		if (isum > 1000000 || isum < -1000000)
			fsum = 0.0f, isum = 0;
		fsum += (float)v;
		isum += v;

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
	double dsum = 0.0;  /* integers below 2^53: exact */
	float fsum = 0.0f;  /* round mod 4096, summed: below 2^24 in this run */
	uint32_t isum = 0;

	for (;;) {
		sched_delay(7);
		fp_check(dsum == (double)round * (round + 1u) / 2.0 && (uint32_t)fsum == isum, TASK_COMM);
		dsum += (double)(round + 1u);
		fsum += (float)(round % 4096u);
		isum += round % 4096u;
		if (isum > 1000000u)
			fsum = 0.0f, isum = 0;
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
static uint32_t work_crc = 0xFFFFFFFFu;

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

/* The trace leaves from the UART's transmit interrupt, kicked by the tick
 * and the idle task (trace_uart.c), or polled from the idle task. */
void app_isr_uart_tx(void)
{
#if FW_DRAIN_IRQ
	trace_uart_tx_irq();
#else
	board_uart_tx_ack();
	board_uart_tx_idle();
#endif
}

#if FW_LINK_RTT
/* Polled, interrupts masked (the end of the run, a fault): everything into
 * the up buffer and read by the host, unless it has read nothing for
 * FW_RTT_WAIT. */
static void trace_drain(void)
{
	uint32_t since = sonde_port_ts();
	size_t left = (size_t)-1;

	for (;;) {
		size_t now;

		sonde_rtt_drain();
		now = sonde_pending() + sonde_rtt_unread();
		if (now == 0)
			break;
		if (now < left) {
			left = now;
			since = sonde_port_ts();
		} else if (sonde_port_ts() - since > FW_RTT_WAIT) {
			break;
		}
	}
}
#else
static void trace_drain(void)
{
	trace_uart_drain();
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

/* Called by sonde_rx_byte() in the UART receive interrupt for an APP
 * command. */
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
 * this handler feeds the parser.  The interrupt is acknowledged before
 * reading, so a byte arriving after the loop raises it again. */
void app_isr_uart_rx(void)
{
	fw_isr_enter(ISR_UART_RX);
	board_uart_rx_ack();
	while (board_uart_rx_avail())
		sonde_rx_byte(board_uart_rx_get());
	fw_isr_exit(ISR_UART_RX);
}

/* The simulated LED, from the tick. */
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
	arch_irq_off();
	board_stop();
	/* The buffer empty first: FW_COUNTS must find room without making an
	 * overwriting buffer discard anything after its figures were taken
	 * (such a loss would not be reported: no record follows it). */
	trace_drain();
	fw_trace_report();
	trace_drain();
	board_uart_flush();
	board_exit(0);
}

static void idle_task(void)
{
	for (;;) {
		if (fw_stop)
			fw_finish();
#if FW_LINK_RTT
		/* the tick fills the up buffer */
#elif FW_DRAIN_IRQ
		board_uart_tx_kick();
#else
		trace_uart_drain();
#endif
		/* Sleep only if nothing arrived meanwhile: WFI wakes on a
		 * pending interrupt even with interrupts masked. */
		arch_irq_off();
		if (!fw_stop && (FW_LINK_RTT || sonde_pending() == 0))
			arch_wait();
		arch_irq_on();
	}
}

/* ---- interrupts ------------------------------------------------------- */

void app_isr_tick(void)
{
	board_trace_tick(); /* the port's tick hook: 64-bit time, TIME_SYNC after long silences */
	fw_isr_enter(ISR_TICK);
	board_tick_ack();
	sched_tick();
	fw_blink();
	if (sched_now() == FW_RUN_MS)
		fw_stop = 1;
#if FW_LINK_RTT
	sonde_rtt_drain(); /* the one context that writes the up buffer */
	sonde_rtt_rx();    /* commands the host put in the down buffer run here */
#elif FW_DRAIN_IRQ
	board_uart_tx_kick();
#endif
	fw_isr_exit(ISR_TICK);
}

void app_isr_work(void)
{
	unsigned i;

	fw_isr_enter(ISR_WORK);
	board_work_ack();
	work_stamp = sonde_port_ts();
	for (i = 0; i < FW_WORK_BLOCKS; i++)
		work_crc = crc_block(bg_data, sizeof bg_data, work_crc);
	sched_sem_give(&ctrl_sem);
	fw_isr_exit(ISR_WORK);
}

void app_isr_sample(void)
{
	static uint32_t lcg = 12345u;

	fw_isr_enter(ISR_SAMPLE);
	board_sample_ack();
	lcg = lcg * 1103515245u + 12345u;
	if (!sched_queue_put(&sample_q, lcg >> 8))
		fw_mark(MARK_QUEUE_FULL);
	fw_isr_exit(ISR_SAMPLE);
}

void app_fault(uint32_t pc, uint32_t cause)
{
	fw_log_u32x2(SONDE_LVL_ERROR, FMT_FAULT, pc, cause);
	trace_drain();
	board_uart_flush();
}

/* ---- start -------------------------------------------------------------- */

static uint8_t trace_buf[FW_TRACE_BUF];

int main(void)
{
	unsigned i;

	arch_irq_off(); /* until the first task runs */
	for (i = 0; i < sizeof bg_data; i++)
		bg_data[i] = (uint8_t)(i * 7u);
	board_init(); /* the trace clock runs from here on */
	board_tick_start();
	sonde_init(trace_buf, sizeof trace_buf, FW_TRACE_MODE);
	sonde_set_dict_callback(fw_dictionaries);
	fw_dictionaries();
#if FW_LINK_RTT
	sonde_rtt_init();
#endif
	/* Commands: the LED's state may be read, the blink period set. */
	sonde_rx_region((const void *)&fw_status, sizeof fw_status, SONDE_RX_READ);
	sonde_rx_set_app_callback(fw_command);
	board_uart_irqs_start(FW_DRAIN_IRQ);

	sched_task_create(&t_boot, TASK_BOOT, 5, boot_task, stacks[0], FW_STACK_WORDS);
	sched_task_create(&t_ctrl, TASK_CTRL, 4, ctrl_task, stacks[1], FW_STACK_WORDS);
	sched_task_create(&t_sensor, TASK_SENSOR, 3, sensor_task, stacks[2], FW_STACK_WORDS);
	sched_task_create(&t_comm, TASK_COMM, 2, comm_task, stacks[3], FW_STACK_WORDS);
	sched_task_create(&t_bg, TASK_BG, 1, bg_task, stacks[4], FW_STACK_WORDS);
	sched_task_create(&t_idle, SCHED_IDLE_ID, 0, idle_task, stacks[5], FW_STACK_WORDS);
	sched_start();
}
