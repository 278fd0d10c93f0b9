/*
 * startup_cm.c -- reset, fault entry and leaving QEMU, for every Cortex-M
 * board of the examples (the vector table is the board's: vectors.c in its
 * folder, pointing here for Reset_Handler and the faults).
 *
 * QEMU's -kernel loads the ELF and starts from the vector table like the
 * hardware would (initial SP, then the reset vector).
 */
#include <stdint.h>
#include <string.h>

#include "board.h"

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end;
extern const uint16_t __text_start[], __text_end[];
int main(void);

void Reset_Handler(void);
void HardFault_Handler(void);
void cm_fault_c(const uint32_t *frame, uint32_t exc_return);

void Reset_Handler(void)
{
#if defined(__ARM_FP)
	/* CP10 and CP11 (the FPU) full access, before any C code may use it;
	 * lazy stacking (FPCCR.ASPEN, LSPEN) is on from reset. */
	SCB_CPACR |= 0xFu << 20;
	__asm__ __volatile__("dsb\n\tisb" : : : "memory");
#endif
	memcpy(&__data_start, &__data_load,
	       (size_t)((char *)&__data_end - (char *)&__data_start));
	memset(&__bss_start, 0, (size_t)((char *)&__bss_end - (char *)&__bss_start));
	main();
	board_exit(1); /* main does not return */
}

/* Find the stacked frame (MSP or PSP, from EXC_RETURN bit 2) and go to C.
 * Thumb-1 instructions only, so that ARMv6-M runs it too. */
__attribute__((naked)) void HardFault_Handler(void)
{
	__asm__ __volatile__(
		".syntax unified\n\t"
		"movs r0, #4\n\t"
		"mov r1, lr\n\t"
		"tst r0, r1\n\t"
		"beq 1f\n\t"
		"mrs r0, psp\n\t"
		"b 2f\n"
		"1:\tmrs r0, msp\n"
		"2:\tldr r2, =cm_fault_c\n\t"
		"bx r2\n\t"
		".ltorg\n\t");
}

void cm_fault_c(const uint32_t *frame, uint32_t exc_return)
{
	const uint16_t *pc = (const uint16_t *)(frame[6] & ~1u);
	uint32_t ipsr;

	(void)exc_return;
	arch_irq_off();
	/* BKPT 0xAB is a semihosting call; it faults only when QEMU runs
	 * without -semihosting.  board_exit() is the only caller: the work
	 * is done and the trace drained, so just stop here.  (The PC is
	 * checked first: a jump into nowhere must not fault again here.) */
	if (pc >= __text_start && pc < __text_end && *pc == 0xBEABu)
		for (;;)
			arch_wait();
	__asm__ __volatile__("mrs %0, ipsr" : "=r"(ipsr));
	app_fault(frame[6], ipsr);
	board_exit(2);
}

/* ARM semihosting: SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit
 * (0x20026, QEMU exits with 0) or ADP_Stopped_RunTimeErrorUnknown
 * (0x20023, QEMU exits with 1). */
void board_exit(int code)
{
	register uint32_t op __asm__("r0") = 0x18u;
	register uint32_t reason __asm__("r1") = code ? 0x20023u : 0x20026u;

	for (;;)
		__asm__ __volatile__("bkpt 0xab" : : "r"(op), "r"(reason) : "memory");
}
