/*
 * trap.S -- trap entry and exit for the RISC-V examples, with the example
 * scheduler's context switch.
 *
 * Every trap saves the caller-saved registers, mepc and mstatus on the
 * current stack (the interrupted task's, or the interrupted handler's when
 * traps nest) and calls rv_trap(mcause) in C (the board's: it dispatches and
 * re-enables the interrupts more urgent than the one it serves, so traps
 * nest).  rv_trap returns non-zero when the trap was the scheduler's switch
 * request (the lowest-priority interrupt, taken only at task level): then
 * the task's callee-saved registers go below its frame, its stack pointer
 * into sched_cur->sp, sched_switch() picks the next task, and that task's
 * frame is restored instead.  mret then returns into it with its own
 * mstatus (MPIE set: interrupts on).
 *
 * Frame, from the stack pointer up: [s0-s11 (switch only)] ra t0-t2 a0-a7
 * t3-t6 mepc mstatus (18 words, padded to 20: the stack stays 16-byte
 * aligned).
 */
	.equ FRAME, 80
	.equ SAVED, 48

	.text
	.balign 4
	.global rv_trap_entry
rv_trap_entry:
	addi sp, sp, -FRAME
	sw ra, 0(sp)
	sw t0, 4(sp)
	sw t1, 8(sp)
	sw t2, 12(sp)
	sw a0, 16(sp)
	sw a1, 20(sp)
	sw a2, 24(sp)
	sw a3, 28(sp)
	sw a4, 32(sp)
	sw a5, 36(sp)
	sw a6, 40(sp)
	sw a7, 44(sp)
	sw t3, 48(sp)
	sw t4, 52(sp)
	sw t5, 56(sp)
	sw t6, 60(sp)
	csrr t0, mepc
	sw t0, 64(sp)
	csrr t0, mstatus
	sw t0, 68(sp)
	csrr a0, mcause
	call rv_trap
	beqz a0, rv_trap_restore
	addi sp, sp, -SAVED
	sw s0, 0(sp)
	sw s1, 4(sp)
	sw s2, 8(sp)
	sw s3, 12(sp)
	sw s4, 16(sp)
	sw s5, 20(sp)
	sw s6, 24(sp)
	sw s7, 28(sp)
	sw s8, 32(sp)
	sw s9, 36(sp)
	sw s10, 40(sp)
	sw s11, 44(sp)
	la t0, sched_cur
	lw t1, 0(t0)
	sw sp, 0(t1)
	call sched_switch
	lw sp, 0(a0)
	/* fall through: restore the chosen task */

	.global rv_switch_restore
rv_switch_restore:
	lw s0, 0(sp)
	lw s1, 4(sp)
	lw s2, 8(sp)
	lw s3, 12(sp)
	lw s4, 16(sp)
	lw s5, 20(sp)
	lw s6, 24(sp)
	lw s7, 28(sp)
	lw s8, 32(sp)
	lw s9, 36(sp)
	lw s10, 40(sp)
	lw s11, 44(sp)
	addi sp, sp, SAVED
rv_trap_restore:
	lw t0, 64(sp)
	csrw mepc, t0
	lw t0, 68(sp)
	csrw mstatus, t0
	lw ra, 0(sp)
	lw t0, 4(sp)
	lw t1, 8(sp)
	lw t2, 12(sp)
	lw a0, 16(sp)
	lw a1, 20(sp)
	lw a2, 24(sp)
	lw a3, 28(sp)
	lw a4, 32(sp)
	lw a5, 36(sp)
	lw a6, 40(sp)
	lw a7, 44(sp)
	lw t3, 48(sp)
	lw t4, 52(sp)
	lw t5, 56(sp)
	lw t6, 60(sp)
	addi sp, sp, FRAME
	mret

/* sched_arch_start(): enter sched_cur (its frame from sched_arch_frame). */
	.global rv_start_first
rv_start_first:
	la t0, sched_cur
	lw t1, 0(t0)
	lw sp, 0(t1)
	j rv_switch_restore
