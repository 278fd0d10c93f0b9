/*
 * app_miniprof.c -- the MiniProfiler device side in a firmware
 * (target/miniprof, docs/proto-miniprof.md): a bare-metal main loop and
 * three interrupts, built with -finstrument-functions, profiled for
 * `sonde miniprof` on UART0 -- and traced by Sonde on a second UART, so one
 * run gives both views.
 *
 *   main loop   a round per tick: read_inputs (3 x filter_step),
 *               update_model (crc_block), emit_outputs; then the service
 *               work, not profiled: commands, the two drains
 *   tick        1 kHz: app_isr_tick -> tick_work
 *   work        500 Hz: app_isr_work -> 2 x crc_block
 *   sample      ~1.3 kHz: app_isr_sample -> filter_sample
 *
 * Every profiled function counts its own calls (atomically: interrupts
 * call some of them too).  The commands arrive on UART0 (the receive
 * interrupt queues the bytes) and run in the main loop between rounds,
 * with interrupts masked, when no profiled call is open anywhere -- an
 * interrupt's calls end before the main loop resumes -- so a session
 * (START_PROFILING .. STOP_PROFILING) holds whole calls only, and the
 * counts taken at START and at STOP give exactly the calls the session
 * recorded.  At STOP the firmware writes
 * them, (address, calls) for each function, in user record MP_COUNTS of
 * its Sonde trace, and marks the session there (MARK_BEGIN/END 1).
 *
 * The hooks send each call to both: sonde_mp_enter/exit (MiniProfiler) and
 * sonde_func_enter_addr/exit (Sonde's FUNC records), on UART1.  The build
 * id in METADATA is the CRC32 of the .text section.  The run ends after
 * FW_RUN_MS (board_exit), or when the test stops QEMU.
 */
#include <stdint.h>

#include "board.h"
#include "sonde.h"
#include "sonde_mp.h"
#include "sonde_port.h" /* sonde_port_ts(): the inputs' variation */

#ifndef FW_RUN_MS
#define FW_RUN_MS 60000u
#endif

#define NOINSTR __attribute__((no_instrument_function))
#define PROFILED __attribute__((noinline))

enum { FN_READ_INPUTS, FN_FILTER_STEP, FN_UPDATE_MODEL, FN_CRC_BLOCK, FN_EMIT_OUTPUTS, FN_MP_ROUND,
       FN_TICK_ISR, FN_TICK_WORK, FN_WORK_ISR, FN_SAMPLE_ISR, FN_FILTER_SAMPLE, FN_COUNT };
enum { REC_MP_COUNTS = 0x7E, MARK_SESSION = 1 };

static uint32_t calls[FN_COUNT];      /* since the start */
static uint32_t at_start[FN_COUNT];   /* at START_PROFILING */
static uint32_t fn_addr[FN_COUNT];  /* as the hooks get them */

static NOINSTR void counted(unsigned fn)
{
	__atomic_fetch_add(&calls[fn], 1u, __ATOMIC_RELAXED);
}

/* ---- the profiled program ------------------------------------------------ */

static uint8_t data[64];
static volatile uint32_t sink, model_crc = 0xFFFFFFFFu;
static volatile int32_t filtered;

PROFILED static uint32_t crc_block(const uint8_t *p, unsigned n, uint32_t crc)
{
	counted(FN_CRC_BLOCK);
	while (n--) {
		int k;
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc;
}

PROFILED static int32_t filter_step(int32_t acc, int32_t x)
{
	counted(FN_FILTER_STEP);
	return acc + ((x - acc) >> 2);
}

PROFILED static void read_inputs(void)
{
	static int32_t acc;
	int i;

	counted(FN_READ_INPUTS);
	for (i = 0; i < 3; i++)
		acc = filter_step(acc, (int32_t)(sonde_port_ts() & 0xFFFu));
	filtered = acc;
}

PROFILED static void update_model(void)
{
	counted(FN_UPDATE_MODEL);
	data[(unsigned)filtered & 63u] ^= (uint8_t)filtered;
	model_crc = crc_block(data, sizeof data, model_crc);
}

PROFILED static void emit_outputs(void)
{
	counted(FN_EMIT_OUTPUTS);
	sink = model_crc ^ (uint32_t)filtered;
}

PROFILED static void mp_round(void)
{
	counted(FN_MP_ROUND);
	read_inputs();
	update_model();
	emit_outputs();
}

PROFILED static void tick_work(void)
{
	counted(FN_TICK_WORK);
	sink += 1u;
}

PROFILED static int32_t filter_sample(int32_t x)
{
	counted(FN_FILTER_SAMPLE);
	return x - (x >> 3);
}

/* ---- interrupts ------------------------------------------------------------ */

static volatile uint32_t ticks;

void app_isr_tick(void)
{
	counted(FN_TICK_ISR);
	board_trace_tick(); /* Sonde's tick hook */
	board_tick_ack();
	ticks++;
	tick_work();
}

void app_isr_work(void)
{
	counted(FN_WORK_ISR);
	board_work_ack();
	sink ^= crc_block(data, 16, 0xFFFFFFFFu);
	sink ^= crc_block(data + 16, 16, 0xFFFFFFFFu);
}

void app_isr_sample(void)
{
	static int32_t s;

	counted(FN_SAMPLE_ISR);
	board_sample_ack();
	s = filter_sample(s + 100);
}

/* Command bytes from UART0, for the main loop. */
static volatile uint8_t rxq[64];
static volatile uint32_t rxq_w, rxq_r;

NOINSTR void app_isr_uart_rx(void)
{
	board_uart_rx_ack();
	while (board_uart_rx_avail()) {
		uint8_t b = board_uart_rx_get();

		if (rxq_w - rxq_r < sizeof rxq)
			rxq[rxq_w++ % sizeof rxq] = b;
	}
}

NOINSTR void app_isr_uart_tx(void)
{
	board_uart_tx_ack();
	board_uart_tx_idle();
}

NOINSTR void app_fault(uint32_t pc, uint32_t cause)
{
	(void)pc;
	(void)cause;
	board_exit(1);
}

/* ---- the hooks --------------------------------------------------------------- */

/* Both in one masked section, so that the two traces see each call at the
 * same moment (an interrupt between them would count in one and not in the
 * other).  sonde_mp_enter/exit alone need no masking. */
NOINSTR void __cyg_profile_func_enter(void *fn, void *site)
{
	uint32_t m = arch_irq_save();

	(void)site;
	sonde_func_enter_addr(fn);
	sonde_mp_enter(fn);
	arch_irq_restore(m);
}

NOINSTR void __cyg_profile_func_exit(void *fn, void *site)
{
	uint32_t m = arch_irq_save();

	(void)site;
	sonde_mp_exit(fn);
	sonde_func_exit();
	arch_irq_restore(m);
}

/* ---- commands and drains (not profiled) -------------------------------------- */

/* Runs in the main loop, inside sonde_mp_rx_byte(), after a command took
 * effect. */
static NOINSTR int on_command(uint8_t cmd, const uint8_t *payload, uint8_t len)
{
	unsigned i;

	(void)payload;
	(void)len;
	if (cmd == SONDE_MP_CMD_START) {
		for (i = 0; i < FN_COUNT; i++)
			at_start[i] = calls[i];
		sonde_mark_begin(MARK_SESSION);
	} else if (cmd == SONDE_MP_CMD_STOP) {
		sonde_mark_end(MARK_SESSION);
		if (sonde_user_begin(REC_MP_COUNTS)) {
			for (i = 0; i < FN_COUNT; i++) {
				sonde_arg_u32(fn_addr[i]);
				sonde_arg_u32(calls[i] - at_start[i]);
			}
			sonde_user_end();
		}
	}
	return 0;
}

static NOINSTR void service(void)
{
	int b;

	while (rxq_r != rxq_w) {
		/* A command and the counts its callback takes at one moment for
		 * the interrupts too: none runs between START (or STOP) taking
		 * effect and the counts, so the session's calls are the counts'
		 * calls. */
		uint32_t m = arch_irq_save();

		sonde_mp_rx_byte(rxq[rxq_r++ % sizeof rxq]);
		arch_irq_restore(m);
	}
	/* Never waits: a host that stopped reading makes the ring fill up,
	 * and the calls that find it full are counted as overflows. */
	while (board_uart_tx_ready() && (b = sonde_mp_drain_byte()) >= 0)
		board_uart_tx_put((uint8_t)b);
	while (board_aux_tx_ready() && (b = sonde_drain_byte()) >= 0)
		board_aux_tx_put((uint8_t)b);
}

extern const uint8_t __text_start[], __text_end[];
static uint8_t trace_buf[16384];

NOINSTR int main(void)
{
	uint32_t last = 0;

	arch_irq_off();
	fn_addr[FN_READ_INPUTS] = (uint32_t)(uintptr_t)read_inputs;
	fn_addr[FN_FILTER_STEP] = (uint32_t)(uintptr_t)filter_step;
	fn_addr[FN_UPDATE_MODEL] = (uint32_t)(uintptr_t)update_model;
	fn_addr[FN_CRC_BLOCK] = (uint32_t)(uintptr_t)crc_block;
	fn_addr[FN_EMIT_OUTPUTS] = (uint32_t)(uintptr_t)emit_outputs;
	fn_addr[FN_MP_ROUND] = (uint32_t)(uintptr_t)mp_round;
	fn_addr[FN_TICK_ISR] = (uint32_t)(uintptr_t)app_isr_tick;
	fn_addr[FN_TICK_WORK] = (uint32_t)(uintptr_t)tick_work;
	fn_addr[FN_WORK_ISR] = (uint32_t)(uintptr_t)app_isr_work;
	fn_addr[FN_SAMPLE_ISR] = (uint32_t)(uintptr_t)app_isr_sample;
	fn_addr[FN_FILTER_SAMPLE] = (uint32_t)(uintptr_t)filter_sample;
	board_init();
	board_tick_start();
	sonde_init(trace_buf, sizeof trace_buf, SONDE_MODE_OVERWRITE);
	sonde_dict(SONDE_DICT_RECORD, REC_MP_COUNTS, "MP_COUNTS");
	sonde_dict(SONDE_DICT_MARKER, MARK_SESSION, "miniprof_session");
	sonde_mp_init(sonde_mp_crc32(__text_start, (size_t)(__text_end - __text_start)), "sonde-mp-demo");
	sonde_mp_set_command_callback(on_command);
	board_uart_irqs_start(0);
	board_timers_start();
	arch_irq_on();
	for (;;) {
		if (ticks != last) {
			last = ticks;
			mp_round();
		}
		service();
		if (ticks >= FW_RUN_MS)
			board_exit(0);
		/* Sleep to the next interrupt (the tick at the latest) unless a
		 * round or a command is due. */
		arch_irq_off();
		if (ticks == last && rxq_r == rxq_w)
			arch_wait();
		arch_irq_on();
	}
}
