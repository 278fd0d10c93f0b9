/*
 * main.c -- the FreeRTOS example application (examples/freertos-app) on the
 * kernel's Cortex-M3 port in QEMU's mps2-an385, traced live with Sonde over
 * UART0.  The board is examples/qemu-mps2's (fw-common/board.h): its vector
 * table calls the app_isr_*() below.
 *
 *   SysTick  1 kHz     the kernel tick (traced as ISR "SysTick"); the
 *                      kernel's tick macro calls sonde_tick()
 *   TIMER0   100 Hz    the board's work interrupt, the application's: gives
 *                      tick_sem (ISR "tick_isr", priority 0x60)
 *   TIMER1   ~1.3 kHz  the board's sample interrupt: nests into the others,
 *                      calls no kernel API (ISR "TIMER1", priority 0x40)
 *   UART0 TX           drains the trace, kicked by the tick and the idle
 *                      hook (not traced: its records would feed themselves)
 *   UART0 RX           the host's commands (docs/protocol.md section 9):
 *                      INFO announces every kernel object and its name again
 *
 * After APP_CYCLES control cycles (10 ms each) the application writes its
 * counts, the buffer is drained and QEMU is left through semihosting
 * (status 0; 1 after a failed assertion or a fault).
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "app.h"
#include "board.h"
#include "sonde.h"
#include "sonde_freertos.h"
#include "trace_uart.h"

#ifndef APP_CYCLES
#define APP_CYCLES 150u
#endif
#ifndef FW_TRACE_BUF
#define FW_TRACE_BUF 16384u
#endif

/* ISR ids besides the application's (APP_ISR_ID), below SONDE_FRTOS_ID_FIRST */
#define ISR_TICK    2u
#define ISR_SAMPLE  3u
#define ISR_UART_RX 4u

static uint8_t trace_buf[FW_TRACE_BUF];

void xPortSysTickHandler(void); /* the kernel port's tick handler (port.c) */

/* ---- transport and the end -------------------------------------------------- */

void app_isr_uart_tx(void)
{
	trace_uart_tx_irq();
}

/* Polled, for the end (interrupts masked by then). */
void port_drain(int all)
{
	(void)all;
	trace_uart_drain();
}

void port_end(int code)
{
	arch_irq_off();
	board_stop();
	trace_uart_drain();
	board_uart_flush();
	board_exit(code);
}

void app_assert(const char *file, int line)
{
	(void)file;
	(void)line;
	port_end(3);
}

/* From the fault entry (fw-common/cortex-m/startup_cm.c), which then
 * leaves QEMU with status 1. */
void app_fault(uint32_t pc, uint32_t cause)
{
	(void)pc;
	(void)cause;
	trace_uart_drain();
	board_uart_flush();
}

/* ---- interrupts and hooks ---------------------------------------------------- */

void app_isr_tick(void)
{
	sonde_isr_enter(ISR_TICK);
	xPortSysTickHandler();
	sonde_isr_exit(ISR_TICK);
}

void app_isr_work(void)
{
	long woken;

	sonde_isr_enter(APP_ISR_ID);
	board_work_ack();
	woken = app_isr();
	sonde_isr_exit(APP_ISR_ID);
	portYIELD_FROM_ISR(woken);
}

void app_isr_sample(void)
{
	sonde_isr_enter(ISR_SAMPLE);
	board_sample_ack();
	sonde_isr_exit(ISR_SAMPLE);
}

/* Every received byte to Sonde's command parser (it calls no kernel API). */
void app_isr_uart_rx(void)
{
	sonde_isr_enter(ISR_UART_RX);
	board_uart_rx_ack();
	while (board_uart_rx_avail())
		sonde_rx_byte(board_uart_rx_get());
	sonde_isr_exit(ISR_UART_RX);
}

void vApplicationTickHook(void)
{
	board_uart_tx_kick();
}

void vApplicationIdleHook(void)
{
	sonde_frtos_stack_poll(); /* the stacks of the tasks that ran (SONDE_FRTOS_STACK) */
	board_uart_tx_kick();
	/* sleep only if nothing arrived meanwhile: WFI wakes on a pending
	 * interrupt even with interrupts masked */
	arch_irq_off();
	if (sonde_pending() == 0)
		arch_wait();
	arch_irq_on();
}

static void dict(void)
{
	sonde_dict(SONDE_DICT_ISR, ISR_TICK, BOARD_TICK_NAME);
	sonde_dict(SONDE_DICT_ISR, ISR_SAMPLE, BOARD_SAMPLE_NAME);
	sonde_dict(SONDE_DICT_ISR, ISR_UART_RX, BOARD_UART_RX_NAME);
	app_dict();
}

int main(void)
{
	arch_irq_off(); /* until the first task starts */
	board_init();   /* UART0, the trace clock */
	sonde_init(trace_buf, sizeof trace_buf, SONDE_MODE_OVERWRITE);
	sonde_frtos_init(dict);
	app_start(APP_CYCLES);
	board_timers_start();
	board_uart_irqs_start(1);
	vTaskStartScheduler(); /* the kernel starts SysTick and unmasks interrupts */
	port_end(1);
	return 1;
}
