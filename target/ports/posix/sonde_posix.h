/*
 * sonde_posix.h -- extras of the POSIX port for tests and simulators.
 */
#ifndef SONDE_POSIX_H
#define SONDE_POSIX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Replace the clock: sonde_port_ts() returns fn() from now on, so a test
 * controls time exactly.  NULL goes back to CLOCK_MONOTONIC. */
void sonde_posix_set_clock(uint32_t (*fn)(void));

#ifdef __cplusplus
}
#endif

#endif /* SONDE_POSIX_H */
