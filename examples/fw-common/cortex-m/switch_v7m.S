/*
 * switch_v7m.S -- context switch and first task start for sched.c on
 * ARMv7-M, ARMv7E-M and ARMv8-M Mainline (Cortex-M3, M4, M7, M33).  The
 * hardware stacks r0-r3, r12, lr, pc, xPSR (and, for a task that used the
 * FPU, s0-s15 and FPSCR, lazily) on exception entry; these handlers add
 * r4-r11 and the task's EXC_RETURN -- and s16-s31 when EXC_RETURN says the
 * task has a floating-point frame (bit 4 clear) -- and keep the resulting
 * PSP in the task's sched_task_t.sp (its first field).
 */
	.syntax unified
	.thumb
	.text

/* Lowest priority, so it only ever interrupts a task (EXC_RETURN is always
 * "thread, PSP"); sched_switch() traces the switch and returns the task to
 * run. */
	.global PendSV_Handler
	.type PendSV_Handler, %function
	.thumb_func
PendSV_Handler:
	mrs r0, psp
#if defined(__ARM_FP)
	tst lr, #0x10
	it eq
	vstmdbeq r0!, {s16-s31}
#endif
	stmdb r0!, {r4-r11, lr}
	ldr r3, =sched_cur
	ldr r2, [r3]
	str r0, [r2]
	bl sched_switch
	ldr r0, [r0]
	b switch_restore
	.size PendSV_Handler, . - PendSV_Handler

/* svc 0 from sched_start(): enter sched_cur in thread mode on its PSP. */
	.global SVC_Handler
	.type SVC_Handler, %function
	.thumb_func
SVC_Handler:
	ldr r3, =sched_cur
	ldr r2, [r3]
	ldr r0, [r2]
switch_restore:
	ldmia r0!, {r4-r11, lr}
#if defined(__ARM_FP)
	tst lr, #0x10
	it eq
	vldmiaeq r0!, {s16-s31}
#endif
	msr psp, r0
	bx lr
	.size SVC_Handler, . - SVC_Handler

	.ltorg
