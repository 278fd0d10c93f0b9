/*
 * size_min.c -- the smallest firmware that uses the whole record path, for
 * the "tracer code linked into a minimal image" figure (make size-min,
 * size_report.py): sonde_init, the drain, and every ISR, task, marker,
 * counter, user and log record in their one-call forms.  Built like the
 * other images (--gc-sections), so only what these calls pull in is
 * counted.  Optional parts are measured by adding their calls: -DSIZE_TICK
 * (the periodic tick), -DSIZE_FUNC (function records), -DSIZE_BUILDER (the
 * argument-by-argument builder), -DSIZE_DICT (dictionary entries),
 * -DSIZE_RX (the receive channel).
 * Not run: only linked.
 */
#include <stdint.h>

#include "board.h"
#include "sonde.h"

static uint8_t buf[1024];
volatile uint32_t sink;

int main(void)
{
	uint8_t out[16];

	sonde_init(buf, sizeof buf, SONDE_MODE_OVERWRITE);
	sonde_isr_enter(1);
	sonde_isr_exit(1);
	sonde_task_create(2, 3);
	sonde_task_in(2);
	sonde_task_out(2, SONDE_TASK_BLOCKED);
	sonde_task_ready(2);
	sonde_idle();
	sonde_mark(3);
	sonde_mark_begin(3);
	sonde_mark_end(3);
	sonde_counter(4, (int32_t)sink);
	sonde_user_u32(0x40, sink);
	sonde_user_u32x2(0x41, sink, sink);
	sonde_log_u32(SONDE_LVL_INFO, 1, sink);
	sonde_log_u32x2(SONDE_LVL_INFO, 2, sink, sink);
#ifdef SIZE_TICK
	sonde_tick();
#endif
#ifdef SIZE_FUNC
	sonde_func_enter(5);
	sonde_func_enter_addr((const void *)&sink);
	sonde_func_exit();
#endif
#ifdef SIZE_BUILDER
	if (sonde_user_begin(0x42)) {
		sonde_arg_u32(sink);
		sonde_arg_str("x");
		sonde_user_end();
	}
#endif
#ifdef SIZE_DICT
	sonde_dict(SONDE_DICT_ISR, 1, "IRQ1");
#endif
#ifdef SIZE_RX
	sonde_rx_byte((uint8_t)sink);
#endif
	sink = (uint32_t)sonde_drain(out, sizeof out);
	board_exit(0);
}

void app_fault(uint32_t pc, uint32_t cause)
{
	(void)pc;
	(void)cause;
	board_exit(2);
}
