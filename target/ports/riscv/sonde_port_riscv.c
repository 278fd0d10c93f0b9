/*
 * sonde_port_riscv.c -- Sonde port for RISC-V: starting the trace clock, and
 * reading it from anywhere.  The clock and the critical section the library
 * uses are inline in sonde_port_cfg.h.
 */
#include "sonde_port.h"
#include "sonde_riscv.h"

void sonde_rv_ts_init(void)
{
#if SONDE_RV_TS == SONDE_RV_TS_MCYCLE && !defined(SONDE_RV_TS_VAR)
	/* mcountinhibit (0x320, privileged spec 1.11) bit 0: CY.  A core
	 * without the register may trap here; such a core counts anyway. */
	__asm__ __volatile__("csrci 0x320, 1" : : : "memory");
#endif
}

/* The same clock as the library reads, for callers outside it.  A single
 * load or csrr needs no critical section. */
uint32_t sonde_port_ts(void)
{
	return SONDE_PORT_TS();
}
