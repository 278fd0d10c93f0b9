/*
 * switch.S -- context switch and first task start for sched.c (ARMv7-M, no
 * FPU).  The hardware stacks r0-r3, r12, lr, pc, xPSR on exception entry;
 * these handlers add r4-r11 and keep the resulting PSP in the task's
 * sched_task_t.sp (its first field).
 */
	.syntax unified
	.cpu cortex-m3
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
	stmdb r0!, {r4-r11}
	ldr r3, =sched_cur
	ldr r2, [r3]
	str r0, [r2]
	push {r3, lr}
	bl sched_switch
	pop {r3, lr}
	ldr r0, [r0]
	ldmia r0!, {r4-r11}
	msr psp, r0
	bx lr
	.size PendSV_Handler, . - PendSV_Handler

/* svc 0 from sched_start(): enter sched_cur in thread mode on its PSP. */
	.global SVC_Handler
	.type SVC_Handler, %function
	.thumb_func
SVC_Handler:
	ldr r3, =sched_cur
	ldr r2, [r3]
	ldr r0, [r2]
	ldmia r0!, {r4-r11}
	msr psp, r0
	ldr lr, =0xFFFFFFFD
	bx lr
	.size SVC_Handler, . - SVC_Handler

	.ltorg
