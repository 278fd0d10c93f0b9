/*
 * sonde_port_cfg.h -- Sonde port for Cortex-M (ARMv6-M: M0/M0+; ARMv7-M:
 * M3; ARMv7E-M: M4, M7; ARMv8-M Mainline: M33): the macros the core
 * library takes from its port, and this port's own settings.
 *
 * Every setting is a macro with a default here; override it with -D on the
 * compiler command line (the same value for the library, the port and the
 * application, since the application calls sonde_cm_systick_tick()).
 *
 *   SONDE_CM_TS             time source of the trace clock:
 *                           SONDE_CM_TS_SYSTICK (default) SysTick, 24 bits,
 *                             extended to 32 by counting its wraps;
 *                           SONDE_CM_TS_TIMER a 32-bit down-counter the
 *                             application runs free (CMSDK APB timer or dual
 *                             timer, reload 0xFFFFFFFF);
 *                           SONDE_CM_TS_DWT the DWT cycle counter (real
 *                             silicon; QEMU reads it as 0; not on ARMv6-M);
 *                           SONDE_CM_TS_CAPTURE a 32-bit up-counter read
 *                             through a capture register (nRF51/nRF52
 *                             TIMER: a write to TASKS_CAPTURE[n] copies the
 *                             count into CC[n]).
 *   SONDE_CM_CPU_HZ         core clock in Hz (default 25000000, MPS2).
 *   SONDE_CM_TS_HZ          trace clock in Hz (default SONDE_CM_CPU_HZ: SysTick
 *                           and DWT count core cycles).
 *   SONDE_CM_SYSTICK_PERIOD SysTick period in core cycles, 2..0x1000000
 *                           (default 0x1000000: the whole 24 bits).  An RTOS
 *                           that also takes its tick from SysTick sets its
 *                           tick period here, e.g. 25000 for 1 kHz at 25 MHz.
 *   SONDE_CM_OWN_SYSTICK    1: the port defines SysTick_Handler itself (no
 *                           RTOS tick).  0 (default): the application's
 *                           SysTick_Handler calls sonde_cm_systick_tick().
 *   SONDE_CM_TS_TIMER_VALUE address of the free-running down-counter's
 *                           current-value register (SONDE_CM_TS_TIMER only;
 *                           default 0x40002004, MPS2 dual timer 1).
 *   SONDE_CM_TS_CAPTURE_TASK, SONDE_CM_TS_CAPTURE_VALUE  addresses of the
 *                           capture task and of the register it fills
 *                           (SONDE_CM_TS_CAPTURE only; no default).
 *   SONDE_CM_TS_CAPTURE_TASK_VAR, SONDE_CM_TS_CAPTURE_VAR  instead of those
 *                           registers, two volatile uint32_t variables of
 *                           these names (benchmarks, as for the timer).
 *   SONDE_CM_TS_TIMER_VAR   instead of that register, a volatile uint32_t
 *                           variable of this name that the program itself
 *                           counts down (benchmarks: the clock they set
 *                           costs the same three instructions as the
 *                           timer).
 *   SONDE_CM_TICK_HOOK      1 (default): sonde_cm_systick_tick() calls the
 *                           core's sonde_tick(); 0: it only reads a SysTick
 *                           clock (sonde_cm.h).
 *   SONDE_CM_BASEPRI        0 (default): critical sections mask every
 *                           interrupt with PRIMASK.  Non-zero: they raise
 *                           BASEPRI to this value instead, so interrupts more
 *                           urgent than it (numerically lower priority
 *                           values) stay live -- and must not call Sonde.
 *                           ARMv6-M has no BASEPRI: PRIMASK only.
 *
 * The core stores frames with unaligned word stores where the CPU allows
 * them (ARMv7-M, ARMv8-M Mainline: leave SCB->CCR.UNALIGN_TRP clear); for
 * ARMv6-M, which has no unaligned access, GCC makes them byte stores
 * itself (sonde_internal.h).
 */
#ifndef SONDE_PORT_CFG_H
#define SONDE_PORT_CFG_H

#include <stdint.h>

/* ---- time source ------------------------------------------------------ */

#define SONDE_CM_TS_SYSTICK 1
#define SONDE_CM_TS_TIMER   2
#define SONDE_CM_TS_DWT     3
#define SONDE_CM_TS_CAPTURE 4

#ifndef SONDE_CM_TS
#define SONDE_CM_TS SONDE_CM_TS_SYSTICK
#endif
#ifndef SONDE_CM_CPU_HZ
#define SONDE_CM_CPU_HZ 25000000u
#endif
#ifndef SONDE_CM_TS_HZ
#define SONDE_CM_TS_HZ SONDE_CM_CPU_HZ
#endif
#ifndef SONDE_CM_SYSTICK_PERIOD
#define SONDE_CM_SYSTICK_PERIOD 0x1000000u
#endif
#ifndef SONDE_CM_OWN_SYSTICK
#define SONDE_CM_OWN_SYSTICK 0
#endif
#ifndef SONDE_CM_TICK_HOOK
#define SONDE_CM_TICK_HOOK 1
#endif
#ifndef SONDE_CM_TS_TIMER_VALUE
#define SONDE_CM_TS_TIMER_VALUE 0x40002004u
#endif

#if SONDE_CM_SYSTICK_PERIOD < 2 || SONDE_CM_SYSTICK_PERIOD > 0x1000000
#error "SONDE_CM_SYSTICK_PERIOD must be 2..0x1000000 (SysTick has 24 bits)"
#endif

#define SONDE_PORT_TS_HZ SONDE_CM_TS_HZ

#define SONDE_CM_REG32(a) (*(volatile uint32_t *)(a))

/* Plain "static inline" is only a hint, and GCC at -Os declines it for
 * these: they are on every record's path, so force it. */
#if defined(__GNUC__)
#define SONDE_CM_INLINE static inline __attribute__((always_inline))
#define SONDE_CM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SONDE_CM_INLINE static inline
#define SONDE_CM_UNLIKELY(x) (x)
#endif

/* The library reads the clock inline, inside its critical section (see
 * sonde_port.h); sonde_port_ts() in sonde_port_cm.c is the same clock for
 * callers anywhere else. */
#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK
/* The clock at the last SysTick wrap the port has accounted for, plus one
 * period.  Written only in a critical section, by sonde_cm_ts_wrap() (and
 * sonde_cm_ts_init()). */
extern volatile uint32_t sonde_cm_ts_base;

/*
 * SysTick counts down PERIOD-1 .. 1, 0, and at the step to 0 it sets
 * COUNTFLAG (cleared by reading SYST_CSR) and pends its exception; the
 * reload follows one SysTick clock later (QEMU: one 25 MHz tick, i.e. 40
 * instructions under -icount shift=0, long enough for the exception to
 * start while the count still reads 0).  The step to 0 is the wrap: the
 * count 0 is the first tick of the new period.
 *
 * Whoever reads COUNTFLAG set accounts for that wrap, in the same critical
 * section: the read clears the flag, so each wrap is counted exactly once,
 * by the first reader after it -- whatever ISR that is, and whether or not
 * the SysTick handler has started.  The count read before the flag may
 * predate the wrap, so it is read again.  The flag holds one wrap, so
 * something must read the clock at least once per period:
 * sonde_cm_systick_tick() from the SysTick handler does.
 *
 * Cost without a wrap: four loads, one combined test and a subtract,
 * inline (nine instructions on the M3, against three for a free-running
 * timer); the rare cases are out of line (sonde_cm_ts_wrap(), in
 * sonde_port_cm.c).
 * Called inside the library's critical section, which must mask every
 * reader (PRIMASK does; with BASEPRI no ISR above SONDE_CM_BASEPRI may use
 * Sonde).  The application must not read SYST_CSR itself: that would
 * swallow a wrap.
 */
uint32_t sonde_cm_ts_wrap(uint32_t countflag); /* sonde_port_cm.c; countflag: 0 or not */

SONDE_CM_INLINE uint32_t sonde_cm_ts_masked(void)
{
	uint32_t count = SONDE_CM_REG32(0xE000E018u);          /* SYST_CVR */
	uint32_t csr = SONDE_CM_REG32(0xE000E010u);            /* SYST_CSR */

	uint32_t t = sonde_cm_ts_base - count;

	/* COUNTFLAG (bit 16) moved to bit 31, ORed with count - 1, whose bit
	 * 31 is set only for count 0 (the count has 24 bits): both rare cases
	 * in one test and one branch.  t is computed first so that GCC lays
	 * the common path out straight (at -Os it ignores the hint when the
	 * rare branch returns). */
	if (SONDE_CM_UNLIKELY(((csr << 15) | (count - 1u)) & 0x80000000u))
		t = sonde_cm_ts_wrap(csr & (1u << 16));
	return t;
}
#define SONDE_PORT_TS() sonde_cm_ts_masked()

#elif SONDE_CM_TS == SONDE_CM_TS_TIMER
/* A free-running 32-bit down-counter: its complement counts up and wraps at
 * 2^32 like the clock the library expects.  One load and one inversion. */
#ifdef SONDE_CM_TS_TIMER_VAR
extern volatile uint32_t SONDE_CM_TS_TIMER_VAR;
#define SONDE_PORT_TS() (~SONDE_CM_TS_TIMER_VAR)
#else
#define SONDE_PORT_TS() (~SONDE_CM_REG32(SONDE_CM_TS_TIMER_VALUE))
#endif

#elif SONDE_CM_TS == SONDE_CM_TS_DWT
#if defined(__ARM_ARCH_6M__)
#error "SONDE_CM_TS_DWT: ARMv6-M has no DWT cycle counter"
#endif
#define SONDE_PORT_TS() (SONDE_CM_REG32(0xE0001004u))  /* DWT_CYCCNT */

#elif SONDE_CM_TS == SONDE_CM_TS_CAPTURE
/* A free-running 32-bit up-counter read through a capture register: the
 * write to the capture task copies the count, the load reads the copy.
 * Two addresses, a store and a load (five instructions on ARMv6-M). */
#if defined(SONDE_CM_TS_CAPTURE_VAR) && defined(SONDE_CM_TS_CAPTURE_TASK_VAR)
extern volatile uint32_t SONDE_CM_TS_CAPTURE_TASK_VAR, SONDE_CM_TS_CAPTURE_VAR;
#define SONDE_PORT_TS() (SONDE_CM_TS_CAPTURE_TASK_VAR = 1u, SONDE_CM_TS_CAPTURE_VAR)
#elif !defined(SONDE_CM_TS_CAPTURE_TASK) || !defined(SONDE_CM_TS_CAPTURE_VALUE)
#error "SONDE_CM_TS_CAPTURE needs SONDE_CM_TS_CAPTURE_TASK and SONDE_CM_TS_CAPTURE_VALUE"
#else
#define SONDE_PORT_TS() \
	(SONDE_CM_REG32(SONDE_CM_TS_CAPTURE_TASK) = 1u, SONDE_CM_REG32(SONDE_CM_TS_CAPTURE_VALUE))
#endif

#else
#error "SONDE_CM_TS: use SONDE_CM_TS_SYSTICK, SONDE_CM_TS_TIMER, SONDE_CM_TS_DWT or SONDE_CM_TS_CAPTURE"
#endif

/* ---- critical section ------------------------------------------------- */

#ifndef SONDE_CM_BASEPRI
#define SONDE_CM_BASEPRI 0
#endif

#if SONDE_CM_BASEPRI && defined(__ARM_ARCH_6M__)
#error "SONDE_CM_BASEPRI: ARMv6-M has no BASEPRI (use PRIMASK, the default)"
#endif

#if SONDE_CM_BASEPRI
/* BASEPRI_MAX only ever raises the mask: a section entered while a stricter
 * level is in force keeps it, and the exit restores exactly what was there.
 * 3 + 1 instructions (mov, mrs, msr ... msr). */
SONDE_CM_INLINE uint32_t sonde_cm_crit_enter(void)
{
	uint32_t old;
	__asm__ __volatile__("mrs %0, basepri\n\tmsr basepri_max, %1"
			     : "=&r"(old)
			     : "r"((uint32_t)SONDE_CM_BASEPRI)
			     : "memory");
	return old;
}

SONDE_CM_INLINE void sonde_cm_crit_exit(uint32_t old)
{
	__asm__ __volatile__("msr basepri, %0" : : "r"(old) : "memory");
}
#else
/* PRIMASK saved and restored, not just cleared: Sonde is called from code
 * that already masks interrupts (a scheduler, a fault handler).  2 + 1
 * instructions. */
SONDE_CM_INLINE uint32_t sonde_cm_crit_enter(void)
{
	uint32_t old;
	__asm__ __volatile__("mrs %0, primask\n\tcpsid i" : "=r"(old) : : "memory");
	return old;
}

SONDE_CM_INLINE void sonde_cm_crit_exit(uint32_t old)
{
	__asm__ __volatile__("msr primask, %0" : : "r"(old) : "memory");
}
#endif

#define SONDE_PORT_CRIT_DECL    uint32_t sonde_cm_crit_
#define SONDE_PORT_CRIT_ENTER() (sonde_cm_crit_ = sonde_cm_crit_enter())
#define SONDE_PORT_CRIT_EXIT()  sonde_cm_crit_exit(sonde_cm_crit_)

/* Single core: SONDE_PORT_CORE_ID() is left to the library's default (0). */

#endif /* SONDE_PORT_CFG_H */
