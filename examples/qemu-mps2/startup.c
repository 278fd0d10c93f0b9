/*
 * startup.c -- reset and exception entry for the MPS2 AN385 (Cortex-M3):
 * the vector table, the C run-time set-up, and the fault entry.
 *
 * QEMU's -kernel loads the ELF and starts from the vector table at 0 like
 * the hardware would (initial SP, then the reset vector).
 */
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t __stack_top, __data_load, __data_start, __data_end, __bss_start, __bss_end;
extern const uint16_t __text_start[], __text_end[];
int main(void);

void Reset_Handler(void);
void HardFault_Handler(void);
void board_fault_c(const uint32_t *frame, uint32_t exc_return);

/* Handlers the application may define; an exception nobody claimed is
 * reported like a fault (app_fault() can tell them apart by IPSR). */
#define WEAK_DEFAULT __attribute__((weak, alias("HardFault_Handler")))
void NMI_Handler(void) WEAK_DEFAULT;
void MemManage_Handler(void) WEAK_DEFAULT;
void BusFault_Handler(void) WEAK_DEFAULT;
void UsageFault_Handler(void) WEAK_DEFAULT;
void SVC_Handler(void) WEAK_DEFAULT;
void DebugMon_Handler(void) WEAK_DEFAULT;
void PendSV_Handler(void) WEAK_DEFAULT;
void SysTick_Handler(void) WEAK_DEFAULT;
void UART0RX_Handler(void) WEAK_DEFAULT;
void UART0TX_Handler(void) WEAK_DEFAULT;
void TIMER0_Handler(void) WEAK_DEFAULT;
void TIMER1_Handler(void) WEAK_DEFAULT;
void DUALTIMER_Handler(void) WEAK_DEFAULT;

/* The first entry is a data address; a union keeps ISO C happy. */
typedef union {
	void (*fn)(void);
	void *sp;
} vector_t;

__attribute__((section(".vectors"), used))
const vector_t board_vectors[16 + 32] = {
	{ .sp = &__stack_top },
	{ .fn = Reset_Handler },
	{ .fn = NMI_Handler },
	{ .fn = HardFault_Handler },
	{ .fn = MemManage_Handler },
	{ .fn = BusFault_Handler },
	{ .fn = UsageFault_Handler },
	{ 0 }, { 0 }, { 0 }, { 0 },
	{ .fn = SVC_Handler },
	{ .fn = DebugMon_Handler },
	{ 0 },
	{ .fn = PendSV_Handler },
	{ .fn = SysTick_Handler },
	/* external interrupts (QEMU hw/arm/mps2.c numbering) */
	[16 + 0] = { .fn = UART0RX_Handler },
	[16 + 1] = { .fn = UART0TX_Handler },
	[16 + 8] = { .fn = TIMER0_Handler },
	[16 + 9] = { .fn = TIMER1_Handler },
	[16 + 10] = { .fn = DUALTIMER_Handler },
};

void Reset_Handler(void)
{
	memcpy(&__data_start, &__data_load,
	       (size_t)((char *)&__data_end - (char *)&__data_start));
	memset(&__bss_start, 0, (size_t)((char *)&__bss_end - (char *)&__bss_start));
	main();
	board_exit(1); /* main does not return */
}

/* Find the stacked frame (MSP or PSP, from EXC_RETURN bit 2) and go to C. */
__attribute__((naked)) void HardFault_Handler(void)
{
	__asm__ __volatile__(
		"tst lr, #4\n\t"
		"ite eq\n\t"
		"mrseq r0, msp\n\t"
		"mrsne r0, psp\n\t"
		"mov r1, lr\n\t"
		"b board_fault_c\n\t");
}

void board_fault_c(const uint32_t *frame, uint32_t exc_return)
{
	const uint16_t *pc = (const uint16_t *)(frame[6] & ~1u);

	__asm__ __volatile__("cpsid i" : : : "memory");
	/* BKPT 0xAB is a semihosting call; it faults only when QEMU runs
	 * without -semihosting.  board_exit() is the only caller: the work
	 * is done and the trace drained, so just stop here.  (The PC is
	 * checked first: a jump into nowhere must not fault again here.) */
	if (pc >= __text_start && pc < __text_end && *pc == 0xBEABu)
		for (;;)
			__asm__ __volatile__("wfi");
	app_fault(frame, exc_return);
	board_exit(2);
}
