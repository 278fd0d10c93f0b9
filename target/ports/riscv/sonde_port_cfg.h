/*
 * sonde_port_cfg.h -- Sonde port for RISC-V (RV32, machine mode): the
 * macros the core library takes from its port, and this port's own
 * settings.
 *
 * Every setting is a macro with a default here; override it with -D on the
 * compiler command line (the same value for the library, the port and the
 * application).
 *
 *   SONDE_RV_TS          the trace clock:
 *                        SONDE_RV_TS_MTIME (default) the machine timer's
 *                          mtime, low word, memory-mapped (CLINT/ACLINT):
 *                          an address and a load, two instructions;
 *                        SONDE_RV_TS_MCYCLE the mcycle CSR, low word: one
 *                          csrr (the core clock; on cores whose mcycle
 *                          stops in WFI or that do not have it, use mtime).
 *   SONDE_RV_TS_HZ       the trace clock's rate in Hz (default 10000000:
 *                        QEMU virt's mtime; HiFive1 32768, a core clock
 *                        for mcycle).
 *   SONDE_RV_MTIME_ADDR  address of mtime's low word (default 0x0200BFF8,
 *                        the CLINT of QEMU virt and SiFive cores).
 *   SONDE_RV_TS_VAR      instead of mtime, a volatile uint32_t variable of
 *                        this name that the program counts itself
 *                        (benchmarks: the same two instructions).
 *   SONDE_RV_CRIT_EXACT  1 (default): the critical section's exit writes
 *                        mstatus back whole (csrw, one instruction).  Any
 *                        change to mstatus inside the section is undone:
 *                        with the F extension, an FS "dirty" set there is
 *                        lost, so firmware that switches FPU context lazily
 *                        on FS sets 0: the exit then sets MIE only if it
 *                        was set (andi + csrs, two instructions).
 *
 * The critical section is mstatus.MIE: csrrci clears it and returns the
 * old value in one instruction.  It masks every interrupt of the hart in
 * machine mode, whatever the interrupt controller (CLINT, PLIC, CLIC).
 *
 * Alignment: RV32 without Zicclsm may trap on misaligned accesses (QEMU
 * does not; most cores do or are slow).  GCC's default tuning treats them
 * as slow and makes the record path's unaligned word stores byte stores
 * itself (sonde_internal.h); on a core that handles them in hardware,
 * -mno-strict-align turns them back into word stores.
 */
#ifndef SONDE_PORT_CFG_H
#define SONDE_PORT_CFG_H

#include <stdint.h>

#define SONDE_RV_TS_MTIME  1
#define SONDE_RV_TS_MCYCLE 2

#ifndef SONDE_RV_TS
#define SONDE_RV_TS SONDE_RV_TS_MTIME
#endif
#ifndef SONDE_RV_TS_HZ
#define SONDE_RV_TS_HZ 10000000u
#endif
#ifndef SONDE_RV_MTIME_ADDR
#define SONDE_RV_MTIME_ADDR 0x0200BFF8u
#endif
#ifndef SONDE_RV_CRIT_EXACT
#define SONDE_RV_CRIT_EXACT 1
#endif

#define SONDE_PORT_TS_HZ SONDE_RV_TS_HZ

#if defined(__GNUC__)
#define SONDE_RV_INLINE static inline __attribute__((always_inline))
#else
#define SONDE_RV_INLINE static inline
#endif

/* ---- the clock, read inline by the library inside its critical section */

#if defined(SONDE_RV_TS_VAR)
extern volatile uint32_t SONDE_RV_TS_VAR;
#define SONDE_PORT_TS() (SONDE_RV_TS_VAR)
#elif SONDE_RV_TS == SONDE_RV_TS_MTIME
#define SONDE_PORT_TS() (*(volatile uint32_t *)SONDE_RV_MTIME_ADDR)
#elif SONDE_RV_TS == SONDE_RV_TS_MCYCLE
SONDE_RV_INLINE uint32_t sonde_rv_mcycle(void)
{
	uint32_t t;
	__asm__ __volatile__("csrr %0, mcycle" : "=r"(t));
	return t;
}
#define SONDE_PORT_TS() sonde_rv_mcycle()
#else
#error "SONDE_RV_TS: use SONDE_RV_TS_MTIME or SONDE_RV_TS_MCYCLE"
#endif

/* ---- critical section: mstatus.MIE ------------------------------------ */

#define SONDE_RV_MSTATUS_MIE 0x8u

SONDE_RV_INLINE uint32_t sonde_rv_crit_enter(void)
{
	uint32_t old;
	__asm__ __volatile__("csrrci %0, mstatus, 8" : "=r"(old) : : "memory");
	return old;
}

SONDE_RV_INLINE void sonde_rv_crit_exit(uint32_t old)
{
#if SONDE_RV_CRIT_EXACT
	__asm__ __volatile__("csrw mstatus, %0" : : "r"(old) : "memory");
#else
	__asm__ __volatile__("csrs mstatus, %0" : : "r"(old & SONDE_RV_MSTATUS_MIE) : "memory");
#endif
}

#define SONDE_PORT_CRIT_DECL    uint32_t sonde_rv_crit_
#define SONDE_PORT_CRIT_ENTER() (sonde_rv_crit_ = sonde_rv_crit_enter())
#define SONDE_PORT_CRIT_EXIT()  sonde_rv_crit_exit(sonde_rv_crit_)

/* One hart per stream: SONDE_PORT_CORE_ID() is left to the library's
 * default (0); a multi-hart system runs one image per hart or adds a lock
 * (docs/porting.md). */

#endif /* SONDE_PORT_CFG_H */
