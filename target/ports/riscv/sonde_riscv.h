/*
 * sonde_riscv.h -- what an application on the RISC-V port calls besides the
 * Sonde API: start the trace clock, and the optional tick.  Settings are in
 * sonde_port_cfg.h.
 */
#ifndef SONDE_RISCV_H
#define SONDE_RISCV_H

#include <stdint.h>

#include "sonde.h"
#include "sonde_port_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make sure the trace clock counts: with SONDE_RV_TS_MCYCLE, clears
 * mcountinhibit.CY (where the core has it; harmless where not).  mtime
 * always runs.  Call before sonde_init(). */
void sonde_rv_ts_init(void);

/* The trace clock, 32 bits, counting up at SONDE_RV_TS_HZ, from anywhere
 * (also declared by the core's sonde_port.h). */
uint32_t sonde_port_ts(void);

/* From a periodic interrupt (the machine timer's tick): the core's
 * sonde_tick() -- the 64-bit time stays exact across silences of any
 * length, and a TIME_SYNC goes out after long ones.  Optional. */
SONDE_RV_INLINE void sonde_rv_tick(void)
{
	sonde_tick();
}

#ifdef __cplusplus
}
#endif

#endif /* SONDE_RISCV_H */
