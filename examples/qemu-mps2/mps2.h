/*
 * mps2.h -- the few registers of the MPS2 AN385 board (Cortex-M3) and of the
 * core that this firmware touches, as QEMU 7.2's mps2-an385 models them.
 *
 * Interrupt numbers are QEMU's (hw/arm/mps2.c): UART0 RX 0 / TX 1, TIMER0 8,
 * TIMER1 9, dual timer 10, UART0..2 overflow (ORed) 12.  APB peripherals run
 * on the 25 MHz system clock, like the core.
 */
#ifndef MPS2_H
#define MPS2_H

#include <stdint.h>

#define MPS2_REG(a) (*(volatile uint32_t *)(a))
#define MPS2_REG8(a) (*(volatile uint8_t *)(a))

#define MPS2_SYSCLK_HZ 25000000u

/* ---- CMSDK APB UART0 ---------------------------------------------------- */
#define UART0_BASE      0x40004000u
#define UART0_DATA      MPS2_REG(UART0_BASE + 0x00u)
#define UART0_STATE     MPS2_REG(UART0_BASE + 0x04u)
#define UART0_CTRL      MPS2_REG(UART0_BASE + 0x08u)
#define UART0_INTSTATUS MPS2_REG(UART0_BASE + 0x0Cu) /* write 1 to clear */
#define UART0_BAUDDIV   MPS2_REG(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL 0x01u
#define UART_STATE_RXFULL 0x02u
#define UART_CTRL_TX_EN    0x01u
#define UART_CTRL_RX_EN    0x02u
#define UART_CTRL_TX_INTEN 0x04u
#define UART_CTRL_RX_INTEN 0x08u
#define UART_INT_TX 0x01u
#define UART_INT_RX 0x02u

/* ---- CMSDK APB timers ------------------------------------------------- */
#define TIMER0_BASE 0x40000000u
#define TIMER1_BASE 0x40001000u
#define TIMER_CTRL(b)     MPS2_REG((b) + 0x00u)
#define TIMER_VALUE(b)    MPS2_REG((b) + 0x04u)
#define TIMER_RELOAD(b)   MPS2_REG((b) + 0x08u)
#define TIMER_INTCLEAR(b) MPS2_REG((b) + 0x0Cu)
#define TIMER_CTRL_EN    0x01u
#define TIMER_CTRL_IRQEN 0x08u

/* CMSDK APB dual timer, timer 1 (the other trace clock source). */
#define DUALTIMER1_BASE    0x40002000u
#define DUALTIMER1_LOAD    MPS2_REG(DUALTIMER1_BASE + 0x00u)
#define DUALTIMER1_VALUE   MPS2_REG(DUALTIMER1_BASE + 0x04u)
#define DUALTIMER1_CONTROL MPS2_REG(DUALTIMER1_BASE + 0x08u)
#define DUALTIMER_CTRL_EN    0x80u
#define DUALTIMER_CTRL_32BIT 0x02u

/* ---- interrupt numbers (NVIC inputs) ---------------------------------- */
#define IRQ_UART0_RX 0
#define IRQ_UART0_TX 1
#define IRQ_TIMER0   8
#define IRQ_TIMER1   9
#define IRQ_DUALTIMER 10

/* ---- core: NVIC, SCB, SysTick ------------------------------------------ */
#define NVIC_ISER   MPS2_REG(0xE000E100u)
#define NVIC_ICER   MPS2_REG(0xE000E180u)
#define NVIC_ISPR   MPS2_REG(0xE000E200u)
#define NVIC_ICPR   MPS2_REG(0xE000E280u)
#define NVIC_IPR(n) MPS2_REG8(0xE000E400u + (n))
#define SCB_ICSR    MPS2_REG(0xE000ED04u)
#define SCB_VTOR    MPS2_REG(0xE000ED08u)
#define SCB_SHPR_SVCALL  MPS2_REG8(0xE000ED1Fu)
#define SCB_SHPR_PENDSV  MPS2_REG8(0xE000ED22u)
#define SCB_SHPR_SYSTICK MPS2_REG8(0xE000ED23u)
#define ICSR_PENDSVSET (1u << 28)
#define SYST_CSR    MPS2_REG(0xE000E010u)
#define SYST_RVR    MPS2_REG(0xE000E014u)
#define SYST_CVR    MPS2_REG(0xE000E018u)

/* Priorities: 3 bits implemented on the AN385 (QEMU keeps 8), so only
 * multiples of 0x20 are used; smaller is more urgent. */
#define PRIO_TIMER1  0x40u
#define PRIO_TIMER0  0x60u
#define PRIO_SYSTICK 0x80u
#define PRIO_UART    0xC0u
#define PRIO_PENDSV  0xE0u

static inline void mps2_irq_enable(int irq, uint8_t prio)
{
	NVIC_IPR(irq) = prio;
	NVIC_ISER = 1u << irq;
}

static inline void mps2_irq_disable(int irq)
{
	NVIC_ICER = 1u << irq;
}

/* PRIMASK save/restore for the firmware's own short critical sections. */
static inline uint32_t mps2_irq_save(void)
{
	uint32_t m;
	__asm__ __volatile__("mrs %0, primask\n\tcpsid i" : "=r"(m) : : "memory");
	return m;
}

static inline void mps2_irq_restore(uint32_t m)
{
	__asm__ __volatile__("msr primask, %0" : : "r"(m) : "memory");
}

#endif /* MPS2_H */
