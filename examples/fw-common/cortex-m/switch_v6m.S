/*
 * switch_v6m.S -- context switch and first task start for sched.c on
 * ARMv6-M (Cortex-M0/M0+/M1), Thumb-1 only: STM/LDM take only r0-r7 and
 * always count up, so r8-r11 go through low registers and the frame is
 * reserved first, then filled upwards.  The frame is the same as on ARMv7-M
 * (sched_arch.c): r4-r11 and EXC_RETURN below the hardware's r0-r3, r12,
 * lr, pc, xPSR; the lowest address is kept in sched_task_t.sp.
 */
	.syntax unified
	.thumb
	.text

	.global PendSV_Handler
	.type PendSV_Handler, %function
	.thumb_func
PendSV_Handler:
	mrs r0, psp
	subs r0, #36            /* r4-r11, EXC_RETURN */
	ldr r3, =sched_cur
	ldr r2, [r3]
	str r0, [r2]
	stmia r0!, {r4-r7}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	stmia r0!, {r4-r7}
	mov r4, lr
	str r4, [r0]
	bl sched_switch
	ldr r0, [r0]
	b switch_restore
	.size PendSV_Handler, . - PendSV_Handler

	.global SVC_Handler
	.type SVC_Handler, %function
	.thumb_func
SVC_Handler:
	ldr r3, =sched_cur
	ldr r2, [r3]
	ldr r0, [r2]
switch_restore:
	adds r0, #16
	ldmia r0!, {r4-r7}      /* saved r8-r11 */
	mov r8, r4
	mov r9, r5
	mov r10, r6
	mov r11, r7
	ldmia r0!, {r4}         /* EXC_RETURN */
	mov lr, r4
	msr psp, r0
	subs r0, #36
	ldmia r0!, {r4-r7}
	bx lr
	.size SVC_Handler, . - SVC_Handler

	.ltorg
