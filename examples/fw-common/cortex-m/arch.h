/*
 * arch.h -- the Cortex-M side of the shared firmware (ARMv6-M, ARMv7-M,
 * ARMv7E-M, ARMv8-M Mainline): interrupt masking, sleeping, a calibrated
 * spin loop, and the core registers the boards and sched_arch.c use.
 */
#ifndef ARCH_H
#define ARCH_H

#include <stdint.h>

#define ARCH_REG(a)  (*(volatile uint32_t *)(a))
#define ARCH_REG8(a) (*(volatile uint8_t *)(a))

/* ---- core registers (the same address on every Cortex-M) ------------- */
/* NVIC set/clear registers: one bit per interrupt, 32 per word. */
#define NVIC_ISER(irq) ARCH_REG(0xE000E100u + 4u * ((unsigned)(irq) / 32u))
#define NVIC_ICER(irq) ARCH_REG(0xE000E180u + 4u * ((unsigned)(irq) / 32u))
#define NVIC_ISPR(irq) ARCH_REG(0xE000E200u + 4u * ((unsigned)(irq) / 32u))
#define NVIC_ICPR(irq) ARCH_REG(0xE000E280u + 4u * ((unsigned)(irq) / 32u))
#define NVIC_BIT(irq)  (1u << ((unsigned)(irq) % 32u))
#define SCB_ICSR    ARCH_REG(0xE000ED04u)
#define SCB_VTOR    ARCH_REG(0xE000ED08u)
#define SCB_SHCSR   ARCH_REG(0xE000ED24u)
#define SCB_CPACR   ARCH_REG(0xE000ED88u)
#define ICSR_PENDSVSET (1u << 28)
#define SYST_CSR    ARCH_REG(0xE000E010u)
#define SYST_RVR    ARCH_REG(0xE000E014u)
#define SYST_CVR    ARCH_REG(0xE000E018u)

/* Priorities of the system handlers.  ARMv6-M has no byte access to the
 * SHPR registers (and no SHPR1): they are set a word at a time. */
#define SCB_SHPR2   ARCH_REG(0xE000ED1Cu) /* SVCall in bits 31:24 */
#define SCB_SHPR3   ARCH_REG(0xE000ED20u) /* PendSV 23:16, SysTick 31:24 */

static inline void arch_set_prio_svcall(uint8_t p)
{
	SCB_SHPR2 = (SCB_SHPR2 & 0x00FFFFFFu) | (uint32_t)p << 24;
}

static inline void arch_set_prio_pendsv(uint8_t p)
{
	SCB_SHPR3 = (SCB_SHPR3 & 0xFF00FFFFu) | (uint32_t)p << 16;
}

static inline void arch_set_prio_systick(uint8_t p)
{
	SCB_SHPR3 = (SCB_SHPR3 & 0x00FFFFFFu) | (uint32_t)p << 24;
}

/* An external interrupt's priority and enable.  The priority registers are
 * written a word at a time (ARMv6-M allows nothing else). */
static inline void arch_irq_enable(int irq, uint8_t prio)
{
	volatile uint32_t *ipr = &ARCH_REG(0xE000E400u + 4u * ((unsigned)irq / 4u));
	unsigned sh = 8u * ((unsigned)irq % 4u);

	*ipr = (*ipr & ~(0xFFu << sh)) | (uint32_t)prio << sh;
	NVIC_ISER(irq) = NVIC_BIT(irq);
}

static inline void arch_irq_pend(int irq)
{
	NVIC_ISPR(irq) = NVIC_BIT(irq);
}

static inline void arch_irq_disable(int irq)
{
	NVIC_ICER(irq) = NVIC_BIT(irq);
}

/* ---- interrupt masking -------------------------------------------------- */

/* PRIMASK saved and set / restored: the firmware's own short critical
 * sections (Sonde's are in its port). */
static inline uint32_t arch_irq_save(void)
{
	uint32_t m;
	__asm__ __volatile__("mrs %0, primask\n\tcpsid i" : "=r"(m) : : "memory");
	return m;
}

static inline void arch_irq_restore(uint32_t m)
{
	__asm__ __volatile__("msr primask, %0" : : "r"(m) : "memory");
}

static inline void arch_irq_off(void)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
}

static inline void arch_irq_on(void)
{
	__asm__ __volatile__("cpsie i" : : : "memory");
}

/* Sleep until an interrupt is pending; WFI wakes on one even with PRIMASK
 * set, so the caller tests for work with interrupts masked first. */
static inline void arch_wait(void)
{
	__asm__ __volatile__("wfi" : : : "memory");
}

/* Exactly 2 * n instructions (n >= 1): the benchmark's calibration. */
static inline void arch_spin(uint32_t n)
{
	/* GCC hands Thumb-1 inline asm to the assembler in the old "divided"
	 * syntax; unified is what this is written in. */
	__asm__ __volatile__(".syntax unified\n1:\tsubs %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
}

/* A comment in the generated code: keeps identical benchmark loops apart. */
#define ARCH_ASM_MARK(name) __asm__ __volatile__("@ " #name ::: "memory")

/* A code address as the PC holds it (Thumb bit clear), for FUNC_ENTER_A. */
#define ARCH_CODE_ADDR(f) ((const void *)((uintptr_t)(f) & ~(uintptr_t)1))

#endif /* ARCH_H */
