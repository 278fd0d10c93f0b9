/*
 * sonde_cm.h -- what an application on the Cortex-M port calls besides the
 * Sonde API: start the trace clock, and tick from the SysTick handler (to
 * count SysTick's wraps when it is the trace clock, and to run the core's
 * sonde_tick()).  Settings are in sonde_port_cfg.h.
 */
#ifndef SONDE_CM_H
#define SONDE_CM_H

#include <stdint.h>

#include "sonde.h"
#include "sonde_port_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start the trace clock: SysTick (period SONDE_CM_SYSTICK_PERIOD, core
 * clock, interrupt on) or the DWT cycle counter.  With SONDE_CM_TS_TIMER the
 * application starts its timer itself (free-running, reload 0xFFFFFFFF) and
 * this does nothing.  Call before sonde_init().  SysTick's exception
 * priority is the application's choice. */
void sonde_cm_ts_init(void);

/* The trace clock, 32 bits, counting up at SONDE_CM_TS_HZ (also declared by
 * the core's sonde_port.h).  Safe anywhere: thread, any ISR, interrupts
 * masked or not.  (The library itself reads it inline, SONDE_PORT_TS().) */
uint32_t sonde_port_ts(void);

/* Call once per SysTick exception, from SysTick_Handler (anywhere in it),
 * whatever the trace clock (with SONDE_CM_OWN_SYSTICK the port's own
 * handler does).  With SONDE_CM_TICK_HOOK (default 1) it is the core's
 * sonde_tick() (sonde.h): the 64-bit time stays exact across silences of
 * any length and a record after a long silence costs what it always costs.
 * With 0 it only reads a SysTick clock, which accounts for a SysTick wrap
 * if no record did yet -- without it, a period with no record in it is
 * lost from a SysTick clock. */
SONDE_CM_INLINE void sonde_cm_systick_tick(void)
{
#if SONDE_CM_TICK_HOOK
	sonde_tick();
#elif SONDE_CM_TS == SONDE_CM_TS_SYSTICK
	uint32_t m = sonde_cm_crit_enter();

	(void)sonde_cm_ts_masked();
	sonde_cm_crit_exit(m);
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* SONDE_CM_H */
