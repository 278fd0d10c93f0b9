/*
 * arch.h -- the RISC-V (RV32, machine mode) side of the shared firmware:
 * interrupt masking (mstatus.MIE), sleeping, a calibrated spin loop, CSR
 * access.
 */
#ifndef ARCH_H
#define ARCH_H

#include <stdint.h>

#define ARCH_REG(a) (*(volatile uint32_t *)(a))

#define CSR_WRITE(csr, v) __asm__ __volatile__("csrw " #csr ", %0" : : "r"((uint32_t)(v)) : "memory")
#define CSR_SET(csr, v)   __asm__ __volatile__("csrs " #csr ", %0" : : "r"((uint32_t)(v)) : "memory")
#define CSR_CLEAR(csr, v) __asm__ __volatile__("csrc " #csr ", %0" : : "r"((uint32_t)(v)) : "memory")

/* mstatus, mie/mip bits */
#define MSTATUS_MIE  0x8u
#define MSTATUS_MPIE 0x80u
#define MSTATUS_MPP  0x1800u
#define MIP_SSIP 0x2u   /* supervisor software interrupt: the scheduler's switch */
#define MIP_MSIP 0x8u
#define MIP_MTIP 0x80u
#define MIP_MEIP 0x800u
#define MCAUSE_INT 0x80000000u
#define IRQ_S_SOFT 1u
#define IRQ_M_SOFT 3u
#define IRQ_M_TIMER 7u
#define IRQ_M_EXT 11u

/* Save and clear MIE / restore it: the firmware's own short critical
 * sections (Sonde's are in its port). */
static inline uint32_t arch_irq_save(void)
{
	uint32_t m;
	__asm__ __volatile__("csrrci %0, mstatus, 8" : "=r"(m) : : "memory");
	return m & MSTATUS_MIE;
}

static inline void arch_irq_restore(uint32_t m)
{
	__asm__ __volatile__("csrs mstatus, %0" : : "r"(m) : "memory");
}

static inline void arch_irq_off(void)
{
	__asm__ __volatile__("csrci mstatus, 8" : : : "memory");
}

static inline void arch_irq_on(void)
{
	__asm__ __volatile__("csrsi mstatus, 8" : : : "memory");
}

/* WFI wakes on a pending enabled interrupt even with MIE clear. */
static inline void arch_wait(void)
{
	__asm__ __volatile__("wfi" : : : "memory");
}

/* Exactly 2 * n instructions (n >= 1): the benchmark's calibration. */
static inline void arch_spin(uint32_t n)
{
	__asm__ __volatile__("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

#define ARCH_ASM_MARK(name) __asm__ __volatile__("# " #name ::: "memory")

#define ARCH_CODE_ADDR(f) ((const void *)(uintptr_t)(f))

#endif /* ARCH_H */
