/*
 * sonde_port_cfg.h -- the POSIX port's side of the port contract
 * (sonde_port.h): Linux and other POSIX systems, for host-side tests,
 * simulators and Linux applications.
 *
 * The critical section must hold off other threads *and* signal handlers
 * (a handler may record, like an ISR on a microcontroller).  Entering blocks
 * all signals in the calling thread, then takes a spinlock; so no handler
 * can interrupt the holder, and a handler in another thread just waits for
 * the holder, which runs on.  The signal mask saved at the outermost entry
 * is kept per thread in the port, so the saved state here is only the
 * nesting depth.
 */
#ifndef SONDE_PORT_CFG_H
#define SONDE_PORT_CFG_H

#include <stdint.h>

/* Tick rate of sonde_port_ts() (CLOCK_MONOTONIC scaled). */
#ifndef SONDE_PORT_TS_HZ
#define SONDE_PORT_TS_HZ 1000000u
#endif

#ifdef __cplusplus
extern "C" {
#endif

int sonde_posix_crit_enter(void);
void sonde_posix_crit_exit(int depth);

#ifdef __cplusplus
}
#endif

#define SONDE_PORT_CRIT_DECL    int sonde_crit_depth_
#define SONDE_PORT_CRIT_ENTER() (sonde_crit_depth_ = sonde_posix_crit_enter())
#define SONDE_PORT_CRIT_EXIT()  sonde_posix_crit_exit(sonde_crit_depth_)

#endif /* SONDE_PORT_CFG_H */
