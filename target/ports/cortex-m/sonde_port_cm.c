/*
 * sonde_port_cm.c -- Sonde port for Cortex-M: starting the trace clock, and
 * reading it from anywhere.
 *
 * The library reads the clock inline inside its critical section
 * (SONDE_PORT_TS() in sonde_port_cfg.h, where the SysTick extension is
 * explained); the critical section itself is inline there too.
 */
#include "sonde_cm.h"
#include "sonde_port.h"

#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK

#define SYST_CSR SONDE_CM_REG32(0xE000E010u)
#define SYST_RVR SONDE_CM_REG32(0xE000E014u)
#define SYST_CVR SONDE_CM_REG32(0xE000E018u)
#define SYST_CSR_ENABLE_TICKINT_CORECLK 7u

volatile uint32_t sonde_cm_ts_base;

void sonde_cm_ts_init(void)
{
	SYST_CSR = 0;
	SYST_RVR = SONDE_CM_SYSTICK_PERIOD - 1u;
	SYST_CVR = 0; /* clears COUNTFLAG; reloads on the next clock, no wrap */
	sonde_cm_ts_base = SONDE_CM_SYSTICK_PERIOD; /* the clock is 0 now */
	SYST_CSR = SYST_CSR_ENABLE_TICKINT_CORECLK;
}

/* The rare cases of sonde_cm_ts_masked(), with its critical section:
 * COUNTFLAG was set (a wrap to account for; the count read before it may
 * predate the wrap, so read it again), or the count read 0 (the first tick
 * of a period). */
uint32_t sonde_cm_ts_wrap(uint32_t countflag)
{
	uint32_t base = sonde_cm_ts_base;
	uint32_t count = SYST_CVR;

	if (countflag) {
		base += SONDE_CM_SYSTICK_PERIOD;
		sonde_cm_ts_base = base;
	}
	return count != 0 ? base - count : base - SONDE_CM_SYSTICK_PERIOD;
}

#else /* TIMER, DWT, CAPTURE: one register, nothing to extend */

#if SONDE_CM_TS == SONDE_CM_TS_DWT
#define DEMCR      SONDE_CM_REG32(0xE000EDFCu)
#define DWT_CTRL   SONDE_CM_REG32(0xE0001000u)
#define DWT_CYCCNT SONDE_CM_REG32(0xE0001004u)
#define DWT_LAR    SONDE_CM_REG32(0xE0001FB0u)
#endif

void sonde_cm_ts_init(void)
{
#if SONDE_CM_TS == SONDE_CM_TS_DWT
	DEMCR |= 1u << 24;     /* TRCENA: power the DWT */
	DWT_LAR = 0xC5ACCE55u; /* unlock (Cortex-M7; ignored elsewhere) */
	DWT_CYCCNT = 0;
	DWT_CTRL |= 1u;        /* CYCCNTENA */
#endif
}

#endif

#if SONDE_CM_OWN_SYSTICK && SONDE_CM_TS == SONDE_CM_TS_SYSTICK
void SysTick_Handler(void);
void SysTick_Handler(void)
{
	sonde_cm_systick_tick();
}
#endif

/* For callers outside the library: the same clock, in a critical section of
 * its own (the SysTick extension updates state). */
uint32_t sonde_port_ts(void)
{
	uint32_t m = sonde_cm_crit_enter();
	uint32_t t = SONDE_PORT_TS();

	sonde_cm_crit_exit(m);
	return t;
}
