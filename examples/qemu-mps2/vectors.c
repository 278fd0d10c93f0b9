/*
 * vectors.c -- the MPS2 boards' vector table: the core's exceptions and
 * the external interrupts the firmware uses (numbers in board_cfg.h, per
 * machine).  Reset and the faults are fw-common/cortex-m/startup_cm.c's,
 * PendSV and SVC the scheduler's switch code, the rest the application's
 * app_isr_*().  Images without them (the benchmark, the size image) get the
 * weak defaults below: an exception nobody claimed is reported like a
 * fault.
 */
#include "board.h"

extern uint32_t __stack_top;
void Reset_Handler(void);
void HardFault_Handler(void);

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

/* The first entry is a data address; a union keeps ISO C happy. */
typedef union {
	void (*fn)(void);
	void *sp;
} vector_t;

#define VEC_IRQS 48

__attribute__((section(".vectors"), used))
const vector_t board_vectors[16 + VEC_IRQS] = {
	{ .sp = &__stack_top },
	{ .fn = Reset_Handler },
	{ .fn = HardFault_Handler }, /* NMI */
	{ .fn = HardFault_Handler },
	{ .fn = HardFault_Handler }, /* MemManage */
	{ .fn = HardFault_Handler }, /* BusFault */
	{ .fn = HardFault_Handler }, /* UsageFault */
	{ .fn = HardFault_Handler }, /* SecureFault (ARMv8-M) */
	{ 0 }, { 0 }, { 0 },
	{ .fn = SVC_Handler },
	{ .fn = HardFault_Handler }, /* DebugMon */
	{ 0 },
	{ .fn = PendSV_Handler },
	{ .fn = app_isr_tick },      /* SysTick */
	[16 + IRQ_UART0_RX] = { .fn = app_isr_uart_rx },
	[16 + IRQ_UART0_TX] = { .fn = app_isr_uart_tx },
	[16 + IRQ_TIMER0] = { .fn = app_isr_work },
	[16 + IRQ_TIMER1] = { .fn = app_isr_sample },
};
