/*
 * start.S -- reset for the RISC-V examples: QEMU virt (-bios none) jumps to
 * the start of RAM, where this is linked.  Sets the global pointer, the
 * stack, the trap vector, copies .data (a no-op when it runs from RAM, kept
 * for a flash layout), clears .bss and calls main.
 */
	.section .text.start, "ax"
	.global _start
_start:
	.option push
	.option norelax
	la gp, __global_pointer$
	.option pop
	la sp, __stack_top
	/* the trap entry of trap.S when linked (the firmware), else a
	 * fault stop (the benchmark and the size image take no traps) */
	lui t0, %hi(rv_trap_entry)
	addi t0, t0, %lo(rv_trap_entry)
	bnez t0, 5f
	la t0, rv_early_trap
5:	csrw mtvec, t0
	csrw mie, zero
	csrw mideleg, zero
	la a0, __data_start
	la a1, __data_load
	la a2, __data_end
1:	bgeu a0, a2, 2f
	lw t0, 0(a1)
	sw t0, 0(a0)
	addi a0, a0, 4
	addi a1, a1, 4
	j 1b
2:	la a0, __bss_start
	la a1, __bss_end
3:	bgeu a0, a1, 4f
	sw zero, 0(a0)
	addi a0, a0, 4
	j 3b
4:	call main
	li a0, 1
	call board_exit

	.weak rv_trap_entry
	.balign 4
rv_early_trap:
	csrr a0, mepc
	csrr a1, mcause
	call app_fault
	li a0, 2
	call board_exit
