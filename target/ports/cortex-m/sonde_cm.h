/*
 * sonde_cm.h -- what an application on the Cortex-M port calls besides the
 * Sonde API: start the trace clock, and (SysTick shared with an RTOS) count
 * its wraps.  Settings are in sonde_port_cfg.h.
 */
#ifndef SONDE_CM_H
#define SONDE_CM_H

#include <stdint.h>

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

#if SONDE_CM_TS == SONDE_CM_TS_SYSTICK && !SONDE_CM_OWN_SYSTICK
/* Call once per SysTick exception, from SysTick_Handler (anywhere in it):
 * it reads the clock, which accounts for the wrap if no record did yet.
 * Without it, a period with no record in it is lost from the clock. */
static inline void sonde_cm_systick_tick(void)
{
	uint32_t m = sonde_cm_crit_enter();

	(void)sonde_cm_ts_masked();
	sonde_cm_crit_exit(m);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* SONDE_CM_H */
