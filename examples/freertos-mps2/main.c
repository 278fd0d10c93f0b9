/*
 * main.c -- the FreeRTOS example application (examples/freertos-app) on the
 * kernel's Cortex-M3 port in QEMU's mps2-an385, traced live with Sonde over
 * UART0.  Board and start-up code are examples/qemu-mps2's.
 *
 *   SysTick  1 kHz   the kernel tick (traced as ISR "SysTick"); the kernel's
 *                    tick macro is Sonde's tick hook
 *   TIMER0   100 Hz  the application's interrupt: gives tick_sem (ISR
 *                    "tick_isr", priority 0x60)
 *   UART0 TX         drains the trace, kicked by the tick and the idle hook
 *                    (not traced: its records would feed themselves)
 *   UART0 RX         the host's commands (docs/protocol.md section 9): INFO
 *                    announces every kernel object and its name again
 *
 * After APP_CYCLES control cycles (10 ms each) the application writes its
 * counts, the buffer is drained and QEMU is left through semihosting
 * (status 0; 3 after a failed assertion, 2 after a fault).
 */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "app.h"
#include "board.h"
#include "sonde.h"
#include "sonde_cm.h"
#include "sonde_freertos.h"
#include "uart_trace.h"

#ifndef APP_CYCLES
#define APP_CYCLES 150u
#endif
#ifndef FW_TRACE_BUF
#define FW_TRACE_BUF 16384u
#endif

#define ISR_SYSTICK 2u
#define TIMER0_PERIOD (MPS2_SYSCLK_HZ / 100u)

static uint8_t trace_buf[FW_TRACE_BUF];

void xPortSysTickHandler(void); /* the kernel port's tick handler (port.c) */

/* ---- transport ------------------------------------------------------------ */

void UART0TX_Handler(void);
void UART0TX_Handler(void)
{
	uart_trace_irq();
}

/* Polled, for the end (interrupts masked by then). */
void port_drain(int all)
{
	(void)all;
	uart_trace_drain();
}

/* Every received byte to Sonde's command parser (it calls no kernel API). */
void UART0RX_Handler(void);
void UART0RX_Handler(void)
{
	UART0_INTSTATUS = UART_INT_RX;
	while (UART0_STATE & UART_STATE_RXFULL)
		sonde_rx_byte((uint8_t)UART0_DATA);
}

void port_end(int code)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
	port_drain(1);
	board_uart_flush();
	board_exit(code);
}

void app_assert(const char *file, int line)
{
	(void)file;
	(void)line;
	port_end(3);
}

void app_fault(const uint32_t *frame, uint32_t exc_return)
{
	(void)frame;
	(void)exc_return;
	port_drain(1);
	board_uart_flush();
}

/* ---- interrupts and hooks ---------------------------------------------------- */

void SysTick_Handler(void);
void SysTick_Handler(void)
{
	sonde_isr_enter(ISR_SYSTICK);
	xPortSysTickHandler();
	sonde_isr_exit(ISR_SYSTICK);
}

void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
	long woken;

	sonde_isr_enter(APP_ISR_ID);
	TIMER_INTCLEAR(TIMER0_BASE) = 1u;
	woken = app_isr();
	sonde_isr_exit(APP_ISR_ID);
	portYIELD_FROM_ISR(woken);
}

void vApplicationTickHook(void)
{
	uart_trace_kick();
}

void vApplicationIdleHook(void)
{
	uart_trace_kick();
	/* sleep only if nothing arrived meanwhile: WFI wakes on a pending
	 * interrupt even with PRIMASK set */
	__asm__ __volatile__("cpsid i" : : : "memory");
	if (sonde_pending() == 0)
		__asm__ __volatile__("wfi");
	__asm__ __volatile__("cpsie i" : : : "memory");
}

static void dict(void)
{
	sonde_dict(SONDE_DICT_ISR, ISR_SYSTICK, "SysTick");
	app_dict();
}

int main(void)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
	board_uart_init(1);
	board_dualtimer_free_run(); /* the trace clock (SONDE_CM_TS_TIMER) */
	sonde_cm_ts_init();
	sonde_init(trace_buf, sizeof trace_buf, SONDE_MODE_OVERWRITE);
	sonde_frtos_init(dict);
	app_start(APP_CYCLES);
	board_timer_start(TIMER0_BASE, TIMER0_PERIOD, 1);
	mps2_irq_enable(IRQ_TIMER0, PRIO_TIMER0);
	mps2_irq_enable(IRQ_UART0_TX, PRIO_UART);
	board_uart_rx_start();
	mps2_irq_enable(IRQ_UART0_RX, PRIO_UART);
	vTaskStartScheduler(); /* enables interrupts as the first task starts */
	port_end(1);
	return 1;
}
