/*
 * sched_arch.c -- the Cortex-M half of the example scheduler (sched.c):
 * a task's first stack frame, pending a switch (PendSV), and starting the
 * first task (SVC).  The switch itself is in switch_v7m.S (ARMv7-M,
 * ARMv7E-M, ARMv8-M Mainline) or switch_v6m.S (ARMv6-M).
 */
#include "board.h"
#include "sched.h"

/* The frame an exception return pops (r0-r3, r12, lr, pc, xPSR), and below
 * it what the switch code keeps: r4-r11 and the task's EXC_RETURN (with an
 * FPU it says whether the task has a floating-point frame; a new task has
 * none).  The lowest address is the saved PSP. */
uint32_t *sched_arch_frame(uint32_t *top, void (*entry)(void), void (*task_exit)(void))
{
	uint32_t *sp = top;
	int i;

	*--sp = 0x01000000u; /* xPSR: Thumb */
	*--sp = (uint32_t)(uintptr_t)entry & ~1u;
	*--sp = (uint32_t)(uintptr_t)task_exit;
	for (i = 0; i < 5; i++)
		*--sp = 0;           /* r12, r3-r0 */
	*--sp = 0xFFFFFFFDu;         /* EXC_RETURN: thread mode, PSP, basic frame */
	for (i = 0; i < 8; i++)
		*--sp = 0;           /* r11-r4 */
	return sp;
}

/* PendSV has the lowest priority: the switch runs once no ISR is active. */
void sched_arch_pend(void)
{
	SCB_ICSR = ICSR_PENDSVSET;
}

void sched_arch_start(void)
{
	arch_set_prio_pendsv(BOARD_PRIO_PENDSV);
	arch_set_prio_svcall(0);
	/* SVC_Handler (switch_*.S) loads the task's frame and returns into it
	 * on the process stack.  Main's stack stays the exception stack. */
	__asm__ __volatile__("cpsie i\n\tsvc 0" : : : "memory");
	for (;;)
		;
}
