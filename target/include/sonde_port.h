/*
 * sonde_port.h -- what a port provides to the Sonde target library.
 *
 * A port is a folder holding a header named sonde_port_cfg.h (put that folder
 * on the include path when compiling the library) and usually one C file.
 * The header defines:
 *
 *   SONDE_PORT_TS_HZ          the tick counter's frequency in Hz (TARGET_INFO)
 *   SONDE_PORT_CRIT_DECL      a declaration of the variable that saves the
 *                             interrupt state, e.g. `uint32_t sonde_primask_`.
 *                             It must be valid at block scope and, after
 *                             `static`, at file scope: the builder API keeps
 *                             the state of the section it holds from
 *                             sonde_user_begin() to sonde_user_end() in a
 *                             file-scope variable.
 *   SONDE_PORT_CRIT_ENTER()   enter the critical section, saving the previous
 *                             state in that variable (nestable: entering while
 *                             already inside must work, e.g. save PRIMASK and
 *                             disable interrupts, never just "enable" on exit)
 *   SONDE_PORT_CRIT_EXIT()    restore the saved state
 *
 * and may define:
 *
 *   SONDE_PORT_TS()           read the tick counter inline (e.g. a DWT
 *                             CYCCNT load); default: call sonde_port_ts()
 *   SONDE_PORT_CORE_ID()      the core id of this stream; default 0
 *   SONDE_PORT_ST32LE(p, v)   store the 32-bit v little-endian at any
 *   SONDE_PORT_ST16LE(p, v)   address p (16-bit: the low half of v), and
 *   SONDE_PORT_LD32LE(p)      load 32 bits little-endian from any address:
 *                             the fast path stores whole frames this way.
 *                             Default: with GCC or clang on a little-endian
 *                             CPU one access through a type of alignment 1
 *                             (a single STR/LDR where the CPU allows
 *                             unaligned access); else byte by byte.  A port
 *                             for another compiler defines them with its
 *                             own unaligned access (e.g. __packed).
 *
 * The port's C file defines sonde_port_ts().  The counter is free-running
 * and wraps at 2^32; the library extends it to 64 bits by counting wraps,
 * which is exact while some timed record, sonde_time_sync() or sonde_tick()
 * reads it at least once per 2^32 ticks.  It is always read inside the critical
 * section.
 */
#ifndef SONDE_PORT_H
#define SONDE_PORT_H

#include <stdint.h>

#include "sonde_port_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif

uint32_t sonde_port_ts(void);

#ifdef __cplusplus
}
#endif

#ifndef SONDE_PORT_TS
#define SONDE_PORT_TS() sonde_port_ts()
#endif

#ifndef SONDE_PORT_CORE_ID
#define SONDE_PORT_CORE_ID() 0u
#endif

#if !defined(SONDE_PORT_CRIT_DECL) || !defined(SONDE_PORT_CRIT_ENTER) || !defined(SONDE_PORT_CRIT_EXIT)
#error "sonde_port_cfg.h must define SONDE_PORT_CRIT_DECL, SONDE_PORT_CRIT_ENTER() and SONDE_PORT_CRIT_EXIT()"
#endif
#ifndef SONDE_PORT_TS_HZ
#error "sonde_port_cfg.h must define SONDE_PORT_TS_HZ"
#endif

#endif /* SONDE_PORT_H */
