/*
 * vectors.c -- the nRF51's vector table (ARMv6-M: no MemManage, BusFault,
 * UsageFault or DebugMon).  Reset and HardFault are
 * fw-common/cortex-m/startup_cm.c's, PendSV and SVC the scheduler's switch
 * code, the rest the application's app_isr_*() (or the board's UART entry).
 * Images without them (the benchmark, the size image) get the weak
 * defaults: an exception nobody claimed is reported like a fault.
 */
#include "board.h"

extern uint32_t __stack_top;
void Reset_Handler(void);
void HardFault_Handler(void);
void board_isr_uart(void);

/* To the fault entry with the exception's own EXC_RETURN in lr (r0 is
 * stacked already). */
__attribute__((naked)) static void vec_unclaimed(void)
{
	__asm__ __volatile__("ldr r0, =HardFault_Handler\n\tbx r0\n\t.ltorg");
}

#define UNCLAIMED __attribute__((weak, alias("vec_unclaimed")))
void SVC_Handler(void) UNCLAIMED;
void PendSV_Handler(void) UNCLAIMED;
void app_isr_tick(void) UNCLAIMED;
void app_isr_work(void) UNCLAIMED;
void app_isr_sample(void) UNCLAIMED;
void app_isr_uart_rx(void) UNCLAIMED;
void app_isr_uart_tx(void) UNCLAIMED;

typedef union {
	void (*fn)(void);
	void *sp;
} vector_t;

__attribute__((section(".vectors"), used))
const vector_t board_vectors[16 + 32] = {
	{ .sp = &__stack_top },
	{ .fn = Reset_Handler },
	{ .fn = HardFault_Handler }, /* NMI */
	{ .fn = HardFault_Handler },
	{ 0 }, { 0 }, { 0 }, { 0 }, { 0 }, { 0 }, { 0 },
	{ .fn = SVC_Handler },
	{ 0 }, { 0 },
	{ .fn = PendSV_Handler },
	{ .fn = vec_unclaimed }, /* SysTick: the nRF51 has none */
	[16 + IRQ_UART0] = { .fn = board_isr_uart },
	[16 + IRQ_TIMER0] = { .fn = app_isr_work },
	[16 + IRQ_TIMER1] = { .fn = app_isr_tick },
	[16 + IRQ_TIMER2] = { .fn = app_isr_sample },
};
